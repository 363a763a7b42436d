//! `cpjudge test` as a contestant uses it: a file beside its samples, its crashes, its flags and its words.

use super::harness::Judge;

/// A folder `alone/` (in a copy of the basic project) with `tests/` holding two samples of a sum.
fn samples() -> Judge {
    Judge::fixture("basic")
        .write("alone/tests/1.in", "3\n1 2 3\n")
        .write("alone/tests/1.ans", "6\n")
        .write("alone/tests/2.in", "2\n5 7\n")
        .write("alone/tests/2.ans", "12\n")
        .cwd("alone")
}

#[test]
fn a_crash_names_the_submissions_own_file_and_keeps_its_lines_whole() {
    let long = "x".repeat(150);
    let judged = samples()
        .write(
            "alone/sols/crashes.py",
            &format!("def f():\n    raise ValueError(\"{long} end-of-message\")\n\nf()\n"),
        )
        .args(&["test", "sols/crashes.py", "--tests", "tests"])
        .run()
        .expect_code(1);
    let out = judged.stdout();
    // The file the user wrote, with its line number, not the copy in the build cache.
    assert!(
        out.contains("File \"sols/crashes.py\", line 2, in f"),
        "{out}"
    );
    assert!(!out.contains("/build/"), "{out}");
    // Not on a terminal: the long line whole.
    assert!(out.contains(&format!("{long} end-of-message")), "{out}");
}

/// A sum that is wrong on two numbers: right on samples 1 and 3, wrong on 2.
const WRONG_ON_TWO: &str = "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs[:-1]) if n == 2 else sum(xs))\n";

#[test]
fn every_sample_is_run_and_shown_in_a_contestants_words() {
    let judged = samples()
        .write("alone/tests/3.in", "1\n-5\n")
        .write("alone/tests/3.ans", "-5\n")
        .write("alone/sum.py", WRONG_ON_TWO)
        .args(&["test", "sum.py"])
        .run()
        .expect_code(1);
    let out = judged.stdout();
    let verdicts: Vec<(&str, &str)> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            Some((words.next()?, words.next()?))
        })
        .filter(|(name, _)| ["1", "2", "3"].contains(name))
        .collect();
    // The sample after the failure is run too.
    assert_eq!(verdicts, [("1", "AC"), ("2", "WA"), ("3", "AC")], "{out}");
    assert!(out.contains("failed: WA on sample 2"), "{out}");
    assert!(!out.contains("NOT AS EXPECTED"), "{out}");
    let passing = samples()
        .write(
            "alone/sum.py",
            "input()\nprint(sum(map(int, input().split())))\n",
        )
        .args(&["test", "sum.py"])
        .run()
        .expect_code(0);
    assert!(
        passing.stdout().contains("AC: passed all 2 samples"),
        "{}",
        passing.stdout()
    );
}

#[test]
fn numbers_are_compared_within_a_tolerance() {
    let judge = || {
        Judge::fixture("basic")
            .write("alone/tests/1.in", "3\n")
            .write("alone/tests/1.ans", "0.333333333\n")
            .write("alone/third.py", "print(1 / int(input()) + 1e-7)\n")
            .cwd("alone")
    };
    let close = judge().args(&["test", "third.py", "-e", "1e-6"]).run();
    assert_eq!(close.code(), 0, "{}{}", close.stdout(), close.stderr());
    // Token by token without it, and a tolerance too small.
    judge().args(&["test", "third.py"]).run().expect_code(1);
    judge()
        .args(&["test", "third.py", "--error", "1e-9"])
        .run()
        .expect_code(1);
    let bad = judge().args(&["test", "third.py", "-e", "-1"]).run();
    assert_eq!(bad.code(), 2, "{}", bad.stderr());
}

#[test]
fn a_checker_judges_the_outputs() {
    // Any divisor of the number other than 1 and itself is right; the answer holds one of them.
    let checker = "import sys\nn = int(open(sys.argv[1]).read())\nd = int(open(sys.argv[2]).read())\n\
                   if 1 < d < n and n % d == 0:\n    sys.exit(0)\nprint(f'{d} does not divide {n}', file=sys.stderr)\nsys.exit(1)\n";
    let judge = |solution: &str| {
        Judge::fixture("basic")
            .write("alone/tests/1.in", "12\n")
            .write("alone/tests/1.ans", "2\n")
            .write("alone/checker.py", checker)
            .write("alone/divisor.py", solution)
            .cwd("alone")
            .args(&["test", "divisor.py", "--checker", "checker.py"])
            .run()
    };
    let right = judge("n = int(input())\nprint(max(d for d in range(2, n) if n % d == 0))\n");
    assert_eq!(right.code(), 0, "{}{}", right.stdout(), right.stderr());
    let wrong = judge("print(5)\n").expect_code(1);
    assert!(
        wrong.stdout().contains("5 does not divide 12"),
        "{}",
        wrong.stdout()
    );
}

