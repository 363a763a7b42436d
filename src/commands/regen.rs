//! `cpjudge regen`: rebuild every test from its recipe.

use super::target::Target;
use crate::Outcome;
use crate::authoring::{self, Workshop};
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
    let target = Target::find(project, cwd, &args.problem)?;
    target.warn_package();
    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let workshop = Workshop::new(&sandbox, &cache, &target.problem)?;
    let steps = Steps::new("rebuilding", 0);
    let outcome = authoring::regen(
        &workshop,
        &target.new_tests_dir,
        args.write,
        &mut |done, total| steps.set(done, total),
    );
    steps.finish();
    let report = outcome?;
    report::write_regen(
        &report,
        &args.problem.display().to_string(),
        Style::for_stdout(color, Detail::Normal),
        &mut std::io::stdout().lock(),
    )
    .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(if report.interrupted {
        Outcome::Interrupted
    } else {
        Outcome::from(report.is_fine())
    })
}
