//! Hostile submissions: each program in tests/fixtures/hostile/programs attacks the judge in its own way (running
//! forever, escaping the process tree, eating memory, output or disk, crashing in odd ways, reading the answers,
//! reaching the network or other processes), and is judged on the fixture's `hostile` problem (a + b) twice: with
//! every isolation layer the machine offers (`CPJUDGE_LAYERS` unset) and with none of them (`none`).
//!
//! Every time, the judge must give one of the case's verdicts, leave no process of the run alive, leave the
//! testdata and problems untouched, and stay small itself. A program that names `@BAIT@` gets the path of a file
//! outside the project and the cache in its place, which must be untouched too (a program that plants links for
//! the judge to write through aims them there). A case that only some layer can stop names it, and is skipped
//! where `cpjudge doctor` says that layer is off.

use crate::harness::{Judge, processes_under, solution};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Expands each line `name: "file" => [VERDICT, ...] needs [layer | layer, layer] given Input;` into a module `name`
/// with a test per mode. `needs` is optional; each comma-separated group in it is satisfied by any one of its
/// `|`-separated layers being active, and every group must be. `given` is optional too: the tests the program is
/// judged on beyond the fixture's (see `Input`).
macro_rules! hostile {
    ($(
        $case:ident : $file:literal => [$($verdict:ident),+ $(,)?]
            $(needs [$($($layer:ident)|+),+])? $(given $input:ident)? ;
    )+) => {
        $(
            mod $case {
                pub(super) const CASE: super::Case = super::Case {
                    name: stringify!($case),
                    file: $file,
                    expected: &[$(stringify!($verdict)),+],
                    needs: &[$($(&[$(stringify!($layer)),+]),+)?],
                    input: super::Input::given(&[$(super::Input::$input)?]),
                };

                #[test]
                fn layers_on() {
                    super::judge(&CASE, super::Mode::LayersOn);
                }

                #[test]
                fn layers_off() {
                    super::judge(&CASE, super::Mode::LayersOff);
                }
            }
        )+

        /// Every case of the table.
        const CASES: &[&Case] = &[$(&$case::CASE),+];
    };
}

