//! The harness's own errors (bad configuration, missing files, missing compilers) and their exit codes.
//! Verdicts are not errors: a wrong answer is an `Ok` result.

use crate::units::Bytes;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("failed to {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file or folder of the build cache that cannot be made or written: the cache's place is the user's to choose.
    #[error("failed to {action} {} in the build cache: {source}; give a writable folder with --cache-dir DIR (or CPJUDGE_CACHE_DIR)", path.display())]
    CacheUnwritable {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// A problem in a configuration file, with the position it was found at.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Config {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("unknown problem \"{name}\"; known problems: {}", list_or_none(known))]
    UnknownProblem { name: String, known: Vec<String> },
    #[error("{}: test input has no answer file (expected {} or {})", input.display(), input.with_extension("ans").display(), input.with_extension("out").display())]
    MissingAnswer { input: PathBuf },
    #[error("{}: answer file has no test input (expected {})", answer.display(), answer.with_extension("in").display())]
    MissingInput { answer: PathBuf },
    /// A test's input or answer over the size the judge takes (see [`crate::problem::TEST_FILE_LIMIT`]).
    #[error("{}: a test file of {} bytes ({}), over the limit of {limit} for a test's input or answer", path.display(), size.0, size.measured())]
    TestTooLarge {
        path: PathBuf,
        size: Bytes,
        limit: Bytes,
    },
    #[error("no tests found in {} (tests are NAME.in with NAME.ans or NAME.out)", dir.display())]
    NoTests { dir: PathBuf },
    #[error("tests folder {} does not exist", dir.display())]
    NoTestsFolder { dir: PathBuf },
    #[error("not in a cpjudge project: no folder from {} up holds a problems/ folder (give --root DIR)", cwd.display())]
    NoProject { cwd: PathBuf },
    #[error("{}: unknown language for extension \"{extension}\" (known: {known})", path.display())]
    UnknownLanguage {
        path: PathBuf,
        extension: String,
        known: String,
    },
    #[error("{}{language}{} `{program}`, which was not found on PATH ({hint})",
        needed_by.as_deref().map(|by| format!("{by} is in ")).unwrap_or_default(),
        if needed_by.is_some() { ", which needs" } else { " needs" })]
    MissingCompiler {
        language: String,
        program: String,
        hint: String,
        /// The program that needs it and its role ("the validator problems/p/validator.rs"), where one of a
        /// problem's own programs does: a problem may need a language its submissions do not.
        needed_by: Option<String>,
    },
    #[error("{what} {} does not compile:\n{message}", path.display())]
    ToolCompile {
        what: &'static str,
        path: PathBuf,
        message: String,
    },
    #[error("test {test} is invalid: {message}")]
    InvalidTest { test: String, message: String },
    #[error("{0}")]
    Usage(String),
    #[error("sandbox: {0}")]
    Sandbox(String),
    /// The user asked the judge to stop (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// A test's run not made because, by the time its turn came, an earlier result had made the test needless (see
    /// `judge::turns`): the judge drops the test, and never shows this.
    #[error("the test was no longer to be run")]
    NotWanted,
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none (is this the project folder, with a problems/ folder in it?)".to_owned()
    } else {
        items.join(", ")
    }
}

impl Error {
    /// Whether this is a write to a pipe whose reader has gone.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// This error, pointing to `--cache-dir` where it is a folder under `cache` that may not be made or written.
    pub fn in_cache(self, cache: &Path) -> Self {
        match self {
            Error::Io {
                action,
                path,
                source,
            } if path.starts_with(cache)
                && matches!(
                    source.kind(),
                    std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
                ) =>
            {
                Error::CacheUnwritable {
                    action,
                    path,
                    source,
                }
            }
            other => other,
        }
    }

    pub fn io(action: &'static str, path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.as_ref().to_owned(),
            source,
        }
    }

    /// A configuration error at a byte offset of `text`, reported as line and column (both 1-based).
    pub fn config_at(path: &Path, text: &str, offset: usize, message: impl Into<String>) -> Self {
        let (line, column) = line_column(text, offset);
        Error::Config {
            path: path.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }

    /// The process exit code for this error. A run the sandbox could not carry out is 3: the judge itself failed,
    /// not the user's input. Every other error but an interrupt is a usage or configuration problem from the user's
    /// point of view: 2, which scripts can tell apart from 1 (a verdict not as expected); an interrupt is 130, as a
    /// shell reports a process ended by Ctrl-C.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Interrupted => crate::interrupt::EXIT_CODE,
            Error::Sandbox(_) => 3,
            _ => 2,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_told_apart() {
        let pipe = Error::io(
            "write",
            "standard output",
            std::io::ErrorKind::BrokenPipe.into(),
        );
        let full = Error::io(
            "write",
            "standard output",
            std::io::ErrorKind::StorageFull.into(),
        );
        assert!(pipe.is_broken_pipe());
        assert!(!full.is_broken_pipe());
    }

    #[test]
    fn positions_are_one_based() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 4), (1, 5));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 11), (2, 6));
        assert_eq!(line_column(text, 999), (3, 1));
    }

    #[test]
    fn config_error_names_file_line_and_column() {
        let e = Error::config_at(Path::new("p/problem.toml"), "x\nyz", 3, "bad");
        assert_eq!(e.to_string(), "p/problem.toml:2:2: bad");
    }
}
