//! Runs kept from one judge to the next: a re-judge runs only what something it depends on changed for, and every
//! run in a report can be traced to the digests and versions that decided it.

use crate::harness::{Judge, solution};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;

const PROBLEM: &str = r#"
title = "A plus B"
time_limit = "1s"
memory_limit = "64MiB"
output_limit = "1MiB"

[[solutions]]
path = "solutions/ac.c"
expected = "AC"
main = true

[[solutions]]
path = "solutions/wa.c"
expected = "WA"

[[solutions]]
path = "solutions/tle.c"
expected = "TLE"

[[solutions]]
path = "solutions/slow.c"
expected = ["AC", "TLE"]
"#;

/// Prints the sum plus one.
const WA: &str = "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); \
                  printf(\"%lld\\n\", a + b + 1); return 0; }\n";

/// Never ends.
const TLE: &str = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n";

/// Spends 200 ms of CPU time, then answers.
const SLOW: &str = "#include <stdio.h>\n#include <time.h>\nint main(void) { long long a, b; \
                    scanf(\"%lld %lld\", &a, &b); volatile unsigned long n = 0; \
                    while (clock() < CLOCKS_PER_SEC / 5) n++; printf(\"%lld\\n\", a + b); return 0; }\n";

/// A project of a + b in C with a solution of each kind, whose runs are kept in a cache of its own.
fn project() -> Judge {
    Judge::fixture("unprivileged")
        .private_cache()
        .write("problems/aplusb/problem.toml", PROBLEM)
        .write("problems/aplusb/solutions/wa.c", WA)
        .write("problems/aplusb/solutions/tle.c", TLE)
        .write("problems/aplusb/solutions/slow.c", SLOW)
        .env_remove("CPJUDGE_FRESH")
}

/// Judges every test of every solution; the JSON report.
fn judge(project: &mut Judge, extra: &[&str]) -> Value {
    let mut args = vec!["judge", "aplusb", "--all", "--json"];
    args.extend(extra);
    project.then(&args, b"").expect_code(0).json()
}

/// Each (solution, test) run of a report, with whether it was taken from an earlier judge.
fn reused(report: &Value) -> Vec<(String, String, bool)> {
    let mut runs = Vec::new();
    for solution in report["solutions"].as_array().unwrap() {
        for test in solution["tests"].as_array().unwrap() {
            let record = &test["record"];
            assert!(record.is_object(), "a run without its record: {test:#}");
            runs.push((
                solution["name"].as_str().unwrap().to_owned(),
                test["name"].as_str().unwrap().to_owned(),
                record["reused"].as_bool().unwrap(),
            ));
        }
    }
    runs
}

/// The runs of a report that were made rather than taken from an earlier judge.
fn made(report: &Value) -> Vec<(String, String)> {
    reused(report)
        .into_iter()
        .filter(|(_, _, reused)| !reused)
        .map(|(solution, test, _)| (solution, test))
        .collect()
}

fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for solution in report["solutions"].as_array().unwrap() {
        for test in solution["tests"].as_array().unwrap() {
            found.push((
                solution["name"].as_str().unwrap().to_owned(),
                test["name"].as_str().unwrap().to_owned(),
                test["verdict"].as_str().unwrap().to_owned(),
            ));
        }
    }
    found
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(s, t)| (s.to_string(), t.to_string()))
        .collect()
}

#[test]
fn an_unchanged_problem_is_judged_again_without_running_anything() {
    let mut project = project();
    let first = judge(&mut project, &[]);
    assert_eq!(first["runs"]["total"], 8, "{first:#}");
    assert_eq!(first["runs"]["reused"], 0);
    let second = judge(&mut project, &[]);
    assert_eq!(second["runs"]["reused"], 8, "{second:#}");
    assert!(made(&second).is_empty());
    assert_eq!(verdicts(&second), verdicts(&first));
    // The table says so too.
    let table = project
        .then(&["judge", "aplusb", "--all"], b"")
        .expect_code(0);
    assert!(
        table
            .stdout()
            .contains("runs: 8 of 8 taken from earlier judges"),
        "{}",
        table.stdout()
    );
    // --fresh runs everything again, and keeps it.
    let fresh = judge(&mut project, &["--fresh"]);
    assert_eq!(fresh["runs"]["reused"], 0, "{fresh:#}");
    assert_eq!(verdicts(&fresh), verdicts(&first));
}

