//! A package's test groups: the configuration file of each group (`testdata.yaml` in the legacy format,
//! `test_group.yaml` in 2025-09, either taken in any version) and of each test (`NAME.yaml`), looked at key by
//! key as `package_keys` looks at problem.yaml's. The flags they give are `package_flags`' to read.

use super::constants::Constants;
use super::package::{read_group_text, read_yaml_text, yaml_value};
use super::package_warning::{PackageWarning, WarningKind};
use super::yaml_keys::{Keys, Meaning, Version};
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

const LEGACY_GROUP: &[(&str, Meaning)] = &[
    ("input_validator_flags", Meaning::Used),
    ("output_validator_flags", Meaning::Used),
    ("on_reject", Meaning::Used),
    ("grading", Meaning::Used),
    ("grader_flags", Meaning::Used),
    ("accept_score", Meaning::Scoring),
    ("reject_score", Meaning::Scoring),
    ("range", Meaning::Scoring),
];

const MODERN_GROUP: &[(&str, Meaning)] = &[
    ("input_validator_args", Meaning::Used),
    ("output_validator_args", Meaning::Used),
    ("args", Meaning::Used),
    ("max_score", Meaning::Scoring),
    ("score_aggregation", Meaning::Scoring),
    ("require_pass", Meaning::Scoring),
    // Checked where they are read (`package_static`).
    ("static_validation_score", Meaning::Used),
    ("static_validator_args", Meaning::Used),
    ("input_visualizer_args", Meaning::About),
    ("output_visualizer_args", Meaning::About),
    ("full_feedback", Meaning::About),
];

/// A test's own configuration, `NAME.yaml` beside `NAME.in` (2025-09).
const MODERN_TEST: &[(&str, Meaning)] = &[
    ("args", Meaning::Used),
    ("input_validator_args", Meaning::Used),
    ("output_validator_args", Meaning::Used),
    ("input_visualizer_args", Meaning::About),
    ("output_visualizer_args", Meaning::About),
    ("full_feedback", Meaning::About),
    ("hint", Meaning::About),
    ("description", Meaning::About),
];

/// The grader flags that change a verdict (legacy's default grader): the others choose how scores add up.
const VERDICT_FLAGS: &[&str] = &["always_accept", "accept_if_any_accepted", "ignore_sample"];

/// A group's file, by the name this version gives it.
fn own_name(version: Version) -> &'static str {
    match version {
        Version::Legacy => "testdata.yaml",
        Version::Draft2023 | Version::V2025 => "test_group.yaml",
    }
}

/// The configuration file of the group in `folder`: the one this version names, or else the other (taken too:
/// real packages mix them). 2023-07's drafts used both names.
pub(super) fn group_file(folder: &Path, version: Version) -> Option<PathBuf> {
    let own = own_name(version);
    let other = if own == "testdata.yaml" {
        "test_group.yaml"
    } else {
        "testdata.yaml"
    };
    [own, other]
        .into_iter()
        .map(|name| folder.join(name))
        .find(|path| path.is_file())
}

