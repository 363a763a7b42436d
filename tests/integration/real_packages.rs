//! What real packages hold that problemtools, BAPCtools and DOMjudge take as it is: folders and keys outside the
//! format's lists, DOMjudge's tags, keys of another version, validators the machine lacks. Each is judged, with a
//! warning naming the file, or, where judging on would give other verdicts than the format's, refused by name.

use crate::harness::shared_cache;
use crate::packages::{cpjudge, package};
use serde_json::Value;

fn solution<'a>(report: &'a Value, name: &str) -> &'a Value {
    crate::harness::solution(report, name)
}

/// The warnings of a JSON report, as "kind file message" lines, the file from the package's folder on.
fn warnings(report: &Value) -> Vec<String> {
    report["warnings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|w| {
                    let file = w["file"].as_str().unwrap();
                    let from = ["/submissions/", "/input_validators/"]
                        .iter()
                        .find_map(|part| file.find(part))
                        .or_else(|| file.rfind('/'));
                    format!(
                        "{} {} {}",
                        w["kind"].as_str().unwrap(),
                        &file[from.map_or(0, |at| at + 1)..],
                        w["message"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn expected(report: &Value, name: &str) -> Vec<String> {
    solution(report, name)["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// problemtools skips a folder of submissions/ that the format does not name (`slow_accepted/`), and DOMjudge
/// reads a submission's expected results from its `@EXPECTED_RESULTS@:` tag wherever it sits: both are judged
/// so, with a warning for what is skipped or taken otherwise than written, instead of refusing the package.
#[test]
fn folders_outside_the_format_are_skipped_or_read_from_their_tags() {
    let (_dir, path) = package("folders-and-tags");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let names: Vec<&str> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    // Untagged in a folder of no meaning, or tagged with a result no judge can check: not judged.
    assert!(!names.contains(&"slow.py"), "{names:?}");
    assert!(!names.contains(&"odd.py"), "{names:?}");
    // The tag's results, wherever the submission sits.
    assert_eq!(expected(&report, "sometimes.py"), ["AC", "WA"]);
    assert_eq!(solution(&report, "sometimes.py")["verdict"], "WA");
    assert_eq!(expected(&report, "crash.py"), ["RE", "MLE"]);
    assert_eq!(expected(&report, "broken.py"), ["CE"]);
    // In a folder of the format, the folder's verdict when the tag names it too (DOMjudge narrows the tag so);
    // the tag's, with a warning, when it goes against the folder.
    assert_eq!(expected(&report, "hedged.py"), ["WA"]);
    assert_eq!(expected(&report, "against.py"), ["RE", "MLE"]);
    let said = warnings(&report);
    for (kind, file, words) in [
        ("submission_skipped", "submissions/slow_accepted", "slow.py"),
        (
            "expected_results",
            "submissions/check_manually/odd.py",
            "CHECK-MANUALLY",
        ),
        (
            "expected_results",
            "submissions/wrong_answer/against.py",
            "wrong_answer",
        ),
    ] {
        assert!(
            said.iter()
                .any(|w| w.starts_with(&format!("{kind} {file}")) && w.contains(words)),
            "no {kind} warning for {file}: {said:#?}"
        );
    }
    assert_eq!(said.len(), 3, "{said:#?}");
    // The table says the same.
    let table = cpjudge(&["judge", path.to_str().unwrap()], &shared_cache());
    table.expect(0, "warning: ");
    assert!(
        table.stdout.contains("slow_accepted") && table.stdout.contains("CHECK-MANUALLY"),
        "{}",
        table.stdout
    );
}

/// Kattis has no verdict for memory: a run over the memory limit is a run-time error there, so a submission of
/// run_time_error/ that goes over it is as expected, and the report still says memory was the cause.
#[test]
fn memory_over_the_limit_is_a_run_time_error_in_a_package() {
    let (_dir, path) = package("run-time-errors");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let hog = solution(&report, "hog.py");
    assert_eq!(hog["ok"], true, "{hog:#}");
    // Where no layer measures the memory of the run, the allocation fails and Python ends with an error: RE.
    if hog["verdict"] == "MLE" {
        let message = hog["tests"][0]["message"].as_str().unwrap();
        assert!(message.contains("memory"), "{message}");
    } else {
        assert_eq!(hog["verdict"], "RE", "{hog:#}");
    }
    assert_eq!(expected(&report, "hog.py"), ["RE", "MLE"]);
}

/// A legacy package with 2023-07's keys in it (`type: scoring`, `credits`, `limits.time_multipliers`), as real
/// ones have: each key of the other version is taken as it means, and warned about; the scoring is computed.
#[test]
fn a_legacy_package_with_keys_of_2023_07_is_judged_with_warnings() {
    let (_dir, path) = package("legacy-mixed");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    // Scored by the legacy grader: the sample is worth its default accept_score of 1, each secret test the 50
    // secret/testdata.yaml gives; small_only.py is right on the sample alone.
    let small_only = solution(&report, "small_only.py");
    assert_eq!(small_only["verdict"], "WA");
    assert_eq!(small_only["score"], 1.0);
    assert_eq!(solution(&report, "echo.py")["score"], 101.0);
    // The multiplier of 2023-07 is the one the limit is derived by.
    let origin = report["time_limit_origin"].as_str().unwrap();
    assert!(origin.contains("x 3 (ac_to_time_limit)"), "{origin}");
    let said = warnings(&report);
    for (start, words) in [
        ("other_version problem.yaml", "`credits`"),
        ("other_version problem.yaml", "`limits.time_multipliers`"),
    ] {
        assert!(
            said.iter()
                .any(|w| w.starts_with(start) && w.contains(words)),
            "no {start} {words}: {said:#?}"
        );
    }
    assert_eq!(said.len(), 2, "{said:#?}");
    // Each names the line of its key.
    let lines: Vec<u64> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [5, 10]);
}

/// A package of the format's 2025-09 version: `test_group.yaml`, an `output_validator/` that is the one
/// validator (a folder of two files), and metadata that says nothing of judging: judged green, without a word.
#[test]
fn a_package_in_the_2025_09_format_judges_green() {
    let (_dir, path) = package("twenty-five");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    // Wrong only by letter case: test_group.yaml's argument reached the validator. Its message is found: it
    // names its file `feedback_dir + "judgemessage.txt"`, which the format allows.
    let as_is = solution(&report, "as_is.py");
    assert_eq!(as_is["verdict"], "WA");
    assert!(
        as_is["tests"][0]["message"]
            .as_str()
            .unwrap()
            .contains("expected HELLO, got hello"),
        "{as_is:#}"
    );
    assert_eq!(report["time_limit_ms"], 2000);
    assert_eq!(warnings(&report), Vec::<String>::new());
}

/// A copy of the `run-time-errors` package changed by `change`, judged, with the folder it is in.
fn judged_after(
    change: impl FnOnce(&std::path::Path),
) -> (crate::packages::Judged, tempfile::TempDir) {
    let (dir, path) = package("run-time-errors");
    change(&path);
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    (judged, dir)
}

/// Keys cpjudge does not know, in problem.yaml, in a group's file and in a test's own: each a warning naming
/// the file, the key and its line, never silence.
#[test]
fn unknown_keys_are_warnings_naming_file_key_and_line() {
    let (judged, dir) = judged_after(|p| {
        std::fs::remove_file(p.join("submissions/run_time_error/hog.py")).unwrap();
        std::fs::write(
            p.join("problem.yaml"),
            "name: Echo\ncolour: red\nlimits:\n  memory: 64\n  wall_time: 5\n",
        )
        .unwrap();
        std::fs::write(p.join("data/secret/testdata.yaml"), "points: 3\n").unwrap();
        std::fs::write(p.join("data/secret/2.yaml"), "hint: read it\nweight: 2\n").unwrap();
    });
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let found: Vec<(String, u64, String)> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let file = w["file"].as_str().unwrap();
            let file = &file[file.find("/data/").or_else(|| file.rfind('/')).unwrap() + 1..];
            (
                format!("{} {file}", w["kind"].as_str().unwrap()),
                w["line"].as_u64().unwrap_or(0),
                w["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for (start, line, key) in [
        ("unknown_key problem.yaml", 2, "`colour`"),
        ("unknown_key problem.yaml", 5, "`limits.wall_time`"),
        ("unknown_key data/secret/testdata.yaml", 1, "`points`"),
        ("unknown_key data/secret/2.yaml", 2, "`weight`"),
    ] {
        assert!(
            found
                .iter()
                .any(|(s, l, m)| s == start && *l == line && m.contains(key)),
            "no {start}:{line} {key}: {found:#?}"
        );
    }
    // A test's own file belongs to 2025-09: taken, and said.
    assert!(
        found
            .iter()
            .any(|(s, _, _)| s == "other_version data/secret/2.yaml"),
        "{found:#?}"
    );
    assert_eq!(found.len(), 5, "{found:#?}");
    // The commands that write no judge report say the same on standard error.
    let path = dir.path().join("run-time-errors");
    let validated = cpjudge(&["validate", path.to_str().unwrap()], &shared_cache());
    validated.expect(0, "3 of 3 tests valid");
    assert!(
        validated
            .stderr
            .contains("problem.yaml:2: `colour` is no key of the format"),
        "{}",
        validated.stderr
    );
}

/// Whatever would make cpjudge's verdicts differ from the format's is refused (exit 2) by name, naming the file,
/// never judged as something else.
#[test]
fn features_that_would_change_verdicts_are_refused_by_name() {
    type Change = fn(&std::path::Path);
    let cases: Vec<(Change, &str, &str)> = vec![
        (
            |p| std::fs::write(p.join("data/testdata.yaml"), "on_reject: continue\n").unwrap(),
            "data/testdata.yaml:1:1",
            "on_reject: continue (judging on after a failed test",
        ),
        (
            |p| std::fs::write(p.join("data/testdata.yaml"), "grading: custom\n").unwrap(),
            "data/testdata.yaml:1:1",
            "custom graders (grading: custom) are not supported yet",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("data/secret/testdata.yaml"),
                    "grader_flags: accept_if_any_accepted\n",
                )
                .unwrap()
            },
            "data/secret/testdata.yaml:1:1",
            "grader flag accept_if_any_accepted changes a pass-fail verdict",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("problem.yaml"),
                    "name: Echo\nvalidator_flags: float_tolerance\n",
                )
                .unwrap()
            },
            "problem.yaml",
            "validator flag float_tolerance needs a number after it",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("data/secret/testdata.yaml"),
                    "output_validator_flags: case_sensitve\n",
                )
                .unwrap()
            },
            "data/secret",
            "unknown default validator flag \"case_sensitve\"",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("problem.yaml"),
                    "name: Echo\nvalidation: custom scored\n",
                )
                .unwrap()
            },
            "problem.yaml:2:1",
            "\"scored\" is none of interactive, score, multi-pass",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("problem.yaml"),
                    "problem_format_version: 2025-09\nname: Echo\ntype: pass-fail submit-answer\n",
                )
                .unwrap()
            },
            "problem.yaml:3:1",
            "submit-answer problems (type submit-answer) are not supported yet",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("problem.yaml"),
                    "problem_format_version: 2025-09\nname: Echo\n",
                )
                .unwrap();
                std::fs::write(p.join("data/secret/test_group.yaml"), "args: [--fast]\n").unwrap();
            },
            "data/secret/test_group.yaml:1:1",
            "arguments to submissions (args) are not supported yet",
        ),
        // Static validation is judged, by the format's rules: a case with a score in a pass-fail problem, or with
        // no static validator to judge it, is refused.
        (
            |p| {
                std::fs::write(
                    p.join("data/secret/test_group.yaml"),
                    "static_validation_score: 10\n",
                )
                .unwrap()
            },
            "data/secret/test_group.yaml:1:1",
            "static_validation_score 10: a static validation test case has a score only in a scoring problem",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("data/secret/test_group.yaml"),
                    "static_validation_score: pass-fail\n",
                )
                .unwrap()
            },
            "data/secret/test_group.yaml:1:1",
            "and the package has no static validator (static_validator/) to judge it",
        ),
        (
            |p| {
                std::fs::create_dir_all(p.join("include/python3/lib")).unwrap();
                std::fs::write(p.join("include/python3/lib/util.py"), "x = 1\n").unwrap();
            },
            "include/python3/lib/util.py",
            "included files in a folder of their own are not supported yet",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("submissions/submissions.yaml"),
                    "accepted/echo.py:\n  authors: Jane\nrun_time_error/*:\n  permitted: [AC, RTE, MLE]\n",
                )
                .unwrap()
            },
            "submissions/submissions.yaml:3:1",
            "run_time_error/*: permitted: \"MLE\" is none of AC, WA, TLE, RTE",
        ),
        (
            |p| std::fs::create_dir_all(p.join("data/secret/1.files")).unwrap(),
            "data/secret/1.files",
            "a test's input files (NAME.files) are not supported yet",
        ),
        (
            |p| {
                std::fs::write(
                    p.join("problem.yaml"),
                    "name: Echo\nconstants:\n  shift:\n    tex: one\n",
                )
                .unwrap();
            },
            "problem.yaml:3:1",
            "the constant `shift` has variants but no `value`",
        ),
    ];
    for (change, file, said) in cases {
        let (dir, path) = package("run-time-errors");
        change(&path);
        let judged = cpjudge(&["judge", path.to_str().unwrap()], &shared_cache());
        let named = path.join(file).display().to_string();
        assert!(
            judged.code == Some(2)
                && judged.stderr.contains(&named)
                && judged.stderr.contains(said),
            "{file}: {said}: got {:?}\n{}\n{}",
            judged.code,
            judged.stdout,
            judged.stderr
        );
        drop(dir);
    }
}

