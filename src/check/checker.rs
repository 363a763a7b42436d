//! The external checker protocol (testlib's order): `checker <input> <output> <answer>`; exit 0 accepts,
//! 1 rejects, 2 is a presentation error (judged WA), anything else is a judge error. Its stderr is the message.

use super::CheckOutcome;
use crate::compile::Program;
use crate::error::Result;
use crate::runs::{self, CHECKER_LIMITS};
use crate::sandbox::{Runner, Termination};
use crate::verdict::Verdict;
use std::path::Path;

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
        let spec = runs::checker(&self.program, workdir, input, output, answer);
        let result = runner.run(&spec)?;
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
            (None, Termination::Exited(0)) => CheckOutcome {
                verdict: Verdict::Accepted,
                message: said,
            },
            (None, Termination::Exited(1)) => CheckOutcome::wrong(said),
            (None, Termination::Exited(2)) => {
                CheckOutcome::wrong(format!("presentation error: {said}"))
            }
            _ => judge_error(format!("the checker {}", result.ending(&CHECKER_LIMITS))),
        })
    }
}
