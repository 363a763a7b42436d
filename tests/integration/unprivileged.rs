//! Judging as an ordinary user, as most people run cpjudge: the suite (run as root on CI) makes such a user and,
//! as that user, judges a C and C++ problem with every layer the user can have, hostile programs included, and
//! checks that `doctor` tells the truth about each layer, and judges a multi-pass package.
//!
//! Only gcc and g++ are used: the other toolchains of a machine may live in root's home, which others cannot read.

use crate::harness::{copy_dir, fixtures, processes_under, skip};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

const USER: &str = "cpjudge-tester";
const LAYERS: [&str; 4] = ["cgroup", "namespaces", "landlock", "seccomp"];

/// A project owned by the ordinary user, with a copy of the judge it may run.
struct Setup {
    dir: tempfile::TempDir,
    uid: u32,
    gid: u32,
}

impl Setup {
    /// None (having said why) where the tests do not run as root, and so cannot act as another user.
    fn new() -> Option<Setup> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            skip(
                "judging as an ordinary user needs root to create one; these tests already run as an ordinary \
                 user",
            );
            return None;
        }
        let (uid, gid) = *user();
        let dir = tempfile::Builder::new()
            .prefix("cpjudge-unprivileged-")
            .tempdir()
            .unwrap();
        let project = dir.path().join("project");
        copy_dir(&fixtures().join("unprivileged"), &project);
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        std::fs::copy(
            env!("CARGO_BIN_EXE_cpjudge"),
            dir.path().join("bin/cpjudge"),
        )
        .unwrap();
        let setup = Setup { dir, uid, gid };
        setup.give_to_user();
        Some(setup)
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn give_to_user(&self) {
        for entry in walkdir::WalkDir::new(self.dir.path()) {
            let path = entry.unwrap().into_path();
            std::os::unix::fs::chown(&path, Some(self.uid), Some(self.gid)).unwrap();
        }
    }

    /// Adds a program of the hostile suite to the problem, expecting one of `expected`.
    fn add_solution(&self, program: &str, expected: &str) {
        let from = fixtures().join("hostile/programs").join(program);
        let solutions = self.project().join("problems/aplusb/solutions");
        std::fs::copy(from, solutions.join(program)).unwrap();
        self.add_to_problem(program, expected);
    }

    fn add_to_problem(&self, program: &str, expected: &str) {
        let config = self.project().join("problems/aplusb/problem.toml");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str(&format!(
            "\n[[solutions]]\npath = \"solutions/{program}\"\nexpected = {expected}\n"
        ));
        std::fs::write(config, text).unwrap();
        self.give_to_user();
    }

    /// Runs cpjudge as the ordinary user, in the project, with a plain environment.
    fn cpjudge(&self, args: &[&str]) -> std::process::Output {
        self.cpjudge_caching_in(&self.dir.path().join("cache"), args)
    }

    /// Runs cpjudge as [`Setup::cpjudge`] does, with the build cache in `cache`.
    fn cpjudge_caching_in(&self, cache: &std::path::Path, args: &[&str]) -> std::process::Output {
        let mut command = std::process::Command::new(self.dir.path().join("bin/cpjudge"));
        command
            .uid(self.uid)
            .gid(self.gid)
            .current_dir(self.project())
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", self.dir.path())
            .arg("--cache-dir")
            .arg(cache)
            .args(args);
        assert_cmd::Command::from_std(command)
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap()
    }

    fn cpjudge_json(&self, args: &[&str]) -> (i32, serde_json::Value) {
        let output = self.cpjudge(args);
        let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "cpjudge {args:?} as {USER} gave no JSON ({e}, {}):\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (output.status.code().expect("exited"), json)
    }

    /// A copy of the package fixture `name`, the user's, beside the project.
    fn package(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        copy_dir(&fixtures().join("packages").join(name), &path);
        self.give_to_user();
        path
    }

    fn testdata(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        walkdir::WalkDir::new(self.project().join("testdata"))
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .filter(|p| p.is_file())
            .map(|p| {
                let contents = std::fs::read(&p).unwrap();
                (p, contents)
            })
            .collect()
    }
}

