//! One run, carried out in a process a worker forks for it (see `worker`): it starts the program in its
//! confinement, watches its limits, kills and reaps everything the program started, and measures what it used.

use super::cgroup::RunCgroup;
use super::confine::Confinement;
use super::excerpt::Excerpt;
use super::process::{self, ProcStat};
use super::spec::{LimitKind, RunResult, RunSpec, Termination, Trust};
use crate::units::Bytes;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::ChildStderr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How often the supervisor looks at a running program's CPU time and memory. The kernel does the accounting;
/// this only decides how soon after crossing a limit the program is stopped.
const TICK: Duration = Duration::from_millis(10);

/// The files a run reads and writes as its standard streams, opened before its confinement is prepared: the
/// Landlock rule that lets the program reach its output by name needs the file to exist.
pub(super) struct Streams {
    stdin: File,
    stdout: File,
}

impl Streams {
    /// Opens the run's input and creates its output. A solution's input is a sealed copy in memory: the descriptor
    /// of the file itself, opened here, outside its namespaces and Landlock rules, would let it change the file's
    /// mode (fchmod needs no write access), or open it again for writing through /proc/self/fd/0 where the file
    /// system is not read-only to it. The problem's own tools read the file itself.
    pub fn open(spec: &RunSpec) -> Result<Streams, String> {
        let stdin = match &spec.stdin {
            Some(path) if spec.trust == Trust::Tool => File::open(path),
            Some(path) => sealed_copy(path),
            None => File::open("/dev/null"),
        }
        .map_err(|e| format!("failed to open the input: {e}"))?;
        let stdout = File::create(&spec.stdout)
            .map_err(|e| format!("failed to create the output file: {e}"))?;
        Ok(Streams { stdin, stdout })
    }
}

/// A copy of the file in memory that nobody can change: written, sealed against writing, growing and shrinking,
/// and rewound.
fn sealed_copy(path: &std::path::Path) -> io::Result<File> {
    // SAFETY: memfd_create takes a C string and flags, and returns a new descriptor or -1.
    let fd = unsafe {
        libc::memfd_create(
            c"input".as_ptr(),
            libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
        )
    };
    if fd == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor that nothing else owns.
    let mut copy = unsafe { File::from_raw_fd(fd) };
    io::copy(&mut File::open(path)?, &mut copy)?;
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_GROW | libc::F_SEAL_SHRINK | libc::F_SEAL_SEAL;
    // SAFETY: fcntl and lseek take plain integers.
    unsafe {
        if libc::fcntl(fd, libc::F_ADD_SEALS, seals) == -1
            || libc::lseek(fd, 0, libc::SEEK_SET) == -1
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(copy)
}

/// Carries out one run in the confinement prepared for it, in a process of its own that is the child subreaper of
/// everything the program starts. Returns None if the harness went away meanwhile: nobody to answer.
pub(super) fn run(
    spec: &RunSpec,
    streams: Streams,
    mut confinement: Confinement,
    cgroup: Option<&RunCgroup>,
) -> Result<Option<RunResult>, String> {
    process::become_subreaper().map_err(|e| format!("failed to become a subreaper: {e}"))?;
    let (program, args) = spec.argv.split_first().ok_or("empty command line")?;
    let Streams { stdin, stdout } = streams;
    // The run owns its output file: it may change its mode (to lock the judge out, or to make it setuid). It is
    // set back through this descriptor once the run is over.
    let output = stdout
        .try_clone()
        .map_err(|e| format!("failed to keep the output file: {e}"))?;
    let supervisor = std::process::id() as libc::pid_t;
    let nested = confinement.nested();

    let mut command = Command::new(program);
    command
        .args(args)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&spec.workdir)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped());
    // SAFETY: this process has one thread until the program has started (it was forked from a single-threaded
    // worker), and the closure only enters the confinement prepared before.
    unsafe {
        command.pre_exec(move || confinement.enter(supervisor));
    }

    let start = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("failed to start {}: {e}", program.to_string_lossy()))?;
    let leader = child.id() as libc::pid_t;
    let run_over = Arc::new(AtomicBool::new(false));
    let stderr = child
        .stderr
        .take()
        .map(|pipe| drain(pipe, run_over.clone()));

    let mut meter = Meter::new(leader, nested, cgroup);
    let verdict = watch(leader, spec, start, &mut meter);
    if verdict != Watch::Exited {
        // SAFETY: kill takes plain integers; the leader is our unreaped child, so its PID is still ours.
        unsafe {
            libc::kill(-leader, libc::SIGKILL);
            libc::kill(leader, libc::SIGKILL);
        }
        if let Some(cgroup) = cgroup {
            cgroup.kill_all();
        }
    }
    let termination = wait_exit(leader);
    let wall = start.elapsed();
    // The leader is still a zombie here, so neither its PID nor its process group can be reused while the rest of
    // the tree is killed.
    process::kill_and_reap_all(Some(leader));
    if let Some(cgroup) = cgroup {
        cgroup.kill_all();
    }
    run_over.store(true, Ordering::SeqCst);
    output
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .map_err(|e| format!("failed to restore the output file's mode: {e}"))?;
    let (stderr, stderr_bytes) = stderr
        .map(|h| h.join().unwrap_or_default())
        .unwrap_or_default();
    if verdict == Watch::HarnessGone {
        return Ok(None);
    }
    // The cgroup counts the program alone, from just before exec; what this process reaped (the kernel's count
    // for its children) also holds, with namespaces, the relay and the init, and everything before exec.
    let (reaped_cpu, reaped_peak) = process::children_usage();
    let cpu = match cgroup {
        Some(_) => meter.cpu_total(),
        None => meter.cpu_total().max(reaped_cpu),
    };
    let peak_memory = meter.peak.max(reaped_peak);
    let oom_killed = cgroup.is_some_and(RunCgroup::oom_killed);
    // Measured through our own descriptor: the run may have replaced the file at that path.
    let stdout_bytes = output.metadata().map_or(0, |m| m.len());
    Ok(Some(RunResult {
        termination,
        cpu,
        wall,
        peak_memory,
        stdout_bytes,
        stderr,
        stderr_bytes,
        killed_for: match verdict {
            Watch::Killed(kind) => Some(kind),
            Watch::Exited if oom_killed => Some(LimitKind::Memory),
            Watch::Exited | Watch::HarnessGone => None,
        },
    }))
}