#[test]
fn a_changed_test_or_solution_runs_again_only_its_own_runs() {
    let mut project = project();
    judge(&mut project, &[]);
    let answer = project.root().join("testdata/aplusb/2.ans");
    let right = std::fs::read_to_string(&answer).unwrap();
    std::fs::write(&answer, "0\n").unwrap();
    let report = project
        .then(&["judge", "aplusb", "--all", "--json"], b"")
        .json();
    assert_eq!(
        made(&report),
        pairs(&[
            ("ac.c", "2"),
            ("wa.c", "2"),
            ("tle.c", "2"),
            ("slow.c", "2")
        ]),
        "{report:#}"
    );
    assert_eq!(solution(&report, "ac.c")["verdict"], "WA");
    // Back as it was: the runs kept under the old answer's digest serve again.
    std::fs::write(&answer, right).unwrap();
    let report = judge(&mut project, &[]);
    assert!(made(&report).is_empty(), "{report:#}");

    let wa = project.root().join("problems/aplusb/solutions/wa.c");
    std::fs::write(&wa, format!("{WA}/* changed */\n")).unwrap();
    let report = judge(&mut project, &[]);
    assert_eq!(
        made(&report),
        pairs(&[("wa.c", "1"), ("wa.c", "2")]),
        "{report:#}"
    );
}

#[test]
fn a_changed_time_limit_runs_again_only_what_it_may_decide_otherwise() {
    let mut project = project();
    judge(&mut project, &[]);
    // Raised to 2 s: the runs stopped at 1 s might end now; only they run again.
    let raised = judge(&mut project, &["--time-limit", "2s"]);
    assert_eq!(
        made(&raised),
        pairs(&[("tle.c", "1"), ("tle.c", "2")]),
        "{raised:#}"
    );
    // Lowered to 215 ms: the runs stopped at 2 s are TLE still, and the fast ones are clearly under it; slow.c's
    // 200 ms are within 10 % of it, and run again.
    let lowered = judge(&mut project, &["--time-limit", "215ms"]);
    assert_eq!(
        made(&lowered),
        pairs(&[("slow.c", "1"), ("slow.c", "2")]),
        "{lowered:#}"
    );
}

