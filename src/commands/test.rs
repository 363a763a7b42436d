//! `cpjudge test`: judge one file on sample tests, without a problem folder, as a contestant has them.

use super::session::{self, Session};
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::TestArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, Problem, default_tests_dir, submissions};
use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::Path;

/// Judges the file and reports; returns whether it passed every test.
pub fn test(
    root: Option<&Path>,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &TestArgs,
) -> Result<Outcome> {
    if !args.file.is_file() {
        return Err(Error::Usage(format!(
            "{} does not exist",
            args.file.display()
        )));
    }
    let solutions = submissions(std::slice::from_ref(&args.file), &[Verdict::Accepted])?;
    let tests_dir = match &args.tests {
        Some(dir) => dir.clone(),
        None => default_tests_dir(&args.file).ok_or_else(|| {
            let beside = args.file.parent().unwrap_or(Path::new("."));
            Error::Usage(format!(
                "no tests/ or test/ folder beside {} (in {}): give one with --tests DIR",
                args.file.display(),
                beside.display()
            ))
        })?,
    };
    let session = Session {
        problem: Problem::standalone(&args.file),
        solutions,
        tests_dir,
        own_solutions: false,
        // Inside a project, its tests and answers stay hidden from the file too.
        private_dirs: root
            .map(|r| Catalog::new(r).private_dirs())
            .unwrap_or_default(),
    };
    session::run(session, cache, layers, color, &args.run)
}
