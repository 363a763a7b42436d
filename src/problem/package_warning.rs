//! What a package holds that cpjudge does not judge as the format says, but that need not stop it: a key it does
//! not know, a key of another version of the format taken as that version means it, a submission it skips, a
//! validator it cannot run. Each is reported with the verdicts, naming the file (and line, when known), so that
//! judging on is never silent.

use std::fmt;
use std::path::PathBuf;

/// One thing said about a package, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageWarning {
    pub kind: WarningKind,
    pub file: PathBuf,
    /// The line of the key or tag it is about, when it is about one.
    pub line: Option<usize>,
    pub message: String,
}

/// What a warning is about; its code names it in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    /// A key no version of the format has, or none where it is: not used.
    UnknownKey,
    /// A key of another version of the format than the package's: taken as that version means it.
    OtherVersion,
    /// A key or feature whose meaning cpjudge does not apply, where doing without it leaves pass-fail verdicts
    /// as they are (scoring, a limit on the compilers, the languages allowed).
    NotApplied,
    /// A submission that is not judged: its folder says nothing of its verdict, and no tag does.
    SubmissionSkipped,
    /// An `@EXPECTED_RESULTS@` tag that was not taken as written, or that goes against its folder.
    ExpectedResults,
    /// An input validator that cannot run here: the tests are not checked by it.
    ValidatorSkipped,
    /// A sample's `.interaction` file that shows otherwise than the accepted submissions run on it.
    SampleInteraction,
}

impl WarningKind {
    pub const ALL: [WarningKind; 7] = [
        WarningKind::UnknownKey,
        WarningKind::OtherVersion,
        WarningKind::NotApplied,
        WarningKind::SubmissionSkipped,
        WarningKind::ExpectedResults,
        WarningKind::ValidatorSkipped,
        WarningKind::SampleInteraction,
    ];

    pub fn code(self) -> &'static str {
        match self {
            WarningKind::UnknownKey => "unknown_key",
            WarningKind::OtherVersion => "other_version",
            WarningKind::NotApplied => "not_applied",
            WarningKind::SubmissionSkipped => "submission_skipped",
            WarningKind::ExpectedResults => "expected_results",
            WarningKind::ValidatorSkipped => "validator_skipped",
            WarningKind::SampleInteraction => "sample_interaction",
        }
    }

    pub fn from_code(code: &str) -> Option<WarningKind> {
        WarningKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

impl PackageWarning {
    pub fn new(
        kind: WarningKind,
        file: impl Into<PathBuf>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        PackageWarning {
            kind,
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for PackageWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for kind in WarningKind::ALL {
            assert_eq!(WarningKind::from_code(kind.code()), Some(kind));
        }
        let warning = PackageWarning::new(WarningKind::UnknownKey, "p/problem.yaml", Some(3), "x");
        assert_eq!(warning.to_string(), "p/problem.yaml:3: x");
    }
}
