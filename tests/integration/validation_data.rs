//! Validation data (`data/invalid_input`, `data/invalid_output`, `data/valid_output`): `validate` checks each case
//! as its folder says, names the file and the rule of each that fails, and `judge` never runs a submission on them.

use crate::harness::{Judge, shared_cache, test_names};
use crate::packages::{cpjudge, package};
use std::path::Path;

/// What `validate` says of the fixture as it is.
const ALL_HOLD: &str = "ok: 3 of 3 tests valid; 6 of 6 invalid inputs rejected; 3 of 3 invalid outputs rejected; \
                        1 of 1 valid output accepted";

fn validate(path: &Path) -> crate::packages::Judged {
    cpjudge(&["validate", path.to_str().unwrap()], &shared_cache())
}

/// Writes the files of one case: (extension, contents) each.
fn write_case(path: &Path, case: &str, files: &[(&str, &str)]) {
    let base = path.join("data").join(case);
    std::fs::create_dir_all(base.parent().unwrap()).unwrap();
    for (extension, contents) in files {
        std::fs::write(base.with_extension(extension), contents).unwrap();
    }
}

#[test]
fn a_packages_validation_data_is_checked_and_never_judged() {
    let (_dir, path) = package("validation-data");
    validate(&path).expect(0, ALL_HOLD);
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    assert_eq!(
        test_names(&report, "sum.c"),
        ["sample/1", "secret/1", "secret/2"]
    );
    // Folders of the format: nothing to warn of.
    assert!(report.get("warnings").is_none(), "{report:#}");
}

/// Each rule broken in a copy of the fixture: `validate` fails (exit 1), naming the file and the rule; half-written
/// data is an error (exit 2).
#[test]
fn each_rule_broken_fails_validate_naming_the_file() {
    type Breakage = fn(&Path);
    let cases: [(&str, Breakage, i32, &[&str]); 9] = [
        (
            "an invalid input accepted",
            |p| write_case(p, "invalid_input/fine", &[("in", "1 2\n")]),
            1,
            &[
                "data/invalid_input/fine.in: accepted by every input validator; an invalid input must be rejected \
                 by at least one",
            ],
        ),
        (
            "an invalid input valid under its group's input_validator_args",
            |p| write_case(p, "invalid_input/wide/too_large", &[("in", "5000 0\n")]),
            1,
            &["data/invalid_input/wide/too_large.in: accepted by every input validator"],
        ),
        (
            "an invalid output accepted",
            |p| {
                write_case(
                    p,
                    "invalid_output/right",
                    &[("in", "1 2\n"), ("ans", "3\n"), ("out", "3\n")],
                )
            },
            1,
            &[
                "data/invalid_output/right.out: accepted by the output validator; an invalid output must be \
                 rejected",
            ],
        ),
        (
            "an invalid output rejected only with the output_validator_args its group no longer gives",
            |p| std::fs::remove_file(p.join("data/invalid_output/exact/test_group.yaml")).unwrap(),
            1,
            &["data/invalid_output/exact/padded.out: accepted by the output validator"],
        ),
        (
            "a valid output rejected",
            |p| {
                write_case(
                    p,
                    "valid_output/wrong",
                    &[("in", "1 2\n"), ("ans", "3\n"), ("out", "5\n")],
                )
            },
            1,
            &[
                "data/valid_output/wrong.out: rejected by the output validator; a valid output must be accepted",
                "said     expected 3, got 5",
            ],
        ),
        (
            "the input of an output case invalid",
            |p| {
                write_case(
                    p,
                    "valid_output/negative",
                    &[("in", "-1 2\n"), ("ans", "1\n"), ("out", "1\n")],
                )
            },
            1,
            &[
                "data/valid_output/negative.in: rejected by an input validator; the input of a valid output must \
                 be valid",
                "expected a number",
            ],
        ),
        (
            "the output validator failing",
            |p| {
                std::fs::write(
                    p.join("data/invalid_output/exact/test_group.yaml"),
                    "output_validator_args: [bogus]\n",
                )
                .unwrap()
            },
            1,
            &[
                "data/invalid_output/exact/padded.out: the output validator neither accepted nor rejected it",
                "exit code 2",
            ],
        ),
        (
            "an output with no input",
            |p| write_case(p, "valid_output/lonely", &[("out", "3\n")]),
            2,
            &["data/valid_output/lonely.out: validation data with no input beside it"],
        ),
        (
            "an invalid output with no output",
            |p| write_case(p, "invalid_output/half", &[("in", "1 2\n"), ("ans", "3\n")]),
            2,
            &["data/invalid_output/half.in: a case of invalid_output has no output"],
        ),
    ];
    for (what, breakage, code, said) in cases {
        let (_dir, path) = package("validation-data");
        breakage(&path);
        let run = validate(&path);
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(
            run.code == Some(code) && said.iter().all(|s| all.contains(s)),
            "{what}: expected exit code {code} and {said:?}, got {:?}:\n{all}",
            run.code
        );
        if code == 1 {
            assert!(run.stdout.contains("FAILED"), "{what}:\n{all}");
        }
    }
}