/// Looks at every group's file and every test's own file under `data/sample` and `data/secret`, and at what
/// else a test may have there.
pub(super) fn check_groups(
    dir: &Path,
    version: Version,
    scoring: bool,
    constants: &Constants,
    warnings: &mut Vec<PackageWarning>,
) -> Result<()> {
    let data = dir.join("data");
    let mut folders = vec![data.clone()];
    for part in ["sample", "secret"] {
        let top = data.join(part);
        if !top.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&top)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !super::package::hidden(e.path()))
        {
            let entry = entry.map_err(|e| Error::io("read", &top, e.into()))?;
            let path = entry.path();
            if entry.file_type().is_dir() {
                if path.extension().is_some_and(|e| e == "files") {
                    return Err(Error::Usage(format!(
                        "{}: a test's input files (NAME.files) are not supported yet: the submission would run \
                         without them",
                        path.display()
                    )));
                }
                folders.push(path.to_owned());
            } else if path.extension().is_some_and(|e| e == "yaml")
                && path.with_extension("in").is_file()
            {
                if version == Version::Legacy {
                    warnings.push(PackageWarning::new(
                        WarningKind::OtherVersion,
                        path,
                        None,
                        "a test's own configuration belongs to the 2023-07 and 2025-09 format, not to the \
                         legacy one: taken as it means there"
                            .to_owned(),
                    ));
                }
                let text = read_yaml_text(path)?;
                check_file(path, &text, version, scoring, FileKind::Test, warnings)?;
            }
        }
    }
    for folder in folders {
        let Some(file) = group_file(&folder, version) else {
            continue;
        };
        let own = own_name(version);
        let name = file.file_name().unwrap_or_default();
        if name != own && version != Version::Draft2023 {
            warnings.push(PackageWarning::new(
                WarningKind::OtherVersion,
                &file,
                None,
                format!(
                    "{} is the {} format's name for a group's file, and this package's ({}) is {own}: taken",
                    name.to_string_lossy(),
                    version.other(),
                    version.label()
                ),
            ));
        }
        let unread = folder.join(if name == "testdata.yaml" {
            "test_group.yaml"
        } else {
            "testdata.yaml"
        });
        if unread.is_file() {
            warnings.push(PackageWarning::new(
                WarningKind::UnknownKey,
                &unread,
                None,
                format!(
                    "not read: {} beside it is this folder's group file",
                    name.to_string_lossy()
                ),
            ));
        }
        // Read as it is used: with its constants replaced (2025-09).
        let text = read_group_text(&file, constants)?;
        check_file(&file, &text, version, scoring, FileKind::Group, warnings)?;
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Group,
    Test,
}