/// PATH as it is, without the folders that hold a checktestdata program (DOMjudge's `checktestdata`, or the
/// `pyctd` of `pip install checktestdata`), and with `first` before it.
fn path_for_checktestdata(first: Option<&std::path::Path>) -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&path)
        .filter(|dir| !dir.join("checktestdata").exists() && !dir.join("pyctd").exists());
    std::env::join_paths(first.map(std::path::Path::to_owned).into_iter().chain(kept)).unwrap()
}

/// Judges `package` with `PATH`.
fn judge_with_path(
    package: &std::path::Path,
    path: &std::ffi::OsStr,
    json: bool,
) -> crate::packages::Judged {
    let mut command = assert_cmd::Command::cargo_bin("cpjudge").unwrap();
    command
        .current_dir(std::env::temp_dir())
        .env("PATH", path)
        .arg("--cache-dir")
        .arg(shared_cache())
        .arg("judge")
        .arg(package)
        .timeout(std::time::Duration::from_secs(600));
    if json {
        command.arg("--json");
    }
    crate::packages::Judged::from(command.output().unwrap())
}

/// Packages of DOMjudge's contests check their inputs with checktestdata scripts (a `.ctd` file, or a folder
/// holding one). On a machine without checktestdata, the package was refused: now it is judged, the other
/// validators run, and a warning says what is not checked and how to install what would check it.
#[test]
fn a_checktestdata_validator_the_machine_lacks_is_skipped_with_a_warning() {
    let (_dir, path) = package("checktestdata");
    let without = path_for_checktestdata(None);
    let judged = judge_with_path(&path, &without, true);
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let said = warnings(&report);
    for file in ["format/format.ctd", "range.ctd"] {
        assert!(
            said.iter().any(|w| w.starts_with("validator_skipped ")
                && w.contains(&format!(" input_validators/{file} "))
                && w.contains("not checked")
                && w.contains("pip install checktestdata")),
            "{file}: {said:#?}"
        );
    }
    assert_eq!(said.len(), 2, "{said:#?}");
    let table = judge_with_path(&path, &without, false);
    table.expect(0, "warning: ");
    assert!(table.stdout.contains("range.ctd"), "{}", table.stdout);
    // The validators that can run still do.
    std::fs::write(path.join("data/secret/3.in"), "7\n8\n").unwrap();
    std::fs::write(path.join("data/secret/3.ans"), "7\n").unwrap();
    judge_with_path(&path, &without, false).expect(2, "secret/3.in is invalid");
    // With checktestdata at hand (problemtools brings the Python one), the scripts check the tests.
    let Some(verifyproblem) = crate::packages::verifyproblem() else {
        return;
    };
    let bin = verifyproblem.parent().unwrap();
    if !bin.join("pyctd").is_file() {
        crate::harness::skip("problemtools was installed without pyctd");
        return;
    }
    std::fs::write(path.join("data/secret/3.in"), "500\n").unwrap();
    let with = path_for_checktestdata(Some(bin));
    judge_with_path(&path, &with, false).expect(2, "secret/3.in is invalid");
    std::fs::remove_file(path.join("data/secret/3.in")).unwrap();
    std::fs::remove_file(path.join("data/secret/3.ans")).unwrap();
    let judged = judge_with_path(&path, &with, true);
    assert_eq!(judged.code, Some(0), "{}\n{}", judged.stdout, judged.stderr);
    assert_eq!(warnings(&judged.json()), Vec::<String>::new());
}

/// DOMjudge's example submissions that cpjudge judges otherwise on purpose, rebuilt small: a program that
/// writes a file, and one that fills its output. They get the verdicts the manual's packages page lists, which is what
/// the list is checked against.
#[test]
fn domjudge_examples_judged_otherwise_by_policy_are_the_readmes() {
    let (_dir, path) = package("domjudge-policies");
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(1), "{report:#}\n{}", judged.stderr);
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/packages.md"),
    )
    .unwrap();
    for (name, listed, got) in [
        (
            "test-write-file.c",
            "| `wrong_answer/test-write-file.c` | WRONG-ANSWER | RE |",
            "RE",
        ),
        (
            "test-fill-stdout.c",
            "| `time_limit_exceeded/test-fill-stdout.cc` | TIMELIMIT | OLE |",
            "OLE",
        ),
    ] {
        assert_eq!(solution(&report, name)["verdict"], got, "{report:#}");
        assert_eq!(solution(&report, name)["ok"], false, "{report:#}");
        assert!(
            readme.contains(listed),
            "the manual's packages page does not list {name}"
        );
    }
    assert_eq!(solution(&report, "hello.c")["ok"], true);
}
