// Knight and pawns: distances by BFS, then a memoized minimax over
// (square the knight stands on, set of pawns still on the board).
//
// The memo has one row per set of pawns still on the board, with the value
// for every square the knight may stand on: lanes 0..n for the pawns' squares
// (only those of pawns already taken matter) and lane n for its starting
// square (only with every pawn still there). Sixteen 16-bit lanes make a row,
// and the search solves a whole row at once: capturing pawn `next` from
// square p is worth dist(p, next) plus one number, the row without `next`
// read in `next`'s lane, so every lane takes the same few vector instructions.
use std::io::{self, Read, Write};

const SIDE: usize = 50;
// The knight's start and at most 15 pawns.
const LANES: usize = 16;
type Row = [i16; LANES];

// Squares of a board with two spare ranks and files on each side, so that a
// knight's jump from any real square lands inside the array. The spare
// squares count as seen from the start, so no search ever enters them.
const PAD: usize = 2;
const WIDE: usize = SIDE + 2 * PAD;
const JUMPS: [isize; 8] = [
    2 * WIDE as isize + 1,
    2 * WIDE as isize - 1,
    -2 * WIDE as isize + 1,
    -2 * WIDE as isize - 1,
    WIDE as isize + 2,
    WIDE as isize - 2,
    -(WIDE as isize) + 2,
    -(WIDE as isize) - 2,
];
const UNSEEN: u8 = u8::MAX;

fn square(x: usize, y: usize) -> usize {
    (x + PAD) * WIDE + y + PAD
}

// dist[a][b]: knight moves between points a and b, as rows over b. A search
// from each point finds the points after it, and stops with the level where
// the last of them turns up; the distance back is the same.
fn distances(points: &[usize]) -> Vec<Row> {
    let mut blank = vec![0; WIDE * WIDE];
    for x in 0..SIDE {
        blank[square(x, 0)..square(x, SIDE)].fill(UNSEEN);
    }
    let mut queue = Vec::with_capacity(SIDE * SIDE);
    let mut dist = vec![[0; LANES]; points.len()];
    for (a, &start) in points.iter().enumerate() {
        let targets = &points[a + 1..];
        let mut seen = blank.clone();
        seen[start] = 0;
        queue.clear();
        queue.push(start);
        let mut head = 0;
        let mut level = 0;
        while head < queue.len() && targets.iter().any(|&t| seen[t] == UNSEEN) {
            level += 1;
            let end = queue.len();
            while head < end {
                let cell = queue[head];
                head += 1;
                for jump in JUMPS {
                    let next = cell.wrapping_add_signed(jump);
                    if seen[next] == UNSEEN {
                        seen[next] = level;
                        queue.push(next);
                    }
                }
            }
        }
        for (b, &target) in targets.iter().enumerate() {
            let b = a + 1 + b;
            dist[a][b] = seen[target].into();
            dist[b][a] = dist[a][b];
        }
    }
    dist
}

struct Game {
    n: usize,
    // dist[a][b]: knight moves between points a and b (point n is the
    // knight's start), as rows over b.
    dist: Vec<Row>,
    // memo[left]: the row for the set `left` of pawns still on the board,
    // once solved[left]. No pawn left is worth 0, as the zeroed row says.
    memo: Vec<Row>,
    solved: Vec<bool>,
}

impl Game {
    // Solves the row of `left`, the set of pawns still on the board: the best
    // totals of the remaining moves for every square the knight may stand on.
    // The parity of the number of captures so far says whose turn it is, so
    // it is not part of the key.
    fn solve(&mut self, left: usize) {
        // Alice moves after an even number of captures.
        let maximize = (self.n - left.count_ones() as usize).is_multiple_of(2);
        let mut best: Row = [if maximize { i16::MIN } else { i16::MAX }; LANES];
        let mut rest = left;
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // The row after capturing `next`, from the memo or solved first.
            let after_capture = left ^ (1 << next);
            if !self.solved[after_capture] {
                self.solve(after_capture);
            }
            let after = self.memo[after_capture][next];
            let from = &self.dist[next];
            if maximize {
                for (best, d) in best.iter_mut().zip(from) {
                    *best = (*best).max(d + after);
                }
            } else {
                for (best, d) in best.iter_mut().zip(from) {
                    *best = (*best).min(d + after);
                }
            }
        }
        self.memo[left] = best;
        self.solved[left] = true;
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
    // Point n is the knight's starting square; 0..n are the pawns.
    let mut points: Vec<usize> = (0..n)
        .map(|_| square(it.next().unwrap(), it.next().unwrap()))
        .collect();
    points.push(square(kx, ky));

    let dist = distances(&points);

    let mut game = Game {
        n,
        dist,
        memo: vec![[0; LANES]; 1 << n],
        solved: vec![false; 1 << n],
    };
    game.solved[0] = true;
    // Alice moves first, from the knight's square, with every pawn left.
    let full = (1 << n) - 1;
    game.solve(full);
    let best = game.memo[full][n];

    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", best).unwrap();
}
