//! Cutting what programs print down to what a report can show: the head of a file, a message bounded in bytes,
//! a line clipped to a number of characters.

use std::io::Read;
use std::path::Path;

/// The first `limit` bytes of a file, or nothing if it cannot be read.
pub(crate) fn read_head(path: &Path, limit: usize) -> Vec<u8> {
    let mut head = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(limit as u64).read_to_end(&mut head);
    }
    head
}

/// Cuts a message to `limit` bytes on a character boundary, saying how much was left out.
pub(crate) fn bound(message: &str, limit: usize) -> String {
    if message.len() <= limit {
        return message.to_owned();
    }
    let mut end = limit;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n... ({} more bytes)",
        &message[..end],
        message.len() - end
    )
}

/// The first `chars` characters of `text`, followed by "..." if there were more.
pub(crate) fn clip(text: &str, chars: usize) -> String {
    let mut rest = text.chars();
    let mut shown: String = rest.by_ref().take(chars).collect();
    if rest.next().is_some() {
        shown.push_str("...");
    }
    shown
}

/// One line made safe for a terminal: control characters (escape sequences, carriage returns, bells) are shown
/// escaped instead of acting on it; a tab becomes a space.
pub(crate) fn printable(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\t' => " ".to_owned(),
            c if c.is_control() => c.escape_debug().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// One line of a program's output or a test, shown so that every difference can be seen: cut to `chars`
/// characters, control characters escaped, and trailing spaces shown as `·`.
pub(crate) fn visible(line: &str, chars: usize) -> String {
    let body = line.trim_end_matches(' ');
    let trailing = line.len() - body.len();
    let mut shown = clip_escaped(body, chars);
    shown.extend(std::iter::repeat_n('·', trailing.min(chars)));
    shown
}

/// As [`clip`], with control characters and the like escaped, for text that may hold anything.
pub(crate) fn clip_escaped(text: &str, chars: usize) -> String {
    clip(text, chars).escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping() {
        assert_eq!(clip("abcdef", 3), "abc...");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("éééé", 2), "éé...");
        assert_eq!(clip_escaped("a\0b\ncd", 4), "a\\0b\\n...");
        assert_eq!(printable("\x1b[2Jok\tgo\r"), "\\u{1b}[2Jok go\\r");
        assert_eq!(visible("1 2  ", 10), "1 2··");
        assert_eq!(visible("a\tb", 10), "a\\tb");
    }

    #[test]
    fn long_messages_are_bounded() {
        let long = "é".repeat(5000);
        let cut = bound(&long, 4096);
        assert!(cut.len() < 4096 + 40);
        assert!(
            cut.ends_with("(5904 more bytes)"),
            "{}",
            &cut[cut.len() - 30..]
        );
        assert_eq!(bound("short", 4096), "short");
    }
}