#[derive(Debug, PartialEq)]
enum Watch {
    Exited,
    Killed(LimitKind),
    HarnessGone,
}

/// Waits until the leader ends, a limit is crossed, or the harness goes away.
fn watch(leader: libc::pid_t, spec: &RunSpec, start: Instant, meter: &mut Meter) -> Watch {
    let limits = &spec.limits;
    let pidfd = pidfd_open(leader);
    loop {
        if process::peek_exit(leader).is_some() {
            return Watch::Exited;
        }
        let elapsed = start.elapsed();
        if elapsed >= limits.wall {
            return Watch::Killed(LimitKind::Wall);
        }
        let (cpu, memory) = meter.sample();
        if cpu.is_some_and(|cpu| cpu > limits.cpu) {
            return Watch::Killed(LimitKind::Cpu);
        }
        if memory > limits.memory {
            return Watch::Killed(LimitKind::Memory);
        }
        let timeout = TICK.min(limits.wall - elapsed);
        if wait_for_events(pidfd.as_ref(), timeout) == Event::HarnessGone {
            return Watch::HarnessGone;
        }
    }
}

/// Reads how much CPU time and memory the run has used so far: from its cgroup, which counts every process and
/// thread, and from the program's own process, whose peak resident memory the kernel keeps.
struct Meter<'a> {
    cgroup: Option<&'a RunCgroup>,
    program: Program,
    /// The highest memory seen so far.
    peak: Bytes,
    /// The most CPU time seen so far: a run killed in namespaces dies with its init, whose reaping of the program
    /// the kernel's accounting does not always reach us through.
    cpu_seen: Duration,
}

impl<'a> Meter<'a> {
    fn new(leader: libc::pid_t, nested: bool, cgroup: Option<&'a RunCgroup>) -> Self {
        Meter {
            cgroup,
            program: if nested {
                Program::below(leader)
            } else {
                Program::Leader(leader)
            },
            peak: Bytes(0),
            cpu_seen: Duration::ZERO,
        }
    }

    fn sample(&mut self) -> (Option<Duration>, Bytes) {
        let own = self.program.stat();
        let cpu = self
            .cgroup
            .and_then(RunCgroup::cpu)
            .or(own.as_ref().map(|s| s.cpu));
        let tree = self.cgroup.and_then(RunCgroup::memory).unwrap_or_default();
        let program = self.program.peak_rss().unwrap_or_default();
        self.peak = self.peak.max(tree).max(program);
        self.cpu_seen = self.cpu_seen.max(cpu.unwrap_or_default());
        (cpu, tree.max(program))
    }

