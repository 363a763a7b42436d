//! 2025-09's static validation: the package's static validator (`static_validator/`, a program found and built as
//! the output validator in `output_validator/` is), and the static validation test case that `sample`, `secret`
//! and each test data group may define in its group file (`static_validation_score`, `static_validator_args`).
//! Each rule the format gives them is checked here, a broken one refused at the file and line that break it.
//!
//! A static validation test case is a test of its group named `GROUP/@static` (a name no test of a package can
//! have: the format's file names hold no `@`), without input or answer; the judge runs the static validator on
//! the submission's files for it (see `judge::run_test`).

use super::constants::Constants;
use super::package::{hidden, program, yaml_value};
use super::package_groups::group_file;
use super::package_warning::{PackageWarning, WarningKind};
use super::testset::{Test, TestKind};
use super::yaml_keys::{Version, key_line};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::scoring::{Aggregation, Grouping, MaxScore, Rule, StaticScore};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The last part of a static validation test case's name, after its group's.
pub const STATIC_CASE: &str = "@static";

/// The keys of a group file that define its static validation test case.
const SCORE: &str = "static_validation_score";
const ARGS: &str = "static_validator_args";

/// What the package's static validation is: its validator, if it has one, and the static validation test cases of
/// its groups, parents before the groups below them.
#[derive(Debug, Default)]
pub(super) struct StaticValidation {
    pub validator: Option<Source>,
    pub cases: Vec<Test>,
}

/// Reads the static validation of the package in `dir`: a scoring problem's groups are `grouping`'s (None for a
/// pass-fail problem); `tests` are its tests, none of which may have a static case's name; group files are read
/// with `constants` replaced, and the validator is built with `replaced`.
pub(super) fn read(
    dir: &Path,
    version: Version,
    grouping: Option<&Grouping>,
    constants: &Constants,
    replaced: &Option<Arc<Constants>>,
    tests: &[Test],
    warnings: &mut Vec<PackageWarning>,
) -> Result<StaticValidation> {
    // A submit-answer problem, which may not have one, is refused before this (see `package_keys`).
    let folder = dir.join("static_validator");
    let validator = if holds_files(&folder) {
        let mut source = program(&folder)?;
        source.preparation.constants = replaced.clone();
        Some(source)
    } else {
        None
    };
    let data = dir.join("data");
    let mut cases = Vec::new();
    for (folder, group) in group_folders(&data, version) {
        let Some(file) = group_file(&folder, version) else {
            continue;
        };
        let text = super::package::read_group_text(&file, constants)?;
        let Value::Object(map) = yaml_value(&file, &text)? else {
            continue;
        };
        let bad = |key: &str, message: String| Error::Config {
            path: file.clone(),
            line: key_line(&text, &[key]).unwrap_or(1),
            column: 1,
            message,
        };
        let score = match map.get(SCORE) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "pass-fail" => Some(StaticScore::PassFail),
            Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().map(StaticScore::Points),
            Some(other) => {
                return Err(bad(
                    SCORE,
                    format!("{SCORE} {other} is neither a non-negative integer nor pass-fail"),
                ));
            }
        };
        let args = match map.get(ARGS) {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => Some(
                list.iter()
                    .map(|v| match v {
                        Value::String(s) => Some(s.clone()),
                        Value::Number(n) => Some(n.to_string()),
                        Value::Bool(b) => Some(b.to_string()),
                        _ => None,
                    })
                    .collect::<Option<Vec<String>>>()
                    .ok_or_else(|| bad(ARGS, format!("{ARGS} must be a sequence of strings")))?,
            ),
            Some(other) => {
                return Err(bad(
                    ARGS,
                    format!("{ARGS} {other} is not a sequence of strings"),
                ));
            }
        };
        let Some(score) = score else {
            if args.is_some() {
                return Err(bad(
                    ARGS,
                    format!(
                        "{ARGS} without {SCORE}: the arguments are for the group's static validation test case, \
                         which only {SCORE} defines"
                    ),
                ));
            }
            continue;
        };
        let Some(group) = &group else {
            return Err(bad(
                SCORE,
                format!(
                    "{} is no test data group: only sample, secret and the groups below secret define a static \
                     validation test case",
                    folder.display()
                ),
            ));
        };
        if let Some(why) = misplaced(score, group, grouping) {
            return Err(bad(SCORE, why));
        }
        if validator.is_none() {
            return Err(bad(
                SCORE,
                format!(
                    "{SCORE} defines a static validation test case for {group}, and the package has no static \
                     validator (static_validator/) to judge it"
                ),
            ));
        }
        let name = format!("{group}/{STATIC_CASE}");
        if let Some(clash) = tests.iter().find(|t| t.name == name) {
            return Err(bad(
                SCORE,
                format!(
                    "the static validation test case of {group} is named {name}, as the test {} is",
                    clash.input().display()
                ),
            ));
        }
        cases.push(Test {
            name: name.into(),
            files: crate::problem::Files::at(Path::new(""), PathBuf::new()),
            judging: crate::problem::Judging::new(
                Default::default(),
                TestKind::static_case(score, args.unwrap_or_default()),
            ),
        });
    }
    if validator.is_some() && cases.is_empty() {
        warnings.push(PackageWarning::new(
            WarningKind::NotApplied,
            &folder,
            None,
            format!(
                "the static validator is not run: no group defines a static validation test case ({SCORE} in \
                 its test_group.yaml)"
            ),
        ));
    }
    Ok(StaticValidation { validator, cases })
}

