//! Validation data: cases that check the problem's validators, never judged. A package's `data/invalid_input`
//! (inputs its input validators must reject), `data/invalid_output` (outputs its output validator must reject) and
//! `data/valid_output` (outputs it must accept), as 2025-09 has them, each case with its group's flags; a problem of
//! ours has the last two in its folder (its invalid inputs are `invalid/`, each with the message expected).

use super::package_flags::group_flags;
use super::testset::{Test, TestFlags, check_test_file};
use super::yaml_keys::Version;
use super::{PackageParts, Problem};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The kinds of validation data, each a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValidationKind {
    /// `NAME.in`, which at least one input validator must reject.
    InvalidInput,
    /// `NAME.in`, `NAME.ans`, `NAME.out`: a valid input, and an output the output validator must reject.
    InvalidOutput,
    /// As `InvalidOutput`, with an output the output validator must accept.
    ValidOutput,
}

impl ValidationKind {
    pub const ALL: [ValidationKind; 3] = [
        ValidationKind::InvalidInput,
        ValidationKind::InvalidOutput,
        ValidationKind::ValidOutput,
    ];

    /// The folder its cases are in.
    pub fn folder(self) -> &'static str {
        match self {
            ValidationKind::InvalidInput => "invalid_input",
            ValidationKind::InvalidOutput => "invalid_output",
            ValidationKind::ValidOutput => "valid_output",
        }
    }

    /// Whether its cases hold an output for the output validator.
    pub fn has_output(self) -> bool {
        self != ValidationKind::InvalidInput
    }
}

/// One case of validation data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationCase {
    pub kind: ValidationKind,
    /// Its input, answer (where it has one) and flags; its name starts with its folder ("invalid_input/neg").
    pub test: Test,
    /// The output to judge, for the kinds that have one.
    pub output: Option<PathBuf>,
}

/// The problem's validation data, each kind in turn, each in natural order of name. A half-written case (an
/// output or answer without its input, an output case without its answer or output) is an error, as a half-written
/// test is.
pub fn validation_data(problem: &Problem) -> Result<Vec<ValidationCase>> {
    let mut cases = Vec::new();
    match &problem.package {
        Some(package) => {
            let data = problem.dir.join("data");
            for kind in ValidationKind::ALL {
                cases.extend(find(&data, kind, &|input| {
                    package_flags(&data, input, package)
                })?);
            }
        }
        None => {
            for kind in [ValidationKind::InvalidOutput, ValidationKind::ValidOutput] {
                cases.extend(find(&problem.dir, kind, &|_| Ok(TestFlags::default()))?);
            }
        }
    }
    Ok(cases)
}

/// A package case's flags, found as a test's are: every group file from `data/` down, then its own.
fn package_flags(data: &Path, input: &Path, package: &PackageParts) -> Result<TestFlags> {
    // `format` is the label of the version the package was read as, which reads back as that version.
    let version = Version::of(Some(package.format)).unwrap_or(Version::V2025);
    group_flags(
        data,
        input,
        &package.validator_flags,
        version,
        &package.constants,
    )
}

