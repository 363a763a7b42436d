//! Thin, safe wrappers over the process system calls the supervisor needs: subreaping, finding and killing
//! every process of a run, reaping, and reading the kernel's accounting.

use crate::units::Bytes;
use std::fs::File;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::time::Duration;

/// A pidfd for `pid`, readable once it has exited: to sleep until then; None on old kernels.
pub(crate) fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes plain integers and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative return is a descriptor that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Makes orphaned descendants of this process its children instead of init's, so they can be found and reaped.
pub(crate) fn become_subreaper() -> io::Result<()> {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes a plain integer argument.
    check(unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

/// Marks every descriptor above standard error close-on-exec: those this process inherited from whoever started it
/// (a `make` jobserver's pipe, a file its caller opened for writing) then reach no program it starts. Only makes
/// system calls: safe in the child before exec.
pub(crate) fn close_inherited_on_exec() {
    // SAFETY: close_range takes plain integers; it only changes this process's descriptor flags.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if ret == 0 {
        return;
    }
    // Kernels before 5.11: each descriptor in turn, up to the limit on open files.
    // SAFETY: a zeroed rlimit is valid, and getrlimit writes only to it.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    let last = limit.rlim_cur.clamp(1024, 1 << 20) as libc::c_int;
    for fd in 3..last {
        // SAFETY: fcntl takes plain integers; a descriptor that is not open gives EBADF, which is fine.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
}

/// Closes every descriptor above standard error now, rather than leave them to exec: in the child before exec, where
/// closing the worker's descriptors (one per folder a Landlock rule names, hundreds) is then part of the start, not
/// of the program. On kernels before 5.11 they are left to exec, which closes them all the same (see
/// [`close_inherited_on_exec`]). Only makes a system call.
pub(crate) fn close_inherited() {
    // SAFETY: close_range takes plain integers; it only closes this process's descriptors.
    unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) };
}

/// Makes this process not dumpable: processes of the same user may then neither trace it nor open its memory or
/// its descriptors through /proc.
pub fn not_dumpable() {
    // SAFETY: prctl takes plain integers.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
}

/// Raises this process's limit on open files to the hard limit: a worker keeps a descriptor for each folder its
/// runs may read around the hidden ones, which may be thousands.
pub(crate) fn raise_open_files() {
    // SAFETY: a zeroed rlimit is valid; getrlimit writes to it and setrlimit reads it.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// This process's PID namespace, as the number of its /proc/self/ns/pid link ("pid:[4026531836]"): a PID names a
/// process only within its namespace.
pub(crate) fn pid_namespace() -> String {
    std::fs::read_link("/proc/self/ns/pid")
        .ok()
        .and_then(|link| {
            let link = link.to_string_lossy().into_owned();
            Some(link.strip_prefix("pid:[")?.strip_suffix(']')?.to_owned())
        })
        .unwrap_or_else(|| "0".into())
}

/// The name of a signal ("SIGSEGV"), or its number when it has none.
pub(crate) fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map(|s| s.as_str().to_owned())
        .unwrap_or_else(|_| format!("signal {signal}"))
}

/// This process's list of children, opened where its own entry in /proc is hidden after (PID 1 of a worker's
/// namespaces, see `namespace::hide_init`), and read again from its start at each look.
static OWN_CHILDREN: std::sync::OnceLock<std::fs::File> = std::sync::OnceLock::new();

/// Opens the list of children of this process, which must have a single thread, for every later look: before its
/// entry in /proc is hidden.
pub(crate) fn keep_own_children_list() -> io::Result<()> {
    let list = std::fs::File::open("/proc/thread-self/children")?;
    let _ = OWN_CHILDREN.set(list);
    Ok(())
}

/// The direct children of this process, as the kernel lists them in /proc.
pub(crate) fn children() -> Vec<libc::pid_t> {
    let own = std::process::id() as libc::pid_t;
    let Some(list) = OWN_CHILDREN.get() else {
        return children_of(own);
    };
    match read_whole(list) {
        Some(text) => text
            .split_whitespace()
            .filter_map(|pid| pid.parse().ok())
            .collect(),
        // Where the list cannot be read, each child's own entry still names its parent.
        None => scanned_children(own),
    }
}

/// The direct children of a process, from the kernel's list of each of its threads' children; on a kernel without
/// those lists, by looking for them among every process in /proc.
pub(crate) fn children_of(parent: libc::pid_t) -> Vec<libc::pid_t> {
    match listed_children(parent) {
        Some(children) => children,
        None => scanned_children(parent),
    }
}

