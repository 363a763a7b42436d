//! Command-line arguments (clap derive types only).

use crate::sandbox::Layers;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "cpjudge",
    version,
    about = "Judge competitive programming solutions on a problem's tests",
    after_help = "Exit codes: 0 every solution got its expected verdict, 1 some did not, \
                  2 usage or configuration error."
)]
pub struct Cli {
    /// The project folder, holding problems/ and testdata/.
    #[arg(long, global = true, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,

    /// Where compiled programs are cached [default: <root>/target/cpjudge].
    #[arg(long, global = true, value_name = "DIR", env = "CPJUDGE_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,

    /// The optional isolation layers to use where the machine allows: `all`, `none`, or a comma list of
    /// cgroup, namespaces, landlock, seccomp. `cpjudge doctor` shows what each one guards against.
    #[arg(
        long,
        global = true,
        value_name = "LIST",
        env = "CPJUDGE_LAYERS",
        default_value = "all"
    )]
    pub layers: Layers,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge a problem's solutions (or the given submissions) on its tests.
    Judge(JudgeArgs),
    /// List the problems with their limits and numbers of tests and solutions.
    List(ListArgs),
    /// Show which isolation layers work on this machine and which limits are really enforced.
    Doctor(DoctorArgs),
}

#[derive(Debug, clap::Args)]
pub struct JudgeArgs {
    /// The problem's name (a folder under problems/).
    pub problem: String,

    /// Judge this file instead of the problem's solutions, expecting AC. Repeatable.
    #[arg(long = "submission", value_name = "FILE")]
    pub submissions: Vec<PathBuf>,

    /// Take the NAME.in / NAME.ans pairs from DIR instead of testdata/<problem>.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    /// Run every test, instead of stopping each solution at its first non-AC test.
    #[arg(long)]
    pub all: bool,

    /// Run up to N tests at once. CPU time is measured per run whatever N is, but runs that share cores and
    /// memory bandwidth slow each other down, so timings are most trustworthy with one test at a time.
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Refuse to judge unless every isolation layer is on.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}
