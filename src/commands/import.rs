//! `cpjudge import`: make a problem of the project from a Problem Package Format package.

use super::target::Target;
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::ImportArgs;
use crate::error::{Error, Result};
use crate::judge::{Judge, JudgeOptions};
use crate::problem::{Catalog, is_package};
use crate::report::Progress;
use crate::sandbox::Layers;
use crate::toolchain::Toolchain;
use std::path::Path;
use std::time::Duration;

/// Imports the package and says what was written and what was left out.
pub fn import(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    args: &ImportArgs,
) -> Result<Outcome> {
    let catalog = project?;
    let path = cwd.join(&args.package);
    if !is_package(&path) {
        return Err(Error::Usage(format!(
            "{}: not a problem package (a folder holding problem.yaml)",
            path.display()
        )));
    }
    let target = Target::find(Ok(catalog.clone()), cwd, &args.package)?;
    // The loader names a package after its folder.
    let name = args.name.as_ref().unwrap_or(&target.problem.name);
    crate::authoring::check_problem_name(name)?;
    crate::import::check_free(catalog.root(), name)?;
    target.warn_package();
    let plan = crate::import::plan(&target.problem, name)?;
    let (limit, origin) = match &plan.fixed_time {
        // Where it is fixed, not the rule it is compared with.
        Some((limit, origin)) => (
            *limit,
            origin
                .split(", compared with")
                .next()
                .unwrap_or(origin)
                .to_owned(),
        ),
        None => derived(&target, cache, layers)?,
    };
    let imported = crate::import::write(&plan, catalog.root(), limit, &origin)?;
    crate::report::write_imported(&imported, &mut std::io::stdout().lock())
        .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(Outcome::AsExpected)
}

/// The time limit judging the package gives it where it fixes none: derived from its accepted submissions, run as
/// judging runs them (those in languages not installed here are left out, as judging leaves them out).
fn derived(target: &Target, cache: Cache, layers: &Layers) -> Result<(Duration, String)> {
    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let mut problem = target.problem.clone();
    let toolchain = Toolchain::default();
    problem
        .solutions
        .retain(|solution| toolchain.check(solution.language).is_ok());
    let tests = target.tests(None)?;
    let judge = Judge::new(&sandbox, cache, JudgeOptions::default());
    let mut progress = Progress::new(false, false);
    let found = judge.package_time_limit(&problem, &tests, &mut |event| progress.on_event(&event));
    progress.finish();
    let (limit, how) = found?.ok_or_else(|| {
        Error::Usage(format!(
            "{}: not a problem package",
            target.problem.dir.display()
        ))
    })?;
    Ok((limit, how))
}
