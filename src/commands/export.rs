//! `cpjudge export`: write a problem as a Problem Package Format package.

use crate::Outcome;
use crate::cli::ExportArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, Problem, find_tests, is_package};
use std::path::Path;

/// Exports the problem and says what was written.
pub fn export(catalog: Result<Catalog>, cwd: &Path, args: &ExportArgs) -> Result<Outcome> {
    let given = cwd.join(&args.problem);
    let (problem, tests) = if is_package(&given) {
        let problem = Problem::load_package(&given)?;
        let tests = problem
            .package
            .as_ref()
            .map(|p| p.tests.clone())
            .unwrap_or_default();
        (problem, tests)
    } else {
        let catalog = catalog?;
        let problem = catalog.load_given(&args.problem, cwd)?;
        let tests = find_tests(&catalog.testdata_dir(&problem.name))?;
        (problem, tests)
    };
    let dir = match &args.dir {
        Some(dir) => cwd.join(dir),
        None => cwd.join(crate::export::short_name(&problem.name).ok_or_else(|| {
            Error::Usage(format!(
                "problem {} has no letter or digit in its name to name a package folder after: give the folder",
                problem.name
            ))
        })?),
    };
    let exported = crate::export::export(&problem, &tests, &dir, args.format)?;
    crate::report::write_exported(&problem.name, &exported, &mut std::io::stdout().lock())
        .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(Outcome::AsExpected)
}
