//! cpjudge: compiles a problem's solutions, runs them on its tests under time, memory and output limits, checks
//! their answers, and reports a verdict per solution and per test.

mod atomic;
pub mod authoring;
pub mod cache;
pub mod calibrate;
pub mod check;
pub mod cli;
mod commands;
pub mod compile;
pub mod error;
pub mod export;
pub mod fingerprint;
mod headers;
pub mod import;
pub mod interrupt;
mod java;
pub mod judge;
pub mod language;
mod memo;
pub mod prebuilt;
pub mod problem;
pub mod report;
pub mod runs;
mod said_once;
pub mod sandbox;
pub mod scoring;
mod scratch;
mod text;
mod toolchain;
pub mod units;
mod untrusted;
pub mod verdict;
mod watch;

use cache::Cache;
use cli::{Cli, Command};
use error::{Error, Result};
use problem::Catalog;
use std::path::{Path, PathBuf};

/// What a finished command means for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything as expected: exit 0.
    AsExpected,
    /// Some verdict not as expected, or some problem broken: exit 1.
    NotAsExpected,
    /// The user stopped the judge, which reported what was complete: exit 130.
    Interrupted,
}

impl From<bool> for Outcome {
    fn from(as_expected: bool) -> Self {
        if as_expected {
            Outcome::AsExpected
        } else {
            Outcome::NotAsExpected
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Outcome> {
    // Descriptors our caller left open (a jobserver's pipe, a file opened for writing) are not for the programs we
    // run, nor for the compilers and tools we start.
    sandbox::close_inherited_on_exec();
    // Processes orphaned by a supervisor that died come to us, so they can be killed before we exit.
    if let Err(e) = sandbox::become_subreaper() {
        eprintln!(
            "warning: cannot become a child subreaper ({e}): an escaped process may outlive the judge"
        );
    }
    if let Err(e) = interrupt::install() {
        eprintln!(
            "warning: cannot catch Ctrl-C ({e}): an interrupted judge may leave folders behind"
        );
    }
    // A command that will run programs starts its first worker now, and sets it up with its layers as soon as they
    // are probed, beside the rest of its start: a contestant's test always runs the program (and builds it, in the
    // sandbox too), and so nearly always does a judge of a submission or with --fresh (see `JudgeArgs::runs_soon`).
    let runs_soon = match &cli.command {
        Command::Test(_) => true,
        Command::Judge(args) => args.runs_soon(),
        _ => false,
    };
    if runs_soon {
        sandbox::prestart(&cli.layers);
    }
    scratch::clean_up();
    let (cwd, root, cache) = match settings(&cli) {
        Ok(settings) => settings,
        Err(e) => {
            // A worker started above has nothing to do: it ends, and is waited for.
            sandbox::wait_for_released();
            return Err(e);
        }
    };
    let cache_dir = cache.dir.clone();
    let project = || {
        root.as_deref()
            .map(Catalog::new)
            .ok_or_else(|| Error::NoProject { cwd: cwd.clone() })
    };
    let outcome = match &cli.command {
        Command::Judge(args) => {
            commands::judge(project(), &cwd, cache, &cli.layers, cli.color, args)
        }
        Command::Test(args) => commands::test(root.as_deref(), cache, &cli.layers, cli.color, args),
        Command::List(args) => {
            project().and_then(|catalog| commands::list(&catalog, &cache, args).map(Outcome::from))
        }
        Command::Add(args) => commands::add(project(), &cwd, cache, &cli.layers, cli.color, args),
        Command::Regen(args) => {
            commands::regen(project(), &cwd, cache, &cli.layers, cli.color, args)
        }
        Command::Validate(args) => {
            commands::validate(project(), &cwd, cache, &cli.layers, cli.color, args)
        }
        Command::Stress(args) => {
            commands::stress(project(), &cwd, cache, &cli.layers, cli.color, args)
        }
        Command::Timelimit(args) => {
            commands::timelimit(project(), &cwd, cache, &cli.layers, cli.color, args)
        }
        Command::New(args) => project().and_then(|catalog| commands::new(&catalog, args)),
        Command::Export(args) => commands::export(project(), &cwd, args),
        Command::Import(args) => commands::import(project(), &cwd, cache, &cli.layers, args),
        Command::Merge(args) => commands::merge(project(), &cwd, cli.color, args),
        Command::Report(args) => commands::report(cli.color, args),
        Command::Doctor(args) => {
            commands::doctor(&cli.layers, cli.color, args).map(|()| Outcome::AsExpected)
        }
        Command::Cache(args) => commands::cache(&cache, args).map(|()| Outcome::AsExpected),
    };
    // The workers a judge released end while its folders are removed; none is left once they are waited for.
    scratch::clean_up();
    sandbox::wait_for_released();
    sandbox::kill_orphans();
    outcome.map_err(|e| sandbox::forget_after(e, &cli.layers).in_cache(&cache_dir))
}

/// Where a command works: the current folder, the project's root if there is one, and the build cache; the user's
/// and the project's languages read, over the shipped table, before any program's language is told.
fn settings(cli: &Cli) -> Result<(PathBuf, Option<PathBuf>, Cache)> {
    let cwd = std::env::current_dir().map_err(|e| Error::io("find", "the current folder", e))?;
    // Absolute, since programs run in folders of their own.
    let root = match &cli.root {
        Some(root) => Some(absolute(root)?),
        None => problem::find_root(&cwd),
    };
    language::configure(&language::table_files(root.as_deref()), &cli.prefer)?;
    let cache = Cache {
        dir: match (&cli.cache_dir, &root) {
            (Some(dir), _) => absolute(dir)?,
            (None, Some(root)) => root.join("target").join("cpjudge"),
            (None, None) => user_cache(),
        },
        size_bound: cli.cache_size,
    };
    Ok((cwd, root, cache))
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).map_err(|e| Error::io("resolve", path, e))
}

/// The build cache outside a project: the user's cache folder, or one in the temporary folder where the user has
/// no home.
fn user_cache() -> PathBuf {
    user_cache_folder().unwrap_or_else(|| std::env::temp_dir().join("cpjudge"))
}

/// cpjudge's folder in the user's cache folder, as the XDG convention places it; none without a home.
pub(crate) fn user_cache_folder() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .map(|base| base.join("cpjudge"))
}
