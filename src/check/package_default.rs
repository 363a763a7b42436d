//! The Problem Package Format's default output validator: token by token, ruled by the test's flags.
//!
//! - Tokens are separated by whitespace, whose amount does not matter unless `space_change_sensitive`, when
//!   every run of whitespace must be the same as the answer's.
//! - Letters compare ignoring case unless `case_sensitive`.
//! - With a tolerance (`float_absolute_tolerance e`, `float_relative_tolerance e`, or `float_tolerance e` for
//!   both), an answer token that is a finite number matches an output number within either tolerance; other
//!   tokens (`inf`, `NaN`, words) compare as text.
//! - Output left over after the answer's last token is a wrong answer.
//!
//! Both files are read as streams: a token or run of whitespace longer than [`scan::HELD`] bytes is compared a
//! piece at a time, and such a token is no number.

use super::scan::{self, Kind, Scanner};
use super::{CheckOutcome, excerpt};
use crate::verdict::Verdict;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// The flags of the default validator, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Flags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub absolute: Option<f64>,
    pub relative: Option<f64>,
}

/// The default validator's `flags`, or why it cannot take them.
pub(crate) fn parse(flags: &[String]) -> Result<Flags, String> {
    let mut parsed = Flags::default();
    let mut words = flags.iter().map(String::as_str);
    while let Some(flag) = words.next() {
        let mut tolerance = || -> Result<f64, String> {
            let value = words
                .next()
                .ok_or_else(|| format!("validator flag {flag} needs a number after it"))?;
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("validator flag {flag}: \"{value}\" is not a tolerance"))
        };
        match flag {
            "case_sensitive" => parsed.case_sensitive = true,
            "space_change_sensitive" => parsed.space_change_sensitive = true,
            "float_absolute_tolerance" => parsed.absolute = Some(tolerance()?),
            "float_relative_tolerance" => parsed.relative = Some(tolerance()?),
            "float_tolerance" => {
                let value = tolerance()?;
                parsed.absolute = Some(value);
                parsed.relative = Some(value);
            }
            other => return Err(format!("unknown default validator flag \"{other}\"")),
        }
    }
    Ok(parsed)
}

/// Whether the default validator can take `flags`; if not, why.
pub(crate) fn check_flags(flags: &[String]) -> Result<(), String> {
    parse(flags).map(|_| ())
}

/// Judges `output` against `answer` with the default validator's `flags`.
pub fn compare(output: &Path, answer: &Path, flags: &[String]) -> io::Result<CheckOutcome> {
    let flags = match parse(flags) {
        Ok(flags) => flags,
        Err(message) => {
            return Ok(CheckOutcome {
                score: None,
                verdict: Verdict::JudgeError,
                message,
            });
        }
    };
    let open = |path: &Path| -> io::Result<_> {
        Ok(Scanner::new(BufReader::with_capacity(
            64 * 1024,
            File::open(path)?,
        )))
    };
    judge(open(output)?, open(answer)?, &flags)
}

fn judge<A: BufRead, B: BufRead>(
    mut output: Scanner<A>,
    mut answer: Scanner<B>,
    flags: &Flags,
) -> io::Result<CheckOutcome> {
    let (mut found, mut expected) = (Vec::new(), Vec::new());
    // Tokens so far; with space_change_sensitive, whitespace and tokens alternate alike in both, each run of
    // whitespace the same.
    let mut token = 0;
    loop {
        let (got, want) = if flags.space_change_sensitive {
            (output.run(&mut found)?, answer.run(&mut expected)?)
        } else {
            let token = |present: bool| present.then_some(Kind::Token);
            (
                token(output.token(&mut found)?),
                token(answer.token(&mut expected)?),
            )
        };
        let shown_found = got.map(|_| found.as_slice());
        let shown_expected = want.map(|_| expected.as_slice());
        match (got, want) {
            (None, None) => return Ok(CheckOutcome::accepted()),
            (Some(Kind::Space), _) | (_, Some(Kind::Space)) => {
                let same = got == want
                    && scan::same_runs((&mut output, &found), (&mut answer, &expected), |a, b| {
                        a == b
                    })?;
                if !same {
                    return Ok(CheckOutcome::wrong(format!(
                        "after token {token}: expected {}, found {}",
                        shown(shown_expected),
                        shown(shown_found)
                    )));
                }
            }
            _ => {
                token += 1;
                let same = got.is_some()
                    && want.is_some()
                    && same_tokens((&mut output, &found), (&mut answer, &expected), flags)?;
                if !same {
                    return Ok(CheckOutcome::wrong(format!(
                        "token {token}: expected {}, found {}",
                        shown(shown_expected),
                        shown(shown_found)
                    )));
                }
            }
        }
    }
}

