//! A test's result as a solution's judge holds it until the solution is scored. Where the reports show each test,
//! the result itself; where they show only the solution's summary (`-q` alone), a test passed with nothing to say
//! is held as its figures alone, 16 bytes, a thirteenth of a result's size: the judge of many tests holds one for
//! every test.
//! Of a kept run's trace (see `judge::records`) it holds only whether the run was taken from an earlier judge,
//! which the summary counts: its key and digests are shown by the reports that show each test, and nowhere else.

use super::outcome::{RunTrace, TestResult};
use crate::problem::Test;
use crate::scoring::TestScore;
use crate::units::Bytes;
use crate::verdict::Verdict;
use std::time::Duration;

/// What the scoring of a solution reads of a test's result, and writes into it.
pub(crate) trait Held {
    fn verdict(&self) -> Verdict;
    fn test_score(&self) -> TestScore;
    /// The result of the test, made a judge error because of `why`.
    fn judge_error(&mut self, why: &str);
    /// The test's score, in a group that scores its tests.
    fn set_score(&mut self, score: Option<f64>);
}

impl Held for TestResult {
    fn verdict(&self) -> Verdict {
        self.verdict
    }

    fn test_score(&self) -> TestScore {
        TestScore {
            verdict: self.verdict,
            validator: self.validator_score,
        }
    }

    fn judge_error(&mut self, why: &str) {
        self.verdict = Verdict::JudgeError;
        self.message = why.to_owned();
    }

    fn set_score(&mut self, score: Option<f64>) {
        self.score = score;
    }
}

/// A result held for a summary: whole, or, for a test passed with nothing to say, its figures. Neither holds the
/// test's name or input, which [`Brief::result`] gives back from the test.
pub(crate) enum Brief {
    Whole(Box<TestResult>),
    Passed(Figures),
}

/// A run's figures, in 16 bytes, each exact: the times in nanoseconds up to 4.29 s (a `Duration` takes 16 bytes),
/// the memory in KiB up to 4 TiB, the passes up to 65,535; whether it was taken from an earlier judge, where runs
/// are kept. A run whose figures do not fit is held whole.
#[derive(Clone, Copy)]
pub(crate) struct Figures {
    cpu: u32,
    wall: u32,
    memory_kib: u32,
    passes: u16,
    reused: Option<bool>,
}

impl Figures {
    /// The figures of `result`, if each fits.
    fn of(result: &TestResult) -> Option<Figures> {
        let nanos = |time: Duration| u32::try_from(time.as_nanos()).ok();
        let memory = result.memory.0;
        Some(Figures {
            cpu: nanos(result.cpu)?,
            wall: nanos(result.wall)?,
            memory_kib: u32::try_from(memory / Bytes::KIB)
                .ok()
                .filter(|_| memory.is_multiple_of(Bytes::KIB))?,
            passes: u16::try_from(result.passes).ok()?,
            reused: result.trace.as_ref().map(|trace| trace.reused),
        })
    }

    fn memory(self) -> Bytes {
        Bytes(u64::from(self.memory_kib) * Bytes::KIB)
    }

    /// A result of an accepted run with these figures, on `test`.
    fn result(self, test: &Test) -> TestResult {
        TestResult {
            cpu: Duration::from_nanos(self.cpu.into()),
            wall: Duration::from_nanos(self.wall.into()),
            memory: self.memory(),
            passes: self.passes.into(),
            trace: self.reused.map(|reused| {
                Box::new(RunTrace {
                    key: String::new(),
                    input: String::new(),
                    answer: String::new(),
                    reused,
                })
            }),
            ..TestResult::without_run(test)
        }
    }
}

impl Brief {
    /// `result`, held for a summary.
    pub(crate) fn of(mut result: TestResult) -> Brief {
        let plain = result.verdict == Verdict::Accepted
            && result.message.is_empty()
            && result.diff.is_none()
            && result.texts.is_none()
            && result.dialogue.is_none()
            && result.at_margin.is_none()
            && result.validator_score.is_none()
            && result.score.is_none();
        if let Some(figures) = Figures::of(&result).filter(|_| plain) {
            return Brief::Passed(figures);
        }
        result.name = String::new();
        Brief::Whole(Box::new(result))
    }

    /// The CPU time of the run.
    pub(crate) fn cpu(&self) -> Duration {
        match self {
            Brief::Whole(result) => result.cpu,
            Brief::Passed(figures) => Duration::from_nanos(figures.cpu.into()),
        }
    }

    /// The memory the run used.
    pub(crate) fn memory(&self) -> Bytes {
        match self {
            Brief::Whole(result) => result.memory,
            Brief::Passed(figures) => figures.memory(),
        }
    }

    /// Whether the run was over the time limit and would have ended otherwise with the TLE margin as its limit.
    pub(crate) fn at_margin(&self) -> bool {
        matches!(self, Brief::Whole(result) if result.at_margin.is_some())
    }

    /// The result of `test`, as it was judged.
    pub(crate) fn result(self, test: &Test) -> TestResult {
        match self {
            Brief::Whole(result) => TestResult {
                name: test.name.to_string(),
                input: test.input().into(),
                ..*result
            },
            Brief::Passed(figures) => figures.result(test),
        }
    }