#[test]
fn inputs_alone_are_run_and_their_outputs_shown() {
    let judged = Judge::fixture("basic")
        .write("alone/tests/1.in", "3\n1 2 3\n")
        .write("alone/tests/2.in", "2\n5 7\n")
        .write("alone/sum.py", WRONG_ON_TWO)
        .cwd("alone")
        .args(&["test", "sum.py"])
        .run();
    let out = judged.stdout();
    assert_eq!(judged.code(), 0, "{out}{}", judged.stderr());
    let shown: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(shown.windows(2).any(|w| w == ["output:", "6"]), "{out}");
    assert!(shown.windows(2).any(|w| w == ["output:", "5"]), "{out}");
    // A run that fails still fails.
    let crashing = Judge::fixture("basic")
        .write("alone/tests/1.in", "3\n")
        .write("alone/boom.py", "raise SystemExit(3)\n")
        .cwd("alone")
        .args(&["test", "boom.py"])
        .run()
        .expect_code(1);
    assert!(crashing.stdout().contains("RE"), "{}", crashing.stdout());
}

#[test]
fn without_samples_the_folder_looked_in_and_what_was_wanted_are_named() {
    let judge = Judge::fixture("basic").write("alone/sum.py", "print(1)\n");
    let missing = judge
        .cwd("alone")
        .args(&["test", "sum.py"])
        .run()
        .expect_code(2);
    let said = missing.stderr();
    assert!(!said.contains("(in )"), "{said}");
    assert!(
        said.contains("/alone") && said.contains("NAME.in"),
        "{said}"
    );
    let empty = Judge::fixture("basic")
        .write("alone/sum.py", "print(1)\n")
        .write("alone/tests/notes.txt", "nothing here\n")
        .cwd("alone")
        .args(&["test", "sum.py"])
        .run()
        .expect_code(2);
    let said = empty.stderr();
    assert!(said.contains("tests") && said.contains("NAME.in"), "{said}");
}

