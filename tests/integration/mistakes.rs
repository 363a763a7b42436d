//! Mistakes in problems and command lines: each is exit code 2 with a message that says where and what.

use crate::harness::Judge;

#[test]
fn bad_value_in_problem_toml_names_file_line_and_column() {
    let toml = std::fs::read_to_string(
        crate::harness::fixtures().join("checker/problems/pair/problem.toml"),
    )
    .unwrap()
    .replace("time_limit = \"1s\"", "time_limit = \"fast\"");
    let run = Judge::fixture("checker")
        .write("problems/pair/problem.toml", &toml)
        .args(&["judge", "pair"])
        .run();
    let stderr = run.expect_code(2).stderr();
    assert!(
        stderr.contains("problems/pair/problem.toml:2:14:"),
        "{stderr}"
    );
    assert!(stderr.contains("\"fast\" is not a duration"), "{stderr}");
}

#[test]
fn problem_toml_mistakes() {
    let cases = [
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ncolour = 3\n",
            "4:1:",
            "unknown field `colour`",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64 parsecs\"\n",
            "3:16:",
            "unknown size unit",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
            "1:1:",
            "no [[solutions]]",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n[[solutions]]\npath = \"nope.rs\"\nexpected = \"AC\"\nmain = true\n",
            "5:8:",
            "does not exist",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n[[solutions]]\npath = \"solutions/zero_first.py\"\nexpected = \"OK\"\n",
            "6:12:",
            "unknown verdict \"OK\"",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n[[solutions]]\npath = \"solutions/zero_first.py\"\nexpected = \"AC\"\n",
            "4:1:",
            "no solution is marked `main = true`",
        ),
        (
            "title = \"x\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ncompare = \"tokens\"\nchecker = \"checker.cpp\"\n",
            "5:11:",
            "either `checker` or `compare`",
        ),
        ("title = \"x\"\ntime_limit = 1\n", "2:14:", "invalid type"),
        (
            "title = \"x\"\ntime_limit = \"1s\n",
            "2:17:",
            "invalid basic string",
        ),
    ];
    for (toml, position, message) in cases {
        let run = Judge::fixture("checker")
            .write("problems/pair/problem.toml", toml)
            .args(&["judge", "pair"])
            .run();
        let stderr = run.expect_code(2).stderr();
        assert!(
            stderr.contains(&format!("problem.toml:{position}")),
            "{toml}\n{stderr}"
        );
        assert!(stderr.contains(message), "{toml}\n{stderr}");
    }
}

#[test]
fn unknown_problem_lists_the_known_ones() {
    let stderr = Judge::fixture("checker")
        .args(&["judge", "pear"])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("unknown problem \"pear\"; known problems: pair, pair-crash"),
        "{stderr}"
    );
}

#[test]
fn input_without_answer_is_named() {
    let run = Judge::fixture("checker")
        .remove("testdata/pair/s7.ans")
        .args(&["judge", "pair"])
        .run();
    let stderr = run.expect_code(2).stderr();
    assert!(
        stderr.contains("testdata/pair/s7.in: test input has no answer file"),
        "{stderr}"
    );
}

#[test]
fn missing_submission() {
    let stderr = Judge::fixture("checker")
        .args(&["judge", "pair", "--submission", "nowhere.cpp"])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("submission nowhere.cpp does not exist"),
        "{stderr}"
    );
}

#[test]
fn submission_in_an_unknown_language() {
    let stderr = Judge::fixture("checker")
        .write("mine.zz", "whatever\n")
        .args(&["judge", "pair", "--submission", "mine.zz"])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("mine.zz: unknown language for extension \"zz\""),
        "{stderr}"
    );
}

#[test]
fn missing_compiler_is_named() {
    let stderr = Judge::fixture("checker")
        .env("PATH", "/nonexistent")
        .args(&[
            "judge",
            "pair",
            "--submission",
            "problems/pair/solutions/halves.rs",
        ])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("needs `g++`, which was not found on PATH"),
        "checker first: {stderr}"
    );
}

/// A folder whose PATH holds the C and C++ compilers and python3 alone: no rustc.
fn path_without_rust() -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    for tool in ["gcc", "g++", "python3", "as", "ld"] {
        if let Ok(found) = which::which(tool) {
            std::os::unix::fs::symlink(found, folder.path().join(tool)).unwrap();
        }
    }
    folder
}

#[test]
fn a_problem_program_missing_its_compiler_is_named_with_its_role() {
    let path = path_without_rust();
    let submission = tempfile::tempdir().unwrap();
    let source = submission.path().join("mine.cpp");
    std::fs::write(&source, "int main() { return 0; }\n").unwrap();
    let stderr = Judge::bundled(&["knight-pawns"])
        .env("PATH", path.path().to_str().unwrap())
        .args(&["judge", "knight-pawns", "--submission"])
        .args(&[source.to_str().unwrap()])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("the validator ")
            && stderr.contains("knight-pawns/validator.rs is in Rust, which needs `rustc`"),
        "{stderr}"
    );
    // Without a validator, the checker is the program that needs it.
    let judge = Judge::bundled(&["knight-tour"]);
    let toml = judge.root().join("problems/knight-tour/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("validator = \"validator.rs\"\n", "")).unwrap();
    let stderr = judge
        .env("PATH", path.path().to_str().unwrap())
        .args(&["judge", "knight-tour", "--submission"])
        .args(&[source.to_str().unwrap()])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("the checker ")
            && stderr.contains("knight-tour/checker.rs is in Rust, which needs `rustc`"),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair", "-j", "0"])
        .run();
    assert!(run.expect_code(2).stderr().contains("-j"));
    Judge::fixture("checker")
        .args(&["frobnicate"])
        .run()
        .expect_code(2);
}
