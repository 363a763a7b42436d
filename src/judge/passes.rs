//! Multi-pass problems: the submission runs on the test, then again on each input its output validator writes as
//! `nextpass.in` in its feedback folder (having accepted, exit code 42), up to `limits.validation_passes` runs;
//! the test's verdict is its last pass's. Interactive or not, each pass is a run as any other test's
//! (`TestRunner::pass`), the validator reading that pass's input as its `input_file`, as problemtools, DOMjudge and
//! BAPCtools give it.
//!
//! Between passes the feedback folder is kept (a validator keeps its state there), less `nextpass.in`; the rest of
//! the validator's working folder is cleared, and the submission gets a fresh one, so that it carries nothing over
//! but what the validator hands it. It is a judge error to write `nextpass.in` and exit with another code than 42,
//! or to ask for more passes than the limit.
//!
//! Time and memory limits apply to each pass alone, as the format says. The test's CPU time, wall time and memory
//! are its largest pass's, as problemtools and BAPCtools report them: a time limit derived from the accepted
//! submissions' times then bounds each pass, which is what it limits.

use super::outcome::TestResult;
use super::run_test::{Places, TestRunner, hold_to_limit};
use crate::check::{CheckOutcome, FEEDBACK};
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::problem::{Files, TEST_FILE_LIMIT, Test};
use crate::units::Bytes;
use crate::verdict::Verdict;
use std::io::Read;
use std::path::Path;

/// The file, in the feedback folder, that asks for another pass and holds its input.
const NEXT_PASS: &str = "nextpass.in";

/// Judges `program` on `test` in as many passes as its validator asks for, at most `most`, in `dir` (fresh and
/// empty).
pub(super) fn judge(
    runner: &TestRunner,
    dir: &Path,
    program: &Program,
    test: &Test,
    most: u32,
    interactive: bool,
) -> Result<TestResult> {
    let mut places = Places::first(dir, interactive);
    let mut this = test.clone();
    let mut largest = Largest::default();
    let mut dialogues = Vec::new();
    // The message of the first pass over the time limit that ran on under the TLE margin: the test is TLE, whatever
    // the passes after it do at the margin.
    let mut over_limit = None;
    let mut pass = 1;
    let (mut result, broken) = loop {
        let ran = runner.pass(&places, program, &this)?;
        let result = ran.result;
        largest.take(&result);
        dialogues.extend(ran.dialogue);
        if result.verdict == Verdict::TimeLimit && result.at_margin.is_some() {
            over_limit.get_or_insert_with(|| result.message.clone());
        }
        let at_margin = result.at_margin.unwrap_or(result.verdict);
        let asked = asked(&places.judge);
        match after_pass(pass, most, at_margin, ran.said.as_ref(), &asked) {
            Next::Stop => break (result, None),
            Next::Broken(why) => break (result, Some(why)),
            Next::Pass => {}
        }
        let Asked::Written(written) = asked else {
            unreachable!("another pass is run only on an input written")
        };
        pass += 1;
        let folder = dir.join(format!("pass-{pass}"));
        std::fs::create_dir(&folder).map_err(|e| Error::io("create", &folder, e))?;
        // The answer stays the test's, wherever the next input is.
        this.files = Files::at(folder.join("input"), this.answer().into_owned());
        if let Err(why) = copy_bounded(written, &this.input(), TEST_FILE_LIMIT)? {
            break (result, Some(why));
        }
        if let Err(why) = clear_for_next_pass(&places.judge) {
            break (result, Some(why));
        }
        places = Places {
            workdir: folder.join("box"),
            output: folder.join(super::OUTPUT),
            judge: places.judge,
        };
    };
    result.cpu = largest.cpu;
    result.wall = largest.wall;
    result.memory = largest.memory;
    result.passes = pass;
    result.input = test.input().into();
    if pass > 1 && places.output.exists() {
        let last = dir.join(super::OUTPUT);
        std::fs::rename(&places.output, &last).map_err(|e| Error::io("keep", &last, e))?;
    }
    if let Some(why) = broken {
        result.verdict = Verdict::JudgeError;
        result.message = why;
        result.diff = None;
        result.texts = None;
        result.at_margin = None;
    } else {
        if pass > 1 && !result.verdict.is_accepted() {
            result.message = format!("pass {pass}: {}", result.message);
        }
        if let Some(message) = over_limit {
            hold_to_limit(&mut result, (Verdict::TimeLimit, message));
        }
    }
    if interactive && !result.verdict.is_accepted() {
        // As a sample's `.interaction` file shows passes.
        result.dialogue = Some(dialogues.join("---\n"));
    }
    Ok(result)
}