/// The ordinary user (made once), by uid and gid.
fn user() -> &'static (u32, u32) {
    static USER_IDS: OnceLock<(u32, u32)> = OnceLock::new();
    USER_IDS.get_or_init(|| {
        let id = |flag: &str| {
            let output = std::process::Command::new("id")
                .args([flag, USER])
                .output()
                .unwrap();
            output.status.success().then(|| {
                String::from_utf8_lossy(&output.stdout)
                    .trim()
                    .parse::<u32>()
                    .unwrap()
            })
        };
        if id("-u").is_none() {
            let status = std::process::Command::new("useradd")
                .args([
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    "--user-group",
                    USER,
                ])
                .status()
                .expect("useradd, to make an ordinary user");
            // 9: made meanwhile by another run of the suite.
            assert!(
                status.success() || status.code() == Some(9),
                "useradd {USER}: {status}"
            );
        }
        (id("-u").unwrap(), id("-g").unwrap())
    })
}

/// What `doctor --json` says of each layer, as the ordinary user.
fn doctor(setup: &Setup) -> serde_json::Value {
    let (code, doctor) = setup.cpjudge_json(&["doctor", "--json"]);
    assert_eq!(code, 0, "{doctor:#}");
    doctor
}

fn active(isolation: &serde_json::Value, layer: &str) -> bool {
    let status = &isolation[layer];
    assert!(
        status["active"].is_boolean(),
        "no status of {layer}: {isolation:#}"
    );
    assert!(
        !status["detail"].as_str().unwrap_or_default().is_empty(),
        "{layer} says nothing of itself: {isolation:#}"
    );
    status["active"] == true
}

/// Whatever doctor says is on works in a real run, alone: a judge with that layer alone uses it, and the solutions
/// get their verdicts. (It once said the namespaces were on while every run with them failed.)
#[test]
fn doctor_tells_an_ordinary_user_the_truth() {
    let Some(setup) = Setup::new() else { return };
    let doctor = doctor(&setup);
    for layer in LAYERS {
        let on = active(&doctor["isolation"], layer);
        let (code, report) = setup.cpjudge_json(&["--layers", layer, "judge", "aplusb", "--json"]);
        assert_eq!(code, 0, "--layers {layer}:\n{report:#}");
        assert_eq!(
            report["isolation"][layer]["active"], on,
            "doctor and judge disagree on {layer}:\n{report:#}\n{doctor:#}"
        );
    }
    // Where the machine is known to give an ordinary user some layers (`.ci/run` says which on our CI machines),
    // one that is off is a failure, not a reason to run with less.
    if let Ok(required) = std::env::var("CPJUDGE_TEST_REQUIRE_USER_LAYERS") {
        for layer in required.split(',').map(str::trim).filter(|l| !l.is_empty()) {
            assert!(
                LAYERS.contains(&layer),
                "unknown layer {layer} in CPJUDGE_TEST_REQUIRE_USER_LAYERS"
            );
            assert!(
                active(&doctor["isolation"], layer),
                "the {layer} layer is required for an ordinary user here, but off: {}",
                doctor["isolation"][layer]["detail"]
            );
        }
    }
    // On a cgroup v1 hierarchy nobody delegated (as on our machines), the user cannot have the cgroup layer, and
    // is told why.
    if !active(&doctor["isolation"], "cgroup") {
        let detail = doctor["isolation"]["cgroup"]["detail"].as_str().unwrap();
        assert!(detail.contains("unavailable"), "{detail}");
    }
}