/// Why a case worth `score` may not be in `group` (of `grouping`, None in a pass-fail problem), if it may not: the
/// format gives points only in a scoring problem's group that sums or takes the least of its scores, and makes
/// `pass-fail` a case of a pass-fail group or problem.
fn misplaced(score: StaticScore, group: &str, grouping: Option<&Grouping>) -> Option<String> {
    let Some(grouping) = grouping else {
        return match score {
            StaticScore::PassFail => None,
            StaticScore::Points(points) => Some(format!(
                "{SCORE} {points}: a static validation test case has a score only in a scoring problem (type: \
                 scoring), and this one is pass-fail; write {SCORE}: pass-fail"
            )),
        };
    };
    let (aggregation, max) = match grouping.named(group).map(|g| &g.rule) {
        Some(Rule::Modern {
            aggregation, max, ..
        }) => (*aggregation, *max),
        _ => return Some(format!("{group} is no group of this scoring problem")),
    };
    match (score, aggregation) {
        (StaticScore::PassFail, Aggregation::PassFail) => None,
        (StaticScore::PassFail, other) => Some(format!(
            "{SCORE}: pass-fail is for a pass-fail group, and {group}'s score_aggregation is {}; give the \
             static validation test case a score instead",
            name_of(other)
        )),
        (StaticScore::Points(points), Aggregation::PassFail) => Some(format!(
            "{SCORE} {points}: {group} is pass-fail (its score_aggregation), where a static validation test case \
             has no score of its own; write {SCORE}: pass-fail"
        )),
        (StaticScore::Points(points), _) => match max {
            MaxScore::Bounded(max) if points as f64 > max => Some(format!(
                "{SCORE} {points} is over {group}'s max_score {}",
                crate::scoring::show(max)
            )),
            _ => None,
        },
    }
}

fn name_of(aggregation: Aggregation) -> &'static str {
    match aggregation {
        Aggregation::PassFail => "pass-fail",
        Aggregation::Sum => "sum",
        Aggregation::Min => "min",
    }
}

/// The folders of `data` whose group file may speak of static validation, each with the group it is, if it is
/// one: `data/sample`, `data/secret` and each folder below it with a group file are groups; `data/` and the folders
/// below `data/sample` are not.
fn group_folders(data: &Path, version: Version) -> Vec<(PathBuf, Option<String>)> {
    let mut found = vec![(data.to_owned(), None)];
    for part in ["sample", "secret"] {
        let top = data.join(part);
        if !top.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&top)
            .follow_links(true)
            .sort_by(|a, b| {
                natord::compare(
                    &a.file_name().to_string_lossy(),
                    &b.file_name().to_string_lossy(),
                )
            })
            .into_iter()
            .filter_entry(|e| !hidden(e.path()))
            .flatten()
            .filter(|e| e.file_type().is_dir())
        {
            let folder = entry.into_path();
            let below = folder.strip_prefix(data).unwrap_or(&folder);
            let name = below
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let group = (folder == top
                || (part == "secret" && group_file(&folder, version).is_some()))
            .then_some(name);
            found.push((folder, group));
        }
    }
    found
}

/// Whether `folder` is a folder holding something other than hidden files.
fn holds_files(folder: &Path) -> bool {
    folder.is_dir()
        && walkdir::WalkDir::new(folder)
            .follow_links(true)
            .min_depth(1)
            .into_iter()
            .filter_entry(|e| !hidden(e.path()))
            .flatten()
            .any(|e| e.file_type().is_file())
}

