//! The problem's own program that judges an output, in either protocol (see [`Protocol`]):
//! - cpjudge's (testlib's): `checker <input> <output> <answer>`; exit 0 accepts, 1 rejects, 2 is a presentation
//!   error (judged WA), 3 is the checker's own failure (a judge error), 7 accepts with points (`quitp`), anything
//!   else is a judge error; its stderr is the message.
//! - the Problem Package Format's: `validator <input> <answer> <feedback_dir> [flags] < output`; exit 42 accepts,
//!   43 rejects, anything else is a judge error; `feedback_dir/judgemessage.txt` is the message.

use super::CheckOutcome;
use crate::compile::{Compiler, Program};
use crate::error::{Error, Result};
use crate::problem::{Problem, Protocol};
use crate::runs::{self, CHECKER_LIMITS};
use crate::sandbox::{Limits, RunResult, Runner, Termination};
use crate::verdict::Verdict;
use std::path::Path;

/// Checker messages are cut to this many bytes.
const MESSAGE_LIMIT: usize = 1024;

/// The folder, in a validator's working directory, where it may leave feedback.
pub(crate) const FEEDBACK: &str = "feedback";

/// A compiled checker, ready to run; or, for an interactive problem, the interactor.
pub struct Checker {
    pub program: Program,
    pub protocol: Protocol,
    /// Whether it is an interactor, which talks with the solution as it runs.
    pub interactive: bool,
    /// What each of its runs may take (an interactor's time follows the solution's instead).
    pub limits: Limits,
    /// For a multi-pass problem, the most passes it may ask for (see `judge::passes`); None: it judges one run.
    pub passes: Option<u32>,
    /// Its build's key: a name that changes whenever its sources, language or compiler do.
    pub identity: String,
}

impl Checker {
    /// Builds the program that judges the problem's outputs, if it has one.
    pub fn build(compiler: &Compiler, problem: &Problem) -> Result<Option<Checker>> {
        let Some((what, source, protocol, interactive)) = problem.comparison.program() else {
            return Ok(None);
        };
        let limits = runs::tool_limits(CHECKER_LIMITS, &problem.limits);
        let source = problem.own_source(source);
        let (program, identity) = compiler.tool_source(what, &source, limits.memory)?;
        Ok(Some(Checker {
            program,
            protocol,
            interactive,
            limits,
            passes: problem.package.as_ref().and_then(|p| p.passes),
            identity,
        }))
    }

    /// Runs the checker on one output, in `workdir` (fresh and empty), with the test's flags.
    pub fn check(
        &self,
        runner: &dyn Runner,
        workdir: &Path,
        input: &Path,
        output: &Path,
        answer: &Path,
        flags: &[String],
    ) -> Result<CheckOutcome> {
        let spec = match self.protocol {
            Protocol::Cpjudge => {
                runs::checker(&self.program, &self.limits, workdir, input, output, answer)
            }
            Protocol::Package => {
                let feedback = feedback_dir(workdir)?;
                runs::output_validator(
                    &self.program,
                    &self.limits,
                    workdir,
                    input,
                    output,
                    answer,
                    &feedback,
                    flags,
                )
            }
        };
        let result = runner.run(&spec)?;
        Ok(verdict_of(
            self.protocol,
            &result,
            workdir,
            Path::new(FEEDBACK),
            "checker",
            &self.limits,
        ))
    }
}

/// The feedback folder in `workdir`: made fresh, unless an earlier pass of a multi-pass problem left it there, to
/// be kept (see `judge::passes`, which checks that it is a folder still).
pub(crate) fn feedback_dir(workdir: &Path) -> Result<std::path::PathBuf> {
    let feedback = workdir.join(FEEDBACK);
    match std::fs::create_dir(&feedback) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            Err(Error::io("create", &feedback, e))
        }
        _ => Ok(feedback),
    }
}

/// testlib's exit codes, as it is built without EJUDGE, CONTESTER or TESTSYS defined: `_pe` (and `_dirt`, extra
/// output, and `_unexpected_eof` where enabled, both presentation errors to it), `_fail` (the checker's own
/// failure: a bad answer file, a broken invariant) and `_points` (`quitp`, the points first in its message).
const PE: i32 = 2;
const FAIL: i32 = 3;
const DIRT: i32 = 4;
const POINTS: i32 = 7;
const UNEXPECTED_EOF: i32 = 8;

/// An output a testlib checker gave points with `quitp`: accepted, with the points its message starts with
/// (testlib writes `points 0.5 message`, or the number alone first) as the test's score.
fn points(what: &str, said: String) -> CheckOutcome {
    let words = said.strip_prefix("points ").unwrap_or(&said);
    let number = words.split_whitespace().next().unwrap_or_default();
    match number.parse::<f64>() {
        Ok(points) if points.is_finite() && points >= 0.0 => CheckOutcome {
            score: Some(super::ValidatorScore::Score(points)),
            verdict: Verdict::Accepted,
            message: said,
        },
        _ => CheckOutcome {
            score: None,
            verdict: Verdict::JudgeError,
            message: format!(
                "the {what} gave points (exit code {POINTS}, testlib's _points) but its message does not start \
                 with a non-negative number: {said}"
            ),
        },
    }
}

/// What a judging program's run says, in its protocol: AC, WA or JE, with its message (in the package's protocol,
/// from `judgemessage.txt` in its feedback folder, `feedback` in `workdir`). `what` names it in a judge error
/// ("checker", "interactor").
pub(crate) fn verdict_of(
    protocol: Protocol,
    result: &RunResult,
    workdir: &Path,
    feedback: &Path,
    what: &str,
    limits: &Limits,
) -> CheckOutcome {
    let said = match protocol {
        Protocol::Cpjudge => result.stderr_text(),
        Protocol::Package => {
            // The validator could write its feedback folder: read as every such file is.
            let message = feedback.join("judgemessage.txt");
            let message = crate::untrusted::read_head(workdir, &message, MESSAGE_LIMIT + 1);
            let message = String::from_utf8_lossy(&message).into_owned();
            if message.trim().is_empty() {
                result.stderr_text()
            } else {
                message
            }
        }
    };
    let said = crate::text::bound(said.trim(), MESSAGE_LIMIT);
    let code = match (result.killed_for, result.termination) {
        (None, Termination::Exited(code)) => Some(code),
        _ => None,
    };
    match (protocol, code) {
        (Protocol::Cpjudge, Some(0)) | (Protocol::Package, Some(42)) => CheckOutcome {
            score: None,
            verdict: Verdict::Accepted,
            message: said,
        },
        (Protocol::Cpjudge, Some(1)) | (Protocol::Package, Some(43)) => CheckOutcome::wrong(said),
        (Protocol::Cpjudge, Some(PE | DIRT | UNEXPECTED_EOF)) => {
            CheckOutcome::wrong(format!("presentation error: {said}"))
        }
        (Protocol::Cpjudge, Some(FAIL)) => CheckOutcome {
            score: None,
            verdict: Verdict::JudgeError,
            message: format!(
                "the {what} failed (exit code {FAIL}, testlib's _fail), a fault of the problem's, not the \
                 solution's: {said}"
            ),
        },
        (Protocol::Cpjudge, Some(POINTS)) => points(what, said),
        _ => {
            let why = format!("the {what} {}", result.ending(limits));
            CheckOutcome {
                score: None,
                verdict: Verdict::JudgeError,
                message: if said.is_empty() {
                    why
                } else {
                    format!("{why}: {said}")
                },
            }
        }
    }
}
