//! Trying the layers the way a run goes: a trial run of a small program through a real supervisor, with the
//! layers that passed their own checks. A layer's own check tries the kernel feature in a child of the judge; only
//! a real run goes through everything a run meets (a supervisor that is not dumpable, the rlimits, the order in
//! which the layers are entered), so a layer is only reported on once a run with it has worked.

use super::isolation::{Layer, Layers};
use super::runner::{Runner, Sandbox};
use super::spec::{Limits, RunSpec, Termination, Trust, small_env};
use crate::units::Bytes;
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Duration;

/// The argument that turns this executable into the trial run's program: it copies its input to its output.
pub const PROBE_ARG: &str = "__probe";

/// What the trial program reads and must write back.
const GREETING: &[u8] = b"cpjudge trial run\n";

/// The trial program: copies standard input to standard output. Returns the process exit code.
pub fn echo() -> i32 {
    let mut input = Vec::new();
    let copied = io::stdin().lock().read_to_end(&mut input).is_ok()
        && io::stdout().lock().write_all(&input).is_ok();
    if copied { 0 } else { 1 }
}

/// Of the layers in `candidates`, those that a real run can use together, each other one with the reason it
/// cannot. One trial run when they all work together; otherwise one more per layer, adding them in order.
pub(crate) fn usable(
    supervisor: &Path,
    candidates: &[Layer],
) -> (Vec<Layer>, Vec<(Layer, String)>) {
    if candidates.is_empty() || trial(supervisor, candidates).is_ok() {
        return (candidates.to_vec(), Vec::new());
    }
    let (mut kept, mut failed) = (Vec::new(), Vec::new());
    for &layer in candidates {
        let with: Vec<Layer> = kept.iter().copied().chain([layer]).collect();
        match trial(supervisor, &with) {
            Ok(()) => kept.push(layer),
            Err(e) => failed.push((layer, e)),
        }
    }
    (kept, failed)
}

/// One run of this executable as a solution would run, with exactly these layers: in a folder of its own, among
/// folders hidden from it, with its input and output reachable only by descriptor and name.
fn trial(supervisor: &Path, layers: &[Layer]) -> Result<(), String> {
    let dir = crate::scratch::folder("trial")
        .map_err(|e| format!("cannot make a folder for a trial run: {e}"))?;
    let (workdir, input, output) = (
        dir.path().join("box"),
        dir.path().join("input"),
        dir.path().join("output"),
    );
    std::fs::create_dir(&workdir)
        .and_then(|()| std::fs::write(&input, GREETING))
        .map_err(|e| format!("cannot prepare a trial run: {e}"))?;
    let readable = supervisor
        .parent()
        .map(Path::to_owned)
        .into_iter()
        .collect();
    let sandbox = Sandbox::with_supervisor(supervisor.to_owned())
        .isolated(Layers::from(layers), vec![dir.path().to_owned()]);
    let run = sandbox
        .run(&RunSpec {
            argv: vec![supervisor.into(), PROBE_ARG.into()],
            env: small_env(&workdir),
            workdir: workdir.clone(),
            stdin: Some(input),
            stdout: output.clone(),
            limits: LIMITS,
            trust: Trust::Solution { readable },
            scratch: Some(LIMITS.memory),
        })
        .map_err(|e| format!("a trial run failed: {e}"))?;
    let said = run.stderr_text();
    let said = said.trim();
    match run.termination {
        Termination::Exited(0) if std::fs::read(&output).is_ok_and(|out| out == GREETING) => Ok(()),
        Termination::Exited(0) => Err("a trial run did not write what it read".into()),
        other => Err(format!(
            "a trial run ended with {other}{}{said}",
            if said.is_empty() { "" } else { ": " }
        )),
    }
}

const LIMITS: Limits = Limits {
    cpu: Duration::from_secs(5),
    wall: Duration::from_secs(10),
    memory: Bytes::mib(64),
    output: Bytes::mib(1),
    disk: Bytes::mib(64),
    stack: Bytes::mib(8),
    cap_address_space: true,
};
