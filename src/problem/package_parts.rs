//! The parts of a package beside its configuration that change how submissions are built or what they are
//! expected to get: `submissions/submissions.yaml`, and 2025-09's constants in the programs.
//! Each that cpjudge does not apply and that would change a verdict refuses the package by name; what would not is
//! a warning. Constants are applied (see `constants`): what is looked at here is the sequences they leave as written.

use super::constants::Constants;
use super::package::{hidden, read_yaml_text, yaml_value};
use super::package_warning::{PackageWarning, WarningKind};
use super::yaml_keys::{Keys, Version};
use crate::error::Result;
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

/// Looks at the parts of the package in `dir`, of format `version`, whose problem.yaml gives `constants`.
pub(super) fn check_parts(
    dir: &Path,
    version: Version,
    constants: &Constants,
    warnings: &mut Vec<PackageWarning>,
) -> Result<()> {
    submissions_yaml(dir, warnings)?;
    if version == Version::V2025 || !constants.is_empty() {
        undefined_constants(dir, constants, warnings);
    }
    Ok(())
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

/// 2025-09's constants: `{{name}}` in a program, an included file or a group's file stands for the constant's value,
/// and one naming no constant is left as written, which the program or the file will likely not take: each file
/// holding some is warned of, with the first one's line.
fn undefined_constants(dir: &Path, constants: &Constants, warnings: &mut Vec<PackageWarning>) {
    let mut files = Vec::new();
    for folder in [
        "submissions",
        "input_validators",
        "input_validator",
        "input_format_validators",
        "output_validator",
        "output_validators",
        "static_validator",
        "include",
    ] {
        files.extend(files_under(&dir.join(folder)));
    }
    files.extend(
        files_under(&dir.join("data"))
            .into_iter()
            .filter(|f| f.ends_with("test_group.yaml") || f.ends_with("testdata.yaml")),
    );
    let package = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    for file in files {
        // Only the package's own files: what a link out of it points to is no file of the package, not read here.
        if !std::fs::canonicalize(&file).is_ok_and(|real| real.starts_with(&package)) {
            continue;
        }
        let bytes = crate::text::read_head(&file, CONSTANT_SEARCH_LIMIT);
        // A file that is not text has nothing replaced in it.
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let undefined = constants.undefined(text);
        let Some((_, line)) = undefined.first() else {
            continue;
        };
        let mut named: Vec<&str> = undefined.iter().map(|(s, _)| *s).collect();
        named.sort_unstable();
        named.dedup();
        warnings.push(PackageWarning::new(
            WarningKind::UnknownKey,
            &file,
            Some(*line),
            format!(
                "{} {} no constant of problem.yaml's `constants`: left as written",
                named.join(", "),
                if named.len() == 1 { "names" } else { "name" }
            ),
        ));
    }
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
    fn sequences_naming_no_constant_are_warned_of_once_per_file() {
        let dir = tempfile::tempdir().unwrap();
        let accepted = dir.path().join("submissions/accepted");
        std::fs::create_dir_all(&accepted).unwrap();
        std::fs::create_dir_all(dir.path().join("data/secret")).unwrap();
        std::fs::write(
            accepted.join("a.py"),
            "print({{n}})\nprint({{m}}, {{m}}, {{n.tex}})\n",
        )
        .unwrap();
        std::fs::write(accepted.join("b.cpp"), "int a[1][1] = {{1}};\n").unwrap();
        std::fs::write(
            dir.path().join("data/secret/test_group.yaml"),
            "args: ['{{k}}']\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("data/secret/1.in"), "{{k}}\n").unwrap();
        let constants = Constants::of(&[("n", "value", "1")]);
        let mut warnings = Vec::new();
        check_parts(dir.path(), Version::V2025, &constants, &mut warnings).unwrap();
        let said: Vec<String> = warnings
            .iter()
            .map(|w| {
                let below = w.file.strip_prefix(dir.path()).unwrap().display();
                format!("{below}:{}: {}", w.line.unwrap(), w.message)
            })
            .collect();
        assert_eq!(
            said,
            [
                "submissions/accepted/a.py:2: {{m}}, {{n.tex}} name no constant of problem.yaml's `constants`: \
                 left as written",
                "data/secret/test_group.yaml:1: {{k}} names no constant of problem.yaml's `constants`: left as \
                 written",
            ]
        );
        // A legacy package without constants has no sequences to speak of.
        let mut warnings = Vec::new();
        check_parts(
            dir.path(),
            Version::Legacy,
            &Constants::default(),
            &mut warnings,
        )
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
    }
}
