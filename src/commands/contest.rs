//! `judge`, `validate` and `regen` naming no problem: every problem of the project (or those `--problems`
//! chooses), each worked on as the command works on one, and a summary of all. A problem that cannot be loaded,
//! or worked on for a fault of its own, is said in its row and the others go on; the exit code is over all.

use super::session::{self, Session};
use super::target::Target;
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::{JudgeArgs, RegenArgs, RunArgs, ValidateArgs};
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report::{self, ColorChoice, Detail, JudgedProblem, ProblemRow, ProblemStatus, Style};
use crate::sandbox::{Layers, own_peak_memory};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Judges every chosen problem with its own solutions, and reports them all.
pub(super) fn judge(
    project: Result<Catalog>,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &JudgeArgs,
) -> Result<Outcome> {
    for (given, option) in [
        (!args.submissions.is_empty(), "--submission"),
        (!args.commands.is_empty(), "--command"),
        (args.tests.is_some(), "--tests"),
        (args.run.partition.is_some(), "--partition"),
    ] {
        if given {
            return Err(Error::Usage(format!(
                "{option} is for one problem: name it (`cpjudge judge PROBLEM {option} ...`)"
            )));
        }
    }
    let (catalog, chosen) = chosen(project, "judge", args.problems.as_deref())?;
    if let Some(index) = &args.run.html {
        session::check_folder_of(index, "--html")?;
        // Found now, not after a long judge.
        if let Some((name, _)) = chosen
            .iter()
            .find(|(name, _)| page_of(index, name) == *index)
        {
            return Err(Error::Usage(format!(
                "--html {}: the page of problem {name} would be written over the index; name the index otherwise",
                index.display()
            )));
        }
    }
    let detail = match (args.run.quiet, args.run.verbose) {
        (true, _) => Detail::Quiet,
        (_, true) => Detail::Verbose,
        _ => Detail::Normal,
    };
    let style = Style::for_stdout(color, detail);
    if let Some(junit) = &args.run.junit {
        session::check_folder_of(junit, "--junit")?;
    }
    // Each problem judged as `judge PROBLEM` judges it; the report files are the contest's.
    let run_args = RunArgs {
        html: None,
        junit: None,
        ..args.run.clone()
    };
    let mut problems: Vec<JudgedProblem> = Vec::new();
    for (name, broken) in chosen {
        if crate::interrupt::requested() {
            break;
        }
        let judged = match broken {
            Some(why) => Err(Error::Usage(why)),
            None => Target::of(&catalog, &name)
                .and_then(|target| judge_one(target, &cache, layers, &run_args)),
        };
        let problem = match judged {
            Ok(judged) => {
                let status = status_of(judged.outcome);
                // What went wrong is shown as a judge of the problem alone shows it, above the summary.
                if !args.run.json && status != ProblemStatus::AsExpected {
                    write_stdout(|out| report::write_table(&judged.report, style, out))?;
                }
                JudgedProblem {
                    row: report::judged_row(&judged.report, status),
                    judged: Some((judged.report, judged.origin)),
                }
            }
            Err(e) => JudgedProblem {
                row: ProblemRow::broken(name, why(e)?, report::JUDGE_COLUMNS.len()),
                judged: None,
            },
        };
        problems.push(problem);
    }
    if args.run.json {
        write_stdout(|out| report::write_contest_json(&problems, own_peak_memory(), out))?;
    } else {
        let rows: Vec<ProblemRow> = problems.iter().map(|p| p.row.clone()).collect();
        write_stdout(|out| report::write_summary(&report::JUDGE_COLUMNS, &rows, style, out))?;
    }
    // Each file whole or not at all: a CI job must not pick up half a report.
    if let Some(path) = &args.run.junit {
        let mut xml = Vec::new();
        report::write_contest_junit(&problems, &mut xml)
            .map_err(|e| Error::io("write", path, e))?;
        crate::atomic::write(path, &xml)?;
    }
    if let Some(index) = &args.run.html {
        write_html(&problems, index)?;
    }
    Ok(over_all(problems.iter().map(|p| &p.row)))
}

/// One problem judged with its own solutions and tests, as `judge PROBLEM` judges it.
fn judge_one(
    target: Target,
    cache: &Cache,
    layers: &Layers,
    args: &RunArgs,
) -> Result<session::Judged> {
    let session = Session {
        contestant: false,
        solutions: target.problem.solutions.clone(),
        tests_dir: target.tests_dir,
        problem: target.problem,
        private_dirs: target.private_dirs,
        own_solutions: true,
    };
    // A problem's page and report show each test, and its own table is shown where it is not as expected.
    session::judge(session, cache, layers, args, true)
}

/// Writes the index page at `index`, and beside it each judged problem's own page (see [`page_of`]).
fn write_html(problems: &[JudgedProblem], index: &Path) -> Result<()> {
    for problem in problems {
        let Some((report, origin)) = &problem.judged else {
            continue;
        };
        let path = page_of(index, &problem.row.problem);
        let mut html = Vec::new();
        report::write_html(report, origin, &mut html).map_err(|e| Error::io("write", &path, e))?;
        crate::atomic::write(&path, &html)?;
    }
    let mut html = Vec::new();
    report::write_index(problems, &page_name, &mut html)
        .map_err(|e| Error::io("write", index, e))?;
    crate::atomic::write(index, &html)
}

/// A problem's page in a contest's HTML report: `<problem>.html`, in the index's folder.
fn page_of(index: &Path, problem: &str) -> PathBuf {
    index
        .parent()
        .unwrap_or(Path::new(""))
        .join(page_name(problem))
}

fn page_name(problem: &str) -> String {
    format!("{problem}.html")
}

