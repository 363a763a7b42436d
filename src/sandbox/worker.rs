//! A worker: a long-lived copy of this executable (`cpjudge __supervise`) that carries out runs one at a time.
//!
//! The harness keeps one worker per run it may have going at once, and sends it one [`Request`] at a time as a
//! JSON line on its stdin; the worker answers each with a [`Reply`] line on its stdout. What does not change from
//! run to run (its cgroup, the system-call filter, the folders a solution may read) it makes once. For each run it
//! forks a process of its own, which starts the program, watches it, kills and reaps everything it started, and
//! hands back what it measured: what that process reaps, the kernel's accounting of children and the subreaper of
//! the run's orphans all belong to one run only, and the worker's own set-up is never charged to the program.
//!
//! After each run the worker looks for anything the run left behind: a process (which only a run that killed its
//! supervisor can leave; the worker is a subreaper too, so it would find it), or processes and memory still in its
//! cgroup. If it finds any, it kills what it can, says so in its reply, and exits: the harness starts a new worker,
//! and the next run starts as on a fresh machine.
//!
//! The worker leaves the harness's process group, so that a Ctrl-C at the terminal reaches only the harness, and
//! the harness's exit closes the worker's stdin: a run going on then kills its program and cleans up, and the
//! worker ends.

use super::confine::{self, Reused};
use super::process;
use super::spec::{Reply, Request, RunResult};
use super::supervisor::{self, Streams};
use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};

/// The most a run's process may hand back: far more than any result (standard error is cut to 64 KiB before).
const RESULT_LIMIT: u64 = 16 << 20;

/// The worker's entry point. Returns the process exit code.
pub fn serve() -> i32 {
    // Not dumpable: processes of the same user (a run without namespaces, say) can then neither trace this one
    // nor open its pipes through /proc to forge a reply.
    // SAFETY: prctl and setpgid take plain integers.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        libc::setpgid(0, 0);
    }
    let subreaper = process::become_subreaper();
    let mut reused = Reused::default();
    let mut requests = io::stdin().lock();
    let mut replies = io::stdout().lock();
    loop {
        let mut line = String::new();
        match requests.read_line(&mut line) {
            Ok(0) | Err(_) => return 0,
            Ok(_) => {}
        }
        let reply = match (serde_json::from_str::<Request>(&line), &subreaper) {
            (Ok(request), Ok(())) => carry_out(&request, &mut reused),
            (Ok(request), Err(e)) => Reply::failed(
                request.id,
                format!("the worker cannot become a subreaper: {e}"),
            ),
            (Err(e), _) => Reply::failed(0, format!("bad run request: {e}")),
        };
        let sent = serde_json::to_writer(&mut replies, &reply).is_ok()
            && writeln!(replies).is_ok()
            && replies.flush().is_ok();
        if !sent || reply.retired.is_some() {
            return 0;
        }
    }
}

/// Carries out one run in a process of its own, and looks for what it left behind.
fn carry_out(request: &Request, reused: &mut Reused) -> Reply {
    let prepared = Streams::open(&request.spec)
        .and_then(|streams| Ok((streams, confine::prepare(request, reused)?)));
    let result = match prepared {
        Ok((streams, confinement)) => in_own_process(|| {
            supervisor::run(&request.spec, streams, confinement, reused.cgroup.as_ref())
        }),
        Err(e) => Err(e),
    };
    let result = match result {
        Ok(Some(result)) => Ok(result),
        // The harness is gone: the reply will not be read, and the worker ends at its next request.
        Ok(None) => Err("the harness went away during the run".into()),
        Err(e) => Err(e),
    };
    let retired = left_behind(reused);
    Reply {
        id: request.id,
        result,
        retired,
    }
}

/// Runs `run` in a forked child and returns what it returned. The child ends right after, without running any
/// destructor (what it holds belongs to the worker).
fn in_own_process(
    run: impl FnOnce() -> Result<Option<RunResult>, String>,
) -> Result<Option<RunResult>, String> {
    let (read, write) = pipe().map_err(|e| format!("failed to make a pipe: {e}"))?;
    let worker = std::process::id() as libc::pid_t;
    // SAFETY: the worker is single-threaded, so the child may go on as it likes.
    let pid = unsafe { libc::fork() };
    if pid == -1 {
        return Err(format!(
            "failed to fork a run: {}",
            io::Error::last_os_error()
        ));
    }
    if pid == 0 {
        drop(read);
        // A run never outlives its worker, killed outright or not.
        let alive = confine::die_with_parent(Some(worker)).is_ok();
        let result = if alive {
            run()
        } else {
            Err("failed to tie the run to its worker".into())
        };
        let mut out = File::from(write);
        let written = serde_json::to_writer(&mut out, &result).is_ok();
        // SAFETY: _exit ends the child at once.
        unsafe { libc::_exit(if written { 0 } else { 1 }) };
    }
    drop(write);
    let mut answer = Vec::new();
    let read = File::from(read).take(RESULT_LIMIT).read_to_end(&mut answer);
    let mut status = 0;
    // SAFETY: waitpid writes only to `status`.
    while unsafe { libc::waitpid(pid, &mut status, 0) } == -1
        && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    if read.is_err() || answer.is_empty() {
        return Err(format!(
            "the run's supervisor ended without a result ({})",
            describe_status(status)
        ));
    }
    serde_json::from_slice::<Result<Option<RunResult>, String>>(&answer)
        .map_err(|e| format!("the run's result is unreadable: {e}"))?
}

/// What a run left behind for the next one, which retires the worker; everything of it that can be killed is.
fn left_behind(reused: &Reused) -> Option<String> {
    let mut found = Vec::new();
    let strays = process::children_of(std::process::id() as libc::pid_t);
    if !strays.is_empty() {
        found.push(format!(
            "{} processes that outlived the run's supervisor",
            strays.len()
        ));
        process::kill_and_reap_all(None);
    }
    if let Some(cgroup) = &reused.cgroup
        && let Some(what) = cgroup.leftovers()
    {
        found.push(what);
        cgroup.kill_all();
    }
    (!found.is_empty()).then(|| found.join("; "))
}

fn describe_status(status: i32) -> String {
    if libc::WIFSIGNALED(status) {
        format!("killed by {}", process::signal_name(libc::WTERMSIG(status)))
    } else {
        format!("exit code {}", libc::WEXITSTATUS(status))
    }
}

/// A pipe whose ends are closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both are new descriptors that nothing else owns.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
