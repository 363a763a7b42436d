//! One run, carried out by a worker (see `worker`): it starts the program in its confinement, watches its limits
//! and reads its standard error meanwhile, kills and reaps everything the program started, and measures what it
//! used.

use super::cgroup::RunCgroup;
use super::confine::Confinement;
use super::excerpt::Excerpt;
use super::exec_clock::{self, Counter, ExecClock};
use super::namespace;
use super::process::{self, ProcStat};
use super::spawn::{self, StartCost};
use super::spec::{LimitKind, Limits, RunResult, RunSpec, Termination};
use crate::units::Bytes;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

/// How often the worker looks at a running program's CPU time and memory. The kernel does the accounting; this
/// only decides how soon after crossing a limit the program is stopped.
const TICK: Duration = Duration::from_millis(10);

/// How often the worker adds up what a run keeps in a working directory on disk, a walk of its folder.
const DISK_TICK: Duration = Duration::from_millis(50);

/// The run's standard input and output, opened by the harness and handed to the worker with the request.
pub(super) struct Streams {
    pub stdin: File,
    pub stdout: File,
}

/// Where a run goes on: the worker's cgroup, whether the worker is PID 1 of the run's namespaces, and the user the
/// program is there, if not the worker's.
pub(super) struct Place<'a> {
    pub cgroup: Option<&'a RunCgroup>,
    pub namespaces: bool,
    pub owner: Option<libc::uid_t>,
    /// How the run opens a counter of its CPU time from exec, where it does.
    pub counter: Option<&'static Counter>,
}

/// Carries out one run in the confinement prepared for it. The worker is the subreaper of everything the program
/// starts (or, in its namespaces, their init). Returns None if the harness went away meanwhile: nobody to answer.
pub(super) fn run(
    spec: &RunSpec,
    streams: Streams,
    confinement: Confinement,
    place: Place<'_>,
) -> Result<Option<RunResult>, String> {
    let program = spec.argv.first().ok_or("empty command line")?;
    let Streams { stdin, stdout } = streams;
    // The run owns its output file: it may change its mode (to lock the judge out, or to make it setuid). It is
    // set back through this descriptor once the run is over. An output that is a pipe (one side of an interactive
    // dialogue) is not kept: a copy here would hold the pipe open after the program closed its end, and the other
    // side would never see the end of what it wrote.
    let is_file = stdout.metadata().is_ok_and(|m| m.is_file());
    let output = match is_file {
        true => Some(
            stdout
                .try_clone()
                .map_err(|e| format!("failed to keep the output file: {e}"))?,
        ),
        false => None,
    };
    // A program made a user of its own may open its output again by name (/dev/stdout): it is its own while it
    // runs, and root's again after.
    if let (Some(owner), Some(output)) = (place.owner, &output) {
        std::os::unix::fs::fchown(output, Some(owner), Some(owner))
            .map_err(|e| format!("failed to hand the output file to the run: {e}"))?;
    }
    let worker = std::process::id() as libc::pid_t;
    let cgroup = place.cgroup;

    let mut program = spawn::Program::new(&spec.argv, &spec.env, &spec.workdir)
        .map_err(|e| format!("failed to start {}: {e}", program.to_string_lossy()))?;
    let children_before = process::children_usage().0;
    let start = Instant::now();
    let spawn::Started {
        pid: leader,
        stderr,
        start: start_cost,
        clock,
    } = program
        .start(&stdin, &stdout, &confinement, worker, place.counter)
        .map_err(|e| format!("failed to start {}: {e}", program.name()))?;
    // Closed here, so that only the program holds its output.
    drop((stdin, stdout, confinement));
    let mut stderr = Stderr::new(Some(stderr));

    // In the namespaces, a solution's folder is a file system in memory, and so is /dev/shm: what it keeps there is
    // memory it holds.
    let in_memory = match (place.namespaces, spec.scratch) {
        (true, Some(_)) => vec![spec.workdir.as_path(), std::path::Path::new("/dev/shm")],
        (true, None) => vec![std::path::Path::new("/dev/shm")],
        (false, _) => Vec::new(),
    };
    let mut meter = Meter::new(leader, cgroup, in_memory, start_cost);
    // A folder of the run's own in memory has its size set by the kernel; one on disk is looked at as it goes.
    let disk = (spec.scratch.is_none() || !place.namespaces).then_some(spec.workdir.as_path());
    let verdict = watch(leader, spec, start, &mut meter, disk, &mut stderr);
    // The leader is not reaped yet, so neither its PID nor its process group can be reused while its group is
    // killed.
    // SAFETY: kill takes plain integers; the leader is our unreaped child, so its PID is still ours.
    unsafe {
        libc::kill(-leader, libc::SIGKILL);
        libc::kill(leader, libc::SIGKILL);
    }
    // In the namespaces every process of the run is killed below, as the worker kills every other process there;
    // outside them, a process that left the group is still in the cgroup. (Either way the worker looks at the
    // cgroup again before its next run.)
    if let Some(cgroup) = cgroup.filter(|_| !place.namespaces) {
        cgroup.kill_all();
    }
    let (termination, leader_peak) = reap(leader);
    let wall = start.elapsed();
    // What is left of the run: in the namespaces, every other process in them; outside, the worker's children
    // (orphans come to it, a subreaper), killed until none is left.
    if place.namespaces {
        namespace::kill_all();
    } else {
        process::kill_and_reap_all(None);
    }
    if let Some(output) = &output {
        if place.owner.is_some() {
            std::os::unix::fs::fchown(output, Some(0), Some(0))
                .map_err(|e| format!("failed to take the output file back: {e}"))?;
        }
        output
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| format!("failed to restore the output file's mode: {e}"))?;
    }
    let (stderr, stderr_bytes) = stderr.finish();
    if verdict == Watch::HarnessGone {
        return Ok(None);
    }
    // What the worker reaped in this run (the kernel's count for its children) holds the program's start too,
    // from its clone: that is taken off, as the meter takes it off what it reads.
    let reaped_cpu = process::children_usage()
        .0
        .saturating_sub(children_before)
        .saturating_sub(start_cost.total);
    let counted = match cgroup {
        Some(_) => meter.cpu_total(),
        None => meter.cpu_total().max(reaped_cpu),
    };
    // Every process of the run has ended, and the counter from exec holds them all. A run killed for its CPU time
    // keeps the count it was killed by.
    let cpu = match verdict {
        Watch::Killed(LimitKind::Cpu) => counted,
        _ => exec_clock::charge(counted, clock.as_ref().and_then(ExecClock::read)),
    };
    // The program is started by a child that shares the worker's memory until exec, and the kernel keeps that
    // memory's high-water mark as the child's own (its ru_maxrss): a peak no higher than the worker's is the
    // worker's, not the program's, whose memory the cgroup or the samples measured.
    let leader_peak = match worker_peak_reaches(leader_peak) {
        true => Bytes(0),
        false => leader_peak,
    };
    let peak_memory = meter.peak.max(leader_peak);
    let oom_killed = cgroup.is_some_and(RunCgroup::oom_killed);
    // Measured through our own descriptor: the run may have replaced the file at that path.
    // A pipe's bytes are counted by the judge, which reads it.
    let stdout_bytes = output
        .as_ref()
        .and_then(|o| o.metadata().ok())
        .map_or(0, |m| m.len());
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
        kept_out: false,
    }))
}

