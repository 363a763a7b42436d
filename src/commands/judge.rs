//! `cpjudge judge`: judge a problem's solutions, or submissions, and report.

use super::session::{self, Session};
use crate::Outcome;
use crate::cli::JudgeArgs;
use crate::error::Result;
use crate::problem::{Catalog, submissions};
use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// Judges and reports; returns whether every solution got its expected verdict.
pub fn judge(
    catalog: &Catalog,
    cwd: &Path,
    cache: PathBuf,
    layers: &Layers,
    color: ColorChoice,
    args: &JudgeArgs,
) -> Result<Outcome> {
    let problem = catalog.load_given(&args.problem, cwd)?;
    let solutions = if args.submissions.is_empty() {
        problem.solutions.clone()
    } else {
        let expected = if args.expect.is_empty() {
            vec![Verdict::Accepted]
        } else {
            args.expect.clone()
        };
        submissions(&args.submissions, &expected)?
    };
    let tests_dir = args
        .tests
        .clone()
        .unwrap_or_else(|| catalog.testdata_dir(&problem.name));
    let session = Session {
        problem,
        solutions,
        tests_dir,
        private_dirs: catalog.private_dirs(),
    };
    session::run(session, cache, layers, color, &args.run)
}
