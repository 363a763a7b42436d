//! Tests far larger than the judge should hold, made at test time as sparse files (which cost no disk), in a
//! problem of a project (compared by tokens) and in a package (its default validator): a test file over the limit
//! is refused, naming it and the limit; below it, the judge streams inputs and answers, its own memory small.

use crate::harness::{shared_cache, solution};
use crate::packages::Judged;
use assert_cmd::Command;
use std::path::PathBuf;
use std::time::Duration;

const GIB: u64 = 1 << 30;
/// Over the limit of a test file (1 GiB).
const OVER: u64 = 3 * GIB;
/// Just under it.
const UNDER: u64 = GIB - 4096;
/// An input large enough that holding it shows, small enough to be copied for a run and hashed in little time.
const LARGE: u64 = 256 << 20;
/// What the judge itself may hold, whatever the size of the tests.
const HARNESS_MEMORY: u64 = 100 << 20;

#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A problem of a project, its output compared by tokens.
    Project,
    /// A problem package, judged by its default output validator.
    Package,
}

const KINDS: [Kind; 2] = [Kind::Project, Kind::Package];

/// A test file: text, or a sparse file of this many NUL bytes.
#[derive(Debug, Clone, Copy)]
enum Contents {
    Text(&'static str),
    Sparse(u64),
}

/// A problem with one test and an input validator that accepts anything without reading it, made in a folder of
/// its own; judged with a submission that prints "1".
struct Problem {
    kind: Kind,
    dir: tempfile::TempDir,
}

impl Problem {
    fn new(kind: Kind, input: Contents, answer: Contents) -> Problem {
        let dir = tempfile::Builder::new()
            .prefix("cpjudge-huge-")
            .tempdir()
            .unwrap();
        let problem = Problem { kind, dir };
        let write = |path: &str, text: &str| {
            let path = problem.dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("short.py", "print(1)\n");
        match kind {
            Kind::Project => {
                write(
                    "problems/huge/problem.toml",
                    "title = \"Huge\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n\
                     validator = \"validator.py\"\n\n\
                     [[solutions]]\npath = \"solutions/short.py\"\nexpected = \"AC\"\nmain = true\n",
                );
                write("problems/huge/solutions/short.py", "print(1)\n");
                write("problems/huge/validator.py", "import sys\nsys.exit(0)\n");
            }
            Kind::Package => {
                write("huge/problem.yaml", "name: Huge\nvalidation: default\n");
                write("huge/.timelimit", "2\n");
                write(
                    "huge/input_validators/accept.py",
                    "import sys\nsys.exit(42)\n",
                );
            }
        }
        for (path, file) in [(problem.input(), input), (problem.answer(), answer)] {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            match file {
                Contents::Text(text) => std::fs::write(&path, text).unwrap(),
                Contents::Sparse(len) => {
                    std::fs::File::create(&path).unwrap().set_len(len).unwrap()
                }
            }
        }
        problem
    }

    fn tests(&self) -> PathBuf {
        match self.kind {
            Kind::Project => self.dir.path().join("testdata/huge"),
            Kind::Package => self.dir.path().join("huge/data/secret"),
        }
    }

    fn input(&self) -> PathBuf {
        self.tests().join("1.in")
    }

    fn answer(&self) -> PathBuf {
        self.tests().join("1.ans")
    }

    /// Judges the submission, expecting `verdict`, with a JSON report.
    fn judge(&self, verdict: &str) -> Judged {
        let root = self.dir.path();
        let problem = match self.kind {
            Kind::Project => "huge".to_owned(),
            Kind::Package => root.join("huge").display().to_string(),
        };
        let submission = root.join("short.py");
        let output = Command::cargo_bin("cpjudge")
            .unwrap()
            .current_dir(root)
            .arg("--cache-dir")
            .arg(shared_cache())
            .args(["judge", &problem, "--json", "--expect", verdict])
            .arg("--submission")
            .arg(submission)
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        Judged::from(output)
    }
}

/// The judge's own peak memory in a report, asserted to be small.
fn assert_small(kind: Kind, what: &str, report: &serde_json::Value) {
    let peak = report["harness"]["peak_memory"]
        .as_u64()
        .unwrap_or_else(|| panic!("no harness.peak_memory in the report:\n{report:#}"));
    assert!(
        peak < HARNESS_MEMORY,
        "{kind:?}, {what}: the judge's peak memory {} MiB is over {} MiB",
        peak >> 20,
        HARNESS_MEMORY >> 20
    );
}

#[test]
fn a_test_file_over_the_limit_is_refused_naming_it_and_the_limit() {
    for kind in KINDS {
        for over_is_input in [true, false] {
            let (input, answer) = if over_is_input {
                (Contents::Sparse(OVER), Contents::Text("1\n"))
            } else {
                (Contents::Text("1\n"), Contents::Sparse(OVER))
            };
            let problem = Problem::new(kind, input, answer);
            let judged = problem.judge("AC");
            let file = if over_is_input {
                problem.input()
            } else {
                problem.answer()
            };
            let said = format!(
                "{}: a test file of {OVER} bytes (3.0GiB), over the limit of 1GiB for a test's input or answer",
                file.display()
            );
            assert!(
                judged.code == Some(2) && judged.stderr.contains(&said),
                "{kind:?}: expected exit code 2 and {said:?}, got {:?}:\n{}\n{}",
                judged.code,
                judged.stdout,
                judged.stderr
            );
        }
    }
}

#[test]
fn a_huge_answer_is_compared_without_being_held() {
    for kind in KINDS {
        // One token of a gigabyte of NUL bytes, against the submission's "1": wrong from the first byte.
        let problem = Problem::new(kind, Contents::Text("1\n"), Contents::Sparse(UNDER));
        let judged = problem.judge("WA");
        judged.expect(0, "\"WA\"");
        let report = judged.json();
        let message = solution(&report, "short.py")["tests"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.starts_with("token 1: expected \"\\0\\0\\0")
                && message.ends_with("found \"1\""),
            "{kind:?}: {message}"
        );
        assert_small(kind, "a huge answer", &report);
    }
}

#[test]
fn a_large_input_is_validated_and_hashed_without_being_held() {
    for kind in KINDS {
        let problem = Problem::new(kind, Contents::Sparse(LARGE), Contents::Text("1\n"));
        // Twice: once validated and remembered, once found in the validator's memo.
        for time in ["first", "second"] {
            let judged = problem.judge("AC");
            judged.expect(0, "\"AC\"");
            assert_small(
                kind,
                &format!("a large input, {time} judge"),
                &judged.json(),
            );
        }
    }
}
