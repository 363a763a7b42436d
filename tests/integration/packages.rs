//! Problem packages (tests/fixtures/packages): judged as they are, each submission getting its folder's verdict;
//! broken ones refused with the file named; our problems exported and judged again.

use crate::harness::{BUNDLED, copy_dir, fixtures, shared_cache, test_names};
use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A fresh copy of a package fixture, in a folder of its own.
pub fn package(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    copy_dir(&fixtures().join("packages").join(name), &path);
    (dir, path)
}

pub struct Judged {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl From<std::process::Output> for Judged {
    fn from(output: std::process::Output) -> Self {
        Judged {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Judged {
    /// Asserts the exit code, and that the output or the errors say `said`; shows both otherwise.
    pub fn expect(&self, code: i32, said: &str) {
        assert!(
            self.code == Some(code) && (self.stdout.contains(said) || self.stderr.contains(said)),
            "expected exit code {code} and {said:?}, got {:?}:\n{}\n{}",
            self.code,
            self.stdout,
            self.stderr
        );
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|_| panic!("not JSON:\n{}\n{}", self.stdout, self.stderr))
    }
}

/// Runs cpjudge outside any project, with the given cache.
pub fn cpjudge(args: &[&str], cache: &Path) -> Judged {
    let output = Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(std::env::temp_dir())
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    Judged::from(output)
}

/// The verdict a submission's folder under submissions/ stands for.
pub fn folder_verdict(path: &str) -> &'static str {
    let folder = path
        .split("/submissions/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{path} is not under submissions/"));
    match folder {
        "accepted" => "AC",
        "wrong_answer" => "WA",
        "time_limit_exceeded" => "TLE",
        "run_time_error" => "RE",
        other => panic!("unexpected folder {other}"),
    }
}

/// Judges a package fixture: green, and every submission its folder's verdict.
fn judge_green(name: &str) -> serde_json::Value {
    let (_dir, path) = package(name);
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    for solution in report["solutions"].as_array().unwrap() {
        let path = solution["path"].as_str().unwrap();
        assert_eq!(
            solution["verdict"],
            folder_verdict(path),
            "{}",
            solution["name"]
        );
    }
    report
}

fn solution<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    crate::harness::solution(report, name)
}

#[test]
fn a_package_with_the_default_validator_judges_green() {
    let report = judge_green("float-sum");
    // Samples first, then the secret groups, nested ones too.
    let names = test_names(&report, "sum.c");
    assert!(names[0].starts_with("sample/"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("secret/large/huge/")),
        "{names:?}"
    );
    // The float tolerance of validator_flags accepts fewer digits.
    assert_eq!(solution(&report, "fewer_digits.py")["verdict"], "AC");
    // A folder of several files is one submission.
    assert_eq!(solution(&report, "multi")["verdict"], "AC");
    // Several languages among the submissions.
    let languages: std::collections::BTreeSet<&str> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["language"].as_str().unwrap())
        .collect();
    assert!(languages.len() >= 3, "{languages:?}");
    // No time limit is given: it is derived, and the report says how.
    let origin = report["time_limit_origin"].as_str().unwrap();
    assert!(origin.contains("derived by legacy rules"), "{origin}");
    assert_eq!(report["time_limit_ms"], 1000);
}

