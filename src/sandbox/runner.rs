//! The harness's side of a run: open its standard input and output, hand them and the spec to a worker (see
//! `worker`), and read back its result.

use super::isolation::Layers;
use super::spec::{
    HiddenFolders, Reach, Reply, Request, RunResult, RunSpec, Settled, Setup, Trust,
};
use crate::error::{Error, Result};
use nix::sys::socket::{
    AddressFamily, ControlMessage, MsgFlags, SockFlag, SockType, sendmsg, socketpair,
};
use std::fs::File;
use std::io::{IoSlice, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs programs under limits. A trait so that the engine can be driven by a fake in tests.
pub trait Runner: Sync {
    /// Runs with the spec's own standard input and output files.
    fn run(&self, spec: &RunSpec) -> Result<RunResult>;

    /// Runs as [`Runner::run`] does, once `ready` says so: a runner that opens the run's standard input and output
    /// itself opens them first, so that they are made ready while another run goes on. A run whose `ready` fails is
    /// not made, and fails with its error.
    fn run_when(&self, spec: &RunSpec, ready: &dyn Fn() -> Result<()>) -> Result<RunResult> {
        ready()?;
        self.run(spec)
    }

    /// Runs with the given standard input and output in place of the spec's files: the ends of the pipes of a
    /// dialogue. They are closed on this side once the run has them, so that the other end sees the run's end.
    fn run_attached(&self, spec: &RunSpec, stdin: File, stdout: File) -> Result<RunResult> {
        let _ = (spec, stdin, stdout);
        Err(Error::Sandbox(
            "this runner cannot attach a run to pipes".into(),
        ))
    }
}

/// The real runner: each run is carried out by a worker, kept for the next run unless the run left something
/// behind. Clones share their workers.
#[derive(Debug, Clone)]
pub struct Sandbox {
    supervisor: PathBuf,
    layers: Layers,
    hidden: Vec<PathBuf>,
    workers: Arc<Workers>,
}

/// The argument that turns this executable into a worker.
pub const SUPERVISE_ARG: &str = "__supervise";

impl Sandbox {
    /// A sandbox whose workers are copies of the given cpjudge executable.
    /// No optional isolation layer: call [`Sandbox::isolated`] to add them.
    pub fn with_supervisor(supervisor: PathBuf) -> Self {
        Sandbox {
            supervisor,
            layers: Layers::none(),
            hidden: Vec::new(),
            workers: Arc::default(),
        }
    }

    /// Uses the given layers (those a probe found working), and keeps solutions out of `hidden`.
    pub fn isolated(mut self, layers: Layers, hidden: Vec<PathBuf>) -> Self {
        self.layers = layers;
        // Landlock works on the real file hierarchy, so links are resolved; a folder that does not exist yet stays
        // hidden when it is made.
        self.hidden = hidden.iter().map(|p| super::reach::real_path(p)).collect();
        self
    }

    /// The cpjudge executable that supervises runs.
    pub fn supervisor(&self) -> &Path {
        &self.supervisor
    }

    /// How many workers have been started so far: one per run going at once, and one more for each retired.
    pub fn workers_started(&self) -> usize {
        self.workers.started.load(Ordering::SeqCst)
    }

    /// Tells the idle workers to end, and leaves them to it: they end while the command goes on (writes its report,
    /// removes its folders), and [`wait_for_released`] waits for them before it exits. Call it once no more runs
    /// are coming; a later run starts a new worker.
    pub fn release(&self) {
        let idle =
            std::mem::take(&mut *self.workers.idle.lock().unwrap_or_else(|e| e.into_inner()));
        let unused = PRESTARTED.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut released = RELEASED.lock().unwrap_or_else(|e| e.into_inner());
        // Those released before that have ended are reaped now, so that a long command (`--watch`) keeps none.
        released.retain_mut(|worker| matches!(worker.process.try_wait(), Ok(None)));
        for mut worker in idle.into_iter().flatten().chain(unused) {
            worker.requests = None;
            released.push(worker);
        }
    }

    /// Starts the worker a solution's first run will take, if none is started yet, and leaves it to set itself up
    /// (its namespaces, its cgroup, the Landlock rules around the hidden folders) while the command prepares that
    /// run: call it once runs are sure to come. One not taken ends at [`Sandbox::release`], as any idle worker.
    pub fn start_early(&self) -> Result<()> {
        if self.workers.started.load(Ordering::SeqCst) > 0 {
            return Ok(());
        }
        let kind = usize::from(
            self.layers.contains(super::isolation::Layer::Namespaces) && super::reach::own_user(),
        );
        let worker = self
            .workers
            .take(kind, &self.supervisor, &self.layers, &self.hidden)?;
        self.workers.put_back(kind, worker);
        Ok(())
    }

    /// A sandbox whose supervisor is the running executable.
    pub fn from_current_exe() -> Result<Self> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::Sandbox(format!("cannot find the running executable: {e}")))?;
        Ok(Self::with_supervisor(exe))
    }
}