/// The children in /proc/<parent>/task/*/children (a process forked by a thread, or reparented to one, is listed
/// under that thread); None where the kernel keeps no such lists.
fn listed_children(parent: libc::pid_t) -> Option<Vec<libc::pid_t>> {
    let tasks = std::fs::read_dir(format!("/proc/{parent}/task")).ok()?;
    let mut children = Vec::new();
    for task in tasks.flatten() {
        let path = task.path().join("children");
        let list = match read_small(&path.to_string_lossy()) {
            Some(list) => list,
            None if children.is_empty() && !path.exists() => return None,
            None => continue,
        };
        children.extend(
            list.split_whitespace()
                .filter_map(|pid| pid.parse::<libc::pid_t>().ok()),
        );
    }
    Some(children)
}

/// The children of `parent` found by reading the parent of every process in /proc.
fn scanned_children(parent: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            entry
                .ok()?
                .file_name()
                .to_str()?
                .parse::<libc::pid_t>()
                .ok()
        })
        .filter(|&pid| ProcStat::read(pid).is_some_and(|stat| stat.ppid == parent))
        .collect()
}

/// Kills every child of this process (and, through reparenting to this subreaper, every descendant), then reaps
/// them all, until none is left. `group` is the run's process group, killed first as a whole.
pub(crate) fn kill_and_reap_all(group: Option<libc::pid_t>) {
    loop {
        if let Some(group) = group {
            // SAFETY: kill takes plain integers; a group that is gone is fine.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
        // Most runs leave none: the list of children is read only where there is one to kill.
        if !has_children() {
            return;
        }
        for pid in children() {
            // SAFETY: as above. These are our own children, so their PIDs cannot be reused until we reap them.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        if reap_available() == Reaped::NoChildren {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[derive(PartialEq)]
enum Reaped {
    Some,
    NoChildren,
}

/// Reaps every child that has ended, without blocking.
fn reap_available() -> Reaped {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG | libc::__WALL) };
        match pid {
            0 => return Reaped::Some,
            -1 => {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Reaped::NoChildren;
            }
            _ => continue,
        }
    }
}

/// A pipe, closed on exec: (read end, write end).
pub(crate) fn pipe() -> io::Result<(File, File)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: two new descriptors that nothing else owns.
    Ok(unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) })
}

/// Kills any child this process still has: used by the harness on its way out, so that nothing a run started
/// outlives it even if a supervisor was itself killed.
pub(crate) fn kill_orphans() {
    if !children().is_empty() {
        kill_and_reap_all(None);
    }
}

/// Whether this process has a child, ended or not, as the kernel says in one call (without reaping any).
pub(crate) fn has_children() -> bool {
    // SAFETY: a zeroed siginfo_t is a valid value for waitid to fill in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waitid writes only to `info`.
        let ret = unsafe {
            libc::waitid(
                libc::P_ALL,
                0,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT | libc::__WALL,
            )
        };
        match ret {
            -1 if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) => continue,
            -1 => return io::Error::last_os_error().raw_os_error() != Some(libc::ECHILD),
            _ => return true,
        }
    }
}

/// How a process ended, read without reaping it (so its PID and process group stay ours).
pub(crate) fn peek_exit(pid: libc::pid_t) -> Option<super::Termination> {
    // SAFETY: a zeroed siginfo_t is a valid value for waitid to fill in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid writes only to `info`.
    let ret = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: si_pid and si_status are valid to read for SIGCHLD-type siginfo filled in by waitid.
    let (child, status) = unsafe { (info.si_pid(), info.si_status()) };
    if ret == -1 || child == 0 {
        return None;
    }
    Some(match info.si_code {
        libc::CLD_EXITED => super::Termination::Exited(status),
        _ => super::Termination::Signaled(status),
    })
}

/// CPU time and peak memory of every descendant this process has reaped.
pub(crate) fn children_usage() -> (Duration, Bytes) {
    // SAFETY: a zeroed rusage is valid, and getrusage writes only to it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    (cpu, Bytes(usage.ru_maxrss as u64 * Bytes::KIB))
}

