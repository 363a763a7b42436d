//! The problem's programs, compiled and ready for the authoring commands: the generator makes inputs, the
//! validator checks them, the references answer them, and a submission is judged on them as `judge` would.

use crate::cache::Cache;
use crate::check::{CheckOutcome, Checker};
use crate::compile::{Compiler, Program};
use crate::error::{Error, Result};
use crate::judge::{InputCheck, TestResult, TestRunner, Validator, classify};
use crate::problem::{Comparison, Problem, Solution, Test};
use crate::runs::{self, TOOL_LIMITS};
use crate::sandbox::{Limits, Runner};
use crate::verdict::Verdict;
use std::path::Path;

pub struct Workshop<'a> {
    runner: &'a dyn Runner,
    compiler: Compiler<'a>,
    pub problem: &'a Problem,
    checker: Option<Checker>,
}

/// What a reference made of an input: its answer, or how it failed.
#[derive(Debug, Clone)]
pub enum Answer {
    Output(Vec<u8>),
    Failed { verdict: Verdict, message: String },
}

impl<'a> Workshop<'a> {
    /// Builds lazily: only what a command asks for is compiled, except the checker, which every judging needs.
    pub fn new(runner: &'a dyn Runner, cache: &Cache, problem: &'a Problem) -> Result<Self> {
        let compiler = Compiler::new(cache, runner);
        let checker = Checker::build(&compiler, problem)?;
        Ok(Workshop {
            runner,
            compiler,
            problem,
            checker,
        })
    }

    /// What a run of the generator may take: at least what a solution may.
    fn tool_limits(&self) -> Limits {
        runs::tool_limits(TOOL_LIMITS, &self.problem.limits)
    }

    pub fn generator(&self) -> Result<Program> {
        let path = self.problem.generator()?;
        let memory = self.tool_limits().memory;
        let source = self.problem.own_source(crate::compile::Source::file(path)?);
        Ok(self.compiler.tool_source("generator", &source, memory)?.0)
    }

    /// The problem's input validators, built: none if it has none.
    pub fn validators(&self) -> Result<Vec<Validator>> {
        let (sources, protocol) = self.problem.input_validators()?;
        sources
            .iter()
            .map(|source| Validator::build(&self.compiler, source, protocol, &self.problem.limits))
            .collect()
    }

    /// As `validators`, for a command that has nothing to do without one.
    pub fn required_validators(&self) -> Result<Vec<Validator>> {
        let validators = self.validators()?;
        if validators.is_empty() {
            let how = match self.problem.package {
                Some(_) => "put one in its input_validators/ folder".to_owned(),
                None => format!(
                    "give one with `validator = \"validator.rs\"` in {}",
                    self.problem.config_path.display()
                ),
            };
            return Err(Error::Usage(format!(
                "problem {} has no validator: {how}",
                self.problem.name
            )));
        }
        Ok(validators)
    }

    /// What the validators say of `input`, given its test's input flags: the first rejection, or, when all accept
    /// it, what the first one printed.
    pub fn validate(
        &self,
        validators: &[Validator],
        input: &Path,
        flags: &[String],
    ) -> Result<InputCheck> {
        let mut first = None;
        for validator in validators {
            match validator.check(self.runner, input, flags)? {
                InputCheck::Valid { said } => {
                    first.get_or_insert(said);
                }
                invalid => return Ok(invalid),
            }
        }
        Ok(InputCheck::Valid {
            said: first.unwrap_or_default(),
        })
    }

    /// One of the problem's solutions, to run on inputs; its not compiling is an error, since the command cannot
    /// go on without it.
    pub fn solution(&self, solution: &Solution) -> Result<Program> {
        let what = if solution.main {
            "the main reference"
        } else {
            "solution"
        };
        self.program(what, solution)
    }

    /// A file of the user's to run on inputs, as `solution`.
    pub fn submission(&self, submission: &Solution) -> Result<Program> {
        self.program("submission", submission)
    }

    fn program(&self, what: &'static str, solution: &Solution) -> Result<Program> {
        Ok(self
            .compiler
            .tool_source(what, &solution.source(), self.problem.limits.memory)?
            .0)
    }

