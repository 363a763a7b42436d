//! Judging a problem: compile the tools and the solutions, validate the tests, run every solution on the tests,
//! and decide each solution's verdict.

use super::held::{Brief, Held};
use super::in_order::InOrder;
use super::limit_check::LimitCheck;
use super::names::TestNames;
use super::outcome::{Event, Interruption, JudgeReport, SolutionReport, TestResult};
use super::partition::Partition;
use super::records::{Digests, Provenance, RunBook, RunKey};
use super::run_test::TestRunner;
use super::turns::{Claim, InTurn, Turns};
use super::validate::{CHECKTESTDATA_INSTALL, Validator, checktestdata_tool, validate};
use crate::cache::Cache;
use crate::check::{Checker, StaticValidator};
use crate::compile::{Compiled, Compiler, Program};
use crate::error::{Error, Result};
use crate::problem::{
    InputValidator, PackageWarning, Problem, ProblemLimits, Solution, Test, TimeRule, WarningKind,
};
use crate::sandbox::Runner;
use crate::scoring::{Judged, Plan, Scored, TestScore, Tree, aggregate};
use crate::toolchain::Toolchain;
use crate::units::{Bytes, format_time};
use crate::verdict::Verdict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

/// The CPU time limit a package's accepted submissions run with while its time limit is found.
const PROVISIONAL_TIME_LIMIT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy)]
pub struct JudgeOptions {
    /// Run every test, instead of stopping a solution at its first non-AC test.
    pub all_tests: bool,
    /// Tests run at once.
    pub jobs: usize,
    /// Judge only this share of the (solution, test) runs.
    pub partition: Option<Partition>,
    /// The tests are a selection of the problem's (`--samples`, `--test`): a wrong solution they do not catch is
    /// not caught by them, not a failure of the problem, as on a share.
    pub subset: bool,
    /// Whether the reports show each test. Where they show only each solution's summary (`-q` alone), a solution
    /// keeps only the results that summary is made of (see [`notable`]), so that the judge's memory does not grow
    /// with the number of solutions times the number of tests.
    pub per_test: bool,
}

impl JudgeOptions {
    /// Whether only some of the runs that decide a verdict are judged: a share, or a selection of the tests. A
    /// solution is then not as expected only where no other run could make it so, and the rules about tests
    /// judged elsewhere are left to the whole judge.
    fn partial(&self) -> bool {
        self.partition.is_some() || self.subset
    }
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            all_tests: false,
            jobs: 1,
            partition: None,
            subset: false,
            per_test: true,
        }
    }
}

pub struct Judge<'a> {
    runner: &'a dyn Runner,
    compiler: Compiler<'a>,
    cache: Cache,
    options: JudgeOptions,
    /// Where set, runs are kept for the next judge, and taken from earlier ones (see `judge::records`).
    provenance: Option<Provenance>,
}

/// What a judge that keeps its runs shares across solutions: see [`Judge::with_provenance`].
struct Keeping<'a> {
    provenance: &'a Provenance,
    digests: Digests,
    /// How outputs are judged: the comparison, and the checker's build.
    judging: String,
}

impl<'a> Judge<'a> {
    /// A judge whose builds and memos live under `cache`.
    pub fn new(runner: &'a dyn Runner, cache: Cache, options: JudgeOptions) -> Self {
        Self::with_toolchain(runner, cache, options, Toolchain::default())
    }

    /// A judge whose compilers are found through `toolchain`: the command's own, or a fixed one in tests.
    pub(crate) fn with_toolchain(
        runner: &'a dyn Runner,
        cache: Cache,
        options: JudgeOptions,
        toolchain: Toolchain,
    ) -> Self {
        Judge {
            runner,
            compiler: Compiler::with_toolchain(&cache, runner, toolchain),
            cache,
            options,
            provenance: None,
        }
    }

    /// This judge, keeping every run's outcome under a key of what decides it, and taking an outcome from an
    /// earlier judge whose key is the same (unless `provenance.fresh`).
    pub fn with_provenance(self, provenance: Provenance) -> Self {
        Judge {
            provenance: Some(provenance),
            ..self
        }
    }

    /// This judge, compiling with `flags` instead of the languages' own (see [`crate::language::Flags`]).
    pub fn with_flags(self, flags: crate::language::Flags) -> Self {
        Judge {
            compiler: self.compiler.with_flags(flags),
            ..self
        }
    }

