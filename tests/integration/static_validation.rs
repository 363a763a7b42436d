//! 2025-09's static validation (tests/fixtures/packages/static-validation): the static validator judges each
//! submission from its files, once per static validation test case, and each case is a test of its group, judged
//! first, scored as the format says; a case the package has no static validator for is refused where it is written.

use crate::harness::shared_cache;
use crate::packages::{Judged, package};
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Judges `package` with `--json` and `more`, with `CPJUDGE_LAYERS` set to `layers` (unset: every layer that works).
fn judge(package: &Path, layers: Option<&str>, more: &[&str]) -> Judged {
    let mut command = Command::cargo_bin("cpjudge").unwrap();
    command
        .current_dir(std::env::temp_dir())
        .arg("--cache-dir")
        .arg(shared_cache())
        .arg("judge")
        .arg(package)
        .arg("--json")
        .args(more)
        .timeout(Duration::from_secs(600));
    match layers {
        Some(layers) => command.env("CPJUDGE_LAYERS", layers),
        None => command.env_remove("CPJUDGE_LAYERS"),
    };
    Judged::from(command.output().unwrap())
}

fn solution<'a>(report: &'a Value, name: &str) -> &'a Value {
    crate::harness::solution(report, name)
}

/// A solution's test of this name, or None where it was not run.
fn test<'a>(report: &'a Value, name: &str, test: &str) -> Option<&'a Value> {
    solution(report, name)["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == test)
}

/// What a judge decides of each solution: verdict, ok, score, groups, and each test's name, verdict, message and
/// score.
fn decided(report: &Value) -> Vec<Value> {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let tests: Vec<Value> = s["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| serde_json::json!([t["name"], t["verdict"], t["message"], t["score"]]))
                .collect();
            serde_json::json!([
                s["name"],
                s["verdict"],
                s["ok"],
                s["score"],
                s["groups"],
                tests
            ])
        })
        .collect()
}

#[test]
fn each_submission_scores_as_the_static_validator_judges_its_files() {
    let (_dir, path) = package("static-validation");
    let judged = judge(&path, None, &[]);
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    // The static validation test cases are tests of their groups, each before the group's other tests.
    assert_eq!(
        report["tests"],
        serde_json::json!([
            "sample/1",
            "secret/@static",
            "secret/large/@static",
            "secret/large/1",
            "secret/large/2",
            "secret/small/@static",
            "secret/small/1",
            "secret/small/2"
        ])
    );
    // The scores submissions.yaml expects, which the judge checked too.
    for (name, score) in [("add.py", 100.0), ("uses_eval.py", 90.0), ("long.py", 37.0)] {
        let s = solution(&report, name);
        assert_eq!(
            (s["score"].as_f64(), s["ok"].as_bool()),
            (Some(score), Some(true)),
            "{s:#}"
        );
    }
    let case = |name: &str, case: &str| {
        let t = test(&report, name, case).unwrap_or_else(|| panic!("{name}: no {case}"));
        (
            t["verdict"].as_str().unwrap().to_owned(),
            t["message"].as_str().unwrap().to_owned(),
            t["score"].as_f64(),
        )
    };
    // The validator got the language's code and the entry point, and found the file in its working directory.
    assert_eq!(
        case("add.py", "secret/@static"),
        ("AC".into(), "add.py (python3) is fine".into(), Some(10.0))
    );
    // eval loses secret's static case, worth 10, and nothing else.
    assert_eq!(
        case("uses_eval.py", "secret/@static"),
        (
            "WA".into(),
            "uses_eval.py (python3) uses eval".into(),
            Some(0.0)
        )
    );
    assert_eq!(solution(&report, "uses_eval.py")["verdict"], "WA");
    // score.txt gives half of secret/small's 6; its tests share the other 24.
    assert_eq!(
        case("long.py", "secret/small/@static"),
        (
            "AC".into(),
            "long.py (python3) has 235 bytes, over 100: half the points".into(),
            Some(3.0)
        )
    );
    assert_eq!(case("long.py", "secret/small/1").2, Some(12.0));
    // A rejection in a pass-fail group stops it before its tests: they are not run.
    assert_eq!(
        case("long.py", "secret/large/@static"),
        ("WA".into(), "long.py (python3) uses import".into(), None)
    );
    assert!(test(&report, "long.py", "secret/large/1").is_none());
    // The same without any isolation layer.
    let bare = judge(&path, Some("none"), &[]);
    assert_eq!(bare.code, Some(0), "{}", bare.stderr);
    assert_eq!(decided(&bare.json()), decided(&report));
}

