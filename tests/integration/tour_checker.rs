//! The knight-tour checker: it accepts every reference's tour and rejects broken ones, naming the first fault.

use crate::harness::build_tool as build;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

fn problem_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/knight-tour")
}

/// Runs the checker on `output` for the start in `input`, with the main reference's tour as the answer:
/// Ok(()) if accepted, Err(message) if rejected.
fn check(checker: &[OsString], input: &str, output: &[u8]) -> Result<(), String> {
    let start: Vec<usize> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let answer = render(&tour((start[0], start[1])));
    let dir = tempfile::tempdir().unwrap();
    let (i, o, a) = (
        dir.path().join("in"),
        dir.path().join("out"),
        dir.path().join("ans"),
    );
    std::fs::write(&i, input).unwrap();
    std::fs::write(&o, output).unwrap();
    std::fs::write(&a, answer).unwrap();
    let result = std::process::Command::new(&checker[0])
        .args(&checker[1..])
        .args([&i, &o, &a])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&result.stderr).trim().to_owned();
    match result.status.code() {
        Some(0) => Ok(()),
        Some(1 | 2) => Err(said),
        other => panic!("checker ended with {other:?} ({said}): a judge error, not a verdict"),
    }
}

/// A valid tour as a grid of step numbers.
fn tour(start: (usize, usize)) -> Vec<Vec<u32>> {
    let name = format!("r{}c{}", start.0, start.1);
    let answer =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/knight-tour"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.extension().is_some_and(|e| e == "in")
                    && std::fs::read_to_string(p)
                        .unwrap()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        == [start.0.to_string(), start.1.to_string()]
            })
            .unwrap_or_else(|| panic!("no test starts at {name}"))
            .with_extension("ans");
    std::fs::read_to_string(answer)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect()
}

fn render(grid: &[Vec<u32>]) -> String {
    grid.iter()
        .map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

fn position(grid: &[Vec<u32>], step: u32) -> (usize, usize) {
    for (r, row) in grid.iter().enumerate() {
        if let Some(c) = row.iter().position(|&s| s == step) {
            return (r, c);
        }
    }
    panic!("no step {step}")
}

#[test]
fn mutated_tours_are_rejected_with_their_fault_named() {
    let checker = build(&problem_dir().join("checker.rs"));
    let start = (2, 6);
    let input = "2 6\n";
    let good = tour(start);
    assert_eq!(
        check(&checker, input, render(&good).as_bytes()),
        Ok(()),
        "the reference's tour"
    );

    let swapped = {
        let mut g = good.clone();
        let (a, b) = (position(&g, 20), position(&g, 40));
        g[a.0][a.1] = 40;
        g[b.0][b.1] = 20;
        render(&g)
    };
    let repeated = {
        let mut g = good.clone();
        let at = position(&g, 30);
        g[at.0][at.1] = 31;
        render(&g)
    };
    let sixty_three = {
        let text = render(&good);
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let last: Vec<&str> = lines[7].split(' ').collect();
        lines[7] = last[..7].join(" ");
        lines.join("\n") + "\n"
    };
    let other_start = render(&tour((0, 0)));
    let non_number = render(&good).replacen(&good[0][0].to_string(), "x", 1);
    let extra_token = render(&good) + "65\n";
    let one_line = render(&good).replace('\n', " ").trim_end().to_owned() + "\n";

    let cases: [(&str, String, &[&str]); 7] = [
        ("two steps swapped", swapped, &["knight's move"]),
        ("a repeated number", repeated, &["31", "twice"]),
        ("63 numbers", sixty_three, &["line 8", "found 7"]),
        ("a wrong start square", other_start, &["start"]),
        ("a non-number", non_number, &["\"x\"", "not a number"]),
        ("an extra token", extra_token, &["extra"]),
        ("64 numbers on one line", one_line, &["line 1", "found 64"]),
    ];
    for (what, output, words) in cases {
        let message = check(&checker, input, output.as_bytes()).expect_err(what);
        for word in words {
            assert!(
                message.contains(word),
                "{what}: {message:?} does not name {word:?}"
            );
        }
    }
}

/// The hand-made cases kept beside the checker: `.err` holds what the message must contain; no `.err` means the
/// output must be accepted.
#[test]
fn kept_checker_cases() {
    let checker = build(&problem_dir().join("checker.rs"));
    let dir = problem_dir().join("checker-tests");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let input = entry.unwrap().path();
        if input.extension().is_none_or(|e| e != "in") {
            continue;
        }
        seen += 1;
        let start = std::fs::read_to_string(&input).unwrap();
        let output = std::fs::read(input.with_extension("out")).unwrap();
        let verdict = check(&checker, &start, &output);
        match std::fs::read_to_string(input.with_extension("err")) {
            Ok(want) => {
                let message = verdict.expect_err(&input.display().to_string());
                assert!(
                    message.contains(want.trim()),
                    "{}: {message:?}, not {want:?}",
                    input.display()
                );
            }
            Err(_) => assert_eq!(verdict, Ok(()), "{}", input.display()),
        }
    }
    assert!(seen >= 8, "only {seen} kept checker cases");
}
