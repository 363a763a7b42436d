//! `problem.toml`: parsed into a raw struct that rejects unknown keys, then validated into a [`Problem`] with
//! resolved paths, typed limits and a comparison. Every error names the file, line and column.

use super::submission::unique_names;
use super::{Test, TestFlags};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::units::{self, Bytes};
use crate::verdict::Verdict;
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml::Spanned;

/// The default output limit when problem.toml gives none.
const DEFAULT_OUTPUT_LIMIT: Bytes = Bytes::mib(64);
const DEFAULT_TOLERANCE: f64 = 1e-6;

/// A problem, validated: every path exists and every limit is typed.
#[derive(Debug, Clone)]
pub struct Problem {
    pub name: String,
    pub dir: PathBuf,
    /// Where the configuration was read from, for error messages.
    pub config_path: PathBuf,
    pub title: String,
    pub limits: ProblemLimits,
    pub comparison: Comparison,
    /// The input validator: a file, or (speaking the package protocol) a folder of files.
    pub validator: Option<PathBuf>,
    /// The protocol the problem's own checker, interactor and validator speak: ours unless problem.toml says
    /// `protocol = "package"`, which lets a problem keep a package's programs as they are (see `cpjudge import`).
    pub protocol: Protocol,
    /// The program the tests were made with (`testdata/<name>/recipe.toml` keeps its arguments per test). The
    /// judge does not run it; it is checked to exist and be in a known language, so that the tests can always be
    /// rebuilt.
    pub generator: Option<PathBuf>,
    /// The generator's arguments for `stress` when none are given, with `{seed}` where each seed goes.
    pub stress: Option<String>,
    pub solutions: Vec<Solution>,
    /// What a problem read from a package has besides: None for a problem of ours.
    pub package: Option<PackageParts>,
    /// The test groups of a scoring problem, and their rules; None for a pass-fail problem.
    pub groups: Option<crate::scoring::Grouping>,
    /// Compile flags by language, instead of the language table's (`[flags]`: `cpp = "-std=gnu++20 -O2"`).
    pub flags: crate::language::Flags,
    /// The least time limit `timelimit` suggests (`time_limit_floor`), if problem.toml sets one: see
    /// `crate::calibrate::DEFAULT_FLOOR` for when it does not.
    pub time_limit_floor: Option<Duration>,
}

impl Problem {
    /// The problem's input validators and the protocol they speak: its own validator, in ours, or its package's,
    /// in the format's.
    pub fn input_validators(&self) -> Result<(Vec<InputValidator>, Protocol)> {
        let mut found = Vec::new();
        if let Some(path) = &self.validator {
            found.push(InputValidator::Program(match self.protocol {
                Protocol::Cpjudge => self.own_source(Source::file(path)?),
                Protocol::Package => {
                    super::package::program_under(path, crate::language::Rules::Project)?
                }
            }));
        }
        let protocol = match &self.package {
            Some(package) => {
                found.extend(package.input_validators.iter().cloned());
                Protocol::Package
            }
            None => self.protocol,
        };
        Ok((found, protocol))
    }

    /// `source`, one of the problem's own programs, with the problem's folder where its quoted includes are found
    /// after its own (see `crate::headers`). A package's programs keep to what the format gives them.
    pub fn own_source(&self, mut source: Source) -> Source {
        if self.package.is_none() {
            source.preparation.headers = Some(self.dir.clone());
        }
        source
    }

    /// The generator's source; its absence is an error, for the commands that need one.
    pub fn generator(&self) -> Result<&Path> {
        self.generator.as_deref().ok_or_else(|| {
            let how = match self.package {
                // The format leaves generators/ free-form: nothing says how to run what is there.
                Some(_) => "a problem package has none that cpjudge can run".to_owned(),
                None => format!(
                    "give one with `generator = \"generator.rs\"` in {}",
                    self.config_path.display()
                ),
            };
            Error::Usage(format!("problem {} has no generator: {how}", self.name))
        })
    }

    /// The flags a new test gets: none in our format, data/secret's in a package.
    pub fn new_test_flags(&self) -> TestFlags {
        self.package
            .as_ref()
            .map(|p| p.secret_flags.clone())
            .unwrap_or_default()
    }