/// Opens the worker's own /proc status for its runs, before its entry in /proc is hidden (`namespace::hide_init`).
pub(super) fn keep_own_status() {
    own_status();
}

/// Whether the worker's own peak memory is `peak` or more. It only grows: it is read again (the kernel writes out
/// the whole of /proc's status for it, 7 us) only where the peak last read is lower.
fn worker_peak_reaches(peak: Bytes) -> bool {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST_READ: AtomicU64 = AtomicU64::new(0);
    if LAST_READ.load(Ordering::Relaxed) >= peak.0 {
        return true;
    }
    // Unknown: taken as the worker's, which leaves the program's peak to what the cgroup or the samples measured.
    let Some(now) = own_status().and_then(process::Status::peak_rss) else {
        return true;
    };
    LAST_READ.fetch_max(now.0, Ordering::Relaxed);
    now >= peak
}

/// The worker's own /proc status, opened at its first run (or before, see [`keep_own_status`]) and kept. (Not
/// `getrusage`: its peak holds the memory of the process the worker was forked as, before its exec.)
fn own_status() -> Option<&'static process::Status> {
    static OWN: std::sync::OnceLock<Option<process::Status>> = std::sync::OnceLock::new();
    // SAFETY: getpid has no preconditions.
    OWN.get_or_init(|| process::Status::open(unsafe { libc::getpid() }))
        .as_ref()
}

