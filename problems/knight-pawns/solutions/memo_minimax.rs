// Knight and pawns: distances by BFS, then a memoized minimax over
// (square the knight stands on, set of pawns still on the board).
use std::io::{self, Read, Write};

const SIDE: usize = 50;
const JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn bfs(sx: usize, sy: usize) -> Vec<u16> {
    let mut dist = vec![u16::MAX; SIDE * SIDE];
    let mut queue = Vec::with_capacity(SIDE * SIDE);
    dist[sx * SIDE + sy] = 0;
    queue.push((sx, sy));
    let mut head = 0;
    while head < queue.len() {
        let (x, y) = queue[head];
        head += 1;
        let here = dist[x * SIDE + y];
        for &(dx, dy) in &JUMPS {
            let nx = x as i32 + dx;
            let ny = y as i32 + dy;
            if nx < 0 || ny < 0 || nx >= SIDE as i32 || ny >= SIDE as i32 {
                continue;
            }
            let cell = nx as usize * SIDE + ny as usize;
            if dist[cell] == u16::MAX {
                dist[cell] = here + 1;
                queue.push((nx as usize, ny as usize));
            }
        }
    }
    dist
}

struct Game {
    n: usize,
    // dist[a][b]: knight moves between pawn a and pawn b.
    dist: Vec<Vec<u16>>,
    // Indexed by pos << n | left; u16::MAX marks a state not yet solved.
    memo: Vec<u16>,
}

impl Game {
    // Best total of the remaining moves when the knight stands on pawn `pos`'s
    // square and `left` holds the pawns still on the board. The parity of the
    // number of captures so far says whose turn it is, so it is not part of the key.
    fn value(&mut self, pos: usize, left: u32) -> u16 {
        if left == 0 {
            return 0;
        }
        let key = (pos << self.n) | left as usize;
        if self.memo[key] != u16::MAX {
            return self.memo[key];
        }
        let taken = self.n - left.count_ones() as usize;
        let maximize = taken % 2 == 0;
        let mut best = if maximize { 0 } else { u16::MAX };
        let mut rest = left;
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let total = self.dist[pos][next] + self.value(next, left & !(1 << next));
            best = if maximize { best.max(total) } else { best.min(total) };
        }
        self.memo[key] = best;
        best
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let kx = it.next().unwrap();
    let ky = it.next().unwrap();
    let n = it.next().unwrap();
    let pawns: Vec<(usize, usize)> = (0..n)
        .map(|_| (it.next().unwrap(), it.next().unwrap()))
        .collect();

    let from_knight = bfs(kx, ky);
    let dist: Vec<Vec<u16>> = pawns
        .iter()
        .map(|&(x, y)| {
            let field = bfs(x, y);
            pawns.iter().map(|&(px, py)| field[px * SIDE + py]).collect()
        })
        .collect();

    let mut game = Game {
        n,
        dist,
        memo: vec![u16::MAX; n << n],
    };
    // Alice moves first, from the knight's square, with every pawn left.
    let mut best = 0;
    for first in 0..n {
        let (x, y) = pawns[first];
        let full = (1u32 << n) - 1;
        best = best.max(from_knight[x * SIDE + y] + game.value(first, full & !(1 << first)));
    }

    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", best).unwrap();
}
