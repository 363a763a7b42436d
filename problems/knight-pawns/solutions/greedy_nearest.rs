// Wrong on purpose: each player takes the pawn nearest to the knight (lowest
// index on ties), ignoring the other player's replies. Alice wants the game
// long, so grabbing the closest pawn is usually the opposite of her interest.
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

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let n = nums[2];
    let mut left: Vec<usize> = (0..n).map(|i| nums[3 + 2 * i] * SIDE + nums[4 + 2 * i]).collect();
    let mut at = nums[0] * SIDE + nums[1];
    let mut total = 0;
    while !left.is_empty() {
        let field = bfs(at);
        let pick = (0..left.len()).min_by_key(|&i| field[left[i]]).unwrap();
        total += field[left[pick]];
        at = left.remove(pick);
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", total).unwrap();
}