hostile! {
    // Never ending.
    busy_loop: "busy_loop.c" => [TLE];
    sleep_forever: "sleep_forever.py" => [TLE];
    pause: "pause.c" => [TLE];
    sigstop_self: "sigstop_self.c" => [TLE];
    sigxcpu_busy: "sigxcpu_busy.c" => [TLE];
    raise_limits: "raise_limits.c" => [AC];
    busy_threads: "busy_threads.rs" => [TLE];
    uncounted_time: "uncounted_time.c" => [TLE];
    endless_stderr: "endless_stderr.rs" => [TLE];

    // Processes that outlive the program, or multiply.
    fork_bomb: "fork_bomb.c" => [TLE, RE, MLE] needs [cgroup];
    setsid_sleepers: "setsid_sleepers.c" => [AC];
    busy_orphans: "busy_orphans.cpp" => [AC];
    grandchild_holds_stdout: "grandchild_holds_stdout.c" => [AC];

    // Memory and stack.
    heap_hog: "heap_hog.cpp" => [MLE];
    memfd_hog: "memfd_hog.c" => [MLE] needs [cgroup];
    huge_alloc: "huge_alloc.c" => [MLE, RE];
    deep_recursion: "deep_recursion.c" => [AC];
    unbounded_recursion: "unbounded_recursion.rs" => [RE];
    stack_overflow_thread: "stack_overflow_thread.rs" => [RE];

    // Output and files.
    endless_stdout: "endless_stdout.c" => [OLE];
    answer_then_spaces: "answer_then_spaces.cpp" => [OLE];
    sparse_file: "sparse_file.c" => [RE, OLE];
    disk_filler: "disk_filler.c" => [AC, MLE];
    scratch_file: "scratch_file.c" => [AC];
    earlier_outputs: "earlier_outputs.c" => [AC];
    output_marks: "output_marks.c" => [AC];
    output_generation: "output_generation.c" => [AC];
    locks_in_flight: "locks_in_flight.c" => [AC];
    lease_in_flight: "lease_in_flight.c" => [AC] needs [seccomp];
    shared_locks: "shared_locks.c" => [AC] needs [seccomp];
    sysv_ids: "sysv_ids.c" => [AC] needs [seccomp];
    shm_marks: "shm_marks.c" => [AC] needs [namespaces];
    network_counters: "network_counters.c" => [AC] needs [seccomp];
    socket_cookies: "socket_cookies.c" => [AC] needs [seccomp];
    cgroup_counters: "cgroup_counters.c" => [AC] needs [landlock];
    worker_counters: "worker_counters.c" => [AC] needs [namespaces];
    output_fifo: "output_fifo.c" => [AC, WA];
    scratch_inodes: "scratch_inodes.c" => [AC];
    rewrite_input: "rewrite_input.c" => [AC];
    large_input_link: "large_input_link.c" => [AC] given Large;
    write_outside: "write_outside.c" => [AC] needs [namespaces | landlock];
    tmpdir_leftover: "tmpdir_leftover.py" => [AC];
    workdir_marks: "workdir_marks.py" => [AC];
    workdir_times: "workdir_times.c" => [AC];
    dev_stdin: "dev_stdin.py" => [AC];
    reopen_stdout: "reopen_stdout.c" => [AC];
    shared_memory: "shared_memory.py" => [AC];

    // Looking for the answers instead of computing them. The namespaces give a run its own /proc, but the file
    // system stays in view: only Landlock keeps paths out of reach.
    answers_via_relative: "answers_via_relative.py" => [WA] needs [landlock];
    answers_via_proc_cwd: "answers_via_proc_cwd.py" => [WA] needs [namespaces | landlock];
    answers_via_scan: "answers_via_scan.py" => [WA] needs [landlock];

    // Crashes, each after printing the right answer.
    segfault: "segfault.c" => [RE];
    sigfpe: "sigfpe.c" => [RE];
    abort: "abort.cpp" => [RE];
    panic: "panic.rs" => [RE];
    exception: "exception.py" => [RE];
    exit3: "exit3.rs" => [RE];

    // Memory no single process shows: children's, pipe and socket buffers', files kept beside a heap.
    children_memory: "children_memory.c" => [MLE];
    many_pipes: "many_pipes.c" => [AC, MLE] needs [cgroup | seccomp];
    socket_hoard: "socket_hoard.c" => [AC, MLE] needs [cgroup | seccomp];
    tmpfs_plus_heap: "tmpfs_plus_heap.c" => [MLE];
    unlinked_disk: "unlinked_disk.c" => [AC, MLE];

    // The judge's own memory, through /proc.
    judge_memory: "judge_memory.c" => [AC];

    // Compile-time code that plants links where the judge writes its build status.
    token: "token.py" => [AC];

    // What other users may not read: a root judge's runs are an unprivileged user of their own.
    read_secrets: "read_secrets.c" => [AC] needs [namespaces];

    // A channel between runs through the page cache.
    mincore_probe: "mincore_probe.c" => [AC] needs [seccomp];
    cache_oracle: "cache_oracle.c" => [AC] needs [seccomp];

    // Output that is not what it seems.
    ac_on_stderr: "ac_on_stderr.py" => [WA];
    nul_bytes: "nul_bytes.c" => [WA];
    invalid_utf8: "invalid_utf8.cpp" => [WA];
    long_line: "long_line.rs" => [WA];

    // Compile-time bombs, stopped by the compiler's own limits or the compile's.
    include_self: "include_self.cpp" => [CE];
    template_bomb: "template_bomb.cpp" => [CE];
    include_dev_zero: "include_dev_zero.rs" => [CE];

    // Reaching out of the run: each answers right only if it is stopped. Landlock stops the network and signals
    // too, but only from ABI 4 and 6 on, which its status does not say in a form to rely on: the namespaces do it
    // on every kernel that has them.
    network: "network.c" => [AC] needs [namespaces];
    ptrace: "ptrace.c" => [AC] needs [seccomp];
    unshare: "unshare.c" => [AC] needs [seccomp];
    keyed_calls: "keyed_calls.c" => [AC] needs [seccomp];
    key_hunt: "key_hunt.c" => [AC] needs [seccomp];
    kill_others: "kill_others.c" => [AC] needs [namespaces];
    others_limits: "others_limits.c" => [AC] needs [seccomp];
    unix_socket: "unix_socket.py" => [AC] needs [seccomp];

    // Reaching the machine's devices.
    device_node: "device_node.c" => [AC] needs [seccomp | landlock];
    raw_devices: "raw_devices.cpp" => [AC] needs [landlock];
}

