//! `cpjudge import`: a Problem Package Format package (legacy, 2023-07 or 2025-09, pass-fail or scoring) as a
//! problem of ours, `problems/<name>/problem.toml` with `testdata/<name>/`, judged as the package is judged.
//!
//! What the package holds is taken from its loader ([`Problem::load_package`]), never read again: the limits, the
//! default validator's flags or the output validator, the tests, the groups and their rules, each submission's
//! expected verdicts and rules. Where problem.toml can say a thing, it is carried over; where it cannot, and
//! verdicts and scores are the same without it (a statement, a second input validator, a rule of submissions.yaml
//! beyond a score or a group's AC), it is listed as left out; where it cannot and they would differ (nested groups,
//! an unbounded score, a legacy grader other than a sum over all-or-nothing or shared groups, flags passed to an
//! output validator), the import is refused, naming the file, rather than writing a problem scored otherwise.
//!
//! Everything is decided ([`plan`]) before anything runs or is written; a time limit the package does not fix is
//! then found as judging the package finds it, and the problem is written in one step ([`write`]).

mod config;
mod groups;
mod programs;
mod solutions;
mod testdata;
#[cfg(test)]
mod tests;
mod write;

use crate::error::{Error, Result};
use crate::problem::Problem;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What an import writes, decided from the package alone.
pub struct Plan {
    pub name: String,
    package: PathBuf,
    format: &'static str,
    scoring: bool,
    /// The package's own time limit, and where it is given; None when judging the package derives one.
    pub fixed_time: Option<(Duration, String)>,
    config: config::Config,
    /// The files of its programs (checker, interactor, validator, solutions), below problems/<name>/.
    files: Vec<programs::File>,
    tests: Vec<testdata::Placed>,
    /// One line for each part of the package not carried over.
    left_out: Vec<String>,
}

/// What an import wrote, for the report.
#[derive(Debug)]
pub struct Imported {
    pub name: String,
    pub package: PathBuf,
    /// The package's format ("legacy", "2023-07", "2025-09") and whether it is scored.
    pub format: &'static str,
    pub scoring: bool,
    /// Each thing written: the path below the project, and what it is.
    pub written: Vec<(PathBuf, String)>,
    /// Each part of the package not carried over, and why.
    pub left_out: Vec<String>,
}

/// Decides how the package `problem` (loaded by [`Problem::load_package`]) becomes the problem `name`; refuses,
/// naming the file, what problem.toml cannot say without changing a verdict or a score.
pub fn plan(problem: &Problem, name: &str) -> Result<Plan> {
    let Some(package) = &problem.package else {
        return Err(Error::Usage(format!(
            "{} is not a problem package",
            problem.dir.display()
        )));
    };
    let mut left_out = Vec::new();
    let groups = groups::groups(problem, &mut left_out)?;
    let (judging, mut files) = config::judging(problem, &mut left_out)?;
    let (validator, validator_files) = config::validator(problem, &mut left_out)?;
    files.extend(validator_files);
    let tests = testdata::place(problem, groups.as_deref())?;
    let solutions = solutions::solutions(problem, groups.as_deref(), &mut left_out)?;
    files.extend(solutions.iter().map(|s| s.file.clone()));
    left_out.extend(config::unread(problem));
    let fixed_time = package
        .time_rule
        .fixed
        .map(|limit| (limit, package.time_rule.origin.clone()));
    Ok(Plan {
        name: name.to_owned(),
        package: problem.dir.clone(),
        format: package.format,
        scoring: problem.groups.is_some(),
        fixed_time,
        config: config::Config {
            title: problem.title.clone(),
            memory: problem.limits.memory,
            output: problem.limits.output,
            judging,
            validator,
            groups: groups.unwrap_or_default(),
            solutions,
        },
        files,
        tests,
        left_out,
    })
}

/// Refuses a name the project's problems or tests already use.
pub fn check_free(root: &Path, name: &str) -> Result<()> {
    for place in ["problems", "testdata"] {
        let folder = Path::new(place).join(name);
        if root.join(&folder).symlink_metadata().is_ok() {
            return Err(Error::Usage(format!(
                "{} already exists: problem {name} is taken; give another with --name (nothing was written)",
                folder.display()
            )));
        }
    }
    Ok(())
}

/// Writes the planned problem into the project at `root`, with `time_limit` (described by `time_origin`), in one
/// step: all of it, or nothing.
pub fn write(
    plan: &Plan,
    root: &Path,
    time_limit: Duration,
    time_origin: &str,
) -> Result<Imported> {
    check_free(root, &plan.name)?;
    let toml = plan.config.text(time_limit);
    write::write(root, &plan.name, &toml, &plan.files, &plan.tests)?;
    let problems = Path::new("problems").join(&plan.name);
    let mut written = vec![(
        problems.join("problem.toml"),
        plan.config.summary(time_limit, time_origin),
    )];
    written.extend(plan.config.programs(&problems));
    written.push((
        Path::new("testdata").join(&plan.name),
        testdata::summary(&plan.tests, &plan.config.groups),
    ));
    if !plan.config.solutions.is_empty() {
        written.push((
            problems.join("solutions"),
            solutions::summary(&plan.config.solutions),
        ));
    }
    Ok(Imported {
        name: plan.name.clone(),
        package: plan.package.clone(),
        format: plan.format,
        scoring: plan.scoring,
        written,
        left_out: plan.left_out.clone(),
    })
}

/// A number as problem.toml writes it: a whole number without a fraction.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:?}")
    }
}

/// A string as TOML quotes it.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// A path below the package, for messages.
fn below(problem: &Problem, path: &Path) -> String {
    path.strip_prefix(&problem.dir)
        .unwrap_or(path)
        .display()
        .to_string()
}