/// With every layer the user can have: the references pass, and a sleeper, an escaped child, children holding
/// memory together (which no cgroup counts for such a user), memory in pipe buffers, a fork bomb (where the
/// processes are limited) and a search for the answers (where Landlock is on) get what they must, leaving nothing
/// alive and the tests untouched.
#[test]
fn an_ordinary_user_judges_hostile_programs() {
    let Some(setup) = Setup::new() else { return };
    let doctor = doctor(&setup);
    let isolation = &doctor["isolation"];
    setup.add_solution("pause.c", "\"TLE\"");
    setup.add_solution("setsid_sleepers.c", "\"AC\"");
    setup.add_solution("children_memory.c", "\"MLE\"");
    if active(isolation, "cgroup") || active(isolation, "seccomp") {
        setup.add_solution("many_pipes.c", "[\"AC\", \"MLE\"]");
        setup.add_solution("socket_hoard.c", "[\"AC\", \"MLE\"]");
    } else {
        skip(
            "memory in pipe buffers as an ordinary user: neither the cgroup nor the seccomp layer is on",
        );
    }
    let limited = doctor["enforced"].as_array().unwrap().iter().any(|rule| {
        rule["what"] == "processes" && rule["how"].as_str().unwrap().starts_with("at most")
    });
    if limited {
        setup.add_solution("fork_bomb.c", "[\"TLE\", \"RE\", \"MLE\"]");
    } else {
        skip(&format!(
            "the fork bomb as an ordinary user: doctor says processes are not limited here ({doctor:#})"
        ));
    }
    if active(isolation, "landlock") {
        setup.add_to_problem("answers_via_scan.c", "\"WA\"");
    } else {
        skip("reading the answers as an ordinary user: the landlock layer is off");
    }

    let before = setup.testdata();
    let (code, report) = setup.cpjudge_json(&["judge", "aplusb", "--json"]);
    assert_eq!(code, 0, "{report:#}");
    for layer in LAYERS {
        assert_eq!(
            report["isolation"][layer]["active"], isolation[layer]["active"],
            "{layer}: {report:#}"
        );
    }
    let alive = processes_under(setup.dir.path());
    assert!(alive.is_empty(), "left alive:\n{}", alive.join("\n"));
    assert!(before == setup.testdata(), "the tests changed");
}

/// The search for the answers finds them where nothing hides the project: so its WA above shows Landlock at work.
#[test]
fn the_search_for_answers_works_unhidden() {
    let Some(setup) = Setup::new() else { return };
    setup.add_to_problem("answers_via_scan.c", "\"AC\"");
    let (code, report) = setup.cpjudge_json(&["--layers", "none", "judge", "aplusb", "--json"]);
    assert_eq!(code, 0, "{report:#}");
}

/// With no layer at all, a run is the judge's own user, yet it can open neither the judge's memory nor its
/// descriptors through /proc: the judge is not dumpable, as its workers are not.
#[test]
fn a_run_of_the_same_user_cannot_open_the_judges_memory() {
    let Some(setup) = Setup::new() else { return };
    setup.add_solution("judge_memory.c", "\"AC\"");
    let (code, report) = setup.cpjudge_json(&["--layers", "none", "judge", "aplusb", "--json"]);
    assert_eq!(code, 0, "{report:#}");
}

