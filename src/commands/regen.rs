//! `cpjudge regen`: rebuild every test from its recipe.

use super::session::prepare_sandbox;
use crate::Outcome;
use crate::authoring::{self, Workshop};
use crate::cli::RegenArgs;
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report::{self, ColorChoice, Detail, Steps, Style};
use crate::sandbox::Layers;
use std::path::{Path, PathBuf};

pub fn regen(
    catalog: &Catalog,
    cwd: &Path,
    cache: PathBuf,
    layers: &Layers,
    color: ColorChoice,
    args: &RegenArgs,
) -> Result<Outcome> {
    let problem = catalog.load_given(&args.problem, cwd)?;
    let (sandbox, _) = prepare_sandbox(layers, false, catalog.private_dirs(), &cache)?;
    let workshop = Workshop::new(&sandbox, &cache, &problem)?;
    let steps = Steps::new("rebuilding", 0);
    let outcome = authoring::regen(
        &workshop,
        &catalog.testdata_dir(&problem.name),
        args.write,
        &mut |done, total| steps.set(done, total),
    );
    steps.finish();
    let report = outcome?;
    report::write_regen(
        &report,
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
