// Checker for knight-tour: `checker INPUT OUTPUT ANSWER`.
//
// Exit 0: OUTPUT is a knight's tour from the start square named in INPUT.
// Exit 1: it is not; one line on stderr names the first fault found.
// Exit 3: judge error (a file unreadable, INPUT malformed, ANSWER not
//         itself a valid tour, or wrong arguments).
//
// What the output must look like, and what is forgiven:
// - The first 8 lines each hold exactly 8 numbers. A line is what lies
//   between newlines; runs of spaces, tabs, carriage returns, vertical tabs
//   and form feeds separate numbers and may also lead or trail on a line, so
//   "\r\n" endings, trailing spaces and double spaces are all accepted. A
//   missing final newline is accepted.
// - Nothing but whitespace may follow line 8 (blank lines are fine).
// - A number is an optional '-' and decimal digits (leading zeros allowed);
//   each must lie in 1..=64 and appear once.
// - Step 1 is on the start square and steps k, k + 1 are a knight's move apart.
//
// Faults are looked for in that order, line by line, and within a line its
// count first, then its numbers from left to right, so the message always
// names the earliest thing that is wrong. "column" counts numbers, not
// characters. Rows and columns of squares are 0-based, as in the input.
use std::env;
use std::fs;
use std::process::exit;

const WRONG: i32 = 1;
const JUDGE_ERROR: i32 = 3;

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_blank(b)).filter(|t| !t.is_empty())
}

/// A token as it may be quoted in a one-line message: never long, never
/// holding a newline or raw control bytes, whatever the contestant printed.
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

enum Num {
    Value(u8),
    OutOfRange,
    NotANumber,
}

