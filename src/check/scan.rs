//! Reading an output or an answer one run at a time (a run is a stretch of whitespace, or a token between two),
//! holding at most the first [`HELD`] bytes and one of each: a run longer than that is compared a piece at a time
//! with [`same_runs`], so the judge's memory stays small whatever a file holds.

use std::io::{self, BufRead};

/// The most of a run that is held whole. A token this long is no number, and a message shows only its beginning.
pub(super) const HELD: usize = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Space,
    Token,
}

impl Kind {
    fn of(byte: u8) -> Kind {
        if byte.is_ascii_whitespace() {
            Kind::Space
        } else {
            Kind::Token
        }
    }
}

/// A stream read run by run.
pub(super) struct Scanner<R> {
    reader: R,
    /// The kind of the run last read, while its end has not been reached.
    unfinished: Option<Kind>,
    /// Whether the end of the stream has been read: a file is not read again to find it once more.
    at_end: bool,
}

impl<R: BufRead> Scanner<R> {
    pub fn new(reader: R) -> Self {
        Scanner {
            reader,
            unfinished: None,
            at_end: false,
        }
    }

    /// The next run's kind, with its first bytes in `head`: all of it when it is at most [`HELD`] bytes long,
    /// otherwise `HELD + 1` of them, the rest still to read. `None` at the end of the stream.
    pub fn run(&mut self, head: &mut Vec<u8>) -> io::Result<Option<Kind>> {
        head.clear();
        if let Some(kind) = self.unfinished.take() {
            self.skip(kind)?;
        }
        if self.at_end {
            return Ok(None);
        }
        let Some(&first) = self.reader.fill_buf()?.first() else {
            self.at_end = true;
            return Ok(None);
        };
        let kind = Kind::of(first);
        loop {
            let buf = self.reader.fill_buf()?;
            let length = same_kind(buf, kind);
            let taken = length.min(HELD + 1 - head.len());
            head.extend_from_slice(&buf[..taken]);
            self.at_end = buf.is_empty();
            let ended = length < buf.len() || self.at_end;
            self.reader.consume(taken);
            // Marked unfinished even if it ends right there, one byte past what is held: only heads of at most
            // HELD bytes are known to be whole.
            if head.len() > HELD {
                self.unfinished = Some(kind);
                return Ok(Some(kind));
            }
            if ended {
                return Ok(Some(kind));
            }
        }
    }

    /// The next token, whitespace before it passed over, as [`Scanner::run`] reads it; `false` at the end.
    pub fn token(&mut self, head: &mut Vec<u8>) -> io::Result<bool> {
        match self.run(head)? {
            Some(Kind::Space) => Ok(self.run(head)?.is_some()),
            found => Ok(found.is_some()),
        }
    }

    /// Passes over the rest of a run of `kind`.
    fn skip(&mut self, kind: Kind) -> io::Result<()> {
        loop {
            let buf = self.reader.fill_buf()?;
            let length = same_kind(buf, kind);
            self.at_end = buf.is_empty();
            let ended = length < buf.len() || self.at_end;
            self.reader.consume(length);
            if ended {
                return Ok(());
            }
        }
    }
}

/// How many bytes at the start of `buf` are of `kind`.
fn same_kind(buf: &[u8], kind: Kind) -> usize {
    buf.iter().take_while(|&&b| Kind::of(b) == kind).count()
}

