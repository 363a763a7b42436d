//! A judge spread over machines: `judge --partition K/N` judges a share of the runs, and `merge` joins the shares'
//! reports into the report of one judge of them all.

use crate::harness::{Judge, solution};
use std::path::Path;

/// `judge knight-pawns --all --json`, with these arguments more: its report, and the file it is saved in.
fn judged(project: &mut Judge, dir: &Path, file: &str, more: &[&str]) -> serde_json::Value {
    let mut args = vec!["judge", "knight-pawns", "--all", "--json"];
    args.extend_from_slice(more);
    let run = project.then(&args, b"").expect_code(0);
    std::fs::write(dir.join(file), &run.output.stdout).unwrap();
    run.json()
}

fn merge(project: &mut Judge, files: &[&Path], more: &[&str]) -> crate::harness::Run {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend_from_slice(more);
    project.then(&args, b"")
}

/// A test's verdict, where timing cannot change it; a run that took more than half the limit, or was stopped at
/// it, is "slow" (AC or TLE, as the machine's load decides).
fn steady_verdict(test: &serde_json::Value, limit_ms: u64) -> String {
    let verdict = test["verdict"].as_str().unwrap();
    let slow = verdict == "TLE" || test["time_ms"].as_u64().unwrap() * 2 > limit_ms;
    if slow && (verdict == "AC" || verdict == "TLE") {
        "slow".to_owned()
    } else {
        verdict.to_owned()
    }
}

#[test]
fn three_shares_merged_are_one_judge() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let dir = tempfile::tempdir().unwrap();
    let whole = judged(&mut project, dir.path(), "whole.json", &[]);
    let mut runs = 0;
    for k in 1..=3 {
        let share = judged(
            &mut project,
            dir.path(),
            &format!("{k}.json"),
            &["--partition", &format!("{k}/3")],
        );
        assert_eq!(share["partition"]["index"], k);
        assert_eq!(share["partition"]["count"], 3);
        runs += share["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["tests"].as_array().unwrap().len())
            .sum::<usize>();
    }
    let files: Vec<_> = (1..=3)
        .map(|k| dir.path().join(format!("{k}.json")))
        .collect();
    let files: Vec<&Path> = files.iter().map(|f| f.as_path()).collect();
    // In any order.
    let run = merge(&mut project, &[files[2], files[0], files[1]], &["--json"]).expect_code(0);
    let merged = run.json();
    assert!(merged.get("partition").is_none(), "{merged:#}");
    assert_eq!(merged["tests"], whole["tests"]);

    let limit = whole["time_limit_ms"].as_u64().unwrap();
    let solutions = whole["solutions"].as_array().unwrap();
    assert_eq!(
        solutions.len(),
        merged["solutions"].as_array().unwrap().len()
    );
    let mut whole_runs = 0;
    for one in solutions {
        let name = one["name"].as_str().unwrap();
        let joined = solution(&merged, name);
        assert_eq!(joined["verdict"], one["verdict"], "{name}");
        assert_eq!(joined["ok"], one["ok"], "{name}");
        let tests = |s: &serde_json::Value| -> Vec<(String, String)> {
            s["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["name"].as_str().unwrap().to_owned(),
                        steady_verdict(t, limit),
                    )
                })
                .collect()
        };
        assert_eq!(tests(joined), tests(one), "{name}");
        whole_runs += one["tests"].as_array().unwrap().len();
    }
    // Every run was judged once, in one share or another.
    assert_eq!(runs, whole_runs);

    // The table of the merged report, and its JUnit file.
    let junit = dir.path().join("judge.xml");
    let table = merged_table(&mut project, &files, &junit);
    assert!(table.contains("all 5 solutions as expected"), "{table}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("greedy_nearest.rs"), "{xml}");

    // One share twice, a share missing, a share of other tests: refused, and said why.
    let twice = merge(&mut project, &[files[0], files[0], files[1]], &[]).expect_code(2);
    assert!(
        twice.stderr().contains("share 1/3 is given twice"),
        "{}",
        twice.stderr()
    );
    let missing = merge(&mut project, &[files[0], files[2]], &[]).expect_code(2);
    assert!(
        missing.stderr().contains("share 2/3 is missing"),
        "{}",
        missing.stderr()
    );
    judged(
        &mut project,
        dir.path(),
        "other.json",
        &["--partition", "2/3", "--test", "sample-*"],
    );
    let other = dir.path().join("other.json");
    let different = merge(&mut project, &[files[0], &other, files[2]], &[]).expect_code(2);
    assert!(
        different.stderr().contains("tests differ"),
        "{}",
        different.stderr()
    );
    // A report of a whole judge is not a share.
    let whole_file = dir.path().join("whole.json");
    let not_share = merge(&mut project, &[&whole_file], &[]).expect_code(2);
    assert!(
        not_share.stderr().contains("without --partition"),
        "{}",
        not_share.stderr()
    );
}

fn merged_table(project: &mut Judge, files: &[&Path], junit: &Path) -> String {
    merge(project, files, &["--junit", junit.to_str().unwrap()])
        .expect_code(0)
        .stdout()
}

