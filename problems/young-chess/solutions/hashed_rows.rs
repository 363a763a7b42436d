// Memoized search over the row lengths of the filled staircase. Ten lengths
// of at most 10 fit in 4 bits each, so a whole position packs into one u64 key.
// The default SipHash is built to resist hostile keys, which these are not; a
// single multiply-and-fold keeps the hashing cost below the map's own work,
// and reserving room for every staircase up front avoids rehashing midway.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Read, Write};

#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &x in bytes {
            self.write_u64(x as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // The map takes bucket bits from the low end and a tag from the top,
        // so fold the well-mixed high half down into the low half.
        self.0 = h ^ (h >> 32);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Memo = HashMap<u64, i64, BuildHasherDefault<FoldHasher>>;

struct Game {
    n: usize,
    m: usize,
    a: Vec<Vec<i64>>,
    b: Vec<Vec<i64>>,
    memo: Memo,
}

impl Game {
    // Value of the position (black minus white from here on) whose row i
    // holds key >> 4i & 15 stones, `stones` of them in all. Filling a cell in
    // row i adds 1 << 4i to the key, so children never repack the rows.
    fn solve(&mut self, key: u64, stones: usize) -> i64 {
        if stones == self.n * self.m {
            return 0;
        }
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let black = stones % 2 == 0;
        let mut best = if black { i64::MIN } else { i64::MAX };
        let mut above = self.m;
        for i in 0..self.n {
            let j = (key >> (4 * i) & 15) as usize;
            if j < above {
                let after = self.solve(key + (1 << (4 * i)), stones + 1);
                if black {
                    best = best.max(self.a[i][j] + after);
                } else {
                    best = best.min(after - self.b[i][j]);
                }
            }
            // Below an empty row every row is empty and blocked.
            if j == 0 {
                break;
            }
            above = j;
        }
        self.memo.insert(key, best);
        best
    }
}

fn binomial(top: usize, k: usize) -> usize {
    (0..k).fold(1usize, |c, i| c * (top - i) / (i + 1))
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let m = it.next().unwrap() as usize;
    let mut a = vec![vec![0i64; m]; n];
    let mut b = vec![vec![0i64; m]; n];
    for row in a.iter_mut() {
        for x in row.iter_mut() {
            *x = it.next().unwrap();
        }
    }
    for row in b.iter_mut() {
        for x in row.iter_mut() {
            *x = it.next().unwrap();
        }
    }

    let states = binomial(n + m, n);
    let mut game = Game {
        n,
        m,
        a,
        b,
        memo: Memo::with_capacity_and_hasher(states, Default::default()),
    };
    let answer = game.solve(0, 0);
    let out = format!("{}\n", answer);
    io::stdout().write_all(out.as_bytes()).unwrap();
}
