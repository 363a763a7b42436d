//! Multi-pass problems (tests/fixtures/packages/multi-pass and interactive-multi-pass): the submission runs again on
//! each input its output validator writes, the feedback folder kept between passes; a validator that breaks the
//! protocol is a judge error; samples shown as dialogues are checked.

use crate::harness::{shared_cache, solution};
use crate::packages::{Judged, cpjudge, folder_verdict, package};
use serde_json::Value;
use std::path::Path;

fn judge(path: &Path) -> Judged {
    cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    )
}

/// Every submission gets its folder's verdict.
fn assert_green(judged: &Judged) -> Value {
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    for solution in report["solutions"].as_array().unwrap() {
        let path = solution["path"].as_str().unwrap();
        assert_eq!(
            solution["verdict"],
            folder_verdict(path),
            "{}: {solution:#}",
            solution["name"]
        );
    }
    report
}

/// The first test of `name` that did not pass.
fn failure<'a>(report: &'a Value, name: &str) -> &'a Value {
    solution(report, name)["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["verdict"] != "AC")
        .unwrap_or_else(|| panic!("{name} failed no test: {report:#}"))
}

fn message<'a>(report: &'a Value, name: &str) -> &'a str {
    failure(report, name)["message"].as_str().unwrap()
}

/// DOMjudge's legacy `validation: custom multi-pass`, and 2025-09's `type: multi-pass`: a submission right on both
/// passes is accepted, one right on the first alone is not. The validator checks that its input is the pass's own
/// and that what it kept in its feedback folder is still there.
#[test]
fn a_submission_is_judged_on_every_pass() {
    let (_dir, path) = package("multi-pass");
    let report = assert_green(&judge(&path));
    assert_eq!(solution(&report, "next.py")["verdict"], "AC");
    assert_eq!(
        message(&report, "first_pass_only.py"),
        "pass 2: expected 5, got 4"
    );
    std::fs::write(
        path.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: Count on\ntype:\n  - pass-fail\n  - multi-pass\n",
    )
    .unwrap();
    let report = assert_green(&judge(&path));
    assert_eq!(
        message(&report, "first_pass_only.py"),
        "pass 2: expected 5, got 4"
    );
}

/// `limits.validation_passes` bounds the passes: a validator that asks for one more is a judge error, and one
/// within a higher limit is followed to the end.
#[test]
fn a_validator_asking_for_more_passes_than_allowed_is_a_judge_error() {
    let (_dir, path) = package("multi-pass");
    let yaml = |limits: &str| {
        format!(
            "name: Count on\nvalidation: custom multi-pass\nvalidator_flags: passes 3\n{limits}"
        )
    };
    std::fs::write(path.join("problem.yaml"), yaml("")).unwrap();
    let judged = judge(&path);
    let report = judged.json();
    assert_eq!(judged.code, Some(1), "{report:#}");
    let next = failure(&report, "next.py");
    assert_eq!(next["verdict"], "JE", "{next:#}");
    assert!(
        next["message"].as_str().unwrap().contains(
            "the output validator asked for a pass 3 (nextpass.in after pass 2), and \
             limits.validation_passes allows 2"
        ),
        "{next:#}"
    );
    std::fs::write(
        path.join("problem.yaml"),
        yaml("limits:\n  validation_passes: 3\n"),
    )
    .unwrap();
    let report = assert_green(&judge(&path));
    assert_eq!(solution(&report, "next.py")["verdict"], "AC");
}

/// A validator that writes `nextpass.in` and exits otherwise than with 42 (here 43) is a judge error, whatever the
/// submission printed.
#[test]
fn a_validator_that_writes_a_next_input_and_rejects_is_a_judge_error() {
    let (_dir, path) = package("multi-pass");
    std::fs::write(
        path.join("problem.yaml"),
        "name: Count on\nvalidation: custom multi-pass\nvalidator_flags: reject_with_next\n",
    )
    .unwrap();
    let judged = judge(&path);
    let report = judged.json();
    assert_eq!(judged.code, Some(1), "{report:#}");
    for name in ["next.py", "first_pass_only.py"] {
        let failed = failure(&report, name);
        assert_eq!(failed["verdict"], "JE", "{failed:#}");
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .starts_with("the output validator wrote nextpass.in yet did not accept"),
            "{failed:#}"
        );
    }
}

/// The next pass's input is the output validator's to write: a multi-pass problem judged by the default one is
/// refused where it says so.
#[test]
fn a_multi_pass_problem_needs_its_own_validator() {
    let (_dir, path) = package("multi-pass");
    std::fs::write(
        path.join("problem.yaml"),
        "name: Count on\nvalidation: default multi-pass\n",
    )
    .unwrap();
    judge(&path).expect(
        2,
        "problem.yaml:2:1: a multi-pass problem needs its own output validator",
    );
}

/// `type: [interactive, multi-pass]`: each pass is a dialogue with the interactor, which keeps its secret in the
/// feedback folder from one pass to the next. A failure shows the dialogue of every pass, as a sample's
/// `.interaction` file does.
#[test]
fn an_interactive_multi_pass_problem_is_judged_pass_by_pass() {
    let (_dir, path) = package("interactive-multi-pass");
    let report = assert_green(&judge(&path));
    assert_eq!(
        message(&report, "forgets.c"),
        "pass 2: decoded 6 as 6, the number was 5"
    );
    assert_eq!(
        failure(&report, "forgets.c")["dialogue"],
        "< encode 5\n> 6\n---\n< decode 6\n> 6\n"
    );
    assert_eq!(message(&report, "same.c"), "the code is the number itself");
    assert_eq!(
        message(&report, "crash_on_decode.cpp"),
        "pass 2: killed by SIGABRT"
    );
    assert_eq!(report["warnings"], Value::Null, "{report:#}");
}

/// A sample's `.interaction` file is checked: a malformed one is refused at its line; one that shows more passes
/// than the problem allows too; one that shows another number of passes than the accepted submissions take is
/// reported.
#[test]
fn samples_shown_as_dialogues_are_checked() {
    let (_dir, path) = package("interactive-multi-pass");
    let sample = path.join("data/sample/1.interaction");
    std::fs::write(&sample, "<encode 5\n>6\n--\n<decode 6\n>5\n").unwrap();
    judge(&path).expect(
        2,
        "data/sample/1.interaction:3:1: a line of a sample interaction starts with `<` (the judge's) or `>` \
         (the submission's), or is `---` between passes",
    );
    let three = "<encode 5\n>6\n---\n<decode 6\n>5\n---\n<decode 6\n>5\n";
    std::fs::write(&sample, three).unwrap();
    judge(&path).expect(
        2,
        "data/sample/1.interaction:6:1: a pass 3, and limits.validation_passes allows 2",
    );
    let yaml = std::fs::read_to_string(path.join("problem.yaml")).unwrap();
    std::fs::write(
        path.join("problem.yaml"),
        format!("{yaml}  validation_passes: 3\n"),
    )
    .unwrap();
    let report = assert_green(&judge(&path));
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!(warnings[0]["kind"], "sample_interaction");
    assert!(
        warnings[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("data/sample/1.interaction"),
        "{warnings:#?}"
    );
    assert_eq!(
        warnings[0]["message"],
        "the sample interaction shows 3 passes, and no accepted submission took that many on it: \
         negate.cpp took 2, offset.c took 2"
    );
}
