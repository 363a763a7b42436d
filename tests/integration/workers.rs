//! The workers that carry out runs: one is kept from run to run, and one whose run left anything behind for the
//! next (a process, a file in shared memory, a System V object) is never given another run.
//!
//! These drive the sandbox through the library, with the built executable as the workers, so that how many
//! workers were started can be asked directly.

use crate::harness::{Judge, layer_works};
use cpjudge::sandbox::{Layer, Layers, Limits, RunSpec, Runner, Sandbox, Trust, small_env};
use cpjudge::units::Bytes;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn sandbox(layers: &[Layer]) -> Sandbox {
    Sandbox::with_supervisor(PathBuf::from(env!("CARGO_BIN_EXE_cpjudge")))
        .isolated(Layers::from(layers), Vec::new())
}

/// A shell command line, run in `dir` with its output in `dir/output`.
fn shell(dir: &Path, script: &str) -> RunSpec {
    let workdir = dir.join("box");
    let _ = std::fs::create_dir(&workdir);
    RunSpec {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        env: small_env(&workdir),
        workdir,
        stdin: None,
        stdout: dir.join("output"),
        limits: Limits {
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(10),
            memory: Bytes::mib(256),
            output: Bytes::mib(64),
            disk: Bytes::mib(64),
            stack: Bytes::mib(8),
            cap_address_space: false,
        },
        trust: Trust::Tool,
        scratch: None,
    }
}

/// Whether a process whose command line holds `marker` is alive.
fn alive(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(marker))
    })
}

/// The layers `cpjudge doctor` finds working here.
fn working_layers() -> Vec<Layer> {
    let doctor = Judge::fixture("basic")
        .args(&["doctor", "--json"])
        .run()
        .expect_code(0)
        .json();
    Layer::ALL
        .into_iter()
        .filter(|layer| doctor["isolation"][layer.name()]["active"] == true)
        .collect()
}

/// With every layer that works here, a run that uses some CPU time and memory and leaves nothing behind keeps its
/// worker for the next.
#[test]
fn a_worker_is_kept_from_run_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let layers = working_layers();
    let sandbox = sandbox(&layers);
    for n in 0..5 {
        let script = format!("i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; echo {n}");
        let result = sandbox.run(&shell(dir.path(), &script)).unwrap();
        assert!(result.succeeded(), "{result:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("output")).unwrap(),
            format!("{n}\n")
        );
    }
    assert_eq!(
        sandbox.workers_started(),
        1,
        "five runs with the layers {layers:?} took more than one worker"
    );
}

/// Without namespaces or Landlock a run can kill its own worker (the same user's process, its parent), and a
/// process it started in its own session then outlives the run: the worker's keeper, a subreaper too, finds it
/// and kills it, and the next run gets a new worker.
#[test]
fn a_worker_whose_run_left_a_process_is_not_reused() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&[]);
    sandbox.run(&shell(dir.path(), "true")).unwrap();
    assert_eq!(sandbox.workers_started(), 1);

    let marker = format!("{}.{}", 300, std::process::id());
    let script =
        format!("setsid sleep {marker} </dev/null >/dev/null 2>&1 & kill -9 $PPID; sleep 5");
    let error = sandbox.run(&shell(dir.path(), &script)).unwrap_err();
    assert!(error.to_string().contains("without an answer"), "{error}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(&marker) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(&marker), "the left-behind sleeper is still alive");

    let result = sandbox.run(&shell(dir.path(), "echo after")).unwrap();
    assert!(result.succeeded(), "{result:?}");
    assert_eq!(
        sandbox.workers_started(),
        2,
        "the run after the one that left a process behind must get a new worker"
    );
}

/// Without namespaces, a file a run leaves in /dev/shm outlives it, and its memory stays charged to the worker's
/// cgroup: the worker is retired, and the next run gets a new one. (16 MiB: the kernel's figures may be off by a
/// few hundred KiB per processor.)
#[test]
fn a_worker_whose_run_left_a_file_in_shared_memory_is_not_reused() {
    if !layer_works("cgroup", "a worker's cgroup check") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&[Layer::Cgroup]);
    sandbox.run(&shell(dir.path(), "true")).unwrap();
    let file = PathBuf::from(format!("/dev/shm/cpjudge-test-{}", std::process::id()));
    let script = format!(
        "head -c 16777216 /dev/zero > {} && echo left",
        file.display()
    );
    // Removed once the next run has started, whatever happens: the worker looks for what its run left behind
    // after it has answered, while the judge goes on.
    struct Removed(PathBuf);
    impl Drop for Removed {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
    let _removed = Removed(file);
    let result = sandbox.run(&shell(dir.path(), &script)).unwrap();
    assert!(result.succeeded(), "{result:?}");
    sandbox.run(&shell(dir.path(), "true")).unwrap();
    assert_eq!(
        sandbox.workers_started(),
        2,
        "the run after the one that left a file in shared memory must get a new worker"
    );
}

