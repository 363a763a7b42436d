// Test generator for hidden-knight: `generator MODE ARGS...` prints one input,
// the hidden square "hx hy".
use std::io::{self, Write};
use std::process::exit;

const SIDE: u64 = 50;

const USAGE: &str = "usage: generator square X Y   the square (X, Y), 0 <= X, Y <= 49
       generator random SEED    any square of the board
       generator corner SEED    a square in one of the four 7 x 7 corner blocks
       generator edge SEED      a square on the two outermost rings of the board
       generator shrink         reads an input, prints no smaller one: there is none
  SEED  any unsigned 64-bit integer";

// splitmix64: tiny, and the same stream on every platform for a given seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }

    // A square drawn evenly from those that `keep` accepts.
    fn square(&mut self, keep: impl Fn(u64, u64) -> bool) -> (u64, u64) {
        let pool: Vec<(u64, u64)> = (0..SIDE)
            .flat_map(|x| (0..SIDE).map(move |y| (x, y)))
            .filter(|&(x, y)| keep(x, y))
            .collect();
        pool[self.below(pool.len() as u64) as usize]
    }
}

fn usage(why: &str) -> ! {
    eprintln!("{why}\n{USAGE}");
    exit(2)
}

fn number(text: &str, name: &str, bound: u64) -> u64 {
    match text.parse::<u64>() {
        Ok(v) if v < bound => v,
        _ => usage(&format!("{name} = \"{text}\" is not an integer in 0..={}", bound - 1)),
    }
}

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string().unwrap_or_else(|_| usage("arguments must be text")))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // How far a coordinate is from the nearer side of the board.
    let inset = |v: u64| v.min(SIDE - 1 - v);
    let (x, y) = match args[..] {
        ["square", x, y] => (number(x, "X", SIDE), number(y, "Y", SIDE)),
        [mode @ ("random" | "corner" | "edge"), seed] => {
            let seed: u64 = seed
                .parse()
                .unwrap_or_else(|_| usage(&format!("SEED = \"{seed}\" is not an unsigned 64-bit integer")));
            // Mixing the mode into the seed keeps two modes with one seed unrelated.
            let salt = mode.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
            let mut rng = Rng(seed ^ salt.wrapping_mul(0x2545_F491_4F6C_DD1D));
            match mode {
                "random" => rng.square(|_, _| true),
                "corner" => rng.square(|x, y| inset(x) < 7 && inset(y) < 7),
                _ => rng.square(|x, y| inset(x).min(inset(y)) < 2),
            }
        }
        ["shrink"] => {
            // Read to the end, so that whoever writes the input is never cut off.
            let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
            return;
        }
        _ => usage("unknown mode or wrong number of arguments"),
    };
    let _ = writeln!(io::stdout().lock(), "{x} {y}");
}
