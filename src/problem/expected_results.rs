//! DOMjudge's `@EXPECTED_RESULTS@: ` tag: a line in a submission's source that lists the results it may get
//! (`CORRECT, WRONG-ANSWER`), read as DOMjudge reads it (webapp/src/Service/SubmissionService.php,
//! `parseExpectedAnnotation`): the text after the tag up to the end of its line, split at commas, each result
//! trimmed and taken whatever its letter case, DOMjudge's other spellings (`RUN_TIME_ERROR`, `ACCEPTED`) mapped
//! to its own. A source with the tag twice has no usable tag: DOMjudge refuses such a submission.

use crate::verdict::Verdict;

/// What DOMjudge looks for; the space after the colon is part of it, so that a comment that only names the tag
/// ("the @EXPECTED_RESULTS@ tag") is not one.
const TAG: &[u8] = b"@EXPECTED_RESULTS@: ";

/// A tag found in a file: the line it is on, and the results as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tag {
    pub line: usize,
    pub results: Vec<String>,
}

/// What a file says with tags: nothing, one tag, or the lines of several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tagged {
    None,
    One(Tag),
    Several(Vec<usize>),
}

/// The tags in a source's bytes.
pub(super) fn find(text: &[u8]) -> Tagged {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = find_from(text, from) {
        let start = at + TAG.len();
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |n| start + n);
        let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
        let results = String::from_utf8_lossy(&text[start..end])
            .split(',')
            .map(|r| r.trim().to_uppercase())
            .collect();
        found.push(Tag { line, results });
        from = start;
    }
    match found.len() {
        0 => Tagged::None,
        1 => Tagged::One(found.remove(0)),
        _ => Tagged::Several(found.iter().map(|t| t.line).collect()),
    }
}

/// Where the tag starts at or after `from`, in any letter case, as DOMjudge matches it.
fn find_from(text: &[u8], from: usize) -> Option<usize> {
    text.get(from..)?
        .windows(TAG.len())
        .position(|w| w.eq_ignore_ascii_case(TAG))
        .map(|at| from + at)
}

/// The verdicts a result of DOMjudge's stands for, in cpjudge's terms; `None` for a result no judge decides
/// (`CHECK-MANUALLY`) or one DOMjudge does not have.
pub(super) fn verdicts(result: &str) -> Option<&'static [Verdict]> {
    // DOMjudge's own spellings and the ones it maps to them (SubmissionService::PROBLEM_RESULT_REMAP).
    let result = match result {
        "ACCEPTED" => "CORRECT",
        "WRONG_ANSWER" => "WRONG-ANSWER",
        "TIME_LIMIT_EXCEEDED" => "TIMELIMIT",
        "RUN_TIME_ERROR" => "RUN-ERROR",
        "COMPILER_ERROR" => "COMPILER-ERROR",
        "NO_OUTPUT" => "NO-OUTPUT",
        "OUTPUT_LIMIT" => "OUTPUT-LIMIT",
        other => other,
    };
    Some(match result {
        "CORRECT" => &[Verdict::Accepted],
        "WRONG-ANSWER" => &[Verdict::WrongAnswer],
        "TIMELIMIT" => &[Verdict::TimeLimit],
        // DOMjudge ends a run at its memory limit as a run error (its `memory-limit` result is not used by its
        // own judgehosts), so a memory overrun is what this result expects too.
        "RUN-ERROR" => &[Verdict::RuntimeError, Verdict::MemoryLimit],
        "MEMORY-LIMIT" => &[Verdict::MemoryLimit],
        "OUTPUT-LIMIT" => &[Verdict::OutputLimit],
        // An empty output where the answer is not: cpjudge has no verdict of its own for it, only WA.
        "NO-OUTPUT" => &[Verdict::WrongAnswer],
        "COMPILER-ERROR" => &[Verdict::CompileError],
        _ => return None,
    })
}

/// The results cpjudge judges, for messages.
pub(super) const KNOWN: &str = "CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, MEMORY-LIMIT, OUTPUT-LIMIT, \
                                 NO-OUTPUT, COMPILER-ERROR";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_as_domjudge_reads_them() {
        let one = |text: &str| match find(text.as_bytes()) {
            Tagged::One(tag) => (tag.line, tag.results),
            other => panic!("{text:?}: {other:?}"),
        };
        assert_eq!(
            one("/*\n * @EXPECTED_RESULTS@: CORRECT,WRONG-ANSWER\n */"),
            (2, vec!["CORRECT".into(), "WRONG-ANSWER".into()])
        );
        assert_eq!(
            one(" * @EXPECTED_RESULTS@:   RUN_TIME_ERROR , ACCEPTED   \n"),
            (1, vec!["RUN_TIME_ERROR".into(), "ACCEPTED".into()])
        );
        assert_eq!(
            one("# @expected_results@: timelimit"),
            (1, vec!["TIMELIMIT".into()])
        );
        assert_eq!(
            find(b"of how to use the @EXPECTED_RESULTS@ tag.\n"),
            Tagged::None
        );
        assert_eq!(
            find(b"@EXPECTED_RESULTS@: NO-OUTPUT\n@EXPECTED_RESULTS@: NO-OUTPUT\n"),
            Tagged::Several(vec![1, 2])
        );
    }

    #[test]
    fn results_in_cpjudge_verdicts() {
        assert_eq!(verdicts("ACCEPTED"), Some(&[Verdict::Accepted][..]));
        assert_eq!(
            verdicts("RUN_TIME_ERROR"),
            Some(&[Verdict::RuntimeError, Verdict::MemoryLimit][..])
        );
        assert_eq!(verdicts("NO-OUTPUT"), Some(&[Verdict::WrongAnswer][..]));
        assert_eq!(verdicts("CHECK-MANUALLY"), None);
        for result in KNOWN.split(", ") {
            assert!(verdicts(result).is_some(), "{result}");
        }
    }
}