impl Runner for Sandbox {
    fn run(&self, spec: &RunSpec) -> Result<RunResult> {
        self.run_when(spec, &|| Ok(()))
    }

    fn run_when(&self, spec: &RunSpec, ready: &dyn Fn() -> Result<()>) -> Result<RunResult> {
        let streams = open_streams(spec)?;
        let request = self.request(spec);
        ready()?;
        self.carry_out(spec, &request, streams)
    }

    fn run_attached(&self, spec: &RunSpec, stdin: File, stdout: File) -> Result<RunResult> {
        self.carry_out(spec, &self.request(spec), [stdin, stdout])
    }
}

/// A request written out, ready to send.
struct Written {
    id: u64,
    /// The kind of worker it goes to.
    kind: usize,
    message: Vec<u8>,
}

impl Sandbox {
    /// The request for a run of `spec`, written out.
    fn request(&self, spec: &RunSpec) -> Written {
        // Only a worker in its namespaces makes a run a user of its own.
        let reach = match self.layers.contains(super::isolation::Layer::Namespaces) {
            true => super::reach::reach(spec, &self.workers.real_paths),
            false => Reach::default(),
        };
        // A worker whose runs are a user of their own covers closed folders in its view (see `view`): the
        // problem's own tools, which read the tests wherever they are, never run in one.
        let kind = usize::from(!reach.is_empty());
        let request = Request {
            id: self.workers.next_request.fetch_add(1, Ordering::SeqCst),
            spec: spec.clone(),
            hidden: self.hidden.clone(),
            reach,
        };
        Written {
            id: request.id,
            kind,
            message: serde_json::to_vec(&request).expect("a request is always encodable"),
        }
    }

    /// Sends a written request with the run's standard streams to a worker, and waits for its result.
    fn carry_out(
        &self,
        spec: &RunSpec,
        request: &Written,
        streams: [File; 2],
    ) -> Result<RunResult> {
        let kind = request.kind;
        let mut streams = Some(streams);
        // A worker still cleaning up after its last run is sent the request at once, and reads it once it has
        // cleaned up; one that then takes no further run leaves it to the next worker.
        let (mut worker, reply) = loop {
            let mut worker =
                self.workers
                    .take(kind, &self.supervisor, &self.layers, &self.hidden)?;
            match worker.call(request, &mut streams, spec.limits.wall + SUPERVISOR_GRACE) {
                Err(Unanswered::NotTaken) => continue,
                reply => break (worker, reply),
            }
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(Unanswered::Interrupted) => return Err(Error::Interrupted),
            // The same signal may have reached the worker too (`killall -INT cpjudge`).
            Err(Unanswered::Ended(_)) if crate::interrupt::requested() => {
                return Err(Error::Interrupted);
            }
            Err(Unanswered::Ended(why)) => {
                return Err(Error::Sandbox(format!(
                    "the worker ended without an answer: {why}"
                )));
            }
            Err(Unanswered::NotTaken) => unreachable!("another worker was taken"),
            Err(Unanswered::TimedOut) => {
                return Err(Error::Sandbox(format!(
                    "the worker did not answer within {} of the run's start, and was killed",
                    crate::units::format_time(spec.limits.wall + SUPERVISOR_GRACE)
                )));
            }
        };
        if reply.id != request.id {
            return Err(Error::Sandbox(format!(
                "the worker answered request {} to request {}",
                reply.id, request.id
            )));
        }
        // The worker cleans up after the run while its result is judged, and says whether it takes another when
        // it is next taken (see `Workers::take`). One that could not carry the run out has ended.
        if reply.retired.is_none() {
            worker.settling = true;
            self.workers.put_back(kind, worker);
        }
        reply.result.map_err(Error::Sandbox)
    }
}

