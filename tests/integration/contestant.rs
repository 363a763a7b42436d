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
