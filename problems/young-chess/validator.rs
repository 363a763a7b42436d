// Checks one young-chess input: "n m" on line 1, then n lines of m values of
// A, then n lines of m values of B, each line holding exactly its numbers and
// nothing but blank lines after the last one. The input is handled as raw
// bytes so that no byte sequence can make the check itself fail. A valid
// input also gets its constraint report on stdout (`value` and `case` lines,
// see the manual), printed once the whole input is found valid.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::exit;

const MAX_SIDE: i64 = 10;
const MAX_VALUE: i64 = 100_000;

fn reject(line: usize, msg: String) -> ! {
    eprintln!("line {}: {}", line, msg);
    exit(1);
}

// A runaway token should not flood the one-line report.
fn clip(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let mut short: String = text.chars().take(24).collect();
    if short.len() < text.len() {
        short.push_str("...");
    }
    short
}

fn show(token: &[u8]) -> String {
    format!("{:?}", clip(token))
}

// Accepts the canonical spelling -?(0|[1-9][0-9]*) only. The value saturates
// far outside every allowed range, so huge numbers report as out of range
// rather than overflowing.
fn parse(line: usize, token: &[u8]) -> i64 {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        reject(line, format!("{} is not a number", show(token)));
    }
    if (digits.len() > 1 && digits[0] == b'0') || (negative && digits == b"0") {
        reject(line, format!("{} is not written in canonical form", show(token)));
    }
    let magnitude = digits
        .iter()
        .fold(0i64, |v, &d| (v * 10 + (d - b'0') as i64).min(1 << 40));
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

// Reads line `line` (1-based), which must hold exactly `count` numbers.
fn numbers(lines: &[&[u8]], line: usize, count: usize) -> Vec<(i64, String)> {
    let text: &[u8] = lines.get(line - 1).copied().unwrap_or(b"");
    let tokens: Vec<&[u8]> = text
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let values = tokens
        .iter()
        .take(count)
        .map(|t| (parse(line, t), clip(t)))
        .collect();
    if tokens.len() < count {
        reject(
            line,
            format!(
                "expected {} number{}, found {}",
                count,
                if count == 1 { "" } else { "s" },
                tokens.len()
            ),
        );
    }
    if tokens.len() > count {
        reject(
            line,
            format!("unexpected trailing token {}", show(tokens[count])),
        );
    }
    values
}

fn in_range(line: usize, name: &str, (v, text): &(i64, String), lo: i64, hi: i64) {
    if *v < lo || *v > hi {
        reject(
            line,
            format!("{} = {} is out of range {}..={}", name, text, lo, hi),
        );
    }
}

fn main() {
    let mut input = Vec::new();
    if io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "cannot read the input".to_string());
    }
    let lines: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();

    let size = numbers(&lines, 1, 2);
    in_range(1, "n", &size[0], 1, MAX_SIDE);
    in_range(1, "m", &size[1], 1, MAX_SIDE);
    let (n, m) = (size[0].0 as usize, size[1].0 as usize);
    let mut report = String::new();
    writeln!(report, "value n {} 1 {}", n, MAX_SIDE).unwrap();
    writeln!(report, "value m {} 1 {}", m, MAX_SIDE).unwrap();

    // Every cell of a grid under the grid's name, so the report shows the range the whole grid covers.
    let mut cells = Vec::with_capacity(2 * n * m);
    for (grid, first) in [("A", 2), ("B", 2 + n)] {
        for i in 0..n {
            let line = first + i;
            for (j, value) in numbers(&lines, line, m).iter().enumerate() {
                let name = format!("{}[{}][{}]", grid, i, j);
                in_range(line, &name, value, 0, MAX_VALUE);
                writeln!(report, "value {} {} 0 {}", grid, value.0, MAX_VALUE).unwrap();
                cells.push(value.0);
            }
        }
    }

    for (k, text) in lines.iter().enumerate().skip(1 + 2 * n) {
        if let Some(token) = text
            .split(|c| c.is_ascii_whitespace())
            .find(|t| !t.is_empty())
        {
            reject(k + 1, format!("unexpected trailing token {}", show(token)));
        }
    }

    let b = &cells[n * m..];
    let cases = [
        // Half the original contest's tests had every B = 0.
        ("all-b-zero", b.iter().all(|&v| v == 0)),
        ("all-values-equal", cells.iter().all(|&v| v == cells[0])),
        ("one-row", n == 1),
        ("one-column", m == 1),
    ];
    for (name, holds) in cases {
        writeln!(report, "case {} {}", name, if holds { "yes" } else { "no" }).unwrap();
    }
    // A reader that has gone away cannot make a valid input invalid.
    let _ = io::stdout().lock().write_all(report.as_bytes());
}