    /// The result whole, to be written into: its test's name and input are given back by [`Brief::result`].
    fn whole(&mut self) -> &mut TestResult {
        if let Brief::Passed(figures) = *self {
            let nameless = Test {
                name: Default::default(),
                files: crate::problem::Files::at(
                    std::path::Path::new(""),
                    std::path::PathBuf::new(),
                ),
                judging: crate::problem::Judging::new(Default::default(), Default::default()),
            };
            *self = Brief::Whole(Box::new(figures.result(&nameless)));
        }
        match self {
            Brief::Whole(result) => result,
            Brief::Passed(_) => unreachable!("made whole above"),
        }
    }
}

impl Held for Brief {
    fn verdict(&self) -> Verdict {
        match self {
            Brief::Whole(result) => result.verdict,
            Brief::Passed(_) => Verdict::Accepted,
        }
    }

    fn test_score(&self) -> TestScore {
        match self {
            Brief::Whole(result) => result.test_score(),
            Brief::Passed(_) => TestScore {
                verdict: Verdict::Accepted,
                validator: None,
            },
        }
    }

    fn judge_error(&mut self, why: &str) {
        self.whole().judge_error(why);
    }

    fn set_score(&mut self, score: Option<f64>) {
        if score.is_some() || matches!(self, Brief::Whole(_)) {
            self.whole().set_score(score);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test() -> Test {
        Test {
            name: "group/7".into(),
            files: crate::problem::Files::at(
                std::path::Path::new("/tests/group/7.in"),
                std::path::PathBuf::from("/tests/group/7.ans"),
            ),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        }
    }

    fn passed(test: &Test) -> TestResult {
        TestResult {
            cpu: Duration::new(1, 234_567_891),
            wall: Duration::new(2, 5),
            memory: Bytes(12_345 * Bytes::KIB),
            passes: 2,
            ..TestResult::without_run(test)
        }
    }

    fn same(a: &TestResult, b: &TestResult) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn a_test_passed_with_nothing_to_say_is_held_as_its_figures() {
        let test = test();
        let brief = Brief::of(passed(&test));
        assert!(matches!(brief, Brief::Passed(_)));
        assert_eq!(brief.cpu(), Duration::new(1, 234_567_891));
        assert_eq!(brief.memory(), Bytes(12_345 * Bytes::KIB));
        same(&brief.result(&test), &passed(&test));
        assert_eq!(std::mem::size_of::<Brief>(), 16);
    }

    #[test]
    fn a_passed_test_whose_figures_do_not_fit_is_held_whole() {
        let test = test();
        let long = Duration::from_secs(5);
        let unfit = [
            TestResult {
                cpu: long,
                ..passed(&test)
            },
            TestResult {
                wall: long,
                ..passed(&test)
            },
            TestResult {
                memory: Bytes(12_345_678),
                ..passed(&test)
            },
            TestResult {
                memory: Bytes(5 << 40),
                ..passed(&test)
            },
            TestResult {
                passes: 70_000,
                ..passed(&test)
            },
        ];
        for result in unfit {
            let brief = Brief::of(result.clone());
            assert!(matches!(brief, Brief::Whole(_)), "{result:?}");
            same(&brief.result(&test), &result);
        }
    }

    #[test]
    fn of_a_kept_run_a_passed_test_holds_only_whether_it_was_reused() {
        let test = test();
        for reused in [false, true] {
            let trace = RunTrace {
                key: "key".into(),
                input: "input digest".into(),
                answer: "answer digest".into(),
                reused,
            };
            let kept = TestResult {
                trace: Some(Box::new(trace)),
                ..passed(&test)
            };
            let brief = Brief::of(kept);
            assert!(matches!(brief, Brief::Passed(_)));
            let given = brief.result(&test);
            assert_eq!(given.trace.map(|t| t.reused), Some(reused));
            same(
                &TestResult {
                    trace: None,
                    ..given
                },
                &passed(&test),
            );
        }
    }

    #[test]
    fn any_other_result_is_held_whole_and_given_back_as_it_was() {
        let test = test();
        let failed = TestResult {
            verdict: Verdict::WrongAnswer,
            message: "wrong answer on line 1".into(),
            ..passed(&test)
        };
        let margin = TestResult {
            verdict: Verdict::TimeLimit,
            at_margin: Some(Verdict::Accepted),
            ..passed(&test)
        };
        let scored = TestResult {
            score: Some(0.5),
            ..passed(&test)
        };
        for result in [failed, margin, scored] {
            let brief = Brief::of(result.clone());
            assert!(matches!(brief, Brief::Whole(_)));
            assert_eq!(brief.at_margin(), result.at_margin.is_some());
            same(&brief.result(&test), &result);
        }
    }

    #[test]
    fn scoring_writes_into_a_brief_as_into_the_result() {
        let test = test();
        let mut whole = passed(&test);
        let mut brief = Brief::of(whole.clone());
        brief.set_score(None);
        assert!(matches!(brief, Brief::Passed(_)));
        brief.set_score(Some(3.0));
        whole.set_score(Some(3.0));
        brief.judge_error("the validator's score is over the group's");
        whole.judge_error("the validator's score is over the group's");
        same(&brief.result(&test), &whole);
    }
}