    /// Judges `solutions` of `problem` on `tests`. Verdicts are data: only the harness's own failures are errors.
    /// When the user asks the judge to stop, the report holds the solutions judged completely, and says what was
    /// interrupted.
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
        let mut report = JudgeReport {
            problem: problem.name.clone(),
            time_limit: problem.limits.time,
            memory_limit: problem.limits.memory,
            time_limit_overridden: false,
            time_limit_origin: None,
            time_limit_check: None,
            tle_time_limit: None,
            memory_limit_overridden: false,
            // Named once the solutions are judged (below), when what was held of their runs is let go.
            tests: TestNames::default(),
            all_tests: self.options.all_tests,
            partition: self.options.partition,
            suggested_time_limit: None,
            solutions: Vec::new(),
            skipped: Vec::new(),
            interrupted: None,
            warnings: Vec::new(),
            main_reference: solutions
                .iter()
                .find(|s| s.main && problem.package.is_none())
                .map(|s| s.name.clone()),
            checker: None,
        };
        for warning in problem.package.iter().flat_map(|p| &p.warnings) {
            warn(&mut report, warning.clone(), on_event);
        }
        let mut during = String::from("compiling the problem's programs");
        let judged = self.judge_into(
            problem,
            solutions,
            tests,
            &mut report,
            &mut during,
            on_event,
        );
        report.tests = tests.iter().map(|t| &t.name).collect();
        match judged {
            Err(Error::Interrupted) => {
                let interruption = Interruption {
                    during,
                    not_judged: solutions[report.solutions.len()..]
                        .iter()
                        .map(|s| s.name.clone())
                        .collect(),
                };
                on_event(Event::Interrupted {
                    interruption: &interruption,
                });
                report.interrupted = Some(interruption);
                Ok(report)
            }
            Err(e) => Err(e),
            Ok(()) => Ok(report),
        }
    }

    /// Judges into `report`, keeping in `during` what it is doing, to say where it was interrupted.
    fn judge_into(
        &self,
        problem: &Problem,
        solutions: &[Solution],
        tests: &[Test],
        report: &mut JudgeReport,
        during: &mut String,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<()> {
        if let Some((what, ..)) = problem.comparison.program() {
            on_event(Event::Compiling { what });
        }
        let checker = Checker::build(&self.compiler, problem)?;
        report.checker = checker.as_ref().map(|c| c.identity.clone());
        let keeping = self.provenance.as_ref().map(|provenance| Keeping {
            provenance,
            digests: Digests::kept_in(&self.cache.digests(), &problem.dir),
            // The problem's folder too: a copy of the problem elsewhere is another problem, whose runs are its own.
            judging: format!(
                "{} {:?} {:?} {:?}",
                problem.dir.display(),
                problem.comparison,
                report.checker,
                checker
                    .as_ref()
                    .map(|c| (c.protocol, c.interactive, c.passes))
            ),
        });
        let judged = self.judge_kept(
            problem,
            solutions,
            tests,
            checker.as_ref(),
            keeping.as_ref(),
            report,
            during,
            on_event,
        );
        if let Some(keeping) = &keeping {
            keeping.digests.save();
        }
        judged
    }

    /// Judges into `report` as [`Judge::judge_into`] does, with `checker` built, keeping runs as `keeping` says.
    #[allow(clippy::too_many_arguments)]
    fn judge_kept(
        &self,
        problem: &Problem,
        solutions: &[Solution],
        tests: &[Test],
        checker: Option<&Checker>,
        keeping: Option<&Keeping>,
        report: &mut JudgeReport,
        during: &mut String,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<()> {
        // A static validation test case has no input, and runs no submission.
        let static_validator = if !tests.iter().all(Test::has_files) {
            on_event(Event::Compiling {
                what: "static validator",
            });
            StaticValidator::build(&self.compiler, problem)?
        } else {
            None
        };
        let (validators, protocol) = problem.input_validators()?;
        for source in &validators {
            // A script no program here can run leaves the tests unchecked by it, not unjudged.
            if let InputValidator::Checktestdata(script) = source
                && checktestdata_tool().is_none()
            {
                let warning = PackageWarning::new(
                    WarningKind::ValidatorSkipped,
                    script,
                    None,
                    format!(
                        "the tests are not checked by this checktestdata script: no checktestdata program is \
                         on PATH ({CHECKTESTDATA_INSTALL})"
                    ),
                );
                warn(report, warning, on_event);
                continue;
            }
            on_event(Event::Compiling { what: "validator" });
            let validator = Validator::build(&self.compiler, source, protocol, &problem.limits)?;
            *during = "validating the tests".to_owned();
            // The tests with an input, listed only while they are validated: a judge of many tests holds no
            // second list of them while they run.
            let inputs: Vec<&Test> = tests.iter().filter(|t| t.has_files()).collect();
            on_event(Event::Validating {
                tests: inputs.len(),
            });
            validate(self.runner, &validator, &self.cache.validated(), &inputs)?;
        }

        let mut compiled = Vec::new();
        for solution in solutions {
            *during = format!("compiling {}", solution.name);
            on_event(Event::Compiling {
                what: &solution.name,
            });
            let build = self.build(solution)?;
            on_event(Event::Compiled {
                solution,
                outcome: &build.outcome,
            });
            compiled.push(build);
        }

        let mut runner = TestRunner {
            runner: self.runner,
            limits: problem.limits,
            comparison: &problem.comparison,
            checker,
            static_validator: static_validator.as_ref(),
            margin: None,
        };
        let mut tle_limit = None;
        if let Some(package) = &problem.package {
            let rule = &package.time_rule;
            *during = "finding the time limit".to_owned();
            let (limit, found) =
                self.package_limit(problem, rule, &runner, tests, keeping, on_event)?;
            let how = format!(
                "{found}; TLE submissions run on to {}",
                format_time(rule.tle_limit(limit))
            );
            on_event(Event::TimeLimitFound { limit, how: &how });
            runner.limits.time = limit;
            report.time_limit_origin = Some(how);
            report.time_limit = limit;
            tle_limit = Some(rule.tle_limit(limit));
            report.tle_time_limit = tle_limit;
        }
        for (solution, build) in solutions.iter().zip(compiled) {
            *during = format!("judging {}", solution.name);
            if crate::interrupt::requested() {
                return Err(Error::Interrupted);
            }
            // A package's submission expected to time out runs on to its TLE margin: over the limit is TLE all the
            // same, but one that would pass at the margin is noted as sensitive to the limit.
            let margin = tle_limit.filter(|_| solution.expected == [Verdict::TimeLimit]);
            let runner = TestRunner { margin, ..runner };
            let solution_report =
                self.judge_solution(problem, &runner, solution, build, tests, keeping, on_event)?;
            on_event(Event::SolutionFinished {
                report: &solution_report,
            });
            report.solutions.push(solution_report);
        }
        let interactions = problem.package.iter().flat_map(|p| &p.interactions);
        for warning in super::samples::sample_warnings(interactions, &report.solutions) {
            warn(report, warning, on_event);
        }
        if let Some(rule) = problem.package.as_ref().map(|p| &p.time_rule)
            && rule.fixed.is_some()
        {
            report.time_limit_check = LimitCheck::of(rule, &report.solutions);
            if let Some(warning) = report.time_limit_warning() {
                on_event(Event::TimeLimitWarning { warning: &warning });
            }
        }
        Ok(())
    }

    /// The time limit a package is judged with, as judging it finds it (see [`TimeRule`]), and how it was found:
    /// for `cpjudge import`, which gives a problem of ours the limit its package has when judged.
    pub fn package_time_limit(
        &self,
        problem: &Problem,
        tests: &[Test],
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Option<(Duration, String)>> {
        let Some(package) = &problem.package else {
            return Ok(None);
        };
        let checker = Checker::build(&self.compiler, problem)?;
        let runner = TestRunner {
            runner: self.runner,
            limits: problem.limits,
            comparison: &problem.comparison,
            checker: checker.as_ref(),
            margin: None,
            static_validator: None,
        };
        self.package_limit(problem, &package.time_rule, &runner, tests, None, on_event)
            .map(Some)
    }

    /// A package's time limit: the fixed one (the author's decision: nothing runs to find it), or the one derived
    /// from its accepted submissions; with how it was found.
    fn package_limit(
        &self,
        problem: &Problem,
        rule: &TimeRule,
        runner: &TestRunner,
        tests: &[Test],
        keeping: Option<&Keeping>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<(Duration, String)> {
        let (limit, found) = match rule.fixed {
            Some(fixed) => (fixed, String::new()),
            None => {
                // A static validation test case runs no submission.
                let inputs: Vec<&Test> = tests.iter().filter(|t| t.has_files()).collect();
                let (limit, slowest) =
                    self.find_time_limit(problem, rule, runner, &inputs, keeping, on_event)?;
                (limit, format!("; {slowest}"))
            }
        };
        Ok((
            limit,
            format!("{} {}{found}", format_time(limit), rule.origin),
        ))
    }

    /// A package's time limit derived from its accepted submissions' slowest CPU time, and what that time was.
    /// Those submissions run first for it, under a roomy limit.
    fn find_time_limit(
        &self,
        problem: &Problem,
        rule: &TimeRule,
        runner: &TestRunner,
        tests: &[&Test],
        keeping: Option<&Keeping>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<(Duration, String)> {
        let roomy = ProblemLimits {
            time: PROVISIONAL_TIME_LIMIT,
            ..runner.limits
        };
        let runner = TestRunner {
            limits: roomy,
            ..*runner
        };
        let mut slowest: Option<(Duration, String)> = None;
        for solution in &problem.solutions {
            // The tests it bounds the limit from below on: every one for an accepted submission, those of each
            // rule that does not permit TLE (submissions.yaml's `use_for_time_limit: lower` is one).
            let accepted = solution.expected == [Verdict::Accepted];
            let scopes: Vec<&crate::scoring::Scope> = solution
                .expectations
                .iter()
                .filter(|e| {
                    e.permitted
                        .as_ref()
                        .is_some_and(|p| !p.contains(&Verdict::TimeLimit))
                })
                .map(|e| &e.scope)
                .collect();
            if !accepted && scopes.is_empty() {
                continue;
            }
            on_event(Event::Compiling {
                what: &solution.name,
            });
            let build = self.build(solution)?;
            if !build.outcome.ok {
                continue;
            }
            let program = self.compiler.program(&build, roomy.memory)?;
            let built = Built {
                program: &program,
                build: &build,
                kept: self.kept(keeping, &build, &runner)?,
            };
            for test in tests
                .iter()
                .filter(|t| accepted || scopes.iter().any(|s| s.holds(&t.name)))
            {
                if crate::interrupt::requested() {
                    return Err(Error::Interrupted);
                }
                let result = built.judge(&runner, test)?;
                if accepted && !result.verdict.is_accepted() {
                    break;
                }
                if result.verdict == Verdict::TimeLimit {
                    continue;
                }
                if slowest.as_ref().is_none_or(|(cpu, _)| result.cpu > *cpu) {
                    slowest = Some((result.cpu, format!("{} on {}", solution.name, test.name)));
                }
            }
            built.save();
        }
        let (cpu, on) =
            slowest.unwrap_or_else(|| (Duration::ZERO, "no accepted submission".into()));
        let slowest = format!(
            "the slowest accepted run bounding the limit took {} ({on})",
            format_time(cpu)
        );
        Ok((rule.limit(cpu), slowest))
    }

    /// The solution compiled, or taken from the cache; one run as it is, as it is.
    fn build(&self, solution: &Solution) -> Result<Compiled> {
        match &solution.prebuilt {
            Some(prebuilt) => Ok(Compiled::prebuilt(prebuilt)),
            None => self.compiler.compile_source(&solution.source()),
        }
    }

    /// Whether judging `solutions` on `tests` surely runs a program, whatever earlier judges kept: a program run as
    /// it is has no build of its own, and keeps no runs (see [`Judge::kept`]).
    pub fn surely_runs(solutions: &[Solution], tests: &[Test]) -> bool {
        tests.iter().any(Test::has_files) && solutions.iter().any(|s| s.prebuilt.is_some())
    }

    /// How `build`'s runs are kept, where runs are kept at all and it has a build of its own: its records, the key
    /// of its runs, and where the tests' digests come from.
    fn kept<'k>(
        &self,
        keeping: Option<&'k Keeping>,
        build: &Compiled,
        runner: &TestRunner,
    ) -> Result<Option<Kept<'k>>> {
        let Some(keeping) = keeping.filter(|_| !build.is_prebuilt()) else {
            return Ok(None);
        };
        let Some(book) = RunBook::of_build(&build.dir) else {
            return Ok(None);
        };
        let executable = super::records::executable_digest(&build.dir)
            .map_err(|e| Error::io("read", &build.dir, e))?;
        let judging = format!(
            "{} memory {:?} output {:?} margin {:?}",
            keeping.judging, runner.limits.memory, runner.limits.output, runner.margin
        );
        Ok(Some(Kept {
            book,
            key: RunKey::new(keeping.provenance, &[&build.key(), &executable], &judging),
            executable,
            digests: &keeping.digests,
            fresh: keeping.provenance.fresh,
        }))
    }

    /// What `solution`, built as `build` into files of digest `executable` (none if it did not build), was built
    /// from and into, where runs are kept.
    fn build_trace(
        &self,
        keeping: Option<&Keeping>,
        solution: &Solution,
        build: &Compiled,
        executable: Option<String>,
    ) -> Option<super::outcome::BuildTrace> {
        let keeping = keeping.filter(|_| !build.is_prebuilt())?;
        Some(super::outcome::BuildTrace {
            source: keeping.digests.of(&solution.path).unwrap_or_default(),
            key: build.key(),
            executable: executable.unwrap_or_default(),
            toolchain: self.compiler.version(solution.language),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn judge_solution(
        &self,
        problem: &Problem,
        runner: &TestRunner,
        solution: &Solution,
        build: Compiled,
        tests: &[Test],
        keeping: Option<&Keeping>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<SolutionReport> {
        let share: Vec<Test>;
        let tests = match self.options.partition {
            Some(partition) => {
                share = tests
                    .iter()
                    .filter(|t| partition.includes(&solution.name, &t.name))
                    .cloned()
                    .collect();
                &share
            }
            None => tests,
        };
        let (tree, tests) = tree_of(problem, tests)?;
        // Where only the summary is reported, and no rule of the solution's reads every test's result, a passed
        // test is held as its figures alone (see `judge::held`).
        let (results, executable, scored) =
            if self.options.per_test || !solution.expectations.is_empty() {
                let (mut results, executable) = self.results(
                    runner,
                    solution,
                    &build,
                    &tree,
                    &tests,
                    keeping,
                    on_event,
                    |r| r,
                )?;
                let scored = score(&tree, &mut results);
                // Collected in place, in the list of every test's result (a result and its absence are the same
                // size): a second list would double the judge's memory at its peak. Made to measure where tests were
                // left out.
                results.retain(Option::is_some);
                results.shrink_to_fit();
                let results: Vec<TestResult> = results
                    .into_iter()
                    .map(|r| r.expect("only results are left"))
                    .collect();
                (results, executable, scored)
            } else {
                let (mut results, executable) = self.results(
                    runner,
                    solution,
                    &build,
                    &tree,
                    &tests,
                    keeping,
                    on_event,
                    Brief::of,
                )?;
                let scored = score(&tree, &mut results);
                (summary(results, &tests), executable, scored)
            };
        let trace = self.build_trace(keeping, solution, &build, executable);
        // A legacy grader may accept a submission that failed tests (accept_if_any_accepted, always_accept); where
        // it does not, the verdict is the first failed test's, as for every problem.
        let verdict = match scored.verdict {
            Some(Verdict::Accepted) if build.outcome.ok => Verdict::Accepted,
            _ => SolutionReport::verdict_of(build.outcome.ok, &results),
        };
        // The rules count the tests they hold that were not run, by name: without rules, no list of every test's
        // name is made.
        let names: Vec<&str> = match solution.expectations.is_empty() {
            true => Vec::new(),
            false => tests.iter().map(|t| t.name.as_str()).collect(),
        };
        let broken = crate::scoring::broken(
            &solution.expectations,
            &Judged {
                tests: &results,
                all_tests: &names,
                groups: &scored.groups,
                score: scored.score,
                compiled: build.outcome.ok,
            },
        );
        let ok = if self.options.partial() {
            may_be_as_expected(solution, verdict)
        } else {
            solution.accepts(verdict) && broken.is_empty()
        };
        Ok(SolutionReport {
            score: scored.score,
            max_score: scored.max,
            groups: scored.groups,
            // A share or a selection cannot decide a rule about tests judged elsewhere: the whole judge does.
            broken: if self.options.partial() {
                Vec::new()
            } else {
                broken
            },
            name: solution.name.clone(),
            path: solution.path.clone(),
            language: solution.language,
            expected: solution.expected.clone(),
            verdict,
            ok,
            compile: build.outcome,
            tests: match self.options.per_test {
                true => results,
                false => notable(results),
            },
            build: trace,
        })
    }

    /// The results of `solution`, built as `build`, on `tests` (by test, None where not run), each held as `hold`
    /// makes it; with the digest of its build's files, where its runs are kept.
    #[allow(clippy::too_many_arguments)]
    fn results<T: Held>(
        &self,
        runner: &TestRunner,
        solution: &Solution,
        build: &Compiled,
        tree: &Tree,
        tests: &InOrder,
        keeping: Option<&Keeping>,
        on_event: &mut dyn FnMut(Event),
        hold: fn(TestResult) -> T,
    ) -> Result<(Vec<Option<T>>, Option<String>)> {
        if !build.outcome.ok {
            return Ok((
                std::iter::repeat_with(|| None).take(tests.len()).collect(),
                None,
            ));
        }
        let program = self.compiler.program(build, runner.limits.memory)?;
        let plan = Plan::for_rules(tree, &solution.expectations, self.options.all_tests);
        let built = Built {
            program: &program,
            build,
            kept: self.kept(keeping, build, runner)?,
        };
        let results = self.run_tests(
            runner,
            &built,
            solution,
            plan.as_ref(),
            tests,
            on_event,
            hold,
        );
        let executable = built.kept.as_ref().map(|k| k.executable.clone());
        // What was run is kept even when the judge stops: the runs made need not be made again.
        built.save();
        Ok((results?, executable))
    }

    /// Runs the tests on up to `jobs` threads, in order of number, as `plan` asks (None: every test): no test is
    /// started that an earlier failure rules out, and results a one-at-a-time judge would not
    /// have are dropped, so the outcome does not depend on how many ran at once. The results are by test, None
    /// where not run.
    #[allow(clippy::too_many_arguments)]
    fn run_tests<T: Held>(
        &self,
        runner: &TestRunner,
        built: &Built,
        solution: &Solution,
        plan: Option<&Plan>,
        tests: &InOrder,
        on_event: &mut dyn FnMut(Event),
        hold: fn(TestResult) -> T,
    ) -> Result<Vec<Option<T>>> {
        // The plan, and what the failures so far decide of it.
        let planned = plan.map(|plan| (plan, Mutex::new(plan.start())));
        // Set when the harness itself fails (a run that could not be carried out): nothing more is started.
        let broken = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel();
        let mut results: Vec<Option<T>> =
            std::iter::repeat_with(|| None).take(tests.len()).collect();
        // Runs go `jobs` at once, and one test more is made ready meanwhile (see `turns`).
        let at_once = self.options.jobs.clamp(1, tests.len().max(1));
        let turns = Turns::new(at_once);
        std::thread::scope(|scope| -> Result<()> {
            for _ in 0..(at_once + 1).min(tests.len()) {
                let sender = sender.clone();
                let (planned, broken, turns) = (&planned, &broken, &turns);
                scope.spawn(move || {
                    loop {
                        let index = turns.next_test();
                        let wanted = || {
                            !broken.load(Ordering::SeqCst)
                                && planned.as_ref().is_none_or(|(plan, progress)| {
                                    plan.wanted(index, &progress.lock().expect("not poisoned"))
                                })
                        };
                        // Made at once, and held until the test's result is recorded, so that the tests after it
                        // wait for it and see its result when their turn comes.
                        let claim = Claim::new(turns, index, &wanted);
                        if index >= tests.len() || broken.load(Ordering::SeqCst) {
                            break;
                        }
                        if !wanted() {
                            continue;
                        }
                        let in_turn = InTurn {
                            runner: runner.runner,
                            claim: &claim,
                        };
                        let runner = TestRunner {
                            runner: &in_turn,
                            ..*runner
                        };
                        let result = built.judge(&runner, tests.get(index));
                        match &result {
                            Ok(r) => {
                                if let Some((plan, progress)) = planned {
                                    plan.record(
                                        index,
                                        r.verdict.is_accepted(),
                                        &mut progress.lock().expect("not poisoned"),
                                    );
                                }
                            }
                            Err(Error::NotWanted) => continue,
                            Err(_) => broken.store(true, Ordering::SeqCst),
                        }
                        // Sent before the turn is given back: the tests that run send their results in their
                        // order.
                        let sent = sender.send((index, result)).is_ok();
                        drop(claim);
                        if !sent {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            let folder = solution.source().folder;
            for (index, result) in receiver {
                let mut result = result?;
                // A program run as it is has no build folder: its messages name its own files already.
                if !built.build.is_prebuilt() {
                    result.message = super::last_words::own_paths(
                        &result.message,
                        &built.build.dir,
                        built.build.source_name(),
                        &solution.path,
                        folder.as_deref(),
                    );
                }
                on_event(Event::TestFinished {
                    solution,
                    result: &result,
                });
                results[index] = Some(hold(result));
            }
            Ok(())
        })?;
        let Some(plan) = plan else {
            return Ok(results);
        };
        plan.keep(
            results,
            |r| r.verdict().is_accepted(),
            |index| {
                let result = built.judge(runner, tests.get(index))?;
                on_event(Event::TestFinished {
                    solution,
                    result: &result,
                });
                Ok(hold(result))
            },
        )
    }
}

/// A solution as it is judged: how it runs, its build, whose files a static validation test case judges, and
/// where its runs are kept.
struct Built<'a> {
    program: &'a Program,
    build: &'a Compiled,
    kept: Option<Kept<'a>>,
}

/// Where a build's runs are kept, and under what key.
struct Kept<'a> {
    book: RunBook,
    key: RunKey,
    /// The digest of the files built, which the key holds.
    executable: String,
    digests: &'a Digests,
    /// Whether outcomes kept are ignored: runs are made, and kept.
    fresh: bool,
}

impl Built<'_> {
    /// Writes the runs made and kept, if runs are kept.
    fn save(self) {
        if let Some(kept) = self.kept {
            kept.book.save();
        }
    }

    /// The outcome of the program on `test`: kept from an earlier judge if one is still decided, else judged now
    /// (and kept).
    fn judge(&self, runner: &TestRunner, test: &Test) -> Result<TestResult> {
        let Some(kept) = self.kept.as_ref().filter(|_| test.has_files()) else {
            return runner.judge(self.program, self.build, test);
        };
        let digest = |path: &std::path::Path| match path.exists() {
            true => kept
                .digests
                .of(path)
                .map_err(|e| Error::io("read", path, e)),
            false => Ok(String::new()),
        };
        let (input, answer) = (digest(&test.input())?, digest(&test.answer())?);
        let key = kept.key.of(test, &input, &answer);
        let limit = runner.limits.time;
        let mut trace = super::outcome::RunTrace {
            key,
            input,
            answer,
            reused: false,
        };
        if let Some(mut result) = kept.book.find(&trace.key, limit).filter(|_| !kept.fresh) {
            result.name = test.name.to_string();
            result.input = test.input().into();
            trace.reused = true;
            result.trace = Some(Box::new(trace));
            return Ok(result);
        }
        let mut result = runner.judge(self.program, self.build, test)?;
        kept.book.keep(trace.key.clone(), limit, &result);
        result.trace = Some(Box::new(trace));
        Ok(result)
    }
}

/// The tree `tests` are judged in (a pass-fail problem's: one group that stops at the first failure), and the
/// tests in its order.
pub(crate) fn tree_of<'t>(problem: &Problem, tests: &'t [Test]) -> Result<(Tree, InOrder<'t>)> {
    match &problem.groups {
        None => Ok((Tree::pass_fail(tests.len()), InOrder::Given(tests))),
        Some(grouping) => grouping
            .tree(tests)
            .map(|(tree, picked)| (tree, InOrder::Picked(picked)))
            .map_err(|why| Error::Usage(format!("{}: {why}", problem.config_path.display()))),
    }
}

/// Aggregates `results` over `tree`, and gives each test its score; a test whose validator broke a scoring
/// rule becomes a judge error.
pub(crate) fn score(tree: &Tree, results: &mut [Option<impl Held>]) -> Scored {
    // An unscored tree reads no result: none is listed for it.
    if !tree.scored {
        return Scored::unscored();
    }
    let scores: Vec<Option<TestScore>> = results
        .iter()
        .map(|r| r.as_ref().map(Held::test_score))
        .collect();
    let scored = aggregate(tree, &scores);
    for (index, why) in &scored.judge_errors {
        if let Some(result) = &mut results[*index] {
            result.judge_error(why);
        }
    }
    for (result, score) in results.iter_mut().zip(&scored.tests) {
        if let Some(result) = result {
            result.set_score(*score);
        }
    }
    scored
}

/// Of a solution's results, in order, those its summary is made of: its first failure (its verdict's test), its
/// first test sensitive to the time limit, its slowest and its largest.
fn notable(mut results: Vec<TestResult>) -> Vec<TestResult> {
    let kept = notable_of(results.iter().map(|r| {
        Some((
            !r.verdict.is_accepted(),
            r.at_margin.is_some(),
            r.cpu,
            r.memory,
        ))
    }));
    let mut at = 0;
    results.retain(|_| {
        at += 1;
        kept.contains(&Some(at - 1))
    });
    results.shrink_to_fit();
    results
}

/// The results of `tests` its summary is made of (see [`notable`]), of those held for it (by test, None where not
/// run).
fn summary(results: Vec<Option<Brief>>, tests: &InOrder) -> Vec<TestResult> {
    let kept = notable_of(results.iter().map(|r| {
        r.as_ref().map(|r| {
            (
                !r.verdict().is_accepted(),
                r.at_margin(),
                r.cpu(),
                r.memory(),
            )
        })
    }));
    results
        .into_iter()
        .zip(tests.iter())
        .enumerate()
        .filter(|(at, _)| kept.contains(&Some(*at)))
        .filter_map(|(_, (result, test))| result.map(|r| r.result(test)))
        .collect()
}

/// The places, among `results` (whether failed, whether sensitive to the time limit, CPU time and memory; None
/// where not run), of the first failure, the first sensitive to the time limit, the slowest and the largest: of
/// equals, the first.
fn notable_of(
    results: impl DoubleEndedIterator<Item = Option<(bool, bool, Duration, Bytes)>>
    + ExactSizeIterator
    + Clone,
) -> [Option<usize>; 4] {
    let present = || {
        results
            .clone()
            .enumerate()
            .filter_map(|(at, r)| Some((at, r?)))
    };
    let first = |keep: fn(&(bool, bool, Duration, Bytes)) -> bool| {
        present().find(|(_, r)| keep(r)).map(|(at, _)| at)
    };
    let most = |key: fn(&(bool, bool, Duration, Bytes)) -> u64| {
        present()
            .rev()
            .max_by_key(|(_, r)| key(r))
            .map(|(at, _)| at)
    };
    [
        first(|r| r.0),
        first(|r| r.1),
        most(|r| r.2.as_nanos() as u64),
        most(|r| r.3.0),
    ]
}

/// Reports `warning` as it is found, and keeps it in the report.
fn warn(report: &mut JudgeReport, warning: PackageWarning, on_event: &mut dyn FnMut(Event)) {
    on_event(Event::Warning { warning: &warning });
    report.warnings.push(warning);
}

/// Whether a share's verdict leaves the whole judge's verdict possibly as expected: the runs of the other shares
/// may hold the failure a solution is expected to have, or an earlier failure of the kind it expects. Only a
/// solution expected to pass, or to fail to compile, is judged for good by one share.
fn may_be_as_expected(solution: &Solution, verdict: Verdict) -> bool {
    let compiled = verdict != Verdict::CompileError;
    solution.accepts(verdict)
        || (compiled
            && solution
                .expected
                .iter()
                .any(|v| !v.is_accepted() && *v != Verdict::CompileError))
}

#[cfg(test)]
mod tests {
    //! The engine's ordering and stopping rules, driven by a fake runner and a fixed toolchain: no program really
    //! runs, and no compiler need be installed.

    use super::*;
    use crate::language::Language;
    use crate::problem::Comparison;
    use crate::problem::ProblemLimits;
    use crate::sandbox::{RunResult, RunSpec, Termination};
    use crate::units::Bytes;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Compiles anything; runs "programs" that echo their input, except on the tests in `wrong` (answers a wrong
    /// token) and `broken` (the run itself fails, as when a supervisor dies).
    struct FakeRunner {
        wrong: Vec<&'static str>,
        broken: Vec<&'static str>,
        /// The inputs of the runs started, in order.
        started: Mutex<Vec<String>>,
        /// What happened to each test's run, in order: "ready 1" once it was made ready (and waits for its turn),
        /// "start 1" and "end 1" as it ran.
        log: Mutex<Vec<String>>,
        /// Whether the run of test 1 goes on until test 2 is ready (at most ten seconds).
        waits_for_the_next: bool,
    }

    impl FakeRunner {
        fn note(&self, what: &str, spec: &RunSpec) {
            if let Some(stdin) = &spec.stdin {
                let input = std::fs::read_to_string(stdin).unwrap();
                self.log
                    .lock()
                    .unwrap()
                    .push(format!("{what} {}", input.trim()));
            }
        }

        fn logged(&self, what: &str) -> Option<usize> {
            self.log.lock().unwrap().iter().position(|e| e == what)
        }
    }

    impl Runner for FakeRunner {
        fn run_when(
            &self,
            spec: &RunSpec,
            ready: &dyn Fn() -> crate::error::Result<()>,
        ) -> crate::error::Result<RunResult> {
            self.note("ready", spec);
            ready()?;
            self.note("start", spec);
            let first = spec
                .stdin
                .as_ref()
                .is_some_and(|i| std::fs::read_to_string(i).unwrap().trim() == "1");
            if self.waits_for_the_next && first {
                let deadline = std::time::Instant::now() + Duration::from_secs(10);
                while self.logged("ready 2").is_none() && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let result = self.run(spec);
            self.note("end", spec);
            result
        }

        fn run(&self, spec: &RunSpec) -> crate::error::Result<RunResult> {
            let mut result = RunResult {
                termination: Termination::Exited(0),
                cpu: Duration::from_millis(1),
                wall: Duration::from_millis(1),
                peak_memory: Bytes::mib(1),
                stdout_bytes: 0,
                stderr: Vec::new(),
                stderr_bytes: 0,
                killed_for: None,
                kept_out: false,
            };
            let Some(stdin) = &spec.stdin else {
                // A compile: it succeeds.
                std::fs::write(&spec.stdout, "").unwrap();
                return Ok(result);
            };
            let input = std::fs::read_to_string(stdin).unwrap().trim().to_owned();
            self.started.lock().unwrap().push(input.clone());
            if self.broken.contains(&input.as_str()) {
                return Err(Error::Sandbox("the supervisor gave no result".into()));
            }
            let output = if self.wrong.contains(&input.as_str()) {
                "wrong\n".to_owned()
            } else {
                format!("{input}\n")
            };
            std::fs::write(&spec.stdout, &output).unwrap();
            result.stdout_bytes = output.len() as u64;
            Ok(result)
        }
    }

    struct Fixture {
        dir: tempfile::TempDir,
        problem: Problem,
        solution: Solution,
        tests: Vec<Test>,
    }

    /// Eight tests, "1" to "8", each answered by its own input.
    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let tests_dir = dir.path().join("tests");
        std::fs::create_dir(&tests_dir).unwrap();
        for i in 1..=8 {
            std::fs::write(tests_dir.join(format!("{i}.in")), format!("{i}\n")).unwrap();
            std::fs::write(tests_dir.join(format!("{i}.ans")), format!("{i}\n")).unwrap();
        }
        let source = dir.path().join("echo.c");
        std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
        let problem = Problem {
            name: "echo".into(),
            dir: dir.path().to_owned(),
            config_path: dir.path().join("problem.toml"),
            title: "Echo".into(),
            limits: ProblemLimits {
                time: Duration::from_secs(1),
                memory: Bytes::mib(64),
                output: Bytes::mib(1),
            },
            comparison: Comparison::Tokens,
            validator: None,
            protocol: crate::problem::Protocol::Cpjudge,
            generator: None,
            stress: None,
            solutions: Vec::new(),
            package: None,
            groups: None,
            flags: Default::default(),
            time_limit_floor: None,
        };
        let solution = Solution {
            name: "echo.c".into(),
            path: source,
            language: Language::shipped("c"),
            expected: vec![Verdict::Accepted],
            main: false,
            others: Vec::new(),
            expectations: Vec::new(),
            preparation: Default::default(),
            prebuilt: None,
        };
        let tests = crate::problem::find_tests(&tests_dir).unwrap();
        Fixture {
            dir,
            problem,
            solution,
            tests,
        }
    }

    fn judge(runner: &FakeRunner, fixture: &Fixture, options: JudgeOptions) -> Result<JudgeReport> {
        let toolchain =
            Toolchain::fixed(&[(Language::shipped("c"), "/nowhere/gcc", "gcc (fake) 1.0")]);
        let cache = Cache::new(fixture.dir.path().join("cache"));
        let judge = Judge::with_toolchain(runner, cache, options, toolchain);
        judge.judge(
            &fixture.problem,
            std::slice::from_ref(&fixture.solution),
            &fixture.tests,
            &mut |_| {},
        )
    }

    fn fake(wrong: &[&'static str], broken: &[&'static str]) -> FakeRunner {
        FakeRunner {
            wrong: wrong.to_vec(),
            broken: broken.to_vec(),
            started: Mutex::new(Vec::new()),
            log: Mutex::new(Vec::new()),
            waits_for_the_next: false,
        }
    }

    fn names(report: &JudgeReport) -> Vec<&str> {
        report.solutions[0]
            .tests
            .iter()
            .map(|t| t.name.as_str())
            .collect()
    }

    #[test]
    fn stops_at_the_first_failure_one_test_at_a_time() {
        let fixture = fixture();
        let runner = fake(&["3", "6"], &[]);
        let report = judge(&runner, &fixture, JudgeOptions::default()).unwrap();
        assert_eq!(names(&report), ["1", "2", "3"]);
        assert_eq!(report.solutions[0].verdict, Verdict::WrongAnswer);
        // Nothing after the failure was even started.
        assert_eq!(*runner.started.lock().unwrap(), ["1", "2", "3"]);
    }

    #[test]
    fn one_run_at_a_time_and_the_next_test_made_ready_meanwhile() {
        let fixture = fixture();
        let runner = FakeRunner {
            waits_for_the_next: true,
            ..fake(&[], &[])
        };
        let options = JudgeOptions {
            all_tests: true,
            ..JudgeOptions::default()
        };
        let report = judge(&runner, &fixture, options).unwrap();
        assert_eq!(names(&report), ["1", "2", "3", "4", "5", "6", "7", "8"]);
        let log = runner.log.lock().unwrap().clone();
        let mut going = 0;
        for event in &log {
            match event.split(' ').next() {
                Some("start") => going += 1,
                Some("end") => going -= 1,
                _ => {}
            }
            assert!(going <= 1, "two runs at once: {log:?}");
        }
        assert!(
            runner.logged("ready 2") < runner.logged("end 1"),
            "test 2 was not made ready while test 1 ran: {log:?}"
        );
        // And the tests take their turns in their order.
        let starts: Vec<&str> = log
            .iter()
            .filter_map(|e| e.strip_prefix("start "))
            .collect();
        assert_eq!(starts, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    }

    #[test]
    fn in_parallel_the_same_tests_count() {
        let fixture = fixture();
        let runner = fake(&["3", "6"], &[]);
        let options = JudgeOptions {
            all_tests: false,
            jobs: 4,
            partition: None,
            subset: false,
            per_test: true,
        };
        let report = judge(&runner, &fixture, options).unwrap();
        // Tests after the first failure may have run meanwhile, but they are not reported.
        assert_eq!(names(&report), ["1", "2", "3"]);
        assert_eq!(report.solutions[0].verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn all_tests_in_order_whatever_finishes_first() {
        let fixture = fixture();
        let runner = fake(&["3", "6"], &[]);
        let options = JudgeOptions {
            all_tests: true,
            jobs: 3,
            partition: None,
            subset: false,
            per_test: true,
        };
        let report = judge(&runner, &fixture, options).unwrap();
        assert_eq!(names(&report), ["1", "2", "3", "4", "5", "6", "7", "8"]);
        let verdicts: Vec<Verdict> = report.solutions[0]
            .tests
            .iter()
            .map(|t| t.verdict)
            .collect();
        assert_eq!(verdicts[2], Verdict::WrongAnswer);
        assert_eq!(verdicts[5], Verdict::WrongAnswer);
        assert_eq!(verdicts.iter().filter(|v| v.is_accepted()).count(), 6);
    }

    #[test]
    fn a_summary_keeps_only_the_results_it_is_made_of() {
        let fixture = fixture();
        let runner = fake(&["3", "6"], &[]);
        let options = JudgeOptions {
            all_tests: true,
            per_test: false,
            ..JudgeOptions::default()
        };
        let report = judge(&runner, &fixture, options).unwrap();
        // Every test ran; the first failure is kept, and the first of the equally slow and large tests.
        assert_eq!(runner.started.lock().unwrap().len(), 8);
        assert_eq!(names(&report), ["1", "3"]);
        let solution = &report.solutions[0];
        assert_eq!(solution.verdict, Verdict::WrongAnswer);
        assert_eq!(solution.failing_test().unwrap().name, "3");
        assert_eq!(solution.max_cpu(), Duration::from_millis(1));
        assert_eq!(solution.max_memory(), Bytes::mib(1));
    }

    #[test]
    fn a_summary_is_made_of_the_results_the_whole_report_shows() {
        let fixture = fixture();
        for all_tests in [false, true] {
            let report = |per_test| {
                let options = JudgeOptions {
                    all_tests,
                    jobs: 3,
                    per_test,
                    ..JudgeOptions::default()
                };
                judge(&fake(&["3", "6"], &[]), &fixture, options).unwrap()
            };
            let whole = report(true).solutions.remove(0);
            let summary = report(false).solutions.remove(0);
            let shown = |tests: Vec<TestResult>| -> Vec<String> {
                tests.iter().map(|t| format!("{t:?}")).collect()
            };
            assert_eq!(summary.verdict, whole.verdict);
            assert_eq!(shown(summary.tests), shown(notable(whole.tests)));
        }
    }

    #[test]
    fn only_a_program_run_as_it_is_surely_runs_whatever_was_kept() {
        let mut fixture = fixture();
        let solutions = [fixture.solution.clone()];
        assert!(!Judge::surely_runs(&solutions, &fixture.tests));
        fixture.solution.prebuilt = Some(crate::prebuilt::Prebuilt {
            argv: vec!["/bin/true".into()],
            readable: Vec::new(),
        });
        let prebuilt = [fixture.solution];
        assert!(Judge::surely_runs(&prebuilt, &fixture.tests));
        assert!(!Judge::surely_runs(&prebuilt, &[]));
    }

    #[test]
    fn a_run_that_cannot_be_carried_out_stops_everything() {
        let fixture = fixture();
        let runner = fake(&[], &["2"]);
        let options = JudgeOptions {
            all_tests: true,
            jobs: 1,
            partition: None,
            subset: false,
            per_test: true,
        };
        let error = judge(&runner, &fixture, options).unwrap_err();
        assert!(error.to_string().contains("no result"), "{error}");
        // Even with every test wanted, nothing is started after the failed run.
        assert_eq!(*runner.started.lock().unwrap(), ["1", "2"]);
    }
}

#[cfg(test)]
mod share_tests {
    use super::*;
    use crate::language::Language;

    fn expecting(expected: &[Verdict]) -> Solution {
        Solution {
            name: "s.c".into(),
            path: "s.c".into(),
            language: Language::shipped("c"),
            expected: expected.to_vec(),
            main: false,
            others: Vec::new(),
            expectations: Vec::new(),
            prebuilt: None,
            preparation: Default::default(),
        }
    }

    #[test]
    fn a_share_decides_only_what_no_other_share_can_change() {
        use Verdict::*;
        let reference = expecting(&[Accepted]);
        assert!(may_be_as_expected(&reference, Accepted));
        assert!(!may_be_as_expected(&reference, WrongAnswer));
        // Its TLE may be in another share, or an earlier WA there.
        let slow = expecting(&[TimeLimit]);
        assert!(may_be_as_expected(&slow, Accepted));
        assert!(may_be_as_expected(&slow, WrongAnswer));
        assert!(!may_be_as_expected(&slow, CompileError));
        let broken = expecting(&[CompileError]);
        assert!(may_be_as_expected(&broken, CompileError));
        assert!(!may_be_as_expected(&broken, Accepted));
    }
}