/// Opens a run's input and creates its output. A solution's input is given so that it can neither change the test
/// nor learn its path (see `input`); the problem's own tools read the file itself.
fn open_streams(spec: &RunSpec) -> Result<[File; 2]> {
    let stdin = match &spec.stdin {
        Some(path) if spec.trust == Trust::Tool => File::open(path),
        Some(path) => super::input::open(path),
        None => File::open("/dev/null"),
    }
    .map_err(|e| Error::Sandbox(format!("failed to open the input: {e}")))?;
    let stdout = File::create(&spec.stdout)
        .map_err(|e| Error::Sandbox(format!("failed to create the output file: {e}")))?;
    Ok([stdin, stdout])
}

/// Workers told to end by [`Sandbox::release`], not yet waited for.
static RELEASED: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

/// Waits for the workers [`Sandbox::release`] told to end, and for one started by [`prestart`] that no run took,
/// as a worker dropped is waited for (one that takes too long is killed): once this returns, no worker and none of
/// its runs is left.
pub fn wait_for_released() {
    let unused = PRESTARTED.lock().unwrap_or_else(|e| e.into_inner()).take();
    let released = std::mem::take(&mut *RELEASED.lock().unwrap_or_else(|e| e.into_inner()));
    drop((unused, released));
}

/// A worker started by [`prestart`], until a sandbox takes it as its first.
static PRESTARTED: Mutex<Option<Worker>> = Mutex::new(None);

/// Starts a copy of the running executable as a worker before any sandbox is made, and sets it up with the layers
/// that the machine gives among `wanted`: a command that will surely run programs calls it as soon as it knows what
/// it is to do. The worker's own start (the executable loaded again, then its namespaces, cgroup and filter) goes on
/// beside the command's (reading the language table, the problem, the tests), until the first sandbox of that
/// executable and those layers takes it and tells it the folders hidden from solutions. The layers are probed here
/// for that sandbox (see [`super::probe_ahead`]), so this is called before any thread is started. One not taken is
/// waited for by [`wait_for_released`]. A failure is left to the sandbox, which starts a worker again and says why it
/// cannot.
pub fn prestart(wanted: &Layers) {
    let Ok(executable) = std::env::current_exe() else {
        return;
    };
    if PRESTARTED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .is_some()
    {
        return;
    }
    let Ok(mut worker) = Worker::spawn(&executable) else {
        return;
    };
    // Not under the lock: a probe not kept makes trial runs, whose sandboxes look for a worker started here.
    worker.set_up(&super::probe_ahead(wanted, &executable).active());
    *PRESTARTED.lock().unwrap_or_else(|e| e.into_inner()) = Some(worker);
}

/// The worker [`prestart`] started, if it is a copy of `executable` set up with `layers`, and no sandbox has taken
/// it.
fn prestarted(executable: &Path, layers: &Layers) -> Option<Worker> {
    let mut slot = PRESTARTED.lock().unwrap_or_else(|e| e.into_inner());
    match slot.as_ref() {
        Some(worker)
            if worker.executable == executable && worker.layers.as_ref() == Some(layers) =>
        {
            slot.take()
        }
        _ => None,
    }
}

