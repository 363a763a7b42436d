// Test generator: `generator MODE ARGS... SEED` prints one input on stdout. The same arguments always give the
// same input, so testdata/<problem>/recipe.toml can rebuild every generated test. Replace the placeholder
// modes with your problem's, one per kind of test (random, extreme values, worst cases for slow solutions).
use std::io::{self, Write};
use std::process::exit;

const LIMIT: i64 = 1_000_000_000;

const USAGE: &str = "usage: generator MODE SEED
  MODE  random   two integers anywhere in -10^9..=10^9
        max      the largest values (their sum is near 2 x 10^9)
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

    // Uniform enough in lo..=hi for tests.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

fn fail() -> ! {
    eprintln!("{USAGE}");
    exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, seed] = args.as_slice() else { fail() };
    let Ok(seed) = seed.parse::<u64>() else { fail() };
    let mut rng = Rng(seed);
    let (a, b) = match mode.as_str() {
        "random" => (rng.between(-LIMIT, LIMIT), rng.between(-LIMIT, LIMIT)),
        "max" => (LIMIT, LIMIT - rng.between(0, 10)),
        _ => fail(),
    };
    writeln!(io::stdout(), "{a} {b}").expect("stdout");
}