    pub fn main_solution(&self) -> Result<&'a Solution> {
        self.problem.main_solution().ok_or_else(|| {
            Error::Usage(format!(
                "problem {} has no main reference (`main = true` on one solution in {})",
                self.problem.name,
                self.problem.config_path.display()
            ))
        })
    }

    /// `generator ARGS...`: the input it printed, or why it failed (as an `Err` of the inner result).
    pub fn generate(
        &self,
        generator: &Program,
        args: &[String],
    ) -> Result<std::result::Result<Vec<u8>, String>> {
        self.run_generator(generator, args, None)
    }

    /// `generator ARGS... < stdin`, as `generate`.
    pub fn generate_from(
        &self,
        generator: &Program,
        args: &[String],
        stdin: &Path,
    ) -> Result<std::result::Result<Vec<u8>, String>> {
        self.run_generator(generator, args, Some(stdin))
    }

    fn run_generator(
        &self,
        generator: &Program,
        args: &[String],
        stdin: Option<&Path>,
    ) -> Result<std::result::Result<Vec<u8>, String>> {
        let dir = scratch("generate")?;
        let limits = self.tool_limits();
        let mut spec = runs::tool(generator, dir.path(), stdin, limits.clone());
        spec.argv.extend(args.iter().map(Into::into));
        let run = self.runner.run(&spec)?;
        if !run.succeeded() {
            let said = crate::text::bound(run.stderr_text().trim(), 1024);
            let ending = run.ending(&limits);
            return Ok(Err(if said.is_empty() {
                format!("the generator {ending}")
            } else {
                format!("the generator {ending}: {said}")
            }));
        }
        let input = runs::tool_output(&spec).map_err(|e| Error::io("read", &spec.stdout, e))?;
        Ok(Ok(input))
    }

    /// Runs a reference on `input` under the problem's limits. An interactive problem's answer file is the input
    /// itself, since its interactor reads the secret from there: the reference's part is to be accepted on it.
    pub fn answer(&self, program: &Program, input: &Path) -> Result<Answer> {
        if self.is_interactive() {
            return self.answer_interactively(program, input);
        }
        let dir = scratch("answer")?;
        let workdir = dir.path().join("box");
        let output = dir.path().join("output");
        std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;
        let limits = &self.problem.limits;
        let spec = runs::solution(program, limits, limits.time, &workdir, input, &output);
        let run = self.runner.run(&spec)?;
        if let Some((verdict, message)) = classify(&run, &self.problem.limits) {
            return Ok(Answer::Failed { verdict, message });
        }
        let bytes = std::fs::read(&output).map_err(|e| Error::io("read", &output, e))?;
        Ok(Answer::Output(bytes))
    }

    fn answer_interactively(&self, program: &Program, input: &Path) -> Result<Answer> {
        let test = Test {
            name: "answer".into(),
            files: crate::problem::Files::at(input, input.to_path_buf()),
            judging: crate::problem::Judging::new(
                self.problem.new_test_flags(),
                Default::default(),
            ),
        };
        let result = self.judge(program, &test)?;
        if !result.verdict.is_accepted() {
            return Ok(Answer::Failed {
                verdict: result.verdict,
                message: result.message,
            });
        }
        let bytes = std::fs::read(input).map_err(|e| Error::io("read", input, e))?;
        Ok(Answer::Output(bytes))
    }

    /// Judges a given output on `test` exactly as `judge` judges a run's: by the problem's checker or output
    /// validator with the test's flags, or by its comparison.
    pub fn check_output(&self, test: &Test, output: &Path) -> Result<CheckOutcome> {
        let dir = scratch("check")?;
        self.test_runner().check(dir.path(), test, output)
    }

    /// Whether the problem's output is judged in a dialogue, as it runs, rather than afterwards.
    pub fn is_interactive(&self) -> bool {
        matches!(self.problem.comparison, Comparison::Interactive { .. })
    }

    /// Judges `program` on one test, exactly as `judge` does.
    pub fn judge(&self, program: &Program, test: &Test) -> Result<TestResult> {
        self.test_runner().run(program, test)
    }

    /// As `judge`, in `dir` (fresh and empty), where the program's output stays as `judge::OUTPUT`.
    pub fn judge_in(&self, dir: &Path, program: &Program, test: &Test) -> Result<TestResult> {
        self.test_runner().run_in(dir, program, test)
    }

    fn test_runner(&self) -> TestRunner<'_> {
        TestRunner {
            runner: self.runner,
            limits: self.problem.limits,
            comparison: &self.problem.comparison,
            checker: self.checker.as_ref(),
            // The authoring commands judge a program's output on a test alone.
            static_validator: None,
            margin: None,
        }
    }
}

/// A fresh folder of this command's own.
pub(crate) fn scratch(what: &str) -> Result<tempfile::TempDir> {
    crate::scratch::folder(what)
        .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))
}
