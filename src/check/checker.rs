//! The external checker protocol (testlib's order): `checker <input> <output> <answer>`; exit 0 accepts,
//! 1 rejects, 2 is a presentation error (judged WA), anything else is a judge error. Its stderr is the message.

use super::CheckOutcome;
use crate::compile::Program;
use crate::error::Result;
use crate::sandbox::{Limits, RunSpec, Runner, Termination, Trust, signal_name, small_env};
use crate::units::Bytes;
use crate::verdict::Verdict;
use std::path::Path;
use std::time::Duration;

/// A checker's limits: generous, since it is trusted to be correct, yet bounded, since it may have bugs.
pub const CHECKER_LIMITS: Limits = Limits {
    cpu: Duration::from_secs(10),
    wall: Duration::from_secs(20),
    memory: Bytes::mib(1024),
    output: Bytes::mib(16),
    stack: Bytes::mib(256),
    cap_address_space: true,
};

/// Checker messages are cut to this many bytes.
const MESSAGE_LIMIT: usize = 1024;

/// A compiled checker, ready to run.
pub struct Checker {
    pub program: Program,
}

impl Checker {
    /// Runs the checker on one output, in `workdir` (fresh and empty).
    pub fn check(
        &self,
        runner: &dyn Runner,
        workdir: &Path,
        input: &Path,
        output: &Path,
        answer: &Path,
    ) -> Result<CheckOutcome> {
        let mut argv = self.program.argv.clone();
        argv.extend([input, output, answer].map(|p| p.as_os_str().to_owned()));
        let result = runner.run(&RunSpec {
            argv,
            env: small_env(workdir),
            workdir: workdir.to_owned(),
            stdin: None,
            stdout: workdir.join("checker.out"),
            limits: Limits {
                cap_address_space: self.program.cap_address_space,
                ..CHECKER_LIMITS
            },
            trust: Trust::Tool,
            scratch: None,
        })?;
        let said = crate::text::bound(result.stderr_text().trim(), MESSAGE_LIMIT);
        let judge_error = |why: String| CheckOutcome {
            verdict: Verdict::JudgeError,
            message: if said.is_empty() {
                why
            } else {
                format!("{why}: {said}")
            },
        };
        Ok(match (result.killed_for, result.termination) {
            (Some(kind), _) => judge_error(format!("checker went over its {kind:?} limit")),
            (None, Termination::Exited(0)) => CheckOutcome {
                verdict: Verdict::Accepted,
                message: said,
            },
            (None, Termination::Exited(1)) => CheckOutcome::wrong(said),
            (None, Termination::Exited(2)) => {
                CheckOutcome::wrong(format!("presentation error: {said}"))
            }
            (None, Termination::Exited(code)) => {
                judge_error(format!("checker exited with code {code}"))
            }
            (None, Termination::Signaled(signal)) => {
                judge_error(format!("checker killed by {}", signal_name(signal)))
            }
        })
    }
}
