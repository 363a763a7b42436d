//! problem.toml of an imported package: its limits, how outputs are judged (the default validator's flags as
//! `compare` and `tolerance`, the output validator or interactor as `checker` or `interactor` speaking the package
//! protocol), its input validator, its groups and solutions.

use super::groups::Group;
use super::programs::{self, File, Placed};
use super::solutions::Entry;
use super::{below, number, quoted};
use crate::error::{Error, Result};
use crate::problem::{Comparison, InputValidator, Problem, Test};
use crate::scoring::Aggregation;
use crate::units::Bytes;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Everything problem.toml says, but its time limit.
pub(super) struct Config {
    pub title: String,
    pub memory: Bytes,
    pub output: Bytes,
    pub judging: Judging,
    /// The input validator's path below the problem's folder.
    pub validator: Option<String>,
    pub groups: Vec<Group>,
    pub solutions: Vec<Entry>,
}

/// How outputs are judged.
pub(super) enum Judging {
    /// A built-in comparison: `compare` and its `tolerance`.
    Compare {
        mode: &'static str,
        tolerance: Option<f64>,
    },
    /// The package's output validator, at this path below the problem's folder.
    Checker(String),
    /// The package's interactor, likewise.
    Interactor(String),
}

impl Config {
    /// Whether a program of the package is kept, speaking the package protocol.
    fn speaks_package(&self) -> bool {
        self.validator.is_some() || !matches!(self.judging, Judging::Compare { .. })
    }

    /// problem.toml's text.
    pub fn text(&self, time_limit: Duration) -> String {
        let mut toml =
            String::from("# Imported from a Problem Package Format package by `cpjudge import`.\n");
        toml.push_str(&format!("title = {}\n", quoted(&self.title)));
        toml.push_str(&format!("time_limit = \"{}\"\n", time_text(time_limit)));
        toml.push_str(&format!("memory_limit = \"{}\"\n", size_text(self.memory)));
        toml.push_str(&format!("output_limit = \"{}\"\n", size_text(self.output)));
        match &self.judging {
            Judging::Compare { mode, tolerance } => {
                toml.push_str(&format!("compare = \"{mode}\"\n"));
                if let Some(tolerance) = tolerance {
                    toml.push_str(&format!("tolerance = {tolerance:?}\n"));
                }
            }
            Judging::Checker(path) => toml.push_str(&format!("checker = {}\n", quoted(path))),
            Judging::Interactor(path) => toml.push_str(&format!("interactor = {}\n", quoted(path))),
        }
        if let Some(path) = &self.validator {
            toml.push_str(&format!("validator = {}\n", quoted(path)));
        }
        if self.speaks_package() {
            toml.push_str("# Its programs are the package's: exit code 42 accepts, 43 rejects.\n");
            toml.push_str("protocol = \"package\"\n");
        }
        for group in &self.groups {
            toml.push_str(&format!(
                "\n[[groups]]\nname = {}\npoints = {}\n",
                quoted(&group.name),
                number(group.points)
            ));
            if !group.requires.is_empty() {
                let names: Vec<String> = group.requires.iter().map(|r| quoted(r)).collect();
                toml.push_str(&format!("requires = [{}]\n", names.join(", ")));
            }
            match group.scoring {
                Aggregation::PassFail => {}
                Aggregation::Sum => toml.push_str("scoring = \"sum\"\n"),
                Aggregation::Min => toml.push_str("scoring = \"min\"\n"),
            }
        }
        for solution in &self.solutions {
            toml.push('\n');
            toml.push_str(&solution.text());
        }
        toml
    }

    /// What problem.toml says, in a line.
    pub fn summary(&self, time_limit: Duration, time_origin: &str) -> String {
        let judging = match &self.judging {
            Judging::Compare {
                mode,
                tolerance: Some(t),
            } => format!("compare = \"{mode}\" (tolerance {t:?})"),
            Judging::Compare { mode, .. } => format!("compare = \"{mode}\""),
            Judging::Checker(_) => "the output validator as its checker".to_owned(),
            Judging::Interactor(_) => "the interactor".to_owned(),
        };
        let protocol = if self.speaks_package() {
            ", protocol = \"package\""
        } else {
            ""
        };
        format!(
            "time limit {} ({time_origin}), memory {}, output {}, {judging}{protocol}",
            time_text(time_limit),
            size_text(self.memory),
            size_text(self.output)
        )
    }

    /// The programs written besides the solutions, each with what it is.
    pub fn programs(&self, problem_dir: &Path) -> Vec<(PathBuf, String)> {
        let mut found = Vec::new();
        match &self.judging {
            Judging::Checker(path) => found.push((
                problem_dir.join(path),
                "the output validator (checker)".to_owned(),
            )),
            Judging::Interactor(path) => {
                found.push((problem_dir.join(path), "the interactor".to_owned()))
            }
            Judging::Compare { .. } => {}
        }
        if let Some(path) = &self.validator {
            found.push((problem_dir.join(path), "the input validator".to_owned()));
        }
        found
    }
}

