//! `cpjudge regen`: rebuild every test from its recipe.

use super::target::Target;
use crate::Outcome;
use crate::authoring::{self, RegenReport, Workshop};
use crate::cache::Cache;
use crate::cli::RegenArgs;
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report::{self, ColorChoice, Detail, Steps, Style};
use crate::sandbox::Layers;
use std::path::Path;

pub fn regen(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &RegenArgs,
) -> Result<Outcome> {
    let Some(given) = &args.problem else {
        return super::contest::regen(project, &cache, layers, color, args);
    };
    let target = Target::find(project, cwd, given)?;
    target.warn_package();
    let report = regen_target(&target, &cache, layers, args.write)?;
    report::write_regen(
        &report,
        &given.display().to_string(),
        Style::for_stdout(color, Detail::Normal),
        &mut std::io::stdout().lock(),
    )
    .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(outcome(&report))
}

/// Rebuilds the problem's tests (writing the changes if `write`), showing progress but no report.
pub(super) fn regen_target(
    target: &Target,
    cache: &Cache,
    layers: &Layers,
    write: bool,
) -> Result<RegenReport> {
    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let workshop = Workshop::new(&sandbox, cache, &target.problem)?;
    let steps = Steps::new("rebuilding", 0);
    let outcome = authoring::regen(
        &workshop,
        &target.new_tests_dir,
        write,
        &mut |done, total| steps.set(done, total),
    );
    steps.finish();
    outcome
}

/// What a rebuild means for the exit code.
pub(super) fn outcome(report: &RegenReport) -> Outcome {
    if report.interrupted {
        Outcome::Interrupted
    } else {
        Outcome::from(report.is_fine())
    }
}
