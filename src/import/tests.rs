//! What an import makes of a package's groups, comparison and submissions, and what it refuses.

use super::config::Judging;
use super::{Plan, plan};
use crate::problem::Problem;
use crate::scoring::Aggregation;
use std::path::Path;

/// A package `pkg` of `files` (path, text), with a sample besides, and a problem.yaml and an accepted submission
/// where `files` give none, loaded.
fn package(files: &[(&str, &str)]) -> (tempfile::TempDir, Problem) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pkg");
    let mut defaults = vec![("data/sample/1.in", "1\n"), ("data/sample/1.ans", "1\n")];
    if !files.iter().any(|(path, _)| *path == "problem.yaml") {
        defaults.push(("problem.yaml", "name: P\n"));
    }
    if !files
        .iter()
        .any(|(path, _)| path.starts_with("submissions/"))
    {
        defaults.push(("submissions/accepted/a.py", "print(1)\n"));
    }
    for (path, text) in defaults.iter().chain(files) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let problem = Problem::load_package(&root).unwrap();
    (dir, problem)
}

/// The tests `names` below data/, each an input and an answer.
fn tests(names: &[&str]) -> Vec<(String, &'static str)> {
    names
        .iter()
        .flat_map(|n| {
            [
                (format!("data/{n}.in"), "1\n"),
                (format!("data/{n}.ans"), "1\n"),
            ]
        })
        .collect()
}

fn planned(files: &[(&str, &str)]) -> Result<Plan, String> {
    let (_dir, problem) = package(files);
    plan(&problem, "p").map_err(|e| e.to_string())
}

fn with_tests<'a>(files: &[(&'a str, &'a str)], names: &[&str]) -> Result<Plan, String> {
    let owned = tests(names);
    let mut all: Vec<(&str, &str)> = owned.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    all.extend_from_slice(files);
    planned(&all)
}

fn groups(plan: &Plan) -> Vec<(String, f64, Aggregation, Vec<String>)> {
    plan.config
        .groups
        .iter()
        .map(|g| (g.name.clone(), g.points, g.scoring, g.requires.clone()))
        .collect()
}

/// The legacy files `cpjudge export` writes: the samples worth nothing, `on_reject: break` as requirements, `min`
/// over a group's points as all-or-nothing, `sum` with `continue` as points shared among its tests.
const LEGACY: &[(&str, &str)] = &[
    ("problem.yaml", "type: scoring\n"),
    (
        "data/testdata.yaml",
        "on_reject: break\ngrader_flags: sum\naccept_score: 0\n",
    ),
    (
        "data/sample/testdata.yaml",
        "on_reject: continue\ngrader_flags: sum\naccept_score: 0\n",
    ),
    (
        "data/secret/testdata.yaml",
        "on_reject: break\ngrader_flags: sum\naccept_score: 0\n",
    ),
    (
        "data/secret/1-small/testdata.yaml",
        "on_reject: break\ngrader_flags: min\naccept_score: 30\n",
    ),
    (
        "data/secret/2-large/testdata.yaml",
        "on_reject: continue\ngrader_flags: sum\naccept_score: 35\n",
    ),
];

#[test]
fn legacy_groups_as_export_writes_them_become_problem_toml_groups() {
    let plan = with_tests(
        LEGACY,
        &["secret/1-small/1", "secret/2-large/1", "secret/2-large/2"],
    )
    .unwrap();
    assert_eq!(
        groups(&plan),
        [
            (
                "small".into(),
                30.0,
                Aggregation::PassFail,
                vec!["samples".into()]
            ),
            (
                "large".into(),
                70.0,
                Aggregation::Sum,
                vec!["samples".into(), "small".into()]
            ),
        ]
    );
    let places: Vec<String> = plan
        .tests
        .iter()
        .map(|t| t.to.display().to_string())
        .collect();
    assert_eq!(places, ["sample-1", "small/1", "large/1", "large/2"]);
    let toml = plan.config.text(std::time::Duration::from_millis(1500));
    assert!(toml.contains("time_limit = \"1500ms\""), "{toml}");
    assert!(
        toml.contains("[[groups]]\nname = \"large\"\npoints = 70\nrequires = [\"samples\", \"small\"]\nscoring = \"sum\"\n"),
        "{toml}"
    );
}

