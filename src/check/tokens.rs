//! Whitespace-separated tokens, compared exactly or as numbers within a tolerance.

use super::{CheckOutcome, excerpt};
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// Reads tokens one at a time, keeping at most a given number of bytes of each.
struct Tokens<R> {
    reader: R,
}

impl<R: BufRead> Tokens<R> {
    /// The next token's length, with its first `keep` bytes in `token`; `None` at the end.
    fn next(&mut self, token: &mut Vec<u8>, keep: usize) -> io::Result<Option<usize>> {
        token.clear();
        // Skip whitespace.
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let skip = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let found = skip < buf.len();
            self.reader.consume(skip);
            if found {
                break;
            }
        }
        let mut len = 0;
        loop {
            let buf = self.reader.fill_buf()?;
            let take = buf.iter().take_while(|b| !b.is_ascii_whitespace()).count();
            let room = keep.saturating_sub(token.len()).min(take);
            token.extend_from_slice(&buf[..room]);
            len += take;
            let ended = take < buf.len() || buf.is_empty();
            self.reader.consume(take);
            if ended {
                return Ok(Some(len));
            }
        }
    }
}

fn open(path: &Path) -> io::Result<Tokens<BufReader<File>>> {
    Ok(Tokens {
        reader: BufReader::with_capacity(64 * 1024, File::open(path)?),
    })
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
    mut output: Tokens<A>,
    mut answer: Tokens<B>,
    tolerance: Option<f64>,
) -> io::Result<CheckOutcome> {
    let (mut expected, mut found) = (Vec::new(), Vec::new());
    for index in 1.. {
        let want = answer.next(&mut expected, usize::MAX)?;
        // One byte more than the expected token is enough to see a difference, and bounds what a huge output
        // token can cost.
        let got = output.next(&mut found, expected.len().max(64) + 1)?;
        match (want, got) {
            (None, None) => return Ok(CheckOutcome::accepted()),
            (Some(_), None) => {
                return Ok(CheckOutcome::wrong(format!(
                    "output ends after {} tokens; expected {} next",
                    index - 1,
                    excerpt(&expected)
                )));
            }
            (None, Some(_)) => {
                return Ok(CheckOutcome::wrong(format!(
                    "extra output after the answer's {} tokens: {}",
                    index - 1,
                    excerpt(&found)
                )));
            }
            (Some(want_len), Some(got_len)) => {
                let same = (want_len == got_len && expected == found)
                    || tolerance.is_some_and(|t| numbers_close(&found, &expected, t));
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
        let tokens = |b| Tokens {
            reader: io::BufReader::with_capacity(4, b),
        };
        compare_streams(tokens(output), tokens(answer), tolerance).unwrap()
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
}