/// The largest of each measure over the passes.
#[derive(Default)]
struct Largest {
    cpu: std::time::Duration,
    wall: std::time::Duration,
    memory: Bytes,
}

impl Largest {
    fn take(&mut self, result: &TestResult) {
        self.cpu = self.cpu.max(result.cpu);
        self.wall = self.wall.max(result.wall);
        self.memory = self.memory.max(result.memory);
    }
}

/// What the validator left in its feedback folder for a next pass.
enum Asked {
    Nothing,
    /// `nextpass.in`, opened.
    Written(std::fs::File),
    /// Something named `nextpass.in` that is no file to read (a link, a FIFO, a folder), or a feedback folder that
    /// is no longer one: why.
    Unreadable(String),
}

/// Looks for `nextpass.in` in the feedback folder of `judge`, the validator's working folder: the validator could
/// write there, so it is opened as every such file is (see `crate::untrusted`).
fn asked(judge: &Path) -> Asked {
    match crate::untrusted::open(judge, &Path::new(FEEDBACK).join(NEXT_PASS)) {
        Ok(file) => Asked::Written(file),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Asked::Nothing,
        Err(e) => Asked::Unreadable(e.to_string()),
    }
}

/// What follows a pass.
#[derive(Debug, PartialEq)]
enum Next {
    /// The test's verdict is this pass's.
    Stop,
    /// Another pass, on the input the validator wrote.
    Pass,
    /// The validator broke the protocol: a judge error, saying how.
    Broken(String),
}

/// What follows pass `pass` of at most `most`, whose verdict (at the margin it ran under) is `verdict`, of which the
/// validator said `said` (None if it did not run), and left `asked` for a next pass.
fn after_pass(
    pass: u32,
    most: u32,
    verdict: Verdict,
    said: Option<&CheckOutcome>,
    asked: &Asked,
) -> Next {
    if matches!(asked, Asked::Nothing) {
        return Next::Stop;
    }
    if let Some(said) = said.filter(|s| s.verdict != Verdict::Accepted) {
        let how = match said.verdict {
            Verdict::WrongAnswer => "rejected the output (exit code 43)".to_owned(),
            _ => said.message.clone(),
        };
        return Next::Broken(format!(
            "the output validator wrote {NEXT_PASS} yet did not accept (exit code 42 asks for the next pass): {how}"
        ));
    }
    if verdict != Verdict::Accepted {
        return Next::Stop;
    }
    if let Asked::Unreadable(why) = asked {
        return Next::Broken(format!(
            "the output validator's {NEXT_PASS} cannot be the next pass's input: {why}"
        ));
    }
    if pass >= most {
        return Next::Broken(format!(
            "the output validator asked for a pass {} ({NEXT_PASS} after pass {pass}), and \
             limits.validation_passes allows {most}",
            pass + 1
        ));
    }
    Next::Pass
}

/// Copies `from` to `to`, up to `limit` (the most a test's file may hold); the error of the test (a judge error), if
/// it holds more.
fn copy_bounded(
    from: std::fs::File,
    to: &Path,
    limit: Bytes,
) -> Result<std::result::Result<(), String>> {
    let mut file = std::fs::File::create(to).map_err(|e| Error::io("create", to, e))?;
    let copied = std::io::copy(&mut from.take(limit.0 + 1), &mut file)
        .map_err(|e| Error::io("write", to, e))?;
    if copied > limit.0 {
        return Ok(Err(format!(
            "the output validator's {NEXT_PASS} holds more than the {limit} a test's input may"
        )));
    }
    Ok(Ok(()))
}

