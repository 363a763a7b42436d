//! The Problem Package Format's default output validator: token by token, ruled by the test's flags.
//!
//! - Tokens are separated by whitespace, whose amount does not matter unless `space_change_sensitive`, when
//!   every run of whitespace must be the same as the answer's.
//! - Letters compare ignoring case unless `case_sensitive`.
//! - With a tolerance (`float_absolute_tolerance e`, `float_relative_tolerance e`, or `float_tolerance e` for
//!   both), an answer token that is a finite number matches an output number within either tolerance; other
//!   tokens (`inf`, `NaN`, words) compare as text.
//! - Output left over after the answer's last token is a wrong answer.

use super::{CheckOutcome, excerpt};
use crate::verdict::Verdict;
use std::io;
use std::path::Path;

/// The flags of the default validator, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
struct Flags {
    case_sensitive: bool,
    space_change_sensitive: bool,
    absolute: Option<f64>,
    relative: Option<f64>,
}

fn parse(flags: &[String]) -> Result<Flags, String> {
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

/// Judges `output` against `answer` with the default validator's `flags`.
pub fn compare(output: &Path, answer: &Path, flags: &[String]) -> io::Result<CheckOutcome> {
    let flags = match parse(flags) {
        Ok(flags) => flags,
        Err(message) => {
            return Ok(CheckOutcome {
                verdict: Verdict::JudgeError,
                message,
            });
        }
    };
    Ok(judge(
        &std::fs::read(output)?,
        &std::fs::read(answer)?,
        &flags,
    ))
}

fn judge(output: &[u8], answer: &[u8], flags: &Flags) -> CheckOutcome {
    let (out, ans) = (runs(output), runs(answer));
    let is_space = |run: &&[u8]| run[0].is_ascii_whitespace();
    if flags.space_change_sensitive {
        // Whitespace and tokens alternate alike in both, each run of whitespace the same.
        let mut token = 0;
        for index in 0..out.len().max(ans.len()) {
            let (found, expected) = (out.get(index), ans.get(index));
            if found.is_some_and(is_space) || expected.is_some_and(is_space) {
                if found != expected {
                    return CheckOutcome::wrong(format!(
                        "after token {token}: expected {}, found {}",
                        shown(expected),
                        shown(found)
                    ));
                }
                continue;
            }
            token += 1;
            if let Some(wrong) = compare_tokens(token, found, expected, flags) {
                return wrong;
            }
        }
        return CheckOutcome::accepted();
    }
    let out: Vec<&[u8]> = out.into_iter().filter(|r| !is_space(r)).collect();
    let ans: Vec<&[u8]> = ans.into_iter().filter(|r| !is_space(r)).collect();
    for index in 0..out.len().max(ans.len()) {
        if let Some(wrong) = compare_tokens(index + 1, out.get(index), ans.get(index), flags) {
            return wrong;
        }
    }
    CheckOutcome::accepted()
}

/// Why the token numbered `token` is wrong, if it is.
fn compare_tokens(
    token: usize,
    found: Option<&&[u8]>,
    expected: Option<&&[u8]>,
    flags: &Flags,
) -> Option<CheckOutcome> {
    match (found, expected) {
        (Some(found), Some(expected)) if matches(found, expected, flags) => None,
        (found, expected) => Some(CheckOutcome::wrong(format!(
            "token {token}: expected {}, found {}",
            shown(expected),
            shown(found)
        ))),
    }
}

/// The text split into maximal runs of whitespace and of other bytes.
fn runs(text: &[u8]) -> Vec<&[u8]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=text.len() {
        if i == text.len() || text[i].is_ascii_whitespace() != text[start].is_ascii_whitespace() {
            runs.push(&text[start..i]);
            start = i;
        }
    }
    runs
}

fn matches(found: &[u8], expected: &[u8], flags: &Flags) -> bool {
    if flags.absolute.is_some() || flags.relative.is_some() {
        let number = |token: &[u8]| std::str::from_utf8(token).ok()?.parse::<f64>().ok();
        if let Some(wanted) = number(expected).filter(|v| v.is_finite()) {
            let Some(given) = number(found) else {
                return false;
            };
            let error = (given - wanted).abs();
            return flags.absolute.is_some_and(|e| error <= e)
                || flags.relative.is_some_and(|e| error <= e * wanted.abs());
        }
    }
    if flags.case_sensitive {
        found == expected
    } else {
        found.eq_ignore_ascii_case(expected)
    }
}

fn shown(run: Option<&&[u8]>) -> String {
    run.map_or_else(|| "the end of the output".to_owned(), |r| excerpt(r))
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

    fn ok(output: &str, answer: &str, with: &str) -> bool {
        judge(output.as_bytes(), answer.as_bytes(), &flags(with))
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
        let outcome = judge(b"1 2 3\n", b"1 2\n", &Flags::default());
        assert_eq!(
            outcome.message,
            "token 3: expected the end of the output, found \"3\""
        );
        let outcome = judge(b"1\n", b"1 2\n", &Flags::default());
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
}
