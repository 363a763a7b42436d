//! `problem.toml`: parsed into a raw struct that rejects unknown keys, then validated into a [`Problem`] with
//! resolved paths, typed limits and a comparison. Every error names the file, line and column.

use super::submission::unique_names;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::units::{self, Bytes};
use crate::verdict::Verdict;
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
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
    pub validator: Option<PathBuf>,
    /// The program the tests were made with (`testdata/<name>/recipe.toml` keeps its arguments per test). The
    /// judge does not run it; it is checked to exist and be in a known language, so that the tests can always be
    /// rebuilt.
    pub generator: Option<PathBuf>,
    /// The generator's arguments for `stress` when none are given, with `{seed}` where each seed goes.
    pub stress: Option<String>,
    pub solutions: Vec<Solution>,
}

impl Problem {
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
}

impl Solution {
    /// Whether `verdict` is one this solution is expected to get.
    pub fn accepts(&self, verdict: Verdict) -> bool {
        self.expected.contains(&verdict)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    title: String,
    time_limit: TimeLimit,
    memory_limit: MemoryLimit,
    output_limit: Option<OutputLimit>,
    compare: Option<Spanned<CompareMode>>,
    tolerance: Option<Spanned<f64>>,
    checker: Option<Spanned<String>>,
    validator: Option<Spanned<String>>,
    generator: Option<Spanned<String>>,
    stress: Option<Spanned<String>>,
    #[serde(default)]
    solutions: Vec<Spanned<RawSolution>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolution {
    path: Spanned<String>,
    expected: Expected,
    main: Option<Spanned<bool>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum CompareMode {
    Tokens,
    Exact,
    Float,
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
        Validator {
            dir,
            path: &config_path,
            text: &text,
        }
        .problem(name, raw)
    }
}

/// Turns a raw problem into a valid one, reporting errors at the position of the offending value.
struct Validator<'a> {
    dir: &'a Path,
    path: &'a Path,
    text: &'a str,
}

impl Validator<'_> {
    fn error<T>(&self, at: &Spanned<T>, message: impl Into<String>) -> Error {
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

    fn problem(&self, name: &str, raw: RawProblem) -> Result<Problem> {
        let comparison = self.comparison(&raw)?;
        let stress = self.stress(&raw)?;
        let validator = raw
            .validator
            .as_ref()
            .map(|v| self.program(v))
            .transpose()?;
        let generator = raw
            .generator
            .as_ref()
            .map(|v| self.program(v))
            .transpose()?;
        Ok(Problem {
            name: name.to_owned(),
            dir: self.dir.to_owned(),
            config_path: self.path.to_owned(),
            title: raw.title,
            limits: ProblemLimits {
                time: raw.time_limit.0,
                memory: raw.memory_limit.0,
                output: raw.output_limit.map_or(DEFAULT_OUTPUT_LIMIT, |s| s.0),
            },
            comparison,
            validator: validator.map(|(path, _)| path),
            generator: generator.map(|(path, _)| path),
            stress,
            solutions: self.solutions(&raw.solutions)?,
        })
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

    fn comparison(&self, raw: &RawProblem) -> Result<Comparison> {
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
        Ok(match (&raw.checker, mode) {
            (Some(checker), _) => Comparison::Checker(self.program(checker)?.0),
            (None, None | Some(CompareMode::Tokens)) => Comparison::Tokens,
            (None, Some(CompareMode::Exact)) => Comparison::Exact,
            (None, Some(CompareMode::Float)) => Comparison::Float {
                tolerance: raw
                    .tolerance
                    .as_ref()
                    .map_or(DEFAULT_TOLERANCE, |t| *t.get_ref()),
            },
        })
    }

    fn solutions(&self, raw: &[Spanned<RawSolution>]) -> Result<Vec<Solution>> {
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
