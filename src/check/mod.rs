//! Deciding whether an output is right: the built-in comparisons, the external checker protocol, and the
//! bounded diff shown for a wrong answer (which never decides a verdict); and a package's static validator, which
//! judges a submission from its files.

mod checker;
pub(crate) mod diff;
mod exact;
mod feedback;
pub mod package_default;
mod scan;
mod static_validator;
mod tokens;

pub use checker::Checker;
pub(crate) use checker::{FEEDBACK, feedback_dir, verdict_of};
pub use diff::first_difference;
pub use feedback::{ValidatorScore, validator_score};
pub(crate) use package_default::check_flags as default_validator_flags;
pub use static_validator::{StaticJudgment, StaticValidator, Submitted};

use crate::problem::Comparison;
use crate::verdict::Verdict;
use std::io;
use std::path::Path;

/// What checking one output decided.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOutcome {
    /// AC, WA or JE.
    pub verdict: Verdict,
    pub message: String,
    /// The test's score, where a checker of ours gave one as testlib's `quitp` does (exit code 7, the points
    /// first in its message); a package's output validator writes its score in a file instead.
    pub score: Option<ValidatorScore>,
}

impl CheckOutcome {
    pub fn accepted() -> Self {
        CheckOutcome {
            score: None,
            verdict: Verdict::Accepted,
            message: String::new(),
        }
    }

    pub fn wrong(message: impl Into<String>) -> Self {
        CheckOutcome {
            score: None,
            verdict: Verdict::WrongAnswer,
            message: message.into(),
        }
    }
}

/// Compares an output with the answer using a built-in comparison. Both files are streamed: the harness's memory
/// stays small whatever the program printed.
pub fn compare(comparison: &Comparison, output: &Path, answer: &Path) -> io::Result<CheckOutcome> {
    match comparison {
        Comparison::Tokens => tokens::compare(output, answer, None),
        Comparison::Float { tolerance } => tokens::compare(output, answer, Some(*tolerance)),
        Comparison::Exact => {
            let mut outcome = exact::compare(output, answer)?;
            if !outcome.verdict.is_accepted()
                && tokens::compare(output, answer, None)?.verdict.is_accepted()
            {
                outcome
                    .message
                    .push_str("; only whitespace differs: every token is right");
            }
            Ok(outcome)
        }
        Comparison::Shown => Ok(shown(output)),
        Comparison::PackageDefault => unreachable!("the default validator takes each test's flags"),
        Comparison::Checker(_)
        | Comparison::OutputValidator(_)
        | Comparison::Interactive { .. } => {
            unreachable!("a program of the problem's decides, run by `Checker`")
        }
    }
}

/// Lines of an output shown when there is no answer to compare it with, and bytes read of it.
const SHOWN_LINES: usize = 20;
const SHOWN_BYTES: usize = 4096;

/// An output with no answer to compare it with: accepted, its first lines the message, so that the user sees
/// what their program printed and judges it themselves.
fn shown(output: &Path) -> CheckOutcome {
    let head = crate::text::read_head(output, SHOWN_BYTES + 1);
    let text = String::from_utf8_lossy(&head[..head.len().min(SHOWN_BYTES)]);
    let mut lines: Vec<&str> = text.lines().collect();
    let mut message = lines
        .drain(..lines.len().min(SHOWN_LINES))
        .collect::<Vec<_>>()
        .join("\n");
    if !lines.is_empty() || head.len() > SHOWN_BYTES {
        message.push_str("\n...");
    }
    CheckOutcome {
        message,
        ..CheckOutcome::accepted()
    }
}

/// A short, printable rendering of bytes from an output: escaped, and cut after a few dozen characters.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    const SHOWN: usize = 40;
    format!("\"{}\"", crate::text::escape_bytes(bytes, SHOWN))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_difference_in_whitespace_alone_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let (output, answer) = (dir.path().join("out"), dir.path().join("ans"));
        std::fs::write(&answer, "1 2\n3\n").unwrap();
        let judged = |text: &str| {
            std::fs::write(&output, text).unwrap();
            compare(&Comparison::Exact, &output, &answer).unwrap()
        };
        assert_eq!(
            judged("1 2  \n3\n").message,
            "line 1, column 4: expected end of line, found \"  \" (trailing whitespace); only whitespace \
             differs: every token is right"
        );
        assert_eq!(
            judged("1 2\n3").message,
            "the output's last line (line 2) has no final newline; only whitespace differs: every token is right"
        );
        assert_eq!(
            judged("1 2\n4\n").message,
            "line 2, column 1: expected \"3\", found \"4\""
        );
        assert!(judged("1 2\r\n3\r\n").verdict.is_accepted());
    }
}