/// The workers of a sandbox that wait for a run, of each kind (runs made as the worker's own user, or as one of
/// their own).
#[derive(Debug, Default)]
struct Workers {
    idle: Mutex<[Vec<Worker>; 2]>,
    started: AtomicUsize,
    next_request: AtomicU64,
    real_paths: super::reach::RealPaths,
}

impl Workers {
    /// An idle worker, or a new one if none is, told the folders hidden from solutions. An idle worker may still be
    /// cleaning up after its last run (see [`Worker::call`]).
    fn take(
        &self,
        kind: usize,
        executable: &Path,
        layers: &Layers,
        hidden: &[PathBuf],
    ) -> Result<Worker> {
        // The newest that has cleaned up after its last run, if one has: one still at it would be waited for.
        let idle = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            let idle = &mut idle[kind];
            let at = idle
                .iter()
                .rposition(Worker::settled)
                .or(idle.len().checked_sub(1));
            at.map(|at| idle.remove(at))
        };
        if let Some(worker) = idle {
            return Ok(worker);
        }
        self.started.fetch_add(1, Ordering::SeqCst);
        let mut worker = match prestarted(executable, layers) {
            Some(worker) => worker,
            None => {
                let mut worker = Worker::spawn(executable)?;
                worker.set_up(layers);
                worker
            }
        };
        worker.hide(hidden);
        Ok(worker)
    }

    fn put_back(&self, kind: usize, worker: Worker) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())[kind].push(worker);
    }
}

/// One worker process, and the pipes to it.
#[derive(Debug)]
struct Worker {
    process: Child,
    /// Requests, a socket; closing it ends the worker, and kills the run it is carrying out.
    requests: Option<OwnedFd>,
    replies: ChildStdout,
    /// What has been read of the replies and not yet taken as one.
    unread: Vec<u8>,
    /// The executable it is a copy of.
    executable: PathBuf,
    /// Whether it is still cleaning up after its last run: its word on it is the next line of its replies.
    settling: bool,
    /// The layers it was set up with, once it was.
    layers: Option<Layers>,
}

