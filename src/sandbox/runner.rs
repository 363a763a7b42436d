//! The harness's side of a run: hand the spec to a supervisor process and read back its result.

use super::isolation::Layers;
use super::spec::{Request, RunResult, RunSpec};
use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
        let output = child
            .wait_with_output()
            .map_err(|e| failed("failed to wait for the supervisor", &e))?;
        drop(stdin);
        let reply: std::result::Result<RunResult, String> = serde_json::from_slice(&output.stdout)
            .map_err(|_| {
                Error::Sandbox(format!(
                    "the supervisor gave no result ({}): {}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr).trim()
                ))
            })?;
        reply.map_err(Error::Sandbox)
    }
}
