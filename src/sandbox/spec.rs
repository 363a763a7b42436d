//! What a run is asked to do and what it reports, as plain data: both cross the pipe to the supervisor as JSON.

use crate::units::Bytes;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The limits of one run. All of them are enforced by the supervisor or the kernel, never by the program.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time of the whole run, all threads and all processes.
    pub cpu: Duration,
    /// Wall-clock time, after which the run is killed whatever it is doing.
    pub wall: Duration,
    /// Peak resident memory.
    pub memory: Bytes,
    /// Size of any file the program writes, standard output included.
    pub output: Bytes,
    /// What the run may keep in its working directory in all, at most [`Limits::FILES`] files and folders.
    pub disk: Bytes,
    /// The main thread's stack, which is also the default size of every other thread's stack.
    pub stack: Bytes,
    /// Whether to cap the address space too where there is no cgroup, as a backstop for memory (runtimes such as
    /// the JVM reserve far more address space than they use, so their language entry turns this off).
    pub cap_address_space: bool,
}

impl Limits {
    /// How many files and folders a run's working directory may hold.
    pub const FILES: u64 = 16_384;

    /// The kernel's own CPU limit per process: a backstop above the supervisor's check, in whole seconds.
    pub(crate) fn cpu_backstop_secs(&self) -> u64 {
        self.cpu.as_secs() + 2
    }

    /// The address-space cap of each process, where there is no cgroup to count memory: a backstop, which only
    /// bounds what one process can take between two of the supervisor's looks (each look sums the resident memory
    /// of every process of the run). It lies [`Limits::ADDRESS_SPACE_ROOM`] above the memory limit, so that going
    /// over the limit is measured as MLE rather than end as a failed allocation, plus room for
    /// [`Limits::THREADS_IN_ADDRESS_SPACE`] threads: the C library reserves each thread a stack as large as the
    /// stack limit, which it never uses.
    pub(crate) fn address_space(&self) -> Bytes {
        let stacks = self.stack.0.saturating_mul(Self::THREADS_IN_ADDRESS_SPACE);
        Bytes(
            self.memory
                .0
                .saturating_add(Self::ADDRESS_SPACE_ROOM.0)
                .saturating_add(stacks),
        )
    }

    /// Address space a process may have above the memory limit, besides its threads' stacks.
    pub(crate) const ADDRESS_SPACE_ROOM: Bytes = Bytes::mib(256);

    /// Threads whose default stacks fit in the address-space cap besides the memory limit.
    pub(crate) const THREADS_IN_ADDRESS_SPACE: u64 = 16;
}

/// One program to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunSpec {
    /// The program and its arguments; the program is an absolute path.
    #[serde(with = "super::wire::args")]
    pub argv: Vec<OsString>,
    /// The whole environment of the program.
    #[serde(with = "super::wire::env")]
    pub env: Vec<(OsString, OsString)>,
    /// The working directory.
    #[serde(with = "super::wire::path")]
    pub workdir: PathBuf,
    /// Standard input, or nothing (`/dev/null`).
    #[serde(with = "super::wire::option")]
    pub stdin: Option<PathBuf>,
    /// Where standard output goes (created or truncated).
    #[serde(with = "super::wire::path")]
    pub stdout: PathBuf,
    pub limits: Limits,
    /// What the program may read, where Landlock is on.
    pub trust: Trust,
    /// Whether the working directory is scratch space, thrown away after the run: where the namespaces are on,
    /// it is then a fresh in-memory file system of this size, so that what the run writes counts as its memory
    /// and can never fill the disk.
    pub scratch: Option<Bytes>,
}

/// Who a program is, which decides what it may read where Landlock is on. Whoever it is, it writes only in its
/// working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trust {
    /// One of the problem's own programs (checker, validator, generator): it may read anything.
    Tool,
    /// A solution, or the compiler building one: it may not read the judge's hidden folders (tests, answers,
    /// problems, builds, other runs), except these paths.
    Solution {
        #[serde(with = "super::wire::paths")]
        readable: Vec<PathBuf>,
    },
}

