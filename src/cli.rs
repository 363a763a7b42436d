//! Command-line arguments: clap's derive types, and the pairing of arguments that go together.

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
                  2 usage or configuration error, 3 a run could not be carried out (the sandbox failed), \
                  130 interrupted (Ctrl-C)."
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

    /// How much the cached builds may take together ("500MiB", "4GiB"); past it, each new build removes the
    /// builds used least recently, never one a judge is using.
    #[arg(
        long,
        global = true,
        value_name = "SIZE",
        env = "CPJUDGE_CACHE_SIZE",
        default_value_t = crate::cache::DEFAULT_SIZE_BOUND,
        value_parser = units::parse_bytes
    )]
    pub cache_size: Bytes,

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

    /// Use this language for the programs whose files it shares with another of its family: `pypy3` or
    /// `python3` for Python 3 (a package's Python runs on PyPy where it is installed, a project's on CPython).
    /// Repeatable. Keys are those of the language table (`cpjudge doctor` lists them).
    #[arg(
        long,
        global = true,
        value_name = "LANG",
        env = "CPJUDGE_PREFER",
        value_delimiter = ','
    )]
    pub prefer: Vec<String>,

    /// Colour the output: `auto` (on a terminal, unless NO_COLOR is set; always if CLICOLOR_FORCE is), `always`
    /// or `never`.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command line, parsed; what the derived parser cannot see (which --expect goes with which
    /// --submission) is taken from where each stands.
    pub fn parse_args() -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let matches = Cli::command().get_matches();
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        if let (Command::Judge(args), Some(("judge", judge))) =
            (&mut cli.command, matches.subcommand())
        {
            args.pair_expectations(judge);
        }
        cli
    }
}

impl JudgeArgs {
    /// Whether the judge will most likely run programs, as told from its command line alone: a program run as it
    /// is keeps no runs from one judge to the next, a submission is most often judged as it is being changed, and
    /// --fresh keeps none. (A judge of the problem's own solutions may take every run from the judge before.)
    pub fn runs_soon(&self) -> bool {
        self.run.fresh || !self.submissions.is_empty() || !self.commands.is_empty()
    }

    /// Gives each --expect to the --submission before it (one before every --submission, to the first).
    pub fn pair_expectations(&mut self, matches: &clap::ArgMatches) {
        let indices = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(Iterator::collect)
                .unwrap_or_default()
        };
        let commands = indices("commands");
        let mut submissions: Vec<usize> = indices("submissions");
        submissions.extend(&commands);
        submissions.sort_unstable();
        self.command_places = commands
            .iter()
            .filter_map(|c| submissions.iter().position(|s| s == c))
            .collect();
        let expects: Vec<usize> = matches
            .indices_of("expect")
            .map(Iterator::collect)
            .unwrap_or_default();
        self.expected = vec![Vec::new(); submissions.len()];
        for (verdict, at) in self.expect.iter().zip(expects) {
            let owner = submissions.iter().rposition(|&s| s < at).unwrap_or(0);
            if let Some(verdicts) = self.expected.get_mut(owner)
                && !verdicts.contains(verdict)
            {
                verdicts.push(*verdict);
            }
        }
    }
}

