//! `cpjudge merge`: the reports of the shares of a judge joined into the report of the whole; and `cpjudge
//! report`: a saved report shown again.

use super::session::{Outputs, write_reports};
use super::target::Target;
use crate::Outcome;
use crate::cli::{MergeArgs, ReportArgs, ReportForms};
use crate::error::{Error, Result};
use crate::judge::{Partition, Rules, Share, merge as join};
use crate::problem::{Catalog, Test};
use crate::report::{ColorChoice, Detail, Origin, SavedReport, Style, read_json};
use std::path::Path;

pub fn merge(
    project: Result<Catalog>,
    cwd: &Path,
    color: ColorChoice,
    args: &MergeArgs,
) -> Result<Outcome> {
    let outputs = outputs(&args.forms, color)?;
    let mut shares = Vec::with_capacity(args.reports.len());
    let mut origins = Vec::with_capacity(args.reports.len());
    let mut first: Option<(&Path, SavedReport)> = None;
    for path in &args.reports {
        let saved = read(path)?;
        match &first {
            None => first = Some((path, saved.clone())),
            Some((first_path, first)) => {
                let differences = differences(first, &saved);
                if !differences.is_empty() && !args.accept_differences {
                    return Err(Error::Usage(format!(
                        "{} and {} were not judged alike: {}; their times and verdicts may not be comparable \
                         (--accept-differences merges them all the same)",
                        first_path.display(),
                        path.display(),
                        differences.join("; ")
                    )));
                }
            }
        }
        origins.push((saved.report.partition, saved.origin));
        shares.push(Share {
            origin: path.display().to_string(),
            report: saved.report,
        });
    }
    let problem = match (&args.problem, shares.first()) {
        (Some(given), _) => Some(problem_and_tests(project, cwd, given)?),
        // Without one named, the problem the shares name, if it is found here: a pass-fail problem's shares
        // merge without it, all but the rules beyond verdicts.
        (None, Some(share)) => {
            let name = Path::new(&share.report.problem);
            match problem_and_tests(project, cwd, name) {
                Ok(found) => Some(found),
                Err(why) => {
                    eprintln!(
                        "warning: the problem {} is not found here ({why}): rules beyond verdicts are not \
                         checked; give it with --problem",
                        share.report.problem
                    );
                    None
                }
            }
        }
        (None, None) => None,
    };
    if let (Some((target, _)), Some(share)) = (&problem, shares.first())
        && target.problem.name != share.report.problem
    {
        return Err(Error::Usage(format!(
            "the reports are of the problem {}, not of {}",
            share.report.problem, target.problem.name
        )));
    }
    let rules = problem.as_ref().map(|(target, tests)| Rules {
        problem: &target.problem,
        tests,
    });
    let report = join(shares, rules).map_err(Error::Usage)?;
    // Joined, they are all shares: each has its partition.
    let mut origins: Vec<(Partition, Origin)> = origins
        .into_iter()
        .filter_map(|(partition, origin)| Some((partition?, origin)))
        .collect();
    origins.sort_by_key(|(partition, _)| partition.index);
    if origins
        .iter()
        .any(|(_, o)| o.isolation != origins[0].1.isolation)
    {
        eprintln!(
            "warning: the shares were judged under different isolation layers; the merged report counts a layer \
             as in force only where every share had it"
        );
    }
    write_reports(&report, &Origin::of_shares(&origins), &outputs)?;
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
        json_lines: false,
        style: Style::for_stdout(
            color,
            if forms.quiet {
                Detail::Quiet
            } else {
                Detail::Normal
            },
        ),
        junit: forms.junit.as_deref(),
        html: forms.html.as_deref(),
        contestant: None,
    };
    outputs.check()?;
    Ok(outputs)
}

/// The problem `given`, as `judge` finds it, and its tests.
fn problem_and_tests(
    project: Result<Catalog>,
    cwd: &Path,
    given: &Path,
) -> Result<(Target, Vec<Test>)> {
    let target = Target::find(project, cwd, given)?;
    // What the shares judged: static validation test cases among the tests.
    let tests = target.judged_tests()?;
    Ok((target, tests))
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

/// How two shares' judges differ in what can change a verdict or a time: the machine, the cpjudge, and each
/// solution's compiler or interpreter.
fn differences(a: &SavedReport, b: &SavedReport) -> Vec<String> {
    let mut found: Vec<String> = a
        .origin
        .fingerprint
        .differences(&b.origin.fingerprint)
        .into_iter()
        .map(|d| format!("machine: {d}"))
        .collect();
    if a.origin.cpjudge != b.origin.cpjudge {
        found.push(format!(
            "cpjudge {:?} against {:?}",
            a.origin.cpjudge, b.origin.cpjudge
        ));
    }
    let toolchain = |report: &SavedReport, name: &str| {
        report
            .report
            .solutions
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.build.as_ref())
            .map(|b| b.toolchain.clone())
    };
    for solution in &a.report.solutions {
        let (ours, theirs) = (toolchain(a, &solution.name), toolchain(b, &solution.name));
        if let (Some(ours), Some(theirs)) = (ours, theirs)
            && ours != theirs
        {
            found.push(format!(
                "{}'s toolchain {ours:?} against {theirs:?}",
                solution.name
            ));
        }
    }
    found
}
