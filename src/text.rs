//! Cutting what programs print down to what a report can show: the head of a file, a message bounded in bytes,
//! a line clipped to a number of characters.

use std::io::Read;
use std::path::Path;

/// The first `limit` bytes of a regular file, or nothing if it cannot be read. (Never waits on a FIFO or reads a
/// device; a file in a folder that a run could write is read with [`crate::untrusted::read_head`].)
pub(crate) fn read_head(path: &Path, limit: usize) -> Vec<u8> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut head = Vec::new();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    if let Ok(file) = file
        && file.metadata().is_ok_and(|m| m.is_file())
    {
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
pub(crate) fn visible(line: &[u8], chars: usize) -> String {
    let trailing = line.iter().rev().take_while(|&&b| b == b' ').count();
    let body = &line[..line.len() - trailing];
    let mut shown = escape_bytes(body, chars);
    shown.extend(std::iter::repeat_n('·', trailing.min(chars)));
    shown
}

/// Bytes from a program, for a report: at most `chars` characters of them, control characters escaped, and bytes
/// that are not UTF-8 shown as `\xff`, then "..." if there was more.
pub(crate) fn escape_bytes(bytes: &[u8], chars: usize) -> String {
    let mut shown = String::new();
    let mut count = 0;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().chars().map(|c| c.escape_debug().to_string());
        let invalid = chunk.invalid().iter().map(|b| format!("\\x{b:02x}"));
        for piece in valid.chain(invalid) {
            if count == chars {
                shown.push_str("...");
                return shown;
            }
            shown.push_str(&piece);
            count += 1;
        }
    }
    shown
}

/// A file's name or path for a report: as it is where it is UTF-8, with each byte that is not shown as `\xff`, so
/// that names differing only in such bytes stay apart (where `to_string_lossy` makes each of them `\u{fffd}`).
pub(crate) fn file_name(name: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut shown = String::new();
    for chunk in name.as_bytes().utf8_chunks() {
        shown.push_str(chunk.valid());
        for byte in chunk.invalid() {
            shown.push_str(&format!("\\x{byte:02x}"));
        }
    }
    shown
}

/// `path` as the user would type it: relative to the current folder when it lies below it.
pub(crate) fn relative(path: &std::path::Path) -> std::path::PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd).unwrap_or(path).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping() {
        assert_eq!(clip("abcdef", 3), "abc...");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("éééé", 2), "éé...");
        assert_eq!(escape_bytes(b"a\0b\ncd", 4), "a\\0b\\n...");
        assert_eq!(printable("\x1b[2Jok\tgo\r"), "\\u{1b}[2Jok go\\r");
        assert_eq!(visible(b"1 2  ", 10), "1 2··");
        assert_eq!(visible(b"a\tb", 10), "a\\tb");
        assert_eq!(visible(b"\xff\xfe ok \t ", 10), "\\xff\\xfe ok \\t·");
        assert_eq!(escape_bytes(b"abc\xffdef", 5), "abc\\xffd...");
    }

    #[test]
    fn file_names_keep_bytes_that_are_not_utf8_apart() {
        use std::os::unix::ffi::OsStrExt;
        let name = |bytes: &[u8]| file_name(std::ffi::OsStr::from_bytes(bytes));
        assert_eq!(name(b"sol\xff.py"), "sol\\xff.py");
        assert_eq!(name(b"sol\xfe.py"), "sol\\xfe.py");
        assert_eq!(name("g\u{e9}/t 1".as_bytes()), "g\u{e9}/t 1");
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
