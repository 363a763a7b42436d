// Plays the game out once, each side grabbing whatever fillable cell pays it
// the most right now (black by A, white by B, the topmost row on ties). It
// never looks at what the move opens up for the opponent, which is exactly
// where the real game is decided.

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

    let mut rows = vec![0usize; n];
    let mut diff = 0i64;
    for stone in 0..n * m {
        let black = stone % 2 == 0;
        let mut pick: Option<(usize, i64)> = None;
        for i in 0..n {
            let j = rows[i];
            let limit = if i == 0 { m } else { rows[i - 1] };
            if j >= limit {
                continue;
            }
            let gain = if black { a[i][j] } else { b[i][j] };
            if pick.map_or(true, |(_, g)| gain > g) {
                pick = Some((i, gain));
            }
        }
        let (i, gain) = pick.unwrap();
        rows[i] += 1;
        diff += if black { gain } else { -gain };
    }

    let out = format!("{}\n", diff);
    io::stdout().write_all(out.as_bytes()).unwrap();
}