/// Whether the tokens just read, `found` in the output and `expected` in the answer, match by the flags.
fn same_tokens<A: BufRead, B: BufRead>(
    (output, found): (&mut Scanner<A>, &[u8]),
    (answer, expected): (&mut Scanner<B>, &[u8]),
    flags: &Flags,
) -> io::Result<bool> {
    if let Some(within) = within_tolerance(found, expected, flags) {
        return Ok(within);
    }
    if flags.case_sensitive {
        scan::same_runs((output, found), (answer, expected), |a, b| a == b)
    } else {
        scan::same_runs((output, found), (answer, expected), |a, b| {
            a.eq_ignore_ascii_case(&b)
        })
    }
}

/// With a tolerance, and an answer token that is a finite number, whether `found` is a number within it; `None`
/// when the tokens compare as text. A token longer than what is held is no number.
fn within_tolerance(found: &[u8], expected: &[u8], flags: &Flags) -> Option<bool> {
    if flags.absolute.is_none() && flags.relative.is_none() {
        return None;
    }
    let number = |token: &[u8]| {
        if token.len() > scan::HELD {
            return None;
        }
        std::str::from_utf8(token).ok()?.parse::<f64>().ok()
    };
    let wanted = number(expected).filter(|v| v.is_finite())?;
    let Some(given) = number(found) else {
        return Some(false);
    };
    let error = (given - wanted).abs();
    Some(
        flags.absolute.is_some_and(|e| error <= e)
            || flags.relative.is_some_and(|e| error <= e * wanted.abs()),
    )
}