/// A time limit as problem.toml takes it, exactly: "2s", "1500ms", "250us".
fn time_text(limit: Duration) -> String {
    let nanos = limit.as_nanos();
    if nanos.is_multiple_of(1_000_000_000) {
        format!("{}s", limit.as_secs())
    } else if nanos.is_multiple_of(1_000_000) {
        format!("{}ms", limit.as_millis())
    } else if nanos.is_multiple_of(1_000) {
        format!("{}us", limit.as_micros())
    } else {
        format!("{nanos}ns")
    }
}

/// A memory or output limit as problem.toml takes it, exactly.
fn size_text(size: Bytes) -> String {
    if size.0.is_multiple_of(Bytes::MIB) {
        format!("{}MiB", size.0 / Bytes::MIB)
    } else {
        format!("{}KiB", size.0.div_ceil(Bytes::KIB))
    }
}

/// How the package's outputs are judged, in problem.toml's terms, and the files of its program that judges.
pub(super) fn judging(
    problem: &Problem,
    left_out: &mut Vec<String>,
) -> Result<(Judging, Vec<File>)> {
    let package = problem.package.as_ref().expect("a package");
    if package.passes.is_some() {
        return Err(Error::Usage(format!(
            "{}: a multi-pass problem (the validator runs the submission again on each input it writes), which \
             problem.toml cannot say: not imported",
            problem.config_path.display()
        )));
    }
    if let Some(case) = package.static_cases.first() {
        return Err(Error::Usage(format!(
            "{}: static validation ({}, judged by static_validator/ on the submission's files), which \
             problem.toml cannot say: not imported",
            problem.dir.display(),
            case.name
        )));
    }
    match &problem.comparison {
        Comparison::PackageDefault => Ok((default_validator(problem, left_out)?, Vec::new())),
        Comparison::OutputValidator(source) => {
            no_output_flags(problem)?;
            let (path, files) = tool(problem, source, "checker", "output validator")?;
            Ok((Judging::Checker(path), files))
        }
        Comparison::Interactive { interactor, .. } => {
            no_output_flags(problem)?;
            let (path, files) = tool(problem, interactor, "interactor", "interactor")?;
            Ok((Judging::Interactor(path), files))
        }
        // A package is judged by its default validator or its own program, never by one of our comparisons.
        Comparison::Tokens
        | Comparison::Exact
        | Comparison::Float { .. }
        | Comparison::Shown
        | Comparison::Checker(_) => Err(Error::Usage(format!(
            "{}: not judged as a package is",
            problem.config_path.display()
        ))),
    }
}

/// A program that decides verdicts, placed below the problem's folder in `folder`; refused where it cannot be.
fn tool(
    problem: &Problem,
    source: &crate::compile::Source,
    folder: &str,
    what: &str,
) -> Result<(String, Vec<File>)> {
    match programs::tool(source, Path::new(folder))? {
        Placed::Program { path, files } => Ok((path, files)),
        Placed::Not(why) => Err(Error::Usage(format!(
            "{}: the {what} {why}, which problem.toml cannot name: not imported",
            below(problem, source.shown())
        ))),
    }
}

/// The folder a test's flags come from, for messages: its group's.
fn group_of(problem: &Problem, test: &Test) -> String {
    below(problem, test.input().parent().unwrap_or(&test.input()))
}

/// Refuses flags given to the output validator or interactor: problem.toml passes none, and the program would
/// judge otherwise without them.
fn no_output_flags(problem: &Problem) -> Result<()> {
    let package = problem.package.as_ref().expect("a package");
    if !package.validator_flags.is_empty() {
        return Err(Error::Usage(format!(
            "{}: validator_flags \"{}\" are passed to the output validator, which problem.toml cannot do: not \
             imported",
            problem.config_path.display(),
            package.validator_flags.join(" ")
        )));
    }
    if let Some(test) = package.tests.iter().find(|t| !t.flags().output.is_empty()) {
        return Err(Error::Usage(format!(
            "{}: its group files give the output validator the arguments \"{}\" (output_validator_args or \
             output_validator_flags), which problem.toml cannot pass: not imported",
            group_of(problem, test),
            test.flags().output.join(" ")
        )));
    }
    Ok(())
}

