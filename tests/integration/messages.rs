//! What the judge says when something is off: each message names what is wrong and what to do about it.

use crate::harness::Judge;

/// A stale answer makes the main reference fail: the judge says the answers may be stale and gives the command
/// that shows them.
#[test]
fn the_main_reference_wrong_points_to_regen() {
    let run = Judge::fixture("basic")
        .write("testdata/sum/1.ans", "7\n")
        .args(&["judge", "sum", "--test", "1"])
        .run()
        .expect_code(1);
    let out = run.stdout();
    assert!(out.contains("ac.rs: WA on test 1"), "{out}");
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("the answers may be stale") && words.contains("`cpjudge regen sum`"),
        "{out}"
    );
    // Another solution's wrong answer is its own.
    assert_eq!(out.matches("cpjudge regen").count(), 1, "{out}");
}

/// An empty file is refused before it is compiled, by name.
#[test]
fn an_empty_submission_is_refused_by_name() {
    for file in ["sub/empty.cpp", "sub/blank.py"] {
        let run = Judge::fixture("basic")
            .write("sub/empty.cpp", "")
            .write("sub/blank.py", "\n  \n")
            .args(&["judge", "sum", "--submission", file])
            .run()
            .expect_code(2);
        assert!(
            run.stderr()
                .contains(&format!("submission {file}: the file is empty")),
            "{}",
            run.stderr()
        );
    }
}

/// A folder of problems/ without problem.toml is listed as such, not left out.
#[test]
fn list_names_a_problem_folder_without_problem_toml() {
    let run = Judge::fixture("basic")
        .write("problems/begun/statement.md", "# Begun\n")
        .args(&["list"])
        .run()
        .expect_code(1);
    assert!(
        run.stdout().contains("problems/begun has no problem.toml"),
        "{}",
        run.stdout()
    );
}

/// Every command's --help ends with its exit codes, in the same words.
#[test]
fn every_command_lists_its_exit_codes() {
    let commands = [
        "judge",
        "test",
        "list",
        "doctor",
        "add",
        "regen",
        "validate",
        "stress",
        "timelimit",
        "new",
        "export",
        "import",
        "merge",
        "report",
        "cache",
    ];
    for command in commands {
        let run = Judge::fixture("basic")
            .args(&[command, "--help"])
            .run()
            .expect_code(0);
        assert!(
            run.stdout().contains("\nExit codes: 0 "),
            "{command} --help:\n{}",
            run.stdout()
        );
    }
}

/// `report -q` shows a saved report's summary line only, as `judge -q` does.
#[test]
fn report_takes_quiet() {
    let mut project = Judge::fixture("basic");
    let saved = project.then(
        &[
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/ac.py",
            "--json",
        ],
        b"",
    );
    std::fs::write(project.root().join("run.json"), saved.stdout()).unwrap();
    let shown = project.then(&["report", "run.json", "-q"], b"");
    assert_eq!(shown.code(), 0, "{}", shown.stderr());
    let shown = shown.stdout();
    assert_eq!(shown.lines().count(), 1, "{shown}");
    assert!(
        shown.starts_with("the solution got its expected verdict; compiled "),
        "{shown}"
    );
}
