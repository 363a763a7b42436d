// Knight and pawns: distances by BFS, then the minimax values filled into a
// flat table over sets of remaining pawns, smallest sets first, no recursion.
//
// A row of the table holds, for one set of pawns still on the board, the value
// for every square the knight may stand on: lanes 0..n for the pawns' squares
// (only those of pawns already taken matter) and lane n for its starting
// square (only with every pawn still there). Sixteen 16-bit lanes make a row,
// and a whole row is worked out at once: capturing pawn `next` from square p
// is worth dist(p, next) plus one number, the row without `next` read in
// `next`'s lane, so every lane takes the same few vector instructions.
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

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let n = nums[2];
    // Point n is the knight's starting square; 0..n are the pawns.
    let mut points: Vec<usize> = (0..n)
        .map(|i| square(nums[3 + 2 * i], nums[4 + 2 * i]))
        .collect();
    points.push(square(nums[0], nums[1]));
    let dist = distances(&points);

    // table[left % half]: the row for the set `left` of pawns still on the
    // board. Removing a pawn gives a smaller number, so ascending order has
    // every successor ready. The empty set is worth 0, as the zeroed row says.
    //
    // Only half the rows are kept, 512 KiB for 15 pawns. A row below `half`
    // (pawn n-1 gone) is read only by the sets with one more pawn: those that
    // add a pawn below n-1 come before `half`, and the one that adds pawn n-1
    // is `left + half`, whose row takes this one's place, and which reads it
    // before it writes.
    let full = (1usize << n) - 1;
    let half = 1 << (n - 1);
    let mut table = vec![[0i16; LANES]; half];
    for left in 1..=full {
        // Alice moves after an even number of captures.
        let maximize = (n - left.count_ones() as usize).is_multiple_of(2);
        let mut best: Row = [if maximize { i16::MIN } else { i16::MAX }; LANES];
        let mut rest = left;
        while rest != 0 {
            let next = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let after = table[(left ^ (1 << next)) % half][next];
            let from = &dist[next];
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
        table[left % half] = best;
    }

    // Alice moves first, from the knight's own square, with every pawn left.
    let answer = table[full % half][n];

    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", answer).unwrap();
}