/// With the system-call filter alone, a run is the judge's own user, yet it finds the key of its worker's filter
/// (which lets the worker's own mounts through) neither in the worker's memory nor in the calls it makes: the
/// worker is not dumpable, and takes no filter while it is.
#[test]
fn a_run_of_the_same_user_cannot_find_its_workers_key() {
    let Some(setup) = Setup::new() else { return };
    if !active(&doctor(&setup)["isolation"], "seccomp") {
        skip("the filter's key as an ordinary user: the seccomp layer is off");
        return;
    }
    setup.add_solution("key_hunt.c", "\"AC\"");
    let (code, report) = setup.cpjudge_json(&["--layers", "seccomp", "judge", "aplusb", "--json"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["isolation"]["seccomp"]["active"], true, "{report:#}");
}

/// A multi-pass problem, interactive and in C and C++, judged by an ordinary user with every layer it can have: the
/// validator's feedback folder, made by the judge, is the validator's to write from pass to pass, and the next
/// pass's input is the submission's to read.
#[test]
fn an_ordinary_user_judges_a_multi_pass_package() {
    let Some(setup) = Setup::new() else { return };
    let package = setup.package("interactive-multi-pass");
    let (code, report) = setup.cpjudge_json(&["judge", package.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{report:#}");
    for solution in report["solutions"].as_array().unwrap() {
        assert_eq!(solution["ok"], true, "{solution:#}");
    }
    let forgets = crate::harness::solution(&report, "forgets.c");
    assert_eq!(
        forgets["tests"][0]["message"], "pass 2: decoded 6 as 6, the number was 5",
        "{forgets:#}"
    );
}

/// Where the user cannot have the cgroup layer, the first command says so in two lines (what is lost, how to have
/// it, how to go without it) and the next says nothing: the machine has not changed. A cache folder the user may
/// not write points to `--cache-dir`.
#[test]
fn an_ordinary_user_is_told_once_what_a_missing_layer_costs() {
    let Some(setup) = Setup::new() else { return };
    if active(&doctor(&setup)["isolation"], "cgroup") {
        skip("the warning of a missing cgroup layer: this user has one");
        return;
    }
    let first = setup.cpjudge(&["judge", "aplusb"]);
    assert!(first.status.success(), "{first:?}");
    let said = String::from_utf8_lossy(&first.stderr);
    let warning: Vec<&str> = said
        .lines()
        .skip_while(|l| !l.starts_with("warning: isolation layer cgroup is off"))
        .take_while(|l| l.starts_with("warning: isolation layer cgroup") || l.starts_with("  "))
        .collect();
    assert!(
        (1..=2).contains(&warning.len()) && warning.iter().all(|l| l.len() <= 220),
        "{said}"
    );
    let warning = warning.join("\n");
    for needed in [
        "memory",
        "--layers namespaces,landlock,seccomp",
        "CPJUDGE_LAYERS",
        "cgroup",
    ] {
        assert!(warning.contains(needed), "no {needed} in:\n{warning}");
    }
    let second = setup.cpjudge(&["judge", "aplusb"]);
    assert!(second.status.success(), "{second:?}");
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!said.contains("cgroup"), "said again:\n{said}");

    let closed = setup.dir.path().join("closed");
    std::fs::create_dir(&closed).unwrap();
    std::os::unix::fs::chown(&closed, Some(setup.uid), Some(setup.gid)).unwrap();
    std::fs::set_permissions(&closed, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let output = setup.cpjudge_caching_in(&closed, &["judge", "aplusb"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(closed.to_str().unwrap())
            && said.contains("give a writable folder with --cache-dir"),
        "{said}"
    );
}

/// A kept probe gone stale never weakens isolation quietly: one that says the cgroup layer is on, where the user
/// cannot have it, makes the judge fail loudly rather than judge without the cgroup; the judge forgets it, and
/// the next command probes again.
#[test]
fn a_stale_kept_probe_fails_loudly_and_is_forgotten() {
    let Some(setup) = Setup::new() else { return };
    let doctor = doctor(&setup);
    if active(&doctor["isolation"], "cgroup") {
        skip("the ordinary user has the cgroup layer here, so a kept probe saying so is not stale");
        return;
    }
    let memo = PathBuf::from(doctor["probe"]["memo"].as_str().unwrap());
    let mut kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&memo).unwrap()).unwrap();
    kept["value"]["isolation"]["cgroup"] =
        serde_json::json!({"active": true, "detail": "stale: on"});
    std::fs::write(&memo, kept.to_string()).unwrap();
    let failed = setup.cpjudge(&["judge", "aplusb", "--json"]);
    let said = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(3), "{said}");
    assert!(
        said.contains("cgroup") && said.contains("probes them again"),
        "{said}"
    );
    assert!(!memo.exists(), "the stale probe is forgotten");
    let (code, report) = setup.cpjudge_json(&["judge", "aplusb", "--json"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["isolation"]["cgroup"]["active"], false);
}
