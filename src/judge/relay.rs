//! The judge's part of a dialogue: it sits between a solution and an interactor, passes on every byte each one
//! writes, keeps a transcript, and notes whose output ended first.
//!
//! Passing the bytes on itself, rather than joining the two programs by one pipe each way, costs two copies per
//! message and gives three things: the transcript of the dialogue for the report; the order in which the two
//! sides ended, seen in one place (the interactor's verdict counts first only if it ended first); and a pipe end
//! of its own on each side. When the interactor's reader is gone, the solution is cut off at once, as it would be
//! on a direct pipe. When the solution's reader is gone, what the interactor still writes is taken and dropped, up
//! to [`DRAINED_LIMIT`], as BAPCtools keeps the interactor's output open until the interactor ends: its last words,
//! often flushed only as it exits (a Python interactor's buffered `print` meets a closed pipe at its exit, and ends
//! with code 120 instead of its verdict), must not depend on whether the solution ended a moment earlier.

use crate::sandbox::pipe;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;

/// Who wrote a part of the dialogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Solution,
    Interactor,
}

/// What the dialogue was, as far as it is kept: its beginning and its end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The first [`Transcript::KEPT`] bytes, in order, each side's consecutive writes as one part.
    pub head: Vec<(Side, Vec<u8>)>,
    /// The last [`Transcript::KEPT`] bytes after the head, likewise.
    pub tail: VecDeque<(Side, Vec<u8>)>,
    /// Bytes each side wrote in all: the solution's, then the interactor's.
    pub written: [u64; 2],
}

impl Transcript {
    /// Bytes kept of each end of the dialogue.
    pub const KEPT: usize = 32 * 1024;

    fn record(&mut self, side: Side, mut bytes: &[u8]) {
        self.written[side as usize] += bytes.len() as u64;
        let in_head = Self::KEPT.saturating_sub(kept(self.head.iter()));
        let (head, rest) = bytes.split_at(bytes.len().min(in_head));
        append(&mut self.head, side, head);
        bytes = rest;
        if bytes.is_empty() {
            return;
        }
        let bytes = &bytes[bytes.len().saturating_sub(Self::KEPT)..];
        if self.tail.back().is_some_and(|(last, _)| *last == side) {
            self.tail
                .back_mut()
                .expect("just seen")
                .1
                .extend_from_slice(bytes);
        } else {
            self.tail.push_back((side, bytes.to_vec()));
        }
        let mut excess = kept(self.tail.iter()).saturating_sub(Self::KEPT);
        while excess > 0 {
            let front = &mut self.tail.front_mut().expect("the tail is over its size").1;
            if front.len() <= excess {
                excess -= front.len();
                self.tail.pop_front();
            } else {
                front.drain(..excess);
                excess = 0;
            }
        }
    }

    /// Bytes of the dialogue left out between the head and the tail.
    pub fn left_out(&self) -> u64 {
        let kept = (kept(self.head.iter()) + kept(self.tail.iter())) as u64;
        self.written.iter().sum::<u64>() - kept
    }

    /// The dialogue as lines, each marked with who wrote it: `> ` the solution, `< ` the interactor.
    pub fn replay(&self) -> String {
        let mut text = String::new();
        lines(&mut text, &self.head);
        if self.left_out() > 0 {
            text.push_str(&format!("... ({} bytes left out)\n", self.left_out()));
        }
        lines(&mut text, self.tail.iter());
        text
    }
}

fn kept<'a>(parts: impl Iterator<Item = &'a (Side, Vec<u8>)>) -> usize {
    parts.map(|(_, bytes)| bytes.len()).sum()
}

fn append(parts: &mut Vec<(Side, Vec<u8>)>, side: Side, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some((last, part)) if *last == side => part.extend_from_slice(bytes),
        _ => parts.push((side, bytes.to_vec())),
    }
}

/// Each part's lines, marked with its side, long lines cut.
fn lines<'a>(text: &mut String, parts: impl IntoIterator<Item = &'a (Side, Vec<u8>)>) {
    for (side, bytes) in parts {
        let mark = match side {
            Side::Solution => "> ",
            Side::Interactor => "< ",
        };
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            text.push_str(mark);
            text.push_str(&crate::text::escape_bytes(line, 200));
            text.push('\n');
        }
    }
}

