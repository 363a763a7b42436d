//! `cpjudge judge`: judge a problem's solutions, or submissions, and report.

use super::session::{self, Session};
use crate::Outcome;
use crate::cli::JudgeArgs;
use crate::error::Result;
use crate::problem::{Catalog, Problem, Solution, is_package, submissions};
use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// Judges and reports; returns whether every solution got its expected verdict.
pub fn judge(
    catalog: Result<Catalog>,
    cwd: &Path,
    cache: PathBuf,
    layers: &Layers,
    color: ColorChoice,
    args: &JudgeArgs,
) -> Result<Outcome> {
    let given = cwd.join(&args.problem);
    if is_package(&given) {
        let problem = Problem::load_package(&std::fs::canonicalize(&given).unwrap_or(given))?;
        let solutions = chosen_solutions(&problem, args)?;
        let tests_dir = args
            .tests
            .clone()
            .unwrap_or_else(|| problem.dir.join("data"));
        let session = Session {
            private_dirs: vec![problem.dir.clone()],
            problem,
            solutions,
            tests_dir,
        };
        return session::run(session, cache, layers, color, &args.run);
    }
    let catalog = catalog?;
    let problem = catalog.load_given(&args.problem, cwd)?;
    let solutions = chosen_solutions(&problem, args)?;
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

/// The problem's own solutions, or the submissions given on the command line.
fn chosen_solutions(problem: &Problem, args: &JudgeArgs) -> Result<Vec<Solution>> {
    if args.submissions.is_empty() {
        return Ok(problem.solutions.clone());
    }
    let expected = if args.expect.is_empty() {
        vec![Verdict::Accepted]
    } else {
        args.expect.clone()
    };
    submissions(&args.submissions, &expected)
}