impl Worker {
    /// Starts a worker, which waits for its set-up (see [`Worker::set_up`]), then for the folders hidden from
    /// solutions (see [`Worker::hide`]).
    fn spawn(executable: &Path) -> Result<Worker> {
        let fail = |e: &dyn std::fmt::Display| {
            Error::Sandbox(format!(
                "failed to start a worker ({}): {e}",
                executable.display()
            ))
        };
        // One message per request, each with its descriptors.
        let (ours, theirs) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC,
        )
        .map_err(|e| fail(&e))?;
        let mut process = Command::new(executable)
            .arg(SUPERVISE_ARG)
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| fail(&e))?;
        Ok(Worker {
            requests: Some(ours),
            replies: process.stdout.take().expect("stdout was piped"),
            unread: Vec::new(),
            executable: executable.to_owned(),
            settling: false,
            layers: None,
            process,
        })
    }

    /// Tells the worker its layers, so that it makes its namespaces, cgroup and filter.
    fn set_up(&mut self, layers: &Layers) {
        self.layers = Some(layers.clone());
        self.tell(&Setup {
            layers: layers.to_string(),
        });
    }

    /// Tells the worker the folders hidden from solutions, so that it makes the Landlock rules around them before
    /// its first request comes.
    fn hide(&mut self, hidden: &[PathBuf]) {
        self.tell(&HiddenFolders {
            hidden: hidden.to_vec(),
        });
    }

    /// Sends a message that comes without descriptors. A worker that cannot take it ends, and the first request
    /// says why.
    fn tell(&self, message: &impl serde::Serialize) {
        let message = serde_json::to_vec(message)
            .expect("a set-up and a list of folders are always encodable");
        if let Some(socket) = &self.requests {
            let _ = sendmsg::<()>(
                socket.as_raw_fd(),
                &[IoSlice::new(&message)],
                &[],
                MsgFlags::MSG_NOSIGNAL,
                None,
            );
        }
    }

    /// Sends a request with the run's standard input and output, closes them here once the worker takes it, and
    /// waits for its reply for `allowed`, or until the user asks the judge to stop.
    ///
    /// The request goes out even while the worker is still cleaning up after its last run, so that it is there to
    /// read the moment the worker has (it reads requests only then). A worker that then takes no further run (its
    /// last run left something behind, or it broke off or hung while cleaning up) ends without reading it: the
    /// call fails with [`Unanswered::NotTaken`], and the streams are still here for another worker.
    fn call(
        &mut self,
        request: &Written,
        streams: &mut Option<[File; 2]>,
        allowed: Duration,
    ) -> Result<Reply, Unanswered> {
        let message = &request.message;
        let fds = streams
            .as_ref()
            .expect("a request is sent with its streams")
            .each_ref()
            .map(|f| f.as_raw_fd());
        let sent = self.requests.as_ref().is_some_and(|socket| {
            sendmsg::<()>(
                socket.as_raw_fd(),
                &[IoSlice::new(message)],
                &[ControlMessage::ScmRights(&fds)],
                MsgFlags::MSG_NOSIGNAL,
                None,
            ) == Ok(message.len())
        });
        match self.settle() {
            Ok(true) => {}
            Err(Unanswered::Interrupted) => return Err(Unanswered::Interrupted),
            // A worker whose last run left something behind ends by itself once it has said so; one that broke
            // off is ended as it is dropped.
            Ok(false) | Err(_) => return Err(Unanswered::NotTaken),
        }
        // The worker holds its own copies now; ours would keep a pipe open past the run's end.
        *streams = None;
        let deadline = Instant::now() + allowed;
        if !sent {
            return Err(Unanswered::Ended("it does not take requests".into()));
        }
        let line = self.read_line(deadline)?;
        serde_json::from_slice(&line)
            .map_err(|e| Unanswered::Ended(format!("its answer is unreadable: {e}")))
    }

    /// Whether the worker has said that it has cleaned up after its last run (or has ended), without waiting.
    fn settled(&self) -> bool {
        !self.settling || self.unread.contains(&b'\n') || self.replies_ready(0)
    }

    /// Whether its replies can be read (or have ended) within `wait_ms` milliseconds.
    fn replies_ready(&self, wait_ms: i32) -> bool {
        let mut fd = libc::pollfd {
            fd: self.replies.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        unsafe { libc::poll(&mut fd, 1, wait_ms) > 0 }
    }

    /// Waits until the worker has cleaned up after its last run; false if that run left something behind for the
    /// next, and the worker takes no further run.
    fn settle(&mut self) -> Result<bool, Unanswered> {
        if !self.settling {
            return Ok(true);
        }
        let line = self.read_line(Instant::now() + SUPERVISOR_GRACE)?;
        let settled: Settled = serde_json::from_slice(&line)
            .map_err(|e| Unanswered::Ended(format!("its answer is unreadable: {e}")))?;
        self.settling = false;
        Ok(settled.retired.is_none())
    }

    /// Reads the next line of the replies.
    fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, Unanswered> {
        // Small: it is cleared at each call, and a reply is a few hundred bytes unless its run wrote much to
        // standard error.
        let mut buf = [0u8; 8 * 1024];
        loop {
            if let Some(end) = self.unread.iter().position(|&b| b == b'\n') {
                let rest = self.unread.split_off(end + 1);
                let mut line = std::mem::replace(&mut self.unread, rest);
                line.pop();
                return Ok(line);
            }
            if self.unread.len() > REPLY_LIMIT {
                return Err(Unanswered::Ended("its answer is far too long".into()));
            }
            if crate::interrupt::requested() {
                return Err(Unanswered::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Unanswered::TimedOut);
            }
            if !self.replies_ready(left.min(INTERRUPT_CHECK).as_millis() as i32) {
                continue;
            }
            match self.replies.read(&mut buf) {
                Ok(0) => return Err(Unanswered::Ended(self.ending())),
                Ok(n) => self.unread.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Unanswered::Ended(e.to_string())),
            }
        }
    }

    /// How the worker ended, once its replies have closed.
    fn ending(&mut self) -> String {
        match self.process.wait() {
            Ok(status) => status.to_string(),
            Err(e) => format!("cannot wait for it: {e}"),
        }
    }
}

