//! One solution on one test: a fresh folder, the run under limits (or, for an interactive problem, the dialogue
//! with the interactor), the verdict; or, for a static validation test case, the static validator's verdict on the
//! solution's files.

use super::classify::classify;
use super::dialogue;
use super::outcome::{TestResult, TestTexts};
use super::relay::{Pipes, Side};
use super::run_folder::RunFolder;
use crate::check::{self, CheckOutcome, Checker, StaticValidator, Submitted, ValidatorScore};
use crate::compile::{Compiled, Program};
use crate::error::{Error, Result};
use crate::problem::{Comparison, ProblemLimits, Protocol, Test, TestKind};
use crate::runs;
use crate::sandbox::{Runner, Termination};
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The program's output, in the folder of its run.
pub(crate) const OUTPUT: &str = "output";

/// The program's working directory, in the folder of its run: the name a worker holds a solution's run at.
pub(super) const WORKDIR: &str = crate::sandbox::HELD_WORKDIR;

/// How a program is run and judged on any test of one problem.
pub(crate) struct TestRunner<'a> {
    pub runner: &'a dyn Runner,
    pub limits: ProblemLimits,
    pub comparison: &'a Comparison,
    pub checker: Option<&'a Checker>,
    /// The package's static validator, which judges its groups' static validation test cases.
    pub static_validator: Option<&'a StaticValidator>,
    /// The CPU time runs may go on to past the limit: for a package's submission expected TLE, the TLE margin, so
    /// that a run over the limit that would pass at the margin is told from one that would not. Either is TLE; the
    /// first is noted as sensitive to the time limit. None: runs stop at the limit.
    pub margin: Option<Duration>,
}

/// Where one run of a program on a test happens.
pub(super) struct Places {
    /// The program's working directory, made fresh for the run.
    pub workdir: PathBuf,
    /// Where its output goes.
    pub output: PathBuf,
    /// The checker's or interactor's working directory, holding its feedback folder: made if it is not there, and
    /// kept from one pass of a multi-pass problem to the next.
    pub judge: PathBuf,
}

impl Places {
    /// The places of a test's first run, in `dir`: `box`, `output`, and `checker` (or `interactor`).
    pub fn first(dir: &Path, interactive: bool) -> Places {
        Places {
            workdir: dir.join(WORKDIR),
            output: dir.join(OUTPUT),
            judge: dir.join(if interactive { "interactor" } else { "checker" }),
        }
    }
}

/// What one run of a program on a test came to.
pub(super) struct Ran {
    pub result: TestResult,
    /// What the checker or interactor said of it by itself, if it ran: its exit code's verdict and its message.
    pub said: Option<CheckOutcome>,
    /// For an interactive problem, the dialogue (see [`TestResult::dialogue`]), kept whatever the verdict.
    pub dialogue: Option<String>,
    /// Whether the run was kept out of its folder (see `RunResult::kept_out`).
    pub kept_out: bool,
}

