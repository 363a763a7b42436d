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
    let mut line = 1;
    loop {
        match (output.next().transpose()?, answer.next().transpose()?) {
            (None, None) => return Ok(CheckOutcome::accepted()),
            (Some(a), Some(b)) if a == b => {
                if a == b'\n' {
                    line += 1;
                }
            }
            (None, Some(_)) => {
                return Ok(CheckOutcome::wrong(format!(
                    "output ends early, at line {line}"
                )));
            }
            (Some(_), None) => {
                return Ok(CheckOutcome::wrong(format!(
                    "extra output from line {line} on"
                )));
            }
            (Some(_), Some(_)) => return Ok(CheckOutcome::wrong(format!("line {line} differs"))),
        }
    }
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
            (b"a  b\nc\n", b"a b\nc\n", Some("line 1 differs")),
            (b"a b\nc", b"a b\nc\n", Some("output ends early, at line 2")),
            (
                b"a b\nc\n\n",
                b"a b\nc\n",
                Some("extra output from line 3 on"),
            ),
            (b"a\nx\n", b"a\ny\n", Some("line 2 differs")),
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
