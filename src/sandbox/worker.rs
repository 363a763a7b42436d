//! A worker: a long-lived copy of this executable (`cpjudge __supervise`) that carries out runs one at a time, with
//! the isolation layers the harness sets it up with.
//!
//! The harness keeps one worker per run it may have going at once. Its first message to a worker is its set-up, the
//! layers; its second, the folders hidden from solutions (it may start a worker before it knows either, see
//! `runner::prestart`, and send each when it does: the layers as soon as the command has begun, the folders once it
//! knows its problem). It sends each request as one message on a socket that is the worker's standard input,
//! with the run's standard input and output attached as descriptors (in its namespaces, the worker sees the file system
//! read-only, and opens nothing for a run itself). The worker answers each with a [`Reply`] line on its standard
//! output as soon as every process of the run is gone, then cleans up after the run while the harness judges its
//! result, and says it has with a [`Settled`] line; only then does it read the next request, which the harness may
//! have sent meanwhile. What does not change from run to run it makes once: its cgroup and its namespaces when it
//! is set up, with nothing left that exec could grant capabilities from, and the system-call filter; then, once it
//! knows the hidden folders, the folders a solution may read around them (while the harness prepares the first
//! run). For each run it starts the program (see `spawn`), watches it, kills and reaps everything it started, and
//! hands back what it measured: it is the subreaper of every process of its runs (in its namespaces, their init), and
//! its own set-up is never charged to a program.
//!
//! After each run the worker looks for anything the run left behind: a process, processes or memory still in its
//! cgroup, and in its namespaces a file in /dev/shm, a message queue, a System V object or a mount. If it finds
//! any, it kills what it can, says so in its [`Settled`] line, and exits: the harness starts a new worker, and the
//! next run starts as on a fresh machine.
//!
//! Two processes make a worker. The first, the *keeper*, makes the cgroup, enters the namespaces, and forks the
//! second, which carries out the runs (in the namespaces, as PID 1 of a new PID namespace). The keeper holds a CPU
//! counter open while the worker lives, so that its runs do not wait for the kernel to switch counters on (see
//! `exec_clock`); it waits for the worker to end, kills whatever of its runs is left (it is a subreaper too), and
//! removes the cgroup. Both leave the harness's process group, so that a Ctrl-C at the terminal reaches only the
//! harness, and the harness's exit closes the worker's requests: a run going on then kills its program and cleans
//! up, and the worker ends.

use super::confine::{self, Reused};
use super::exec_clock::{self, WarmUp};
use super::isolation::Layers;
use super::namespace::Workdir;
use super::process;
use super::spec::{HiddenFolders, Reply, Request, RunResult, Settled, Setup};
use super::supervisor::{self, Place, Streams};
use nix::sys::socket::{ControlMessageOwned, MsgFlags, recvmsg};
use std::fs::File;
use std::io::{self, IoSliceMut, Write};
use std::os::fd::{FromRawFd, RawFd};

/// The largest request taken: far more than any run's command line, environment and hidden folders.
const REQUEST_LIMIT: usize = 1 << 20;

