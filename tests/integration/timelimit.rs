//! `cpjudge timelimit` on a copy of the bundled knight-tour: both references timed with a margin, a suggested
//! limit, and the solution expected TLE shown far from finishing within 1.5 x the limit.

use crate::harness::{copy_dir, shared_cache};
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// A project holding a copy of the bundled knight-tour.
fn knight_tour() -> tempfile::TempDir {
    let project = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in ["problems/knight-tour", "testdata/knight-tour"] {
        copy_dir(&repo.join(folder), &project.path().join(folder));
    }
    project
}

fn timelimit(project: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(project)
        .arg("--cache-dir")
        .arg(shared_cache())
        .arg("timelimit")
        .args(args)
        .output()
        .unwrap()
}

fn timing<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no solution {name} in {report:#}"))
}

#[test]
fn knight_tour_references_margins_and_a_suggestion() {
    let project = knight_tour();
    let output = timelimit(project.path(), &["knight-tour", "--runs", "2", "--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    assert_eq!(output.status.code(), Some(0), "{report:#}\n{stderr}");
    assert_eq!(report["problem"], "knight-tour");
    assert_eq!(report["time_limit_ms"], 1000);
    assert_eq!(report["runs"], 2);
    assert_eq!(report["tests"], 65);

    for name in ["warnsdorff.rs", "cyclic_shift.rs"] {
        let reference = timing(&report, name);
        assert_eq!(reference["role"], "reference", "{name}");
        assert_eq!(reference["ran_under_ms"], 3000, "{name}");
        assert_eq!(reference["timed_out"], serde_json::json!([]), "{name}");
        let slowest = &reference["slowest"];
        assert!(
            slowest["min_ms"].as_u64() <= slowest["max_ms"].as_u64(),
            "{name}"
        );
        // Two runs per test at least (a borderline one is run again).
        assert!(slowest["runs"].as_u64().unwrap() >= 2, "{name}");
        let margin = reference["margin"].as_f64().unwrap();
        assert!(margin > 1.0, "{name}: margin {margin}");
    }

    let slowest = report["slowest_reference_ms"].as_u64().unwrap();
    let suggested = report["suggested_time_limit_ms"].as_u64().unwrap();
    assert_eq!(suggested % 100, 0, "{suggested}");
    assert!(
        suggested >= (2 * slowest).max(100),
        "{suggested} for {slowest}"
    );
    assert!(suggested < 2 * slowest + 101, "{suggested} for {slowest}");

    // Killed under 1.5 x the limit on most tests: no warning about it, and no time that hides the kills.
    let brute = timing(&report, "plain_backtracking.rs");
    assert_eq!(brute["role"], "expected_tle");
    assert_eq!(brute["ran_under_ms"], 1500);
    let killed = brute["timed_out"].as_array().unwrap().len();
    assert!(killed >= 30, "killed on only {killed} tests: {brute:#}");
    assert_eq!(brute["margin"], Value::Null);
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .all(|w| w["solution"] != "plain_backtracking.rs"),
        "{warnings:#?}"
    );
    assert_eq!(report["skipped"][0]["name"], "fixed_tour.rs");
}

#[test]
fn the_table_shows_the_kill_and_the_suggestion() {
    let project = knight_tour();
    // sample-1 is a start plain_backtracking never finishes; sq-00 one it finishes at once.
    let args = [
        "knight-tour",
        "--runs",
        "1",
        "--test",
        "sample-1",
        "--test",
        "sq-00",
    ];
    let output = timelimit(project.path(), &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"))
            .to_owned()
    };
    assert!(row("warnsdorff.rs").contains(" x"), "{stdout}");
    assert!(row("plain_backtracking.rs").contains(">1.50s"), "{stdout}");
    assert!(
        row("plain_backtracking.rs").contains("killed on 1/2"),
        "{stdout}"
    );
    assert!(stdout.contains("suggested limit: "), "{stdout}");
    assert!(!stdout.contains("warning:"), "{stdout}");
    // Progress goes to stderr, never into the table.
    assert!(
        stderr.contains("run 1/1: plain_backtracking.rs on 2 tests under 1.50s"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let project = knight_tour();
    let output = timelimit(project.path(), &["no-such-problem"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown problem \"no-such-problem\""),
        "{stderr}"
    );
    let output = timelimit(project.path(), &["knight-tour", "--runs", "0"]);
    assert_eq!(output.status.code(), Some(2));
    let output = timelimit(project.path(), &["knight-tour", "--test", "nothing-*"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no test matches --test nothing-*"),
        "{stderr}"
    );
}