// Each command's arguments are made only when it is the one given: making all of them took a fifth of a
// millisecond at every start. A flattened struct's doc comment would then stand as its command's about, over the
// command's own: the structs flattened into commands below have plain comments.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
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
    /// Add tests: an input of your own, or the generator's; each is validated, answered by the main reference and
    /// checked against the other references before it is written.
    #[command(after_help = ADD_HELP)]
    Add(AddArgs),
    /// Rebuild every test from testdata/<problem>/recipe.toml and report each whose input or answer would change.
    #[command(after_help = REGEN_HELP)]
    Regen(RegenArgs),
    /// Run the validator on every test, and on every kept invalid input (which it must reject).
    #[command(after_help = VALIDATE_HELP)]
    Validate(ValidateArgs),
    /// Search for an input on which a submission disagrees with the main reference, and shrink it.
    #[command(after_help = STRESS_HELP)]
    Stress(StressArgs),
    /// Time the references and the solutions expected TLE several times, and suggest a time limit.
    #[command(after_help = TIMELIMIT_HELP)]
    Timelimit(TimelimitArgs),
    /// Start a new problem: problem.toml, statement, solution, validator, generator and a sample test.
    #[command(after_help = NEW_HELP)]
    New(NewArgs),
    /// Write a problem as a Problem Package Format package (Kattis, DOMjudge, problemtools)
    #[command(after_help = EXPORT_HELP)]
    Export(ExportArgs),
    /// Make a problem of the project from a Problem Package Format package (Kattis, DOMjudge, problemtools)
    #[command(after_help = IMPORT_HELP)]
    Import(ImportArgs),
    /// Join the JSON reports of the shares of a judge (`judge --partition K/N`) into one.
    #[command(after_help = MERGE_HELP)]
    Merge(MergeArgs),
    /// Show a saved JSON report again: as the table, or as HTML, JSON or JUnit.
    #[command(after_help = REPORT_HELP)]
    Report(ReportArgs),
    /// Show where the cache is and what it holds, or clear it.
    #[command(after_help = CACHE_HELP)]
    Cache(CacheArgs),
}

const CACHE_HELP: &str = "\
The cache holds the builds (kept within --cache-size together, 2GiB unless given, the least recently used
removed first), a memo of each input a validator accepted, and the time limits `timelimit` suggested. A build
another judge is using is never removed, by trimming or by --clear.

Examples:
  cpjudge cache
  cpjudge cache --json
  cpjudge cache --clear
  cpjudge --cache-size 500MiB judge knight-pawns

Exit codes: 0 shown, or cleared (builds in use are kept, and counted), 2 the cache could not be read, or
something in it could not be removed.";

const REPORT_HELP: &str = "\
Examples:
  cpjudge judge knight-pawns --all --json > run.json
  cpjudge report run.json --html run.html

Exit codes: 0 every solution in the report got its expected verdict, 1 some did not, 2 the file is not a report.";