/// The worker's entry point (`cpjudge __supervise`). Returns the process exit code.
pub fn serve() -> i32 {
    // Not dumpable since its first instruction (`main`): processes of the same user (a run without namespaces, say)
    // can neither trace this one nor open its descriptors through /proc to forge a reply.
    // A session of its own, with no controlling terminal: its runs, which it starts in a process group each, can
    // neither read from nor type into the judge's terminal, and a Ctrl-C there reaches the harness alone. One
    // session for all its runs: a session made per run cost each its own scheduling group (6 us a run).
    // SAFETY: setsid and setpgid take no pointers.
    if unsafe { libc::setsid() } == -1 {
        // Already the leader of a process group (a worker started by hand): its own group at least.
        unsafe { libc::setpgid(0, 0) };
    }
    process::close_inherited_on_exec();
    process::raise_open_files();
    // Its layers come first, as soon as the harness knows them: its namespaces, cgroup and filter are then made
    // while the harness looks for its problem and tests.
    let mut buf = vec![0u8; REQUEST_LIMIT];
    let layers = match receive_plain::<Setup>(&mut buf, "set-up") {
        Ok(None) => return 0,
        Ok(Some(setup)) => setup.layers.parse::<Layers>().map_err(|e| e.to_string()),
        Err(e) => Err(e),
    };
    let layers = match layers {
        Ok(layers) => layers,
        // Nothing made: the first request is answered with why.
        Err(e) => return carry_out_runs(Err(e), WarmUp::over(), &mut buf),
    };
    let subreaper = process::become_subreaper()
        .map_err(|e| format!("the worker cannot become a subreaper: {e}"));
    let reused = subreaper.and_then(|()| Reused::make(layers));
    let keeper = std::process::id() as libc::pid_t;
    // The pipe of the keeper's warm-up of counters (see `exec_clock`): without one, runs open counters at once.
    let warm_up = process::pipe().ok();
    // SAFETY: this process is single-threaded, so the child may go on as it likes.
    match unsafe { libc::fork() } {
        -1 => carry_out_runs(
            Err(format!(
                "failed to fork the worker: {}",
                io::Error::last_os_error()
            )),
            WarmUp::over(),
            &mut buf,
        ),
        0 => {
            // The keeper's end is closed first: a process started here with it would keep the warm-up from ending.
            let warm_up = match warm_up {
                Some((read, write)) => {
                    drop(write);
                    WarmUp::until_closed(read)
                }
                None => WarmUp::over(),
            };
            let worker = reused.and_then(|reused| start(reused, keeper));
            let code = carry_out_runs(worker, warm_up, &mut buf);
            // The keeper owns what was made for the worker, and cleans it up: nothing of it is dropped here.
            // SAFETY: _exit ends the process at once.
            unsafe { libc::_exit(code) }
        }
        worker => keep(worker, reused, warm_up.map(|(_read, write)| write)),
    }
}

/// The keeper's part: keeps counters on for the worker's runs, waits for the worker, then kills what is left of its
/// runs and removes its cgroup.
fn keep(worker: libc::pid_t, reused: Result<Reused, String>, warm_up: Option<File>) -> i32 {
    // The requests and replies are the worker's alone.
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        use std::os::fd::AsRawFd;
        // SAFETY: dup2 takes plain integers.
        unsafe {
            libc::dup2(null.as_raw_fd(), libc::STDIN_FILENO);
            libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO);
        }
    }
    // The worker's start goes on meanwhile: the first counter opened where none is may wait tens of milliseconds.
    let counter = warm_up.and_then(exec_clock::warm_up);
    let mut status = 0;
    // SAFETY: waitpid writes only to `status`.
    while unsafe { libc::waitpid(worker, &mut status, 0) } == -1
        && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    drop(counter);
    process::kill_and_reap_all(None);
    drop(reused);
    0
}

/// In the worker, before its first run: ties it to its keeper, and sets it up in what the keeper made.
fn start(mut reused: Reused, keeper: libc::pid_t) -> Result<Reused, String> {
    // In the namespaces the keeper is outside the worker's PID namespace, where getppid() says 0.
    let parent = (!reused.namespaces()).then_some(keeper);
    confine::die_with_parent(parent)
        .map_err(|e| format!("cannot tie the worker to its keeper: {e}"))?;
    confine::drop_exec_capabilities();
    reused.start_worker()?;
    Ok(reused)
}