/// What the relay saw.
#[derive(Debug, Clone)]
pub struct Relayed {
    pub transcript: Transcript,
    /// The side whose output ended first; None if neither ended by itself (both were cut off).
    pub first_to_end: Option<Side>,
    /// For each side, the solution's then the interactor's: whether the other side's input closed (that side
    /// ended, or closed it) while this side's output was still open. What the solution wrote from then on failed,
    /// as on a pipe: with EPIPE, or its death by SIGPIPE; what the interactor wrote was dropped, and failed the same
    /// way past [`DRAINED_LIMIT`]. A side that ends last after a normal dialogue is cut off too; the relay cannot
    /// tell whether it wrote again.
    pub cut_off: [bool; 2],
}

/// The pipes between a solution and an interactor: the ends each program gets, and the relay's own.
pub struct Pipes {
    /// The solution's standard input and output.
    pub solution: [File; 2],
    /// The interactor's standard input and output.
    pub interactor: [File; 2],
    relay: [Lane; 2],
}

impl Pipes {
    pub fn new() -> io::Result<Pipes> {
        let (to_solution_read, to_solution) = pipe()?;
        let (from_solution, from_solution_write) = pipe()?;
        let (to_interactor_read, to_interactor) = pipe()?;
        let (from_interactor, from_interactor_write) = pipe()?;
        for end in [
            &to_solution,
            &from_solution,
            &to_interactor,
            &from_interactor,
        ] {
            set_nonblocking(end)?;
        }
        Ok(Pipes {
            solution: [to_solution_read, from_solution_write],
            interactor: [to_interactor_read, from_interactor_write],
            relay: [
                Lane::new(Side::Interactor, from_interactor, to_solution),
                Lane::new(Side::Solution, from_solution, to_interactor),
            ],
        })
    }

    /// Splits the pipes into the two programs' ends and the relay, which then passes bytes on until both
    /// programs' outputs have ended (at the latest, when their runs end).
    pub fn split(self) -> ([File; 2], [File; 2], Relay) {
        (self.solution, self.interactor, Relay { lanes: self.relay })
    }
}

/// The relay's half of the pipes, ready to run.
pub struct Relay {
    /// The interactor's lane first: when both sides end at once, the interactor is taken to have ended first.
    lanes: [Lane; 2],
}

/// One direction of the dialogue: what one side writes, read by the relay and written on to the other side.
struct Lane {
    side: Side,
    from: Option<File>,
    to: Option<File>,
    pending: Vec<u8>,
    /// Once the other side's input has closed, for the interactor's lane: what it wrote since, dropped.
    drained: Option<u64>,
}

/// Bytes read from one side and not yet taken by the other, beyond which the relay stops reading: a side that
/// floods a partner who does not read is held up, as on a pipe.
const PENDING_LIMIT: usize = 1 << 20;

/// What the interactor may still write once the solution's input has closed, taken and dropped, before its writes
/// fail: twice a program's output buffer (8 KiB in C, Python and Java), what an interactor flushes as it exits; not
/// so much that an interactor answering the flood of queries a solution left behind goes on for long (DOMjudge's
/// boolfind, whose interactor takes 0.1 ms a query, answers 16 KiB of them in half a second).
pub const DRAINED_LIMIT: u64 = 16 << 10;

impl Lane {
    fn new(side: Side, from: File, to: File) -> Lane {
        Lane {
            side,
            from: Some(from),
            to: Some(to),
            pending: Vec::new(),
            drained: None,
        }
    }

    fn done(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }

    /// Closes the way on once everything read has been passed on, and the source has ended.
    fn close_if_drained(&mut self) {
        if self.from.is_none() && self.pending.is_empty() {
            self.to = None;
        }
    }

    /// The reader on the other side is gone: whatever the solution writes from now on is refused; what the
    /// interactor writes is dropped, up to [`DRAINED_LIMIT`].
    fn cut_off(&mut self) {
        self.to = None;
        self.pending.clear();
        match self.side {
            Side::Interactor => self.drained = Some(0),
            Side::Solution => self.from = None,
        }
    }