#[test]
fn a_new_compiler_version_builds_again_and_runs_again() {
    if !std::path::Path::new("/usr/bin/g++").exists() {
        crate::harness::skip("the wrapping g++ starts /usr/bin/g++, which is not installed");
        return;
    }
    let project = Judge::fixture("unprivileged").private_cache();
    let root = project.root().to_owned();
    // A folder every user may enter: a root judge compiles as a user of its own.
    let bin = tempfile::tempdir().unwrap();
    std::fs::set_permissions(bin.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let wrapper = bin.path().join("g++");
    let write_wrapper = |version: &str| {
        let script = format!(
            "#!/bin/sh\ncase \"$1\" in --version) echo \"g++ (wrapped) {version}\"; exit 0;; esac\n\
             exec /usr/bin/g++ \"$@\"\n"
        );
        std::fs::write(&wrapper, script).unwrap();
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_wrapper("12.0");
    let path = crate::harness::path_with_first(bin.path());
    let mut project = project
        .env("PATH", &path)
        .env("XDG_CACHE_HOME", root.join("user-cache").to_str().unwrap())
        .env_remove("CPJUDGE_FRESH");
    let args = ["judge", "aplusb", "--json"];
    let first = project.then(&args, b"").expect_code(0).json();
    let cpp = solution(&first, "ac.cpp");
    assert_eq!(cpp["build"]["toolchain"], "g++ (wrapped) 12.0", "{cpp:#}");
    let again = project.then(&args, b"").expect_code(0).json();
    assert!(made(&again).is_empty(), "{again:#}");
    write_wrapper("12.1");
    let after = project.then(&args, b"").expect_code(0).json();
    let cpp = solution(&after, "ac.cpp");
    assert_eq!(cpp["build"]["toolchain"], "g++ (wrapped) 12.1");
    assert_eq!(
        cpp["compile"]["cached"], false,
        "a new compiler builds again"
    );
    assert_eq!(
        made(&after),
        pairs(&[("ac.cpp", "1"), ("ac.cpp", "2")]),
        "{after:#}"
    );
}

#[test]
fn a_report_carries_what_decided_each_run() {
    let mut project = project();
    let report = judge(&mut project, &[]);
    for field in ["cpu", "kernel", "cgroup"] {
        assert!(
            !report["fingerprint"][field].as_str().unwrap().is_empty(),
            "{field}: {report:#}"
        );
    }
    assert!(
        report["cpjudge"]
            .as_str()
            .unwrap()
            .starts_with(env!("CARGO_PKG_VERSION"))
    );
    let ac = solution(&report, "ac.c");
    for field in ["source", "key", "executable", "toolchain"] {
        assert!(
            !ac["build"][field].as_str().unwrap().is_empty(),
            "{field}: {ac:#}"
        );
    }
    let digests = |report: &Value, test: usize| {
        let record = &solution(report, "ac.c")["tests"][test]["record"];
        (
            record["key"].as_str().unwrap().to_owned(),
            record["input"].as_str().unwrap().to_owned(),
            record["answer"].as_str().unwrap().to_owned(),
        )
    };
    let (key, input, answer) = digests(&report, 0);
    // Another input: its digest and the key change, the answer's does not.
    let path = project.root().join("testdata/aplusb/1.in");
    std::fs::write(&path, "1 2\n").unwrap();
    std::fs::write(project.root().join("testdata/aplusb/1.ans"), "3\n").unwrap();
    let changed = judge(&mut project, &[]);
    let (key2, input2, answer2) = digests(&changed, 0);
    assert_ne!(key2, key);
    assert_ne!(input2, input);
    assert_ne!(answer2, answer);
    // Another memory limit: the same digests, another key.
    let limited = judge(&mut project, &["--memory-limit", "128MiB"]);
    let (key3, input3, _) = digests(&limited, 0);
    assert_eq!(input3, input2);
    assert_ne!(key3, key2);
    // Other layers: another key.
    let bare = project
        .then(
            &["judge", "aplusb", "--all", "--json", "--layers", "none"],
            b"",
        )
        .json();
    let (key4, ..) = digests(&bare, 0);
    assert_ne!(key4, key2);
}

#[test]
fn merge_refuses_shares_of_other_machines_unless_told() {
    let mut project = project();
    let mut shares = Vec::new();
    for share in ["1/2", "2/2"] {
        let report = project
            .then(
                &[
                    "judge",
                    "aplusb",
                    "--time-limit",
                    "1s",
                    "--partition",
                    share,
                    "--json",
                ],
                b"",
            )
            .json();
        shares.push(report);
    }
    shares[1]["fingerprint"]["kernel"] = "0.0-elsewhere".into();
    let mut paths = Vec::new();
    for (index, share) in shares.iter().enumerate() {
        let path = project.root().join(format!("share{index}.json"));
        std::fs::write(&path, serde_json::to_string(share).unwrap()).unwrap();
        paths.push(path.to_str().unwrap().to_owned());
    }
    let refused = project.then(&["merge", &paths[0], &paths[1]], b"");
    assert_eq!(refused.code(), 2, "{}", refused.stderr());
    assert!(
        refused.stderr().contains("kernel") && refused.stderr().contains("0.0-elsewhere"),
        "{}",
        refused.stderr()
    );
    project
        .then(
            &["merge", "--accept-differences", &paths[0], &paths[1]],
            b"",
        )
        .expect_code(0);
}