/// Looks at each key of one group's or test's file.
fn check_file(
    path: &Path,
    text: &str,
    version: Version,
    scoring: bool,
    kind: FileKind,
    warnings: &mut Vec<PackageWarning>,
) -> Result<()> {
    let value = yaml_value(path, text)?;
    let Some(map) = value.as_object() else {
        return Ok(());
    };
    // A group's file says which version it is written for by its name, whatever the package's.
    let written_for = match (kind, path.file_name().and_then(|n| n.to_str())) {
        (FileKind::Test, _) => Version::V2025,
        (FileKind::Group, Some("testdata.yaml")) if version == Version::V2025 => Version::Legacy,
        (FileKind::Group, Some("test_group.yaml")) if version == Version::Legacy => Version::V2025,
        _ => version,
    };
    // 2023-07's drafts kept legacy's keys beside the new ones (problemtools' own example `oddecho` has both).
    let drafts: Vec<(&str, Meaning)> = MODERN_GROUP.iter().chain(LEGACY_GROUP).copied().collect();
    let (own, other) = match (kind, written_for) {
        (FileKind::Test, _) => (MODERN_TEST, LEGACY_GROUP),
        (FileKind::Group, Version::Draft2023) => (&drafts[..], &[][..]),
        (FileKind::Group, Version::V2025) => (MODERN_GROUP, LEGACY_GROUP),
        (FileKind::Group, Version::Legacy) => (LEGACY_GROUP, MODERN_GROUP),
    };
    let mut keys = Keys {
        path,
        text,
        version: written_for,
        warnings,
    };
    let mut scoring_keys: Vec<&str> = Vec::new();
    for (key, value, meaning) in keys.sort(map, &[], own, other)? {
        if meaning == Meaning::Scoring {
            scoring_keys.push(key);
            continue;
        }
        let text = value.as_str().unwrap_or_default();
        match key {
            "on_reject" => match text {
                "break" => {}
                "continue" if scoring => scoring_keys.push(key),
                "continue" => {
                    return Err(keys.refuse(
                        &[key],
                        "on_reject: continue (judging on after a failed test, the group's verdict then chosen \
                         by its grader) is not supported yet: cpjudge stops at the first failed test"
                            .to_owned(),
                    ));
                }
                other => {
                    return Err(keys.refuse(
                        &[key],
                        format!("on_reject \"{other}\" is neither break nor continue"),
                    ));
                }
            },
            "grading" => match text {
                "default" => {}
                "custom" => {
                    return Err(keys.refuse(
                        &[key],
                        "custom graders (grading: custom) are not supported yet".to_owned(),
                    ));
                }
                other => {
                    return Err(keys.refuse(
                        &[key],
                        format!("grading \"{other}\" is neither default nor custom"),
                    ));
                }
            },
            "grader_flags" if scoring => scoring_keys.push(key),
            "grader_flags" => {
                if let Some(flag) = text.split_whitespace().find(|f| VERDICT_FLAGS.contains(f)) {
                    return Err(keys.refuse(
                        &[key],
                        format!(
                            "grader flag {flag} changes a pass-fail verdict, and graders are not supported yet"
                        ),
                    ));
                }
                scoring_keys.push(key);
            }
            "args" => {
                let given = match value {
                    Value::Array(list) => !list.is_empty(),
                    Value::String(line) => !line.trim().is_empty(),
                    Value::Null => false,
                    _ => true,
                };
                if given {
                    return Err(keys.refuse(
                        &[key],
                        "arguments to submissions (args) are not supported yet: the submission would run \
                         without them"
                            .to_owned(),
                    ));
                }
            }
            _ => {}
        }
    }
    // Said once, at the first of them in the file.
    let first = scoring_keys
        .iter()
        .min_by_key(|k| keys.line(&[k]).unwrap_or(usize::MAX));
    if let Some(first) = first.filter(|_| !scoring) {
        let why = "they are for scoring problems, and this one is pass-fail";
        let names: Vec<String> = scoring_keys.iter().map(|k| format!("`{k}`")).collect();
        keys.warn(
            WarningKind::NotApplied,
            &[first],
            format!("{} not applied: {why}", names.join(", ")),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The warnings a group's file in a package of `version` gives, as "kind message", or its refusal.
    fn check(
        version: Version,
        name: &str,
        yaml: &str,
        scoring: bool,
    ) -> std::result::Result<Vec<String>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, yaml).unwrap();
        let mut warnings = Vec::new();
        check_file(
            &path,
            yaml,
            version,
            scoring,
            FileKind::Group,
            &mut warnings,
        )
        .map_err(|e| {
            e.to_string()
                .replace(&dir.path().display().to_string(), "D")
        })?;
        Ok(warnings
            .iter()
            .map(|w| format!("{} {}", w.kind.code(), w.message))
            .collect())
    }

    #[test]
    fn group_keys() {
        use Version::*;
        let ok = |v, name, yaml, scoring| check(v, name, yaml, scoring).unwrap();
        assert_eq!(
            ok(
                Legacy,
                "testdata.yaml",
                "output_validator_flags: x\non_reject: break\n",
                false
            ),
            Vec::<String>::new()
        );
        // A scoring problem's keys are applied: no warning.
        assert_eq!(
            ok(
                Legacy,
                "testdata.yaml",
                "on_reject: continue\ngrader_flags: sum\naccept_score: 30\n",
                true
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            ok(
                V2025,
                "test_group.yaml",
                "output_validator_args: [case_sensitive]\nmax_score: 5\npoints: 2\n",
                false
            ),
            [
                "unknown_key `points` is no key of the format (in any version cpjudge reads): not used",
                "not_applied `max_score` not applied: they are for scoring problems, and this one is pass-fail",
            ]
        );
        // Static validation's keys are read, and checked, where its test cases are made (`package_static`), in a
        // pass-fail problem too.
        for scoring in [true, false] {
            assert_eq!(
                ok(
                    V2025,
                    "test_group.yaml",
                    "static_validation_score: pass-fail\nstatic_validator_args: [--strict]\n",
                    scoring
                ),
                Vec::<String>::new()
            );
        }
        // The legacy name in a 2025-09 package: its keys are legacy's.
        assert_eq!(
            ok(V2025, "testdata.yaml", "output_validator_flags: x\n", false),
            Vec::<String>::new()
        );
        for (yaml, line, said) in [
            (
                "on_reject: continue\n",
                1,
                "on_reject: continue (judging on",
            ),
            (
                "grading: custom\n",
                1,
                "custom graders (grading: custom) are not supported yet",
            ),
            (
                "range: 0 1\ngrader_flags: always_accept\n",
                2,
                "grader flag always_accept changes",
            ),
            (
                "args: [--fast]\n",
                1,
                "arguments to submissions (args) are not supported yet",
            ),
        ] {
            let name = if yaml.starts_with("args") {
                "test_group.yaml"
            } else {
                "testdata.yaml"
            };
            let version = if name == "testdata.yaml" {
                Legacy
            } else {
                V2025
            };
            let error = check(version, name, yaml, false).unwrap_err();
            assert!(
                error.starts_with(&format!("D/{name}:{line}:1: ")) && error.contains(said),
                "{yaml}: {error}"
            );
        }
    }
}