    /// Takes bytes read from this side: passed on, or dropped where the other side is gone (refusing what comes
    /// past [`DRAINED_LIMIT`]).
    fn take(&mut self, bytes: &[u8]) {
        match &mut self.drained {
            None => self.pending.extend_from_slice(bytes),
            Some(drained) => {
                *drained += bytes.len() as u64;
                if *drained > DRAINED_LIMIT {
                    self.from = None;
                }
            }
        }
    }
}

impl Relay {
    /// Passes bytes on until both sides' outputs have ended.
    pub fn run(mut self) -> io::Result<Relayed> {
        let mut transcript = Transcript::default();
        let mut first_to_end = None;
        let mut cut_off = [false; 2];
        let mut buf = vec![0u8; 64 * 1024];
        while !self.lanes.iter().all(Lane::done) {
            let mut polled = Vec::with_capacity(4);
            for (index, lane) in self.lanes.iter().enumerate() {
                if let Some(from) = &lane.from
                    && lane.pending.len() < PENDING_LIMIT
                {
                    polled.push((index, true, pollfd(from, libc::POLLIN)));
                }
                if let Some(to) = &lane.to {
                    let events = if lane.pending.is_empty() {
                        0
                    } else {
                        libc::POLLOUT
                    };
                    polled.push((index, false, pollfd(to, events)));
                }
            }
            let mut fds: Vec<libc::pollfd> = polled.iter().map(|(_, _, fd)| *fd).collect();
            // SAFETY: `fds` is a valid array of pollfd of the length given.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
            if ready == -1 {
                let error = io::Error::last_os_error();
                if error.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(error);
            }
            for ((index, reading, _), fd) in polled.iter().zip(&fds) {
                let lane = &mut self.lanes[*index];
                if fd.revents == 0 {
                    continue;
                }
                if *reading {
                    let Some(from) = lane.from.as_mut() else {
                        continue;
                    };
                    match from.read(&mut buf) {
                        Ok(0) => {
                            lane.from = None;
                            first_to_end.get_or_insert(lane.side);
                        }
                        Ok(n) => {
                            transcript.record(lane.side, &buf[..n]);
                            lane.take(&buf[..n]);
                        }
                        Err(e) if would_block(&e) => {}
                        Err(e) => return Err(e),
                    }
                } else if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                    cut_off[lane.side as usize] = true;
                    lane.cut_off();
                } else if let Some(to) = lane.to.as_mut() {
                    match to.write(&lane.pending) {
                        Ok(n) => {
                            lane.pending.drain(..n);
                        }
                        Err(e) if would_block(&e) => {}
                        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                            cut_off[lane.side as usize] = true;
                            lane.cut_off();
                        }
                        Err(e) => return Err(e),
                    }
                }
                lane.close_if_drained();
            }
        }
        Ok(Relayed {
            transcript,
            first_to_end,
            cut_off,
        })
    }
}

fn pollfd(file: &File, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd: file.as_raw_fd(),
        events,
        revents: 0,
    }
}

fn would_block(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
    )
}

