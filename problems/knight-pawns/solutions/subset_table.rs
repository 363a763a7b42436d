// Knight and pawns: distances by BFS, then the minimax values filled into a
// flat table over sets of remaining pawns, smallest sets first, no recursion.
use std::io::{self, Read, Write};

const SIDE: usize = 50;

fn bfs(start: usize) -> Vec<u16> {
    let mut dist = vec![u16::MAX; SIDE * SIDE];
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
                if dist[next] == u16::MAX {
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
    // Square n is the knight's starting square; 0..n are the pawns.
    let mut squares: Vec<usize> = (0..n).map(|i| nums[3 + 2 * i] * SIDE + nums[4 + 2 * i]).collect();
    squares.push(nums[0] * SIDE + nums[1]);

    let mut dist = vec![0u16; (n + 1) * (n + 1)];
    for a in 0..=n {
        let field = bfs(squares[a]);
        for b in 0..=n {
            dist[a * (n + 1) + b] = field[squares[b]];
        }
    }

    // table[left * n + pos]: best total of the moves still to come when the
    // knight stands on pawn pos's square and `left` is the set still on the
    // board. Removing a pawn gives a smaller number, so ascending order has
    // every successor ready. The empty set is worth 0, as the zeroed row says.
    let full = (1usize << n) - 1;
    let mut table = vec![0u16; (full + 1) * n];
    for left in 1..full {
        let maximize = (n - left.count_ones() as usize) % 2 == 0;
        for pos in 0..n {
            if left >> pos & 1 == 1 {
                continue;
            }
            let mut best = if maximize { 0 } else { u16::MAX };
            let mut rest = left;
            while rest != 0 {
                let next = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let total = dist[pos * (n + 1) + next] + table[(left ^ (1 << next)) * n + next];
                best = if maximize { best.max(total) } else { best.min(total) };
            }
            table[left * n + pos] = best;
        }
    }

    // The full set is only ever seen from the knight's own square, with Alice to move.
    let answer = (0..n)
        .map(|first| dist[n * (n + 1) + first] + table[(full ^ (1 << first)) * n + first])
        .max()
        .unwrap();

    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", answer).unwrap();
}
