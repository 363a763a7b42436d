//! Command-line arguments (clap derive types only).

use crate::report::ColorChoice;
use crate::sandbox::Layers;
use crate::units::{self, Bytes};
use crate::verdict::Verdict;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(
    name = "cpjudge",
    version,
    about = "Judge competitive programming solutions on a problem's tests",
    after_help = "Exit codes: 0 every solution got its expected verdict, 1 some did not, \
                  2 usage or configuration error, 130 interrupted (Ctrl-C)."
)]
pub struct Cli {
    /// The project folder, holding problems/ and testdata/ [default: the nearest folder holding problems/,
    /// from the current one up].
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Where compiled programs are cached [default: <root>/target/cpjudge, or outside a project
    /// $XDG_CACHE_HOME/cpjudge or ~/.cache/cpjudge].
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

    /// Colour the output: `auto` (on a terminal, unless NO_COLOR is set; always if CLICOLOR_FORCE is), `always`
    /// or `never`.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge a problem's solutions (or the given submissions) on its tests.
    #[command(after_help = JUDGE_HELP)]
    Judge(JudgeArgs),
    /// Judge one file on sample tests, without a problem folder: NAME.in with NAME.ans (or NAME.out).
    #[command(after_help = TEST_HELP)]
    Test(TestArgs),
    /// List the problems with their limits and numbers of tests and solutions.
    #[command(after_help = LIST_HELP)]
    List(ListArgs),
    /// Show which isolation layers work on this machine and which limits are really enforced.
    #[command(after_help = DOCTOR_HELP)]
    Doctor(DoctorArgs),
    /// Time the references and the solutions expected TLE several times, and suggest a time limit.
    #[command(after_help = TIMELIMIT_HELP)]
    Timelimit(TimelimitArgs),
    /// Start a new problem: problem.toml, statement, solution, validator, generator and a sample test.
    #[command(after_help = NEW_HELP)]
    New(NewArgs),
}

const JUDGE_HELP: &str = "\
Examples:
  cpjudge judge knight-pawns
  cpjudge judge problems/knight-pawns --samples
  cpjudge judge . --test 'cluster-*' --all            (from inside the problem's folder)
  cpjudge judge knight-pawns --submission mine.cpp --expect WA
  cpjudge judge knight-pawns --time-limit 3s --json

Exit codes: 0 every solution got its expected verdict, 1 some did not, 2 usage or configuration error,
130 interrupted (Ctrl-C).";

const TEST_HELP: &str = "\
Examples:
  cpjudge test a.cpp                     (tests from tests/ or test/ beside a.cpp)
  cpjudge test a.py --tests samples/ --time-limit 1s

Limits unless given: 2s CPU time, 1GiB memory, 64MiB output. Outputs are compared token by token.

Exit codes: 0 the file passed every test, 1 it did not, 2 usage error (no such file or folder, no tests),
130 interrupted (Ctrl-C).";

const LIST_HELP: &str = "\
Exit codes: 0 every problem's configuration is sound, 1 some problem's is broken (its error is shown),
2 not a project folder.";

const TIMELIMIT_HELP: &str = "\
How it runs: every solution expected AC (a reference) runs on every test under 3 x the problem's limit (at least
2s), so that a slow one is timed rather than cut off; every solution expected TLE runs under 1.5 x the limit.
Each run is repeated --runs times; a solution expected TLE is not run again on a test it was killed on. A run
that finishes within 10% of the limit it ran under is borderline: it is run once more, both runs count, and the
report says so.

What it reports, per solution: its slowest CPU time and the test, the spread (fastest..slowest) of the runs on
that test, and for a reference its margin (the problem's limit / its slowest time).

Suggested limit: the slowest reference CPU time x 2, rounded up to the next 100ms, in the spirit of Kattis'
time multipliers. It warns when a reference uses more than half of the problem's limit (or fails), and when a
solution expected TLE finishes every test within 1.5 x the limit: a limit separates it well only if some test
leaves it far behind.

Examples:
  cpjudge timelimit knight-tour
  cpjudge timelimit knight-tour --runs 5 --json

Exit codes: 0 no warning, 1 some warning, 2 usage or configuration error, 130 interrupted (Ctrl-C).";

const NEW_HELP: &str = "\
Makes problems/NAME/ (problem.toml, statement.md, solutions/main.rs, validator.rs, generator.rs) and
testdata/NAME/ (sample-1.in, sample-1.ans, recipe.toml), for a placeholder problem (the sum of two integers)
that `cpjudge judge NAME` passes at once. Comments in every file say what to fill in.

Examples:
  cpjudge new knight-moves
  cpjudge judge knight-moves

Exit codes: 0 the problem was made, 2 it was not (a bad or taken name, not a project folder, a file that could
not be written: nothing is left behind).";

const DOCTOR_HELP: &str = "\
Exit codes: 0 the report was written, 2 it could not be.";

/// How to run and report, for `judge` and `test` alike.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Only the tests with this name, or whose name matches this glob ("cluster-*", "group/**"). Repeatable.
    #[arg(long = "test", value_name = "NAME|GLOB")]
    pub test_patterns: Vec<String>,

    /// Only the sample tests (named sample*, or in a sample/ or samples/ folder).
    #[arg(long)]
    pub samples: bool,

    /// Run every test, instead of stopping each solution at its first non-AC test.
    #[arg(long)]
    pub all: bool,

    /// Run up to N tests at once. CPU time is measured per run whatever N is, but runs that share cores and
    /// memory bandwidth slow each other down, so timings are most trustworthy with one test at a time.
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,

    /// Use this CPU time limit instead of the problem's ("3s", "500ms"); the report says so.
    #[arg(long, value_name = "TIME", value_parser = units::parse_time_limit)]
    pub time_limit: Option<Duration>,

    /// Use this memory limit instead of the problem's ("512MiB"); the report says so.
    #[arg(long, value_name = "SIZE", value_parser = units::parse_memory_limit)]
    pub memory_limit: Option<Bytes>,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Print only the summary line of the table.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print a line for every test run, beside the table.
    #[arg(short, long)]
    pub verbose: bool,

    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Refuse to judge unless every isolation layer is on.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct JudgeArgs {
    /// The problem: its name (a folder under problems/), or the path of its folder (`.` inside it).
    pub problem: String,

    /// Judge this file instead of the problem's solutions, expecting AC unless --expect says otherwise.
    /// Repeatable.
    #[arg(long = "submission", value_name = "FILE")]
    pub submissions: Vec<PathBuf>,

    /// The verdicts the submissions are expected to get, instead of AC ("WA", "TLE,RE"). Repeatable.
    #[arg(
        long,
        value_name = "VERDICT",
        value_delimiter = ',',
        requires = "submissions"
    )]
    pub expect: Vec<Verdict>,