/// In its namespaces, a worker is the init of its runs, and what a run leaves in them for the next (a file in its
/// /dev/shm, a change to /dev/shm that no file holds, a System V object, which only the seccomp layer refuses)
/// retires it: the next run gets a new worker, and does not find it.
#[test]
fn a_worker_whose_run_left_something_in_its_namespaces_is_not_reused() {
    if !layer_works("namespaces", "a worker's namespace check") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&[Layer::Namespaces]);
    sandbox.run(&shell(dir.path(), "true")).unwrap();
    // What a run leaves, and what the next checks.
    let fresh_shm = "test \"$(stat -c %Y /dev/shm)\" = \"$(stat -c %W /dev/shm)\"";
    let leaves = [
        ("echo left > /dev/shm/left", "test ! -e /dev/shm/left"),
        ("echo left > /dev/shm/left && rm /dev/shm/left", fresh_shm),
        ("ipcmk -M 4096", "test -z \"$(ipcs -m | grep '^0x')\""),
        ("ipcmk -Q", "test -z \"$(ipcs -q | grep '^0x')\""),
        ("ipcmk -S 1", "test -z \"$(ipcs -s | grep '^0x')\""),
    ];
    for (n, (leave, check)) in leaves.into_iter().enumerate() {
        let left = sandbox.run(&shell(dir.path(), leave)).unwrap();
        assert!(left.succeeded(), "{leave}: {left:?}");
        let after = sandbox.run(&shell(dir.path(), check)).unwrap();
        assert!(
            after.succeeded(),
            "the run after `{leave}` found it: {after:?}"
        );
        assert_eq!(
            sandbox.workers_started(),
            n + 2,
            "the run after `{leave}` must get a new worker"
        );
    }
}

/// In its namespaces, every run of a worker sees the same process IDs, its own and its children's, however many
/// processes the runs before it made: an ID handed out in turn would tell the next run how many there were.
#[test]
fn every_run_of_a_worker_sees_the_same_process_ids() {
    if !layer_works("namespaces", "the process IDs of a worker's runs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&[Layer::Namespaces]);
    // Its own ID, and those of three children in turn, the middle one a shell that makes two more.
    let script =
        "echo $$; sh -c 'echo $$'; sh -c 'sh -c \"echo \\$\\$\"; echo $$'; sh -c 'echo $$'";
    let mut seen = Vec::new();
    for _ in 0..3 {
        let result = sandbox.run(&shell(dir.path(), script)).unwrap();
        assert!(result.succeeded(), "{result:?}");
        seen.push(std::fs::read_to_string(dir.path().join("output")).unwrap());
    }
    assert_eq!(sandbox.workers_started(), 1, "the runs share one worker");
    assert_eq!(seen[0], "2\n3\n5\n4\n6\n", "the first run's process IDs");
    assert!(
        seen.iter().all(|ids| *ids == seen[0]),
        "process IDs differ from run to run: {seen:?}"
    );
}

/// The processes this thread started (each run's worker is started by the thread that asks for the run).
fn own_children() -> Vec<String> {
    std::fs::read_to_string("/proc/thread-self/children")
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// A sandbox lets its idle workers go without waiting for them to end (the judge writes its report and removes its
/// folders meanwhile): a later run gets a new worker, and once the released ones are waited for, none of them is
/// left.
#[test]
fn released_workers_are_not_reused_and_are_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&working_layers());
    sandbox.run(&shell(dir.path(), "true")).unwrap();
    let first = own_children();
    assert_eq!(first.len(), 1, "one worker: {first:?}");
    sandbox.release();
    let result = sandbox.run(&shell(dir.path(), "echo after")).unwrap();
    assert!(result.succeeded(), "{result:?}");
    assert_eq!(sandbox.workers_started(), 2, "a released worker was reused");
    cpjudge::sandbox::wait_for_released();
    let left = own_children();
    assert!(
        !left.contains(&first[0]),
        "the released worker is left: {left:?}"
    );
    assert_eq!(left.len(), 1, "only the second worker: {left:?}");
}

