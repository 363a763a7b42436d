//! The judge against the worst: killed outright, or its supervisor killed under it, it still takes every process
//! of the run with it; and a run that hands its stderr to someone outside cannot make it wait forever.

use crate::harness::{fixtures, processes_under, shared_cache};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `cpjudge judge` on a sleeper submission in a copy of the basic fixture, with `tmp` as its temporary folder
/// and `extra` arguments, and waits until the run's two processes are up. Its output and errors are piped.
fn start_sleeper(project: &Path, cache: &Path, tmp: &Path, layers: &str, extra: &[&str]) -> Child {
    crate::harness::copy_dir(&fixtures().join("basic"), project);
    std::fs::copy(
        fixtures().join("submissions/sleepers.c"),
        project.join("sleepers.c"),
    )
    .unwrap();
    let judge = Command::new(env!("CARGO_BIN_EXE_cpjudge"))
        .current_dir(project)
        .args(["--cache-dir"])
        .arg(cache)
        .args([
            "--layers",
            layers,
            "judge",
            "sum",
            "--submission",
            "sleepers.c",
        ])
        .args(extra)
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(Duration::from_secs(60), || sleepers(cache) >= 2)
        .unwrap_or_else(|| panic!("the sleepers never started: {:?}", processes_under(cache)));
    judge
}

/// How many processes run the built sleeper (the compiler's processes are under the cache too).
fn sleepers(cache: &Path) -> usize {
    processes_under(cache)
        .iter()
        .filter(|p| {
            p.split(": ")
                .nth(1)
                .is_some_and(|exe| exe.ends_with("/main"))
        })
        .count()
}

fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> Option<()> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done() {
            return Some(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done().then_some(())
}

/// The supervisors started by the judge `parent`.
fn supervisors_of(parent: u32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let ppid: u32 = stat[stat.rfind(')')? + 2..]
                .split(' ')
                .nth(1)?
                .parse()
                .ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            (ppid == parent && String::from_utf8_lossy(&cmdline).contains("__supervise"))
                .then_some(pid)
        })
        .collect()
}

