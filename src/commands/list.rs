//! `cpjudge list`: the problems, their limits and how many tests and solutions each has.

use crate::cli::ListArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, find_tests};
use crate::report::{self, ProblemSummary};
use crate::units::millis;

/// Lists the problems; returns whether every problem's configuration is sound.
pub fn list(catalog: &Catalog, args: &ListArgs) -> Result<bool> {
    let mut summaries: Vec<ProblemSummary> = catalog
        .names()
        .into_iter()
        .map(|name| match catalog.load(&name) {
            Ok(problem) => ProblemSummary {
                tests: find_tests(&catalog.testdata_dir(&name))
                    .ok()
                    .map(|t| t.len()),
                name,
                title: Some(problem.title),
                time_limit_ms: Some(millis(problem.limits.time)),
                memory_limit_kib: Some(problem.limits.memory.kib()),
                solutions: Some(problem.solutions.len()),
                error: None,
            },
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
