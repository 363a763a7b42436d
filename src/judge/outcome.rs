//! What judging produces: per test, per solution, per problem; and the events sent while it goes on.

use crate::compile::CompileOutcome;
use crate::language::Language;
use crate::problem::{PackageWarning, Solution};
use crate::units::{Bytes, format_time};
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// One solution on one test.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct TestResult {
    pub name: String,
    pub verdict: Verdict,
    /// CPU time of the whole run.
    pub cpu: Duration,
    pub wall: Duration,
    pub memory: Bytes,
    /// Why the verdict is what it is: the checker's words, the signal, the limit.
    pub message: String,
    /// For a wrong answer judged by a built-in comparison, the first differing lines.
    pub diff: Option<String>,
    /// The test's input file, to find the test by: the test's own, shared.
    #[serde(skip, default = "no_path")]
    pub input: Arc<Path>,
    /// For a wrong answer on a short test: the input, the answer and the output, whole. Boxed: most tests have
    /// none, and a judge keeps a result of every test.
    pub texts: Option<Box<TestTexts>>,
    /// For an interactive problem's failed test: the dialogue, each line marked `> ` (the solution) or `< ` (the
    /// interactor).
    pub dialogue: Option<String>,
    /// For a TLE run that went over the limit but ended within the TLE margin it ran under (a package's
    /// submission expected TLE runs on to it): the verdict it would get with the margin as its limit. Not TLE:
    /// the submission is sensitive to the time limit.
    pub at_margin: Option<Verdict>,
    /// What the output validator wrote in its feedback folder (`score.txt`, `score_multiplier.txt`).
    pub validator_score: Option<crate::check::ValidatorScore>,
    /// The test's score, in a scoring problem's group that scores its tests.
    pub score: Option<f64>,
    /// The times the solution ran on the test: more than once only in a multi-pass problem.
    pub passes: u32,
    /// Where the run's outcome is kept for the next judge, and whether it was taken from there (see
    /// `judge::records`). Boxed: most judges keep a result of every test.
    #[serde(skip)]
    pub trace: Option<Box<RunTrace>>,
}

/// The input of a kept result, which is the test's judging it again.
fn no_path() -> Arc<Path> {
    Arc::from(Path::new(""))
}

/// What decided a run's outcome, as digests: the key it is kept under, the test's input and answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunTrace {
    pub key: String,
    pub input: String,
    pub answer: String,
    /// Whether the outcome was taken from an earlier judge instead of running the program.
    pub reused: bool,
}

impl TestResult {
    /// The result of a run on `test`, accepted until judged otherwise.
    pub(crate) fn new(test: &crate::problem::Test, run: &crate::sandbox::RunResult) -> TestResult {
        TestResult {
            cpu: run.cpu,
            wall: run.wall,
            memory: run.peak_memory,
            passes: 1,
            ..TestResult::without_run(test)
        }
    }

    /// The result of a test on which the solution does not run (a static validation test case), accepted until
    /// judged otherwise: no time, no memory, no input.
    pub(crate) fn without_run(test: &crate::problem::Test) -> TestResult {
        TestResult {
            name: test.name.to_string(),
            verdict: Verdict::Accepted,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            memory: Bytes(0),
            message: String::new(),
            diff: None,
            input: test.input().into(),
            texts: None,
            dialogue: None,
            at_margin: None,
            validator_score: None,
            score: None,
            passes: 0,
            trace: None,
        }
    }
}

/// A short test's files and a program's output on it, to show side by side.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestTexts {
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    pub output: Vec<u8>,
}

impl TestTexts {
    /// Bytes and lines each file may have to be shown whole.
    const BYTES: usize = 1024;
    const LINES: usize = 12;

    /// The three files, if each is short enough to show whole.
    pub fn read(input: &Path, answer: &Path, output: &Path) -> Option<Box<TestTexts>> {
        let read = |path: &Path| crate::text::read_head(path, Self::BYTES + 1);
        Self::new(read(input), read(answer), read(output)).map(Box::new)
    }

    /// The three texts, if each is short enough to show whole.
    pub fn new(input: Vec<u8>, answer: Vec<u8>, output: Vec<u8>) -> Option<TestTexts> {
        let short = |text: &[u8]| {
            text.len() <= Self::BYTES && text.iter().filter(|&&b| b == b'\n').count() <= Self::LINES
        };
        (short(&input) && short(&answer) && short(&output)).then_some(TestTexts {
            input,
            answer,
            output,
        })
    }
}