    /// The main reference: the solution whose output the answers are. A problem loaded from problem.toml always
    /// has exactly one; a lone file judged with `cpjudge test` has none.
    pub fn main_solution(&self) -> Option<&Solution> {
        self.solutions.iter().find(|s| s.main)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct ProblemLimits {
    /// CPU time per test.
    pub time: Duration,
    pub memory: Bytes,
    pub output: Bytes,
}

/// How a program's output is judged against the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Comparison {
    /// Whitespace-separated tokens equal.
    Tokens,
    /// Byte-equal once line endings are normalised.
    Exact,
    /// Tokens, where numbers may differ by an absolute or relative tolerance.
    Float { tolerance: f64 },
    /// A checker program in the problem folder decides.
    Checker(PathBuf),
    /// A problem package's output validator decides, given each test's flags.
    OutputValidator(Source),
    /// A problem package's default output validator, given each test's flags (see `check::flags`).
    PackageDefault,
    /// No answers to compare with (samples given as inputs alone): an output that ends normally is accepted, and
    /// kept in the message, to be shown.
    Shown,
    /// The solution talks with an interactor, which decides.
    Interactive {
        interactor: Source,
        protocol: Protocol,
    },
}

impl Comparison {
    /// The problem's own program that judges, if any: what to call it, its source, its protocol, and whether it
    /// is an interactor.
    pub fn program(&self) -> Option<(&'static str, Source, Protocol, bool)> {
        match self {
            Comparison::Checker(path) => Some((
                "checker",
                Source {
                    main: path.clone(),
                    others: Vec::new(),
                    language: Language::of(path).ok()?,
                    folder: None,
                    preparation: Default::default(),
                },
                Protocol::Cpjudge,
                false,
            )),
            Comparison::OutputValidator(source) => {
                Some(("output validator", source.clone(), Protocol::Package, false))
            }
            Comparison::Interactive {
                interactor,
                protocol,
            } => Some(("interactor", interactor.clone(), *protocol, true)),
            Comparison::Tokens
            | Comparison::Exact
            | Comparison::Float { .. }
            | Comparison::PackageDefault
            | Comparison::Shown => None,
        }
    }
}

/// Which protocol a problem's own program speaks: how it is called and how its exit code answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// cpjudge's own: a checker is `checker input output answer`, an interactor `interactor input answer`; exit
    /// code 0 accepts, 1 rejects (2, a checker's presentation error, rejects too).
    Cpjudge,
    /// The Problem Package Format's: `validator input answer feedback_dir [flags]`, the output on standard input
    /// (or, interactive, the dialogue on standard input and output); exit code 42 accepts, 43 rejects.
    Package,
}

/// What a problem package adds to a problem: its tests with their flags, its input validators, and how its time
/// limit is found.
#[derive(Debug, Clone)]
pub struct PackageParts {
    /// The package's format: "legacy", "2023-07" or "2025-09".
    pub format: &'static str,
    pub tests: Vec<Test>,
    /// The flags of data/secret's tests, for a test added there.
    pub secret_flags: TestFlags,
    /// problem.yaml's `validator_flags` (legacy), the first output flags of every test, validation data's too.
    pub validator_flags: Vec<String>,
    pub input_validators: Vec<InputValidator>,
    pub time_rule: TimeRule,
    /// Submissions in no language of the table, not judged.
    pub unknown_language: Vec<super::Skipped>,
    /// What the package holds that is judged otherwise than the format says, or not at all, in the order found.
    pub warnings: Vec<super::PackageWarning>,
    /// problem.yaml's `constants` (2025-09), for what is read beside the programs (a Markdown statement).
    pub constants: std::sync::Arc<super::Constants>,
    /// The folder of the checktestdata scripts run in place of the package's, with their constants replaced;
    /// removed once the last copy of the problem is dropped.
    pub substituted: Option<std::sync::Arc<tempfile::TempDir>>,
    /// Its included files (2025-09), for submissions given besides its own.
    pub(super) included: std::sync::Arc<super::included::Included>,
    /// For a multi-pass problem, the most passes a test may take (`limits.validation_passes`); None for others.
    pub passes: Option<u32>,
    /// The samples shown as dialogues (`data/sample/*.interaction`), for an interactive or multi-pass problem.
    pub interactions: Vec<super::Interaction>,
    /// Its static validator (2025-09's `static_validator/`), which judges a submission's files.
    pub static_validator: Option<Source>,
    /// Its groups' static validation test cases, parents before the groups below them: tests judged by the static
    /// validator, beside `tests` (see [`PackageParts::with_static_cases`]).
    pub static_cases: Vec<Test>,
}

