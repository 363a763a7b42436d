//! Verdicts, limits and the process tree, through `cpjudge judge`.

use crate::harness::{Judge, processes_with, solution};
use std::time::Duration;

/// Every kind of verdict on one fixture problem, each solution getting exactly what it expects.
#[test]
fn every_verdict_as_expected() {
    let run = Judge::fixture("basic")
        .args(&["judge", "sum", "--json"])
        .run()
        .expect_code(0);
    let report = run.json();
    let cases = [
        ("ac.rs", "AC"),
        ("ac.cpp", "AC"),
        ("ac.c", "AC"),
        ("ac.py", "AC"),
        ("wa_off_by_one.cpp", "WA"),
        ("tle_busy.c", "TLE"),
        ("tle_sleep.py", "TLE"),
        ("re_panic.rs", "RE"),
        ("re_segfault.c", "RE"),
        ("re_exit3.py", "RE"),
        ("mle_twice.cpp", "MLE"),
        ("ole_forever.c", "OLE"),
        ("ce_syntax.cpp", "CE"),
    ];
    for (name, verdict) in cases {
        let s = solution(&report, name);
        assert_eq!(s["verdict"], verdict, "{name}: {s:#}");
        assert_eq!(s["ok"], true, "{name}");
    }
    let message = |name| {
        solution(&report, name)["tests"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(
        message("re_segfault.c").contains("SIGSEGV"),
        "{}",
        message("re_segfault.c")
    );
    assert!(
        message("re_exit3.py").contains("exit code 3"),
        "{}",
        message("re_exit3.py")
    );
    assert!(
        message("re_panic.rs").contains("panicked"),
        "{}",
        message("re_panic.rs")
    );
    let compile = &solution(&report, "ce_syntax.cpp")["compile"];
    assert!(
        compile["message"].as_str().unwrap().contains("error"),
        "{compile:#}"
    );

    // The sleeper is caught by the wall-clock limit: 2 x 500ms + 1s, well within 2 x time_limit + 2s.
    let sleeper = &solution(&report, "tle_sleep.py")["tests"][0];
    let wall = Duration::from_millis(sleeper["wall_ms"].as_u64().unwrap());
    assert!(wall <= Duration::from_millis(2 * 500 + 2000), "{sleeper:#}");
    assert!(
        wall >= Duration::from_millis(2 * 500 + 1000),
        "killed too early: {sleeper:#}"
    );
}

/// The table names each verdict and the failing test of the wrong answer, with its diff.
#[test]
fn table_shows_verdicts_and_the_first_difference() {
    let run = Judge::fixture("basic")
        .args(&[
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/wa_off_by_one.cpp",
        ])
        .run()
        .expect_code(1);
    let table = run.stdout();
    assert!(table.contains("wa_off_by_one.cpp"), "{table}");
    assert!(table.contains("WA on test 1"), "{table}");
    // Where the test is, and, since it is short, the test and the output side by side.
    assert!(
        table.contains("test: ") && table.contains("testdata/sum/1.in"),
        "{table}"
    );
    let header = table
        .lines()
        .position(|l| l.trim_start().starts_with("input "))
        .unwrap_or_else(|| panic!("{table}"));
    let row: Vec<&str> = table
        .lines()
        .nth(header + 1)
        .unwrap()
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(row, ["3", "6", "3"], "{table}");
    assert!(table.contains("1 of 1 solution not as expected"), "{table}");
}

/// A submission that leaves sleeping children, some escaped with setsid, leaves nothing alive once judged.
#[test]
fn no_process_outlives_the_judge() {
    let marker = "987654";
    let run = Judge::fixture("basic")
        .write(
            "sub/escape.c",
            &std::fs::read_to_string(
                crate::harness::fixtures().join("submissions/escape_setsid.c"),
            )
            .unwrap(),
        )
        .args(&["judge", "sum", "--submission", "sub/escape.c", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(solution(&run.json(), "escape.c")["verdict"], "AC");
    let survivors = processes_with(&format!("sleep {marker}"));
    assert!(survivors.is_empty(), "still alive: {survivors:?}");
}

/// A checker accepts any of several right answers; it decides WA with its own message.
#[test]
fn checker_accepts_any_right_answer() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair", "--json"])
        .run()
        .expect_code(0);
    let report = run.json();
    for name in ["zero_first.py", "zero_last.c", "halves.rs"] {
        assert_eq!(solution(&report, name)["verdict"], "AC", "{name}");
    }
    let wrong = solution(&report, "negative.py");
    assert_eq!(wrong["verdict"], "WA");
    assert_eq!(
        wrong["tests"][0]["message"],
        "-1 and 1: both must be non-negative"
    );
}

/// A checker that crashes gives JE, never AC or WA.
#[test]
fn crashing_checker_is_a_judge_error() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair-crash", "--json"])
        .run()
        .expect_code(1);
    let reference = solution(&run.json(), "zero_last.py").clone();
    assert_eq!(reference["verdict"], "JE");
    let message = reference["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("checker was killed by SIGSEGV"),
        "{message}"
    );
}

/// A second judge of the same problem compiles nothing: every build comes from the cache.
#[test]
fn second_judge_compiles_nothing() {
    let judge = Judge::fixture("checker")
        .private_cache()
        .args(&["judge", "pair", "--json"]);
    let first = judge.run().expect_code(0).json();
    let second = judge.run().expect_code(0).json();
    let cached = |report: &serde_json::Value| -> Vec<bool> {
        report["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["compile"]["cached"].as_bool().unwrap())
            .collect()
    };
    assert_eq!(cached(&first), [false; 4]);
    assert_eq!(cached(&second), [true; 4]);
    let table = Judge::fixture("checker")
        .private_cache()
        .args(&["judge", "pair"]);
    // The table says so too (a fresh project with its own cache: compiled, then from cache).
    assert!(table.run().stdout().contains("compiled 4, 0 from cache"));
    assert!(table.run().stdout().contains("compiled 0, 4 from cache"));
}

/// Java is judged where a JDK is present.
#[test]
fn java_submission() {
    if which::which("javac").is_err() {
        crate::harness::skip("no javac on PATH, so Java cannot be judged on this machine");
        return;
    }
    let source =
        std::fs::read_to_string(crate::harness::fixtures().join("submissions/ac.java")).unwrap();
    let run = Judge::fixture("basic")
        .write("sub/ac.java", &source)
        .args(&["judge", "sum", "--submission", "sub/ac.java", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(solution(&run.json(), "ac.java")["verdict"], "AC");
}

/// `--all` runs every test of a failing solution; by default judging stops at the first failure.
#[test]
fn all_runs_every_test() {
    let args = [
        "judge",
        "sum",
        "--submission",
        "problems/sum/solutions/wa_off_by_one.cpp",
        "--json",
    ];
    let first_only = Judge::fixture("basic")
        .args(&args)
        .run()
        .expect_code(1)
        .json();
    assert_eq!(
        solution(&first_only, "wa_off_by_one.cpp")["tests"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let all = Judge::fixture("basic")
        .args(&args)
        .args(&["--all"])
        .run()
        .expect_code(1)
        .json();
    let tests = solution(&all, "wa_off_by_one.cpp")["tests"]
        .as_array()
        .unwrap()
        .clone();
    let names: Vec<_> = tests.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["1", "2", "10"], "natural order");
}

/// Running tests in parallel gives the same verdicts.
#[test]
fn parallel_tests_same_verdicts() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair", "-j", "2", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(
        solution(&run.json(), "negative.py")["tests"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// `--tests DIR` judges on other tests.
#[test]
fn tests_from_another_folder() {
    let run = Judge::fixture("basic")
        .write("mine/big.in", "2\n4 5\n")
        .write("mine/big.ans", "10\n")
        .args(&[
            "judge",
            "sum",
            "--tests",
            "mine",
            "--submission",
            "problems/sum/solutions/ac.c",
            "--json",
        ])
        .run()
        .expect_code(1);
    let ac = solution(&run.json(), "ac.c").clone();
    assert_eq!(ac["verdict"], "WA");
    assert_eq!(ac["tests"][0]["name"], "big");
}

/// Each layer on its own still measures a busy loop's CPU time: with namespaces the program runs two levels below
/// the supervisor, and a killed run's time must not get lost on the way.
#[test]
fn cpu_time_of_a_killed_run_with_each_layer_alone() {
    for layer in ["cgroup", "namespaces", "landlock", "seccomp"] {
        if !crate::harness::layer_works(layer, "measuring CPU time with one layer") {
            continue;
        }
        let run = Judge::fixture("basic")
            .args(&["--layers", layer, "judge", "sum", "--json"])
            .args(&["--submission", "problems/sum/solutions/tle_busy.c"])
            .run()
            .expect_code(1);
        let report = run.json();
        let test = &solution(&report, "tle_busy.c")["tests"][0];
        assert_eq!(test["verdict"], "TLE", "{layer}: {test:#}");
        assert!(
            test["time_ms"].as_u64().unwrap() >= 500,
            "{layer}: {test:#}"
        );
    }
}

/// `--strict` refuses to judge with a layer off, naming it.
#[test]
fn strict_refuses_without_every_layer() {
    let run = Judge::fixture("basic")
        .args(&[
            "--layers",
            "cgroup,landlock,seccomp",
            "judge",
            "sum",
            "--strict",
        ])
        .run()
        .expect_code(2);
    assert!(
        run.stderr().contains("--strict") && run.stderr().contains("namespaces"),
        "{}",
        run.stderr()
    );
}

/// With Landlock, a solution reads nothing of the project, not only its problems and tests (its history, notes and
/// builds would give answers away too): here a file at the project's top, whose path the submission knows. The
/// project lies outside the temporary folder, which is hidden on its own.
#[test]
fn solutions_read_nothing_of_the_project() {
    if !crate::harness::layer_works("landlock", "keeping solutions out of the project") {
        return;
    }
    let judge = Judge::fixture_in("basic", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")))
        .private_cache()
        .write("notes.txt", "the answers are 6, 3 and 0\n");
    let notes = judge.root().join("notes.txt");
    let submission = format!(
        "import sys\n\
         n, *xs = map(int, sys.stdin.read().split())\n\
         try:\n    open({notes:?}).read()\n    leaked = 1\n\
         except OSError:\n    leaked = 0\n\
         print(sum(xs[:n]) + leaked)\n",
        notes = notes.display().to_string()
    );
    let run = judge
        .write("sub/peek.py", &submission)
        .args(&["judge", "sum", "--submission", "sub/peek.py", "--json"])
        .run()
        .expect_code(0);
    assert_eq!(solution(&run.json(), "peek.py")["verdict"], "AC");
}

/// The checker reads the test's own input, not the run's copy, which the run may rewrite: here to "0", which
/// would make its "0 0" a right answer to every test. Without layers, so that nothing else stops the rewrite.
#[test]
fn checker_reads_the_tests_own_input() {
    let source = std::fs::read_to_string(
        crate::harness::fixtures().join("submissions/rewrite_checker_input.c"),
    )
    .unwrap();
    let run = Judge::fixture("checker")
        .write("sub/rewrite.c", &source)
        .args(&["--layers", "none", "judge", "pair", "--json", "--all"])
        .args(&["--submission", "sub/rewrite.c"])
        .run()
        .expect_code(1);
    let report = run.json();
    let tests = solution(&report, "rewrite.c")["tests"]
        .as_array()
        .unwrap()
        .clone();
    let verdicts: Vec<&str> = tests
        .iter()
        .map(|t| t["verdict"].as_str().unwrap())
        .collect();
    // "0 0" is right for the test whose input is 0, and wrong for the others.
    assert_eq!(verdicts, ["AC", "WA", "WA"], "{tests:#?}");
}

/// Programs large in ordinary ways run as on any judge machine, whatever the memory limit: threads (the C library
/// reserves each one a stack as large as the stack limit, 7/8 of the memory limit, which an address-space cap must
/// leave room for), and a large initialised array (as large an executable, which compiling must allow).
#[test]
fn large_programs_run_under_a_large_memory_limit() {
    for layers in ["all", "none"] {
        let run = Judge::fixture("large")
            .env("CPJUDGE_LAYERS", layers)
            .args(&["judge", "large", "--json"])
            .run();
        let report = run.json();
        for name in ["threads.c", "big_data.c"] {
            let solution = solution(&report, name);
            assert_eq!(solution["verdict"], "AC", "layers {layers}: {solution:#}");
        }
    }
}

/// A crash says why: the end of a Python traceback, not its first line, in the table, the JSON report and JUnit.
#[test]
fn a_crash_shows_the_end_of_its_traceback() {
    let source = "import sys\nprint('reading', file=sys.stderr)\nxs = list(map(int, sys.stdin.read().split()))\n\
                  def main():\n    return xs[100]\nmain()\n";
    let judge = Judge::fixture("basic")
        .write("mine/crash.py", source)
        .args(&["judge", "sum", "--submission", "mine/crash.py"]);
    let table = judge.run().expect_code(1).stdout();
    assert!(
        table.contains("IndexError: list index out of range"),
        "{table}"
    );
    let judge = Judge::fixture("basic")
        .write("mine/crash.py", source)
        .args(&["judge", "sum", "--submission", "mine/crash.py", "--json"])
        .args(&["--junit", "report.xml"]);
    let report = judge.run().json();
    let junit = std::fs::read_to_string(judge.root().join("report.xml")).unwrap();
    assert!(
        junit.contains("IndexError: list index out of range"),
        "{junit}"
    );
    let message = solution(&report, "crash.py")["tests"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.starts_with("exit code 1: "), "{message}");
    assert!(
        message.ends_with("IndexError: list index out of range"),
        "{message}"
    );
}

/// A Rust file's name need not be a crate name: `a+b.rs` and `sum (2).rs` compile like any other.
#[test]
fn rust_files_named_as_people_name_them_compile() {
    let source = std::fs::read_to_string(
        crate::harness::fixtures().join("basic/problems/sum/solutions/ac.rs"),
    )
    .unwrap();
    let run = Judge::fixture("basic")
        .write("a+b.rs", &source)
        .write("sum (2).rs", &source)
        .args(&[
            "judge",
            "sum",
            "--submission",
            "a+b.rs",
            "--submission",
            "sum (2).rs",
            "--json",
        ])
        .run()
        .expect_code(0);
    for name in ["a+b.rs", "sum (2).rs"] {
        assert_eq!(solution(&run.json(), name)["verdict"], "AC");
    }
}

/// A checker gets the test's files by path, from a folder of its own: a tests folder given relative to where the
/// judge runs must still reach it.
#[test]
fn a_checker_reads_tests_given_by_a_relative_path() {
    let run = Judge::bundled(&["knight-tour"])
        .args(&[
            "judge",
            "knight-tour",
            "--tests",
            "testdata/knight-tour",
            "--test",
            "sample-*",
            "--submission",
            "problems/knight-tour/solutions/warnsdorff.rs",
            "--json",
        ])
        .run()
        .expect_code(0);
    assert_eq!(solution(&run.json(), "warnsdorff.rs")["verdict"], "AC");
}
