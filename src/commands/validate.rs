//! `cpjudge validate`: the tests against the validator, and the validator against the kept invalid inputs.

use super::target::Target;
use crate::Outcome;
use crate::authoring::{self, ValidationReport, Workshop};
use crate::cache::Cache;
use crate::cli::ValidateArgs;
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report::{self, ColorChoice, Detail, Steps, Style};
use crate::sandbox::Layers;
use std::path::Path;

pub fn validate(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &ValidateArgs,
) -> Result<Outcome> {
    let Some(given) = &args.problem else {
        return super::contest::validate(project, &cache, layers, color, args);
    };
    let target = Target::find(project, cwd, given)?;
    target.warn_package();
    let report = validate_target(&target, &cache, layers, args)?;
    let style = Style::for_stdout(color, Detail::Normal);
    report::write_validation(&report, style, &mut std::io::stdout().lock())
        .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(Outcome::from(report.is_fine()))
}

/// Validates the problem's tests (or those of `--tests`), showing progress but no report.
pub(super) fn validate_target(
    target: &Target,
    cache: &Cache,
    layers: &Layers,
    args: &ValidateArgs,
) -> Result<ValidationReport> {
    let tests = target.inputs(args.tests.as_deref())?;
    // Taken before the validator runs, so that a test changed meanwhile leaves the finding stale.
    let key = authoring::reached_key(&target.problem, &tests);
    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let workshop = Workshop::new(&sandbox, cache, &target.problem)?;
    let steps = Steps::new("validating", 0);
    let outcome = authoring::validate(&workshop, tests, args.constraints, &mut |done, total| {
        steps.set(done, total)
    });
    steps.finish();
    let report = outcome?;
    // Kept only when it speaks of the whole test set, every test read: `list` tells from it what the tests lack.
    if let Some(summary) = &report.constraints
        && args.tests.is_none()
        && report.protocol_errors.is_empty()
        && report.invalid_tests().next().is_none()
    {
        authoring::keep_reached(cache, &target.problem, &key, summary);
    }
    Ok(report)
}