impl TestRunner<'_> {
    /// Judges a submission, run as `program` from its build `build`, on `test`: runs it on the test's input, or
    /// for a static validation test case has the static validator judge its files.
    pub fn judge(&self, program: &Program, build: &Compiled, test: &Test) -> Result<TestResult> {
        match &test.kind() {
            TestKind::Output => self.run(program, test),
            TestKind::Static(case) => self.judge_files(build, test, &case.args),
        }
    }

    /// A static validation test case: the static validator on the files of the build `build`, in a folder of its
    /// own, given `args`. The submission does not run.
    fn judge_files(&self, build: &Compiled, test: &Test, args: &[String]) -> Result<TestResult> {
        let Some(validator) = self.static_validator else {
            return Err(Error::Usage(format!(
                "{} is a static validation test case, and there is no static validator to judge it",
                test.name
            )));
        };
        if build.is_prebuilt() {
            return Err(Error::Usage(format!(
                "{} is a static validation test case, which judges a submission's source files: a program run as \
                 it is has none",
                test.name
            )));
        }
        let dir = crate::scratch::folder("static")
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        let submitted = Submitted {
            files: &build.dir,
            language: build.language.code(),
            entry_point: build.entry_point(),
        };
        let judged = validator.judge(self.runner, dir.path(), &submitted, args)?;
        let mut result = TestResult::without_run(test);
        result.verdict = judged.said.verdict;
        result.message = judged.said.message;
        keep_score(&mut result, judged.score);
        Ok(result)
    }

    pub fn run(&self, program: &Program, test: &Test) -> Result<TestResult> {
        // Compared by the judge alone, a test's run leaves nothing but its output, and its folder is kept for the
        // next.
        if self.checker.is_none() {
            let folder = RunFolder::take()?;
            let ran = self.run_made(&Places::first(folder.path(), false), program, test);
            folder.give_back(ran.as_ref().is_ok_and(|ran| ran.kept_out));
            return ran.map(|ran| ran.result);
        }
        let dir = crate::scratch::folder("run")
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        self.run_in(dir.path(), program, test)
    }

    /// Runs in `dir`, a fresh empty folder, where the program's output is left as `output` (the last pass's, in a
    /// multi-pass problem).
    pub fn run_in(&self, dir: &Path, program: &Program, test: &Test) -> Result<TestResult> {
        let interactive = self.checker.is_some_and(|c| c.interactive);
        if let Some(most) = self.checker.and_then(|c| c.passes) {
            return super::passes::judge(self, dir, program, test, most, interactive);
        }
        let ran = self.pass(&Places::first(dir, interactive), program, test)?;
        let mut result = ran.result;
        if !result.verdict.is_accepted() {
            result.dialogue = ran.dialogue;
        }
        Ok(result)
    }

    /// One run of `program` on `test`, judged: the whole test, but in a multi-pass problem, where it is one pass.
    pub(super) fn pass(&self, places: &Places, program: &Program, test: &Test) -> Result<Ran> {
        // The program's working directory starts empty.
        std::fs::create_dir(&places.workdir)
            .map_err(|e| Error::io("create", &places.workdir, e))?;
        self.run_made(places, program, test)
    }

    /// As [`TestRunner::pass`], in places whose working directory is there already, empty.
    fn run_made(&self, places: &Places, program: &Program, test: &Test) -> Result<Ran> {
        // The program reads the test's input itself: the sandbox sees to it that nothing it does can change it.
        let room = self.room();
        let spec = runs::solution(
            program,
            &self.limits,
            room.time,
            &places.workdir,
            &test.input(),
            &places.output,
        );
        if let Some(interactor) = self.checker.filter(|c| c.interactive) {
            return self.talk(places, &spec, interactor, test);
        }
        let run = self.runner.run(&spec)?;
        let mut result = TestResult::new(test, &run);
        let mut said = None;
        // Judged as it ran, under the margin; at the limit, only a TLE can differ.
        if let Some((verdict, message)) = classify(&run, &room) {
            result.verdict = verdict;
            result.message = message;
        } else if !run.kept_out && !plain_file(&places.output) {
            // Without the layers a run can put something else in its output's place: a FIFO that reading it would
            // wait on for ever, a link. Every process of the run is gone, so nothing can put it back.
            result.verdict = Verdict::WrongAnswer;
            result.message = "its output file was replaced by something that is not a file".into();
        } else {
            let checked = self.check(&places.judge, test, &places.output)?;
            result.verdict = checked.verdict;
            result.message = checked.message.clone();
            if let Some(checker) = self.checker {
                take_score(&mut result, checker, &places.judge);
            }
            if checked.score.is_some() {
                result.validator_score = checked.score;
            }
            if checked.verdict == Verdict::WrongAnswer {
                if self.checker.is_none() {
                    result.diff = check::first_difference(&places.output, &test.answer());
                }
                result.texts = TestTexts::read(&test.input(), &test.answer(), &places.output);
            }
            said = Some(checked);
        }
        if let Some(over) = classify(&run, &self.limits) {
            hold_to_limit(&mut result, over);
        }
        Ok(Ran {
            result,
            said,
            dialogue: None,
            kept_out: run.kept_out,
        })
    }

    /// The limits runs are made under: the problem's, with the CPU time up to the margin.
    fn room(&self) -> ProblemLimits {
        ProblemLimits {
            time: self
                .margin
                .map_or(self.limits.time, |m| m.max(self.limits.time)),
            ..self.limits
        }
    }

    /// The output judged, by the checker working in `workdir` (made if it is not there) if the problem has one.
    pub(crate) fn check(&self, workdir: &Path, test: &Test, output: &Path) -> Result<CheckOutcome> {
        let compared = match (self.checker, self.comparison) {
            (Some(checker), _) => {
                made(workdir)?;
                return checker.check(
                    self.runner,
                    workdir,
                    &test.input(),
                    output,
                    &test.answer(),
                    &test.flags().output,
                );
            }
            (None, Comparison::PackageDefault) => {
                check::package_default::compare(output, &test.answer(), &test.flags().output)
            }
            (None, comparison) => check::compare(comparison, output, &test.answer()),
        };
        compared.map_err(|e| Error::io("compare the output with", test.answer(), e))
    }

    /// The solution and the interactor at once, the judge passing on what each says to the other; the verdict as
    /// [`dialogue::verdict`] decides it.
    fn talk(
        &self,
        places: &Places,
        spec: &crate::sandbox::RunSpec,
        interactor: &Checker,
        test: &Test,
    ) -> Result<Ran> {
        let workdir = &places.judge;
        made(workdir)?;
        let feedback = match interactor.protocol {
            Protocol::Package => Some(check::feedback_dir(workdir)?),
            Protocol::Cpjudge => None,
        };
        let interactor_spec = runs::interactor(
            &interactor.program,
            &interactor.limits,
            workdir,
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
            workdir,
            Path::new(check::FEEDBACK),
            "interactor",
            &interactor_spec.limits,
        );
        let ending = dialogue::Ending {
            interactor_first: relayed.first_to_end == Some(Side::Interactor),
            interactor_cut_off: relayed.cut_off[Side::Interactor as usize],
            // A shell that runs the interactor (a `run` script) reports its death by SIGPIPE as exit code 141.
            interactor_sigpipe: matches!(
                interactor_run.termination,
                Termination::Signaled(libc::SIGPIPE) | Termination::Exited(141)
            ),
            solution_sigpipe: solution.termination == Termination::Signaled(libc::SIGPIPE),
        };
        let mut result = TestResult::new(test, &solution);
        let (verdict, message) =
            dialogue::verdict(classify(&solution, &self.room()), said.clone(), ending);
        result.verdict = verdict;
        result.message = message;
        take_score(&mut result, interactor, workdir);
        // Points given as testlib's `quitp` gives them, as a checker's are: the test's score, if it stands accepted.
        if said.score.is_some() && result.verdict.is_accepted() {
            result.validator_score = said.score;
        }
        hold_to_limit(
            &mut result,
            dialogue::verdict(classify(&solution, &self.limits), said.clone(), ending),
        );
        Ok(Ran {
            result,
            said: Some(said),
            dialogue: Some(relayed.transcript.replay()),
            kept_out: false,
        })
    }
}