/// Processes whose environment holds `marker`: a judge's workers take its environment.
fn processes_in_environment(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(environment) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environment
            .split(|&b| b == 0)
            .any(|variable| variable == marker.as_bytes())
        {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

/// `test` starts its first worker before it knows what it will run: one that nothing took, because the command
/// failed, is ended and waited for before the command exits, as one that ran is.
#[test]
fn a_test_leaves_no_worker_whether_or_not_it_ran() {
    let marker = format!("CPJUDGE_TEST_MARKER={}", std::process::id());
    let (name, value) = marker.split_once('=').unwrap();
    Judge::fixture("basic")
        .write("alone/sum.py", "print(1)\n")
        .env(name, value)
        .cwd("alone")
        .args(&["test", "sum.py"])
        .run()
        .expect_code(2);
    let left = processes_in_environment(&marker);
    assert!(left.is_empty(), "left after a failed test: {left:?}");
    samples()
        .write(
            "alone/sum.py",
            "import sys\nn, *xs = map(int, sys.stdin.read().split())\nprint(sum(xs[:n]))\n",
        )
        .env(name, value)
        .args(&["test", "sum.py"])
        .run()
        .expect_code(0);
    let left = processes_in_environment(&marker);
    assert!(left.is_empty(), "left after a test: {left:?}");
}

/// A sum that is right only when compiled with LOCAL defined.
const SUM_IF_LOCAL: &str = "#include <cstdio>\nint main() {\n    long long n, x, s = 0;\n    scanf(\"%lld\", &n);\n\
    for (long long i = 0; i < n; i++) { scanf(\"%lld\", &x); s += x; }\n#ifdef LOCAL\n    printf(\"%lld\\n\", s);\n\
#else\n    printf(\"0\\n\");\n#endif\n}\n";

/// Uses C++20's ranges: a compile error under C++17.
const RANGES: &str = "#include <bits/stdc++.h>\nint main() {\n    int n; std::cin >> n; std::vector<long long> v(n);\n\
    for (auto &x : v) std::cin >> x;\n    std::ranges::sort(v);\n    std::cout << std::accumulate(v.begin(), v.end(), 0LL) << \"\\n\";\n}\n";

fn builds_in(cache: &std::path::Path) -> usize {
    std::fs::read_dir(cache.join("build")).map_or(0, |d| d.count())
}

#[test]
fn flags_chosen_on_the_command_line_are_compiled_with_and_are_another_build() {
    let own_cache = tempfile::tempdir().unwrap();
    let cache = own_cache.path();
    samples()
        .write("alone/sum.cpp", SUM_IF_LOCAL)
        .cache(cache)
        .args(&["test", "sum.cpp", "-q"])
        .run()
        .expect_code(1);
    let builds = builds_in(cache);
    let judge = samples()
        .write("alone/sum.cpp", SUM_IF_LOCAL)
        .cache(cache)
        .args(&["test", "sum.cpp", "--lang-flags", "cpp=-O2 -DLOCAL"]);
    let local = judge.run();
    assert_eq!(local.code(), 0, "{}{}", local.stdout(), local.stderr());
    // The flags are part of the build's key: the build without them was not taken.
    assert_eq!(builds_in(cache), builds + 1);
    assert!(builds > 0);
    // The standard is one of the flags.
    let old = samples()
        .write("alone/ranges.cpp", RANGES)
        .args(&["test", "ranges.cpp", "--lang-flags", "cpp=-O2 -std=gnu++17"])
        .run()
        .expect_code(1);
    assert!(old.stdout().contains("compile error"), "{}", old.stdout());
    samples()
        .write("alone/ranges.cpp", RANGES)
        .args(&["test", "ranges.cpp", "--lang-flags", "cpp=-O2 -std=gnu++20"])
        .run()
        .expect_code(0);
    let unknown = samples()
        .write("alone/sum.cpp", SUM_IF_LOCAL)
        .args(&["test", "sum.cpp", "--lang-flags", "cobol=-O2"])
        .run()
        .expect_code(2);
    assert!(unknown.stderr().contains("cobol"), "{}", unknown.stderr());
}

#[test]
fn a_problem_chooses_its_flags_and_the_command_line_overrides_them() {
    let config =
        std::fs::read_to_string(super::harness::fixtures().join("basic/problems/sum/problem.toml"))
            .unwrap();
    let judge = |extra: &str, args: &[&str]| {
        Judge::fixture("basic")
            .write(
                "problems/sum/problem.toml",
                &format!("{config}\n[flags]\ncpp = {extra}\n"),
            )
            .write("sum_local.cpp", SUM_IF_LOCAL)
            .args(&[
                "judge",
                "sum",
                "--submission",
                "sum_local.cpp",
                "--test",
                "1",
            ])
            .args(args)
            .run()
    };
    let chosen = judge("\"-O2 -DLOCAL\"", &[]);
    assert_eq!(chosen.code(), 0, "{}{}", chosen.stdout(), chosen.stderr());
    judge("[\"-O2\", \"-DLOCAL\"]", &[]).expect_code(0);
    judge("\"-O2 -DLOCAL\"", &["--lang-flags", "cpp=-O2"]).expect_code(1);
    let wrong = Judge::fixture("basic")
        .write(
            "problems/sum/problem.toml",
            &format!("{config}\n[flags]\npython3 = \"-O\"\n"),
        )
        .args(&["judge", "sum", "--test", "1"])
        .run()
        .expect_code(2);
    assert!(
        wrong.stderr().contains("problem.toml:") && wrong.stderr().contains("takes no flags"),
        "{}",
        wrong.stderr()
    );
}

#[test]
fn the_users_language_table_sets_a_languages_own_flags() {
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("cpjudge")).unwrap();
    std::fs::write(
        config.path().join("cpjudge/languages.toml"),
        "[cpp]\nflags = [\"-O2\", \"-std={std}\", \"-DLOCAL\"]\n",
    )
    .unwrap();
    let judged = samples()
        .write("alone/sum.cpp", SUM_IF_LOCAL)
        .env("XDG_CONFIG_HOME", config.path().to_str().unwrap())
        .args(&["test", "sum.cpp"])
        .run();
    assert_eq!(judged.code(), 0, "{}{}", judged.stdout(), judged.stderr());
}

/// The sum, in C, and a sum off by one.
const SUM_C: &str = "#include <stdio.h>\nint main(void) {\n    long long n, x, s = 0;\n    if (scanf(\"%lld\", &n) != 1) return 1;\n\
    for (long long i = 0; i < n; i++) { if (scanf(\"%lld\", &x) != 1) return 1; s += x; }\n    printf(\"%lld\\n\", s + OFF);\n    return 0;\n}\n";

/// Compiles `source` (C, with `OFF` defined as `off`) with gcc into `out`, an executable of no known extension, as
/// a contestant builds one.
fn gcc(source: &str, off: i32, out: &std::path::Path) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("sol.c");
    std::fs::write(&c, source).unwrap();
    let built = std::process::Command::new("gcc")
        .arg(format!("-DOFF={off}"))
        .arg("-o")
        .arg(out)
        .arg(&c)
        .status()
        .expect("gcc runs");
    assert!(built.success());
}