impl Drop for Worker {
    /// Closes the worker's requests, which ends it (an idle one at once; a busy one once it has killed its run),
    /// and waits for it; one that takes too long is killed.
    fn drop(&mut self) {
        self.requests = None;
        // Woken as soon as it ends, where a pidfd tells; else looked at every millisecond.
        let pidfd = super::process::pidfd_open(self.process.id() as libc::pid_t);
        let deadline = Instant::now() + WORKER_GRACE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            if !matches!(self.process.try_wait(), Ok(None)) {
                return;
            }
            match &pidfd {
                Some(fd) => {
                    let mut fd = libc::pollfd {
                        fd: fd.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd.
                    unsafe { libc::poll(&mut fd, 1, left.as_millis() as i32 + 1) };
                }
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// How long a worker whose requests are closed may take to end before it is killed.
const WORKER_GRACE: Duration = Duration::from_secs(2);

/// The longest reply read: far more than any (standard error is cut to 64 KiB), and a bound on what the harness
/// holds.
const REPLY_LIMIT: usize = 16 << 20;

/// How long after a run's wall-time limit its supervisor may take to kill, reap and report it; and, once it has,
/// how long a worker may take to clean up after the run.
const SUPERVISOR_GRACE: Duration = Duration::from_secs(10);

/// Why a request got no reply.
enum Unanswered {
    /// The worker ended before it read the request, which another may take.
    NotTaken,
    TimedOut,
    /// The user asked the judge to stop.
    Interrupted,
    /// The worker ended or broke the protocol, for this reason.
    Ended(String),
}

/// How often a wait for a supervisor looks whether the user asked to stop (the signal itself wakes only the thread
/// it is delivered to).
const INTERRUPT_CHECK: Duration = Duration::from_millis(100);

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a worker that has answered a run: a shell that writes `settled` (its word that it has cleaned
    /// up) after `delay` seconds, or as soon as its requests are closed, and then ends.
    fn answered(settled: &str, delay: u32) -> Worker {
        stand_in(&format!(
            "read -t {delay}; echo '{settled}'; cat >/dev/null"
        ))
    }

    /// A stand-in for a worker that has answered a run and is still cleaning up: a shell running `script`, with the
    /// requests as its standard input and the replies as its standard output.
    fn stand_in(script: &str) -> Worker {
        let (ours, theirs) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC,
        )
        .expect("a socket pair");
        let mut process = Command::new("bash")
            .args(["-c", script])
            .stdin(Stdio::from(theirs))
            .stdout(Stdio::piped())
            .spawn()
            .expect("bash starts");
        Worker {
            requests: Some(ours),
            replies: process.stdout.take().expect("piped"),
            unread: Vec::new(),
            executable: PathBuf::from("bash"),
            settling: true,
            layers: None,
            process,
        }
    }

    #[test]
    fn a_prestarted_worker_is_taken_only_by_a_sandbox_of_its_executable_and_layers() {
        let mut worker = stand_in("cat >/dev/null");
        let pid = worker.process.id();
        worker.layers = Some(Layers::none());
        *PRESTARTED.lock().unwrap() = Some(worker);
        let all: Layers = "all".parse().unwrap();
        assert!(prestarted(Path::new("bash"), &all).is_none());
        assert!(prestarted(Path::new("/bin/sh"), &Layers::none()).is_none());
        let taken = prestarted(Path::new("bash"), &Layers::none()).expect("taken");
        assert_eq!(taken.process.id(), pid);
        assert!(PRESTARTED.lock().unwrap().is_none());
    }

    #[test]
    fn an_idle_worker_that_has_cleaned_up_is_taken_before_a_newer_one_still_at_it() {
        let workers = Workers::default();
        let ready = answered(r#"{"retired":null}"#, 0);
        let ready_pid = ready.process.id();
        workers.put_back(0, ready);
        // The newest, which would be taken first, is still cleaning up for as long as the test may take.
        workers.put_back(0, answered(r#"{"retired":null}"#, 60));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !workers.idle.lock().unwrap()[0][0].settled() {
            assert!(Instant::now() < deadline, "the first stand-in never wrote");
            std::thread::sleep(Duration::from_millis(5));
        }
        let taken = workers
            .take(0, Path::new("/nonexistent"), &Layers::none(), &[])
            .expect("an idle worker is taken");
        assert_eq!(taken.process.id(), ready_pid);
        assert_eq!(workers.idle.lock().unwrap()[0].len(), 1);
    }

    #[test]
    fn with_none_cleaned_up_the_newest_is_taken_and_the_other_kept() {
        let workers = Workers::default();
        workers.put_back(0, answered(r#"{"retired":null}"#, 60));
        let newest = answered(r#"{"retired":null}"#, 60);
        let newest_pid = newest.process.id();
        workers.put_back(0, newest);
        let taken = workers
            .take(0, Path::new("/nonexistent"), &Layers::none(), &[])
            .expect("an idle worker is taken");
        assert_eq!(taken.process.id(), newest_pid);
        // The other is still there: it was not waited for in vain and dropped.
        assert_eq!(workers.idle.lock().unwrap()[0].len(), 1);
    }

    /// A request for a run, and two files to send as its streams.
    fn request(id: u64) -> (Written, Option<[File; 2]>) {
        let written = Written {
            id,
            kind: 0,
            message: b"{}".to_vec(),
        };
        let streams = [
            File::open("/dev/null").unwrap(),
            File::open("/dev/null").unwrap(),
        ];
        (written, Some(streams))
    }

    #[test]
    fn a_request_is_there_to_read_as_soon_as_the_worker_has_cleaned_up() {
        let reply = Reply {
            id: 7,
            result: Ok(RunResult::at_once()),
            retired: None,
        };
        let reply = serde_json::to_string(&reply).unwrap();
        // Cleans up for a while, then looks whether the request is there already: if not, it says it takes no
        // further run.
        let mut worker = stand_in(&format!(
            r#"sleep 0.3; if read -t 0; then echo '{{"retired":null}}'; else echo '{{"retired":"no request"}}'; fi
               head -c 1 >/dev/null; echo '{reply}'; cat >/dev/null"#
        ));
        let (written, mut streams) = request(7);
        let answer = worker.call(&written, &mut streams, Duration::from_secs(10));
        let Ok(answer) = answer else {
            panic!("the request was not taken");
        };
        assert_eq!(answer.id, 7);
        assert!(streams.is_none(), "the streams were kept past the run");
        assert!(!worker.settling);
    }

    #[test]
    fn a_worker_that_takes_no_further_run_leaves_the_request_and_its_streams_to_another() {
        for script in [
            r#"echo '{"retired":"a file left in /tmp"}'"#,
            // Broke off while cleaning up.
            "exit 3",
        ] {
            let mut worker = stand_in(script);
            let (written, mut streams) = request(1);
            let answer = worker.call(&written, &mut streams, Duration::from_secs(10));
            assert!(matches!(answer, Err(Unanswered::NotTaken)), "{script}");
            assert!(streams.is_some(), "{script}: the streams were closed");
        }
    }
}