#[test]
fn a_package_with_a_custom_output_validator_judges_green() {
    let report = judge_green("custom-checker");
    // The validator's judgemessage.txt is the message of a wrong answer.
    let wrong = solution(&report, "same_position.c");
    let failed = wrong["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["verdict"] == "WA")
        .unwrap();
    assert!(
        failed["message"].as_str().unwrap().contains("twice"),
        "{failed:#}"
    );
    // The limit comes from .timelimit.
    assert_eq!(report["time_limit_ms"], 2000);
}

#[test]
fn a_package_in_the_2023_07_format_judges_green() {
    let report = judge_green("twenty-three");
    assert_eq!(solution(&report, "mixed_case_spaces.py")["verdict"], "AC");
    let origin = report["time_limit_origin"].as_str().unwrap();
    assert!(origin.contains("2023-07"), "{origin}");
}

#[test]
fn an_interactive_package_judges_green_with_the_dialogue_of_a_failure() {
    let report = judge_green("interactive-guess");
    let linear = solution(&report, "linear.py");
    let failed = linear["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["verdict"] == "WA")
        .unwrap();
    let dialogue = failed["dialogue"].as_str().unwrap();
    assert!(dialogue.starts_with("> ? 1\n< "), "{dialogue}");
    assert!(dialogue.contains("> ? 11"), "{dialogue}");
}

/// Judges a broken copy of a package: exit 2, and stderr names `file`.
fn refused(name: &str, breakage: impl FnOnce(&Path), file: &str) -> String {
    let (_dir, path) = package(name);
    breakage(&path);
    let judged = cpjudge(&["judge", path.to_str().unwrap()], &shared_cache());
    assert_eq!(judged.code, Some(2), "{}\n{}", judged.stdout, judged.stderr);
    assert!(
        judged
            .stderr
            .contains(&path.join(file).display().to_string()),
        "{}",
        judged.stderr
    );
    judged.stderr
}

#[test]
fn broken_packages_are_refused_naming_the_file() {
    refused(
        "float-sum",
        |p| std::fs::remove_file(p.join("data/secret/small/01.ans")).unwrap(),
        "data/secret/small/01.in",
    );
    let said = refused(
        "float-sum",
        |p| {
            std::fs::write(
                p.join("problem.yaml"),
                "name: Sum\nlimits:\n  time_multiplier: fast\n",
            )
            .unwrap()
        },
        "problem.yaml:3:20",
    );
    assert!(said.contains("invalid floating point"), "{said}");
    let said = refused(
        "custom-checker",
        |p| {
            std::fs::write(
                p.join("output_validators/checker/checker.cpp"),
                "int main( {\n",
            )
            .unwrap()
        },
        "output_validators/checker",
    );
    assert!(said.contains("does not compile"), "{said}");
    refused(
        "float-sum",
        |p| std::fs::write(p.join("data/secret/small/01.in"), "oops\n").unwrap(),
        "data/secret/small/01.in",
    );
}

/// A limit no run can be held to, in problem.yaml or .timelimit: exit 2, naming the file, line and column and
/// what is wrong, never a panic, nor a limit taken as it is (memory 0 made every submission MLE; an output in
/// MiB past 2^44 overflowed its byte count).
#[test]
fn limits_no_run_can_be_held_to_are_refused_where_written() {
    let cases = [
        (
            "time_limit: .nan",
            "problem.yaml:3:15",
            "limits.time_limit: NaN is not a time limit",
        ),
        (
            "time_limit: -1",
            "problem.yaml:3:15",
            "limits.time_limit: -1.0 is not",
        ),
        (
            "time_limit: 1e300",
            "problem.yaml:3:15",
            "limits.time_limit: 1e300 is not",
        ),
        (
            "time_multiplier: .inf",
            "problem.yaml:3:20",
            "limits.time_multiplier: inf",
        ),
        (
            "memory: 0",
            "problem.yaml:3:11",
            "limits.memory: 0 is not a memory limit",
        ),
        (
            "output: 17592186044416",
            "problem.yaml:3:11",
            "limits.output: 17592186044416 is not an output limit",
        ),
    ];
    for (limit, at, said) in cases {
        let stderr = refused(
            "float-sum",
            |p| {
                let yaml = format!("name: Sum\nlimits:\n  {limit}\n");
                std::fs::write(p.join("problem.yaml"), yaml).unwrap()
            },
            at,
        );
        assert!(stderr.contains(said), "{limit}: {stderr}");
        assert!(!stderr.contains("panicked"), "{limit}: {stderr}");
    }
    let stderr = refused(
        "custom-checker",
        |p| std::fs::write(p.join(".timelimit"), "1e300\n").unwrap(),
        ".timelimit:1:1",
    );
    assert!(stderr.contains("\"1e300\" is not a time limit"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Exports a bundled problem into `dir`.
fn export(problem: &str, dir: &Path) -> std::process::Output {
    Command::cargo_bin("cpjudge")
        .unwrap()
        .arg("--root")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(["export", problem])
        .arg(dir)
        .output()
        .unwrap()
}

#[test]
fn our_problems_exported_judge_green_again() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for problem in BUNDLED {
        let dir = tempfile::tempdir().unwrap();
        let exported = dir.path().join(problem);
        let made = export(problem, &exported);
        assert!(made.status.success(), "{made:?}");
        // A folder named with a dash is no name Kattis takes: the report says which would be.
        let said = String::from_utf8_lossy(&made.stdout);
        let short = problem.replace('-', "");
        assert!(
            said.contains(&format!("rename the folder {short} to check it there")),
            "{said}"
        );
        for needed in ["problem.yaml", ".timelimit", "data/sample", "data/secret"] {
            assert!(exported.join(needed).exists(), "{problem}: no {needed}");
        }
        // Exporting into a folder that holds something is refused.
        let again = export(problem, &exported);
        assert_eq!(again.status.code(), Some(2));
        let judged = cpjudge(
            &["judge", exported.to_str().unwrap(), "--json"],
            &shared_cache(),
        );
        let report = judged.json();
        assert_eq!(judged.code, Some(0), "{problem}: {report:#}");
        let ours = std::fs::read_dir(repo.join("problems").join(problem).join("solutions"))
            .unwrap()
            .count();
        assert_eq!(
            report["solutions"].as_array().unwrap().len(),
            ours,
            "{problem}"
        );
    }
}

/// Exports a bundled problem from `cwd` with the folder left to its default, in the given format, or the default
/// one (as a user would: `cpjudge export NAME`).
fn export_here(problem: &str, cwd: &Path, format: Option<&str>) -> std::process::Output {
    Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(cwd)
        .arg("--root")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(["export", problem])
        .args(format.map(|f| ["--format", f]).into_iter().flatten())
        .output()
        .unwrap()
}

/// problemtools' verifyproblem, installed under target/ by .ci/install-problemtools when absent, with what its
/// statement check needs (LuaLaTeX, for the legacy format's LaTeX statements).
pub(crate) fn verifyproblem() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = repo.join("target/problemtools");
    let tool = target.join("bin/verifyproblem");
    if !tool.is_file() || which_lualatex().is_none() {
        let installed = std::process::Command::new(repo.join(".ci/install-problemtools"))
            .arg(&target)
            .output();
        match installed {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                let why = format!(
                    "problemtools could not be installed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                assert!(
                    std::env::var_os("CPJUDGE_TEST_REQUIRE_VERIFYPROBLEM").is_none(),
                    "{why}"
                );
                crate::harness::skip(&why);
                return None;
            }
            Err(e) => panic!("cannot run .ci/install-problemtools: {e}"),
        }
    }
    Some(tool)
}

fn which_lualatex() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("lualatex"))
        .find(|candidate| candidate.is_file())
}