impl PackageParts {
    /// `tests` (some or all of the package's own) with its groups' static validation test cases, each before its
    /// group's first test: the tests a submission is judged on.
    pub fn with_static_cases(&self, tests: Vec<Test>) -> Vec<Test> {
        super::package_static::place(&self.static_cases, tests)
    }
}

/// An input validator of a package.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValidator {
    /// A program: exit code 42 accepts the input on its standard input.
    Program(Source),
    /// A checktestdata script, run by `checktestdata SCRIPT` with the input on standard input.
    Checktestdata(PathBuf),
}

/// How a package's time limit is found, and how far past it the submissions expected TLE must run.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeRule {
    /// The limit given in the package, if any.
    pub fixed: Option<Duration>,
    /// The limit is at least the slowest accepted submission's CPU time times this.
    pub ac_multiplier: f64,
    /// The submissions expected TLE run on to the limit times this: over the limit they are TLE all the same, but
    /// one that would pass within this margin is sensitive to the limit.
    pub tle_multiplier: f64,
    /// A derived limit is rounded up to a multiple of this.
    pub resolution: Duration,
    /// A derived limit is at least this.
    pub minimum: Duration,
    /// Where each number comes from, for the report.
    pub origin: String,
}

impl TimeRule {
    /// The limit for a slowest accepted CPU time: the fixed limit, or the derived one.
    pub fn limit(&self, slowest_accepted: Duration) -> Duration {
        if let Some(fixed) = self.fixed {
            return fixed;
        }
        let wanted = slowest_accepted.as_secs_f64() * self.ac_multiplier;
        let step = self.resolution.as_secs_f64();
        let rounded = (wanted / step - 1e-9).ceil().max(1.0) * step;
        Duration::from_secs_f64(rounded).max(self.minimum)
    }

    /// The CPU time the submissions expected TLE may run on to.
    pub fn tle_limit(&self, limit: Duration) -> Duration {
        limit.mul_f64(self.tle_multiplier)
    }
}

#[derive(Debug, Clone)]
pub struct Solution {
    /// The shortest end of its path that no other solution's has: its file name, unless two share one.
    pub name: String,
    pub path: PathBuf,
    pub language: Language,
    /// The verdicts this solution may get; references expect AC.
    pub expected: Vec<Verdict>,
    /// Whether this is the main reference, whose output the answers come from.
    pub main: bool,
    /// The other files of a solution given as a folder.
    pub others: Vec<PathBuf>,
    /// Rules beyond its verdict (a score, verdicts on some groups); where there are any, they decide whether it
    /// did as expected.
    pub expectations: Vec<crate::scoring::Expectation>,
    /// What its package does to its files as they are built (included files, constants).
    pub preparation: crate::compile::Preparation,
    /// How to run it as it is, for a program given built or as a command: nothing is compiled.
    pub prebuilt: Option<crate::prebuilt::Prebuilt>,
}

impl Solution {
    /// What the solution is built from.
    pub fn source(&self) -> Source {
        Source {
            main: self.path.clone(),
            others: self.others.clone(),
            language: self.language,
            folder: (!self.others.is_empty())
                .then(|| self.path.parent().map(Path::to_owned))
                .flatten(),
            preparation: self.preparation.clone(),
        }
    }
}

