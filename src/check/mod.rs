//! Deciding whether an output is right: the built-in comparisons, the external checker protocol, and the
//! bounded diff shown for a wrong answer (which never decides a verdict).

mod checker;
mod diff;
mod exact;
mod tokens;

pub use checker::Checker;
pub use diff::first_difference;

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
}

impl CheckOutcome {
    pub fn accepted() -> Self {
        CheckOutcome {
            verdict: Verdict::Accepted,
            message: String::new(),
        }
    }

    pub fn wrong(message: impl Into<String>) -> Self {
        CheckOutcome {
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
        Comparison::Exact => exact::compare(output, answer),
        Comparison::Checker(_) => unreachable!("a checker program is run by `Checker`"),
    }
}

/// A short, printable rendering of bytes from an output: escaped, and cut after a few dozen characters.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    const SHOWN: usize = 40;
    format!(
        "\"{}\"",
        crate::text::clip_escaped(&String::from_utf8_lossy(bytes), SHOWN)
    )
}