#[test]
fn modern_groups_map_one_to_one() {
    let plan = with_tests(
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\ntype: scoring\n",
            ),
            ("data/secret/test_group.yaml", "max_score: 100\n"),
            ("data/secret/a/test_group.yaml", "max_score: 40\n"),
            (
                "data/secret/b/test_group.yaml",
                "max_score: 60\nscore_aggregation: min\nrequire_pass: [sample, secret/a]\n",
            ),
        ],
        &["secret/a/1", "secret/b/deeper/1"],
    )
    .unwrap();
    assert_eq!(
        groups(&plan),
        [
            ("a".into(), 40.0, Aggregation::PassFail, vec![]),
            (
                "b".into(),
                60.0,
                Aggregation::Min,
                vec!["samples".into(), "a".into()]
            ),
        ]
    );
    assert_eq!(plan.tests[2].to, Path::new("b/deeper/1"));
}

#[test]
fn groupings_problem_toml_cannot_say_are_refused_at_their_file() {
    let modern = "problem_format_version: 2025-09\ntype: scoring\n";
    // The package's files, its tests, and what the refusal says.
    type Case<'a> = (Vec<(&'a str, &'a str)>, &'a [&'a str], &'a str);
    let cases: Vec<Case> = vec![
        (
            vec![("problem.yaml", "type: scoring\n")],
            &["secret/1"],
            "data/sample: the samples count towards the score (accept_score 1",
        ),
        (
            vec![
                ("problem.yaml", modern),
                ("data/secret/a/test_group.yaml", "max_score: 50\n"),
                ("data/secret/a/b/test_group.yaml", "max_score: 50\n"),
            ],
            &["secret/a/1", "secret/a/b/1"],
            "data/secret/a/b/test_group.yaml: group secret/a/b lies in group secret/a",
        ),
        (
            vec![
                ("problem.yaml", modern),
                ("data/secret/test_group.yaml", "max_score: unbounded\n"),
                (
                    "data/secret/a/test_group.yaml",
                    "max_score: unbounded\nscore_aggregation: sum\n",
                ),
            ],
            &["secret/a/1"],
            "data/secret/test_group.yaml: max_score unbounded",
        ),
        (
            vec![
                ("problem.yaml", modern),
                ("data/secret/a/test_group.yaml", "max_score: 50\n"),
            ],
            &["secret/a/1", "secret/2"],
            "1 tests lie in data/secret beside its groups",
        ),
        (
            LEGACY
                .iter()
                .copied()
                .chain([(
                    "data/secret/2-large/testdata.yaml",
                    "on_reject: break\ngrader_flags: sum\naccept_score: 35\n",
                )])
                .collect(),
            &["secret/1-small/1", "secret/2-large/1", "secret/2-large/2"],
            "data/secret/2-large/testdata.yaml: on_reject: break with grader_flags sum",
        ),
        (
            LEGACY
                .iter()
                .copied()
                .chain([(
                    "data/secret/2-large/testdata.yaml",
                    "grader_flags: max\naccept_score: 35\n",
                )])
                .collect(),
            &["secret/1-small/1", "secret/2-large/1", "secret/2-large/2"],
            "grader_flags max",
        ),
        (
            LEGACY
                .iter()
                .copied()
                .chain([(
                    "data/secret/1-small/testdata.yaml",
                    "on_reject: continue\ngrader_flags: sum\naccept_score: 15\n",
                )])
                .collect(),
            &["secret/1-small/1", "secret/1-small/2", "secret/2-large/1"],
            "data/secret/testdata.yaml: on_reject: break makes secret/2-large count only when secret/1-small \
             passed whole",
        ),
        (
            vec![
                ("problem.yaml", "type: scoring\n"),
                ("data/testdata.yaml", "grader_flags: sum ignore_sample\n"),
            ],
            &["secret/1"],
            "data/testdata.yaml: grader_flags ignore_sample",
        ),
    ];
    for (files, names, wanted) in cases {
        let error = match with_tests(&files, names) {
            Ok(plan) => panic!("{files:?}: imported as {:?}", groups(&plan)),
            Err(error) => error,
        };
        assert!(
            error.contains(wanted) && error.ends_with("not imported"),
            "{files:?}: {error}"
        );
    }
}

