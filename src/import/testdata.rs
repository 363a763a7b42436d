//! A package's tests as `testdata/<name>/`: the samples as `sample-1`, `sample-2`... in the order they are judged
//! (what [`Test::is_sample`] and the samples' group take), the secret tests below `data/secret` as they lie there,
//! or, in a scoring package, below the folder of their group.

use super::groups::Group;
use crate::error::{Error, Result};
use crate::problem::{Problem, Test, check_test_file};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A test of the package, and where it goes below testdata/<name>/, without its extension.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub test: Test,
    pub to: PathBuf,
}

/// Where each of the package's tests goes.
pub(super) fn place(problem: &Problem, groups: Option<&[Group]>) -> Result<Vec<Placed>> {
    let package = problem.package.as_ref().expect("a package");
    let data = problem.dir.join("data");
    let mut placed = Vec::new();
    let mut samples = 0;
    for test in &package.tests {
        let below = |folder: &str| stem(test.input().strip_prefix(data.join(folder)).ok()?);
        let to = if test.name.starts_with("sample/") {
            samples += 1;
            PathBuf::from(format!("sample-{samples}"))
        } else {
            let (ours, rest) = match groups {
                None => (PathBuf::new(), below("secret")),
                Some(groups) => match groups
                    .iter()
                    .find(|g| test.name.starts_with(&format!("{}/", g.folder)))
                {
                    Some(group) => (PathBuf::from(&group.name), below(&group.folder)),
                    None => (PathBuf::new(), None),
                },
            };
            let Some(rest) = rest else {
                return Err(Error::Usage(format!(
                    "{}: a test in no group that problem.toml can have: not imported",
                    test.input().display()
                )));
            };
            ours.join(rest)
        };
        let shown = Test {
            name: to.to_string_lossy().as_ref().into(),
            ..test.clone()
        };
        if !test.name.starts_with("sample/") && shown.is_sample() {
            return Err(Error::Usage(format!(
                "{}: a secret test that problem.toml would take for a sample, by its name ({}): not imported",
                test.input().display(),
                shown.name
            )));
        }
        placed.push(Placed {
            test: test.clone(),
            to,
        });
    }
    Ok(placed)
}

/// `path` less its `.in`, keeping the rest of its name's bytes.
fn stem(path: &Path) -> Option<PathBuf> {
    let bytes = path.as_os_str().as_bytes();
    let stem = bytes.strip_suffix(b".in")?;
    Some(PathBuf::from(OsStr::from_bytes(stem)))
}

/// Copies the tests into `into`: each input and answer a regular file of at most the size a test may have, as
/// the judge reads them.
pub(super) fn copy(placed: &[Placed], into: &Path) -> Result<()> {
    for Placed { test, to } in placed {
        for (from, extension) in [(&*test.input(), "in"), (&*test.answer(), "ans")] {
            check_test_file(from)?;
            let mut name = to.as_os_str().to_owned();
            name.push(".");
            name.push(extension);
            let target = into.join(name);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
            }
            std::fs::copy(from, &target).map_err(|e| Error::io("copy", from, e))?;
        }
    }
    Ok(())
}

/// What the tests are, in a line.
pub(super) fn summary(placed: &[Placed], groups: &[Group]) -> String {
    let samples = placed
        .iter()
        .filter(|p| p.test.name.starts_with("sample/"))
        .count();
    let mut line = format!(
        "{} tests ({samples} sample{})",
        placed.len(),
        if samples == 1 { "" } else { "s" }
    );
    if !groups.is_empty() {
        let each: Vec<String> = groups
            .iter()
            .map(|g| format!("{} {}", g.name, super::number(g.points)))
            .collect();
        line.push_str(&format!(
            ", in {} group{}: {}",
            groups.len(),
            if groups.len() == 1 { "" } else { "s" },
            each.join(", ")
        ));
    }
    line
}
