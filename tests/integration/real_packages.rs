//! What real packages hold that problemtools, BAPCtools and DOMjudge take as it is: folders and keys outside the
//! format's lists, DOMjudge's tags, keys of another version, validators the machine lacks. Each is judged, with a
//! warning naming the file, or, where judging on would give other verdicts than the format's, refused by name.

use crate::harness::shared_cache;
use crate::packages::{cpjudge, package};
use serde_json::Value;

fn solution<'a>(report: &'a Value, name: &str) -> &'a Value {
    crate::harness::solution(report, name)
}

/// The warnings of a JSON report, as "kind file message" lines, the file from the package's folder on.
fn warnings(report: &Value) -> Vec<String> {
    report["warnings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|w| {
                    let file = w["file"].as_str().unwrap();
                    let from = file.find("/submissions/").or_else(|| file.rfind('/'));
                    format!(
                        "{} {} {}",
                        w["kind"].as_str().unwrap(),
                        &file[from.map_or(0, |at| at + 1)..],
                        w["message"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn expected(report: &Value, name: &str) -> Vec<String> {
    solution(report, name)["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// problemtools skips a folder of submissions/ that the format does not name (`slow_accepted/`), and DOMjudge
/// reads a submission's expected results from its `@EXPECTED_RESULTS@:` tag wherever it sits: both are judged
/// so, with a warning for what is skipped or taken otherwise than written, instead of refusing the package.
#[test]
fn folders_outside_the_format_are_skipped_or_read_from_their_tags() {
    let (_dir, path) = package("folders-and-tags");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let names: Vec<&str> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    // Untagged in a folder of no meaning, or tagged with a result no judge can check: not judged.
    assert!(!names.contains(&"slow.py"), "{names:?}");
    assert!(!names.contains(&"odd.py"), "{names:?}");
    // The tag's results, wherever the submission sits.
    assert_eq!(expected(&report, "sometimes.py"), ["AC", "WA"]);
    assert_eq!(solution(&report, "sometimes.py")["verdict"], "WA");
    assert_eq!(expected(&report, "crash.py"), ["RE", "MLE"]);
    assert_eq!(expected(&report, "broken.py"), ["CE"]);
    // In a folder of the format, the folder's verdict when the tag names it too (DOMjudge narrows the tag so);
    // the tag's, with a warning, when it goes against the folder.
    assert_eq!(expected(&report, "hedged.py"), ["WA"]);
    assert_eq!(expected(&report, "against.py"), ["RE", "MLE"]);
    let said = warnings(&report);
    for (kind, file, words) in [
        ("submission_skipped", "submissions/slow_accepted", "slow.py"),
        (
            "expected_results",
            "submissions/check_manually/odd.py",
            "CHECK-MANUALLY",
        ),
        (
            "expected_results",
            "submissions/wrong_answer/against.py",
            "wrong_answer",
        ),
    ] {
        assert!(
            said.iter()
                .any(|w| w.starts_with(&format!("{kind} {file}")) && w.contains(words)),
            "no {kind} warning for {file}: {said:#?}"
        );
    }
    assert_eq!(said.len(), 3, "{said:#?}");
    // The table says the same.
    let table = cpjudge(&["judge", path.to_str().unwrap()], &shared_cache());
    table.expect(0, "warning: ");
    assert!(
        table.stdout.contains("slow_accepted") && table.stdout.contains("CHECK-MANUALLY"),
        "{}",
        table.stdout
    );
}

/// Kattis has no verdict for memory: a run over the memory limit is a run-time error there, so a submission of
/// run_time_error/ that goes over it is as expected, and the report still says memory was the cause.
#[test]
fn memory_over_the_limit_is_a_run_time_error_in_a_package() {
    let (_dir, path) = package("run-time-errors");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let hog = solution(&report, "hog.py");
    assert_eq!(hog["ok"], true, "{hog:#}");
    // Where no layer measures the memory of the run, the allocation fails and Python ends with an error: RE.
    if hog["verdict"] == "MLE" {
        let message = hog["tests"][0]["message"].as_str().unwrap();
        assert!(message.contains("memory"), "{message}");
    } else {
        assert_eq!(hog["verdict"], "RE", "{hog:#}");
    }
    assert_eq!(expected(&report, "hog.py"), ["RE", "MLE"]);
}