#[test]
fn the_default_validators_flags_become_a_comparison() {
    let judged = |flags: &str| -> Result<(String, Option<f64>, Vec<String>), String> {
        let yaml = format!("validator_flags: {flags}\n");
        let plan = with_tests(&[("problem.yaml", &yaml)], &["secret/1"])?;
        match plan.config.judging {
            Judging::Compare { mode, tolerance } => Ok((mode.into(), tolerance, plan.left_out)),
            _ => panic!("{flags}: not a comparison"),
        }
    };
    let (mode, tolerance, left_out) = judged("\"\"").unwrap();
    assert_eq!((mode.as_str(), tolerance), ("package", None));
    assert!(left_out.is_empty(), "{left_out:?}");
    for (flags, wanted) in [
        ("case_sensitive", ("tokens", None)),
        ("case_sensitive space_change_sensitive", ("exact", None)),
        ("case_sensitive float_tolerance 1e-4", ("float", Some(1e-4))),
    ] {
        let (mode, tolerance, left_out) = judged(flags).unwrap();
        assert_eq!((mode.as_str(), tolerance), wanted, "{flags}");
        assert!(left_out.is_empty(), "{flags}: {left_out:?}");
    }
    // What our comparisons decide otherwise is said.
    let (mode, tolerance, left_out) = judged("float_absolute_tolerance 1e-3").unwrap();
    assert_eq!((mode.as_str(), tolerance), ("float", Some(1e-3)));
    assert_eq!(left_out.len(), 2, "{left_out:?}");
    assert!(
        left_out[0].contains("relative tolerance none"),
        "{left_out:?}"
    );
    assert!(
        left_out[1].contains("letter case is ignored"),
        "{left_out:?}"
    );
    // One comparison for every test.
    let error = match with_tests(
        &[(
            "data/secret/b/testdata.yaml",
            "output_validator_flags: case_sensitive\n",
        )],
        &["secret/a/1", "secret/b/1"],
    ) {
        Ok(_) => panic!("imported"),
        Err(error) => error,
    };
    assert!(
        error.contains(
            "data/secret/b: the default output validator's flags \"case_sensitive\" differ"
        ),
        "{error}"
    );
}

#[test]
fn an_output_validator_given_flags_is_refused() {
    let validator = (
        "output_validators/check/check.py",
        "import sys\nsys.exit(42)\n",
    );
    let error = match with_tests(
        &[
            (
                "problem.yaml",
                "validation: custom\nvalidator_flags: strict\n",
            ),
            validator,
        ],
        &["secret/1"],
    ) {
        Ok(_) => panic!("imported"),
        Err(error) => error,
    };
    assert!(
        error.contains(
            "problem.yaml: validator_flags \"strict\" are passed to the output validator"
        ),
        "{error}"
    );
    let plan = with_tests(
        &[("problem.yaml", "validation: custom\n"), validator],
        &["secret/1"],
    )
    .unwrap();
    assert!(matches!(&plan.config.judging, Judging::Checker(path) if path == "checker"));
    assert!(
        plan.files
            .iter()
            .any(|f| f.path == Path::new("checker/check.py"))
    );
}

#[test]
fn submission_rules_become_expected_verdicts_scores_and_groups() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/packages/scoring-rules");
    let problem = Problem::load_package(&dir).unwrap();
    let plan = plan(&problem, "scoring").unwrap();
    let toml = plan.config.text(std::time::Duration::from_secs(2));
    for wanted in [
        "path = \"solutions/accepted/double.py\"\nexpected = \"AC\"\nmain = true\n",
        "path = \"solutions/partially_accepted/small_only.py\"\nexpected = [\"AC\", \"WA\", \"TLE\", \"RE\", \
         \"MLE\", \"OLE\"]\nscore = 40\ngroups = { \"small\" = \"AC\" }\n",
        "path = \"solutions/partially_accepted/claims_more.py\"\nexpected = [\"AC\", \"WA\", \"TLE\", \"RE\", \
         \"MLE\", \"OLE\"]\nscore = [50, 100]\n",
        "path = \"solutions/wrong_answer/off_by_one.py\"\nexpected = \"WA\"\n",
        "checker = \"checker\"\n",
        "protocol = \"package\"\n",
    ] {
        assert!(toml.contains(wanted), "{wanted}\nnot in\n{toml}");
    }
    for wanted in [
        "submissions.yaml: partially_accepted/small_only.py, secret/large: required WA, message \"got 0\"",
        "submissions.yaml: rejected/needs_tle.py, secret/large: required TLE, OLE",
        "submissions.yaml: wrong_answer/off_by_one.py (over all tests): message \"got nothing\"",
    ] {
        assert!(
            plan.left_out.iter().any(|l| l == wanted),
            "{wanted}\nnot in\n{:#?}",
            plan.left_out
        );
    }
}

#[test]
fn a_package_without_an_accepted_single_file_is_refused() {
    let error = match with_tests(
        &[
            ("submissions/accepted/ab/a.py", "import b\n"),
            ("submissions/accepted/ab/b.py", "\n"),
            ("submissions/wrong_answer/c.py", "print(2)\n"),
        ],
        &["secret/1"],
    ) {
        Ok(_) => panic!("imported"),
        Err(error) => error,
    };
    assert!(
        error.contains("no accepted submission")
            && error.contains("submissions/accepted/ab: is a program of 2 files"),
        "{error}"
    );
}