/// One hostile submission and what the judge must make of it.
struct Case {
    name: &'static str,
    /// The program, in the fixture's programs/ folder.
    file: &'static str,
    /// The verdicts it may get.
    expected: &'static [&'static str],
    /// Groups of alternative layers: from each group, at least one must be active for the case to run.
    needs: &'static [&'static [&'static str]],
    /// The tests it is judged on.
    input: Input,
}

/// The tests a case is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// The fixture's own.
    Fixture,
    /// The fixture's and one more, larger than the judge copies for a run (8 MiB): its first line is the two
    /// numbers, and padding follows.
    Large,
}

impl Input {
    /// The input named in the table, if one is.
    const fn given(named: &[Input]) -> Input {
        match named {
            [input] => *input,
            _ => Input::Fixture,
        }
    }
}

/// The size of the large test, over the judge's bound for copying an input.
const LARGE_INPUT: usize = 9 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `CPJUDGE_LAYERS` unset: every layer that works on this machine.
    LayersOn,
    /// `CPJUDGE_LAYERS=none`: only the always-on basics.
    LayersOff,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::LayersOn => "layers-on",
            Mode::LayersOff => "layers-off",
        }
    }

    /// The judge's environment in this mode: `CPJUDGE_LAYERS` removed or set.
    fn layers_variable(self) -> Option<&'static str> {
        match self {
            Mode::LayersOn => None,
            Mode::LayersOff => Some("none"),
        }
    }
}

const VERDICTS: &[&str] = &["AC", "WA", "TLE", "MLE", "RE", "OLE", "CE", "JE"];
const LAYERS: &[&str] = &["cgroup", "namespaces", "landlock", "seccomp"];

/// The judge must have answered by then, whatever the program did.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the processes of a run that the judge killed may take to disappear from /proc.
const LEFTOVER_GRACE: Duration = Duration::from_secs(2);
/// The judge's own peak resident memory, whatever the program threw at it.
const HARNESS_MEMORY: u64 = 100 << 20;

fn judge(case: &Case, mode: Mode) {
    check_table_entry(case);
    if let Some(reason) = missing_layer(case, mode) {
        crate::harness::skip(&format!("{} needs the {reason}", case.name));
        return;
    }

    // A cache per case and mode, kept across runs of the suite: leftovers are found by its path, and nothing is
    // rebuilt the next time.
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile-cache")
        .join(mode.name())
        .join(case.name);
    let program = format!("programs/{}", case.file);
    let bait = Bait::new();
    let source =
        std::fs::read_to_string(crate::harness::fixtures().join("hostile").join(&program)).unwrap();
    let mut judge = Judge::fixture("hostile")
        .write(
            &program,
            &source.replace("@BAIT@", &bait.path().to_string_lossy()),
        )
        .cache(&cache)
        .timeout(JUDGE_TIMEOUT)
        .args(&["judge", "hostile", "--submission", &program, "--json"]);
    if case.input == Input::Large {
        let mut large = String::from("1 2\n");
        large.extend(std::iter::repeat_n(' ', LARGE_INPUT - large.len()));
        judge = judge
            .write("testdata/hostile/large.in", &large)
            .write("testdata/hostile/large.ans", "3\n");
    }
    judge = match mode.layers_variable() {
        Some(value) => judge.env("CPJUDGE_LAYERS", value),
        None => judge.env_remove("CPJUDGE_LAYERS"),
    };
    let before = digest(judge.root());

    let started = Instant::now();
    let run = judge.run();
    let code = run.output.status.code().unwrap_or_else(|| {
        panic!(
            "{} ({}): the judge did not return ({}, after {:.1?}; the limit is {JUDGE_TIMEOUT:?})\nstderr:\n{}",
            case.name,
            mode.name(),
            run.output.status,
            started.elapsed(),
            run.stderr()
        )
    });
    assert!(
        code == 0 || code == 1,
        "{} ({}): exit code {code}\nstdout:\n{}\nstderr:\n{}",
        case.name,
        mode.name(),
        run.stdout(),
        run.stderr()
    );
    let report = run.json();

    // 1. An expected verdict.
    let submission = solution(&report, case.file);
    let verdict = submission["verdict"].as_str().unwrap_or_default();
    assert!(
        case.expected.contains(&verdict),
        "{} ({}): {verdict}, expected one of {:?}\n{submission:#}",
        case.name,
        mode.name(),
        case.expected
    );

    // 2. Nothing of the run left alive.
    let deadline = Instant::now() + LEFTOVER_GRACE;
    let mut alive = processes_under(&cache);
    while !alive.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        alive = processes_under(&cache);
    }
    assert!(
        alive.is_empty(),
        "{} ({}): processes of the run still alive {LEFTOVER_GRACE:?} after the judge returned:\n{}",
        case.name,
        mode.name(),
        alive.join("\n")
    );

    // 3. The problem and its tests exactly as they were.
    assert_eq!(
        digest(judge.root()),
        before,
        "{} ({}): testdata/ or problems/ changed",
        case.name,
        mode.name()
    );

    // 4. Nothing written outside, through a link the program planted.
    bait.assert_untouched(&format!("{} ({})", case.name, mode.name()));

    // 5. The judge itself stayed small.
    let peak = report["harness"]["peak_memory"]
        .as_u64()
        .unwrap_or_else(|| panic!("no harness.peak_memory in the report:\n{report:#}"));
    assert!(
        peak < HARNESS_MEMORY,
        "{} ({}): the judge's peak memory {} MiB is over {} MiB",
        case.name,
        mode.name(),
        peak >> 20,
        HARNESS_MEMORY >> 20
    );
}