/// A solution's run held in the worker's holder (namespaces and Landlock) starts in an empty folder of its own, the
/// only mount at its path: nothing of an earlier run's folder lies beneath it, whatever that run left there. The
/// folder of a run that left files is unmounted as soon as the run is over, so that their memory is not still
/// charged to the worker's cgroup at the next run, which would retire the worker: 40 runs, 20 leaving nothing and
/// then every third leaving 16 MiB, take one worker. Each says it was kept out of the real folder, which none of them
/// changed.
#[test]
fn held_runs_start_empty_and_alone_and_keep_their_worker() {
    if !layer_works("namespaces", "a worker's holder")
        || !layer_works("landlock", "a worker's holder")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&working_layers());
    let mut depths = Vec::new();
    for n in 0..40 {
        let leave = match n >= 20 && n % 3 == 0 {
            true => "head -c 16777216 /dev/zero > left",
            false => "true",
        };
        // What the folder holds, and how many mounts lie at its path (this run's and any beneath it).
        let script = format!(
            "ls -A | wc -l; awk -v d=\"$PWD\" '$5 == d' /proc/self/mountinfo | wc -l; {leave}"
        );
        let spec = RunSpec {
            trust: Trust::Solution {
                readable: Vec::new(),
            },
            scratch: Some(Bytes::mib(64)),
            ..shell(dir.path(), &script)
        };
        let result = sandbox.run(&spec).unwrap();
        assert!(result.succeeded(), "run {n}: {result:?}");
        assert!(result.kept_out, "run {n} was not kept out of its folder");
        let output = std::fs::read_to_string(dir.path().join("output")).unwrap();
        let figures: Vec<usize> = output
            .split_whitespace()
            .map(|f| f.parse().unwrap())
            .collect();
        assert_eq!(
            figures[0], 0,
            "run {n} found its folder not empty: {output:?}"
        );
        depths.push(figures[1]);
    }
    assert!(
        depths.iter().all(|&depth| depth == 1),
        "mounts at the folder's path, run by run: {depths:?}"
    );
    assert_eq!(sandbox.workers_started(), 1, "depths seen: {depths:?}");
    // What they left went into folders of their own: the real one is as it was made. A run of the problem's own
    // tools works in the real one, and says so.
    let real = std::fs::read_dir(dir.path().join("box")).unwrap().count();
    assert_eq!(real, 0, "files in the real folder after held runs");
    let tool = sandbox.run(&shell(dir.path(), "echo > made")).unwrap();
    assert!(tool.succeeded() && !tool.kept_out, "{tool:?}");
    assert!(dir.path().join("box/made").exists());
}

/// Each run of a kept worker is charged the memory it holds, from where its own cgroup's memory stood when it started:
/// runs that keep 24 MiB in a file of their folder (memory, not resident in any process) for a moment, under
/// limits that fall and rise from run to run (a lower limit makes the kernel reclaim what it can), are each measured
/// at 24 MiB and a little more, never less, and the worker is kept.
#[test]
fn each_run_of_a_kept_worker_is_charged_its_own_memory() {
    if !layer_works("cgroup", "memory counted by a cgroup") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox(&working_layers());
    let mut measured = Vec::new();
    for n in 0..8 {
        let mut spec = RunSpec {
            trust: Trust::Solution {
                readable: Vec::new(),
            },
            scratch: Some(Bytes::mib(64)),
            ..shell(
                dir.path(),
                "head -c 25165824 /dev/zero > held && sleep 0.15",
            )
        };
        spec.limits.memory = Bytes::mib(if n % 2 == 0 { 512 } else { 96 });
        let result = sandbox.run(&spec).unwrap();
        assert!(result.succeeded(), "run {n}: {result:?}");
        measured.push(result.peak_memory.0 >> 20);
    }
    assert!(
        measured.iter().all(|&mib| (24..40).contains(&mib)),
        "MiB measured, run by run: {measured:?}"
    );
    assert_eq!(sandbox.workers_started(), 1, "measured: {measured:?}");
}
