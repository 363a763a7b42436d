//! `cpjudge merge`: the reports of the shares of a judge joined into the report of the whole.

use super::session::{check_folder_of, write_reports};
use crate::Outcome;
use crate::cli::MergeArgs;
use crate::error::{Error, Result};
use crate::judge::{Share, merge as join};
use crate::report::{ColorChoice, Detail, Style, read_json};

pub fn merge(color: ColorChoice, args: &MergeArgs) -> Result<Outcome> {
    if let Some(junit) = &args.junit {
        check_folder_of(junit, "--junit")?;
    }
    let mut shares = Vec::with_capacity(args.reports.len());
    let mut isolation = None;
    for path in &args.reports {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
        let saved = read_json(&text).map_err(|why| {
            Error::Usage(format!(
                "{}: not a report of `cpjudge judge --json`: {why}",
                path.display()
            ))
        })?;
        match &isolation {
            None => isolation = Some(saved.isolation),
            Some(first) if *first != saved.isolation => eprintln!(
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
    // The isolation of the first share's machine stands for all: the JSON has room for one.
    let isolation = isolation.expect("at least one report");
    write_reports(
        &report,
        &isolation,
        args.json,
        Style::for_stdout(color, Detail::Normal),
        args.junit.as_deref(),
    )?;
    Ok(Outcome::from(report.all_as_expected()))
}
