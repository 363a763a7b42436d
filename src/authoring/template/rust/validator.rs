// Validator: exit 0 on a valid input, else exit 1 with one line on stderr, "line N: what is wrong". On a valid
// input it reports on stdout what `cpjudge validate` sums up over the tests: "value NAME V MIN MAX" for each
// bounded value, "case NAME yes|no" for each special case, so that you see which bounds the tests reach.
// It checks the placeholder format (one line "A B", integers within +-10^9, nothing else): replace the checks
// in `main` with your problem's format, keeping the input strict (single spaces, one newline at the end).
use std::io::{self, Read};
use std::process::exit;

const LIMIT: i64 = 1_000_000_000;

fn reject(line: usize, what: &str) -> ! {
    eprintln!("line {line}: {what}");
    exit(1);
}

// A canonical decimal integer within -LIMIT..=LIMIT: no '+', no leading zeros, no "-0".
fn integer(line: usize, token: &str) -> i64 {
    let digits = token.strip_prefix('-').unwrap_or(token);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && token != "-0";
    if !canonical {
        reject(line, &format!("{token:?} is not an integer"));
    }
    match token.parse::<i64>() {
        Ok(value) if (-LIMIT..=LIMIT).contains(&value) => value,
        _ => reject(line, &format!("{token} is out of range -{LIMIT}..={LIMIT}")),
    }
}

fn main() {
    let mut bytes = Vec::new();
    io::stdin().read_to_end(&mut bytes).expect("stdin");
    let Ok(input) = String::from_utf8(bytes) else {
        reject(1, "the input is not UTF-8");
    };
    let Some(body) = input.strip_suffix('\n') else {
        reject(input.lines().count().max(1), "the input does not end with a newline");
    };
    let lines: Vec<&str> = body.split('\n').collect();
    // Line 1: "A B".
    let tokens: Vec<&str> = lines[0].split(' ').collect();
    if tokens.len() != 2 {
        reject(1, &format!("expected 2 integers separated by one space, found {:?}", lines[0]));
    }
    let a = integer(1, tokens[0]);
    let b = integer(1, tokens[1]);
    if lines.len() > 1 {
        reject(2, "expected the end of the input");
    }
    println!("value a {a} -{LIMIT} {LIMIT}");
    println!("value b {b} -{LIMIT} {LIMIT}");
    println!("case negative_sum {}", if a + b < 0 { "yes" } else { "no" });
}
