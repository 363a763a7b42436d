//! Judging a problem: compile the tools and the solutions, validate the tests, run every solution on the tests,
//! and decide each solution's verdict.

use super::outcome::{Event, JudgeReport, SolutionReport, TestResult};
use super::run_test::TestRunner;
use super::validate::validate;
use crate::check::{CHECKER_LIMITS, Checker};
use crate::compile::{Compiled, Compiler, Program};
use crate::error::{Error, Result};
use crate::problem::{Comparison, Problem, Solution, Test};
use crate::sandbox::Runner;
use crate::units::Bytes;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

#[derive(Debug, Clone, Copy)]
pub struct JudgeOptions {
    /// Run every test, instead of stopping a solution at its first non-AC test.
    pub all_tests: bool,
    /// Tests run at once.
    pub jobs: usize,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            all_tests: false,
            jobs: 1,
        }
    }
}

pub struct Judge<'a> {
    runner: &'a dyn Runner,
    compiler: Compiler<'a>,
    cache: PathBuf,
    options: JudgeOptions,
}

impl<'a> Judge<'a> {
    /// A judge whose builds and memos live under `cache`.
    pub fn new(runner: &'a dyn Runner, cache: PathBuf, options: JudgeOptions) -> Self {
        Judge {
            runner,
            compiler: Compiler::new(cache.join("build"), runner),
            cache,
            options,
        }
    }

    /// Judges `solutions` of `problem` on `tests`. Verdicts are data: only the harness's own failures are errors.
    pub fn judge(
        &self,
        problem: &Problem,
        solutions: &[Solution],
        tests: &[Test],
        on_event: &mut dyn FnMut(Event),
    ) -> Result<JudgeReport> {
        on_event(Event::Started {
            problem: &problem.name,
            solutions,
            tests: tests.len(),
        });
        let checker = match &problem.comparison {
            Comparison::Checker(path) => {
                on_event(Event::Compiling { what: "checker" });
                let (program, _) = self.tool("checker", path, CHECKER_LIMITS.memory)?;
                Some(Checker { program })
            }
            _ => None,
        };
        if let Some(path) = &problem.validator {
            on_event(Event::Compiling { what: "validator" });
            let (program, identity) = self.tool("validator", path, Bytes::mib(1024))?;
            on_event(Event::Validating { tests: tests.len() });
            validate(
                self.runner,
                &program,
                &identity,
                &self.cache.join("validated"),
                tests,
            )?;
        }

        let mut compiled = Vec::new();
        for solution in solutions {
            on_event(Event::Compiling {
                what: &solution.name,
            });
            let build = self.compiler.compile(&solution.path)?;
            on_event(Event::Compiled {
                solution,
                outcome: &build.outcome,
            });
            compiled.push(build);
        }

        let runner = TestRunner {
            runner: self.runner,
            limits: problem.limits,
            comparison: &problem.comparison,
            checker: checker.as_ref(),
        };
        let mut reports = Vec::new();
        for (solution, build) in solutions.iter().zip(compiled) {
            let report = self.judge_solution(&runner, solution, build, tests, on_event)?;
            on_event(Event::SolutionFinished { report: &report });
            reports.push(report);
        }
        Ok(JudgeReport {
            problem: problem.name.clone(),
            time_limit: problem.limits.time,
            memory_limit: problem.limits.memory,
            tests: tests.iter().map(|t| t.name.clone()).collect(),
            solutions: reports,
        })
    }

    /// Compiles one of the problem's own programs; it failing to compile is the problem's fault, an error.
    /// Returns how to run it, and its build's key (which changes whenever the build does).
    fn tool(&self, what: &'static str, path: &Path, memory: Bytes) -> Result<(Program, String)> {
        let build = self.compiler.compile(path)?;
        if !build.outcome.ok {
            return Err(Error::ToolCompile {
                what,
                path: path.to_owned(),
                message: build.outcome.message,
            });
        }
        Ok((self.compiler.program(&build, memory)?, build.key()))
    }

    fn judge_solution(
        &self,
        runner: &TestRunner,
        solution: &Solution,
        build: Compiled,
        tests: &[Test],
        on_event: &mut dyn FnMut(Event),
    ) -> Result<SolutionReport> {
        let results = if build.outcome.ok {
            let program = self.compiler.program(&build, runner.limits.memory)?;
            self.run_tests(runner, &program, solution, tests, on_event)?
        } else {
            Vec::new()
        };
        let verdict = if build.outcome.ok {
            results
                .iter()
                .map(|r| r.verdict)
                .find(|v| !v.is_accepted())
                .unwrap_or(Verdict::Accepted)
        } else {
            Verdict::CompileError
        };
        Ok(SolutionReport {
            name: solution.name.clone(),
            path: solution.path.clone(),
            language: solution.language,
            expected: solution.expected.clone(),
            verdict,
            ok: solution.accepts(verdict),
            compile: build.outcome,
            tests: results,
        })
    }

    /// Runs the tests on up to `jobs` threads, in order of index. Unless every test is wanted, no test after a
    /// failed one is started, and results after the first failure are dropped, so the outcome does not depend on
    /// how many ran at once.
    fn run_tests(
        &self,
        runner: &TestRunner,
        program: &Program,
        solution: &Solution,
        tests: &[Test],
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Vec<TestResult>> {
        let next = AtomicUsize::new(0);
        let first_failure = AtomicUsize::new(usize::MAX);
        // Set when the harness itself fails (a run that could not be carried out): nothing more is started.
        let broken = AtomicBool::new(false);
        let all = self.options.all_tests;
        let (sender, receiver) = mpsc::channel();
        let mut results: Vec<Option<TestResult>> = vec![None; tests.len()];
        std::thread::scope(|scope| -> Result<()> {
            for _ in 0..self.options.jobs.clamp(1, tests.len().max(1)) {
                let sender = sender.clone();
                let (next, first_failure, broken) = (&next, &first_failure, &broken);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= tests.len()
                            || (!all && index > first_failure.load(Ordering::SeqCst))
                            || broken.load(Ordering::SeqCst)
                        {
                            break;
                        }
                        let result = runner.run(program, &tests[index]);
                        match &result {
                            Ok(r) if !r.verdict.is_accepted() => {
                                first_failure.fetch_min(index, Ordering::SeqCst);
                            }
                            Ok(_) => {}
                            Err(_) => broken.store(true, Ordering::SeqCst),
                        }
                        if sender.send((index, result)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for (index, result) in receiver {
                let result = result?;
                on_event(Event::TestFinished {
                    solution,
                    result: &result,
                });
                results[index] = Some(result);
            }
            Ok(())
        })?;
        let mut ordered: Vec<TestResult> = results.into_iter().flatten().collect();
        if !all && let Some(stop) = ordered.iter().position(|r| !r.verdict.is_accepted()) {
            ordered.truncate(stop + 1);
        }
        Ok(ordered)
    }
}
