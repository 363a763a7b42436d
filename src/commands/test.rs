//! `cpjudge test`: judge one file (or a command) on sample tests, without a problem folder, as a contestant has them.

use super::session::{self, Session};
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::TestArgs;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::problem::{
    Catalog, Comparison, Problem, answer_of, commands, default_tests_dir, find_inputs, submissions,
};
use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// What a samples folder holds, for messages.
const SAMPLES: &str =
    "samples as NAME.in with NAME.ans or NAME.out (or NAME.in alone, to see the outputs)";

/// Judges the file and reports; returns whether it passed every test.
pub fn test(
    root: Option<&Path>,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &TestArgs,
) -> Result<Outcome> {
    // A contestant wants to see every sample, not only up to the first failure.
    let mut run = args.run.clone();
    run.all = true;
    if run.watch {
        return super::watch::watch(|| session_of(root, args), cache, layers, color, &run);
    }
    session::run(session_of(root, args)?, cache, layers, color, &run)
}

/// The judge to make of the arguments, with the file and its samples as they are now.
fn session_of(root: Option<&Path>, args: &TestArgs) -> Result<Session> {
    // A command is named by its text, and its tests are looked for in the current folder.
    let (file, solutions) = match (&args.file, &args.command) {
        (_, Some(command)) => (
            PathBuf::from(command),
            commands(std::slice::from_ref(command), &[Verdict::Accepted])?,
        ),
        (Some(file), None) if file.is_file() => (
            file.clone(),
            submissions(std::slice::from_ref(file), &[Verdict::Accepted])?,
        ),
        (Some(file), None) => {
            return Err(Error::Usage(format!("{} does not exist", file.display())));
        }
        (None, None) => return Err(Error::Usage("give a FILE or a --command to judge".into())),
    };
    let file = file.as_path();
    let beside = match args.command {
        Some(_) => Path::new(""),
        None => file.parent().unwrap_or(Path::new("")),
    };
    let tests_dir = match &args.tests {
        Some(dir) => dir.clone(),
        None => default_tests_dir(beside).ok_or_else(|| {
            let folder = Some(beside).filter(|p| !p.as_os_str().is_empty());
            let folder = std::path::absolute(folder.unwrap_or(Path::new(".")))
                .unwrap_or_else(|_| Path::new(".").to_owned());
            let whose = match args.command {
                Some(_) => "the current folder, for --command".to_owned(),
                None => format!("beside {}", file.display()),
            };
            Error::Usage(format!(
                "no tests/ or test/ folder in {} ({whose}), where {SAMPLES} are looked for: give another \
                 folder with --tests DIR",
                folder.display(),
            ))
        })?,
    };
    let mut problem = Problem::standalone(file);
    problem.comparison = comparison(args, &tests_dir)?;
    Ok(Session {
        problem,
        solutions,
        tests_dir,
        own_solutions: false,
        contestant: true,
        // Inside a project, its tests and answers stay hidden from the file too.
        private_dirs: root
            .map(|r| Catalog::new(r).private_dirs())
            .unwrap_or_default(),
    })
}

/// How the outputs are judged: shown when the samples have no answers at all; else by the checker given, within
/// the tolerance given, or token by token.
fn comparison(args: &TestArgs, dir: &Path) -> Result<Comparison> {
    let inputs = find_inputs(dir).map_err(|e| match e {
        Error::NoTestsFolder { dir } => Error::Usage(format!(
            "tests folder {} does not exist: it should hold {SAMPLES}",
            dir.display()
        )),
        other => other,
    })?;
    if inputs.is_empty() {
        return Err(Error::Usage(format!(
            "no samples in {}: expected {SAMPLES}",
            dir.display()
        )));
    }
    if !inputs.iter().any(|t| answer_of(&t.input()).is_some()) {
        if args.checker.is_some() || args.tolerance.is_some() {
            return Err(Error::Usage(format!(
                "{} has inputs without answers (NAME.ans or NAME.out) to judge the outputs against: without \
                 --checker and -e the outputs are shown",
                dir.display()
            )));
        }
        return Ok(Comparison::Shown);
    }
    if let Some(checker) = &args.checker {
        if !checker.is_file() {
            return Err(Error::Usage(format!(
                "--checker {}: no such file",
                checker.display()
            )));
        }
        // Its language is known now, not when it is first needed.
        Language::of(checker)?;
        return Ok(Comparison::Checker(checker.clone()));
    }
    Ok(match args.tolerance {
        Some(tolerance) => Comparison::Float { tolerance },
        None => Comparison::Tokens,
    })
}
