//! One solution on one test: a fresh folder, the run under limits, the verdict.

use super::classify::classify;
use super::outcome::{TestResult, TestTexts};
use crate::check::{self, CheckOutcome, Checker};
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::problem::{Comparison, ProblemLimits, Test};
use crate::runs;
use crate::sandbox::Runner;
use std::path::Path;

/// The program's output, in the folder of its run.
pub(crate) const OUTPUT: &str = "output";

/// How a program is run and judged on any test of one problem.
pub(crate) struct TestRunner<'a> {
    pub runner: &'a dyn Runner,
    pub limits: ProblemLimits,
    pub comparison: &'a Comparison,
    pub checker: Option<&'a Checker>,
}

impl TestRunner<'_> {
    pub fn run(&self, program: &Program, test: &Test) -> Result<TestResult> {
        let dir = crate::scratch::folder("run")
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        self.run_in(dir.path(), program, test)
    }

    /// Runs in `dir`, a fresh empty folder, where the program's output is left as `output`.
    pub fn run_in(&self, dir: &Path, program: &Program, test: &Test) -> Result<TestResult> {
        // `box` is the program's empty working directory. It reads the test's input itself: the sandbox sees to it
        // that nothing it does can change it.
        let workdir = dir.join("box");
        let output = dir.join(OUTPUT);
        std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;

        let spec = runs::solution(program, &self.limits, &workdir, &test.input, &output);
        let run = self.runner.run(&spec)?;
        let mut result = TestResult {
            name: test.name.clone(),
            verdict: crate::verdict::Verdict::Accepted,
            cpu: run.cpu,
            wall: run.wall,
            memory: run.peak_memory,
            message: String::new(),
            diff: None,
            input: test.input.clone(),
            texts: None,
        };
        if let Some((verdict, message)) = classify(&run, &self.limits) {
            result.verdict = verdict;
            result.message = message;
            return Ok(result);
        }
        let checked = self.check(dir, &test.input, &output, &test.answer)?;
        result.verdict = checked.verdict;
        result.message = checked.message;
        if checked.verdict == crate::verdict::Verdict::WrongAnswer {
            if self.checker.is_none() {
                result.diff = check::first_difference(&output, &test.answer);
            }
            result.texts = TestTexts::read(&test.input, &test.answer, &output);
        }
        Ok(result)
    }

    fn check(
        &self,
        dir: &Path,
        input: &Path,
        output: &Path,
        answer: &Path,
    ) -> Result<CheckOutcome> {
        match self.checker {
            Some(checker) => {
                let workdir = dir.join("checker");
                std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;
                checker.check(self.runner, &workdir, input, output, answer)
            }
            None => check::compare(self.comparison, output, answer)
                .map_err(|e| Error::io("compare the output with", answer, e)),
        }
    }
}