const MERGE_HELP: &str = "\
Examples:
  cpjudge judge knight-pawns --partition 1/3 --json > 1.json   (and 2/3, 3/3, on any machines)
  cpjudge merge 1.json 2.json 3.json
  cpjudge merge shares/*.json --json --junit judge.xml --html judge.html

The shares must be all N of one judge: the same problem, tests, limits and solutions, each share once.

Exit codes: 0 every solution got its expected verdict, 1 some did not, 2 the reports cannot be merged (a share
missing or given twice, shares of different judges, a file that is not a report).";

const EXPORT_HELP: &str = "\
Examples:
  cpjudge export knight-tour                  (into ./knighttour: Kattis wants [a-z0-9]+ as a package's name)
  verifyproblem knighttour                    (problemtools, to check it travels)
  cpjudge judge knighttour                    (judged again, as a package)
  cpjudge export knight-tour packages/knighttour --format 2025-09

The legacy format (the default) has the statement rendered to LaTeX (problem_statement/problem.en.tex); 2025-09
has it as Markdown (statement/problem.en.md). Either way the statement's title and samples section are left
out: the format prints the name and the samples itself.

A checker, interactor or validator speaking cpjudge's protocol goes as a folder with build and run scripts that
call it in the package format's (exit codes 42 and 43, feedback folder).

Exit codes: 0 the package was written, 2 it was not (an unknown problem, a folder that exists and is not empty,
a problem the format cannot say).";

const IMPORT_HELP: &str = "\
Examples:
  cpjudge import path/to/knightpawns                    (into problems/knightpawns and testdata/knightpawns)
  cpjudge import path/to/knightpawns --name knight-pawns
  cpjudge judge knight-pawns

Writes problems/NAME/problem.toml with the package's limits, comparison or output validator (kept as it is, with
protocol = \"package\"), input validator, groups and submissions, and testdata/NAME/ with its tests; a time limit
the package does not fix is found as judging the package finds it, by running its accepted submissions. Prints
what was written and each part of the package not carried over. A problem name already taken, or a package whose
scoring problem.toml cannot say (nested groups, an unbounded score, a legacy grader other than a sum of groups),
is refused, and nothing is written.

Exit codes: 0 the problem was made, 2 it was not (a taken name, a package that is not one or that problem.toml
cannot say).";

/// How a command given to run as it is becomes words and paths (see `crate::prebuilt`), for the help of each command
/// that takes one.
macro_rules! command_rule {
    () => {
        "A command is split into words as a shell would (quotes and backslashes; no variables, globs or pipes). Its
first word is a program on PATH, or a path holding a `/` from the current folder; every other word naming an
existing file or folder from the current folder becomes its absolute path, since a run starts in a fresh empty
folder. The run may read the program and the files and folders so named, never the tests (a command naming one
is refused)."
    };
}

const JUDGE_HELP: &str = concat!(
    "\
Examples:
  cpjudge judge knight-pawns
  cpjudge judge                                       (every problem of the project, with a summary of all)
  cpjudge judge --problems 'knight-*' --html reports/index.html
  cpjudge judge problems/knight-pawns --samples
  cpjudge judge . --test 'cluster-*' --all            (from inside the problem's folder)
  cpjudge judge knight-pawns --submission mine.cpp --expect WA
  cpjudge judge knight-pawns --time-limit 3s --json
  cpjudge judge knight-pawns --submission ./a.out --command 'python3 mine.py' --expect WA
  cpjudge judge knight-pawns --watch                  (again on each save, until Ctrl-C)

A --submission of no known language that is an executable (an a.out you built) is run as it is, as a --command is.
",
    command_rule!(),
    "

Naming no problem, every problem of the project is judged in turn: a problem that cannot be loaded is said in
its row of the summary, and the others are judged all the same.

Exit codes: 0 every solution got its expected verdict (of every problem, naming none), 1 some did not (or some
problem is broken), 2 usage or configuration error, 3 a run could not be carried out (the sandbox failed),
130 interrupted (Ctrl-C)."
);

const TEST_HELP: &str = concat!(
    "\
Examples:
  cpjudge test a.cpp                     (tests from tests/ or test/ beside a.cpp)
  cpjudge test a.py --tests samples/ --time-limit 1s
  cpjudge test a.cpp -e 1e-6             (numbers within 1e-6, absolute or relative)
  cpjudge test a.cpp --checker check.cpp
  cpjudge test a.py --tests inputs/      (inputs alone: the outputs are shown)
  cpjudge test a.out                     (an executable you built, run as it is)
  cpjudge test --command 'python3 a.py'  (tests from tests/ or test/ in the current folder)
  cpjudge test a.cpp --watch             (again on each save of a.cpp or a sample)

",
    command_rule!(),
    "

Limits unless given: 2s CPU time, 1GiB memory, 64MiB output. Outputs are compared token by token. Every sample
is run, and each is shown.

Exit codes: 0 the file passed every test (without answers: every run ended normally), 1 it did not, 2 usage
error (no such file or folder, no tests), 130 interrupted (Ctrl-C)."
);

const LIST_HELP: &str = "\
Exit codes: 0 every problem's configuration is sound, 1 some problem's is broken (its error is shown),
2 not a project folder.";

const ADD_HELP: &str = "\
Examples:
  cpjudge add knight-pawns --input corner.txt --name two-corners
  echo '0 0\n1\n1 2' | cpjudge add knight-pawns --input -
  cpjudge add knight-pawns --gen 'cluster 12 7'
  cpjudge add knight-pawns --gen 'random 15 {seed}' --seeds 1..20     (20 tests, seeds 1 to 20)
  cpjudge add knight-pawns --gen 'cluster 12 7' --gen 'random 15 {seed}' --seeds 1..3   (1 + 3 tests)

An input given with --input is recorded as hand-made in testdata/<problem>/recipe.toml; a generated one with its
arguments, so that `cpjudge regen` can rebuild it. Either every test is added or none is.

Exit codes: 0 the tests were added, 1 the references disagree on an input (both outputs are shown), 2 an input
is invalid or already a test, or a usage error, 130 interrupted (Ctrl-C).";

const REGEN_HELP: &str = "\
Each generated test is made twice by the generator with its recorded arguments, to catch a generator that is not
deterministic; every test's answer is made again by the main reference. Hand-made tests keep their input.

Examples:
  cpjudge regen knight-pawns
  cpjudge regen knight-pawns --write        (after changing the generator or the main reference)
  cpjudge regen                             (every problem of the project, with a summary of all)

Exit codes: 0 every test is as its recipe makes it (or was rewritten so with --write), 1 some test is not, or
cannot be rebuilt, 2 usage or configuration error, 130 interrupted (Ctrl-C).";

const VALIDATE_HELP: &str = "\
Every test must be accepted. Every problems/<problem>/invalid/NAME.in must be rejected, with a message holding
the text of NAME.err: the validator's own test.

Examples:
  cpjudge validate knight-pawns
  cpjudge validate knight-pawns --tests my-tests/
  cpjudge validate knight-pawns --constraints       (which bounds the tests reach)
  cpjudge validate                                  (every problem of the project, with a summary of all)

Exit codes: 0 every test is valid and every kept invalid input rejected as expected, 1 not, 2 usage or
configuration error (no validator), 130 interrupted (Ctrl-C).";

const STRESS_HELP: &str = "\
Inputs come from the generator, with {seed} in its arguments replaced by 1, 2, 3, ...; the submission is judged
on each against the main reference's output, as `judge` would judge it. The first failure (a wrong answer, a
crash or a limit) is shrunk, for at most 60s: each number among the generator's arguments is bisected down,
with other seeds, then items are taken out of the input (by the generator's `shrink` mode, or one line at a
time) while the validator accepts it and the submission still fails. The smallest failure is saved with both outputs; Ctrl-C
keeps the smallest found so far.

Examples:
  cpjudge stress knight-pawns --submission mine.cpp
  cpjudge stress knight-pawns --submission mine.py --gen 'cluster 15 {seed}' --time 30s -j 2
  cpjudge stress young-chess --submission greedy.rs --count 300

Exit codes: 0 no failure found, 1 a failure found (and saved), 2 usage or configuration error (a generator or a
reference that fails), 130 interrupted (Ctrl-C; a failure found is still saved).";

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
Makes problems/NAME/ (problem.toml, statement.md, solutions/main.rs, validator.rs, generator.rs; .cpp or .py
with --lang cpp or python) and testdata/NAME/ (sample-1.in, sample-1.ans, recipe.toml), for a placeholder
problem (the sum of two integers) that `cpjudge judge NAME` passes at once. Comments in every file say what to
fill in.

Examples:
  cpjudge new knight-moves
  cpjudge new knight-moves --lang cpp
  cpjudge judge knight-moves

Exit codes: 0 the problem was made, 2 it was not (a bad or taken name, not a project folder, a file that could
not be written, a --lang not offered: nothing is left behind).";

const DOCTOR_HELP: &str = "\
Exit codes: 0 the report was written, 2 it could not be.";

// How to run and report, for `judge` and `test` alike.
#[derive(Debug, Clone, clap::Args)]
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

    /// Compile a language with these flags instead of its own or the problem's: KEY=FLAGS, the key a language's
    /// (`cpjudge doctor` lists them), the flags split at spaces ("cpp=-std=gnu++20 -O2"). Repeatable.
    #[arg(long = "lang-flags", value_name = "KEY=FLAGS", value_parser = crate::language::Flags::parse_one)]
    pub lang_flags: Vec<(String, Vec<String>)>,

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

    /// Also write the HTML report to FILE: one page with every run, to open in a browser. Judging every problem,
    /// FILE is an index linking each problem's page, written beside it as <problem>.html.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Refuse to judge unless every isolation layer is on, and count the solutions skipped for want of their
    /// language's tools as not as expected (exit 1).
    #[arg(long)]
    pub strict: bool,

    /// Judge, then judge again each time a file the verdicts depend on changes (the solutions or the files given,
    /// the tests, the checker, validators, interactor and problem.toml), until Ctrl-C. With --json, each judge's
    /// report is one line of standard output (JSON Lines), and what changed is said on standard error.
    #[arg(long)]
    pub watch: bool,

    /// Judge only share K of N of the (solution, test) runs, the same share on every machine; join the reports
    /// of all N shares with `cpjudge merge`.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<crate::judge::Partition>,

    /// Run every test again, instead of taking the outcome of a run from an earlier judge where nothing it depends
    /// on has changed (the program, the test, the checker, the limits, the machine, cpjudge itself) and its CPU
    /// time is not within 10 % of the time limit. The runs made are kept for the next judge.
    #[arg(long, env = "CPJUDGE_FRESH")]
    pub fresh: bool,
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("submitted").multiple(true).args(["submissions", "commands"])))]
pub struct JudgeArgs {
    /// The problem: its name (a folder under problems/), or the path of its folder (`.` inside it). Unless given,
    /// every problem of the project, with a summary of all.
    pub problem: Option<PathBuf>,

    /// Judge the problems of the project whose names match this glob ("knight-*"), with a summary of all.
    #[arg(long, value_name = "GLOB", conflicts_with = "problem")]
    pub problems: Option<String>,

    /// Judge this file instead of the problem's solutions, expecting AC unless --expect says otherwise.
    /// Repeatable.
    #[arg(long = "submission", value_name = "FILE")]
    pub submissions: Vec<PathBuf>,

    /// Judge this command as a submission, run as it is ('./a.out', 'python3 x.py'; see the rule below), as
    /// --submission does a file. Repeatable.
    #[arg(long = "command", value_name = "CMD")]
    pub commands: Vec<String>,

    /// The verdicts the --submission before it is expected to get, instead of AC ("WA", "TLE,RE"). Repeatable:
    /// `--submission a.cpp --expect WA --submission b.py --expect TLE`.
    #[arg(
        long,
        value_name = "VERDICT",
        value_delimiter = ',',
        requires = "submitted"
    )]
    pub expect: Vec<Verdict>,

    /// Each submission's verdicts from --expect, in the order of --submission and --command (empty: AC), paired by
    /// where they stand on the command line; see [`Cli::parse_args`].
    #[arg(skip)]
    pub expected: Vec<Vec<Verdict>>,

    /// Where each --command stood among the --submission and --command given: its place in `expected`.
    #[arg(skip)]
    pub command_places: Vec<usize>,

    /// Take the NAME.in / NAME.ans pairs from DIR instead of testdata/<problem>.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// The source file to judge; its language comes from its extension. An executable of no known language (an
    /// `a.out` you built) is run as it is.
    #[arg(required_unless_present = "command")]
    pub file: Option<PathBuf>,

    /// Judge this command instead of a file, run as it is ('./a.out', 'python3 x.py'). See the rule below.
    #[arg(long, short = 'c', value_name = "CMD", conflicts_with = "file")]
    pub command: Option<String>,

    /// Take the NAME.in / NAME.ans (or NAME.out) pairs from DIR [default: tests/ or test/ beside FILE]. Inputs
    /// alone (no answer at all) are run and their outputs shown.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    /// Compare numbers with this absolute or relative tolerance ("1e-6"), as compare = "float" in problem.toml.
    #[arg(short = 'e', long = "error", value_name = "TOLERANCE", value_parser = parse_tolerance,
          conflicts_with = "checker")]
    pub tolerance: Option<f64>,

    /// Judge outputs with this checker program instead (`checker input output answer`: exit code 0 accepts, as
    /// a problem's checker).
    #[arg(long, value_name = "FILE")]
    pub checker: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["input", "generate"])))]
pub struct AddArgs {
    /// The problem: its name, or the path of its folder.
    pub problem: PathBuf,

    /// The input to add, from a file, or `-` for standard input.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Add the input the generator prints with these arguments (split at spaces; `{seed}` is replaced by each of
    /// --seeds). Repeatable.
    #[arg(long = "gen", value_name = "ARGS", conflicts_with = "input")]
    pub generate: Vec<String>,

    /// With --gen, one test per seed in this range, both ends included ("1..20"), for each --gen holding `{seed}`;
    /// a --gen without it is added once.
    #[arg(long, value_name = "A..B", value_parser = parse_seeds, requires = "generate",
          conflicts_with = "input")]
    pub seeds: Option<std::ops::RangeInclusive<u64>>,

    /// The new test's name [default: hand-N for --input, the arguments joined by '-' for --gen].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// The test group the new tests join: they go in its folder (or, for a group of globs, must be named as it
    /// takes them). Needed where every test is in a group and the name alone puts the test in none.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The problem: its name, or the path of its folder. Unless given, every problem of the project, with a
    /// summary of all.
    pub problem: Option<PathBuf>,

    /// Validate the problems of the project whose names match this glob ("knight-*"), with a summary of all.
    #[arg(long, value_name = "GLOB", conflicts_with = "problem")]
    pub problems: Option<String>,

    /// Validate the NAME.in files under DIR (answers or not) instead of testdata/<problem>.
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    /// Also show which bounds and special cases the tests reach, as the validator reports them (see "Constraint
    /// report" in the manual), so that a weak test set shows.
    #[arg(long)]
    pub constraints: bool,
}

#[derive(Debug, clap::Args)]
pub struct StressArgs {
    /// The problem: its name, or the path of its folder.
    pub problem: PathBuf,

    /// The source file to stress.
    #[arg(long, value_name = "FILE")]
    pub submission: PathBuf,

    /// The generator's arguments, with {seed} where each seed goes [default: `stress` in problem.toml].
    #[arg(long = "gen", value_name = "ARGS")]
    pub generate: Option<String>,

    /// Stop after N inputs [default: 1000, unless --time is given].
    #[arg(long, value_name = "N", conflicts_with = "seeds",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,

    /// Stop after this long ("30s", "2m").
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub time: Option<std::time::Duration>,

    /// Try exactly these seeds, both ends included ("1..300") [default: from 1].
    #[arg(long, value_name = "A..B", value_parser = parse_seeds)]
    pub seeds: Option<std::ops::RangeInclusive<u64>>,

    /// Run up to N inputs at once.
    #[arg(short = 'j', long = "jobs", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,

    /// Where to save the smallest failure [default: target/stress/<problem>/<submission> in the project].
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,

    /// The test group a failure joins when kept: the `cpjudge add` command shown for it says so.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A tolerance of float comparison: a finite number, at least 0, as problem.toml's `tolerance`.
fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!(
            "{text:?} is not a tolerance: a finite number, at least 0"
        )),
    }
}

fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let duration = humantime::parse_duration(text).map_err(|e| format!("{text:?}: {e}"))?;
    if duration.is_zero() {
        return Err(format!("{text:?} is no time at all"));
    }
    Ok(duration)
}

#[derive(Debug, clap::Args)]
pub struct RegenArgs {
    /// The problem: its name, or the path of its folder. Unless given, every problem of the project, with a
    /// summary of all.
    pub problem: Option<PathBuf>,

    /// Rebuild the tests of the problems of the project whose names match this glob ("knight-*"), with a summary
    /// of all.
    #[arg(long, value_name = "GLOB", conflicts_with = "problem")]
    pub problems: Option<String>,

    /// Write the rebuilt tests over the kept ones where they differ.
    #[arg(long)]
    pub write: bool,
}

/// A range of seeds, "A..B" or "A..=B", both ends included.
fn parse_seeds(text: &str) -> Result<std::ops::RangeInclusive<u64>, String> {
    let (low, high) = text
        .split_once("..=")
        .or_else(|| text.split_once(".."))
        .ok_or_else(|| format!("{text:?} is not a range like 1..20"))?;
    let number = |part: &str| {
        part.trim().parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!(
                    "{part:?} in {text:?} is too large a seed (at most {})",
                    u64::MAX
                )
            }
            _ => format!("{part:?} in {text:?} is not a seed (a whole number)"),
        })
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        return Err(format!("{text:?} is empty: {low} is above {high}"));
    }
    if high - low >= 10_000 {
        return Err(format!(
            "{text:?} is more than 10000 seeds: at most 10000 at once"
        ));
    }
    Ok(low..=high)
}

#[derive(Debug, clap::Args)]
pub struct TimelimitArgs {
    /// The problem: its name (a folder under problems/), or the path of its folder (`.` inside it).
    pub problem: PathBuf,

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
pub struct ImportArgs {
    /// The package: a folder holding problem.yaml.
    pub package: PathBuf,
    /// The problem's name: letters, digits, '-' and '_'. By default, the package folder's name.
    #[arg(long)]
    pub name: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The new problem's name: letters, digits, '-' and '_', as its folder will be named.
    pub name: String,

    /// The language of the main reference, validator and generator written: rust, cpp or python.
    #[arg(long, value_name = "LANG", default_value = "rust")]
    pub lang: String,
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The JSON reports of the shares (`judge --partition K/N --json`), in any order.
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,

    /// The problem judged, as `judge` takes it (a problem of the project, or a package's folder): its groups,
    /// scores and expectations are decided again on the joined runs. Unless given, the problem the reports
    /// name, found from here.
    #[arg(long, value_name = "PROBLEM")]
    pub problem: Option<PathBuf>,

    /// Merge shares judged on machines that differ (CPU model, kernel, cgroup mode), by different builds of
    /// cpjudge, or with different compiler versions, which are refused otherwise: their times may not compare.
    #[arg(long)]
    pub accept_differences: bool,

    #[command(flatten)]
    pub forms: ReportForms,
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A report of `judge --json` (or of `merge --json`).
    #[arg(value_name = "REPORT")]
    pub report: PathBuf,

    #[command(flatten)]
    pub forms: ReportForms,
}

// The forms a report read back is given in.
#[derive(Debug, clap::Args)]
pub struct ReportForms {
    /// Print one JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Also write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Also write the HTML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Print only the summary line of the table, as `judge -q` does.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The problem: its name, or the path of its folder.
    pub problem: PathBuf,
    /// The folder to write the package into; it must not exist, or be empty. By default, the problem's name
    /// without what Kattis does not take in a package's name (knight-pawns: ./knightpawns).
    pub dir: Option<std::path::PathBuf>,
    /// The version of the format to write.
    #[arg(long, value_enum, default_value_t)]
    pub format: crate::export::Format,
}

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Probe the isolation layers again, rather than use what an earlier command found and kept (in
    /// $XDG_CACHE_HOME/cpjudge/memo).
    #[arg(long)]
    pub probe: bool,
}

#[derive(Debug, clap::Args)]
pub struct CacheArgs {
    /// Remove every build no judge is using, every validation memo and every kept time-limit suggestion.
    #[arg(long)]
    pub clear: bool,

    /// Print JSON instead of text.
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
    use clap::{CommandFactory, FromArgMatches};

    /// Each submission's expected verdicts, for a `judge` command line.
    fn paired(line: &[&str]) -> Vec<Vec<Verdict>> {
        let matches = Cli::command()
            .try_get_matches_from(["cpjudge", "judge", "p"].iter().chain(line))
            .unwrap();
        let mut cli = Cli::from_arg_matches(&matches).unwrap();
        let Command::Judge(args) = &mut cli.command else {
            unreachable!()
        };
        args.pair_expectations(matches.subcommand_matches("judge").unwrap());
        args.expected.clone()
    }

    /// A judge starts its first worker at once where its command line says it will run programs, and never for the
    /// problem's own solutions alone, whose runs may all be kept from the judge before.
    #[test]
    fn a_judge_runs_soon_with_a_submission_a_command_or_fresh() {
        let runs_soon = |line: &[&str]| {
            let matches = Cli::command()
                .try_get_matches_from(["cpjudge", "judge", "p"].iter().chain(line))
                .unwrap();
            match Cli::from_arg_matches(&matches).unwrap().command {
                Command::Judge(args) => args.runs_soon(),
                _ => unreachable!(),
            }
        };
        assert!(!runs_soon(&[]));
        assert!(!runs_soon(&["--tests", "t", "-j", "2"]));
        assert!(runs_soon(&["--submission", "a.cpp"]));
        assert!(runs_soon(&["--command", "./a.out"]));
        assert!(runs_soon(&["--fresh"]));
    }

    #[test]
    fn each_expect_goes_with_the_submission_before_it() {
        use Verdict::*;
        assert_eq!(
            paired(&[
                "--submission",
                "a",
                "--expect",
                "WA",
                "--submission",
                "b",
                "--expect",
                "TLE"
            ]),
            [vec![WrongAnswer], vec![TimeLimit]]
        );
        assert_eq!(
            paired(&[
                "--submission",
                "a",
                "--submission",
                "b",
                "--expect",
                "TLE,RE",
                "--expect",
                "WA"
            ]),
            [vec![], vec![TimeLimit, RuntimeError, WrongAnswer]]
        );
        assert_eq!(
            paired(&["--expect", "WA", "--submission", "a", "--submission", "b"]),
            [vec![WrongAnswer], vec![]]
        );
        assert_eq!(paired(&["--submission", "a"]), [Vec::<Verdict>::new()]);
    }

    #[test]
    fn a_command_takes_the_expect_after_it_as_a_submission_does() {
        use Verdict::*;
        let line = [
            "--submission",
            "a",
            "--command",
            "./b",
            "--expect",
            "WA",
            "--submission",
            "c",
        ];
        assert_eq!(paired(&line), [vec![], vec![WrongAnswer], vec![]]);
        let matches = Cli::command()
            .try_get_matches_from(["cpjudge", "judge", "p"].iter().chain(&line))
            .unwrap();
        let Command::Judge(mut args) = Cli::from_arg_matches(&matches).unwrap().command else {
            unreachable!()
        };
        args.pair_expectations(matches.subcommand_matches("judge").unwrap());
        assert_eq!(args.command_places, [1]);
        // An --expect with neither is refused.
        assert!(
            Cli::command()
                .try_get_matches_from(["cpjudge", "judge", "p", "--expect", "WA"])
                .is_err()
        );
    }

    #[test]
    fn seed_ranges() {
        assert_eq!(parse_seeds("1..20"), Ok(1..=20));
        assert_eq!(parse_seeds("5..=5"), Ok(5..=5));
        for bad in [
            "1",
            "a..3",
            "3..1",
            "0..99999",
            "-1..2",
            "0..18446744073709551615",
            "1..99999999999999999999",
        ] {
            assert!(parse_seeds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_commands_help_starts_with_its_own_line_of_the_list() {
        // The list is made from the commands' own doc comments; each command's help, from its arguments once they
        // are made (see `Command`).
        let listed: Vec<(String, String)> = Cli::command()
            .get_subcommands()
            .map(|sub| {
                (
                    sub.get_name().to_owned(),
                    sub.get_about().unwrap().to_string(),
                )
            })
            .collect();
        assert!(listed.len() > 10, "{listed:?}");
        for (name, about) in listed {
            let help = Cli::command()
                .try_get_matches_from(["cpjudge", &name, "--help"])
                .unwrap_err();
            assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
            let help = help.to_string();
            assert_eq!(help.lines().next(), Some(about.as_str()), "{name}:\n{help}");
        }
    }

    #[test]
    fn the_help_of_cache_states_the_real_default_size() {
        let default = format!("{} unless given", crate::cache::DEFAULT_SIZE_BOUND);
        assert!(CACHE_HELP.contains(&default), "{CACHE_HELP}\n{default}");
    }

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