impl Solution {
    /// Whether `verdict` is one this solution is expected to get.
    /// A solution whose rules alone say what it must do (`submissions.yaml`) expects no verdict of its own.
    pub fn accepts(&self, verdict: Verdict) -> bool {
        self.expected.is_empty() || self.expected.contains(&verdict)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    title: String,
    time_limit: TimeLimit,
    /// The least limit `timelimit` suggests.
    time_limit_floor: Option<TimeLimit>,
    memory_limit: MemoryLimit,
    output_limit: Option<OutputLimit>,
    compare: Option<Spanned<CompareMode>>,
    tolerance: Option<Spanned<f64>>,
    checker: Option<Spanned<String>>,
    interactor: Option<Spanned<String>>,
    validator: Option<Spanned<String>>,
    /// The protocol the checker, interactor and validator speak: "cpjudge" (the default) or "package".
    protocol: Option<Spanned<ProtocolKey>>,
    generator: Option<Spanned<String>>,
    stress: Option<Spanned<String>>,
    #[serde(default)]
    solutions: Vec<Spanned<RawSolution>>,
    #[serde(default)]
    groups: Vec<Spanned<super::groups::RawGroup>>,
    /// Compile flags by language key: a string split at spaces, or a list of words.
    #[serde(default)]
    flags: BTreeMap<String, Spanned<RawFlags>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawFlags {
    Line(String),
    Words(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolution {
    path: Spanned<String>,
    expected: Expected,
    main: Option<Spanned<bool>>,
    /// The score it must get: `45` or `[40, 60]`.
    score: Option<Spanned<super::groups::RawScore>>,
    /// The verdict each named group must get.
    groups:
        Option<Spanned<std::collections::BTreeMap<String, Spanned<super::groups::RawVerdicts>>>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum ProtocolKey {
    Cpjudge,
    Package,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum CompareMode {
    Tokens,
    Exact,
    Float,
    /// The Problem Package Format's default output validator, without flags: tokens, whatever their letter case.
    Package,
}

/// A limit written like "1s" or "256MiB", rejected at its own position in the file when malformed or absurd.
macro_rules! limit {
    ($name:ident, $type:ty, $parse:path) => {
        struct $name($type);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                $parse(&text).map($name).map_err(de::Error::custom)
            }
        }
    };
}

limit!(TimeLimit, Duration, units::parse_time_limit);
limit!(MemoryLimit, Bytes, units::parse_memory_limit);
limit!(OutputLimit, Bytes, units::parse_output_limit);

/// One verdict ("TLE") or several (["TLE", "RE"]).
struct Expected(Vec<Verdict>);

impl<'de> Deserialize<'de> for Expected {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct ExpectedVisitor;
        impl<'de> Visitor<'de> for ExpectedVisitor {
            type Value = Expected;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a verdict like \"AC\" or a list of verdicts like [\"TLE\", \"RE\"]")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Expected, E> {
                Ok(Expected(vec![v.parse().map_err(E::custom)?]))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Expected, A::Error> {
                let mut verdicts = Vec::new();
                while let Some(code) = seq.next_element::<String>()? {
                    verdicts.push(code.parse().map_err(de::Error::custom)?);
                }
                if verdicts.is_empty() {
                    return Err(de::Error::custom("the list of expected verdicts is empty"));
                }
                Ok(Expected(verdicts))
            }
        }
        d.deserialize_any(ExpectedVisitor)
    }
}

impl Problem {
    /// Reads and validates `dir/problem.toml`.
    pub fn load(name: &str, dir: &Path) -> Result<Problem> {
        let config_path = dir.join("problem.toml");
        let text = std::fs::read_to_string(&config_path)
            .map_err(|e| Error::io("read", &config_path, e))?;
        let raw: RawProblem = toml::from_str(&text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            Error::config_at(&config_path, &text, offset, e.message().trim())
        })?;
        let validator = Validator {
            dir,
            path: &config_path,
            text: &text,
        };
        let problem = validator.problem(name, &raw)?;
        if let Some(grouping) = &problem.groups {
            // The bundled tests, where a project has them: testdata/<name> beside problems/.
            if let Some(root) = dir.parent().and_then(Path::parent) {
                let tests_dir = root.join("testdata").join(name);
                super::groups::check_tests(&validator, &raw.groups, grouping, &tests_dir)?;
            }
        }
        Ok(problem)
    }
}

/// Turns a raw problem into a valid one, reporting errors at the position of the offending value.
pub(super) struct Validator<'a> {
    dir: &'a Path,
    path: &'a Path,
    pub(super) text: &'a str,
}

impl Validator<'_> {
    pub(super) fn error<T>(&self, at: &Spanned<T>, message: impl Into<String>) -> Error {
        Error::config_at(self.path, self.text, at.span().start, message)
    }