fn shown(run: Option<&[u8]>) -> String {
    run.map_or_else(|| "the end of the output".to_owned(), excerpt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Flags {
        parse(
            &text
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        )
        .unwrap()
    }

    /// Judges through small buffers, so that tokens and whitespace are split across them.
    fn judged(output: &[u8], answer: &[u8], flags: &Flags) -> CheckOutcome {
        let scanner = |b| Scanner::new(BufReader::with_capacity(3, b));
        judge(scanner(output), scanner(answer), flags).unwrap()
    }

    fn ok(output: &str, answer: &str, with: &str) -> bool {
        judged(output.as_bytes(), answer.as_bytes(), &flags(with))
            .verdict
            .is_accepted()
    }

    #[test]
    fn case_and_whitespace_follow_the_flags() {
        assert!(ok("YES\n", "yes\n", ""));
        assert!(!ok("YES\n", "yes\n", "case_sensitive"));
        assert!(ok("  1   2\n\n3", "1 2\n3\n", ""));
        assert!(!ok("1  2\n3\n", "1 2\n3\n", "space_change_sensitive"));
        assert!(!ok("1 2\n3", "1 2\n3\n", "space_change_sensitive"));
        assert!(ok("1 2\n3\n", "1 2\n3\n", "space_change_sensitive"));
    }

    #[test]
    fn numbers_pass_within_either_tolerance() {
        assert!(ok("1.0000001", "1", "float_tolerance 1e-6"));
        assert!(!ok("1.00001", "1", "float_tolerance 1e-6"));
        // Relative: 1e-6 of a million is 1.
        assert!(ok("1000000.9", "1000000", "float_relative_tolerance 1e-6"));
        assert!(!ok("1000000.9", "1000000", "float_absolute_tolerance 1e-6"));
        assert!(ok("0.5", "0.4", "float_absolute_tolerance 0.1"));
        // Without a tolerance, numbers are text.
        assert!(!ok("1.0", "1", ""));
        // Infinities and NaN compare as text, ignoring case.
        assert!(ok("INF", "inf", "float_tolerance 1e-6"));
        assert!(ok("nan", "NaN", "float_tolerance 1e-6"));
        assert!(!ok("1e400", "inf", "float_tolerance 1e-6"));
        // A word where a number is expected is wrong.
        assert!(!ok("one", "1", "float_tolerance 1e-6"));
    }

    #[test]
    fn extra_and_missing_output_are_wrong() {
        let outcome = judged(b"1 2 3\n", b"1 2\n", &Flags::default());
        assert_eq!(
            outcome.message,
            "token 3: expected the end of the output, found \"3\""
        );
        let outcome = judged(b"1\n", b"1 2\n", &Flags::default());
        assert_eq!(
            outcome.message,
            "token 2: expected \"2\", found the end of the output"
        );
        assert!(ok("", "", ""));
        assert!(!ok("", "0", ""));
    }

    #[test]
    fn unknown_flags_are_a_judge_error() {
        assert!(parse(&["float_tolerance".into()]).is_err());
        assert!(parse(&["loose".into()]).is_err());
        assert!(parse(&["float_tolerance".into(), "-1".into()]).is_err());
    }

    #[test]
    fn flags_hold_across_buffers_and_long_runs() {
        let long = |letter: u8, last: &[u8]| {
            let mut token = vec![letter; 4 * scan::HELD];
            token.extend_from_slice(last);
            token
        };
        let line = |parts: &[&[u8]]| parts.concat();
        let answer = line(&[b"1 ", &long(b'a', b"z"), b"\n2\n"]);
        let accepted = |output: &[u8], answer: &[u8], with: &str| {
            judged(output, answer, &flags(with)).verdict.is_accepted()
        };
        // Letter case, over the whole of a long token.
        let shouting = line(&[b"1 ", &long(b'A', b"Z"), b"\n2\n"]);
        assert!(accepted(&shouting, &answer, ""));
        assert!(!accepted(&shouting, &answer, "case_sensitive"));
        let wrong_end = line(&[b"1 ", &long(b'a', b"y"), b"\n2\n"]);
        assert!(!accepted(&wrong_end, &answer, ""));
        let longer = line(&[b"1 ", &long(b'a', b"zz"), b"\n2\n"]);
        assert_eq!(
            judged(&longer, &answer, &Flags::default()).message,
            format!(
                "token 2: expected \"{0}...\", found \"{0}...\"",
                "a".repeat(40)
            )
        );
        // Whitespace: any amount, unless space_change_sensitive, when a long run must be the same to its end.
        let spaced = line(&[b"1", &long(b' ', b""), &long(b'a', b"z"), b"\n2\n"]);
        let spaced_answer = line(&[b"1", &long(b' ', b""), &long(b'a', b"z"), b"\n2\n"]);
        assert!(accepted(&spaced, &answer, ""));
        assert!(!accepted(&spaced, &answer, "space_change_sensitive"));
        assert!(accepted(&spaced, &spaced_answer, "space_change_sensitive"));
        let one_more = line(&[b"1 ", &long(b' ', b""), &long(b'a', b"z"), b"\n2\n"]);
        assert_eq!(
            judged(&one_more, &spaced_answer, &flags("space_change_sensitive")).message,
            format!(
                "after token 1: expected \"{0}...\", found \"{0}...\"",
                " ".repeat(40)
            )
        );
        // A tolerance holds for numbers split across buffers; a token too long to hold is no number.
        assert!(accepted(b"0.1000001 2", b"0.1 2", "float_tolerance 1e-6"));
        let long_one = format!("1.{}", "0".repeat(2 * scan::HELD));
        assert!(!accepted(long_one.as_bytes(), b"1", "float_tolerance 1e-6"));
        assert!(accepted(
            long_one.as_bytes(),
            long_one.as_bytes(),
            "float_tolerance 1e-6"
        ));
        assert!(!accepted(b"1", long_one.as_bytes(), "float_tolerance 1e-6"));
    }
}
