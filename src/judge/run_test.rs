//! One solution on one test: a fresh folder, the run under limits (or, for an interactive problem, the dialogue
//! with the interactor), the verdict.

use super::classify::classify;
use super::dialogue;
use super::outcome::{TestResult, TestTexts};
use super::relay::{Pipes, Side};
use crate::check::{self, CheckOutcome, Checker};
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::problem::{Comparison, ProblemLimits, Protocol, Test};
use crate::runs;
use crate::sandbox::{Runner, Termination};
use crate::verdict::Verdict;
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
        if let Some(interactor) = self.checker.filter(|c| c.interactive) {
            return self.talk(dir, &spec, interactor, test);
        }
        let run = self.runner.run(&spec)?;
        let mut result = TestResult::new(test, &run);
        if let Some((verdict, message)) = classify(&run, &self.limits) {
            result.verdict = verdict;
            result.message = message;
            return Ok(result);
        }
        let checked = self.check(dir, test, &output)?;
        result.verdict = checked.verdict;
        result.message = checked.message;
        if checked.verdict == Verdict::WrongAnswer {
            if self.checker.is_none() {
                result.diff = check::first_difference(&output, &test.answer);
            }
            result.texts = TestTexts::read(&test.input, &test.answer, &output);
        }
        Ok(result)
    }

    fn check(&self, dir: &Path, test: &Test, output: &Path) -> Result<CheckOutcome> {
        let compared = match (self.checker, self.comparison) {
            (Some(checker), _) => {
                let workdir = dir.join("checker");
                std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;
                return checker.check(
                    self.runner,
                    &workdir,
                    &test.input,
                    output,
                    &test.answer,
                    &test.flags.output,
                );
            }
            (None, Comparison::PackageDefault) => {
                check::package_default::compare(output, &test.answer, &test.flags.output)
            }
            (None, comparison) => check::compare(comparison, output, &test.answer),
        };
        compared.map_err(|e| Error::io("compare the output with", &test.answer, e))
    }

    /// The solution and the interactor at once, the judge passing on what each says to the other; the verdict as
    /// [`dialogue::verdict`] decides it.
    fn talk(
        &self,
        dir: &Path,
        spec: &crate::sandbox::RunSpec,
        interactor: &Checker,
        test: &Test,
    ) -> Result<TestResult> {
        let workdir = dir.join("interactor");
        std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;
        let feedback = match interactor.protocol {
            Protocol::Package => Some(check::feedback_dir(&workdir)?),
            Protocol::Cpjudge => None,
        };
        let interactor_spec = runs::interactor(
            &interactor.program,
            &interactor.limits,
            &workdir,
            test,
            feedback.as_deref(),
            spec.limits.wall,
        );
        let pipes = Pipes::new()
            .map_err(|e| Error::Sandbox(format!("cannot make the dialogue's pipes: {e}")))?;
        let ([solution_in, solution_out], [interactor_in, interactor_out], relay) = pipes.split();
        let runner = self.runner;
        let interactor_spec = &interactor_spec;
        let (solution, interactor_run, relayed) = std::thread::scope(|scope| {
            let solution =
                scope.spawn(move || runner.run_attached(spec, solution_in, solution_out));
            let interactor_run = scope
                .spawn(move || runner.run_attached(interactor_spec, interactor_in, interactor_out));
            let relayed = relay.run();
            (
                solution.join().expect("a run's thread does not panic"),
                interactor_run
                    .join()
                    .expect("a run's thread does not panic"),
                relayed,
            )
        });
        let mut solution = solution?;
        let interactor_run = interactor_run?;
        let relayed = relayed.map_err(|e| Error::Sandbox(format!("the dialogue broke: {e}")))?;
        // What the solution wrote went into a pipe: the judge counted it.
        solution.stdout_bytes = relayed.transcript.written[Side::Solution as usize];

        let said = check::verdict_of(
            interactor.protocol,
            &interactor_run,
            &workdir,
            "interactor",
            &interactor_spec.limits,
        );
        let ending = dialogue::Ending {
            interactor_first: relayed.first_to_end == Some(Side::Interactor),
            interactor_cut_off: relayed.cut_off[Side::Interactor as usize],
            interactor_sigpipe: interactor_run.termination == Termination::Signaled(libc::SIGPIPE),
        };
        let mut result = TestResult::new(test, &solution);
        let (verdict, message) = dialogue::verdict(classify(&solution, &self.limits), said, ending);
        result.verdict = verdict;
        result.message = message;
        if !verdict.is_accepted() {
            result.dialogue = Some(relayed.transcript.replay());
        }
        Ok(result)
    }
}
