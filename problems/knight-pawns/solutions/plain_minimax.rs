// Too slow on purpose: the game tree searched in full, with no memo. The
// answers are right, but it visits every order of capture, about e * n!
// positions, which is out of reach long before n = 15.
use std::io::{self, Read, Write};

const SIDE: usize = 50;

fn bfs(start: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; SIDE * SIDE];
    let mut queue = vec![start];
    dist[start] = 0;
    let mut head = 0;
    while head < queue.len() {
        let cell = queue[head];
        head += 1;
        let (x, y) = ((cell / SIDE) as i32, (cell % SIDE) as i32);
        for (dx, dy) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            let (nx, ny) = (x + dx, y + dy);
            if (0..SIDE as i32).contains(&nx) && (0..SIDE as i32).contains(&ny) {
                let next = nx as usize * SIDE + ny as usize;
                if dist[next] == u32::MAX {
                    dist[next] = dist[cell] + 1;
                    queue.push(next);
                }
            }
        }
    }
    dist
}

/// The game's value with the pawns of `free` (a bit each) still on the board and the knight on `at`.
fn search(dist: &[Vec<u32>], at: usize, free: u32, alice: bool) -> u32 {
    let mut best: Option<u32> = None;
    let mut left = free;
    while left != 0 {
        let next = left.trailing_zeros() as usize;
        left &= left - 1;
        let total = dist[at][next] + search(dist, next, free & !(1 << next), !alice);
        best = Some(match best {
            None => total,
            Some(b) if alice => b.max(total),
            Some(b) => b.min(total),
        });
    }
    best.unwrap_or(0)
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let n = nums[2];
    // Pawns are 0..n; the knight's starting square is n.
    let mut squares: Vec<usize> = (0..n).map(|i| nums[3 + 2 * i] * SIDE + nums[4 + 2 * i]).collect();
    squares.push(nums[0] * SIDE + nums[1]);
    let dist: Vec<Vec<u32>> = squares
        .iter()
        .map(|&s| {
            let field = bfs(s);
            squares[..n].iter().map(|&t| field[t]).collect()
        })
        .collect();
    let answer = search(&dist, n, (1u32 << n) - 1, true);
    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", answer).unwrap();
}