/// The cases of `kind` in its folder under `root`; none when there is no such folder.
fn find(
    root: &Path,
    kind: ValidationKind,
    flags: &dyn Fn(&Path) -> Result<TestFlags>,
) -> Result<Vec<ValidationCase>> {
    let folder = root.join(kind.folder());
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&folder)
        .follow_links(true)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !super::package::hidden(e.path()))
    {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(&folder).to_owned();
            Error::io("read", path, e.into())
        })?;
        if !entry.file_type().is_dir() {
            files.push(entry.into_path());
        }
    }
    let extension = |path: &Path, wanted: &str| path.extension().is_some_and(|e| e == wanted);
    if let Some(orphan) = files
        .iter()
        .find(|f| (extension(f, "ans") || extension(f, "out")) && !f.with_extension("in").exists())
    {
        return Err(Error::Usage(format!(
            "{}: validation data with no input beside it (expected {})",
            orphan.display(),
            orphan.with_extension("in").display()
        )));
    }
    let mut cases = Vec::new();
    for input in files.iter().filter(|f| extension(f, "in")) {
        check_test_file(input)?;
        let answer = input.with_extension("ans");
        let output = kind.has_output().then(|| input.with_extension("out"));
        if let Some(output) = &output {
            for (file, what) in [(&answer, "answer"), (output, "output")] {
                if !file.exists() {
                    return Err(Error::Usage(format!(
                        "{}: a case of {} has no {what} (expected {})",
                        input.display(),
                        kind.folder(),
                        file.display()
                    )));
                }
                check_test_file(file)?;
            }
        }
        let below = input.strip_prefix(root).unwrap_or(input).with_extension("");
        cases.push(ValidationCase {
            kind,
            test: Test {
                name: crate::text::file_name(below.as_os_str()).into(),
                files: crate::problem::Files::at(input.as_path(), answer),
                judging: crate::problem::Judging::new(flags(input)?, Default::default()),
            },
            output,
        });
    }
    cases.sort_by(|a, b| natord::compare(&a.test.name, &b.test.name));
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(dir: &Path, names: &[&str]) {
        for name in names {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
    }

    fn found(root: &Path, kind: ValidationKind) -> std::result::Result<Vec<String>, String> {
        find(root, kind, &|_| Ok(TestFlags::default()))
            .map(|cases| cases.into_iter().map(|c| c.test.name.into()).collect())
            .map_err(|e| e.to_string().replace(&root.display().to_string(), "R"))
    }

    #[test]
    fn cases_of_each_kind_in_natural_order() {
        let dir = tempfile::tempdir().unwrap();
        touch(
            dir.path(),
            &[
                "invalid_input/10.in",
                "invalid_input/2.in",
                "invalid_input/group/neg.in",
                "invalid_input/group/test_group.yaml",
                "invalid_input/.hidden/x.in",
                "valid_output/a.in",
                "valid_output/a.ans",
                "valid_output/a.out",
            ],
        );
        use ValidationKind::*;
        assert_eq!(
            found(dir.path(), InvalidInput).unwrap(),
            [
                "invalid_input/2",
                "invalid_input/10",
                "invalid_input/group/neg"
            ]
        );
        assert_eq!(found(dir.path(), ValidOutput).unwrap(), ["valid_output/a"]);
        assert_eq!(
            found(dir.path(), InvalidOutput).unwrap(),
            Vec::<String>::new()
        );
        let case = &find(dir.path(), ValidOutput, &|_| Ok(TestFlags::default())).unwrap()[0];
        assert_eq!(case.output, Some(dir.path().join("valid_output/a.out")));
        assert_eq!(case.test.answer(), dir.path().join("valid_output/a.ans"));
    }

    #[test]
    fn a_half_written_case_is_named() {
        use ValidationKind::*;
        for (files, kind, said) in [
            (
                &["invalid_output/a.in", "invalid_output/a.ans"][..],
                InvalidOutput,
                "R/invalid_output/a.in: a case of invalid_output has no output (expected R/invalid_output/a.out)",
            ),
            (
                &["valid_output/a.in", "valid_output/a.out"][..],
                ValidOutput,
                "R/valid_output/a.in: a case of valid_output has no answer (expected R/valid_output/a.ans)",
            ),
            (
                &["valid_output/b.out"][..],
                ValidOutput,
                "R/valid_output/b.out: validation data with no input beside it (expected R/valid_output/b.in)",
            ),
            (
                &["invalid_input/c.ans"][..],
                InvalidInput,
                "R/invalid_input/c.ans: validation data with no input beside it",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            touch(dir.path(), files);
            let error = found(dir.path(), kind).unwrap_err();
            assert!(error.starts_with(said), "{files:?}: {error}");
        }
    }
}
