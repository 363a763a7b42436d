//! Test groups of `problem.toml`: a solution's expected score and group verdicts, kept or broken.

use crate::harness::{Judge, solution};

/// A solution whose score and group verdicts are as stated is as expected; one that claims more than it does is
/// not, and the report names each rule it broke where problem.toml states it.
#[test]
fn expected_scores_and_group_verdicts_are_checked() {
    let report = Judge::fixture("subtasks")
        .args(&["judge", "echo", "--json"])
        .run()
        .expect_code(1)
        .json();
    let partial = solution(&report, "small_only.py");
    assert_eq!(partial["ok"], true, "{partial:#}");
    assert_eq!(partial["score"], 40.0, "{partial:#}");
    assert_eq!(
        partial["broken"].as_array().map_or(0, Vec::len),
        0,
        "{partial:#}"
    );
    let claims = solution(&report, "claims_all.py");
    assert_eq!(claims["ok"], false, "{claims:#}");
    let broken: Vec<&str> = claims["broken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    assert_eq!(
        broken,
        [
            "problem.toml:30: solutions/claims_all.py: score = [90, 100]: score [90, 100], but it scored 40",
            "problem.toml:31: solutions/claims_all.py: large = \"AC|TLE\": verdict [AC, TLE] of group large, \
             but it got WA",
        ]
    );
}