/// Makes the folder `path`, unless an earlier pass of the test made it.
fn made(path: &Path) -> Result<()> {
    match std::fs::create_dir(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            Err(Error::io("create", path, e))
        }
        _ => Ok(()),
    }
}

/// Keeps the score a package's output validator left in `workdir`.
fn take_score(result: &mut TestResult, checker: &Checker, workdir: &Path) {
    if checker.protocol != Protocol::Package {
        return;
    }
    let score = check::validator_score(workdir, Path::new(check::FEEDBACK), "output validator");
    keep_score(result, score);
}

/// Keeps the score a validator wrote; score files it got wrong make an accepted test a judge error.
fn keep_score(result: &mut TestResult, score: std::result::Result<Option<ValidatorScore>, String>) {
    match score {
        Ok(score) => result.validator_score = score,
        Err(why) if result.verdict.is_accepted() => {
            result.verdict = Verdict::JudgeError;
            result.message = why;
        }
        Err(_) => {}
    }
}

/// A run over the time limit is TLE, even when it ended within the margin it ran under: `result` is its verdict
/// there, and `at_limit` its verdict at the limit. Where that is TLE and the other is not, the verdict at the
/// margin is kept as a note.
pub(super) fn hold_to_limit(result: &mut TestResult, at_limit: (Verdict, String)) {
    let (verdict, message) = at_limit;
    if verdict != Verdict::TimeLimit || result.verdict == Verdict::TimeLimit {
        return;
    }
    result.at_margin = Some(result.verdict);
    result.verdict = verdict;
    result.message = message;
    result.diff = None;
    result.texts = None;
}

/// Whether `path` is a regular file, not followed if it is a link.
fn plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::RunResult;
    use crate::units::Bytes;

    #[test]
    fn a_run_over_the_limit_is_tle_whatever_it_got_at_the_margin() {
        use Verdict::*;
        let run = RunResult {
            termination: Termination::Exited(0),
            cpu: Duration::from_millis(1730),
            wall: Duration::from_millis(1740),
            peak_memory: Bytes::mib(1),
            stdout_bytes: 2,
            stderr: Vec::new(),
            stderr_bytes: 0,
            killed_for: None,
            kept_out: false,
        };
        let test = Test {
            name: "1".into(),
            files: crate::problem::Files::at(Path::new("1.in"), std::path::PathBuf::from("1.ans")),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        };
        let tle = || (TimeLimit, "CPU time 1.73s over the 1s limit".to_owned());
        // (verdict at the margin, verdict at the limit) -> (verdict, noted verdict at the margin)
        let cases = [
            (Accepted, tle(), TimeLimit, Some(Accepted)),
            (WrongAnswer, tle(), TimeLimit, Some(WrongAnswer)),
            (RuntimeError, tle(), TimeLimit, Some(RuntimeError)),
            (TimeLimit, tle(), TimeLimit, None),
            (MemoryLimit, (MemoryLimit, String::new()), MemoryLimit, None),
            (WrongAnswer, (WrongAnswer, String::new()), WrongAnswer, None),
        ];
        for (at_margin, at_limit, want, noted) in cases {
            let mut result = TestResult::new(&test, &run);
            result.verdict = at_margin;
            hold_to_limit(&mut result, at_limit);
            assert_eq!(
                (result.verdict, result.at_margin),
                (want, noted),
                "{at_margin:?}"
            );
        }
    }
}