#[test]
fn bad_shares_are_usage_errors() {
    for wrong in ["0/3", "4/3", "3", "x/y"] {
        let run = Judge::bundled(&["knight-pawns"])
            .args(&["judge", "knight-pawns", "--partition", wrong])
            .run()
            .expect_code(2);
        assert!(
            run.stderr().contains("--partition"),
            "{wrong}: {}",
            run.stderr()
        );
    }
}

/// A package whose time limit is found by timing could get another limit on every machine: a share of it needs
/// the limit given.
#[test]
fn a_package_share_needs_a_fixed_time_limit() {
    let (_dir, path) = crate::packages::package("float-sum");
    let path = path.to_str().unwrap();
    let cache = crate::harness::shared_cache();
    let refused = crate::packages::cpjudge(&["judge", path, "--partition", "1/2"], &cache);
    refused.expect(2, "--partition");
    refused.expect(2, "give it with --time-limit");
    let judged = crate::packages::cpjudge(
        &[
            "judge",
            path,
            "--partition",
            "1/2",
            "--time-limit",
            "1s",
            "--json",
        ],
        &cache,
    );
    assert_eq!(judged.code, Some(0), "{}", judged.stderr);
    assert_eq!(judged.json()["partition"]["index"], 1);
}

/// Shares judged under different isolation layers: the merged report claims a layer only where every share had
/// it, and says which shares did.
#[test]
fn a_merged_report_claims_only_the_layers_every_share_had() {
    let dir = tempfile::tempdir().unwrap();
    let mut project = Judge::bundled(&["knight-pawns"]);
    let share = |project: &mut Judge, k: &str| {
        let share = format!("{k}/2");
        judged(
            project,
            dir.path(),
            &format!("share-{k}.json"),
            &["--partition", &share, "--test", "sample-*"],
        )
    };
    let first = share(&mut project, "1");
    let mut bare = Judge::bundled(&["knight-pawns"]).env("CPJUDGE_LAYERS", "none");
    let second = share(&mut bare, "2");
    let layers = ["cgroup", "namespaces", "landlock", "seccomp"];
    let had: Vec<&str> = layers
        .into_iter()
        .filter(|layer| first["isolation"][layer]["active"] == true)
        .collect();
    if had.is_empty() {
        crate::harness::skip("no isolation layer works here, so the shares cannot differ in them");
        return;
    }
    assert!(
        layers
            .iter()
            .all(|layer| second["isolation"][layer]["active"] == false)
    );

    let files = [
        dir.path().join("share-1.json"),
        dir.path().join("share-2.json"),
    ];
    // Exit 1: on the samples alone, plain_minimax.rs is not the TLE it is expected to be.
    let merged = merge(&mut project, &[&files[0], &files[1]], &["--json"]).expect_code(1);
    assert!(
        merged.stderr().contains("different isolation layers"),
        "{}",
        merged.stderr()
    );
    let report = merged.json();
    for layer in had {
        let status = &report["isolation"][layer];
        assert_eq!(status["active"], false, "{layer}: {status:#}");
        let detail = status["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("differs by share")
                && detail.contains("1/2 on")
                && detail.contains("2/2 off"),
            "{layer}: {detail}"
        );
    }
    assert_eq!(report["host"], first["host"]);
}

/// A scoring package judged in three shares: the merged report's groups and scores are those of one judge of all
/// the tests, decided from the joined runs (a share's own groups hold only its runs).
#[test]
fn shares_of_a_scoring_problem_merge_to_the_scores_of_one_judge() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("addone");
    crate::harness::copy_dir(
        &crate::harness::fixtures().join("corpus/domjudge/addone"),
        &package,
    );
    let package = package.to_str().unwrap();
    let cache = crate::harness::shared_cache();
    let judge = |more: &[&str]| {
        let mut args = vec!["judge", package, "--json"];
        args.extend_from_slice(more);
        let judged = crate::packages::cpjudge(&args, &cache);
        assert_eq!(judged.code, Some(0), "{}", judged.stderr);
        judged
    };
    let whole = judge(&[]).json();
    let mut files = Vec::new();
    for k in 1..=3 {
        let file = dir.path().join(format!("{k}.json"));
        std::fs::write(&file, judge(&["--partition", &format!("{k}/3")]).stdout).unwrap();
        files.push(file.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--json", "--problem", package];
    args.extend(files.iter().map(String::as_str));
    let merged = crate::packages::cpjudge(&args, &cache);
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    let merged = merged.json();
    let decided = |s: &serde_json::Value| {
        let tests: Vec<_> = s["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["name"].clone(), t["verdict"].clone(), t["score"].clone()))
            .collect();
        (
            s["verdict"].clone(),
            s["ok"].clone(),
            s["score"].clone(),
            s["groups"].clone(),
            tests,
        )
    };
    let solutions = whole["solutions"].as_array().unwrap();
    assert!(
        solutions
            .iter()
            .any(|s| s["score"] != 0.0 && s["score"] != solutions[0]["score"])
    );
    for one in solutions {
        let name = one["name"].as_str().unwrap();
        assert_eq!(decided(solution(&merged, name)), decided(one), "{name}");
    }

    // Without the problem at hand, a scoring problem's shares cannot be merged: said so.
    let args: Vec<&str> = ["merge"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .collect();
    crate::packages::cpjudge(&args, &cache).expect(2, "give it with --problem");
}