    /// Take the NAME.in / NAME.ans pairs from DIR instead of testdata/<problem>.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// The source file to judge; its language comes from its extension.
    pub file: PathBuf,

    /// Take the NAME.in / NAME.ans (or NAME.out) pairs from DIR [default: tests/ or test/ beside FILE].
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, clap::Args)]
pub struct TimelimitArgs {
    /// The problem: its name (a folder under problems/), or the path of its folder (`.` inside it).
    pub problem: String,

    /// Runs of every solution on every test.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u16).range(1..=100))]
    pub runs: u16,

    /// Only the tests with this name, or whose name matches this glob. Repeatable.
    #[arg(long = "test", value_name = "NAME|GLOB")]
    pub test_patterns: Vec<String>,

    /// Run up to N tests at once. Runs that share cores slow each other down: one at a time times best.
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,

    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Refuse to run unless every isolation layer is on.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The new problem's name: letters, digits, '-' and '_', as its folder will be named.
    pub name: String,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::STANDALONE_LIMITS;

    #[test]
    fn the_help_of_test_states_its_real_limits() {
        let limits = format!(
            "{} CPU time, {} memory, {} output",
            units::format_time(STANDALONE_LIMITS.time),
            STANDALONE_LIMITS.memory,
            STANDALONE_LIMITS.output
        );
        assert!(TEST_HELP.contains(&limits), "{TEST_HELP}\n{limits}");
    }
}
