// The main reference: the answers (.ans files) are its output. Replace the placeholder (the sum of two
// integers) with a correct solution of your problem. Single file, standard library only: read stdin, write
// stdout.
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("stdin");
    let numbers: Vec<i64> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().expect("an integer"))
        .collect();
    let sum: i64 = numbers.iter().sum();
    writeln!(io::stdout(), "{sum}").expect("stdout");
}