/// The default validator's flags as `compare` and `tolerance`: the same for every test, or refused. What our
/// comparisons decide otherwise (letter case, tolerances that differ) is said in `left_out`.
fn default_validator(problem: &Problem, left_out: &mut Vec<String>) -> Result<Judging> {
    let package = problem.package.as_ref().expect("a package");
    let first = package.tests.first();
    let flags = first.map_or(&package.validator_flags, |t| &t.flags().output);
    if let (Some(first), Some(other)) = (
        first,
        package.tests.iter().find(|t| &t.flags().output != flags),
    ) {
        return Err(Error::Usage(format!(
            "{}: the default output validator's flags \"{}\" differ from those of {} (\"{}\"), and problem.toml \
             compares every test alike: not imported",
            group_of(problem, other),
            other.flags().output.join(" "),
            group_of(problem, first),
            flags.join(" ")
        )));
    }
    let parsed = crate::check::package_default::parse(flags).map_err(|why| {
        Error::Usage(format!(
            "{}: validator flags \"{}\": {why}",
            problem.config_path.display(),
            flags.join(" ")
        ))
    })?;
    let said = format!(
        "the default output validator's flags \"{}\"",
        flags.join(" ")
    );
    let tolerance = match (parsed.absolute, parsed.relative) {
        (None, None) => None,
        (Some(a), Some(r)) if a == r => Some(a),
        (a, r) => {
            let taken = a.unwrap_or(0.0).max(r.unwrap_or(0.0));
            left_out.push(format!(
                "{said}: absolute tolerance {} and relative tolerance {}; compare = \"float\" takes {taken:?} for \
                 both",
                a.map_or("none".to_owned(), |v| format!("{v:?}")),
                r.map_or("none".to_owned(), |v| format!("{v:?}"))
            ));
            Some(taken)
        }
    };
    // Without flags, the default validator is our "package" comparison, exactly.
    if flags.is_empty() {
        return Ok(Judging::Compare {
            mode: "package",
            tolerance: None,
        });
    }
    let mode = match (tolerance, parsed.space_change_sensitive) {
        (Some(_), space) => {
            if space {
                left_out.push(format!(
                    "{said}: space_change_sensitive; compare = \"float\" compares tokens, whatever the white \
                     space between them"
                ));
            }
            "float"
        }
        (None, true) => "exact",
        (None, false) => "tokens",
    };
    if !parsed.case_sensitive {
        left_out.push(format!(
            "{said}: without case_sensitive, letter case is ignored; compare = \"{mode}\" compares it"
        ));
    }
    Ok(Judging::Compare { mode, tolerance })
}

/// The input validator problem.toml keeps (it has one), and its files; the others are said in `left_out`.
pub(super) fn validator(
    problem: &Problem,
    left_out: &mut Vec<String>,
) -> Result<(Option<String>, Vec<File>)> {
    let package = problem.package.as_ref().expect("a package");
    let flagged = package.tests.iter().find(|t| !t.flags().input.is_empty());
    let mut kept: Option<(String, Vec<File>, String)> = None;
    for validator in &package.input_validators {
        let (shown, placed) = match validator {
            InputValidator::Checktestdata(script) => {
                left_out.push(format!(
                    "{}: a checktestdata script; problem.toml's validator is a program",
                    below(problem, script)
                ));
                continue;
            }
            InputValidator::Program(source) => (
                below(problem, source.shown()),
                programs::tool(source, Path::new("validator"))?,
            ),
        };
        if let Some(test) = flagged {
            left_out.push(format!(
                "{shown}: {} gives it the flags \"{}\", which problem.toml cannot pass to a validator",
                group_of(problem, test),
                test.flags().input.join(" ")
            ));
            continue;
        }
        match (placed, &kept) {
            (Placed::Not(why), _) => left_out.push(format!("{shown}: {why}")),
            (Placed::Program { .. }, Some((_, _, first))) => left_out.push(format!(
                "{shown}: problem.toml has one validator, and it is {first}"
            )),
            (Placed::Program { path, files }, None) => kept = Some((path, files, shown)),
        }
    }
    Ok(match kept {
        Some((path, files, _)) => (Some(path), files),
        None => (None, Vec::new()),
    })
}

/// What the package holds besides that no import carries: its statement, generators, validation data and
/// dialogues shown as samples.
pub(super) fn unread(problem: &Problem) -> Vec<String> {
    let dir = &problem.dir;
    let mut found = Vec::new();
    for (folder, what) in [
        (
            "problem_statement",
            "the statement: problem.toml's statement.md is not made from it",
        ),
        (
            "statement",
            "the statement: problem.toml's statement.md is not made from it",
        ),
        ("attachments", "files given to contestants"),
        (
            "generators",
            "the generators: the format does not say how to run them",
        ),
        ("data/invalid_input", "the validators' own tests"),
        ("data/invalid_output", "the output validator's own tests"),
        ("data/valid_output", "the output validator's own tests"),
    ] {
        if dir.join(folder).is_dir() {
            found.push(format!("{folder}/: {what}"));
        }
    }
    if problem
        .package
        .as_ref()
        .is_some_and(|p| !p.interactions.is_empty())
    {
        found.push(
            "data/sample/*.interaction: the dialogues shown as samples; problem.toml's samples are tests"
                .to_owned(),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_written_exactly() {
        assert_eq!(time_text(Duration::from_secs(2)), "2s");
        assert_eq!(time_text(Duration::from_millis(1500)), "1500ms");
        assert_eq!(time_text(Duration::from_micros(250)), "250us");
        for text in ["2s", "1500ms", "250us"] {
            let parsed = crate::units::parse_time_limit(text).unwrap();
            assert_eq!(time_text(parsed), text);
        }
        assert_eq!(size_text(Bytes::mib(256)), "256MiB");
        assert_eq!(size_text(Bytes(1536)), "2KiB");
    }
}
