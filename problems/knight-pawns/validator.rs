// Validator for knight-pawns: exit 0 on a valid input, else exit 1 with one
// line on stderr naming the input line and the broken rule. A valid input
// also gets its constraint report on stdout (`value` and `case` lines, see
// the manual), which is printed only once the whole input is found valid.
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::exit;

const MAX_COORD: i64 = 49;
const MAX_PAWNS: i64 = 15;

fn reject(line: usize, what: String) -> ! {
    eprintln!("line {}: {}", line, what);
    exit(1);
}

// Tokens are shown as the input spells them (even if not UTF-8 or very long),
// cut short so that a garbage line cannot flood the message.
fn show(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    if text.chars().count() > 24 {
        format!("{}...", text.chars().take(24).collect::<String>())
    } else {
        text.into_owned()
    }
}

// Only canonical decimal integers count: no sign other than a leading '-',
// no leading zeros, no "-0". Values too long for i64 come back as None and
// are reported as out of range rather than as non-numbers.
fn parse_int(line: usize, token: &[u8]) -> Option<i64> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    let canonical = !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits == b"0" || digits[0] != b'0')
        && token != b"-0";
    if !canonical {
        reject(line, format!("\"{}\" is not an integer", show(token)));
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

struct Lines<'a> {
    lines: Vec<&'a [u8]>,
}

impl<'a> Lines<'a> {
    fn tokens(&self, index: usize) -> Vec<&'a [u8]> {
        self.lines[index]
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .collect()
    }

    // Reads line `line` (1-based), which must hold exactly one number per name,
    // each within `range`.
    fn numbers(&self, line: usize, names: &[String], range: (i64, i64)) -> Vec<i64> {
        if line > self.lines.len() {
            reject(line, format!("expected {} numbers, found end of input", names.len()));
        }
        let tokens = self.tokens(line - 1);
        if tokens.len() != names.len() {
            let noun = if names.len() == 1 { "number" } else { "numbers" };
            reject(line, format!("expected {} {}, found {}", names.len(), noun, tokens.len()));
        }
        names
            .iter()
            .zip(&tokens)
            .map(|(name, token)| match parse_int(line, token) {
                Some(v) if range.0 <= v && v <= range.1 => v,
                _ => reject(
                    line,
                    format!("{} = {} is out of range {}..={}", name, show(token), range.0, range.1),
                ),
            })
            .collect()
    }
}

// The squares a knight reaches in one move from (x, y), on the board or not.
fn knight_moves((x, y): (i64, i64)) -> impl Iterator<Item = (i64, i64)> {
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
        .into_iter()
        .map(move |(dx, dy)| (x + dx, y + dy))
}

// Knight moves from `from` to every square, row-major.
fn knight_distances(from: (i64, i64)) -> Vec<i64> {
    let side = MAX_COORD + 1;
    let mut dist = vec![-1; (side * side) as usize];
    dist[(from.0 * side + from.1) as usize] = 0;
    let mut queue = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let here = queue[head];
        head += 1;
        let next = dist[(here.0 * side + here.1) as usize] + 1;
        for (x, y) in knight_moves(here) {
            if (0..side).contains(&x) && (0..side).contains(&y) && dist[(x * side + y) as usize] < 0 {
                dist[(x * side + y) as usize] = next;
                queue.push((x, y));
            }
        }
    }
    dist
}

fn value(report: &mut String, name: &str, v: i64, range: (i64, i64)) {
    writeln!(report, "value {} {} {} {}", name, v, range.0, range.1).unwrap();
}

fn case(report: &mut String, name: &str, holds: bool) {
    writeln!(report, "case {} {}", name, if holds { "yes" } else { "no" }).unwrap();
}

fn main() {
    let mut input = Vec::new();
    if io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "cannot read the input".to_string());
    }
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    // A final newline ends the last line; it does not start an empty one.
    if lines.last() == Some(&&b""[..]) {
        lines.pop();
    }
    let lines = Lines { lines };

    let coord = (0, MAX_COORD);
    let knight = lines.numbers(1, &["kx".to_string(), "ky".to_string()], coord);
    let n = lines.numbers(2, &["n".to_string()], (1, MAX_PAWNS))[0] as usize;
    let mut report = String::new();
    value(&mut report, "kx", knight[0], coord);
    value(&mut report, "ky", knight[1], coord);
    value(&mut report, "n", n as i64, (1, MAX_PAWNS));

    let mut pawns: Vec<(i64, i64)> = Vec::with_capacity(n);
    for i in 1..=n {
        let line = i + 2;
        let p = lines.numbers(line, &[format!("x{}", i), format!("y{}", i)], coord);
        let here = (p[0], p[1]);
        if here == (knight[0], knight[1]) {
            reject(line, format!("pawn {} at ({}, {}) is on the knight's square", i, p[0], p[1]));
        }
        if let Some(j) = pawns.iter().position(|&q| q == here) {
            reject(line, format!("pawn {} at ({}, {}) repeats pawn {}", i, p[0], p[1], j + 1));
        }
        pawns.push(here);
        // Every pawn's coordinates under one name, so the report shows the range all pawns cover.
        value(&mut report, "x", p[0], coord);
        value(&mut report, "y", p[1], coord);
    }

    for index in n + 2..lines.lines.len() {
        if let Some(token) = lines.tokens(index).first() {
            reject(index + 1, format!("unexpected trailing token \"{}\"", show(token)));
        }
    }

    let knight = (knight[0], knight[1]);
    let on_edge = |(x, y): (i64, i64)| x == 0 || y == 0 || x == MAX_COORD || y == MAX_COORD;
    let in_corner = |(x, y): (i64, i64)| (x == 0 || x == MAX_COORD) && (y == 0 || y == MAX_COORD);
    case(&mut report, "knight-in-corner", in_corner(knight));
    case(&mut report, "knight-on-edge-not-corner", on_edge(knight) && !in_corner(knight));
    case(&mut report, "pawn-in-corner", pawns.iter().any(|&p| in_corner(p)));
    let one_move: Vec<(i64, i64)> = knight_moves(knight).collect();
    case(&mut report, "all-pawns-one-move", pawns.iter().all(|p| one_move.contains(p)));
    // The `ring` tests: every pawn equally far from the knight, so no capture order is shorter at first.
    let dist = knight_distances(knight);
    let far = |&(x, y): &(i64, i64)| dist[(x * (MAX_COORD + 1) + y) as usize];
    case(
        &mut report,
        "all-pawns-same-distance",
        n >= 2 && pawns.iter().all(|p| far(p) == far(&pawns[0])),
    );
    // A reader that has gone away cannot make a valid input invalid.
    let _ = io::stdout().lock().write_all(report.as_bytes());
}