    fn file(&self, value: &Spanned<String>) -> Result<PathBuf> {
        let path = self.dir.join(value.get_ref());
        if !path.is_file() {
            return Err(self.error(value, format!("file {} does not exist", path.display())));
        }
        Ok(path)
    }

    /// A program file: it must exist and be in a known language.
    fn program(&self, value: &Spanned<String>) -> Result<(PathBuf, Language)> {
        let path = self.file(value)?;
        let language = Language::of(&path).map_err(|e| self.error(value, e.to_string()))?;
        Ok((path, language))
    }

    /// A program that judges or validates (checker, interactor, validator), speaking `protocol`: ours is one
    /// file; the package protocol's may be a folder of files too, read as a package's program is (sources in one
    /// language, or `build` and `run` scripts).
    fn tool(&self, value: &Spanned<String>, protocol: Protocol) -> Result<Source> {
        let path = self.dir.join(value.get_ref());
        match protocol {
            Protocol::Cpjudge if path.is_dir() => Err(self.error(
                value,
                format!(
                    "{} is a folder: a program of several files speaks the package protocol, with protocol = \"package\"",
                    path.display()
                ),
            )),
            Protocol::Cpjudge => {
                let (path, language) = self.program(value)?;
                Source::file_in(&path, language)
            }
            Protocol::Package if !path.exists() => {
                Err(self.error(value, format!("{} does not exist", path.display())))
            }
            Protocol::Package => {
                super::package::program_under(&path, crate::language::Rules::Project)
                    .map_err(|e| self.error(value, e.to_string()))
            }
        }
    }

    /// The protocol of the problem's own programs; refused where it has none to speak it.
    fn protocol(&self, raw: &RawProblem) -> Result<Protocol> {
        let Some(key) = &raw.protocol else {
            return Ok(Protocol::Cpjudge);
        };
        if raw.checker.is_none() && raw.interactor.is_none() && raw.validator.is_none() {
            return Err(self.error(
                key,
                "`protocol` says how the checker, interactor and validator speak: this problem has none",
            ));
        }
        Ok(match key.get_ref() {
            ProtocolKey::Cpjudge => Protocol::Cpjudge,
            ProtocolKey::Package => Protocol::Package,
        })
    }

    fn problem(&self, name: &str, raw: &RawProblem) -> Result<Problem> {
        let groups = super::groups::grouping(self, &raw.groups)?;
        let protocol = self.protocol(raw)?;
        let comparison = self.comparison(raw, protocol)?;
        let stress = self.stress(raw)?;
        let validator = match &raw.validator {
            Some(value) => {
                self.tool(value, protocol)?;
                Some(self.dir.join(value.get_ref()))
            }
            None => None,
        };
        let generator = raw
            .generator
            .as_ref()
            .map(|v| self.program(v))
            .transpose()?;
        Ok(Problem {
            solutions: self.solutions(&raw.solutions, groups.as_ref())?,
            groups,
            name: name.to_owned(),
            dir: self.dir.to_owned(),
            config_path: self.path.to_owned(),
            title: raw.title.clone(),
            limits: ProblemLimits {
                time: raw.time_limit.0,
                memory: raw.memory_limit.0,
                output: raw
                    .output_limit
                    .as_ref()
                    .map_or(DEFAULT_OUTPUT_LIMIT, |s| s.0),
            },
            comparison,
            validator,
            protocol,
            generator: generator.map(|(path, _)| path),
            stress,
            package: None,
            flags: self.flags(raw)?,
            time_limit_floor: raw.time_limit_floor.as_ref().map(|f| f.0),
        })
    }