/// Takes the folders hidden from solutions, then answers requests until the harness closes them, or a run leaves
/// something behind; with a worker that could not be set up, answers the first with why. Returns the exit code.
fn carry_out_runs(worker: Result<Reused, String>, mut warm_up: WarmUp, buf: &mut [u8]) -> i32 {
    let mut replies = io::stdout().lock();
    let mut worker = match receive_plain::<HiddenFolders>(buf, "list of hidden folders") {
        Ok(None) => return 0,
        // The rules around them are made while the harness prepares the first run.
        Ok(Some(folders)) => worker.map(|mut reused| {
            reused.hide(&folders.hidden);
            reused
        }),
        Err(e) => Err(e),
    };
    loop {
        let (request, streams, reused) = match (request(buf), &mut worker) {
            (Ok(None), _) => return 0,
            (Ok(Some((request, streams))), Ok(reused)) => (request, streams, reused),
            (Ok(Some((request, _))), Err(e)) => {
                answer(&mut replies, &Reply::failed(request.id, e.clone()));
                return 0;
            }
            (Err(e), _) => {
                answer(
                    &mut replies,
                    &Reply::failed(0, format!("bad run request: {e}")),
                );
                return 0;
            }
        };
        // The reply goes out as soon as every process of the run is gone, so that the harness looks at the output
        // while the worker cleans up. The next request may come meanwhile: it is read once the worker has said it
        // has cleaned up, and left unread if the worker takes no further run.
        let (reply, aftermath) = carry_out(&request, streams, reused, &mut warm_up);
        if !answer(&mut replies, &reply) {
            return 0;
        }
        let retired = aftermath.settle(&request, reused);
        let ended = retired.is_some();
        if !answer(&mut replies, &Settled { retired }) || ended {
            return 0;
        }
    }
}

/// Writes one line of the replies; false if the harness is gone.
fn answer(replies: &mut impl Write, message: &impl serde::Serialize) -> bool {
    serde_json::to_writer(&mut *replies, message).is_ok()
        && writeln!(replies).is_ok()
        && replies.flush().is_ok()
}

/// The next request and the run's standard streams, or None once the harness has closed the requests.
fn request(buf: &mut [u8]) -> Result<Option<(Request, Streams)>, String> {
    let Some((message, fds)) = receive(buf)? else {
        return Ok(None);
    };
    let request: Request = serde_json::from_slice(message).map_err(|e| e.to_string())?;
    let mut fds = fds.into_iter();
    match (fds.next(), fds.next(), fds.next()) {
        (Some(stdin), Some(stdout), None) => Ok(Some((request, Streams { stdin, stdout }))),
        _ => Err("a request comes with its standard input and output, and nothing else".into()),
    }
}

/// A message from the harness, and the descriptors sent with it.
type Message<'a> = (&'a [u8], Vec<File>);

/// The next message, one that comes without descriptors, or None once the harness has closed the requests.
fn receive_plain<T: serde::de::DeserializeOwned>(
    buf: &mut [u8],
    what: &str,
) -> Result<Option<T>, String> {
    match receive(buf)? {
        None => Ok(None),
        Some((message, fds)) if fds.is_empty() => serde_json::from_slice(message)
            .map(Some)
            .map_err(|e| format!("bad {what}: {e}")),
        Some(_) => Err(format!("the {what} comes without descriptors")),
    }
}

/// The next message, or None once the harness has closed the requests.
fn receive(buf: &mut [u8]) -> Result<Option<Message<'_>>, String> {
    let mut iov = [IoSliceMut::new(buf)];
    let mut space = nix::cmsg_space!([RawFd; 2]);
    let message = loop {
        match recvmsg::<()>(
            libc::STDIN_FILENO,
            &mut iov,
            Some(&mut space),
            MsgFlags::MSG_CMSG_CLOEXEC,
        ) {
            Err(nix::errno::Errno::EINTR) => continue,
            other => break other.map_err(|e| e.to_string())?,
        }
    };
    let mut fds = Vec::new();
    for message in message.cmsgs().map_err(|e| e.to_string())? {
        if let ControlMessageOwned::ScmRights(received) = message {
            // SAFETY: descriptors just received, which nothing else owns.
            fds.extend(
                received
                    .into_iter()
                    .map(|fd| unsafe { File::from_raw_fd(fd) }),
            );
        }
    }
    let (bytes, truncated) = (
        message.bytes,
        message
            .flags
            .intersects(MsgFlags::MSG_TRUNC | MsgFlags::MSG_CTRUNC),
    );
    if bytes == 0 && fds.is_empty() {
        return Ok(None);
    }
    if truncated {
        return Err("the request is too long".into());
    }
    Ok(Some((&buf[..bytes], fds)))
}