fn set_nonblocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own, with plain integers.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    /// Runs the relay in a thread with two "programs" played by closures on the given ends.
    fn dialogue(
        solution: impl FnOnce([File; 2]) + Send + 'static,
        interactor: impl FnOnce([File; 2]) + Send + 'static,
    ) -> Relayed {
        let (s, i, relay) = Pipes::new().unwrap().split();
        let a = std::thread::spawn(move || solution(s));
        let b = std::thread::spawn(move || interactor(i));
        let relayed = relay.run().unwrap();
        a.join().unwrap();
        b.join().unwrap();
        relayed
    }

    #[test]
    fn a_long_dialogue_keeps_its_beginning_and_its_end() {
        let mut transcript = Transcript::default();
        transcript.record(Side::Solution, b"? first\n");
        for _ in 0..10_000 {
            transcript.record(Side::Interactor, b"0123456789\n");
            transcript.record(Side::Solution, b"? again\n");
        }
        transcript.record(Side::Interactor, b"last words\n");
        let replay = transcript.replay();
        assert!(replay.starts_with("> ? first\n< 0123456789\n> ? again\n"));
        assert!(
            replay.ends_with("> ? again\n< last words\n"),
            "{}",
            &replay[replay.len() - 100..]
        );
        let left_out = 8 + 10_000 * 19 + 11 - 2 * Transcript::KEPT;
        assert!(replay.contains(&format!("... ({left_out} bytes left out)\n")));
        assert_eq!(transcript.written, [8 + 80_000, 110_011]);
    }

    #[test]
    fn passes_each_line_on_and_keeps_the_transcript() {
        let relayed = dialogue(
            |[input, mut output]| {
                let mut input = io::BufReader::new(input);
                for question in ["? 1 2", "? 3 4"] {
                    writeln!(output, "{question}").unwrap();
                    let mut line = String::new();
                    input.read_line(&mut line).unwrap();
                    assert_eq!(line, "7\n");
                }
                writeln!(output, "! 5 6").unwrap();
            },
            |[input, mut output]| {
                for line in io::BufReader::new(input).lines() {
                    if line.unwrap().starts_with('?') {
                        writeln!(output, "7").unwrap();
                    }
                }
            },
        );
        assert_eq!(
            relayed.transcript.replay(),
            "> ? 1 2\n< 7\n> ? 3 4\n< 7\n> ! 5 6\n"
        );
        // The interactor reads until the solution's output ends, so the solution ended first, and the interactor's
        // output was still open when the solution's input closed.
        assert_eq!(relayed.first_to_end, Some(Side::Solution));
        assert_eq!(relayed.cut_off, [false, true]);
    }

    #[test]
    fn a_solution_gone_cuts_off_the_interactor_that_floods() {
        /// Far more than the relay may take.
        const FLOOD: u64 = 16 << 20;
        let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let counted = written.clone();
        let relayed = dialogue(
            |[input, output]| {
                drop(output);
                drop(input);
            },
            move |[_input, mut output]| {
                // Writes until its writes fail, as they do once the solution's input has closed and it has written
                // more than the relay drops; or until it has written far more than the relay may take in any case.
                let block = [b'x'; 4096];
                while counted.load(std::sync::atomic::Ordering::SeqCst) < FLOOD
                    && output.write_all(&block).is_ok()
                {
                    counted.fetch_add(block.len() as u64, std::sync::atomic::Ordering::SeqCst);
                }
            },
        );
        assert_eq!(relayed.first_to_end, Some(Side::Solution));
        assert_eq!(relayed.cut_off, [false, true]);
        // What the relay may take: what it reads for the solution before it sees the solution's input closed, then
        // what it drops, and what the pipe holds (at most 1 MiB, the kernel's default largest).
        let written = written.load(std::sync::atomic::Ordering::SeqCst);
        assert!(
            written < PENDING_LIMIT as u64 + DRAINED_LIMIT + (1 << 20),
            "{written} bytes taken"
        );
    }

    /// A Python interactor flushes what it printed as it exits: once the solution has ended, that must neither fail
    /// nor depend on how long ago it ended.
    #[test]
    fn the_interactors_last_words_after_the_solution_ended_are_taken() {
        let (went, gone) = std::sync::mpsc::channel();
        let relayed = dialogue(
            move |[input, output]| {
                drop(output);
                drop(input);
                went.send(()).unwrap();
            },
            move |[_input, mut output]| {
                gone.recv().unwrap();
                // Long enough for the relay to see the solution's input closed.
                std::thread::sleep(std::time::Duration::from_millis(50));
                output
                    .write_all(b"last words\n")
                    .expect("taken, not refused");
            },
        );
        assert_eq!(relayed.cut_off, [false, true]);
        assert!(relayed.transcript.replay().contains("< last words\n"));
    }

    #[test]
    fn the_interactor_ending_first_cuts_the_solution_off() {
        let relayed = dialogue(
            |[_input, mut output]| {
                // Keeps writing: once the interactor is gone, its writes fail instead of blocking forever.
                while output.write_all(b"x\n").is_ok() {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            },
            |[mut input, mut output]| {
                let mut first = [0u8; 4];
                input.read_exact(&mut first).unwrap();
                writeln!(output, "enough").unwrap();
            },
        );
        assert_eq!(relayed.first_to_end, Some(Side::Interactor));
        assert_eq!(relayed.cut_off, [true, false]);
        assert!(relayed.transcript.written[0] >= 4);
        assert!(relayed.transcript.replay().contains("< enough\n"));
    }
}
