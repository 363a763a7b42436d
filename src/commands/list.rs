//! `cpjudge list`: the problems, their limits and how many tests and solutions each has.

use super::target::Target;
use crate::authoring;
use crate::cache::Cache;
use crate::cli::ListArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, Comparison, Problem, find_tests};
use crate::report::{self, ProblemSummary};
use crate::units::millis;
use crate::verdict::Verdict;

/// Lists the problems; returns whether every problem's configuration is sound.
pub fn list(catalog: &Catalog, cache: &Cache, args: &ListArgs) -> Result<bool> {
    let mut summaries: Vec<ProblemSummary> = catalog
        .names()
        .into_iter()
        .map(|name| match catalog.load(&name) {
            Ok(problem) => {
                let target = Target::in_project(catalog, problem);
                let problem = &target.problem;
                ProblemSummary {
                    tests: find_tests(&target.tests_dir).ok().map(|t| t.len()),
                    lacks: lacks(problem, untested(&target, cache)),
                    name,
                    title: Some(problem.title.clone()),
                    time_limit_ms: Some(millis(problem.limits.time)),
                    memory_limit_kib: Some(problem.limits.memory.kib()),
                    solutions: Some(problem.solutions.len()),
                    error: None,
                }
            }
            Err(e) => ProblemSummary::broken(name, e.to_string()),
        })
        .collect();
    summaries.extend(
        broken_folders(catalog)
            .into_iter()
            .map(|(name, why)| ProblemSummary::broken(name, why)),
    );
    let mut out = std::io::stdout().lock();
    if args.json {
        report::write_list_json(&summaries, &mut out)
    } else {
        report::write_list(&summaries, &mut out)
    }
    .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(summaries.iter().all(|s| s.error.is_none()))
}

/// What a problem still lacks to be ready: an input validator, tests that reach every bound its validator
/// reports (`untested`), and solutions expected to fail as a test set must catch them (a wrong answer, and too
/// slow), where the problem can tell them.
fn lacks(problem: &Problem, untested: Option<String>) -> Vec<String> {
    let mut lacks = Vec::new();
    if problem.validator.is_none() {
        lacks.push("an input validator".to_owned());
    }
    lacks.extend(untested);
    let expecting = |verdict: Verdict| {
        problem
            .solutions
            .iter()
            .any(|s| s.expected.contains(&verdict))
    };
    // Outputs shown rather than judged are never wrong.
    if problem.comparison != Comparison::Shown && !expecting(Verdict::WrongAnswer) {
        lacks.push("a solution expected WA".to_owned());
    }
    if !expecting(Verdict::TimeLimit) {
        lacks.push("a solution expected TLE".to_owned());
    }
    lacks
}

/// What the problem's tests leave of its bounds untested, as `validate --constraints` last found them, without
/// running the validator: the bounds and cases no test reaches, or that they are not known for the tests as they
/// are now. Nothing for a problem without a validator, or whose tests reach everything its validator reports.
fn untested(target: &Target, cache: &Cache) -> Option<String> {
    let problem = &target.problem;
    problem.validator.as_ref()?;
    let tests = target.inputs(None).unwrap_or_default();
    let Some(reached) = authoring::kept_reached(cache, problem, &tests) else {
        return Some(format!(
            "bounds not checked: run `cpjudge validate {} --constraints`",
            problem.name
        ));
    };
    match reached.unreached.as_slice() {
        [] => None,
        [one] => Some(format!("an untested bound: {one} never reached")),
        many => Some(format!(
            "untested bounds: {} never reached",
            many.join(", ")
        )),
    }
}

/// The folders under `problems/` no problem can be loaded from, each with its name and why: broken, not absent.
pub(super) fn broken_folders(catalog: &Catalog) -> Vec<(String, String)> {
    let folder_name = |folder: &std::path::Path| {
        folder
            .file_name()
            .map(crate::text::file_name)
            .unwrap_or_default()
    };
    let mut broken: Vec<(String, String)> = catalog
        .misnamed()
        .iter()
        .map(|folder| (folder_name(folder), crate::problem::misnamed(folder)))
        .collect();
    broken.extend(catalog.without_config().iter().map(|folder| {
        (
            folder_name(folder),
            format!(
                "{} has no problem.toml: write one there (`cpjudge new` starts a problem with one), or remove the folder",
                crate::text::relative(folder).display()
            ),
        )
    }));
    broken
}