/// What the harness sends a worker first, once it knows: the isolation layers its runs are made with. A worker may
/// be started before (see `runner::prestart`): its own start then goes on while the harness looks for them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    /// The layers, as `--layers` takes them.
    pub layers: String,
}

/// What the harness sends a worker second: the folders hidden from solutions, which it may learn later than the
/// layers (the worker makes its namespaces, cgroup and filter meanwhile).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HiddenFolders {
    #[serde(with = "super::wire::paths")]
    pub hidden: Vec<PathBuf>,
}

/// What the harness sends a worker: the run, and what a solution may not read. (The layers are the worker's own,
/// given in its [`Setup`]; the run's standard input and output come with the request, as descriptors.)
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    /// A number the reply must carry: no line can pass for the answer to a request it does not know.
    pub id: u64,
    pub spec: RunSpec,
    /// Folders a solution must not read: with [`Trust::Solution`], everything else is readable.
    #[serde(with = "super::wire::paths")]
    pub hidden: Vec<PathBuf>,
    /// What a solution or compiler must reach by name, where it runs as a user of its own: see `view`.
    pub reach: Reach,
}

/// Real paths a run reaches by name.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Reach {
    /// Its program's folder and its toolchain, which later runs need too.
    #[serde(with = "super::wire::paths")]
    pub kept: Vec<PathBuf>,
    /// Its working directory, its own (its output it reaches through its descriptor).
    #[serde(with = "super::wire::option")]
    pub workdir: Option<PathBuf>,
}

impl Reach {
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.workdir.is_none()
    }
}

/// What a worker answers to a [`Request`] as soon as every process of the run is gone. Unless it retires at once, a
/// [`Settled`] follows once it has cleaned up after the run.
#[derive(Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The request's number.
    pub id: u64,
    pub result: Result<RunResult, String>,
    /// Why the worker takes no further run and says nothing more, if it could not carry this one out.
    pub retired: Option<String>,
}

impl Reply {
    pub(crate) fn failed(id: u64, error: String) -> Reply {
        Reply {
            id,
            result: Err(error),
            retired: Some("it could not carry out a run".into()),
        }
    }
}

/// What a worker says once it has cleaned up after a run it answered: its mounts for the run removed, and the run
/// looked at for what it left behind for the next one.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settled {
    /// What the run left behind, if it did: the worker then kills what it can and ends, and takes no further run.
    pub retired: Option<String>,
}

/// How the program's main process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Termination::Exited(code) => write!(f, "exit code {code}"),
            Termination::Signaled(signal) => write!(f, "killed by {}", super::signal_name(signal)),
        }
    }
}

/// What a run did, as the kernel accounted it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResult {
    pub termination: Termination,
    /// CPU time (user + system) of every process of the run.
    pub cpu: Duration,
    pub wall: Duration,
    /// Peak resident memory of the largest process of the run.
    pub peak_memory: Bytes,
    /// Bytes written to standard output.
    pub stdout_bytes: u64,
    /// Standard error: all of it up to 64 KiB; beyond, its first and last 32 KiB, joined by a line saying how much
    /// was left out between them.
    pub stderr: Vec<u8>,
    /// Bytes written to standard error in all.
    pub stderr_bytes: u64,
    /// Set when the supervisor killed the run for going past a limit.
    pub killed_for: Option<LimitKind>,
    /// Whether the run was kept out of the folder its working directory lies in: it worked in a folder of its own in
    /// memory, mounted over the real one, and the only file of that folder it could reach was its output. Nothing
    /// it did is then left in the real folder.
    #[serde(default)]
    pub kept_out: bool,
}

#[cfg(test)]
impl RunResult {
    /// A run that exited with 0 at once and used nothing: what a fake runner answers.
    pub(crate) fn at_once() -> RunResult {
        RunResult {
            termination: Termination::Exited(0),
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            peak_memory: Bytes(0),
            stdout_bytes: 0,
            stderr: Vec::new(),
            stderr_bytes: 0,
            killed_for: None,
            kept_out: false,
        }
    }
}

