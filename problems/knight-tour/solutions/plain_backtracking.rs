// Depth-first search over knight moves in one fixed order, with no move
// ordering and no pruning. Correct, but the search tree is astronomically
// large on 8 x 8: from most starts it does not finish in time.
use std::io::{self, Read, Write};

const MOVES: [(i32, i32); 8] = [
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
];

fn extend(step: &mut [[u8; 8]; 8], r: i32, c: i32, k: u8) -> bool {
    step[r as usize][c as usize] = k;
    if k == 64 {
        return true;
    }
    for &(dr, dc) in &MOVES {
        let (nr, nc) = (r + dr, c + dc);
        if (0..8).contains(&nr)
            && (0..8).contains(&nc)
            && step[nr as usize][nc as usize] == 0
            && extend(step, nr, nc, k + 1)
        {
            return true;
        }
    }
    step[r as usize][c as usize] = 0;
    false
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|x| x.parse::<i32>().unwrap());
    let (r, c) = (it.next().unwrap(), it.next().unwrap());

    let mut step = [[0u8; 8]; 8];
    extend(&mut step, r, c, 1);

    let mut out = String::with_capacity(256);
    for row in &step {
        let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