    /// The CPU time of the run as far as it was seen, counted by the cgroup at the end where there is one.
    fn cpu_total(&self) -> Duration {
        let counted = self.cgroup.and_then(RunCgroup::cpu).unwrap_or_default();
        self.cpu_seen.max(counted)
    }
}

/// The process that runs the program: our child, or the grandchild of our child when it runs in namespaces.
enum Program {
    Leader(libc::pid_t),
    /// PID and parent; the parent is checked on every read, so a PID reused after the program ended is never
    /// mistaken for it.
    Nested(libc::pid_t, libc::pid_t),
    Gone,
}

impl Program {
    /// Finds the program two levels below the relay (see `namespace`). It has already exec'd by now, since the
    /// spawn returns only then; if it cannot be found, it has already ended.
    fn below(relay: libc::pid_t) -> Program {
        let init = process::children_of(relay).first().copied();
        let program =
            init.and_then(|init| Some((process::children_of(init).first().copied()?, init)));
        match program {
            Some((pid, init)) => Program::Nested(pid, init),
            None => Program::Gone,
        }
    }

    fn stat(&self) -> Option<ProcStat> {
        match *self {
            Program::Leader(pid) => ProcStat::read(pid),
            Program::Nested(pid, parent) => ProcStat::read(pid).filter(|s| s.ppid == parent),
            Program::Gone => None,
        }
    }

    fn peak_rss(&self) -> Option<Bytes> {
        match *self {
            Program::Leader(pid) => process::peak_rss(pid),
            Program::Nested(pid, _) => {
                let peak = process::peak_rss(pid);
                // Read the parent after the memory: if it still matches, the memory was the program's.
                self.stat().and(peak)
            }
            Program::Gone => None,
        }
    }
}

#[derive(PartialEq)]
enum Event {
    Other,
    HarnessGone,
}

/// Sleeps until the leader exits (when a pidfd is available), the harness closes its end of the worker's
/// requests, or the timeout passes.
fn wait_for_events(pidfd: Option<&OwnedFd>, timeout: Duration) -> Event {
    // Only a hang-up is asked for: no request comes while a run goes on.
    let mut fds = vec![libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: 0,
        revents: 0,
    }];
    if let Some(fd) = pidfd {
        fds.push(libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        });
    }
    // SAFETY: fds is a valid array of fds.len() pollfd structures.
    let ready = unsafe {
        libc::poll(
            fds.as_mut_ptr(),
            fds.len() as libc::nfds_t,
            timeout.as_millis() as i32,
        )
    };
    if ready > 0 && fds[0].revents & (libc::POLLHUP | libc::POLLERR) != 0 {
        Event::HarnessGone
    } else {
        Event::Other
    }
}

/// A pidfd for the leader, to sleep until it exits instead of waking up on every tick; None on old kernels.
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes plain integers and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative return is a descriptor that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Blocks until the leader has ended, without reaping it.
fn wait_exit(pid: libc::pid_t) -> Termination {
    loop {
        if let Some(termination) = process::peek_exit(pid) {
            return termination;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// How long stderr is still read once every process of the run is gone: whatever they wrote is in the pipe by
/// then. Only a process outside the run can hold the pipe open any longer (it can be handed one over a socket).
const DRAIN_GRACE: Duration = Duration::from_millis(100);

/// Reads the program's stderr on its own thread, so the program never blocks on a full pipe, keeping its beginning
/// and its end. It reads to the end, or until [`DRAIN_GRACE`] after `over` is set.
fn drain(pipe: ChildStderr, over: Arc<AtomicBool>) -> thread::JoinHandle<(Vec<u8>, u64)> {
    thread::spawn(move || {
        let mut pipe = pipe;
        let mut kept = Excerpt::default();
        let mut buf = [0u8; 64 * 1024];
        let mut deadline = None;
        loop {
            if over.load(Ordering::SeqCst) {
                let deadline = *deadline.get_or_insert_with(|| Instant::now() + DRAIN_GRACE);
                if Instant::now() >= deadline {
                    break;
                }
            }
            let mut fd = libc::pollfd {
                fd: pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut fd, 1, TICK.as_millis() as i32) } <= 0 {
                continue;
            }
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => kept.push(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        let total = kept.total();
        (kept.into_bytes(), total)
    })
}