/// Validates every chosen problem's tests, and sums them up.
pub(super) fn validate(
    project: Result<Catalog>,
    cache: &Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &ValidateArgs,
) -> Result<Outcome> {
    if args.tests.is_some() {
        return Err(Error::Usage(
            "--tests is for one problem: name it (`cpjudge validate PROBLEM --tests DIR`)".into(),
        ));
    }
    let (catalog, chosen) = chosen(project, "validate", args.problems.as_deref())?;
    let style = Style::for_stdout(color, Detail::Normal);
    let mut rows = Vec::new();
    for (name, broken) in chosen {
        if crate::interrupt::requested() {
            break;
        }
        let validated = match broken {
            Some(why) => Err(Error::Usage(why)),
            None => Target::of(&catalog, &name)
                .and_then(|target| super::validate::validate_target(&target, cache, layers, args)),
        };
        rows.push(match validated {
            Ok(validated) => {
                // The constraint report is asked of every problem; a problem's faults show as they do alone.
                if args.constraints || !validated.is_fine() {
                    write_stdout(|out| {
                        writeln!(out, "{name}:")?;
                        report::write_validation(&validated, style, out)
                    })?;
                }
                ProblemRow {
                    problem: name,
                    cells: vec![validated.tests.len().to_string()],
                    status: status_of(Outcome::from(validated.is_fine())),
                }
            }
            Err(e) => ProblemRow::broken(name, why(e)?, 1),
        });
    }
    write_stdout(|out| report::write_summary(&["tests"], &rows, style, out))?;
    Ok(over_all(rows.iter()))
}

/// Rebuilds every chosen problem's tests from its recipe, and sums them up.
pub(super) fn regen(
    project: Result<Catalog>,
    cache: &Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &RegenArgs,
) -> Result<Outcome> {
    let (catalog, chosen) = chosen(project, "regen", args.problems.as_deref())?;
    let style = Style::for_stdout(color, Detail::Normal);
    let mut rows = Vec::new();
    for (name, broken) in chosen {
        if crate::interrupt::requested() {
            break;
        }
        let rebuilt = match broken {
            Some(why) => Err(Error::Usage(why)),
            None => Target::of(&catalog, &name)
                .and_then(|target| super::regen::regen_target(&target, cache, layers, args.write)),
        };
        rows.push(match rebuilt {
            Ok(rebuilt) => {
                let outcome = super::regen::outcome(&rebuilt);
                if outcome != Outcome::AsExpected {
                    write_stdout(|out| report::write_regen(&rebuilt, &name, style, out))?;
                }
                ProblemRow {
                    problem: name,
                    cells: vec![rebuilt.tests.len().to_string()],
                    status: status_of(outcome),
                }
            }
            Err(e) => ProblemRow::broken(name, why(e)?, 1),
        });
    }
    write_stdout(|out| report::write_summary(&["tests"], &rows, style, out))?;
    Ok(over_all(rows.iter()))
}

/// The problems a command over several works on, by name, each with why it is broken where it cannot be loaded.
type Chosen = Vec<(String, Option<String>)>;

/// The project's problems, with why each that cannot be loaded is broken; only those whose names match `pattern`
/// where it is given. Outside a project, a usage error: the command needs a problem there.
fn chosen(
    project: Result<Catalog>,
    command: &str,
    pattern: Option<&str>,
) -> Result<(Catalog, Chosen)> {
    let catalog = match project {
        Err(outside @ Error::NoProject { .. }) => {
            return Err(Error::Usage(format!(
                "{command} names no problem, so it works on every problem of the project, but {outside}"
            )));
        }
        project => project?,
    };
    let mut problems: Vec<(String, Option<String>)> = catalog
        .names()
        .into_iter()
        .map(|name| (name, None))
        .collect();
    problems.extend(
        super::list::broken_folders(&catalog)
            .into_iter()
            .map(|(name, why)| (name, Some(why))),
    );
    if let Some(pattern) = pattern {
        let glob = globset::Glob::new(pattern)
            .map_err(|e| Error::Usage(format!("--problems {pattern:?}: {e}")))?
            .compile_matcher();
        problems.retain(|(name, _)| glob.is_match(name));
        if problems.is_empty() {
            return Err(Error::Usage(format!(
                "--problems {pattern:?}: no problem of the project matches (known: {})",
                catalog.names().join(", ")
            )));
        }
    }
    if problems.is_empty() {
        return Err(Error::Usage(format!(
            "{command}: the project {} has no problem yet (`cpjudge new NAME` starts one)",
            catalog.root().display()
        )));
    }
    Ok((catalog, problems))
}

/// Why a problem could not be worked on, for its row; an error that is not the problem's own (the sandbox failed,
/// the user stopped the command, standard output went away) ends the command instead.
fn why(error: Error) -> Result<String> {
    if error.exit_code() == 2 && !error.is_broken_pipe() {
        Ok(error.to_string())
    } else {
        Err(error)
    }
}

fn status_of(outcome: Outcome) -> ProblemStatus {
    match outcome {
        Outcome::AsExpected => ProblemStatus::AsExpected,
        Outcome::NotAsExpected => ProblemStatus::NotAsExpected,
        Outcome::Interrupted => ProblemStatus::Interrupted,
    }
}

/// The exit code over every problem: interrupted if the user stopped it, as expected only if every problem was.
fn over_all<'a>(rows: impl Iterator<Item = &'a ProblemRow>) -> Outcome {
    let mut outcome = Outcome::AsExpected;
    for row in rows {
        match row.status {
            ProblemStatus::AsExpected => {}
            ProblemStatus::Interrupted => return Outcome::Interrupted,
            _ => outcome = Outcome::NotAsExpected,
        }
    }
    if crate::interrupt::requested() {
        return Outcome::Interrupted;
    }
    outcome
}

fn write_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("write", "standard output", e))
}