    /// The compile flags problem.toml chooses, each for a language whose compile command takes flags.
    fn flags(&self, raw: &RawProblem) -> Result<crate::language::Flags> {
        let mut flags = crate::language::Flags::default();
        for (key, value) in &raw.flags {
            let words = match value.get_ref() {
                RawFlags::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
                RawFlags::Words(words) => words.clone(),
            };
            flags
                .choose(key, words)
                .map_err(|why| self.error(value, format!("[flags] {why}")))?;
        }
        Ok(flags)
    }

    fn stress(&self, raw: &RawProblem) -> Result<Option<String>> {
        let Some(stress) = &raw.stress else {
            return Ok(None);
        };
        if raw.generator.is_none() {
            return Err(self.error(
                stress,
                "`stress` gives the generator's arguments: it needs a `generator`",
            ));
        }
        if !stress.get_ref().contains("{seed}") {
            return Err(self.error(
                stress,
                "`stress` needs {seed} among the generator's arguments, for each input to differ",
            ));
        }
        Ok(Some(stress.get_ref().clone()))
    }

    fn comparison(&self, raw: &RawProblem, protocol: Protocol) -> Result<Comparison> {
        let mode = raw.compare.as_ref().map(|m| *m.get_ref());
        if let (Some(checker), Some(_)) = (&raw.checker, &raw.compare) {
            return Err(self.error(checker, "give either `checker` or `compare`, not both"));
        }
        if let Some(tolerance) = &raw.tolerance {
            if mode != Some(CompareMode::Float) {
                return Err(self.error(tolerance, "`tolerance` only goes with compare = \"float\""));
            }
            let value = *tolerance.get_ref();
            if !(value.is_finite() && value >= 0.0) {
                return Err(
                    self.error(tolerance, "`tolerance` must be a finite number, at least 0")
                );
            }
        }
        if let Some(interactor) = &raw.interactor {
            if raw.checker.is_some() || raw.compare.is_some() {
                return Err(self.error(
                    interactor,
                    "an interactor judges the dialogue itself: give no `checker` or `compare` with it",
                ));
            }
            return Ok(Comparison::Interactive {
                interactor: self.tool(interactor, protocol)?,
                protocol,
            });
        }
        Ok(match (&raw.checker, mode) {
            (Some(checker), _) => match protocol {
                Protocol::Cpjudge => Comparison::Checker(self.tool(checker, protocol)?.main),
                Protocol::Package => Comparison::OutputValidator(self.tool(checker, protocol)?),
            },
            (None, None | Some(CompareMode::Tokens)) => Comparison::Tokens,
            (None, Some(CompareMode::Exact)) => Comparison::Exact,
            (None, Some(CompareMode::Package)) => Comparison::PackageDefault,
            (None, Some(CompareMode::Float)) => Comparison::Float {
                tolerance: raw
                    .tolerance
                    .as_ref()
                    .map_or(DEFAULT_TOLERANCE, |t| *t.get_ref()),
            },
        })
    }