/// A file outside the project and the cache, in a folder of its own, for a program to aim links at.
pub(crate) struct Bait {
    dir: tempfile::TempDir,
}

impl Bait {
    const CONTENTS: &'static str = "a file the judge must never write\n";

    pub(crate) fn new() -> Bait {
        let dir = tempfile::Builder::new()
            .prefix("cpjudge-bait-")
            .tempdir()
            .unwrap();
        std::fs::write(dir.path().join("bait"), Self::CONTENTS).unwrap();
        Bait { dir }
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("bait")
    }

    /// The file is as it was, a file still, and alone in its folder.
    pub(crate) fn assert_untouched(&self, what: &str) {
        let metadata = std::fs::symlink_metadata(self.path()).unwrap();
        assert!(metadata.is_file(), "{what}: the bait is no longer a file");
        assert_eq!(
            std::fs::read_to_string(self.path()).unwrap(),
            Self::CONTENTS,
            "{what}: the judge wrote into a file outside, through a link the program planted"
        );
        let entries = std::fs::read_dir(self.dir.path()).unwrap().count();
        assert_eq!(entries, 1, "{what}: something was written beside the bait");
    }
}

/// Catches a misspelt verdict or layer in the table before anything runs.
fn check_table_entry(case: &Case) {
    for verdict in case.expected {
        assert!(
            VERDICTS.contains(verdict),
            "{}: unknown verdict {verdict}",
            case.name
        );
    }
    for layer in case.needs.iter().copied().flatten() {
        assert!(
            LAYERS.contains(layer),
            "{}: unknown layer {layer}",
            case.name
        );
    }
}