#[test]
fn an_executable_the_contestant_built_is_run_as_it_is() {
    for (off, code, verdict) in [(0, 0, "AC"), (1, 1, "WA")] {
        let judge = samples();
        gcc(SUM_C, off, &judge.root().join("alone/a.out"));
        let judged = judge.args(&["test", "a.out"]).run();
        let out = judged.stdout();
        assert_eq!(judged.code(), code, "{out}{}", judged.stderr());
        assert!(out.contains("a.out"), "{out}");
        if verdict == "WA" {
            assert!(out.contains("failed: WA on sample 1"), "{out}");
        } else {
            assert!(out.contains("AC: passed all 2 samples"), "{out}");
        }
    }
    // In JSON: named by its file, and not compiled.
    let judge = samples();
    gcc(SUM_C, 0, &judge.root().join("alone/a.out"));
    let report = judge.args(&["test", "./a.out", "--json"]).run().json();
    let solution = &report["solutions"][0];
    assert_eq!(solution["name"], "a.out", "{report}");
    assert_eq!(solution["language"], "prebuilt", "{report}");
    assert_eq!(solution["verdict"], "AC", "{report}");
}

#[test]
fn judge_takes_an_executable_as_a_submission() {
    let judge = Judge::fixture("basic");
    gcc(SUM_C, 0, &judge.root().join("right"));
    gcc(SUM_C, 1, &judge.root().join("wrong"));
    let judged = judge
        .args(&[
            "judge",
            "sum",
            "--submission",
            "right",
            "--submission",
            "wrong",
            "--expect",
            "WA",
            "--json",
        ])
        .run();
    assert_eq!(judged.code(), 0, "{}{}", judged.stdout(), judged.stderr());
    let report = judged.json();
    let right = super::harness::solution(&report, "right");
    assert_eq!(right["verdict"], "AC", "{report}");
    assert_eq!(right["language"], "prebuilt", "{report}");
    assert_eq!(super::harness::solution(&report, "wrong")["verdict"], "WA");
    // Wrong, expected right: not as expected.
    let mut judge = Judge::fixture("basic");
    gcc(SUM_C, 1, &judge.root().join("wrong"));
    let judged = judge.then(&["judge", "sum", "--submission", "wrong"], b"");
    assert_eq!(judged.code(), 1, "{}{}", judged.stdout(), judged.stderr());
    assert!(judged.stdout().contains("wrong"), "{}", judged.stdout());
}

#[test]
fn a_command_runs_a_script_with_the_interpreter_on_path() {
    let judge = |script: &str| {
        samples()
            .write("alone/sol.py", script)
            .args(&["test", "--command", "python3 sol.py"])
            .run()
    };
    let right = judge("input()\nprint(sum(map(int, input().split())))\n");
    let out = right.stdout();
    assert_eq!(right.code(), 0, "{out}{}", right.stderr());
    assert!(out.contains("python3 sol.py"), "{out}");
    let wrong = judge(WRONG_ON_TWO.replace("n == 2", "n == 3").as_str());
    assert_eq!(wrong.code(), 1, "{}{}", wrong.stdout(), wrong.stderr());
    assert!(
        wrong.stdout().contains("failed: WA on sample 1"),
        "{}",
        wrong.stdout()
    );
    // The same through `judge`, named by its command.
    let judged = Judge::fixture("basic")
        .write("sol.py", "input()\nprint(sum(map(int, input().split())))\n")
        .args(&["judge", "sum", "--command", "python3 sol.py", "--json"])
        .run();
    assert_eq!(judged.code(), 0, "{}{}", judged.stdout(), judged.stderr());
    let report = judged.json();
    assert_eq!(
        super::harness::solution(&report, "python3 sol.py")["verdict"],
        "AC",
        "{report}"
    );
}

/// Prints the answer file whose path it was built with, if it can read it; else a wrong number.
const CHEAT_C: &str = "#include <stdio.h>\nint main(void) {\n    FILE *f = fopen(ANSWER, \"r\");\n    long long a;\n\
    if (f && fscanf(f, \"%lld\", &a) == 1) { printf(\"%lld\\n\", a); return 0; }\n    printf(\"-1\\n\");\n    return 0;\n}\n";

#[test]
fn an_executable_run_as_it_is_still_cannot_read_the_answers() {
    if !super::harness::layer_works("landlock", "reading the answers") {
        return;
    }
    let judge = Judge::fixture("basic")
        .write("alone/tests/1.in", "3\n1 2 3\n")
        .write("alone/tests/1.ans", "6\n")
        .cwd("alone");
    let answer = judge.root().join("alone/tests/1.ans");
    let source = CHEAT_C.replace("ANSWER", &format!("{:?}", answer.to_str().unwrap()));
    gcc(&source, 0, &judge.root().join("alone/cheat"));
    let judged = judge.args(&["test", "cheat"]).run();
    let out = judged.stdout();
    assert_eq!(judged.code(), 1, "{out}{}", judged.stderr());
    assert!(out.contains("failed: WA on sample 1"), "{out}");
}
