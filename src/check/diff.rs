//! The first differing lines of a wrong answer, for people to read. Only the beginning of each file is read, and
//! lines are cut, so a huge or binary output costs little.

use similar::{ChangeTag, TextDiff};
use std::path::Path;

/// How much of each file is read for the diff.
const HEAD_BYTES: usize = 16 * 1024;
/// Longest line shown, in characters.
const LINE_CHARS: usize = 100;
/// Most lines in a diff.
const DIFF_LINES: usize = 12;

/// The first hunk where output and answer differ line by line, as unified-diff lines ("-" answer, "+" output).
/// `None` when the beginnings are equal line by line (the difference is further on, or only in spacing).
pub fn first_difference(output: &Path, answer: &Path) -> Option<String> {
    let read = |p: &Path| {
        let head = crate::text::read_head(p, HEAD_BYTES);
        // Lines end in "\n"; the last one may not, which is not a difference seen here.
        let head = head.strip_suffix(b"\n").unwrap_or(&head);
        head.split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .map(|l| crate::text::visible(l, LINE_CHARS))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    let (output, answer) = (read(output), read(answer));
    let diff = TextDiff::from_lines(&answer, &output);
    let hunk = diff.grouped_ops(1).into_iter().next()?;
    let mut lines = Vec::new();
    for op in &hunk {
        for change in diff.iter_changes(op) {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            lines.push(format!("{sign}{}", change.value().trim_end_matches('\n')));
        }
    }
    if lines.len() > DIFF_LINES {
        let more = lines.len() - DIFF_LINES;
        lines.truncate(DIFF_LINES);
        lines.push(format!("  ... ({more} more lines)"));
    }
    Some(lines.join("\n"))
}

/// Longest text shown whole, old beside new, in characters.
const SHORT_CHARS: usize = 40;

/// How a kept file `old` would change into `new`, for people to read: both texts when each is one short line
/// ("`999` -> `42`"), the first differing hunk as a unified diff otherwise.
pub fn change(old: &Path, new: &Path) -> Option<String> {
    let short = |p: &Path| {
        let head = crate::text::read_head(p, SHORT_CHARS + 2);
        let line = head.strip_suffix(b"\n").unwrap_or(&head);
        (line.len() <= SHORT_CHARS && !line.contains(&b'\n'))
            .then(|| crate::text::visible(line, SHORT_CHARS))
    };
    match (short(old), short(new)) {
        (Some(old), Some(new)) if old != new => Some(format!("`{old}` -> `{new}`")),
        _ => first_difference(new, old),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(output: &str, answer: &str) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let (o, a) = (dir.path().join("o"), dir.path().join("a"));
        std::fs::write(&o, output).unwrap();
        std::fs::write(&a, answer).unwrap();
        first_difference(&o, &a)
    }

    #[test]
    fn shows_the_first_differing_lines() {
        assert_eq!(diff("1\n2\n3\n", "1\n5\n3\n").unwrap(), " 1\n-5\n+2\n 3");
        assert_eq!(diff("1\n2\n", "1\n2\n"), None);
        assert_eq!(diff("1\n2", "1\n2\n"), None);
        // Trailing spaces are a difference, and shown as one.
        assert_eq!(diff("1 \n2\n", "1\n2\n").unwrap(), "-1\n+1·\n 2");
    }

    #[test]
    fn is_bounded() {
        let output: String = (0..100).map(|i| format!("{i}\n")).collect();
        let shown = diff(&output, "x\n").unwrap();
        assert!(shown.lines().count() <= DIFF_LINES + 1, "{shown}");
        let long = diff(&"y".repeat(100_000), "x").unwrap();
        assert!(long.len() < 300, "{long}");
    }
}
