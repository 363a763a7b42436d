//! `cpjudge merge`: the reports of the shares of a judge joined into the report of the whole; and `cpjudge
//! report`: a saved report shown again.

use super::session::{Outputs, write_reports};
use crate::Outcome;
use crate::cli::{MergeArgs, ReportArgs, ReportForms};
use crate::error::{Error, Result};
use crate::judge::{Share, merge as join};
use crate::report::{ColorChoice, Detail, Origin, SavedReport, Style, read_json};
use std::path::Path;

pub fn merge(color: ColorChoice, args: &MergeArgs) -> Result<Outcome> {
    let outputs = outputs(&args.forms, color)?;
    let mut shares = Vec::with_capacity(args.reports.len());
    let mut origin: Option<Origin> = None;
    for path in &args.reports {
        let saved = read(path)?;
        match &origin {
            None => origin = Some(saved.origin),
            Some(first) if first.isolation != saved.origin.isolation => eprintln!(
                "warning: {} was judged under other isolation layers than {}; the merged report shows the first's",
                path.display(),
                args.reports[0].display()
            ),
            Some(_) => {}
        }
        shares.push(Share {
            origin: path.display().to_string(),
            report: saved.report,
        });
    }
    let report = join(shares).map_err(Error::Usage)?;
    // The first share's machine and date stand for all: a report has room for one.
    let origin = origin.expect("at least one report");
    write_reports(&report, &origin, &outputs)?;
    Ok(Outcome::from(report.all_as_expected()))
}

pub fn report(color: ColorChoice, args: &ReportArgs) -> Result<Outcome> {
    let outputs = outputs(&args.forms, color)?;
    let saved = read(&args.report)?;
    write_reports(&saved.report, &saved.origin, &outputs)?;
    Ok(Outcome::from(saved.report.all_as_expected()))
}

/// The reports asked for, their folders checked before any work.
fn outputs(forms: &ReportForms, color: ColorChoice) -> Result<Outputs<'_>> {
    let outputs = Outputs {
        json: forms.json,
        style: Style::for_stdout(color, Detail::Normal),
        junit: forms.junit.as_deref(),
        html: forms.html.as_deref(),
    };
    outputs.check()?;
    Ok(outputs)
}

/// A report of `judge --json`, read back.
fn read(path: &Path) -> Result<SavedReport> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    read_json(&text).map_err(|why| {
        Error::Usage(format!(
            "{}: not a report of `cpjudge judge --json`: {why}",
            path.display()
        ))
    })
}
