//! What is kept of a program's standard error: its beginning and its end, since a program's first lines often say
//! what it was doing and its last ones why it died (a traceback, a panic, an uncaught exception).

/// Bytes kept from each end of a stream.
const HALF: usize = 32 * 1024;

/// The beginning and the end of a stream of unknown length, in bounded memory.
#[derive(Debug, Default)]
pub(crate) struct Excerpt {
    head: Vec<u8>,
    /// The last bytes after the head: at most 2 x [`HALF`] between pushes, cut back to [`HALF`] at the end.
    tail: Vec<u8>,
    total: u64,
}

impl Excerpt {
    pub fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let to_head = HALF.saturating_sub(self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..to_head]);
        let rest = &bytes[to_head..];
        if rest.len() >= HALF {
            self.tail.clear();
            self.tail.extend_from_slice(&rest[rest.len() - HALF..]);
        } else {
            self.tail.extend_from_slice(rest);
            if self.tail.len() > 2 * HALF {
                self.tail.drain(..self.tail.len() - HALF);
            }
        }
    }

    /// How many bytes went through.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Everything, when it fits in 2 x [`HALF`]; otherwise the beginning and the end joined by a line saying how
    /// much was left out between them.
    pub fn into_bytes(mut self) -> Vec<u8> {
        if self.tail.len() > HALF {
            self.tail.drain(..self.tail.len() - HALF);
        }
        let left_out = self.total - (self.head.len() + self.tail.len()) as u64;
        let mut kept = self.head;
        if left_out > 0 {
            kept.extend_from_slice(format!("\n... ({left_out} bytes left out) ...\n").as_bytes());
        }
        kept.extend_from_slice(&self.tail);
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excerpt(chunks: &[&[u8]]) -> Vec<u8> {
        let mut excerpt = Excerpt::default();
        for chunk in chunks {
            excerpt.push(chunk);
        }
        excerpt.into_bytes()
    }

    #[test]
    fn short_streams_are_kept_whole() {
        assert_eq!(excerpt(&[b"a", b"bc"]), b"abc");
        let exactly = vec![b'x'; 2 * HALF];
        assert_eq!(excerpt(&[&exactly]), exactly);
    }

    #[test]
    fn long_streams_keep_both_ends() {
        let head = vec![b'h'; HALF];
        let middle = vec![b'm'; 5 * HALF + 7];
        let tail = b"Traceback: the last line".to_vec();
        let filler = vec![b't'; HALF - tail.len()];
        // In small chunks and in one piece alike.
        let whole: Vec<u8> = [&head[..], &middle, &filler, &tail].concat();
        let chunked: Vec<&[u8]> = whole.chunks(1000).collect();
        for kept in [excerpt(&[&whole]), excerpt(&chunked)] {
            assert!(kept.starts_with(&head));
            assert!(kept.ends_with(&[&filler[..], &tail].concat()));
            let marker = format!("\n... ({} bytes left out) ...\n", middle.len());
            assert_eq!(kept.len(), 2 * HALF + marker.len());
            assert!(String::from_utf8_lossy(&kept).contains(&marker));
        }
    }
}
