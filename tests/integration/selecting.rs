//! Choosing what to judge from the command line: tests by name or glob, samples, expected verdicts, limits given
//! for one judge, problems given by path, and a lone file judged on sample tests.

use crate::harness::{Judge, solution, test_names};

const WRONG: &str = "import sys\nprint(sum(int(t) for t in sys.stdin.read().split()))\n";

#[test]
fn tests_by_name_glob_and_samples() {
    let run = |args: &[&str]| {
        let mut all = vec![
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/ac.py",
            "--json",
            "--all",
        ];
        all.extend(args);
        let run = Judge::fixture("basic")
            .write("testdata/sum/sample-1.in", "2\n4 5\n")
            .write("testdata/sum/sample-1.ans", "9\n")
            .args(&all)
            .run()
            .expect_code(0);
        test_names(&run.json(), "ac.py")
    };
    assert_eq!(run(&[]), ["sample-1", "1", "2", "10"]);
    assert_eq!(run(&["--test", "1*"]), ["1", "10"]);
    assert_eq!(run(&["--test", "2", "--test", "10"]), ["2", "10"]);
    assert_eq!(run(&["--samples"]), ["sample-1"]);
}

#[test]
fn a_selection_of_no_test_names_the_tests() {
    let run = Judge::fixture("basic")
        .args(&["judge", "sum", "--test", "3*"])
        .run()
        .expect_code(2);
    assert!(
        run.stderr()
            .contains("no test matches --test 3*; the tests are: 1, 2, 10"),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_submission_may_be_expected_wrong() {
    let judge = |expect: &[&str]| {
        let mut args = vec!["judge", "sum", "--submission", "sub/wrong.py", "--json"];
        args.extend(expect);
        let run = Judge::fixture("basic")
            .write("sub/wrong.py", WRONG)
            .args(&args)
            .run();
        (run.code(), run.json())
    };
    let (code, report) = judge(&["--expect", "wa"]);
    assert_eq!(code, 0);
    assert_eq!(
        solution(&report, "wrong.py")["expected"],
        serde_json::json!(["WA"])
    );
    let (code, _) = judge(&["--expect", "TLE,RE"]);
    assert_eq!(code, 1);
    let (code, _) = judge(&[]);
    assert_eq!(code, 1);
}

/// `--expect` goes with the `--submission` before it: a right and a wrong submission in one judge each get their
/// own expectation, and both are as expected.
#[test]
fn each_expect_goes_with_its_submission() {
    let run = Judge::fixture("basic")
        .write("sub/wrong.py", WRONG)
        .args(&[
            "judge",
            "sum",
            "--submission",
            "sub/wrong.py",
            "--expect",
            "WA",
            "--submission",
            "problems/sum/solutions/ac.py",
            "--json",
        ])
        .run();
    let report = run.json();
    assert_eq!(run.code(), 0, "{report:#}");
    assert_eq!(
        solution(&report, "wrong.py")["expected"],
        serde_json::json!(["WA"])
    );
    assert_eq!(
        solution(&report, "ac.py")["expected"],
        serde_json::json!(["AC"])
    );
}

#[test]
fn limits_given_for_one_judge_are_marked() {
    let run = Judge::fixture("basic")
        .args(&[
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/ac.py",
            "--json",
            "--time-limit",
            "3s",
            "--memory-limit",
            "128MB",
        ])
        .run()
        .expect_code(0);
    let report = run.json();
    assert_eq!(report["time_limit_ms"], 3000);
    assert_eq!(report["time_limit_overridden"], true);
    assert_eq!(report["memory_limit_kib"], 128 * 1024);
    assert_eq!(report["memory_limit_overridden"], true);

    let table = Judge::fixture("basic")
        .args(&[
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/ac.py",
            "--time-limit",
            "3s",
        ])
        .run()
        .expect_code(0)
        .stdout();
    assert!(
        table.starts_with(
            "sum: 1 solution on 3 tests, limits 3s CPU (from --time-limit) and 64MiB memory\n"
        ),
        "{table}"
    );
    let absurd = Judge::fixture("basic")
        .args(&["judge", "sum", "--time-limit", "2h"])
        .run()
        .expect_code(2);
    assert!(
        absurd.stderr().contains("over an hour"),
        "{}",
        absurd.stderr()
    );
}

#[test]
fn a_problem_by_its_folder_and_the_project_from_below() {
    let submission = ["--submission", "problems/sum/solutions/ac.py", "--json"];
    let by_path = Judge::fixture("basic")
        .args(&["judge", "problems/sum/"])
        .args(&submission)
        .run()
        .expect_code(0);
    assert_eq!(by_path.json()["problem"], "sum");

    let inside = Judge::fixture("basic")
        .cwd("problems/sum")
        .args(&["judge", ".", "--submission", "solutions/ac.py", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(inside.json()["problem"], "sum");
    let list = Judge::fixture("basic")
        .cwd("problems/sum/solutions")
        .args(&["list"])
        .run()
        .expect_code(0);
    assert!(list.stdout().contains("sum"), "{}", list.stdout());

    let elsewhere = Judge::fixture("basic")
        .args(&["judge", "testdata/sum"])
        .run()
        .expect_code(2);
    assert!(
        elsewhere
            .stderr()
            .contains("testdata/sum is not a problem folder"),
        "{}",
        elsewhere.stderr()
    );
}

#[test]
fn outside_a_project_list_says_so() {
    let outside = tempfile::tempdir().unwrap();
    let run = Judge::fixture("basic")
        .cwd(outside.path().to_str().unwrap())
        .args(&["list"])
        .run()
        .expect_code(2);
    assert!(
        run.stderr().contains("not in a cpjudge project"),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_lone_file_on_sample_tests() {
    let contest = tempfile::tempdir().unwrap();
    let dir = contest.path();
    std::fs::create_dir_all(dir.join("a/test")).unwrap();
    std::fs::write(
        dir.join("a/main.py"),
        "print(sum(map(int, input().split())))\n",
    )
    .unwrap();
    // As online-judge-tools lays them out: NAME.in and NAME.out.
    std::fs::write(dir.join("a/test/sample-1.in"), "1 2\n").unwrap();
    std::fs::write(dir.join("a/test/sample-1.out"), "3\n").unwrap();
    std::fs::write(dir.join("a/test/sample-2.in"), "5 5\n").unwrap();
    std::fs::write(dir.join("a/test/sample-2.out"), "10\n").unwrap();
    let run = Judge::fixture("basic")
        .cwd(dir.to_str().unwrap())
        .args(&["test", "a/main.py"])
        .run()
        .expect_code(0);
    let table = run.stdout();
    assert!(
        table.starts_with("main.py (Python 3) on 2 samples, limits 2s CPU and 1GiB memory\n"),
        "{table}"
    );
    std::fs::write(dir.join("a/test/sample-2.out"), "11\n").unwrap();
    let json = Judge::fixture("basic")
        .cwd(dir.to_str().unwrap())
        .args(&["test", "a/main.py", "--json", "--time-limit", "1s"])
        .run()
        .expect_code(1)
        .json();
    assert_eq!(json["time_limit_ms"], 1000);
    assert_eq!(solution(&json, "main.py")["verdict"], "WA");

    let no_file = Judge::fixture("basic")
        .cwd(dir.to_str().unwrap())
        .args(&["test", "a/mian.py"])
        .run()
        .expect_code(2);
    assert!(
        no_file.stderr().contains("a/mian.py does not exist"),
        "{}",
        no_file.stderr()
    );
    let missing = Judge::fixture("basic")
        .cwd(dir.to_str().unwrap())
        .args(&["test", "a/main.py", "--tests", "nowhere"])
        .run()
        .expect_code(2);
    assert!(
        missing
            .stderr()
            .contains("tests folder nowhere does not exist"),
        "{}",
        missing.stderr()
    );
}

#[test]
fn submissions_of_one_name_are_told_apart() {
    let run = Judge::fixture("basic")
        .write(
            "a/sol.py",
            &std::fs::read_to_string(
                crate::harness::fixtures().join("basic/problems/sum/solutions/ac.py"),
            )
            .unwrap(),
        )
        .write("b/sol.py", WRONG)
        .args(&[
            "judge",
            "sum",
            "--submission",
            "a/sol.py",
            "--submission",
            "b/sol.py",
            "--json",
        ])
        .run()
        .expect_code(1);
    let report = run.json();
    assert_eq!(solution(&report, "a/sol.py")["verdict"], "AC");
    assert_eq!(solution(&report, "b/sol.py")["verdict"], "WA");
}

#[test]
fn solutions_of_one_name_in_a_problem_are_told_apart() {
    let ac = std::fs::read_to_string(
        crate::harness::fixtures().join("basic/problems/sum/solutions/ac.py"),
    )
    .unwrap();
    let toml = "title = \"Sum\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n\
                [[solutions]]\npath = \"solutions/a/sol.py\"\nexpected = \"AC\"\nmain = true\n\
                [[solutions]]\npath = \"solutions/b/sol.py\"\nexpected = \"WA\"\n";
    let run = Judge::fixture("basic")
        .write("problems/sum/problem.toml", toml)
        .write("problems/sum/solutions/a/sol.py", &ac)
        .write("problems/sum/solutions/b/sol.py", WRONG)
        .args(&["judge", "sum", "--json"])
        .run()
        .expect_code(0);
    let report = run.json();
    assert_eq!(solution(&report, "a/sol.py")["verdict"], "AC");
    assert_eq!(solution(&report, "b/sol.py")["verdict"], "WA");
}

#[test]
fn report_folders_are_checked_before_judging() {
    let run = Judge::fixture("basic")
        .args(&["judge", "sum", "--junit", "reports/junit.xml"])
        .run()
        .expect_code(2);
    assert!(
        run.stderr()
            .contains("--junit reports/junit.xml: folder reports does not exist"),
        "{}",
        run.stderr()
    );
    // Nothing was judged.
    assert!(run.stdout().is_empty(), "{}", run.stdout());
}

#[test]
fn list_fails_on_a_broken_problem() {
    let run = Judge::fixture("basic")
        .write("problems/broken/problem.toml", "title = \"x\"\n")
        .args(&["list"])
        .run()
        .expect_code(1);
    assert!(run.stdout().contains("broken"), "{}", run.stdout());
}

#[test]
fn limits_without_units_or_absurd_are_refused_where_written() {
    let toml =
        std::fs::read_to_string(crate::harness::fixtures().join("basic/problems/sum/problem.toml"))
            .unwrap();
    let cases = [
        ("memory_limit = \"256\"", "3:16:", "\"256\" has no unit"),
        ("memory_limit = \"512KiB\"", "3:16:", "under 1MiB"),
        ("time_limit = \"2h\"", "2:14:", "over an hour"),
        ("output_limit = \"100B\"", "4:16:", "under 1KiB"),
        ("output_limit = \"2000GiB\"", "4:16:", "over 1024GiB"),
    ];
    for (line, position, message) in cases {
        let key = line.split(' ').next().unwrap();
        let old = toml.lines().find(|l| l.starts_with(key)).unwrap();
        let run = Judge::fixture("basic")
            .write("problems/sum/problem.toml", &toml.replace(old, line))
            .args(&["judge", "sum"])
            .run()
            .expect_code(2);
        let stderr = run.stderr();
        assert!(
            stderr.contains(&format!("problem.toml:{position}")),
            "{line}: {stderr}"
        );
        assert!(stderr.contains(message), "{line}: {stderr}");
    }
    let lower = Judge::fixture("basic")
        .write(
            "problems/sum/problem.toml",
            &toml.replace("\"64MiB\"", "\"64mb\""),
        )
        .args(&["list", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(lower.json()[0]["memory_limit_kib"], 64 * 1024);
}

#[test]
fn every_subcommand_says_its_exit_codes() {
    for command in ["judge", "test", "list", "doctor", "merge"] {
        let help = Judge::fixture("basic")
            .args(&[command, "--help"])
            .run()
            .expect_code(0)
            .stdout();
        assert!(help.contains("Exit codes: 0 "), "{command}:\n{help}");
        if command == "judge" || command == "test" || command == "merge" {
            assert!(help.contains("Examples:\n  cpjudge "), "{command}:\n{help}");
        }
    }
}

/// A wrong solution the selected tests do not catch is said to be not caught by them, and the judge of a healthy
/// problem's quick check passes; a failure the selection does show still fails it.
#[test]
fn a_selection_that_does_not_catch_a_wrong_solution_is_not_a_failure() {
    // Sums in 32 bits: right on tests 1 and 2, wrong on test 10 (5 x 10^9).
    const OVERFLOW: &str = "#include <stdio.h>\nint main(void) { int n, x, s = 0; scanf(\"%d\", &n);\n\
                            while (n-- > 0 && scanf(\"%d\", &x) == 1) s += x; printf(\"%d\\n\", s); }\n";
    let judge = |args: &[&str]| {
        let mut all = vec!["judge", "sum", "--submission", "sub/overflow.c"];
        all.extend(args);
        Judge::fixture("basic")
            .write("sub/overflow.c", OVERFLOW)
            .args(&all)
            .run()
    };
    let quick = judge(&["--expect", "WA", "--test", "1"]).expect_code(0);
    let out = quick.stdout();
    assert!(
        out.lines()
            .any(|l| l.starts_with("overflow.c") && l.ends_with("not caught")),
        "{out}"
    );
    assert!(
        out.contains("overflow.c: AC, expected WA: not caught by these tests"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("1 solution not caught by these tests: overflow.c;"),
        "{out}"
    );
    // The same selection under --json: as expected, for a script's exit code too.
    let report = judge(&["--expect", "WA", "--test", "1", "--json"])
        .expect_code(0)
        .json();
    assert_eq!(report["ok"], true, "{report:#}");
    // A selection that catches it, and the whole judge, say it got its verdict.
    let caught = judge(&["--expect", "WA", "--test", "10"]).expect_code(0);
    assert!(
        !caught.stdout().contains("not caught"),
        "{}",
        caught.stdout()
    );
    judge(&["--expect", "WA"]).expect_code(0);
    // Expected AC and wrong on the selection: not as expected, whatever the selection.
    judge(&["--test", "10"]).expect_code(1);
    judge(&["--test", "1"]).expect_code(0);
}

/// The table fits the width `COLUMNS` gives where the output is not a terminal, with names as long as the
/// bundled problems' longest.
#[test]
fn the_table_fits_the_columns_given() {
    let ac = std::fs::read_to_string(
        crate::harness::fixtures().join("basic/problems/sum/solutions/ac.py"),
    )
    .unwrap();
    for columns in ["80", "60"] {
        let run = Judge::fixture("basic")
            .write("sub/too_many_questions.py", &ac)
            .write("sub/table_then_search.py", &ac)
            .args(&[
                "judge",
                "sum",
                "--submission",
                "sub/too_many_questions.py",
                "--submission",
                "sub/table_then_search.py",
                "--expect",
                "WA",
            ])
            .env("COLUMNS", columns)
            .run()
            .expect_code(1);
        let out = run.stdout();
        let width: usize = columns.parse().unwrap();
        let rows: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("solution"))
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(rows.len(), 3, "{out}");
        for row in rows {
            assert!(row.chars().count() <= width, "{columns}: {row:?}\n{out}");
        }
        assert!(
            out.lines()
                .all(|l| l.chars().count() <= width || l.contains("not as expected")),
            "{out}"
        );
    }
}