fn number(tok: &[u8]) -> Num {
    let digits = tok.strip_prefix(b"-").unwrap_or(tok);
    if digits.is_empty() || !digits.iter().all(|b| b.is_ascii_digit()) {
        return Num::NotANumber;
    }
    if tok[0] == b'-' {
        // A sign makes it a number, if a wrong one: "-0" too is outside 1..=64.
        return Num::OutOfRange;
    }
    let significant = &digits[digits
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(digits.len())..];
    if significant.len() > 2 {
        return Num::OutOfRange;
    }
    let v = significant
        .iter()
        .fold(0u32, |acc, &b| acc * 10 + u32::from(b - b'0'));
    if (1..=64).contains(&v) {
        Num::Value(v as u8)
    } else {
        Num::OutOfRange
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// When a line has the wrong count but every number in the whole output is
/// otherwise fine, say which numbers went missing: that is usually the real
/// mistake behind a short line.
fn tally_hint(body: &[u8]) -> String {
    let mut seen = [false; 65];
    let mut total = 0usize;
    for tok in body.split(|&b| b == b'\n').flat_map(tokens) {
        match number(tok) {
            Num::Value(v) if !seen[v as usize] => seen[v as usize] = true,
            _ => return String::new(),
        }
        total += 1;
    }
    let missing: Vec<usize> = (1..=64).filter(|&v| !seen[v]).collect();
    if total == 0 {
        // "0 numbers in all" would only repeat what the count already says.
        return String::new();
    }
    match missing.len() {
        0 => String::new(),
        1 => format!(
            " ({} in all: {} is missing)",
            plural(total, "number", "numbers"),
            missing[0]
        ),
        n => format!(
            " ({} in all: {n} are missing, the smallest is {})",
            plural(total, "number", "numbers"),
            missing[0]
        ),
    }
}

fn knight_move(a: (usize, usize), b: (usize, usize)) -> bool {
    let dr = a.0.abs_diff(b.0);
    let dc = a.1.abs_diff(b.1);
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

fn check(text: &[u8], start: (usize, usize)) -> Result<(), String> {
    if text.is_empty() {
        return Err("the output is empty, expected 8 lines".to_string());
    }
    // The piece after a final newline is not a line of its own. Lines are
    // split lazily: an output of ten million newlines must not cost memory.
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let mut lines = body.split(|&b| b == b'\n');

    // seen_at[v] = (line, column), 1-based, of number v.
    let mut seen_at = [(0usize, 0usize); 65];
    for li in 0..8 {
        let Some(line) = lines.next() else {
            return Err(format!(
                "line {} is missing: the output has {}{}",
                li + 1,
                plural(li, "line", "lines"),
                tally_hint(body)
            ));
        };
        let count = tokens(line).count();
        if count != 8 {
            return Err(format!(
                "line {}: expected 8 numbers, found {count}{}",
                li + 1,
                tally_hint(body)
            ));
        }
        for (ci, tok) in tokens(line).enumerate() {
            let (l, c) = (li + 1, ci + 1);
            match number(tok) {
                Num::NotANumber => {
                    return Err(format!(
                        "line {l}, column {c}: \"{}\" is not a number",
                        show(tok)
                    ))
                }
                Num::OutOfRange => {
                    return Err(format!(
                        "line {l}, column {c}: {} is out of range 1..=64",
                        show(tok)
                    ))
                }
                Num::Value(v) => {
                    let (pl, pc) = seen_at[v as usize];
                    if pl != 0 {
                        return Err(format!(
                            "number {v} appears twice (line {pl}, column {pc} and line {l}, column {c})"
                        ));
                    }
                    seen_at[v as usize] = (l, c);
                }
            }
        }
    }
    for (li, line) in lines.enumerate() {
        if let Some(tok) = tokens(line).next() {
            return Err(format!(
                "extra token after line 8: \"{}\" on line {}",
                show(tok),
                li + 9
            ));
        }
    }

    // 64 distinct numbers in 1..=64 were read, so each step has its square.
    let square = |v: usize| (seen_at[v].0 - 1, seen_at[v].1 - 1);
    if square(1) != start {
        let (r, c) = square(1);
        return Err(format!(
            "step 1 is at ({r}, {c}), expected the start ({}, {})",
            start.0, start.1
        ));
    }
    for k in 1..64 {
        let (a, b) = (square(k), square(k + 1));
        if !knight_move(a, b) {
            return Err(format!(
                "steps {k} ({}, {}) and {} ({}, {}) are not a knight's move apart",
                a.0,
                a.1,
                k + 1,
                b.0,
                b.1
            ));
        }
    }
    Ok(())
}

fn parse_start(text: &[u8]) -> Result<(usize, usize), String> {
    let toks: Vec<&[u8]> = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if toks.len() != 2 {
        return Err(format!("expected 2 numbers, found {}", toks.len()));
    }
    let coord = |t: &[u8]| -> Result<usize, String> {
        std::str::from_utf8(t)
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|&v| v < 8)
            .ok_or_else(|| format!("\"{}\" is not a coordinate in 0..=7", show(t)))
    };
    Ok((coord(toks[0])?, coord(toks[1])?))
}

fn judge_error(msg: String) -> ! {
    eprintln!("judge error: {msg}");
    exit(JUDGE_ERROR)
}

fn main() {
    let args: Vec<_> = env::args_os().collect();
    if args.len() != 4 {
        judge_error("usage: checker INPUT OUTPUT ANSWER".to_string());
    }
    let read = |i: usize, what: &str| {
        fs::read(&args[i]).unwrap_or_else(|e| {
            judge_error(format!(
                "cannot read {what} {}: {e}",
                args[i].to_string_lossy()
            ))
        })
    };

    let input = read(1, "input");
    let start = parse_start(&input).unwrap_or_else(|e| judge_error(format!("input: {e}")));
    let answer = read(3, "answer");
    if let Err(e) = check(&answer, start) {
        judge_error(format!("the answer is not a valid tour: {e}"));
    }
    let output = read(2, "output");
    if let Err(e) = check(&output, start) {
        eprintln!("{e}");
        exit(WRONG);
    }
}