/// Each bundled problem, exported as a user would (`cpjudge export NAME`, into the folder named after it), passes
/// problemtools' verifyproblem as a user would run it: every part, its statement too, with no error.
#[test]
fn our_problems_exported_pass_verifyproblem() {
    let Some(tool) = verifyproblem() else {
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    // Python runs with CPython and Java with this JDK, by the overrides the install wrote.
    std::fs::copy(
        repo.join("target/problemtools/languages.yaml"),
        dir.path().join("languages.yaml"),
    )
    .unwrap();
    for problem in BUNDLED {
        let made = export_here(problem, dir.path(), None);
        assert!(made.status.success(), "{made:?}");
        // The name Kattis takes: letters and digits alone.
        let short = problem.replace('-', "");
        let statement = std::fs::read_to_string(
            dir.path()
                .join(&short)
                .join("problem_statement/problem.en.tex"),
        )
        .unwrap();
        assert!(
            statement.contains("\\section*{Input}")
                || statement.contains("\\section*{Interaction}"),
            "{problem}: the statement is not rendered:\n{statement}"
        );
        let checked = std::process::Command::new(&tool)
            .current_dir(dir.path())
            .arg(&short)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&checked.stdout);
        assert!(
            checked.status.success() && said.contains(&format!("{short} tested: 0 errors")),
            "{problem}:\n{said}\n{}",
            String::from_utf8_lossy(&checked.stderr)
        );
        if problem == "knight-pawns" {
            // A scoring package: verifyproblem's points per submission are those cpjudge gives (problem.toml).
            assert!(said.contains("Submission results:"), "{said}");
            for (submission, points) in [
                ("memo_minimax.rs", "100"),
                ("subset_table.rs", "100"),
                ("greedy_nearest.rs", "0"),
                ("plain_minimax.rs", "30"),
                ("capture_orders.rs", "30"),
            ] {
                let row = said
                    .lines()
                    .skip_while(|l| !l.contains("Submission results:"))
                    .find(|l| l.split_whitespace().next() == Some(submission))
                    .unwrap_or_else(|| panic!("no row of {submission}:\n{said}"));
                let words: Vec<&str> = row.split_whitespace().collect();
                assert_eq!(words[words.len() - 2], points, "{row}");
            }
        }
    }
}