/// Without an output validator of its own, a package's outputs are judged by the default one, with each group's
/// output_validator_args.
#[test]
fn the_default_output_validator_judges_a_package_without_one() {
    let (_dir, path) = package("validation-data");
    std::fs::remove_dir_all(path.join("output_validator")).unwrap();
    validate(&path).expect(0, ALL_HOLD);
    std::fs::remove_file(path.join("data/invalid_output/exact/test_group.yaml")).unwrap();
    validate(&path).expect(
        1,
        "data/invalid_output/exact/padded.out: accepted by the default output validator; an invalid output must \
         be rejected",
    );
}

/// An interactive problem has no output to give its validator alone: its output cases are skipped, and said to be.
#[test]
fn an_interactive_packages_output_cases_are_skipped_with_a_warning() {
    let (_dir, path) = package("validation-data");
    let yaml = std::fs::read_to_string(path.join("problem.yaml")).unwrap();
    std::fs::write(
        path.join("problem.yaml"),
        yaml.replace("type: pass-fail", "type: interactive"),
    )
    .unwrap();
    let run = validate(&path);
    run.expect(
        0,
        "ok: 3 of 3 tests valid; 6 of 6 invalid inputs rejected; 3 invalid outputs not checked; 1 valid output \
         not checked",
    );
    for said in [
        "data/invalid_output: 3 cases not checked: the problem is interactive",
        "data/valid_output: 1 case not checked: the problem is interactive",
    ] {
        assert!(run.stdout.contains(said), "{said}:\n{}", run.stdout);
    }
}

/// A problem of ours keeps its output cases in its folder, `invalid_output/` and `valid_output/`, judged by its
/// comparison.
#[test]
fn a_problems_own_output_cases_are_checked() {
    let mut project = Judge::bundled(&["young-chess"]);
    let root = project.root().to_owned();
    let sample = root.join("testdata/young-chess/sample-1");
    let input = std::fs::read_to_string(sample.with_extension("in")).unwrap();
    let answer = std::fs::read_to_string(sample.with_extension("ans")).unwrap();
    let problem = root.join("problems/young-chess");
    for (case, output) in [
        (
            "valid_output/spaced",
            format!("  {}", answer.replace('\n', "  \n")),
        ),
        ("invalid_output/other", "123456\n".to_owned()),
    ] {
        let base = problem.join(case);
        std::fs::create_dir_all(base.parent().unwrap()).unwrap();
        std::fs::write(base.with_extension("in"), &input).unwrap();
        std::fs::write(base.with_extension("ans"), &answer).unwrap();
        std::fs::write(base.with_extension("out"), output).unwrap();
    }
    let run = project
        .then(&["validate", "young-chess"], b"")
        .expect_code(0);
    assert!(
        run.stdout()
            .contains("; 1 of 1 invalid output rejected; 1 of 1 valid output accepted"),
        "{}",
        run.stdout()
    );
    std::fs::write(problem.join("invalid_output/other.out"), &answer).unwrap();
    let run = project
        .then(&["validate", "young-chess"], b"")
        .expect_code(1);
    assert!(
        run.stdout().contains(
            "invalid_output/other.out: accepted by the comparison; an invalid output must be rejected"
        ),
        "{}",
        run.stdout()
    );
}