/// Reaps the leader, once it has ended or been killed: how it ended, and the peak memory of it and of every
/// process it reaped.
fn reap(leader: libc::pid_t) -> (Termination, Bytes) {
    // SAFETY: a zeroed rusage is valid, and wait4 writes only to `status` and `usage`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut status = 0;
    // SAFETY: as above.
    while unsafe { libc::wait4(leader, &mut status, libc::__WALL, &mut usage) } == -1 {
        if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    let termination = if libc::WIFSIGNALED(status) {
        Termination::Signaled(libc::WTERMSIG(status))
    } else {
        Termination::Exited(libc::WEXITSTATUS(status))
    };
    (termination, Bytes(usage.ru_maxrss as u64 * Bytes::KIB))
}

#[derive(Debug, PartialEq)]
enum Watch {
    Exited,
    Killed(LimitKind),
    HarnessGone,
}

/// Waits until the leader ends, a limit is crossed, or the harness goes away, reading standard error meanwhile.
fn watch(
    leader: libc::pid_t,
    spec: &RunSpec,
    start: Instant,
    meter: &mut Meter,
    disk: Option<&std::path::Path>,
    stderr: &mut Stderr,
) -> Watch {
    let limits = &spec.limits;
    // To sleep until the leader exits instead of waking up on every tick.
    let pidfd = process::pidfd_open(leader);
    // The first look a tick after the start: a program that has ended by then is measured by what the kernel kept
    // of it when it was reaped, and looking at one that has just started tells nothing.
    let mut next_sample = start + TICK;
    let mut next_disk = start + DISK_TICK;
    loop {
        if process::peek_exit(leader).is_some() {
            return Watch::Exited;
        }
        let now = Instant::now();
        let elapsed = now - start;
        if elapsed >= limits.wall {
            return Watch::Killed(LimitKind::Wall);
        }
        if now >= next_sample {
            let (cpu, memory) = meter.sample();
            if cpu.is_some_and(|cpu| cpu > limits.cpu) {
                return Watch::Killed(LimitKind::Cpu);
            }
            if memory > limits.memory {
                return Watch::Killed(LimitKind::Memory);
            }
            next_sample = now + TICK;
        }
        if let Some(workdir) = disk
            && now >= next_disk
        {
            // What its folder holds, and what its processes removed from it but hold open.
            let (bytes, files) = crate::untrusted::usage(workdir, Limits::FILES + 1);
            let held = std::fs::metadata(workdir)
                .map(|m| process::deleted_files_held(std::os::unix::fs::MetadataExt::dev(&m)))
                .unwrap_or(0);
            let kept = bytes.saturating_add(held);
            if kept > limits.disk.0 || files > Limits::FILES {
                return Watch::Killed(LimitKind::Disk);
            }
            // A solution's files count as its memory, as they do where its folder is in memory.
            if spec.scratch.is_some() {
                meter.files = Bytes(kept);
            }
            next_disk = now + DISK_TICK;
        }
        let timeout = (next_sample - now).min(limits.wall - elapsed);
        if wait_for_events(pidfd.as_ref(), stderr, timeout) == Event::HarnessGone {
            return Watch::HarnessGone;
        }
    }
}
/// Reads how much CPU time and memory the run has used so far: from its cgroup, which counts every process and
/// thread, or without one from every process of the run, summed; and from the program's own process, whose peak
/// resident memory the kernel keeps. The program's start, before its exec, is not the program's: its CPU time is
/// taken off each count, as far as that count holds it.
struct Meter<'a> {
    cgroup: Option<&'a RunCgroup>,
    program: libc::pid_t,
    /// The program's /proc status, opened at the first look and kept open for its peak memory at each: a run
    /// that ends before the first look is measured by what the kernel kept of it when it was reaped.
    status: std::cell::OnceCell<Option<process::Status>>,
    start: StartCost,
    /// The file systems in memory the run writes in (its folder, its /dev/shm), where no cgroup counts them.
    in_memory: Vec<&'a std::path::Path>,
    /// What a solution keeps in its folder on disk, as last added up: memory too.
    files: Bytes,
    /// The highest memory seen so far.
    peak: Bytes,
    /// The most CPU time seen so far.
    cpu_seen: Duration,
}

impl<'a> Meter<'a> {
    fn new(
        program: libc::pid_t,
        cgroup: Option<&'a RunCgroup>,
        in_memory: Vec<&'a std::path::Path>,
        start: StartCost,
    ) -> Self {
        Meter {
            cgroup,
            program,
            status: std::cell::OnceCell::new(),
            start,
            in_memory,
            files: Bytes(0),
            peak: Bytes(0),
            cpu_seen: Duration::ZERO,
        }
    }

    fn sample(&mut self) -> (Option<Duration>, Bytes) {
        let cpu = self.cgroup_cpu().or_else(|| {
            ProcStat::read(self.program).map(|s| s.cpu.saturating_sub(self.start.total))
        });
        // Every process of the run is a descendant of the worker: it is their subreaper (or, in its namespaces,
        // their init).
        // Without a cgroup, the files the run keeps in memory count too, as the cgroup counts them.
        let tree = match self.cgroup {
            Some(cgroup) => cgroup.memory().unwrap_or_default(),
            None => Bytes(
                self.in_memory
                    .iter()
                    .map(|fs| used_space(fs))
                    .fold(process::descendants_resident().0, u64::saturating_add),
            ),
        };
        let tree = Bytes(tree.0.saturating_add(self.files.0));
        let program = self
            .status
            .get_or_init(|| process::Status::open(self.program))
            .as_ref()
            .and_then(process::Status::peak_rss)
            .unwrap_or_default();
        self.peak = self.peak.max(tree).max(program);
        self.cpu_seen = self.cpu_seen.max(cpu.unwrap_or_default());
        (cpu, tree.max(program))
    }

