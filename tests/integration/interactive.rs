//! Interactive problems: the bundled hidden-knight, its reference on every square of the board, and solutions that
//! misbehave in every way a dialogue allows, against our own interactor and against a package's.

use crate::harness::{Judge, processes_under};
use crate::packages::{Judged, cpjudge, package};
use std::path::Path;
use std::time::{Duration, Instant};

/// The reference finds the knight on each of the 2,500 squares, judged as any test is: through the interactor,
/// within the question limit.
#[test]
fn the_reference_finds_the_knight_on_every_square() {
    let project = Judge::bundled(&["hidden-knight"]);
    let tests = project.root().join("every-square");
    std::fs::create_dir(&tests).unwrap();
    for x in 0..50 {
        for y in 0..50 {
            let square = format!("{x} {y}\n");
            let name = format!("{x:02}-{y:02}");
            std::fs::write(tests.join(format!("{name}.in")), &square).unwrap();
            std::fs::write(tests.join(format!("{name}.ans")), &square).unwrap();
        }
    }
    // The C++ reference, the quickest to start: the three references play the same strategy.
    let run = project
        .args(&[
            "judge",
            "hidden-knight",
            "--tests",
            "every-square",
            "--submission",
            "problems/hidden-knight/solutions/strategy_search.cpp",
            "-j",
            "2",
            "--json",
        ])
        .run()
        .expect_code(0);
    let report = run.json();
    let solution = &report["solutions"][0];
    assert_eq!(solution["verdict"], "AC", "{solution:#}");
    let tests = solution["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2500);
    assert!(tests.iter().all(|t| t["verdict"] == "AC"));
}

/// Solutions that misbehave, as C sources: what each does, its source, and the verdict it must end in. `ask` is
/// one well-formed question of the problem's protocol.
fn misbehaviours(ask: &str) -> Vec<(&'static str, String, &'static str)> {
    vec![
        // Never reads, never writes: the interactor waits for a question, the solution for nothing.
        (
            "never reads",
            "#include <unistd.h>\nint main(void) { for (;;) pause(); }\n".to_owned(),
            "TLE",
        ),
        // Asks without end, never reading the answers: the interactor stops it at its question limit.
        (
            "floods",
            format!("#include <stdio.h>\nint main(void) {{ for (;;) printf(\"{ask}\\n\"); }}\n"),
            "WA",
        ),
        // Closes its end at once: the interactor hears no answer.
        (
            "closes early",
            "#include <unistd.h>\nint main(void) { close(1); close(0); return 0; }\n".to_owned(),
            "WA",
        ),
        // Asks once, then sleeps.
        (
            "sleeps",
            format!(
                "#include <stdio.h>\n#include <unistd.h>\n\
                 int main(void) {{ printf(\"{ask}\\n\"); fflush(stdout); sleep(1000); }}\n"
            ),
            "TLE",
        ),
        // Burns CPU without a word.
        (
            "spins",
            "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n".to_owned(),
            "TLE",
        ),
    ]
}

/// Each misbehaviour ends in its verdict well within `within`, leaving no process behind.
fn assert_no_hang(
    within: Duration,
    ask: &str,
    mut judge: impl FnMut(&Path, &str) -> Judged,
    cache: &Path,
) {
    let dir = tempfile::tempdir().unwrap();
    for (what, source, expected) in misbehaviours(ask) {
        let file = dir.path().join(format!("{}.c", what.replace(' ', "_")));
        std::fs::write(&file, source).unwrap();
        let started = Instant::now();
        let judged = judge(&file, expected);
        let took = started.elapsed();
        let report = judged.json();
        assert_eq!(
            judged.code,
            Some(0),
            "{what}: {report:#}\n{}",
            judged.stderr
        );
        assert_eq!(report["solutions"][0]["verdict"], expected, "{what}");
        assert!(took < within, "{what} took {took:?}");
        let left = processes_under(cache);
        assert!(left.is_empty(), "{what} left {left:?}");
    }
}

#[test]
fn no_misbehaving_solution_hangs_our_interactor() {
    let mut project = Judge::bundled(&["hidden-knight"]).private_cache();
    let cache = project.root().join("target").join("cache");
    let judge = |file: &Path, expected: &str| {
        let file = file.to_str().unwrap();
        let run = project.then(
            &[
                "judge",
                "hidden-knight",
                "--test",
                "sample-1",
                "--json",
                "--submission",
                file,
                "--expect",
                expected,
            ],
            b"",
        );
        Judged {
            code: run.output.status.code(),
            stdout: run.stdout(),
            stderr: run.stderr(),
        }
    };
    // The time limit is 1 s, the wall limit 3 s, and the interactor's one second more.
    assert_no_hang(Duration::from_secs(20), "? 0 0", judge, &cache);
}

#[test]
fn no_misbehaving_solution_hangs_a_package_interactor() {
    let (dir, path) = package("interactive-guess");
    let cache = dir.path().join("cache");
    let judge = |file: &Path, expected: &str| {
        cpjudge(
            &[
                "judge",
                path.to_str().unwrap(),
                "--submission",
                file.to_str().unwrap(),
                "--expect",
                expected,
                "--test",
                "sample/*",
                "--json",
            ],
            &cache,
        )
    };
    // The wall-time limit of a TLE submission is 2 x 2s + 1s, with the interactor's second after it, and the
    // accepted submissions run first to find the limit.
    assert_no_hang(Duration::from_secs(30), "? 500", judge, &cache);
}

/// An interactor that fails leaves the test unjudged: JE, even when the solution then dies on the closed pipe.
#[test]
fn a_failed_interactor_is_a_judge_error_whatever_the_solution_did() {
    let (dir, path) = package("interactive-guess");
    std::fs::write(
        path.join("output_validators/interactor/interactor.cpp"),
        "int main() { return 1; }\n",
    )
    .unwrap();
    let submission = path.join("submissions/accepted/bisect.cpp");
    let judged = cpjudge(
        &[
            "judge",
            path.to_str().unwrap(),
            "--submission",
            submission.to_str().unwrap(),
            "--time-limit",
            "1s",
            "--test",
            "sample/1",
            "--json",
        ],
        &dir.path().join("cache"),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(1), "{report:#}");
    let test = &report["solutions"][0]["tests"][0];
    assert_eq!(test["verdict"], "JE", "{test:#}");
    assert!(
        test["message"].as_str().unwrap().contains("exit code 1"),
        "{test:#}"
    );
}

/// An interactor that writes once the solution has ended (the solution answers without reading, and ends first):
/// Python's `input()` flushes what it printed and ignores the failure, which its exit then meets again and ends
/// with code 120 instead of the interactor's verdict. Its own verdict must stand, whether the solution ended a
/// moment before its write or long before.
#[test]
fn an_interactors_last_words_after_the_solution_ended_do_not_fail_it() {
    let (dir, path) = package("interactive-guess");
    let interactor = path.join("output_validators/interactor");
    std::fs::remove_file(interactor.join("interactor.cpp")).unwrap();
    std::fs::write(
        interactor.join("interactor.py"),
        "import pathlib, sys, time\n\
         time.sleep(0.3)  # the solution has long ended by then\n\
         print('hello')  # buffered; input() flushes it, and if that fails, leaves it for the exit\n\
         guess = input()\n\
         (pathlib.Path(sys.argv[3]) / 'judgemessage.txt').write_text(f'guessed {guess} blindly')\n\
         sys.exit(43)\n",
    )
    .unwrap();
    let submission = dir.path().join("blind.py");
    std::fs::write(&submission, "print('! 1')\n").unwrap();
    let judged = cpjudge(
        &[
            "judge",
            path.to_str().unwrap(),
            "--submission",
            submission.to_str().unwrap(),
            "--expect",
            "WA",
            "--test",
            "sample/1",
            "--json",
        ],
        &dir.path().join("cache"),
    );
    let report = judged.json();
    let test = &report["solutions"][0]["tests"][0];
    assert_eq!(test["verdict"], "WA", "{test:#}");
    assert!(
        test["message"]
            .as_str()
            .unwrap()
            .contains("guessed ! 1 blindly"),
        "{test:#}"
    );
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
}

/// Submissions stopped for their time while the interactor was writing to them (interactive-switch, whose
/// interactor leaves SIGPIPE as it is): the interactor's death by SIGPIPE is a consequence of the stop, not a
/// judge error, and the verdict is the submission's.
#[test]
fn a_submission_stopped_for_time_is_tle_though_the_interactor_dies_of_it() {
    let (_dir, path) = package("interactive-switch");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &crate::harness::shared_cache(),
    );
    let report = judged.json();
    for solution in report["solutions"].as_array().unwrap() {
        let path = solution["path"].as_str().unwrap();
        assert_eq!(
            solution["verdict"],
            crate::packages::folder_verdict(path),
            "{solution:#}"
        );
    }
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
}