/// The shares of a judge merge to the scores one judge gives: what the static validator's score.txt said is kept
/// in each share's report, and the test's score decided from it again.
#[test]
fn shares_merge_to_the_scores_of_one_judge() {
    let (dir, path) = package("static-validation");
    let whole = judge(&path, None, &[]).json();
    let mut files = Vec::new();
    for k in 1..=2 {
        let judged = judge(&path, None, &["--partition", &format!("{k}/2")]);
        assert_eq!(judged.code, Some(0), "{}", judged.stderr);
        let file = dir.path().join(format!("{k}.json"));
        std::fs::write(&file, &judged.stdout).unwrap();
        files.push(file.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--json", "--problem", path.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let merged = crate::packages::cpjudge(&args, &shared_cache());
    assert_eq!(merged.code, Some(0), "{}\n{}", merged.stdout, merged.stderr);
    assert_eq!(decided(&merged.json()), decided(&whole));
}

/// The static validator works in a copy of the submission's build: rewriting every file it is given changes neither
/// the package's submission nor the build that later judges take from the cache.
#[test]
fn a_static_validator_changes_only_its_copy_of_the_submission() {
    let (_dir, path) = package("static-validation");
    std::fs::write(
        path.join("static_validator/validate.py"),
        "#!/usr/bin/env python3\nimport os\n\nfor name in os.listdir('.'):\n    if os.path.isfile(name):\n        \
         with open(name, 'w') as file:\n            file.write('raise SystemExit(3)\\n')\nraise SystemExit(42)\n",
    )
    .unwrap();
    let submission = path.join("submissions/accepted/add.py");
    let source = std::fs::read(&submission).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let output = Command::cargo_bin("cpjudge")
            .unwrap()
            .current_dir(std::env::temp_dir())
            .arg("--cache-dir")
            .arg(cache.path())
            .args(["judge", path.to_str().unwrap(), "--json"])
            .timeout(Duration::from_secs(600))
            .output()
            .unwrap();
        Judged::from(output).json()
    };
    let first = run();
    let second = run();
    let add = solution(&second, "add.py");
    assert_eq!(add["compile"]["cached"], true, "{add:#}");
    // The build taken from the cache still runs as it was built: every test of add.py is accepted.
    for report in [&first, &second] {
        let add = solution(report, "add.py");
        assert_eq!(
            (add["verdict"].as_str(), add["score"].as_f64()),
            (Some("AC"), Some(100.0)),
            "{add:#}"
        );
    }
    assert_eq!(std::fs::read(&submission).unwrap(), source);
}

/// In a pass-fail problem a static validation test case is `pass-fail`: a test like the others, in the order of the
/// tests, at which a rejected submission stops.
#[test]
fn in_a_pass_fail_problem_a_rejected_static_case_is_the_verdict() {
    let (_dir, path) = package("static-validation");
    let yaml = std::fs::read_to_string(path.join("problem.yaml")).unwrap();
    std::fs::write(
        path.join("problem.yaml"),
        yaml.replace("type: scoring", "type: pass-fail"),
    )
    .unwrap();
    for (group, word) in [("secret", "eval"), ("secret/large", "import")] {
        std::fs::write(
            path.join("data").join(group).join("test_group.yaml"),
            format!(
                "static_validation_score: pass-fail\nstatic_validator_args: [forbid, {word}]\n"
            ),
        )
        .unwrap();
    }
    std::fs::remove_file(path.join("data/secret/small/test_group.yaml")).unwrap();
    std::fs::remove_file(path.join("submissions/submissions.yaml")).unwrap();
    let wrong = path.join("submissions/wrong_answer");
    std::fs::rename(path.join("submissions/partially_accepted"), &wrong).unwrap();
    let judged = judge(&path, None, &[]);
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let names = |name| crate::harness::test_names(&report, name);
    assert_eq!(
        names("add.py"),
        [
            "sample/1",
            "secret/@static",
            "secret/large/@static",
            "secret/large/1",
            "secret/large/2",
            "secret/small/1",
            "secret/small/2"
        ]
    );
    assert_eq!(names("uses_eval.py"), ["sample/1", "secret/@static"]);
    assert_eq!(
        names("long.py"),
        ["sample/1", "secret/@static", "secret/large/@static"]
    );
    let failing = solution(&report, "long.py")["tests"][2].clone();
    assert_eq!(
        (failing["verdict"].as_str(), failing["message"].as_str()),
        (Some("WA"), Some("long.py (python3) uses import"))
    );
}

#[test]
fn a_static_case_without_a_static_validator_is_refused_at_its_file_and_line() {
    let (_dir, path) = package("static-validation");
    std::fs::remove_dir_all(path.join("static_validator")).unwrap();
    let judged = judge(&path, None, &[]);
    let file = path.join("data/secret/test_group.yaml");
    // Line 2: the first line is a comment.
    let named = format!("{}:2:1: ", file.display());
    assert!(
        judged.code == Some(2)
            && judged.stderr.contains(&named)
            && judged
                .stderr
                .contains("the package has no static validator (static_validator/) to judge it"),
        "{:?}\n{}\n{}",
        judged.code,
        judged.stdout,
        judged.stderr
    );
}