/// Whether the runs `a` and `b` just read, of one kind, with heads `head_a` and `head_b`, are the same, byte by
/// byte as `same` compares bytes. What is left of two long runs is compared a piece at a time as it is read.
pub(super) fn same_runs<A: BufRead, B: BufRead>(
    (a, head_a): (&mut Scanner<A>, &[u8]),
    (b, head_b): (&mut Scanner<B>, &[u8]),
    same: impl Fn(u8, u8) -> bool,
) -> io::Result<bool> {
    let heads_same =
        head_a.len() == head_b.len() && head_a.iter().zip(head_b).all(|(&x, &y)| same(x, y));
    if !heads_same {
        return Ok(false);
    }
    let (Some(kind), Some(other)) = (a.unfinished, b.unfinished) else {
        // Heads of one length, one of them at most HELD bytes: both runs are whole.
        return Ok(true);
    };
    debug_assert_eq!(kind, other, "runs of one kind are compared");
    loop {
        let (x, y) = (a.reader.fill_buf()?, b.reader.fill_buf()?);
        let (left_x, left_y) = (same_kind(x, kind), same_kind(y, kind));
        let length = left_x.min(left_y);
        if length == 0 {
            // A run ends where its stream does, or where the next run starts.
            let both_ended = left_x == 0 && left_y == 0;
            if both_ended {
                (a.unfinished, b.unfinished) = (None, None);
            }
            return Ok(both_ended);
        }
        if !x[..length]
            .iter()
            .zip(&y[..length])
            .all(|(&x, &y)| same(x, y))
        {
            return Ok(false);
        }
        a.reader.consume(length);
        b.reader.consume(length);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of `text`, read through a buffer of `capacity` bytes: its kind, head and whether it was whole.
    fn runs(text: &[u8], capacity: usize) -> Vec<(Kind, Vec<u8>)> {
        let mut scanner = Scanner::new(io::BufReader::with_capacity(capacity, text));
        let mut head = Vec::new();
        let mut found = Vec::new();
        while let Some(kind) = scanner.run(&mut head).unwrap() {
            found.push((kind, head.clone()));
        }
        found
    }

    #[test]
    fn runs_are_read_across_buffers_and_long_ones_cut() {
        let long = vec![b'x'; 3 * HELD];
        let mut text = b" \n12 ab\t\t".to_vec();
        text.extend_from_slice(&long);
        text.extend_from_slice(b" z");
        for capacity in [1, 2, 3, 7, 64, 64 * 1024] {
            assert_eq!(
                runs(&text, capacity),
                [
                    (Kind::Space, b" \n".to_vec()),
                    (Kind::Token, b"12".to_vec()),
                    (Kind::Space, b" ".to_vec()),
                    (Kind::Token, b"ab".to_vec()),
                    (Kind::Space, b"\t\t".to_vec()),
                    (Kind::Token, long[..HELD + 1].to_vec()),
                    (Kind::Space, b" ".to_vec()),
                    (Kind::Token, b"z".to_vec()),
                ],
                "capacity {capacity}"
            );
        }
    }

    /// A reader that counts how many times it is read.
    struct Counted<'a>(&'a [u8], std::rc::Rc<std::cell::Cell<usize>>);

    impl io::Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1.set(self.1.get() + 1);
            self.0.read(buf)
        }
    }

    /// The end of a stream is read once: a short output and its answer are read in two reads each.
    #[test]
    fn the_end_is_read_once() {
        for (text, reads) in [(&b"19\n"[..], 2), (b"19", 2), (b"", 1), (b"1 2 3\n", 2)] {
            let count = std::rc::Rc::default();
            let reader =
                io::BufReader::with_capacity(64, Counted(text, std::rc::Rc::clone(&count)));
            let mut scanner = Scanner::new(reader);
            let mut head = Vec::new();
            while scanner.token(&mut head).unwrap() {}
            for _ in 0..3 {
                assert!(!scanner.token(&mut head).unwrap());
            }
            assert_eq!(count.get(), reads, "{text:?}");
        }
    }

    #[test]
    fn a_run_of_exactly_the_held_length_is_whole() {
        let text = vec![b'7'; HELD];
        let mut scanner = Scanner::new(io::BufReader::with_capacity(5, &text[..]));
        let mut head = Vec::new();
        assert_eq!(scanner.run(&mut head).unwrap(), Some(Kind::Token));
        assert_eq!(head.len(), HELD);
        assert_eq!(scanner.unfinished, None);
        assert_eq!(scanner.run(&mut head).unwrap(), None);
    }

    #[test]
    fn a_run_one_byte_past_the_held_length_is_not_taken_as_whole() {
        let just_over = vec![b'7'; HELD + 1];
        let longer = vec![b'7'; HELD + 2];
        assert!(!same_first_tokens(&just_over, &longer, 8, false));
        assert!(!same_first_tokens(&longer, &just_over, 8, false));
        assert!(same_first_tokens(&just_over, &just_over, 8, false));
    }

    /// Whether the first tokens of `a` and `b` are the same, read through buffers of `capacity` bytes.
    fn same_first_tokens(a: &[u8], b: &[u8], capacity: usize, ignore_case: bool) -> bool {
        let mut sa = Scanner::new(io::BufReader::with_capacity(capacity, a));
        let mut sb = Scanner::new(io::BufReader::with_capacity(capacity + 3, b));
        let (mut ha, mut hb) = (Vec::new(), Vec::new());
        assert!(sa.token(&mut ha).unwrap() && sb.token(&mut hb).unwrap());
        let same = same_runs((&mut sa, &ha), (&mut sb, &hb), |x, y| {
            if ignore_case {
                x.eq_ignore_ascii_case(&y)
            } else {
                x == y
            }
        })
        .unwrap();
        if same {
            // Both stand after their token.
            let (mut na, mut nb) = (Vec::new(), Vec::new());
            assert_eq!(sa.token(&mut na).unwrap(), sb.token(&mut nb).unwrap());
            assert_eq!(na, nb);
        }
        same
    }

    #[test]
    fn long_runs_are_compared_to_their_ends() {
        let long = |last: u8, extra: usize| {
            let mut token = vec![b'a'; 5 * HELD + extra];
            token.push(last);
            token.extend_from_slice(b" next");
            token
        };
        for capacity in [1, 4, 100, 64 * 1024] {
            assert!(same_first_tokens(
                &long(b'b', 0),
                &long(b'b', 0),
                capacity,
                false
            ));
            assert!(!same_first_tokens(
                &long(b'b', 0),
                &long(b'c', 0),
                capacity,
                false
            ));
            assert!(!same_first_tokens(
                &long(b'b', 0),
                &long(b'b', 1),
                capacity,
                false
            ));
            assert!(!same_first_tokens(
                &long(b'b', 1),
                &long(b'b', 0),
                capacity,
                false
            ));
            assert!(!same_first_tokens(
                &long(b'b', 0),
                &long(b'B', 0),
                capacity,
                false
            ));
            assert!(same_first_tokens(
                &long(b'b', 0),
                &long(b'B', 0),
                capacity,
                true
            ));
            // One long, one short: never the same, however their beginnings compare.
            assert!(!same_first_tokens(&long(b'b', 0), b"aaa", capacity, false));
            assert!(!same_first_tokens(b"aaa", &long(b'b', 0), capacity, false));
        }
        // At the end of both streams.
        let mut bare = vec![b'q'; 2 * HELD];
        assert!(same_first_tokens(&bare, &bare, 3, false));
        bare.push(b'r');
        assert!(!same_first_tokens(&bare, &bare[..2 * HELD], 3, false));
    }

    #[test]
    fn a_run_left_unfinished_is_passed_over() {
        let mut text = vec![b'x'; 2 * HELD];
        text.extend_from_slice(b" y");
        let mut scanner = Scanner::new(io::BufReader::with_capacity(16, &text[..]));
        let mut head = Vec::new();
        assert!(scanner.token(&mut head).unwrap());
        assert_eq!(head.len(), HELD + 1);
        assert!(scanner.token(&mut head).unwrap());
        assert_eq!(head, b"y");
    }
}
