//! The harness's side of a run: hand the spec to a supervisor process and read back its result.

use super::isolation::Layers;
use super::spec::{Request, RunResult, RunSpec};
use crate::error::{Error, Result};
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs programs under limits. A trait so that the engine can be driven by a fake in tests.
pub trait Runner: Sync {
    fn run(&self, spec: &RunSpec) -> Result<RunResult>;
}

/// The real runner: each run is carried out by a supervisor process.
#[derive(Debug, Clone)]
pub struct Sandbox {
    supervisor: PathBuf,
    layers: Layers,
    hidden: Vec<PathBuf>,
}

/// The argument that turns this executable into a supervisor.
pub const SUPERVISE_ARG: &str = "__supervise";

impl Sandbox {
    /// A sandbox whose supervisor is the given cpjudge executable.
    /// No optional isolation layer: call [`Sandbox::isolated`] to add them.
    pub fn with_supervisor(supervisor: PathBuf) -> Self {
        Sandbox {
            supervisor,
            layers: Layers::none(),
            hidden: Vec::new(),
        }
    }

    /// Uses the given layers (those a probe found working), and keeps solutions out of `hidden`.
    pub fn isolated(mut self, layers: Layers, hidden: Vec<PathBuf>) -> Self {
        self.layers = layers;
        // Landlock works on the real file hierarchy, so links are resolved; a folder that does not exist yet stays
        // hidden when it is made.
        self.hidden = hidden.iter().map(|p| real_path(p)).collect();
        self
    }

    /// The cpjudge executable that supervises runs.
    pub fn supervisor(&self) -> &Path {
        &self.supervisor
    }

    /// A sandbox whose supervisor is the running executable.
    pub fn from_current_exe() -> Result<Self> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::Sandbox(format!("cannot find the running executable: {e}")))?;
        Ok(Self::with_supervisor(exe))
    }
}

/// The path with every link resolved, as far as it exists: the rest is appended as it is.
fn real_path(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return rest.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_owned(),
        }
    }
}

impl Runner for Sandbox {
    fn run(&self, spec: &RunSpec) -> Result<RunResult> {
        let failed = |what: &str, e: &dyn std::fmt::Display| Error::Sandbox(format!("{what}: {e}"));
        let mut child = Command::new(&self.supervisor)
            .arg(SUPERVISE_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                failed(
                    &format!("failed to start {}", self.supervisor.display()),
                    &e,
                )
            })?;
        // The supervisor kills the run when this pipe closes, so it stays open until the reply is in.
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let request = Request {
            spec: spec.clone(),
            layers: self.layers.clone(),
            hidden: self.hidden.clone(),
        };
        let mut line =
            serde_json::to_vec(&request).map_err(|e| failed("failed to encode the run", &e))?;
        line.push(b'\n');
        stdin
            .write_all(&line)
            .map_err(|e| failed("failed to send the run to the supervisor", &e))?;
        let deadline = Instant::now() + spec.limits.wall + SUPERVISOR_GRACE;
        let errors = child.stderr.take().expect("stderr was piped");
        let errors = std::thread::spawn(move || read_tail(errors, deadline).unwrap_or_default());
        let stdout = child.stdout.take().expect("stdout was piped");
        let reply = read_tail(stdout, deadline);
        if reply.is_err() {
            // Stuck, or no longer wanted: it is killed, and the run with it (each run dies with its supervisor).
            let _ = child.kill();
        }
        let status = child
            .wait()
            .map_err(|e| failed("failed to wait for the supervisor", &e))?;
        drop(stdin);
        let errors = errors.join().unwrap_or_default();
        let reply = match reply {
            // The same signal may have reached the supervisor too (`killall -INT cpjudge`).
            Ok(_) if !status.success() && crate::interrupt::requested() => {
                return Err(Error::Interrupted);
            }
            Ok(reply) => reply,
            Err(Unread::Interrupted) => return Err(Error::Interrupted),
            Err(Unread::TimedOut) => {
                return Err(Error::Sandbox(format!(
                    "the supervisor did not finish within {} of the run's start, and was killed",
                    crate::units::format_time(spec.limits.wall + SUPERVISOR_GRACE)
                )));
            }
        };
        // The reply is the last line, from a supervisor that ended normally: it writes it once every process of the
        // run is gone, so nothing a run may have slipped into the pipe before can pass for it.
        let last = reply
            .split(|&b| b == b'\n')
            .rfind(|line| !line.is_empty())
            .unwrap_or_default();
        let reply: std::result::Result<RunResult, String> = serde_json::from_slice(last)
            .ok()
            .filter(|_| status.success())
            .ok_or_else(|| {
                Error::Sandbox(format!(
                    "the supervisor gave no result ({status}): {}",
                    String::from_utf8_lossy(&errors).trim()
                ))
            })?;
        reply.map_err(Error::Sandbox)
    }
}

/// How long after a run's wall-time limit its supervisor may take to kill, reap and report it.
const SUPERVISOR_GRACE: Duration = Duration::from_secs(10);

/// The most kept of what a supervisor writes: far more than any reply, and a bound on what a run that writes into
/// its supervisor's pipes can make the harness hold.
const KEPT: usize = 1 << 20;

/// Why a pipe was not read to its end.
enum Unread {
    TimedOut,
    /// The user asked the judge to stop.
    Interrupted,
}

/// How often a wait for a supervisor looks whether the user asked to stop (the signal itself wakes only the thread
/// it is delivered to).
const INTERRUPT_CHECK: Duration = Duration::from_millis(100);

/// Reads a pipe to its end, keeping the last [`KEPT`] bytes; gives up at the deadline, or when the user asks the
/// judge to stop.
fn read_tail(mut pipe: impl Read + AsRawFd, deadline: Instant) -> Result<Vec<u8>, Unread> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        if crate::interrupt::requested() {
            return Err(Unread::Interrupted);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Unread::TimedOut);
        }
        let mut fd = libc::pollfd {
            fd: pipe.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let wait = left.min(INTERRUPT_CHECK).as_millis() as i32;
        // SAFETY: one valid pollfd.
        if unsafe { libc::poll(&mut fd, 1, wait) } <= 0 {
            continue;
        }
        match pipe.read(&mut buf) {
            Ok(0) => return Ok(kept),
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * KEPT {
                    kept.drain(..kept.len() - KEPT);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Ok(kept),
        }
    }
}