/// One solution on every test it was run on.
#[derive(Debug, Clone)]
pub struct SolutionReport {
    pub name: String,
    pub path: PathBuf,
    pub language: Language,
    pub expected: Vec<Verdict>,
    /// The first non-AC test's verdict, AC if none (CE when it did not compile).
    pub verdict: Verdict,
    /// Whether the verdict is one of those expected.
    pub ok: bool,
    pub compile: CompileOutcome,
    /// In test order; when judging stops at the first failure, the tests after it are absent.
    pub tests: Vec<TestResult>,
    /// A scoring problem's score of the solution, its highest possible (where bounded), and each group's result.
    pub score: Option<f64>,
    pub max_score: Option<f64>,
    pub groups: Vec<crate::scoring::GroupResult>,
    /// The rules beyond its verdict that it broke (see [`Solution::expectations`]), each naming itself.
    pub broken: Vec<String>,
    /// What it was built from and into, as digests, where runs are kept (see `judge::records`).
    pub build: Option<BuildTrace>,
}

/// What a solution's runs ran, as digests and versions: enough to tell whether two judges ran the same program.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct BuildTrace {
    /// Its source file's digest.
    pub source: String,
    /// Its build's key: a digest of its sources, language, compile command and compiler version.
    pub key: String,
    /// A digest of the files its build made.
    pub executable: String,
    /// Its language's compiler or interpreter version, as the tool says it.
    pub toolchain: String,
}

impl SolutionReport {
    /// A solution's verdict: CE if it did not compile, else the first non-AC test's verdict, AC if none.
    pub fn verdict_of(compiled: bool, tests: &[TestResult]) -> Verdict {
        if !compiled {
            return Verdict::CompileError;
        }
        tests
            .iter()
            .map(|t| t.verdict)
            .find(|v| !v.is_accepted())
            .unwrap_or(Verdict::Accepted)
    }

    /// The first test over the time limit on which it would pass, or get another verdict than TLE, with the TLE
    /// margin as its limit.
    pub fn sensitive_test(&self) -> Option<&TestResult> {
        self.tests.iter().find(|t| t.at_margin.is_some())
    }

    /// The test that decided a non-AC verdict.
    pub fn failing_test(&self) -> Option<&TestResult> {
        self.tests.iter().find(|t| !t.verdict.is_accepted())
    }

    pub fn max_cpu(&self) -> Duration {
        self.tests.iter().map(|t| t.cpu).max().unwrap_or_default()
    }

    pub fn max_memory(&self) -> Bytes {
        self.tests
            .iter()
            .map(|t| t.memory)
            .max()
            .unwrap_or_default()
    }
}

/// A whole judge of one problem.
#[derive(Debug, Clone)]
pub struct JudgeReport {
    pub problem: String,
    pub time_limit: Duration,
    pub memory_limit: Bytes,
    /// Whether the limits were given on the command line instead of taken from the problem.
    pub time_limit_overridden: bool,
    /// How a package's time limit was found.
    pub time_limit_origin: Option<String>,
    /// For a package whose time limit is fixed: how it compares with the rule of its format.
    pub time_limit_check: Option<super::LimitCheck>,
    /// For a package: the CPU time its submissions expected TLE run under, the limit times its TLE margin. Their
    /// runs over the limit are TLE; ended within this, they are noted as sensitive to the time limit.
    pub tle_time_limit: Option<Duration>,
    pub memory_limit_overridden: bool,
    /// The names of every test, in order.
    pub tests: super::TestNames,
    /// Whether every test was run, instead of stopping each solution at its first failure.
    pub all_tests: bool,
    /// The share of the runs judged, when the judge was spread over machines.
    pub partition: Option<super::Partition>,
    /// What `timelimit` suggested for the same references and tests, where it was run before.
    pub suggested_time_limit: Option<SuggestedLimit>,
    /// The solutions judged completely, in order.
    pub solutions: Vec<SolutionReport>,
    /// The solutions not judged, for want of their language's tools (or of a language at all).
    pub skipped: Vec<crate::problem::Skipped>,
    /// Set when the user stopped the judge: the solutions after those above were not (completely) judged.
    pub interrupted: Option<Interruption>,
    /// What the problem's package holds that was judged otherwise than its format says, or not at all.
    pub warnings: Vec<PackageWarning>,
    /// The main reference of a problem of the project, when judged: every `.ans` is its output, so its wrong
    /// answer may be a stale answer rather than a bug. Not kept in JSON.
    pub main_reference: Option<String>,
    /// The build key of the checker or interactor, where there is one.
    pub checker: Option<String>,
}