/// Exported in the format's 2025-09 version (its Markdown statement, test_group.yaml, output_validator/ as the
/// one validator, limits.time_limit), each bundled problem is judged green again.
#[test]
fn our_problems_exported_in_2025_09_judge_green_again() {
    let dir = tempfile::tempdir().unwrap();
    for problem in BUNDLED {
        let made = export_here(problem, dir.path(), Some("2025-09"));
        assert!(made.status.success(), "{made:?}");
        let exported = dir.path().join(problem.replace('-', ""));
        let yaml = std::fs::read_to_string(exported.join("problem.yaml")).unwrap();
        assert!(
            yaml.starts_with("problem_format_version: 2025-09\n"),
            "{yaml}"
        );
        let statement = std::fs::read_to_string(exported.join("statement/problem.en.md")).unwrap();
        assert!(
            !statement.starts_with("# "),
            "{problem}: the title is in the statement"
        );
        assert!(!exported.join(".timelimit").exists());
        let judged = cpjudge(
            &["judge", exported.to_str().unwrap(), "--json"],
            &shared_cache(),
        );
        let report = judged.json();
        assert_eq!(
            judged.code,
            Some(0),
            "{problem}: {report:#}\n{}",
            judged.stderr
        );
        assert!(report.get("warnings").is_none(), "{problem}: {report:#}");
    }
}

/// The authoring commands take a package by its path: validate with each group's flags, add into data/secret
/// with its checks, regen what was added, timelimit; stress, which needs a generator, says why it cannot.
#[test]
fn the_authoring_commands_work_on_a_package() {
    let (dir, path) = package("float-sum");
    let cache = shared_cache();
    let run = |args: &[&str]| {
        let mut all = vec![args[0], path.to_str().unwrap()];
        all.extend_from_slice(&args[1..]);
        cpjudge(&all, &cache)
    };
    run(&["validate"]).expect(0, "10 of 10 tests valid");

    // 150 numbers: valid in large/, whose flag allows 10^5, and invalid in small/, which has no flag.
    let many = format!("150\n{}\n", vec!["1.5"; 150].join(" "));
    let large = path.join("data/secret/large/03");
    std::fs::write(large.with_extension("in"), &many).unwrap();
    std::fs::write(large.with_extension("ans"), "225\n").unwrap();
    run(&["validate"]).expect(0, "11 of 11 tests valid");
    let small = path.join("data/secret/small/05");
    std::fs::write(small.with_extension("in"), &many).unwrap();
    std::fs::write(small.with_extension("ans"), "225\n").unwrap();
    run(&["validate"]).expect(1, "invalid test secret/small/05 (");
    std::fs::remove_file(small.with_extension("in")).unwrap();
    std::fs::remove_file(small.with_extension("ans")).unwrap();

    // A new test goes to data/secret, whose tests have no flag: 150 numbers are refused there.
    let input = dir.path().join("new.in");
    std::fs::write(&input, &many).unwrap();
    run(&["add", "--input", input.to_str().unwrap()]).expect(2, "n = 150");
    std::fs::write(&input, "3\n1.5 2.25 -0.000001\n").unwrap();
    run(&["add", "--input", input.to_str().unwrap(), "--name", "three"]).expect(0, "added ");
    let answer = std::fs::read_to_string(path.join("data/secret/three.ans")).unwrap();
    assert!(answer.starts_with("3.749999"), "{answer}");
    run(&["regen"]).expect(0, "1 of 1 test rebuilt byte for byte");
    let judged = run(&["judge", "--json"]);
    assert_eq!(judged.code, Some(0), "{}", judged.stdout);
    assert!(test_names(&judged.json(), "sum.c").contains(&"secret/three".to_owned()));

    run(&["timelimit", "--test", "sample/*"]).expect(0, "suggested limit");

    let submission = path.join("submissions/wrong_answer/truncate.c");
    run(&["stress", "--submission", submission.to_str().unwrap()]).expect(2, "has no generator");
}