impl RunResult {
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// How the run ended, to follow the program's name: "ended with exit code 3", "was killed by SIGSEGV", or
    /// "stopped at its CPU time limit of 10s".
    pub fn ending(&self, limits: &Limits) -> String {
        match (self.killed_for, self.termination) {
            (Some(kind), _) => format!("stopped at its {kind} limit of {}", limits.of(kind)),
            (None, Termination::Exited(_)) => format!("ended with {}", self.termination),
            (None, Termination::Signaled(_)) => format!("was {}", self.termination),
        }
    }

    /// Whether it ended by itself with exit code 0.
    pub fn succeeded(&self) -> bool {
        self.killed_for.is_none() && self.termination == Termination::Exited(0)
    }
}

/// The limit a run was killed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LimitKind {
    Cpu,
    Wall,
    Memory,
    /// What it wrote in its working directory.
    Disk,
}

impl std::fmt::Display for LimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitKind::Cpu => "CPU time",
            LimitKind::Wall => "wall time",
            LimitKind::Memory => "memory",
            LimitKind::Disk => "disk",
        })
    }
}

impl Limits {
    /// The value of one limit, for people: "30s", "2GiB".
    pub fn of(&self, kind: LimitKind) -> String {
        match kind {
            LimitKind::Cpu => crate::units::format_time(self.cpu),
            LimitKind::Wall => crate::units::format_time(self.wall),
            LimitKind::Memory => self.memory.to_string(),
            LimitKind::Disk => format!("{} (or {} files)", self.disk, Self::FILES),
        }
    }
}

/// The small fixed environment a program runs with: a plain PATH, and its own folder as HOME and TMPDIR.
pub fn small_env(home: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), home.into()),
        ("TMPDIR".into(), home.into()),
        ("LANG".into(), "C.UTF-8".into()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStringExt;

    #[test]
    fn paths_that_are_not_utf8_cross_the_pipe() {
        let odd = |bytes: &[u8]| PathBuf::from(OsString::from_vec(bytes.to_vec()));
        let request = Request {
            id: 7,
            spec: RunSpec {
                argv: vec![odd(b"/b/sol\xff").into()],
                env: small_env(&odd(b"/w\xfe")),
                workdir: odd(b"/w\xfe"),
                stdin: Some(odd(b"/t/g\xfe/1\xff.in")),
                stdout: odd(b"/w\xfe/out"),
                limits: Limits {
                    cpu: Duration::from_secs(1),
                    wall: Duration::from_secs(3),
                    memory: Bytes::mib(64),
                    output: Bytes::mib(1),
                    disk: Bytes::mib(64),
                    stack: Bytes::mib(56),
                    cap_address_space: true,
                },
                trust: Trust::Solution {
                    readable: vec![odd(b"/b\xff")],
                },
                scratch: None,
            },
            hidden: vec![odd(b"/t\xff"), "/plain".into()],
            reach: Reach {
                kept: vec![odd(b"/b\xff")],
                workdir: Some(odd(b"/w\xfe")),
            },
        };
        let sent = serde_json::to_vec(&request).unwrap();
        // What is UTF-8 goes as text, short and quick to read.
        let text = String::from_utf8_lossy(&sent);
        assert!(
            text.contains("\"/plain\"") && text.contains("\"PATH\""),
            "{text}"
        );
        let got: Request = serde_json::from_slice(&sent).unwrap();
        assert_eq!(got.spec.workdir, request.spec.workdir);
        assert_eq!(got.spec.stdin, request.spec.stdin);
        assert_eq!(got.spec.stdout, request.spec.stdout);
        assert_eq!(got.spec.trust, request.spec.trust);
        assert_eq!(got.hidden, request.hidden);
        assert_eq!(got.spec.argv, request.spec.argv);
        assert_eq!(got.reach.kept, request.reach.kept);
        assert_eq!(got.reach.workdir, request.reach.workdir);
    }
}