fn kill(pid: i32) {
    // SAFETY: kill takes plain integers; the pid is a child of ours or of our child, alive a moment ago.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

fn assert_nothing_left(cache: &Path, what: &str) {
    let left = wait_for(Duration::from_secs(5), || processes_under(cache).is_empty());
    assert!(
        left.is_some(),
        "{what}: still alive: {:?}",
        processes_under(cache)
    );
}

fn cache_for(case: &str) -> std::path::PathBuf {
    // Its own cache, so that the run's processes can be told apart by path; the build is shared by the cases.
    let cache = shared_cache().with_file_name(format!("cpjudge-killed-{case}"));
    let _ = std::fs::create_dir_all(&cache);
    cache
}

#[test]
fn killing_the_supervisor_kills_the_run() {
    for layers in ["all", "none"] {
        let (project, tmp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cache = cache_for(&format!("supervisor-{layers}"));
        let mut judge = start_sleeper(project.path(), &cache, tmp.path(), layers, &[]);
        let supervisors = supervisors_of(judge.id());
        assert_eq!(supervisors.len(), 1, "{supervisors:?}");
        kill(supervisors[0]);
        // The judge reports that the run could not be carried out (exit code 3), and starts no other.
        let status = judge.wait().unwrap();
        assert_eq!(status.code(), Some(3), "layers {layers}");
        assert_nothing_left(&cache, &format!("layers {layers}, supervisor killed"));
    }
}

/// With both gone at once, nobody is left to clean up: the run must die with its supervisor by itself. The run's
/// own processes do (they die with their parent), but a child that escaped with setsid is only caught by the PID
/// namespace, which dies with the run's init: without that layer it would outlive the judge, so this needs it.
#[test]
fn killing_the_supervisor_and_the_judge_kills_the_run() {
    if !crate::harness::layer_works("namespaces", "killing the supervisor and the judge at once") {
        return;
    }
    let (project, tmp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cache = cache_for("both");
    let mut judge = start_sleeper(project.path(), &cache, tmp.path(), "namespaces", &[]);
    let supervisors = supervisors_of(judge.id());
    assert_eq!(supervisors.len(), 1, "{supervisors:?}");
    kill(judge.id() as i32);
    kill(supervisors[0]);
    judge.wait().unwrap();
    assert_nothing_left(&cache, "supervisor and judge killed");
}

#[test]
fn killing_the_judge_kills_the_run() {
    for layers in ["all", "none"] {
        let (project, tmp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cache = cache_for(&format!("judge-{layers}"));
        let mut judge = start_sleeper(project.path(), &cache, tmp.path(), layers, &[]);
        kill(judge.id() as i32);
        judge.wait().unwrap();
        assert_nothing_left(&cache, &format!("layers {layers}, judge killed"));
        // Killed outright, it could not remove its folders; the next judge does.
        assert!(judge_folders(tmp.path()) > 0, "layers {layers}");
        let next = Command::new(env!("CARGO_BIN_EXE_cpjudge"))
            .current_dir(project.path())
            .arg("list")
            .env("TMPDIR", tmp.path())
            .output()
            .unwrap();
        assert!(next.status.success(), "{next:?}");
        assert_eq!(judge_folders(tmp.path()), 0, "layers {layers}");
    }
}

/// How many entries the judge made in the temporary folder `tmp`.
fn judge_folders(tmp: &Path) -> usize {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("cpjudge"))
        .count()
}

/// Ctrl-C: the run in flight is stopped, the report (here JSON) says the judge was interrupted and what was not
/// judged, nothing of the run is left alive, nothing is left in the temporary folder, and the exit code is 130.
#[test]
fn an_interrupted_judge_reports_and_cleans_up() {
    for layers in ["all", "none"] {
        let (project, tmp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cache = cache_for(&format!("interrupted-{layers}"));
        let judge = start_sleeper(project.path(), &cache, tmp.path(), layers, &["--json"]);
        // SAFETY: kill takes plain integers; the judge is our child.
        unsafe { libc::kill(judge.id() as i32, libc::SIGINT) };
        let output = judge.wait_with_output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(130),
            "layers {layers}: {output:?}"
        );
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(
            report["interrupted"]["during"], "judging sleepers.c",
            "{report:#}"
        );
        assert_eq!(report["interrupted"]["not_judged"][0], "sleepers.c");
        assert_eq!(report["ok"], false);
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(
            said.contains("interrupted while judging sleepers.c"),
            "{said}"
        );
        assert_nothing_left(&cache, &format!("layers {layers}, interrupted"));
        assert_eq!(judge_folders(tmp.path()), 0, "layers {layers}");
    }
}

/// A run that hands its stderr pipe to a process outside the run (any daemon listening on a Unix socket, here this
/// test) keeps the pipe from ever ending; the judge must report all the same. Run without layers, since seccomp
/// refuses the Unix socket to begin with.
#[test]
fn stderr_held_outside_the_run_does_not_hang_the_judge() {
    use std::os::unix::net::UnixListener;
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("daemon.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    // The daemon accepts connections and holds them, never reading what was sent.
    let held = std::thread::spawn(move || {
        let mut connections = Vec::new();
        for connection in listener.incoming().take(1) {
            connections.push(connection.unwrap());
        }
        std::thread::sleep(Duration::from_secs(30));
        drop(connections);
    });
    let source = std::fs::read_to_string(fixtures().join("submissions/hand_over_stderr.c"))
        .unwrap()
        .replace("SOCKET_PATH", &socket.display().to_string());
    let run = crate::harness::Judge::fixture("basic")
        .write("sub/hand_over_stderr.c", &source)
        .timeout(Duration::from_secs(20))
        .args(&["--layers", "none", "judge", "sum", "--json"])
        .args(&["--submission", "sub/hand_over_stderr.c", "--all"])
        .run();
    let code = run.output.status.code();
    assert_eq!(code, Some(0), "the judge hung or failed:\n{}", run.stderr());
    let report = run.json();
    assert_eq!(
        crate::harness::solution(&report, "hand_over_stderr.c")["verdict"],
        "AC"
    );
    drop(held);
}
