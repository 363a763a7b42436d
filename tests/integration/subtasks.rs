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

/// Every test of a problem with groups is in one: `add` puts a new test in the group `--group` names (its folder,
/// or a name its globs take), and refuses, writing nothing, a test that would be in no group or another one.
#[test]
fn add_puts_a_new_test_in_the_group_asked_for() {
    let mut project = Judge::fixture("subtasks");
    let tests = project.root().join("testdata/echo");
    let files = || {
        let mut files: Vec<String> = walkdir::WalkDir::new(&tests)
            .into_iter()
            .map(|e| e.unwrap().path().display().to_string())
            .collect();
        files.sort();
        files
    };
    let before = files();
    let refused = project
        .then(&["add", "echo", "--input", "-"], b"5\n")
        .expect_code(2);
    assert!(
        refused.stderr().contains(
            "a test named hand-1 would be in no group: say which group it joins with --group (samples, small, large)"
        ),
        "{}",
        refused.stderr()
    );
    let unknown = project
        .then(
            &["add", "echo", "--input", "-", "--group", "medium"],
            b"5\n",
        )
        .expect_code(2);
    assert!(
        unknown.stderr().contains(
            "--group medium: echo has no group so named; its groups are samples, small, large"
        ),
        "{}",
        unknown.stderr()
    );
    assert_eq!(files(), before, "something was written");

    let added = project
        .then(&["add", "echo", "--input", "-", "--group", "large"], b"5\n")
        .expect_code(0);
    assert!(
        added.stdout().contains("large/hand-1.in"),
        "{}",
        added.stdout()
    );
    assert_eq!(
        std::fs::read_to_string(tests.join("large/hand-1.ans")).unwrap(),
        "5\n"
    );
    let report = project.then(&["judge", "echo", "--json"], b"").json();
    let partial = solution(&report, "small_only.py");
    assert_eq!(partial["ok"], true, "{partial:#}");
    assert!(
        crate::harness::test_names(&report, "ac.py").contains(&"large/hand-1".to_owned()),
        "{report:#}"
    );
}

/// A group of globs takes a new test by its name: `--group` with a name it does not take is refused.
#[test]
fn add_to_a_group_of_globs_needs_a_name_it_takes() {
    let config = std::fs::read_to_string(
        crate::harness::fixtures().join("subtasks/problems/echo/problem.toml"),
    )
    .unwrap();
    let mut project = Judge::fixture("subtasks").write(
        "problems/echo/problem.toml",
        &config.replace(
            "name = \"large\"\n",
            "name = \"large\"\ntests = [\"large/*\", \"big-*\"]\n",
        ),
    );
    let refused = project
        .then(
            &[
                "add", "echo", "--input", "-", "--group", "large", "--name", "huge",
            ],
            b"6\n",
        )
        .expect_code(2);
    assert!(
        refused.stderr().contains(
            "a test named huge would be in no group, not in group large: name it so that the group takes it \
             (the tests named large/* or big-*)"
        ),
        "{}",
        refused.stderr()
    );
    project
        .then(
            &[
                "add", "echo", "--input", "-", "--group", "large", "--name", "big-1",
            ],
            b"6\n",
        )
        .expect_code(0);
    assert!(project.root().join("testdata/echo/big-1.in").is_file());
}
