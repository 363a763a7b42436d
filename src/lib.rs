//! cpjudge: compiles a problem's solutions, runs them on its tests under time, memory and output limits, checks
//! their answers, and reports a verdict per solution and per test.

pub mod check;
pub mod cli;
mod commands;
pub mod compile;
pub mod error;
pub mod interrupt;
pub mod judge;
pub mod language;
pub mod problem;
pub mod report;
pub mod sandbox;
mod scratch;
mod text;
mod toolchain;
pub mod units;
pub mod verdict;

use cli::{Cli, Command};
use error::Result;
use problem::Catalog;

/// What a finished command means for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything as expected: exit 0.
    AsExpected,
    /// Some verdict not as expected: exit 1.
    NotAsExpected,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Outcome> {
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
    scratch::clean_up();
    // Absolute, since programs run in folders of their own.
    let absolute = |path: &std::path::Path| {
        std::path::absolute(path).map_err(|e| error::Error::io("resolve", path, e))
    };
    let root = absolute(&cli.root)?;
    let catalog = Catalog::new(&root);
    let cache = match &cli.cache_dir {
        Some(dir) => absolute(dir)?,
        None => root.join("target").join("cpjudge"),
    };
    let outcome = match &cli.command {
        Command::Judge(args) => commands::judge(&catalog, cache, &cli.layers, args).map(|ok| {
            if ok {
                Outcome::AsExpected
            } else {
                Outcome::NotAsExpected
            }
        }),
        Command::List(args) => commands::list(&catalog, args).map(|()| Outcome::AsExpected),
        Command::Doctor(args) => commands::doctor(&cli.layers, args).map(|()| Outcome::AsExpected),
    };
    sandbox::kill_orphans();
    scratch::clean_up();
    outcome
}
