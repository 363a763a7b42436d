//! The bundled problems under problems/: each judged green, their validators and tour checker tested on
//! hand-made wrong inputs, and their tests rebuilt byte for byte from the recipes.

use crate::harness::{BUNDLED, build_tool as build, copy_dir, shared_cache, solution};
use assert_cmd::Command;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Judges a bundled problem in place: every reference AC, every kept wrong solution its expected verdict.
fn judge_bundled(problem: &str) -> serde_json::Value {
    let output = Command::cargo_bin("cpjudge")
        .unwrap()
        .arg("--root")
        .arg(repo())
        .arg("--cache-dir")
        .arg(shared_cache())
        .args(["judge", problem, "--json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(output.status.code(), Some(0), "{report:#}");
    report
}

#[test]
fn knight_pawns_is_green() {
    let report = judge_bundled("knight-pawns");
    assert_eq!(solution(&report, "greedy_nearest.rs")["verdict"], "WA");
    assert_eq!(solution(&report, "plain_minimax.rs")["verdict"], "TLE");
}

#[test]
fn knight_tour_is_green() {
    let report = judge_bundled("knight-tour");
    // Both references pass the checker on all 65 tests.
    for name in ["warnsdorff.rs", "cyclic_shift.rs"] {
        assert_eq!(
            solution(&report, name)["tests"].as_array().unwrap().len(),
            65,
            "{name}"
        );
    }
}

#[test]
fn young_chess_is_green() {
    let report = judge_bundled("young-chess");
    assert_eq!(solution(&report, "greedy.rs")["verdict"], "WA");
}

#[test]
fn hidden_knight_is_green() {
    let report = judge_bundled("hidden-knight");
    for (name, verdict) in [
        ("too_many_questions.py", "WA"),
        ("wrong_guess.cpp", "WA"),
        ("never_answers.rs", "TLE"),
        ("crashes.py", "RE"),
    ] {
        let solution = solution(&report, name);
        assert_eq!(solution["verdict"], verdict, "{name}");
        // The failing test's dialogue is kept, to replay.
        let failed = solution["tests"].as_array().unwrap().last().unwrap();
        assert!(failed["dialogue"].is_string(), "{name}: {failed:#}");
    }
    let dialogue = solution(&report, "wrong_guess.cpp")["tests"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["dialogue"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(dialogue.starts_with("> ? "), "{dialogue}");
    assert!(dialogue.contains("\n< "), "{dialogue}");
    assert!(
        dialogue
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("> ! "),
        "{dialogue}"
    );
}

struct Ran {
    ok: bool,
    stdout: Vec<u8>,
    stderr: String,
}

fn run(argv: &[OsString], args: &[&str], stdin: &Path) -> Ran {
    let output = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .args(args)
        .stdin(std::fs::File::open(stdin).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    Ran {
        ok: output.status.success(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs a program with `input` on its stdin.
fn run_on(argv: &[OsString], args: &[&str], input: &[u8]) -> Ran {
    let mut child = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::scope(|scope| {
        let writer = scope.spawn(move || stdin.write_all(input));
        let output = child.wait_with_output().unwrap();
        (writer.join().unwrap(), output)
    });
    let (written, output) = writer;
    written.unwrap();
    Ran {
        ok: output.status.success(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Files in `dir` with the given extension, sorted.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    found.sort();
    found
}

/// Every hand-made invalid input in problems/<name>/invalid/ is rejected, with a message holding its `.err` and
/// nothing on stdout; every test input is accepted, with a constraint report that keeps to the protocol.
#[test]
fn validators_reject_invalid_inputs() {
    for problem in BUNDLED {
        let dir = repo().join("problems").join(problem);
        let validator = build(&dir.join("validator.rs"));
        let invalid = files(&dir.join("invalid"), "in");
        assert!(invalid.len() >= 5, "{problem}: too few invalid inputs");
        for input in invalid {
            let ran = run(&validator, &[], &input);
            let want = std::fs::read_to_string(input.with_extension("err")).unwrap();
            assert!(!ran.ok, "{}: accepted", input.display());
            assert!(ran.stdout.is_empty(), "{}: reported", input.display());
            assert!(
                ran.stderr.contains(want.trim()),
                "{}: said {:?}, not {want:?}",
                input.display(),
                ran.stderr
            );
        }
        let mut constraints = cpjudge::authoring::Constraints::new();
        for input in files(&repo().join("testdata").join(problem), "in") {
            let ran = run(&validator, &[], &input);
            assert!(ran.ok, "{}: rejected: {}", input.display(), ran.stderr);
            constraints
                .record(&input.display().to_string(), &ran.stdout)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let summary = constraints.summary();
        assert!(
            !summary.values.is_empty() && !summary.cases.is_empty(),
            "{problem}: no constraint report: {summary:?}"
        );
    }
}

/// Every generated test is rebuilt byte for byte by its recipe, and every test is in the recipe: generated, or
/// recorded as hand-made.
#[test]
fn recipes_rebuild_every_generated_test() {
    for problem in BUNDLED {
        let testdata = repo().join("testdata").join(problem);
        let recipe = cpjudge::authoring::Recipe::load(&testdata).unwrap();
        let config = cpjudge::problem::Catalog::new(repo())
            .load(problem)
            .unwrap();
        let generator = build(&config.generator.expect("a generator"));
        for entry in &recipe.tests {
            let cpjudge::authoring::Source::Generated(args) = &entry.source else {
                continue;
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let ran = run(&generator, &args, Path::new("/dev/null"));
            assert!(ran.ok, "{problem}/{}: {}", entry.name, ran.stderr);
            let kept = std::fs::read(testdata.join(format!("{}.in", entry.name))).unwrap();
            assert!(
                ran.stdout == kept,
                "{problem}/{}: the generator makes a different input",
                entry.name
            );
        }
        for input in files(&testdata, "in") {
            let name = input.file_stem().unwrap().to_string_lossy();
            assert!(
                recipe.get(&name).is_some(),
                "{problem}: {name} is not in the recipe"
            );
        }
    }
}

/// `generator shrink` offers, for every test input, candidates the validator accepts, each shorter than the input:
/// one per pawn for knight-pawns (none for a single pawn), up to four for young-chess, none for knight-tour.
#[test]
fn generators_shrink_to_valid_inputs() {
    for problem in BUNDLED {
        let config = cpjudge::problem::Catalog::new(repo())
            .load(problem)
            .unwrap();
        let generator = build(&config.generator.expect("a generator"));
        let validator = build(&config.validator.expect("a validator"));
        for input in files(&repo().join("testdata").join(problem), "in") {
            let text = std::fs::read_to_string(&input).unwrap();
            let ran = run_on(&generator, &["shrink"], text.as_bytes());
            assert!(ran.ok, "{}: {}", input.display(), ran.stderr);
            let printed = String::from_utf8(ran.stdout).unwrap();
            assert!(
                printed.is_empty() || printed.ends_with("---\n"),
                "{}: {printed:?}",
                input.display()
            );
            let candidates: Vec<&str> = printed.split_terminator("---\n").collect();
            // How many candidates there may be: a cut of the first row or column is left out when it gives the
            // same board as a cut of the last.
            let numbers: Vec<usize> = text
                .split_whitespace()
                .take(3)
                .map(|t| t.parse().unwrap())
                .collect();
            let allowed = match problem {
                "knight-pawns" if numbers[2] == 1 => 0..=0,
                "knight-pawns" => numbers[2]..=numbers[2],
                "young-chess" => {
                    let cuts = usize::from(numbers[0] > 1) + usize::from(numbers[1] > 1);
                    cuts..=2 * cuts
                }
                _ => 0..=0,
            };
            assert!(
                allowed.contains(&candidates.len()),
                "{}: {} candidates",
                input.display(),
                candidates.len()
            );
            for candidate in candidates {
                assert!(
                    candidate.len() < text.len(),
                    "{}: {candidate}",
                    input.display()
                );
                let checked = run_on(&validator, &[], candidate.as_bytes());
                assert!(
                    checked.ok,
                    "{}: shrinks to an invalid input ({}):\n{candidate}",
                    input.display(),
                    checked.stderr
                );
            }
        }
    }
}

/// Every answer is the main reference's output, byte for byte; an interactive problem's answer is its input, which
/// holds the secret its interactor keeps.
#[test]
fn answers_are_the_main_references_output() {
    for problem in BUNDLED {
        let config = cpjudge::problem::Catalog::new(repo())
            .load(problem)
            .unwrap();
        if matches!(
            config.comparison,
            cpjudge::problem::Comparison::Interactive { .. }
        ) {
            for input in files(&repo().join("testdata").join(problem), "in") {
                let answer = std::fs::read(input.with_extension("ans")).unwrap();
                assert!(
                    std::fs::read(&input).unwrap() == answer,
                    "{}: the answer is not the input",
                    input.display()
                );
            }
            continue;
        }
        let main = build(&config.main_solution().expect("a main reference").path);
        for input in files(&repo().join("testdata").join(problem), "in") {
            let ran = run(&main, &[], &input);
            let answer = std::fs::read(input.with_extension("ans")).unwrap();
            assert!(ran.ok, "{}: {}", input.display(), ran.stderr);
            assert!(
                ran.stdout == answer,
                "{}: not the main reference's output",
                input.display()
            );
        }
    }
}

/// A problem with an invalid test is refused before any solution runs, naming the test and what is wrong.
#[test]
fn invalid_test_refuses_the_problem() {
    let project = tempfile::tempdir().unwrap();
    let copy = |relative: &str| copy_dir(&repo().join(relative), &project.path().join(relative));
    copy("problems/young-chess");
    copy("testdata/young-chess");
    let tests = project.path().join("testdata/young-chess");
    std::fs::write(
        tests.join("wide.in"),
        "2 11\n".to_owned() + &"1 ".repeat(44),
    )
    .unwrap();
    std::fs::write(tests.join("wide.ans"), "0\n").unwrap();
    let output = Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(project.path())
        .arg("--cache-dir")
        .arg(shared_cache())
        .args(["judge", "young-chess"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("wide.in is invalid"), "{stderr}");
    assert!(stderr.contains("line 1"), "{stderr}");
}
