// Builds one young-chess input from a mode and its arguments. All randomness
// comes from a splitmix64 stream seeded by the seed argument, so the same
// arguments always rebuild the same file. `generator shrink` instead prints
// the inputs one row or one column smaller than the input on stdin.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::exit;

const MAX_SIDE: u64 = 10;
const MAX_VALUE: u64 = 100_000;

const USAGE: &str = "usage: generator MODE [ARGS...]
  random N M MAXV SEED   every A and B uniform in 0..=MAXV
  zero_b N M MAXV SEED   A uniform in 0..=MAXV, every B = 0
  zeros N M              every value 0
  ties N M V             every value V
  row M SEED             a 1 x M board, values up to 100000
  col N SEED             an N x 1 board, values up to 100000
  bait N M MAXV SEED     small values near the corner guarding large ones
                         further in, so grabbing the best cell now hands the
                         opponent a bigger one next
  shrink                 read one valid input on stdin, print every input
                         with its last row, last column, first row or first
                         column removed (from A and B), each followed by a
                         line \"---\"; none below 1 x 1
N, M in 1..=10, MAXV and V in 0..=100000";

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    // Inclusive range; the modulo bias is far too small to matter here.
    fn upto(&mut self, hi: u64) -> u64 {
        self.next() % (hi + 1)
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("generator: {}\n{}", msg, USAGE);
    exit(2);
}

fn number(args: &[String], k: usize, what: &str, lo: u64, hi: u64) -> u64 {
    let text = args
        .get(k)
        .unwrap_or_else(|| fail(&format!("missing argument {}", what)));
    match text.parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => v,
        _ => fail(&format!("{} = {:?} is not in {}..={}", what, text, lo, hi)),
    }
}

fn expect_args(args: &[String], count: usize) {
    if args.len() != count + 1 {
        fail(&format!(
            "mode {} takes {} arguments, got {}",
            args[0],
            count,
            args.len() - 1
        ));
    }
}

fn board(a: &[Vec<u64>], b: &[Vec<u64>]) -> String {
    let mut out = String::new();
    writeln!(out, "{} {}", a.len(), a[0].len()).unwrap();
    for grid in [a, b] {
        for row in grid {
            let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            writeln!(out, "{}", line.join(" ")).unwrap();
        }
    }
    out
}

fn print_board(a: &[Vec<u64>], b: &[Vec<u64>]) {
    io::stdout().write_all(board(a, b).as_bytes()).unwrap();
}

// Reads "n m", then n rows of A and n rows of B, trusting the input to be valid
// in all but its shape.
fn read_board(input: &str) -> Option<(Vec<Vec<u64>>, Vec<Vec<u64>>)> {
    let mut numbers = input.split_whitespace().map(|t| t.parse::<u64>().ok());
    let mut next = || numbers.next().flatten();
    let (n, m) = (next()? as usize, next()? as usize);
    if n == 0 || m == 0 {
        return None;
    }
    let mut grid = || -> Option<Vec<Vec<u64>>> {
        (0..n).map(|_| (0..m).map(|_| next()).collect()).collect()
    };
    let (a, b) = (grid()?, grid()?);
    Some((a, b))
}

// Every board one row or one column smaller, each cut from A and B alike:
// the last row and column first, as a cut there keeps the corner where play
// starts. A cut that gives the same board as an earlier one is left out.
fn shrink() {
    let mut input = String::new();
    let read = io::stdin().read_to_string(&mut input).ok().and_then(|_| read_board(&input));
    let Some((a, b)) = read else {
        eprintln!("shrink: the input is not \"n m\", then n rows of A and n rows of B");
        exit(1);
    };
    let (n, m) = (a.len(), a[0].len());
    let rows = |g: &[Vec<u64>], skip: usize| -> Vec<Vec<u64>> {
        g.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, r)| r.clone()).collect()
    };
    let columns = |g: &[Vec<u64>], skip: usize| -> Vec<Vec<u64>> {
        g.iter()
            .map(|r| r.iter().enumerate().filter(|&(j, _)| j != skip).map(|(_, &v)| v).collect())
            .collect()
    };
    let mut candidates: Vec<String> = Vec::new();
    let mut offer = |text: String| {
        if !candidates.contains(&text) {
            candidates.push(text);
        }
    };
    if n > 1 {
        offer(board(&rows(&a, n - 1), &rows(&b, n - 1)));
    }
    if m > 1 {
        offer(board(&columns(&a, m - 1), &columns(&b, m - 1)));
    }
    if n > 1 {
        offer(board(&rows(&a, 0), &rows(&b, 0)));
    }
    if m > 1 {
        offer(board(&columns(&a, 0), &columns(&b, 0)));
    }
    let mut out = String::new();
    for candidate in candidates {
        out.push_str(&candidate);
        out.push_str("---\n");
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}

fn filled(n: usize, m: usize, mut f: impl FnMut(usize, usize) -> u64) -> Vec<Vec<u64>> {
    (0..n).map(|i| (0..m).map(|j| f(i, j)).collect()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        fail("missing mode");
    }
    if args[0] == "shrink" {
        expect_args(&args, 0);
        return shrink();
    }
    let side = |k: usize, what: &str| number(&args, k, what, 1, MAX_SIDE) as usize;
    let (a, b) = match args[0].as_str() {
        "random" | "zero_b" => {
            expect_args(&args, 4);
            let (n, m) = (side(1, "N"), side(2, "M"));
            let maxv = number(&args, 3, "MAXV", 0, MAX_VALUE);
            let mut rng = Rng(number(&args, 4, "SEED", 0, u64::MAX));
            let a = filled(n, m, |_, _| rng.upto(maxv));
            let b = if args[0] == "random" {
                filled(n, m, |_, _| rng.upto(maxv))
            } else {
                filled(n, m, |_, _| 0)
            };
            (a, b)
        }
        "zeros" => {
            expect_args(&args, 2);
            let (n, m) = (side(1, "N"), side(2, "M"));
            (filled(n, m, |_, _| 0), filled(n, m, |_, _| 0))
        }
        "ties" => {
            expect_args(&args, 3);
            let (n, m) = (side(1, "N"), side(2, "M"));
            let v = number(&args, 3, "V", 0, MAX_VALUE);
            (filled(n, m, |_, _| v), filled(n, m, |_, _| v))
        }
        "row" | "col" => {
            expect_args(&args, 2);
            let len = side(1, if args[0] == "row" { "M" } else { "N" });
            let mut rng = Rng(number(&args, 2, "SEED", 0, u64::MAX));
            let (n, m) = if args[0] == "row" { (1, len) } else { (len, 1) };
            let a = filled(n, m, |_, _| rng.upto(MAX_VALUE));
            let b = filled(n, m, |_, _| rng.upto(MAX_VALUE));
            (a, b)
        }
        "bait" => {
            expect_args(&args, 4);
            let (n, m) = (side(1, "N"), side(2, "M"));
            let maxv = number(&args, 3, "MAXV", 0, MAX_VALUE);
            let mut rng = Rng(number(&args, 4, "SEED", 0, u64::MAX));
            // Values grow with the distance from the corner, with a random
            // share on top so that no two boards play out the same way.
            let reach = (n + m - 2).max(1) as u64;
            let mut value = |i: usize, j: usize| {
                let base = maxv / 2 * (i + j) as u64 / reach;
                base + rng.upto(maxv - maxv / 2)
            };
            let a = filled(n, m, &mut value);
            let b = filled(n, m, &mut value);
            (a, b)
        }
        other => fail(&format!("unknown mode {:?}", other)),
    };
    print_board(&a, &b);
}
