//! The verdicts a run can get, and their short codes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The outcome of one solution on one test, or of a whole solution (its first non-AC test).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    #[serde(rename = "AC")]
    Accepted,
    /// Wrong answer (a presentation error counts as this too).
    #[serde(rename = "WA")]
    WrongAnswer,
    /// CPU time over the limit, or wall time over the wall limit.
    #[serde(rename = "TLE")]
    TimeLimit,
    /// Peak memory over the limit.
    #[serde(rename = "MLE")]
    MemoryLimit,
    /// Killed by a signal or a nonzero exit code.
    #[serde(rename = "RE")]
    RuntimeError,
    /// Output over the output limit.
    #[serde(rename = "OLE")]
    OutputLimit,
    /// The source did not compile.
    #[serde(rename = "CE")]
    CompileError,
    /// The judge could not decide: the checker crashed or answered nonsense.
    #[serde(rename = "JE")]
    JudgeError,
}

impl Verdict {
    pub const ALL: [Verdict; 8] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::OutputLimit,
        Verdict::CompileError,
        Verdict::JudgeError,
    ];

    /// The verdicts a run of a compiled program can end with (not CE, not JE).
    pub const OF_A_RUN: [Verdict; 6] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimit,
        Verdict::RuntimeError,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
    ];

    /// The codes of `verdicts`, as a list to read: "AC, WA".
    pub fn codes(verdicts: &[Verdict]) -> String {
        verdicts
            .iter()
            .map(|v| v.code())
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::RuntimeError => "RE",
            Verdict::OutputLimit => "OLE",
            Verdict::CompileError => "CE",
            Verdict::JudgeError => "JE",
        }
    }

    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

impl FromStr for Verdict {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.code().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown verdict \"{s}\" (expected one of {})",
                    Verdict::codes(&Verdict::ALL)
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in Verdict::ALL {
            assert_eq!(v.code().parse::<Verdict>(), Ok(v));
            assert_eq!(v.code().to_lowercase().parse::<Verdict>(), Ok(v));
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.code())
            );
        }
        assert!("OK".parse::<Verdict>().is_err());
    }
}
