// Validator for knight-tour: one line "r c" with 0 <= r, c <= 7.
//
// Numbers are written plainly: an optional '-' then digits, no leading zeros
// (so "07", "+7" and "-0" are refused). Spaces or tabs separate the two
// numbers; whitespace after them, a "\r\n" ending or a missing final newline
// are fine, but nothing else may follow.
//
// A valid input also gets its constraint report on stdout (`value` and
// `case` lines, see the manual), printed once the whole input is found valid.
use std::io::{self, Read, Write};
use std::process::exit;

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

fn show(tok: &[u8]) -> String {
    const MAX: usize = 20;
    let mut s: String = tok[..tok.len().min(MAX)]
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    if tok.len() > MAX {
        s.push_str("...");
    }
    s
}

fn fail(line: usize, msg: String) -> ! {
    eprintln!("line {line}: {msg}");
    exit(1)
}

/// The value of a canonical integer token, saturated far outside any range
/// checked here, or None if the token is not an integer at all.
fn integer(tok: &[u8]) -> Option<i64> {
    let (neg, digits) = match tok.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, tok),
    };
    if digits.is_empty() || !digits.iter().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if (digits.len() > 1 && digits[0] == b'0') || (neg && digits == b"0") {
        return None;
    }
    let mut v: i64 = 0;
    for &b in digits {
        v = (v * 10 + i64::from(b - b'0')).min(1 << 40);
    }
    Some(if neg { -v } else { v })
}

fn main() {
    let mut input = Vec::new();
    if io::stdin().read_to_end(&mut input).is_err() {
        fail(1, "cannot read the input".to_string());
    }
    let mut lines = input.split(|&b| b == b'\n');
    let first: Vec<&[u8]> = lines
        .next()
        .unwrap_or_default()
        .split(|&b| is_blank(b))
        .filter(|t| !t.is_empty())
        .collect();
    if first.len() != 2 {
        let hint = if input.iter().all(|&b| b.is_ascii_whitespace()) {
            " (the input is empty)"
        } else {
            ""
        };
        fail(
            1,
            format!("expected 2 numbers, found {}{hint}", first.len()),
        );
    }
    let mut square = [0i64; 2];
    for ((name, tok), slot) in ["r", "c"].iter().zip(&first).zip(&mut square) {
        match integer(tok) {
            None => fail(1, format!("{name} = \"{}\" is not an integer", show(tok))),
            Some(v) if !(0..=7).contains(&v) => {
                fail(1, format!("{name} = {} is out of range 0..=7", show(tok)))
            }
            Some(v) => *slot = v,
        }
    }
    for (i, line) in lines.enumerate() {
        if let Some(tok) = line.split(|&b| is_blank(b)).find(|t| !t.is_empty()) {
            fail(
                i + 2,
                format!("unexpected trailing token \"{}\"", show(tok)),
            );
        }
    }

    let [r, c] = square;
    let edge = |v: i64| v == 0 || v == 7;
    // Corners and edges leave a knight the fewest moves; the centre the most.
    let cases = [
        ("start-in-corner", edge(r) && edge(c)),
        ("start-on-edge-not-corner", edge(r) != edge(c)),
        ("start-in-centre", (3..=4).contains(&r) && (3..=4).contains(&c)),
    ];
    let mut report = format!("value r {r} 0 7\nvalue c {c} 0 7\n");
    for (name, holds) in cases {
        report += &format!("case {name} {}\n", if holds { "yes" } else { "no" });
    }
    // A reader that has gone away cannot make a valid input invalid.
    let _ = io::stdout().lock().write_all(report.as_bytes());
}
