// Generator for knight-tour. Every input is one start square, so there is
// nothing random to draw: the tests simply name squares.
//   generator square R C   prints "R C"              (0 <= R, C <= 7)
//   generator index K      prints square K row-major (0 <= K <= 63)
//   generator shrink       prints nothing: one square is as small as an input gets
use std::env;
use std::io;
use std::process::exit;

const USAGE: &str = "usage: generator square R C   (0 <= R, C <= 7)
       generator index K      (0 <= K <= 63)
       generator shrink       (reads an input, prints no smaller one: there is none)";

fn usage(why: &str) -> ! {
    eprintln!("{why}\n{USAGE}");
    exit(2)
}

fn arg(s: &str, bound: u32, name: &str) -> u32 {
    match s.parse::<u32>() {
        Ok(v) if v < bound => v,
        _ => usage(&format!(
            "{name} = \"{s}\" is not an integer in 0..={}",
            bound - 1
        )),
    }
}

fn main() {
    let args: Vec<String> = env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .unwrap_or_else(|_| usage("arguments must be text"))
        })
        .collect();
    let (r, c) = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["square", r, c] => (arg(r, 8, "R"), arg(c, 8, "C")),
        ["index", k] => {
            let k = arg(k, 64, "K");
            (k / 8, k % 8)
        }
        ["shrink"] => {
            // Read to the end, so that whoever writes the input is never cut off.
            let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
            return;
        }
        _ => usage("unknown mode or wrong number of arguments"),
    };
    println!("{r} {c}");
}