/// Why the case cannot run in this mode ("<layer> layer, which is off (<detail>)"), if it cannot.
fn missing_layer(case: &Case, mode: Mode) -> Option<String> {
    if case.needs.is_empty() {
        return None;
    }
    let isolation = &doctor(mode)["isolation"];
    let layer = |name: &str| {
        let status = &isolation[name];
        assert!(
            status["active"].is_boolean(),
            "cpjudge doctor --json says nothing of the {name} layer:\n{isolation:#}"
        );
        status
    };
    case.needs
        .iter()
        .find(|group| !group.iter().any(|&name| layer(name)["active"] == true))
        .map(|group| {
            let details: Vec<String> = group
                .iter()
                .map(|&name| {
                    let detail = layer(name)["detail"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                    if group.len() == 1 {
                        detail
                    } else {
                        format!("{name}: {detail}")
                    }
                })
                .collect();
            format!(
                "{} layer, which is off ({})",
                group.join(" or "),
                details.join("; ")
            )
        })
}

/// `cpjudge doctor --json` in the environment of this mode, asked once.
fn doctor(mode: Mode) -> &'static serde_json::Value {
    static ON: OnceLock<serde_json::Value> = OnceLock::new();
    static OFF: OnceLock<serde_json::Value> = OnceLock::new();
    let cell = match mode {
        Mode::LayersOn => &ON,
        Mode::LayersOff => &OFF,
    };
    cell.get_or_init(|| {
        let mut command = assert_cmd::Command::cargo_bin("cpjudge").unwrap();
        command.args(["doctor", "--json"]).timeout(JUDGE_TIMEOUT);
        match mode.layers_variable() {
            Some(value) => command.env("CPJUDGE_LAYERS", value),
            None => command.env_remove("CPJUDGE_LAYERS"),
        };
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "cpjudge doctor --json failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "cpjudge doctor --json gave no JSON ({e}):\n{}",
                String::from_utf8_lossy(&output.stdout)
            )
        })
    })
}

/// A digest of the project's testdata/ and problems/: every path (folders too) and every file's contents.
fn digest(root: &Path) -> String {
    let mut hasher = Sha256::new();
    for top in ["testdata", "problems"] {
        for entry in walkdir::WalkDir::new(root.join(top)).sort_by_file_name() {
            let entry = entry.unwrap();
            let path: PathBuf = entry.path().strip_prefix(root).unwrap().to_owned();
            let name = path.to_string_lossy();
            // Length-prefixed, so that no two different trees feed the same bytes.
            hasher.update((name.len() as u64).to_le_bytes());
            hasher.update(name.as_bytes());
            // The mode too: a run that takes the judge's permissions away has changed the tests.
            hasher.update(entry.metadata().unwrap().permissions().mode().to_le_bytes());
            if entry.file_type().is_file() {
                let contents = std::fs::read(entry.path()).unwrap();
                hasher.update((contents.len() as u64).to_le_bytes());
                hasher.update(&contents);
            } else {
                hasher.update(u64::MAX.to_le_bytes());
            }
        }
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where the machine is known to have every layer (`CPJUDGE_TEST_REQUIRE_LAYERS=all`, as `.ci/run` sets on our
/// CI machines, or a comma list), a layer that fails its probe is a failure, not a reason to skip cases.
#[test]
fn required_layers_are_on() {
    let Ok(required) = std::env::var("CPJUDGE_TEST_REQUIRE_LAYERS") else {
        crate::harness::skip(
            "CPJUDGE_TEST_REQUIRE_LAYERS is not set, so layers that are off only skip the cases that need them",
        );
        return;
    };
    let required: Vec<&str> = match required.trim() {
        "all" => LAYERS.to_vec(),
        list => list.split(',').map(str::trim).collect(),
    };
    let isolation = &doctor(Mode::LayersOn)["isolation"];
    for layer in required {
        assert!(
            LAYERS.contains(&layer),
            "unknown layer {layer} in CPJUDGE_TEST_REQUIRE_LAYERS"
        );
        assert_eq!(
            isolation[layer]["active"], true,
            "the {layer} layer is required here but off: {}",
            isolation[layer]["detail"]
        );
    }
}

/// The fork bomb would take the machine down without a limit on processes: it must never run without the cgroup
/// layer.
#[test]
fn fork_bomb_needs_the_cgroup_layer() {
    assert_eq!(fork_bomb::CASE.file, "fork_bomb.c");
    assert!(
        fork_bomb::CASE.needs.contains(&&["cgroup"][..]),
        "{:?}",
        fork_bomb::CASE.needs
    );
}

/// Every program in the fixture is judged by exactly one case, and every case's program exists.
#[test]
fn every_program_has_a_case() {
    let programs = crate::harness::fixtures().join("hostile").join("programs");
    let mut on_disk: Vec<String> = std::fs::read_dir(&programs)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut in_table: Vec<String> = CASES.iter().map(|case| case.file.to_owned()).collect();
    in_table.sort();
    assert_eq!(in_table, on_disk);
    for case in CASES {
        check_table_entry(case);
    }
}
