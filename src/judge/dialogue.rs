//! The verdict of a test of an interactive problem, from what each side of the dialogue did, as Kattis and
//! DOMjudge give it.

use crate::check::CheckOutcome;
use crate::verdict::Verdict;

/// How the dialogue ended, as far as the verdict depends on it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ending {
    /// The interactor's output ended before the solution's.
    pub interactor_first: bool,
    /// The solution's input closed while the interactor's output was still open: what the interactor wrote from
    /// then on failed (as it does after a normal end too, when the interactor ends last).
    pub interactor_cut_off: bool,
    /// The interactor was killed by SIGPIPE: it wrote to the solution once it was cut off.
    pub interactor_sigpipe: bool,
    /// The solution was killed by SIGPIPE: it wrote to the interactor once the interactor had gone.
    pub solution_sigpipe: bool,
}

/// The verdict of the test: `failure` is the solution's own (a limit, a crash), if any; `said` the interactor's.
///
/// - An interactor that failed leaves the test unjudged (JE), whatever the solution did, unless it failed on a
///   broken pipe: it died by SIGPIPE, or it was cut off and says "broken pipe" (as an interactor that ignores
///   SIGPIPE does when its write fails with EPIPE). That follows from the solution's stop: a solution stopped for
///   a limit, or crashed, gets its own verdict, and one that ended well in the middle of the dialogue gets WA.
/// - An interactor that ended first and rejected gives WA, whatever the solution did afterwards (it may well
///   crash on the closed pipe); one that ended first and accepted gives AC to a solution that died only of
///   writing on to it (by SIGPIPE), as problemtools and BAPCtools judge it.
/// - Otherwise the solution's own failure, if any, and then the interactor's verdict.
pub(crate) fn verdict(
    failure: Option<(Verdict, String)>,
    said: CheckOutcome,
    ending: Ending,
) -> (Verdict, String) {
    if said.verdict == Verdict::JudgeError {
        // strerror(EPIPE) on Linux, in every language's report of it ("BrokenPipeError: [Errno 32] Broken pipe").
        let broken_pipe = ending.interactor_sigpipe
            || (ending.interactor_cut_off && said.message.to_lowercase().contains("broken pipe"));
        return match failure {
            Some(failure) if broken_pipe => failure,
            None if broken_pipe => (
                Verdict::WrongAnswer,
                "the solution ended while the interactor was still writing".to_owned(),
            ),
            _ => (said.verdict, said.message),
        };
    }
    match failure {
        Some(_) if ending.interactor_first && said.verdict == Verdict::WrongAnswer => {
            (said.verdict, said.message)
        }
        Some(_)
            if ending.interactor_first
                && ending.solution_sigpipe
                && said.verdict == Verdict::Accepted =>
        {
            (said.verdict, said.message)
        }
        Some(failure) => failure,
        None => (said.verdict, said.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_of_dialogues() {
        use Verdict::*;
        let judge_error = CheckOutcome {
            score: None,
            verdict: JudgeError,
            message: "the interactor was killed by SIGPIPE".into(),
        };
        let epipe = CheckOutcome {
            score: None,
            verdict: JudgeError,
            message: "the interactor exited with code 1: BrokenPipeError: [Errno 32] Broken pipe"
                .into(),
        };
        let own_failure = CheckOutcome {
            score: None,
            verdict: JudgeError,
            message: "the interactor exited with code 3: bad input".into(),
        };
        let rejected = CheckOutcome::wrong("wrong guess");
        let accepted = CheckOutcome {
            score: None,
            verdict: Accepted,
            message: String::new(),
        };
        let tle = Some((TimeLimit, "CPU time 1.02s over the 1s limit".to_owned()));
        let crashed = Some((RuntimeError, "killed by SIGSEGV".to_owned()));
        let sigpipe = Ending {
            interactor_cut_off: true,
            interactor_sigpipe: true,
            ..Ending::default()
        };
        let cut_off = Ending {
            interactor_cut_off: true,
            ..Ending::default()
        };
        let interactor_first = Ending {
            interactor_first: true,
            ..Ending::default()
        };
        let wrote_on = Ending {
            interactor_first: true,
            solution_sigpipe: true,
            ..Ending::default()
        };
        let pipe_crash = Some((RuntimeError, "killed by SIGPIPE".to_owned()));
        let cases = [
            // Stopped for time while the interactor wrote to it: the stop decides.
            (tle.clone(), &judge_error, sigpipe, TimeLimit),
            (tle.clone(), &epipe, cut_off, TimeLimit),
            (crashed.clone(), &judge_error, sigpipe, RuntimeError),
            // Left in the middle of the dialogue, having ended well.
            (None, &judge_error, sigpipe, WrongAnswer),
            (None, &epipe, cut_off, WrongAnswer),
            // An interactor that failed by itself, even after the solution's end.
            (tle.clone(), &own_failure, cut_off, JudgeError),
            (None, &own_failure, cut_off, JudgeError),
            (tle.clone(), &epipe, Ending::default(), JudgeError),
            (None, &own_failure, interactor_first, JudgeError),
            // The interactor rejected first, then the solution crashed on the closed pipe.
            (crashed.clone(), &rejected, interactor_first, WrongAnswer),
            (tle.clone(), &rejected, Ending::default(), TimeLimit),
            (None, &rejected, Ending::default(), WrongAnswer),
            (tle, &accepted, cut_off, TimeLimit),
            (None, &accepted, Ending::default(), Accepted),
            // The interactor accepted and ended, then the solution died writing on to it.
            (pipe_crash.clone(), &accepted, wrote_on, Accepted),
            (pipe_crash.clone(), &rejected, wrote_on, WrongAnswer),
            (pipe_crash, &accepted, interactor_first, RuntimeError),
            (crashed, &accepted, interactor_first, RuntimeError),
        ];
        for (failure, said, ending, want) in cases {
            let (got, _) = verdict(failure.clone(), said.clone(), ending);
            assert_eq!(got, want, "{failure:?}, {said:?}, {ending:?}");
        }
    }
}
