//! The parts of a package beside its configuration that change how submissions are built or what they are
//! expected to get: included files, a static validator, `submissions/submissions.yaml`, and 2025-09's constants
//! in the programs. cpjudge does not apply them, so each that would change a verdict refuses the package by
//! name; what would not is a warning.

use super::package::{hidden, read_yaml_text, yaml_value};
use super::package_warning::{PackageWarning, WarningKind};
use super::yaml_keys::{Keys, Version};
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The keys of an entry of submissions.yaml that say nothing of a verdict.
const ABOUT_SUBMISSIONS: &[&str] = &["authors", "model_solution"];
/// Those that say how the submission is built, which cpjudge finds itself.
const BUILT: &[&str] = &["language", "entrypoint"];
/// Those that say what the submission is expected to get, which cpjudge takes from its folder alone.
const EXPECTED: &[&str] = &[
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// The most of a file read to look for constants in.
const CONSTANT_SEARCH_LIMIT: usize = 1 << 20;

/// Looks at the parts of the package in `dir`; `problem` is problem.yaml as read.
pub(super) fn check_parts(
    dir: &Path,
    problem: &Value,
    warnings: &mut Vec<PackageWarning>,
) -> Result<()> {
    for (folder, feature) in [
        (
            "include",
            "included files (include/), added to every submission before it is built,",
        ),
        (
            "static_validator",
            "static validation (static_validator/, a validator of the submission's source)",
        ),
    ] {
        if let Some(file) = files_under(&dir.join(folder)).first() {
            return Err(Error::Usage(format!(
                "{}: {feature} is not supported yet: submissions would be judged without it (it holds {})",
                dir.join(folder).display(),
                file.display()
            )));
        }
    }
    submissions_yaml(dir, warnings)?;
    constants(dir, problem)
}

/// submissions/submissions.yaml (2025-09): each glob's keys.
fn submissions_yaml(dir: &Path, warnings: &mut Vec<PackageWarning>) -> Result<()> {
    let path = dir.join("submissions").join("submissions.yaml");
    if !path.is_file() {
        return Ok(());
    }
    let text = read_yaml_text(&path)?;
    let value = yaml_value(&path, &text)?;
    let Some(globs) = value.as_object() else {
        return Ok(());
    };
    let mut keys = Keys {
        path: &path,
        text: &text,
        version: Version::V2025,
        warnings,
    };
    for (glob, entry) in globs {
        let Some(entry) = entry.as_object() else {
            continue;
        };
        for (key, value) in entry {
            let at = [glob.as_str(), key.as_str()];
            if ABOUT_SUBMISSIONS.contains(&key.as_str()) {
                continue;
            }
            if key == "entrypoint" || EXPECTED.contains(&key.as_str()) || value.is_object() {
                // Read by the submissions' rules (submissions_yaml.rs).
                continue;
            }
            if BUILT.contains(&key.as_str()) {
                keys.warn(
                    WarningKind::NotApplied,
                    &at,
                    format!(
                        "`{key}` of {glob} is not applied: cpjudge finds a submission's language and entry \
                         point from its files"
                    ),
                );
            } else if EXPECTED.contains(&key.as_str()) || value.is_object() {
                // A map under a key is a requirement on a group of tests (`secret/group1: {permitted: ..}`).
                return Err(keys.refuse(
                    &at,
                    format!(
                        "`{key}` of {glob}: expectations given in submissions.yaml are not supported yet: \
                         cpjudge expects what a submission's folder (or its @EXPECTED_RESULTS@ tag) says"
                    ),
                ));
            } else {
                keys.warn(
                    WarningKind::UnknownKey,
                    &at,
                    format!("`{key}` of {glob} is no key of submissions.yaml: not used"),
                );
            }
        }
    }
    Ok(())
}

/// 2025-09's constants: `{{name}}` in a program, or a group's file, stands for the constant's value. cpjudge does
/// not substitute them, so a package that uses one where judging reads it is refused; one whose constants are
/// used only in its statement is judged as it is.
fn constants(dir: &Path, problem: &Value) -> Result<()> {
    let Some(names) = problem.get("constants").and_then(Value::as_object) else {
        return Ok(());
    };
    let names: Vec<&str> = names.keys().map(String::as_str).collect();
    if names.is_empty() {
        return Ok(());
    }
    let mut files = Vec::new();
    for folder in [
        "submissions",
        "input_validators",
        "input_validator",
        "output_validator",
        "output_validators",
        "include",
    ] {
        files.extend(files_under(&dir.join(folder)));
    }
    files.extend(
        files_under(&dir.join("data"))
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "yaml")),
    );
    for file in files {
        let text = crate::text::read_head(&file, CONSTANT_SEARCH_LIMIT);
        if let Some((name, line)) = first_constant(&text, &names) {
            return Err(Error::Usage(format!(
                "{}:{line}: constants ({{{{{name}}}}}, from problem.yaml's `constants`) are not substituted yet: \
                 the program would be built and run with the sequence as written",
                file.display()
            )));
        }
    }
    Ok(())
}

/// The first constant sequence (`{{name}}` or `{{name.variant}}`) of one of `names` in `text`, and its line.
fn first_constant<'n>(text: &[u8], names: &[&'n str]) -> Option<(&'n str, usize)> {
    let mut from = 0;
    while let Some(at) = text[from..].windows(2).position(|w| w == b"{{") {
        let start = from + at + 2;
        let rest = &text[start..];
        let length = rest
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .unwrap_or(rest.len());
        let after = rest.get(length);
        if let Some(name) = names.iter().find(|n| n.as_bytes() == &rest[..length])
            && matches!(after, Some(b'}') | Some(b'.'))
        {
            let line = 1 + text[..start].iter().filter(|&&b| b == b'\n').count();
            return Some((name, line));
        }
        from = start;
    }
    None
}

/// Every file under `folder` but hidden ones, in name order; none when it does not exist.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    if !folder.is_dir() {
        return Vec::new();
    }
    walkdir::WalkDir::new(folder)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !hidden(e.path()))
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_sequences() {
        let names = ["FIVE", "six"];
        assert_eq!(
            first_constant(b"a\nb = {{FIVE}}\n", &names),
            Some(("FIVE", 2))
        );
        assert_eq!(first_constant(b"x {{six.tex}}", &names), Some(("six", 1)));
        assert_eq!(
            first_constant(b"{{FIVES}} {{ FIVE }} {{seven}}", &names),
            None
        );
        assert_eq!(first_constant(b"map<int, {{", &names), None);
    }
}
