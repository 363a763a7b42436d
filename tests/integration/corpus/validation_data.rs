//! The validation data of the corpus: BAPCtools' `identity` writes its `data/invalid_input`, `invalid_output` and
//! `valid_output` cases inline in `generators/generators.yaml`, which cpjudge does not run. The test writes them as
//! BAPCtools' generator does (a string, with a newline added where it has none), and `validate` must find the
//! package's own validators taking each as its folder says.

use super::judge::copy_package;
use super::table::corpus;
use crate::harness::shared_cache;
use crate::packages::cpjudge;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What the test reads of generators.yaml: the inline cases of the format's validation folders (BAPCtools' own
/// `invalid_answer`, for answer validators, which cpjudge does not run, and the rest are left).
#[derive(Deserialize)]
struct Generators {
    data: Data,
}

#[derive(Deserialize)]
struct Data {
    invalid_input: Folder,
    invalid_output: Folder,
    valid_output: Folder,
}

/// Each case by name, each file of it by extension.
#[derive(Deserialize)]
struct Folder {
    data: BTreeMap<String, BTreeMap<String, String>>,
}

/// Writes a folder's inline cases under `package/data/<name>`; how many.
fn write_inline_cases(package: &Path, name: &str, folder: &Folder) -> usize {
    let dir = package.join("data").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (case, files) in &folder.data {
        for (extension, contents) in files {
            let mut contents = contents.clone();
            // As BAPCtools' generate.py writes an inline file.
            if !contents.is_empty() && !contents.ends_with('\n') {
                contents.push('\n');
            }
            std::fs::write(dir.join(format!("{case}.{extension}")), contents).unwrap();
        }
    }
    folder.data.len()
}

#[test]
fn bapctools_identity_validation_data_holds() {
    if which::which("checktestdata").is_err() && which::which("pyctd").is_err() {
        eprintln!(
            "skipped: identity checks its inputs with a checktestdata script too, and neither checktestdata nor \
             pyctd is on PATH"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("identity");
    copy_package(&corpus().join("bapctools/identity"), &path);
    let text = std::fs::read_to_string(path.join("generators/generators.yaml")).unwrap();
    let data = serde_saphyr::from_str::<Generators>(&text).unwrap().data;
    let counts = [
        ("invalid_input", &data.invalid_input),
        ("invalid_output", &data.invalid_output),
        ("valid_output", &data.valid_output),
    ]
    .map(|(name, folder)| write_inline_cases(&path, name, folder));
    assert_eq!(
        counts,
        [6, 1, 1],
        "identity's inline validation data changed"
    );
    let validated = cpjudge(&["validate", path.to_str().unwrap()], &shared_cache());
    validated.expect(
        0,
        "ok: 5 of 5 tests valid; 6 of 6 invalid inputs rejected; 1 of 1 invalid output rejected; 1 of 1 valid \
         output accepted",
    );
}
