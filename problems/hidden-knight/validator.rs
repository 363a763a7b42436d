// Validator for hidden-knight: exactly one line "hx hy\n", two integers in
// 0..=49 separated by a single space, ended by a newline, and nothing else.
// Exit 0 on a valid input, else exit 1 with one line on stderr naming the
// input line and the broken rule.
//
// Numbers are written plainly: an optional '-' then digits, no leading zeros
// (so "07", "+7" and "-0" are refused). A valid input also gets its
// constraint report on stdout (`value` and `case` lines, see the manual),
// printed once the whole input is found valid.
use std::io::{self, Read, Write};
use std::process::exit;

const MAX_COORD: i64 = 49;

fn reject(line: usize, what: String) -> ! {
    eprintln!("line {line}: {what}");
    exit(1)
}

// A token as the input spells it, escaped where it is not printable ASCII and
// cut short, so that a garbage line cannot flood the message.
fn show(token: &[u8]) -> String {
    const MAX: usize = 20;
    let mut text: String = token[..token.len().min(MAX)]
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    if token.len() > MAX {
        text.push_str("...");
    }
    text
}

// The value of a canonical integer token, saturated far outside the range
// checked here, or None if the token is not an integer at all.
fn integer(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if (digits.len() > 1 && digits[0] == b'0') || (negative && digits == b"0") {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        value = (value * 10 + i64::from(b - b'0')).min(1 << 40);
    }
    Some(if negative { -value } else { value })
}

fn main() {
    let mut input = Vec::new();
    if io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "cannot read the input".to_string());
    }
    if input.is_empty() {
        reject(1, "expected 2 numbers, found end of input".to_string());
    }
    let end = input.iter().position(|&b| b == b'\n');
    let first = &input[..end.unwrap_or(input.len())];

    if first.is_empty() {
        reject(1, "expected 2 numbers, found an empty line".to_string());
    }
    if first.contains(&b'\r') {
        let what = "a carriage return (\\r) in the line: lines end with \"\\n\" alone";
        reject(1, what.to_string());
    }
    if first.iter().any(|&b| b != b' ' && b.is_ascii_whitespace()) {
        let what = "a tab or other white space in the line: the numbers are separated by a single space";
        reject(1, what.to_string());
    }
    let tokens: Vec<&[u8]> = first.split(|&b| b == b' ').collect();
    if tokens.iter().any(|t| t.is_empty()) {
        reject(
            1,
            "the numbers must be separated by a single space, with no space at either end of the line"
                .to_string(),
        );
    }
    if tokens.len() != 2 {
        reject(1, format!("expected 2 numbers, found {}", tokens.len()));
    }
    let mut square = [0i64; 2];
    for ((name, token), slot) in ["hx", "hy"].iter().zip(&tokens).zip(&mut square) {
        match integer(token) {
            None => reject(1, format!("{name} = \"{}\" is not an integer", show(token))),
            Some(v) if !(0..=MAX_COORD).contains(&v) => {
                reject(1, format!("{name} = {} is out of range 0..={MAX_COORD}", show(token)))
            }
            Some(v) => *slot = v,
        }
    }
    match end {
        None => reject(1, "the line does not end with a newline".to_string()),
        Some(end) if end + 1 < input.len() => {
            let rest = &input[end + 1..];
            let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
            if line.is_empty() {
                reject(2, "expected end of input, found an empty line".to_string())
            }
            reject(2, format!("expected end of input, found \"{}\"", show(line)))
        }
        Some(_) => {}
    }

    let [x, y] = square;
    let edge = |v: i64| v == 0 || v == MAX_COORD;
    // How far a coordinate is from the nearer side of the board.
    let inset = |v: i64| v.min(MAX_COORD - v);
    // Near a corner the knight's distances are the least regular, and even
    // knowing that the knight is in the 7 x 7 block at a corner, four
    // questions do not always find it.
    let cases = [
        ("knight-in-corner", edge(x) && edge(y)),
        ("knight-on-edge-not-corner", edge(x) != edge(y)),
        ("knight-near-corner", inset(x) <= 6 && inset(y) <= 6 && !(edge(x) && edge(y))),
        ("knight-in-centre", (24..=25).contains(&x) && (24..=25).contains(&y)),
    ];
    let mut report = format!("value hx {x} 0 {MAX_COORD}\nvalue hy {y} 0 {MAX_COORD}\n");
    for (name, holds) in cases {
        report += &format!("case {name} {}\n", if holds { "yes" } else { "no" });
    }
    // A reader that has gone away cannot make a valid input invalid.
    let _ = io::stdout().lock().write_all(report.as_bytes());
}
