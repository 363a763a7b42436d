//! Whitespace-separated tokens, compared exactly or as numbers within a tolerance. Both files are read as
//! streams: a token longer than [`scan::HELD`] bytes is no number, and is compared a piece at a time.

use super::scan::{self, Scanner};
use super::{CheckOutcome, excerpt};
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

fn open(path: &Path) -> io::Result<Scanner<BufReader<File>>> {
    Ok(Scanner::new(BufReader::with_capacity(
        64 * 1024,
        File::open(path)?,
    )))
}

/// Compares token by token; with a tolerance, tokens that both read as numbers may differ by that much,
/// absolutely or relative to the answer.
pub(super) fn compare(
    output: &Path,
    answer: &Path,
    tolerance: Option<f64>,
) -> io::Result<CheckOutcome> {
    compare_streams(open(output)?, open(answer)?, tolerance)
}

fn compare_streams<A: BufRead, B: BufRead>(
    mut output: Scanner<A>,
    mut answer: Scanner<B>,
    tolerance: Option<f64>,
) -> io::Result<CheckOutcome> {
    let (mut expected, mut found) = (Vec::new(), Vec::new());
    for index in 1.. {
        let want = answer.token(&mut expected)?;
        let got = output.token(&mut found)?;
        match (want, got) {
            (false, false) => return Ok(CheckOutcome::accepted()),
            (true, false) => {
                return Ok(CheckOutcome::wrong(format!(
                    "output ends after {} tokens; expected {} next",
                    index - 1,
                    excerpt(&expected)
                )));
            }
            (false, true) => {
                return Ok(CheckOutcome::wrong(format!(
                    "extra output after the answer's {} tokens: {}",
                    index - 1,
                    excerpt(&found)
                )));
            }
            (true, true) => {
                let close = tolerance.is_some_and(|t| {
                    expected.len() <= scan::HELD
                        && found.len() <= scan::HELD
                        && numbers_close(&found, &expected, t)
                });
                let same = close
                    || scan::same_runs((&mut output, &found), (&mut answer, &expected), |a, b| {
                        a == b
                    })?;
                if !same {
                    return Ok(CheckOutcome::wrong(format!(
                        "token {index}: expected {}, found {}",
                        excerpt(&expected),
                        excerpt(&found)
                    )));
                }
            }
        }
    }
    unreachable!("the loop returns")
}

