//! `cpjudge timelimit`: time a problem's references and its solutions expected TLE, and suggest a time limit.

use super::target::Target;
use crate::Outcome;
use crate::cache::Cache;
use crate::calibrate::{Calibrator, kept};
use crate::cli::TimelimitArgs;
use crate::error::{Error, Result};
use crate::judge::{Judge, JudgeOptions, SuggestedLimit};
use crate::problem::{Catalog, TestSelection};
use crate::report::{self, CalibrationProgress, ColorChoice, Detail, Origin, Style};
use crate::sandbox::Layers;
use crate::units::millis;
use std::io::Write;
use std::path::Path;

/// Calibrates and reports; returns whether nothing called for a warning, or whether the user stopped it.
pub fn timelimit(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &TimelimitArgs,
) -> Result<Outcome> {
    let target = Target::find(project, cwd, &args.problem)?;
    target.warn_package();
    let problem = target.problem.clone();
    let tests = TestSelection::new(&args.test_patterns, false)?.apply(target.tests(None)?)?;
    let (sandbox, isolation) = target.sandbox(layers, args.strict, &cache.dir)?;
    let kept_at = kept::place(&cache, &problem, &tests)?;
    let options = JudgeOptions {
        // Every test, whatever the verdict: a reference's slowest test may come after a failing one.
        all_tests: true,
        jobs: usize::from(args.jobs),
        partition: None,
        subset: false,
        per_test: true,
    };
    let judge = Judge::new(&sandbox, cache, options);
    let calibrator = Calibrator {
        judge: &judge,
        runs: usize::from(args.runs),
    };
    let mut progress = CalibrationProgress::new(args.json);
    let calibration = calibrator.calibrate(&problem, &problem.solutions, &tests, &mut |event| {
        progress.on_event(&event)
    });
    progress.finish();
    let calibration = calibration?;
    // The progress said where it stopped; a partial calibration suggests nothing, so nothing is printed.
    if calibration.interrupted.is_some() {
        return Ok(Outcome::Interrupted);
    }

    let mut out = std::io::stdout().lock();
    if args.json {
        report::write_timelimit_json(&calibration, &mut out)
    } else {
        let style = Style::for_stdout(color, Detail::Normal);
        report::write_timelimit(&calibration, style, &mut out)
    }
    .and_then(|()| out.flush())
    .map_err(|e| Error::io("write", "standard output", e))?;

    // Kept for the reports of later judges of the same references and tests.
    if let Some(suggested) = calibration.suggestion() {
        let origin = Origin::here(isolation);
        let suggestion = SuggestedLimit {
            limit_ms: millis(suggested.limit),
            slowest_reference_ms: millis(suggested.set_by.slowest),
            language: suggested.set_by.language,
            solution: suggested.set_by.solution,
            floor_ms: millis(calibration.floor),
            runs: calibration.runs,
            host: origin.host,
            date: origin.date,
        };
        if let Err(e) = kept::keep(&kept_at, &suggestion) {
            eprintln!("warning: the suggestion is not kept for the judge's reports: {e}");
        }
    }
    Ok(Outcome::from(calibration.warnings().is_empty()))
}