/// Clears the validator's working folder `judge` for the next pass, all but its feedback folder, which loses
/// `nextpass.in` alone. The validator has ended (the sandbox ends every process of a run), so nothing changes the
/// folder meanwhile; `nextpass.in` was just opened through real folders alone, so its path holds no link. What
/// cannot be removed (a folder the validator made unwritable) is the validator's doing: the test's judge error.
fn clear_for_next_pass(judge: &Path) -> std::result::Result<(), String> {
    let failed = |path: &Path, e: std::io::Error| {
        format!(
            "the output validator's working folder cannot be cleared for the next pass: {}: {e}",
            path.display()
        )
    };
    let next = judge.join(FEEDBACK).join(NEXT_PASS);
    std::fs::remove_file(&next).map_err(|e| failed(&next, e))?;
    for entry in std::fs::read_dir(judge).map_err(|e| failed(judge, e))? {
        let entry = entry.map_err(|e| failed(judge, e))?;
        if entry.file_name() == FEEDBACK {
            continue;
        }
        let path = entry.path();
        // Not followed: a link is removed itself, and a folder with what it holds (std's removal follows no link).
        let removed = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
        removed.map_err(|e| failed(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_follows_a_pass() {
        use Verdict::*;
        let accepted = CheckOutcome::accepted();
        let rejected = CheckOutcome::wrong("pass 2: expected 12");
        let crashed = CheckOutcome {
            score: None,
            verdict: JudgeError,
            message: "the output validator ended with exit code 1: Traceback".into(),
        };
        let written = || Asked::Written(tempfile::tempfile().unwrap());
        let link = || Asked::Unreadable("feedback/nextpass.in is a symbolic link".into());
        let broken = |said: &str| Next::Broken(said.to_owned());
        let cases = [
            // No nextpass.in: the pass's verdict is the test's.
            (1, 2, Accepted, Some(&accepted), Asked::Nothing, Next::Stop),
            (
                1,
                2,
                WrongAnswer,
                Some(&rejected),
                Asked::Nothing,
                Next::Stop,
            ),
            (2, 2, Accepted, Some(&accepted), Asked::Nothing, Next::Stop),
            (1, 2, TimeLimit, None, Asked::Nothing, Next::Stop),
            // Accepted, with an input for the next pass.
            (1, 2, Accepted, Some(&accepted), written(), Next::Pass),
            (25, 26, Accepted, Some(&accepted), written(), Next::Pass),
            // Accepted, but the submission failed by itself (a dialogue's solution that went on past its limit).
            (1, 2, TimeLimit, Some(&accepted), written(), Next::Stop),
            // Asked for one pass too many.
            (
                2,
                2,
                Accepted,
                Some(&accepted),
                written(),
                broken(
                    "asked for a pass 3 (nextpass.in after pass 2), and limits.validation_passes allows 2",
                ),
            ),
            // Wrote nextpass.in and exited otherwise than with 42, whatever the submission did.
            (
                1,
                2,
                WrongAnswer,
                Some(&rejected),
                written(),
                broken(
                    "wrote nextpass.in yet did not accept (exit code 42 asks for the next pass): rejected",
                ),
            ),
            (
                1,
                2,
                RuntimeError,
                Some(&crashed),
                link(),
                broken(
                    "did not accept (exit code 42 asks for the next pass): the output validator ended with exit code 1",
                ),
            ),
            (
                1,
                2,
                Accepted,
                Some(&accepted),
                link(),
                broken("cannot be the next pass's input: feedback/nextpass.in is a symbolic link"),
            ),
        ];
        for (pass, most, verdict, said, asked, want) in cases {
            let got = after_pass(pass, most, verdict, said, &asked);
            match (&got, &want) {
                (Next::Broken(got), Next::Broken(want)) => {
                    assert!(got.contains(want.as_str()), "pass {pass}: {got}")
                }
                _ => assert_eq!(got, want, "pass {pass} of {most}, {verdict:?}, {said:?}"),
            }
        }
    }

    #[test]
    fn an_input_over_the_limit_is_not_copied_whole() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("nextpass.in");
        std::fs::write(&from, "7\n").unwrap();
        let to = dir.path().join("input");
        let copy = || copy_bounded(std::fs::File::open(&from).unwrap(), &to, Bytes(2)).unwrap();
        assert_eq!(copy(), Ok(()));
        assert_eq!(std::fs::read(&to).unwrap(), b"7\n");
        // Larger than the limit: read up to one byte past it, then refused.
        std::fs::write(&from, "12345\n").unwrap();
        assert!(
            copy().unwrap_err().contains("holds more than the 2B"),
            "{:?}",
            copy()
        );
        assert_eq!(std::fs::read(&to).unwrap(), b"123");
    }

    #[test]
    fn the_feedback_folder_is_kept_between_passes_and_the_rest_cleared() {
        let judge = tempfile::tempdir().unwrap();
        let feedback = judge.path().join(FEEDBACK);
        std::fs::create_dir_all(feedback.join("state")).unwrap();
        std::fs::write(feedback.join(NEXT_PASS), "1\n").unwrap();
        std::fs::write(feedback.join("judgemessage.txt"), "pass 1 fine\n").unwrap();
        std::fs::write(judge.path().join("stdout"), "").unwrap();
        std::fs::create_dir_all(judge.path().join("left/over")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), judge.path().join("link")).unwrap();
        clear_for_next_pass(judge.path()).unwrap();
        let mut left: Vec<String> = walkdir::WalkDir::new(judge.path())
            .min_depth(1)
            .into_iter()
            .map(|e| {
                let e = e.unwrap();
                e.path()
                    .strip_prefix(judge.path())
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["feedback", "feedback/judgemessage.txt", "feedback/state"]
        );
        assert!(outside.path().is_dir(), "a link's target is not removed");
    }
}