fn numbers_close(found: &[u8], expected: &[u8], tolerance: f64) -> bool {
    let parse = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<f64>().ok();
    let (Some(got), Some(want)) = (parse(found), parse(expected)) else {
        return false;
    };
    // Not-a-number and the infinities are answers too: NaN equals NaN, and an infinity itself, whatever the case
    // of their spelling ("nan", "NaN", "inf", "Infinity"), as other judges take them.
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want.is_infinite() || got.is_infinite() {
        return want == got;
    }
    let diff = (got - want).abs();
    diff <= tolerance || diff <= tolerance * want.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(output: &[u8], answer: &[u8], tolerance: Option<f64>) -> CheckOutcome {
        check_through(4, output, answer, tolerance)
    }

    /// As `check`, reading both through buffers of `capacity` bytes, so that tokens are split across them.
    fn check_through(
        capacity: usize,
        output: &[u8],
        answer: &[u8],
        tolerance: Option<f64>,
    ) -> CheckOutcome {
        let tokens = |b| Scanner::new(io::BufReader::with_capacity(capacity, b));
        let outcome = compare_streams(tokens(output), tokens(answer), tolerance).unwrap();
        // Buffers of other sizes split tokens elsewhere, and judge alike.
        let other = Scanner::new(io::BufReader::with_capacity(capacity + 5, output));
        assert_eq!(
            compare_streams(other, tokens(answer), tolerance).unwrap(),
            outcome
        );
        outcome
    }

    #[test]
    fn token_comparison() {
        let cases: &[(&[u8], &[u8], Option<&str>)] = &[
            (b"1 2 3\n", b"1 2 3\n", None),
            (b"  1\n\n2   3", b"1 2 3\n", None),
            (b"1\r\n2\r\n", b"1 2", None),
            (
                b"1 2",
                b"1 2 3",
                Some("output ends after 2 tokens; expected \"3\" next"),
            ),
            (
                b"1 2 3 4",
                b"1 2 3",
                Some("extra output after the answer's 3 tokens: \"4\""),
            ),
            (
                b"1 20",
                b"1 2",
                Some("token 2: expected \"2\", found \"20\""),
            ),
            (b"12", b"1", Some("token 1: expected \"1\", found \"12\"")),
            (b"", b"", None),
            (
                b"\0\xff",
                b"1",
                Some("token 1: expected \"1\", found \"\\0\\xff\""),
            ),
            (b"1.0", b"1", Some("token 1: expected \"1\", found \"1.0\"")),
        ];
        for (output, answer, want) in cases {
            let got = check(output, answer, None);
            match want {
                None => assert_eq!(got, CheckOutcome::accepted(), "{output:?}"),
                Some(message) => assert_eq!(got, CheckOutcome::wrong(*message), "{output:?}"),
            }
        }
    }

    #[test]
    fn float_comparison() {
        let cases: &[(&[u8], &[u8], bool)] = &[
            (b"1.0000001", b"1", true),
            (b"1.01", b"1", false),
            (b"1000000.5", b"1000000", true), // relative
            (b"-0.0000005", b"0", true),
            (b"abc", b"abc", true),
            (b"abc", b"abd", false),
            (b"nan", b"1", false),
            (b"1", b"nan", false),
            (b"1e400", b"1", false),
            (b"nan", b"NaN", true),
            (b"NAN", b"nan", true),
            (b"Inf", b"inf", true),
            (b"infinity", b"INF", true),
            (b"-inf", b"-Inf", true),
            (b"-inf", b"inf", false),
            (b"inf", b"1e308", false),
        ];
        for (output, answer, ok) in cases {
            let got = check(output, answer, Some(1e-6)).verdict.is_accepted();
            assert_eq!(got, *ok, "{output:?} vs {answer:?}");
        }
    }

    #[test]
    fn huge_tokens_are_cut_not_kept() {
        let huge = vec![b'7'; 1 << 20];
        let got = check(&huge, b"7", None);
        assert!(
            got.message
                .starts_with("token 1: expected \"7\", found \"7777"),
            "{}",
            got.message
        );
        assert!(got.message.len() < 200);
    }

    #[test]
    fn tokens_split_across_buffers_are_whole_tokens() {
        for capacity in [1, 2, 3, 8, 64 * 1024] {
            let accepted = |output: &[u8], answer: &[u8]| {
                check_through(capacity, output, answer, None)
                    .verdict
                    .is_accepted()
            };
            assert!(accepted(b"123 4567\n89", b"123\n4567 89\n"));
            assert!(!accepted(b"123 4567\n89", b"123 456 7 89"));
            assert!(!accepted(b"12 34", b"1234"));
            assert!(
                check_through(capacity, b"0.50000001 7", b"0.5 7", Some(1e-6))
                    .verdict
                    .is_accepted()
            );
        }
    }

    #[test]
    fn long_tokens_are_compared_to_their_ends() {
        let long = |last: &[u8]| {
            let mut text = b"1 ".to_vec();
            text.extend(std::iter::repeat_n(b'x', 10 * scan::HELD));
            text.extend_from_slice(last);
            text.extend_from_slice(b" 2\n");
            text
        };
        let answer = long(b"y");
        for capacity in [3, 4096, 64 * 1024] {
            assert_eq!(
                check_through(capacity, &long(b"y"), &answer, None),
                CheckOutcome::accepted()
            );
            let shown = format!("\"{}...\"", "x".repeat(40));
            for wrong in [&b"z"[..], b"yy", b""] {
                assert_eq!(
                    check_through(capacity, &long(wrong), &answer, None),
                    CheckOutcome::wrong(format!("token 2: expected {shown}, found {shown}")),
                    "{wrong:?}"
                );
            }
            // The token after a long one is read as one.
            let mut further = long(b"y");
            further.extend_from_slice(b"3\n");
            assert_eq!(
                check_through(capacity, &further, &answer, None).message,
                "extra output after the answer's 3 tokens: \"3\""
            );
        }
    }

    #[test]
    fn a_token_too_long_to_hold_is_no_number() {
        let number = |zeros: usize| format!("1.{}1", "0".repeat(zeros)).into_bytes();
        // Within what is held, a long spelling of 1 is 1.
        assert!(
            check(&number(scan::HELD - 3), b"1", Some(1e-6))
                .verdict
                .is_accepted()
        );
        assert!(
            check(b"1", &number(scan::HELD - 3), Some(1e-6))
                .verdict
                .is_accepted()
        );
        // Longer, it is compared as text.
        assert!(
            !check(&number(scan::HELD), b"1", Some(1e-6))
                .verdict
                .is_accepted()
        );
        assert!(
            check(&number(scan::HELD), &number(scan::HELD), Some(1e-6))
                .verdict
                .is_accepted()
        );
    }
}
