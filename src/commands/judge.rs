//! `cpjudge judge`: judge a problem's solutions, or submissions, and report.

use super::session::{self, Session};
use super::target::Target;
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::JudgeArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, Problem, Solution, commands, submissions};
use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::Path;

/// Judges and reports; returns whether every solution got its expected verdict.
pub fn judge(
    catalog: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &JudgeArgs,
) -> Result<Outcome> {
    let Some(given) = &args.problem else {
        if args.run.watch {
            return Err(Error::Usage(
                "--watch watches one problem: name it (`cpjudge judge PROBLEM --watch`)".into(),
            ));
        }
        return super::contest::judge(catalog, cache, layers, color, args);
    };
    if args.run.watch {
        // The project is found again for each judge, as it was for the first.
        let root = catalog.ok().map(|c| c.root().to_owned());
        let project = || {
            root.as_deref()
                .map(Catalog::new)
                .ok_or_else(|| Error::NoProject {
                    cwd: cwd.to_owned(),
                })
        };
        let prepare = || session_of(project(), cwd, given, args);
        return super::watch::watch(prepare, cache, layers, color, &args.run);
    }
    session::run(
        session_of(catalog, cwd, given, args)?,
        cache,
        layers,
        color,
        &args.run,
    )
}

/// The judge to make of the arguments, with the problem `given` as its files say now.
fn session_of(
    catalog: Result<Catalog>,
    cwd: &Path,
    given: &Path,
    args: &JudgeArgs,
) -> Result<Session> {
    let target = Target::find(catalog, cwd, given)?;
    let solutions = chosen_solutions(&target.problem, args)?;
    Ok(Session {
        contestant: false,
        tests_dir: args.tests.clone().unwrap_or(target.tests_dir),
        problem: target.problem,
        solutions,
        private_dirs: target.private_dirs,
        own_solutions: args.submissions.is_empty() && args.commands.is_empty(),
    })
}

/// The problem's own solutions, or the submissions given on the command line.
fn chosen_solutions(problem: &Problem, args: &JudgeArgs) -> Result<Vec<Solution>> {
    if args.submissions.is_empty() && args.commands.is_empty() {
        return Ok(problem.solutions.clone());
    }
    // In the order given on the command line, files and commands alike: each --expect goes with the one before it.
    let mut files = submissions(&args.submissions, &[Verdict::Accepted])?.into_iter();
    let mut commands = commands(&args.commands, &[Verdict::Accepted])?.into_iter();
    let given = args.submissions.len() + args.commands.len();
    let mut solutions = Vec::with_capacity(given);
    for place in 0..given {
        let next = if args.command_places.contains(&place) {
            commands.next()
        } else {
            files.next()
        };
        solutions.extend(next);
    }
    // Where the places were not worked out (the arguments not parsed from a command line), the rest in turn.
    solutions.extend(files.chain(commands));
    for (index, solution) in solutions.iter_mut().enumerate() {
        solution.expected = args
            .expected
            .get(index)
            .filter(|own| !own.is_empty())
            .cloned()
            .unwrap_or_else(|| vec![Verdict::Accepted]);
        problem.prepare_submission(solution);
    }
    Ok(solutions)
}
