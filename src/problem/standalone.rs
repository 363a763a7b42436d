//! A problem without a folder: one source file judged on sample tests, as a contestant has them.

use super::{Comparison, Problem, ProblemLimits};
use crate::units::Bytes;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The limits of `cpjudge test` unless given: roomy, since the real ones are not known.
pub const STANDALONE_LIMITS: ProblemLimits = ProblemLimits {
    time: Duration::from_secs(2),
    memory: Bytes::mib(1024),
    output: Bytes::mib(64),
};

impl Problem {
    /// The problem a lone source file is judged as: named after the file, compared token by token, no checker,
    /// validator or solutions of its own.
    pub fn standalone(file: &Path) -> Problem {
        let dir = file.parent().map_or_else(PathBuf::new, Path::to_owned);
        let name = file
            .file_name()
            .map(crate::text::file_name)
            .unwrap_or_default();
        Problem {
            groups: None,
            config_path: file.to_owned(),
            title: name.clone(),
            name,
            dir,
            limits: STANDALONE_LIMITS,
            comparison: Comparison::Tokens,
            validator: None,
            protocol: crate::problem::Protocol::Cpjudge,
            generator: None,
            stress: None,
            solutions: Vec::new(),
            package: None,
            flags: Default::default(),
            time_limit_floor: None,
        }
    }
}

/// Where a lone file's tests are when not given: `tests/` or `test/` in `dir`, its folder (as online-judge-tools
/// makes them); for a command, the current folder (empty).
pub fn default_tests_dir(dir: &Path) -> Option<PathBuf> {
    ["tests", "test"]
        .map(|name| dir.join(name))
        .into_iter()
        .find(|d| d.is_dir())
}
