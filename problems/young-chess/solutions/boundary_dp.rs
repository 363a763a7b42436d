// The filled region is a staircase, and a staircase is the same thing as the
// lattice path that separates it from the empty cells. Walking that path from
// the bottom-left corner to the top-right corner takes m steps right (bit 0)
// and n steps up (bit 1), so every position is an (n+m)-bit number with n ones
// and can index a flat table without any ranking.
//
// A cell can be filled exactly where the path goes up and then right (bits k
// and k+1 read 1, 0). Filling it turns the pair into 0, 1, which moves a one
// to a higher bit: every successor has a larger code than its predecessor, so
// solving the codes in decreasing order always finds successors done.

use std::io::{self, Read, Write};

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

    let bits = n + m;
    let all: u32 = (1 << bits) - 1;
    let empty: u32 = (1 << n) - 1;
    // An up step in the top bit has no right step after it.
    let inner: u32 = all >> 1;
    let mut value = vec![0i64; 1 << bits];

    // Decreasing codes with n ones are exactly increasing codes with m ones
    // taken as complements, and those come one after another from the
    // standard next-subset-of-the-same-size step. The first is the full board,
    // worth 0 as the table already says, so start from its successor.
    let mut rights: u32 = (1 << m) - 1;
    let last: u32 = rights << n;
    while rights != last {
        let filled_low = rights | (rights - 1);
        rights = (filled_low + 1)
            | (((!filled_low & (filled_low + 1)) - 1) >> (rights.trailing_zeros() + 1));
        let code = all ^ rights;

        // The stones placed are the row lengths summed: the up step at
        // position k, number t from the bottom (counting from 0), closes a
        // row of k - t cells, so the total is the sum of the positions of
        // the ones minus n(n-1)/2. Only its parity matters, and the sum of
        // the positions is odd exactly when the ones at odd positions are.
        let odd_ones = (code & 0xaaaa_aaaa).count_ones() as usize;
        let black = (odd_ones + n * (n - 1) / 2) % 2 == 0;

        let mut corners = code & !(code >> 1) & inner;
        let mut best = if black { i64::MIN } else { i64::MAX };
        while corners != 0 {
            let k = corners.trailing_zeros();
            corners &= corners - 1;
            // With `up` up steps below position k, that step leads into row
            // n-1-up, which already holds k-up cells.
            let up = (code & ((1 << k) - 1)).count_ones() as usize;
            let (i, j) = (n - 1 - up, k as usize - up);
            let after = value[(code ^ (0b11 << k)) as usize];
            if black {
                best = best.max(a[i][j] + after);
            } else {
                best = best.min(after - b[i][j]);
            }
        }
        value[code as usize] = best;
    }

    let out = format!("{}\n", value[empty as usize]);
    io::stdout().write_all(out.as_bytes()).unwrap();
}