/// Carries out one run, up to where every process of it is gone: what is left to do after it is in the
/// [`Aftermath`].
fn carry_out(
    request: &Request,
    streams: Streams,
    reused: &mut Reused,
    warm_up: &mut WarmUp,
) -> (Reply, Aftermath) {
    let spec = &request.spec;
    let run_as = reused.run_user(spec);
    let mut workdir = None;
    let result = (|| {
        // What the run reaches by name, where it runs as a user of its own.
        if run_as.is_some() {
            reused.expose(&request.reach, spec.scratch.is_some())?;
        }
        // Unmounted when the run is over. A solution's run held by the worker's holder writes its output through
        // the holder.
        let mut streams = streams;
        let mut kept_out = false;
        workdir = match reused.hold(spec, run_as, &streams.stdout) {
            Some(held) => {
                let (workdir, output) =
                    held.map_err(|e| format!("cannot make the run's folder writable: {e}"))?;
                if let Some(output) = output {
                    streams.stdout = output;
                }
                kept_out = true;
                Some(workdir)
            }
            _ if reused.namespaces() => Some(
                Workdir::mount(&spec.workdir, spec.scratch, run_as)
                    .map_err(|e| format!("cannot make the run's folder writable: {e}"))?,
            ),
            _ => None,
        };
        // Our own mounts are no change.
        reused.mounts_changed();
        let confinement =
            confine::prepare(request, reused, std::os::fd::AsFd::as_fd(&streams.stdout))?;
        let place = Place {
            cgroup: reused.cgroup.as_ref(),
            namespaces: reused.namespaces(),
            owner: run_as,
            counter: warm_up.counter(),
        };
        supervisor::run(spec, streams, confinement, place)
            .map(|ran| ran.map(|result| RunResult { kept_out, ..result }))
    })();
    let mounted = reused.mounts_changed();
    // A folder on disk is handed back before the harness reads what the run left in it.
    if let Some(workdir) = &workdir
        && run_as.is_some()
        && spec.scratch.is_none()
    {
        workdir.give_back();
    }
    let strays = kill_strays();
    let result = match result {
        Ok(Some(result)) => Ok(result),
        // The harness is gone: the reply will not be read, and the worker ends at its next request.
        Ok(None) => Err("the harness went away during the run".into()),
        Err(e) => Err(e),
    };
    let reply = Reply {
        id: request.id,
        result,
        retired: None,
    };
    let aftermath = Aftermath {
        workdir,
        exposed: run_as.is_some(),
        mounted,
        strays,
    };
    (reply, aftermath)
}

/// Kills whatever process of the run is still there, which the run's end should have left none of; says how many
/// there were, if any.
fn kill_strays() -> Option<usize> {
    if !process::has_children() {
        return None;
    }
    let strays = process::children().len();
    process::kill_and_reap_all(None);
    Some(strays)
}

/// What is left of a run once its processes are gone and its reply is out.
struct Aftermath {
    /// The run's folder, mounted for it.
    workdir: Option<Workdir>,
    /// Whether what the run reaches by name was exposed for it (a run as a user of its own).
    exposed: bool,
    /// Whether the run changed the mounts.
    mounted: bool,
    /// How many processes were still there after the run, if any were.
    strays: Option<usize>,
}

impl Aftermath {
    /// Removes the run's mounts, and looks for what the run left behind for the next one, which retires the worker;
    /// everything of it that can be killed is.
    fn settle(self, request: &Request, reused: &mut Reused) -> Option<String> {
        drop(self.workdir);
        if self.exposed {
            reused.withdraw(&request.reach);
        }
        let mut found = Vec::new();
        if let Some(strays) = self.strays.filter(|&n| n > 0) {
            found.push(format!("{strays} processes still running after the run"));
        }
        if let Some(cgroup) = &reused.cgroup
            // In the namespaces, every process of the run descends from the worker, their init: with no child
            // left, no process of the run is left in the cgroup either.
            && let Some(what) = cgroup.leftovers(reused.namespaces() && self.strays.is_none())
        {
            found.push(what);
            cgroup.kill_all();
        }
        if let Some(what) = reused.namespace_leftovers(self.mounted) {
            found.push(what);
        }
        (!found.is_empty()).then(|| found.join("; "))
    }
}