/// `tests` with each of `cases` (parents first) in its place: before the first test of its group, or, where the
/// group has none among them, before the first test after the group by name.
pub(super) fn place(cases: &[Test], mut tests: Vec<Test>) -> Vec<Test> {
    for case in cases {
        let group = case
            .name
            .strip_suffix(STATIC_CASE)
            .unwrap_or(&case.name)
            .to_owned();
        let outputs = || tests.iter().enumerate().filter(|(_, t)| t.has_files());
        let at = outputs()
            .find(|(_, t)| t.name.starts_with(&group))
            .or_else(|| {
                outputs()
                    .find(|(_, t)| natord::compare(&t.name, &group) == std::cmp::Ordering::Greater)
            })
            .map_or(tests.len(), |(at, _)| at);
        tests.insert(at, case.clone());
    }
    tests
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &str) -> Test {
        Test {
            name: name.into(),
            files: crate::problem::Files::at(
                Path::new(&format!("{name}.in")),
                PathBuf::from(format!("{name}.ans")),
            ),
            judging: crate::problem::Judging::new(Default::default(), TestKind::Output),
        }
    }

    fn case(group: &str) -> Test {
        Test {
            name: format!("{group}/{STATIC_CASE}").into(),
            judging: crate::problem::Judging::new(
                Default::default(),
                TestKind::static_case(StaticScore::PassFail, Vec::new()),
            ),
            ..test("x")
        }
    }

    /// A 2025-09 package of `kind` (scoring or pass-fail) with `files`, and a static validator unless `bare`.
    fn package(kind: &str, files: &[(&str, &str)], bare: bool) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut all = vec![
            (
                "problem.yaml".to_owned(),
                format!("problem_format_version: 2025-09\nname: P\ntype: {kind}\n"),
            ),
            ("data/sample/1.in".to_owned(), String::new()),
            ("data/secret/a/1.in".to_owned(), String::new()),
            ("data/secret/b/1.in".to_owned(), String::new()),
        ];
        if !bare {
            all.push((
                "static_validator/check.py".to_owned(),
                "exit(42)\n".to_owned(),
            ));
        }
        all.extend(files.iter().map(|(f, t)| (f.to_string(), t.to_string())));
        for (file, text) in all {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    /// The static validation of a package of `kind` with `files`, or its refusal with the package's folder as `D`.
    fn read_in(
        kind: &str,
        files: &[(&str, &str)],
        bare: bool,
    ) -> std::result::Result<(StaticValidation, Vec<PackageWarning>), String> {
        let dir = package(kind, files, bare);
        let grouping = (kind == "scoring").then(|| {
            super::super::package_tree::grouping(dir.path(), Version::V2025, &Constants::default())
                .unwrap()
        });
        let mut warnings = Vec::new();
        read(
            dir.path(),
            Version::V2025,
            grouping.as_ref(),
            &Constants::default(),
            &None,
            &[test("secret/a/1")],
            &mut warnings,
        )
        .map(|found| (found, warnings))
        .map_err(|e| {
            e.to_string()
                .replace(&dir.path().display().to_string(), "D")
        })
    }

    #[test]
    fn each_group_may_define_a_case() {
        let (found, warnings) = read_in(
            "scoring",
            &[
                (
                    "data/sample/test_group.yaml",
                    "static_validation_score: pass-fail\n",
                ),
                (
                    "data/secret/test_group.yaml",
                    "static_validation_score: 20\n",
                ),
                (
                    "data/secret/a/test_group.yaml",
                    "max_score: 40\nscore_aggregation: sum\nstatic_validation_score: 10\n\
                     static_validator_args: [--forbid, eval, 3]\n",
                ),
                (
                    "data/secret/b/test_group.yaml",
                    "max_score: 40\nstatic_validation_score: pass-fail\n",
                ),
            ],
            false,
        )
        .unwrap();
        assert!(found.validator.is_some());
        assert!(warnings.is_empty(), "{warnings:?}");
        let cases: Vec<(&str, &TestKind)> = found
            .cases
            .iter()
            .map(|t| (t.name.as_str(), t.kind()))
            .collect();
        let kind = |score, args: &[&str]| {
            TestKind::static_case(score, args.iter().map(|a| a.to_string()).collect())
        };
        assert_eq!(
            cases,
            [
                ("sample/@static", &kind(StaticScore::PassFail, &[])),
                ("secret/@static", &kind(StaticScore::Points(20), &[])),
                (
                    "secret/a/@static",
                    &kind(StaticScore::Points(10), &["--forbid", "eval", "3"])
                ),
                ("secret/b/@static", &kind(StaticScore::PassFail, &[])),
            ]
        );
        // A pass-fail problem's groups have pass-fail cases.
        let (found, _) = read_in(
            "pass-fail",
            &[(
                "data/secret/a/test_group.yaml",
                "static_validation_score: pass-fail\n",
            )],
            false,
        )
        .unwrap();
        assert_eq!(found.cases.len(), 1);
        // A validator no group uses is said to be unused.
        let (found, warnings) = read_in("scoring", &[], false).unwrap();
        assert!(found.cases.is_empty());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.contains("not run"), "{warnings:?}");
    }

    #[test]
    fn the_formats_rules_are_kept_at_the_line_that_breaks_them() {
        let a = "data/secret/a/test_group.yaml";
        for (kind, file, yaml, bare, line, said) in [
            (
                "scoring",
                a,
                "max_score: 40\nscore_aggregation: sum\nstatic_validation_score: 10\n",
                true,
                3,
                "the package has no static validator (static_validator/)",
            ),
            (
                "scoring",
                a,
                "max_score: 40\nstatic_validation_score: 10\n",
                false,
                2,
                "secret/a is pass-fail (its score_aggregation)",
            ),
            (
                "scoring",
                a,
                "max_score: 40\nscore_aggregation: min\nstatic_validation_score: pass-fail\n",
                false,
                3,
                "secret/a's score_aggregation is min",
            ),
            (
                "scoring",
                "data/sample/test_group.yaml",
                "static_validation_score: 1\n",
                false,
                1,
                "sample is pass-fail",
            ),
            (
                "pass-fail",
                a,
                "static_validation_score: 5\n",
                false,
                1,
                "only in a scoring problem (type: scoring)",
            ),
            (
                "scoring",
                a,
                "max_score: 40\nscore_aggregation: sum\nstatic_validation_score: 41\n",
                false,
                3,
                "static_validation_score 41 is over secret/a's max_score 40",
            ),
            (
                "scoring",
                a,
                "max_score: 40\nscore_aggregation: sum\n\nstatic_validator_args: [x]\n",
                false,
                4,
                "static_validator_args without static_validation_score",
            ),
            (
                "pass-fail",
                a,
                "static_validation_score: 2.5\n",
                false,
                1,
                "neither a non-negative integer nor pass-fail",
            ),
            (
                "pass-fail",
                a,
                "static_validation_score: -1\n",
                false,
                1,
                "neither a non-negative integer nor pass-fail",
            ),
            (
                "pass-fail",
                a,
                "static_validation_score: pass-fail\nstatic_validator_args: --x\n",
                false,
                2,
                "is not a sequence of strings",
            ),
            (
                "pass-fail",
                "data/test_group.yaml",
                "static_validation_score: pass-fail\n",
                false,
                1,
                "is no test data group",
            ),
            (
                "pass-fail",
                "data/secret/c/test_group.yaml",
                "static_validation_score: pass-fail\n",
                false,
                1,
                "",
            ),
        ] {
            let error = match read_in(kind, &[(file, yaml)], bare) {
                Err(error) => error,
                Ok(_) if said.is_empty() => continue,
                Ok(_) => panic!("{yaml}: not refused"),
            };
            assert!(
                error.starts_with(&format!("D/{file}:{line}:1: ")) && error.contains(said),
                "{yaml}: {error}"
            );
        }
        // A test of the package named as the case would be is refused too.
        let dir = package(
            "pass-fail",
            &[(
                "data/secret/a/test_group.yaml",
                "static_validation_score: pass-fail\n",
            )],
            false,
        );
        let error = read(
            dir.path(),
            Version::V2025,
            None,
            &Constants::default(),
            &None,
            &[test("secret/a/@static")],
            &mut Vec::new(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("is named secret/a/@static, as the test secret/a/@static.in is"),
            "{error}"
        );
    }

    #[test]
    fn each_case_goes_before_its_groups_tests() {
        let tests = ["sample/1", "secret/a/1", "secret/a/2", "secret/c/1"].map(test);
        let cases = ["sample", "secret", "secret/a", "secret/b", "secret/d"].map(case);
        let placed = place(&cases, tests.to_vec());
        let names: Vec<&str> = placed.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "sample/@static",
                "sample/1",
                "secret/@static",
                "secret/a/@static",
                "secret/a/1",
                "secret/a/2",
                "secret/b/@static",
                "secret/c/1",
                "secret/d/@static",
            ]
        );
    }
}