    fn solutions(
        &self,
        raw: &[Spanned<RawSolution>],
        groups: Option<&crate::scoring::Grouping>,
    ) -> Result<Vec<Solution>> {
        let mut solutions: Vec<Solution> = Vec::new();
        let mut main_seen = false;
        for entry in raw {
            let raw = entry.get_ref();
            let (path, language) = self.program(&raw.path)?;
            if solutions.iter().any(|s| s.path == path) {
                let message = format!("solution {} is listed twice", raw.path.get_ref());
                return Err(self.error(&raw.path, message));
            }
            let main = raw.main.as_ref().is_some_and(|m| *m.get_ref());
            if main {
                let at = raw.main.as_ref().expect("main is set");
                if main_seen {
                    return Err(self.error(at, "only one solution can be the main reference"));
                }
                if raw.expected.0 != [Verdict::Accepted] {
                    return Err(self.error(at, "the main reference must be expected AC"));
                }
                main_seen = true;
            }
            solutions.push(Solution {
                // Named below, once every path is known.
                name: String::new(),
                path,
                language,
                expected: raw.expected.0.clone(),
                main,
                others: Vec::new(),
                expectations: super::groups::expectations(
                    self,
                    groups,
                    &super::groups::SolutionRules {
                        path: raw.path.get_ref(),
                        score: raw.score.as_ref(),
                        groups: raw.groups.as_ref(),
                    },
                )?,
                // A reference may include the problem's headers, as its checker and validator do.
                preparation: crate::compile::Preparation {
                    headers: Some(self.dir.to_owned()),
                    ..Default::default()
                },
                prebuilt: None,
            });
        }
        if !main_seen {
            let message = "no solution is marked `main = true`: one reference must be the main one";
            return Err(match raw.first() {
                Some(first) => self.error(first, message),
                None => Error::config_at(
                    self.path,
                    self.text,
                    0,
                    "no [[solutions]]: a problem needs a main reference",
                ),
            });
        }
        let paths: Vec<PathBuf> = raw
            .iter()
            .map(|r| r.get_ref().path.get_ref().into())
            .collect();
        for (solution, name) in solutions.iter_mut().zip(unique_names(&paths)) {
            solution.name = name;
        }
        Ok(solutions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A project with problem p: `keys` in its problem.toml, a main solution, and a `checker/` folder of two files.
    fn load(keys: &str) -> std::result::Result<Problem, String> {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("problems/p");
        std::fs::create_dir_all(dir.join("checker")).unwrap();
        std::fs::write(dir.join("main.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("checker/check.py"), "import helper\n").unwrap();
        std::fs::write(dir.join("checker/helper.py"), "\n").unwrap();
        std::fs::write(dir.join("validate.py"), "\n").unwrap();
        let toml = format!(
            "title = \"P\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n{keys}\n\
             [[solutions]]\npath = \"main.py\"\nexpected = \"AC\"\nmain = true\n"
        );
        std::fs::write(dir.join("problem.toml"), toml).unwrap();
        Problem::load("p", &dir).map_err(|e| e.to_string())
    }

    #[test]
    fn programs_speaking_the_package_protocol_may_be_folders() {
        let problem =
            load("checker = \"checker\"\nvalidator = \"validate.py\"\nprotocol = \"package\"\n")
                .unwrap();
        let Comparison::OutputValidator(source) = &problem.comparison else {
            panic!("{:?}", problem.comparison);
        };
        assert!(source.main.ends_with("checker/check.py"), "{source:?}");
        assert_eq!(source.others.len(), 1);
        let (validators, protocol) = problem.input_validators().unwrap();
        assert_eq!(protocol, Protocol::Package);
        assert!(
            matches!(&validators[..], [InputValidator::Program(v)] if v.main.ends_with("validate.py"))
        );
        let interactive = load("interactor = \"checker\"\nprotocol = \"package\"\n").unwrap();
        assert!(matches!(
            interactive.comparison,
            Comparison::Interactive {
                protocol: Protocol::Package,
                ..
            }
        ));
        // Ours, unless said.
        let ours = load("validator = \"validate.py\"\n").unwrap();
        assert_eq!(ours.input_validators().unwrap().1, Protocol::Cpjudge);
    }

    #[test]
    fn the_protocol_key_is_refused_where_it_says_nothing() {
        for (keys, wanted, line) in [
            (
                "protocol = \"package\"\n",
                "`protocol` says how the checker, interactor and validator speak: this problem has none",
                4,
            ),
            (
                "checker = \"checker\"\n",
                "is a folder: a program of several files speaks the package protocol",
                4,
            ),
            (
                "checker = \"nothing\"\nprotocol = \"package\"\n",
                "nothing does not exist",
                4,
            ),
            (
                "protocol = \"kattis\"\nchecker = \"checker\"\n",
                "unknown variant `kattis`",
                4,
            ),
        ] {
            let error = load(keys).unwrap_err();
            assert!(
                error.contains(wanted) && error.contains(&format!("problem.toml:{line}:")),
                "{keys}: {error}"
            );
        }
    }

    #[test]
    fn compare_package_is_the_default_validator_without_flags() {
        assert_eq!(
            load("compare = \"package\"\n").unwrap().comparison,
            Comparison::PackageDefault
        );
    }
}
