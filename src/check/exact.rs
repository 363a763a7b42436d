//! Byte-for-byte comparison once line endings are normalised ("\r\n" and a lone "\r" both read as "\n").

use super::CheckOutcome;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Bytes};
use std::iter::Peekable;
use std::path::Path;

/// The bytes of a stream with line endings normalised.
struct Normalised<R: BufRead> {
    bytes: Peekable<Bytes<R>>,
}

impl<R: BufRead> Iterator for Normalised<R> {
    type Item = io::Result<u8>;

    fn next(&mut self) -> Option<io::Result<u8>> {
        match self.bytes.next()? {
            Ok(b'\r') => {
                if matches!(self.bytes.peek(), Some(Ok(b'\n'))) {
                    self.bytes.next();
                }
                Some(Ok(b'\n'))
            }
            other => Some(other),
        }
    }
}

fn normalised<R: BufRead>(reader: R) -> Normalised<R> {
    Normalised {
        bytes: reader.bytes().peekable(),
    }
}

pub(super) fn compare(output: &Path, answer: &Path) -> io::Result<CheckOutcome> {
    let open =
        |p: &Path| -> io::Result<_> { Ok(BufReader::with_capacity(64 * 1024, File::open(p)?)) };
    compare_streams(open(output)?, open(answer)?)
}

fn compare_streams(output: impl BufRead, answer: impl BufRead) -> io::Result<CheckOutcome> {
    let (mut output, mut answer) = (normalised(output), normalised(answer));
    let (mut line, mut column) = (1, 1);
    loop {
        let (found, expected) = (output.next().transpose()?, answer.next().transpose()?);
        // Made only for a message: a string for every byte compared would cost more than the comparison.
        let at = || format!("line {line}, column {column}");
        match (found, expected) {
            (None, None) => return Ok(CheckOutcome::accepted()),
            (Some(a), Some(b)) if a == b => {
                if a == b'\n' {
                    (line, column) = (line + 1, 1);
                } else {
                    column += 1;
                }
            }
            (None, Some(b'\n')) if answer.next().is_none() => {
                return Ok(CheckOutcome::wrong(format!(
                    "the output's last line (line {line}) has no final newline"
                )));
            }
            (None, Some(b)) => {
                return Ok(CheckOutcome::wrong(format!(
                    "the output ends early, at {}; expected {} next",
                    at(),
                    rest_of_line(b, &mut answer)?
                )));
            }
            (Some(a), None) => {
                let extra = rest_of_line(a, &mut output)?;
                let hint = if a.is_ascii_whitespace() {
                    " (whitespace)"
                } else {
                    ""
                };
                return Ok(CheckOutcome::wrong(format!(
                    "extra output from {} on: {extra}{hint}",
                    at()
                )));
            }
            (Some(a), Some(b)) => {
                let hint = match (a, b) {
                    (b' ' | b'\t', b'\n') => " (trailing whitespace)",
                    (b'\n', b' ' | b'\t') => " (the output's line ends early)",
                    _ => "",
                };
                return Ok(CheckOutcome::wrong(format!(
                    "{}: expected {}, found {}{hint}",
                    at(),
                    rest_of_line(b, &mut answer)?,
                    rest_of_line(a, &mut output)?
                )));
            }
        }
    }
}

/// How a stream goes on from the byte `first`, for a message: "end of line", or the rest of its line, quoted and
/// cut short.
fn rest_of_line<R: BufRead>(first: u8, stream: &mut Normalised<R>) -> io::Result<String> {
    if first == b'\n' {
        return Ok("end of line".into());
    }
    let mut bytes = vec![first];
    while bytes.len() <= 40 {
        match stream.next().transpose()? {
            Some(b'\n') | None => break,
            Some(b) => bytes.push(b),
        }
    }
    Ok(super::excerpt(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_comparison() {
        let cases: &[(&[u8], &[u8], Option<&str>)] = &[
            (b"a b\nc\n", b"a b\nc\n", None),
            (b"a b\r\nc\r\n", b"a b\nc\n", None),
            (b"a b\rc\r", b"a b\nc\n", None),
            (
                b"a  b\nc\n",
                b"a b\nc\n",
                Some("line 1, column 3: expected \"b\", found \" b\""),
            ),
            (
                b"a b\nc",
                b"a b\nc\n",
                Some("the output's last line (line 2) has no final newline"),
            ),
            (
                b"a b\n",
                b"a b\nc\n",
                Some("the output ends early, at line 2, column 1; expected \"c\" next"),
            ),
            (
                b"a b\nc\n\n",
                b"a b\nc\n",
                Some("extra output from line 3, column 1 on: end of line (whitespace)"),
            ),
            (
                b"a\nxy\n",
                b"a\nyy\n",
                Some("line 2, column 1: expected \"yy\", found \"xy\""),
            ),
            (
                b"1 2  \n",
                b"1 2\n",
                Some("line 1, column 4: expected end of line, found \"  \" (trailing whitespace)"),
            ),
        ];
        for (output, answer, want) in cases {
            let got = compare_streams(*output, *answer).unwrap();
            match want {
                None => assert_eq!(got, CheckOutcome::accepted(), "{output:?}"),
                Some(message) => assert_eq!(got, CheckOutcome::wrong(*message), "{output:?}"),
            }
        }
    }
}