    /// The CPU time of the run as far as it was seen, counted by the cgroup at the end where there is one.
    fn cpu_total(&self) -> Duration {
        self.cpu_seen.max(self.cgroup_cpu().unwrap_or_default())
    }

    /// The CPU time the cgroup counted for the run, without what it counted of the start.
    fn cgroup_cpu(&self) -> Option<Duration> {
        let counted = self.cgroup.and_then(RunCgroup::cpu)?;
        Some(counted.saturating_sub(self.start.in_cgroup))
    }
}

/// What a file system holds now, by statfs (its used blocks): 0 if it cannot be asked.
fn used_space(path: &std::path::Path) -> u64 {
    use std::os::unix::ffi::OsStrExt;
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: a zeroed statfs is valid, and statfs writes only to it.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above, with a C string.
    if unsafe { libc::statfs(name.as_ptr(), &mut stat) } == -1 {
        return 0;
    }
    (stat.f_blocks.saturating_sub(stat.f_bfree) as u64).saturating_mul(stat.f_bsize as u64)
}

#[derive(PartialEq)]
enum Event {
    Other,
    HarnessGone,
}

/// Sleeps until the leader exits (when a pidfd is available), standard error has something to read, the harness
/// closes its end of the worker's requests, or the timeout passes; reads what standard error has.
fn wait_for_events(pidfd: Option<&OwnedFd>, stderr: &mut Stderr, timeout: Duration) -> Event {
    // Only a hang-up is asked for on the requests: no request comes while a run goes on.
    let mut fds = vec![libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLRDHUP,
        revents: 0,
    }];
    if let Some(pipe) = &stderr.pipe {
        fds.push(libc::pollfd {
            fd: pipe.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        });
    }
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
            // Rounded up: a wait of a fraction of a millisecond must not return at once and spin.
            timeout
                .as_micros()
                .div_ceil(1000)
                .try_into()
                .unwrap_or(i32::MAX),
        )
    };
    if ready > 0 && stderr.pipe.is_some() && fds[1].revents != 0 {
        stderr.read_available();
    }
    if ready > 0 && fds[0].revents & (libc::POLLHUP | libc::POLLRDHUP | libc::POLLERR) != 0 {
        Event::HarnessGone
    } else {
        Event::Other
    }
}

/// How long standard error is still read once every process of the run is gone: whatever they wrote is in the
/// pipe by then. Only a process outside the run can hold the pipe open any longer (it can be handed one over a
/// socket).
const DRAIN_GRACE: Duration = Duration::from_millis(100);

/// How many reads of standard error (8 KiB each) one look at it makes at most.
const READS_BETWEEN_LOOKS: usize = 32;

/// The program's standard error, read as it comes, so the program never blocks on a full pipe, keeping its
/// beginning and its end.
struct Stderr {
    pipe: Option<File>,
    kept: Excerpt,
}

impl Stderr {
    fn new(pipe: Option<File>) -> Stderr {
        if let Some(pipe) = &pipe {
            // The reading end of a pipe just made, whose only status flag is the one set here.
            // SAFETY: fcntl takes plain integers on a descriptor we own.
            unsafe { libc::fcntl(pipe.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
        }
        Stderr {
            pipe,
            kept: Excerpt::default(),
        }
    }

    /// Reads what the pipe holds now; closes it at its end.
    fn read_available(&mut self) {
        let Some(pipe) = &mut self.pipe else {
            return;
        };
        // Small: it is cleared at each call, and most runs write nothing there.
        let mut buf = [0u8; 8 * 1024];
        // At most so many reads before the watch looks at the limits again: writers that keep the pipe full (several
        // processes writing in a loop) would otherwise keep this reading for ever.
        for _ in 0..READS_BETWEEN_LOOKS {
            match pipe.read(&mut buf) {
                Ok(0) => {
                    self.pipe = None;
                    return;
                }
                Ok(n) => self.kept.push(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.pipe = None;
                    return;
                }
            }
        }
    }

    /// Reads the rest, once the run is over: to the end, or until [`DRAIN_GRACE`] has passed.
    fn finish(mut self) -> (Vec<u8>, u64) {
        let deadline = Instant::now() + DRAIN_GRACE;
        while let Some(pipe) = &self.pipe {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let mut fd = libc::pollfd {
                fd: pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut fd, 1, left.as_millis() as i32 + 1) } > 0 {
                self.read_available();
            }
        }
        let total = self.kept.total();
        (self.kept.into_bytes(), total)
    }
}