/// A time limit `timelimit` suggested, and where and when it timed the references.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SuggestedLimit {
    pub limit_ms: u64,
    pub slowest_reference_ms: u64,
    /// The language and the reference that set the limit (empty in a suggestion kept before they were).
    #[serde(default)]
    pub language: String,
    #[serde(default)]
    pub solution: String,
    /// The least limit it could suggest; 0 in a suggestion kept before there was one.
    #[serde(default)]
    pub floor_ms: u64,
    /// Runs of every test it timed.
    pub runs: usize,
    pub host: String,
    /// RFC 3339, to the second.
    pub date: String,
}

/// What the judge was doing when the user stopped it.
#[derive(Debug, Clone)]
pub struct Interruption {
    /// "judging memo.rs", "compiling wrong.cpp".
    pub during: String,
    /// The solutions not judged completely (the one being judged among them).
    pub not_judged: Vec<String>,
}

impl JudgeReport {
    /// The runs reported, and how many of them were taken from earlier judges instead of made (see
    /// `judge::records`).
    pub fn runs_reused(&self) -> (usize, usize) {
        let runs = self.solutions.iter().flat_map(|s| &s.tests);
        let (mut all, mut reused) = (0, 0);
        for test in runs.filter(|t| t.passes > 0) {
            all += 1;
            reused += usize::from(test.trace.as_ref().is_some_and(|t| t.reused));
        }
        (all, reused)
    }

    /// Each test's place in test order, by name.
    pub fn positions(&self) -> std::collections::HashMap<&str, usize> {
        self.tests
            .iter()
            .enumerate()
            .map(|(at, name)| (name, at))
            .collect()
    }

    /// The warning of a package's fixed time limit below the rule of its format.
    pub fn time_limit_warning(&self) -> Option<String> {
        self.time_limit_check
            .as_ref()
            .and_then(|check| check.warning(self.time_limit))
    }

    /// What is said of a solution besides its verdict: that it is sensitive to the time limit, as problemtools
    /// says of a submission whose verdict changes between the limit and the TLE margin.
    pub fn notes(&self, solution: &SolutionReport) -> Vec<String> {
        let mut notes = Vec::new();
        if self.main_reference.as_deref() == Some(solution.name.as_str())
            && solution.verdict == Verdict::WrongAnswer
        {
            notes.push(format!(
                "{} is the main reference, whose output every answer (.ans) is: the answers may be stale, made \
                 by an older version of it or of the generator; `cpjudge regen {}` shows each answer that would \
                 change, and with --write rewrites them",
                solution.name, self.problem
            ));
        }
        let Some(test) = solution.sensitive_test() else {
            return notes;
        };
        let at_margin = test
            .at_margin
            .expect("a sensitive test has a verdict at the margin");
        let margin = self
            .tle_time_limit
            .map(|m| format!(" of {}", format_time(m)))
            .unwrap_or_default();
        notes.push(format!(
            "sensitive to the time limit: on test {} it took {} of CPU, over the {} limit, and would get {} \
             within the TLE margin{margin}",
            test.name,
            format_time(test.cpu),
            format_time(self.time_limit),
            at_margin.code()
        ));
        notes
    }

    /// Whether every solution got a verdict it was expected to get (never, when the judge was interrupted).
    pub fn all_as_expected(&self) -> bool {
        self.interrupted.is_none() && self.solutions.iter().all(|s| s.ok)
    }
}

/// Progress, in the order it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// Judging begins: this many solutions, each on up to this many tests.
    Started {
        problem: &'a str,
        solutions: &'a [Solution],
        tests: usize,
    },
    /// Something the package holds is judged otherwise than its format says, or not at all.
    Warning {
        warning: &'a PackageWarning,
    },
    /// Programs are being compiled (or found in the cache).
    Compiling {
        what: &'a str,
    },
    /// A package's time limit was found (fixed or derived), as said.
    TimeLimitFound {
        limit: Duration,
        how: &'a str,
    },
    /// A package's fixed time limit is below what the rule of its format asks, as said: judged with all the same.
    TimeLimitWarning {
        warning: &'a str,
    },
    /// The test inputs are being checked by the problem's validator.
    Validating {
        tests: usize,
    },
    /// A solution was compiled (or found in the cache).
    Compiled {
        solution: &'a Solution,
        outcome: &'a CompileOutcome,
    },
    TestFinished {
        solution: &'a Solution,
        result: &'a TestResult,
    },
    SolutionFinished {
        report: &'a SolutionReport,
    },
    /// The user asked the judge to stop: runs in flight were ended, nothing more is started.
    Interrupted {
        interruption: &'a Interruption,
    },
}
