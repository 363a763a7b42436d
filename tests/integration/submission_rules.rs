//! A 2025-09 scoring package's `submissions/submissions.yaml` (tests/fixtures/packages/scoring-rules): rules over
//! groups of tests, each broken by one submission, make the judge fail with a message naming the rule.

use crate::harness::shared_cache;
use crate::packages::{cpjudge, package};

#[test]
fn each_broken_rule_fails_the_judge_and_is_named() {
    let (_dir, path) = package("scoring-rules");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(1), "{report:#}\n{}", judged.stderr);
    let solution = |name: &str| {
        report["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no solution {name}: {report:#}"))
    };
    let broken = |name: &str| -> Vec<String> {
        solution(name)["broken"]
            .as_array()
            .map(|b| b.iter().map(|r| r.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default()
    };
    // The one that keeps every rule, over both groups: its score, a permitted, a required and a message rule.
    let kept = solution("small_only.py");
    assert_eq!(
        (kept["ok"].as_bool(), kept["score"].as_f64()),
        (Some(true), Some(40.0)),
        "{kept:#}"
    );
    assert!(broken("small_only.py").is_empty(), "{kept:#}");
    assert_eq!(solution("double.py")["score"], 100.0);
    for (name, rule) in [
        (
            "permits_ac_only.py",
            "submissions.yaml: partially_accepted/permits_ac_only.py, secret/large: permitted [AC] on tests \
             matching secret/large, but secret/large/1 got WA",
        ),
        (
            "needs_tle.py",
            "submissions.yaml: rejected/needs_tle.py, secret/large: required [TLE, OLE] on tests matching \
             secret/large, but they got WA",
        ),
        (
            "claims_more.py",
            "submissions.yaml: partially_accepted/claims_more.py: score [50, 100], but it scored 40",
        ),
        (
            "off_by_one.py",
            "submissions.yaml: wrong_answer/off_by_one.py: a judge message holding \"got nothing\" on its \
             tests, but none did",
        ),
    ] {
        assert_eq!(solution(name)["ok"], false, "{name}");
        assert_eq!(broken(name), [rule], "{name}");
    }
}