/// The CPU time the calling thread has used since it was started, as the kernel counts it (to the nanosecond). Only
/// makes a system call: safe in the child before exec.
pub(crate) fn own_cpu_time() -> Duration {
    // SAFETY: a zeroed timespec is valid, and clock_gettime writes only to it.
    let mut time: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: as above. This clock always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// The fields of /proc/<pid>/stat and /proc/<pid>/status that the supervisor watches while a run goes on.
#[derive(Debug)]
pub(crate) struct ProcStat {
    pub ppid: libc::pid_t,
    /// User + system time of the process and of its children that it has reaped.
    pub cpu: Duration,
}

impl ProcStat {
    pub fn read(pid: libc::pid_t) -> Option<ProcStat> {
        let text = read_small(&format!("/proc/{pid}/stat"))?;
        // The command name may hold spaces and parentheses: the fields start after the last ')'.
        let fields: Vec<&str> = text[text.rfind(')')? + 2..].split(' ').collect();
        let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
        // Fields 4, 14, 15, 16, 17 of proc(5), counted from the state field (3) at index 0.
        let total = ticks(11)? + ticks(12)? + ticks(13)? + ticks(14)?;
        Some(ProcStat {
            ppid: fields.get(1)?.parse().ok()?,
            cpu: Duration::from_nanos(total.saturating_mul(1_000_000_000) / clock_ticks()),
        })
    }
}

/// Every process below this one (its children, theirs, and so on), as they are found; at most a number far above
/// the processes a run may have, which bounds the work of one look.
fn descendants() -> impl Iterator<Item = libc::pid_t> {
    let mut pending = children();
    std::iter::from_fn(move || {
        let pid = pending.pop()?;
        pending.extend(children_of(pid));
        Some(pid)
    })
    .take(4096)
}

/// The resident memory of every process below this one, summed: what a run holds where no cgroup counts it. Pages
/// two processes share (their libraries, memory a child inherited) count for each, which only errs on the safe
/// side.
pub(crate) fn descendants_resident() -> Bytes {
    let page = page_size();
    Bytes(
        descendants()
            .map(|pid| resident_pages(pid).saturating_mul(page))
            .fold(0, u64::saturating_add),
    )
}

/// The disk taken by files that processes below this one hold open after removing them from `device` (files no
/// walk of a folder finds, which keep their blocks until closed): each counted once.
pub(crate) fn deleted_files_held(device: u64) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut seen = std::collections::HashSet::new();
    let mut total = 0u64;
    for pid in descendants() {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            let deleted = std::fs::read_link(fd.path()).is_ok_and(|target| {
                target
                    .as_os_str()
                    .as_encoded_bytes()
                    .ends_with(b" (deleted)")
            });
            if !deleted {
                continue;
            }
            // The descriptor's link leads to the file itself, removed or not.
            let Ok(file) = std::fs::metadata(fd.path()) else {
                continue;
            };
            if file.is_file() && file.dev() == device && seen.insert(file.ino()) {
                total = total.saturating_add(file.blocks().saturating_mul(512));
            }
        }
    }
    total
}

/// The pages a process has resident now, from /proc/<pid>/statm (0 once it is gone).
fn resident_pages(pid: libc::pid_t) -> u64 {
    read_small(&format!("/proc/{pid}/statm"))
        .and_then(|text| text.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// The whole of a file kept open (a cgroup counter, a list in /proc), read from its start: in one read where it fits
/// the buffer, as every such file does. A read that does not fill the buffer has the whole file, and another from
/// where it ended would only make the kernel write the file out again to find that place (`memory.stat` is the
/// costliest file read per run).
pub(crate) fn read_whole(file: &std::fs::File) -> Option<String> {
    use std::os::unix::fs::FileExt;
    let mut text = Vec::new();
    let mut buf = [0; 8192];
    loop {
        let n = file.read_at(&mut buf, text.len() as u64).ok()?;
        text.extend_from_slice(&buf[..n]);
        if n < buf.len() {
            return String::from_utf8(text).ok();
        }
    }
}

/// A small file of /proc, read as it is looked at many times a second: opened and read whole, with none of the look
/// at its size that reading a whole file starts with (a /proc file's size says nothing).
fn read_small(path: &str) -> Option<String> {
    read_whole(&std::fs::File::open(path).ok()?)
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 { size as u64 } else { 4096 }
}

/// This process's own peak resident memory so far.
pub fn own_peak_memory() -> Bytes {
    peak_rss(std::process::id() as libc::pid_t).unwrap_or_default()
}

/// The peak resident memory of a live process so far (VmHWM).
pub(crate) fn peak_rss(pid: libc::pid_t) -> Option<Bytes> {
    Status::open(pid)?.peak_rss()
}

/// A process's /proc/<pid>/status, kept open to be read again at each look at a running program: one read from
/// its start, where opening it each time would walk its path and check access anew. It stays that process's for
/// as long as it is open.
pub(crate) struct Status(std::fs::File);

impl Status {
    pub fn open(pid: libc::pid_t) -> Option<Status> {
        std::fs::File::open(format!("/proc/{pid}/status"))
            .ok()
            .map(Status)
    }

    /// The peak resident memory of the process so far (VmHWM); None once it has ended.
    pub fn peak_rss(&self) -> Option<Bytes> {
        use std::os::unix::fs::FileExt;
        // The whole file is about 1.5 KiB, VmHWM in its first kilobyte.
        let mut buf = [0u8; 4096];
        let read = self.0.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..read]).ok()?;
        let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(Bytes(kib * Bytes::KIB))
    }
}

fn clock_ticks() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(9), "SIGKILL");
        assert_eq!(signal_name(200), "signal 200");
    }

    #[test]
    fn reads_own_stat() {
        let stat = ProcStat::read(std::process::id() as libc::pid_t).expect("own stat");
        // SAFETY: getppid has no preconditions.
        assert_eq!(stat.ppid, unsafe { libc::getppid() });
        assert!(peak_rss(std::process::id() as libc::pid_t).unwrap().0 > 0);
    }
}
