// The filled region is a staircase, and a staircase is the same thing as the
// lattice path that separates it from the empty cells. Walking that path from
// the bottom-left corner to the top-right corner takes m steps right (bit 0)
// and n steps up (bit 1), so every position is an (n+m)-bit number with n ones.
//
// A cell can be filled exactly where the path goes up and then right (bits k
// and k+1 read 1, 0). Filling it turns the pair into 0, 1, which moves a one
// to a higher bit: every successor has a larger code than its predecessor, so
// solving the codes in decreasing order always finds successors done.
//
// The table has one entry per staircase rather than one per (n+m)-bit number:
// a code is stored at its rank among the codes with n ones, in increasing
// order. With up step t (counting from 0 at the bottom) at position s_t, that
// rank is the sum of C(s_t, t + 1), the combinatorial number system. Hence the
// codes whose up steps above t are fixed and whose up step t stands at p fill
// a run of C(p, t) consecutive ranks, and the codes that differ from them only
// in having up step t at p + 1 fill the run right after it, in the same order.
// Covering the cell at up step t takes every code of the first run to the code
// C(p, t) places further on, so that move is applied to the whole run at once:
// one loop over two slices, which the compiler vectorises. Taking the runs of
// step n - 1 from the top down, and within each the runs of step n - 2 from
// the top down, and so on, finishes every run before a run below it reads it.
// Only two runs of step n - 1 are ever needed at once (see `main`), so for
// 10 x 10 the values take 97240 entries of 4 bytes, 0.4 MiB, where indexing
// them by the code itself took 2^20 entries of 8 bytes.
//
// Which player moves would make every code pick its own numbers, A or B, and
// break up those loops, but it can be taken out. With S = A + B and D = A - B,
// black's score minus white's is (S over black's cells - S over white's
// cells + D over all cells) / 2, and the last sum does not depend on the play.
// So both players play as if a cell were worth S to whoever covers it, and in
// that game the value of a position to the player to move is the largest S
// of a cell they may cover minus the value of the position after to the other
// player. The table holds those values; black moves first, so the answer is
// (value of the empty board + sum of D) / 2.

use std::io::{self, Read, Write};

struct Solver {
    // binomial[k][t] = C(k, t).
    binomial: Vec<Vec<usize>>,
    // worth[t][p]: S of the cell covered at up step t standing at position
    // p. That step leads into row n-1-t, which then holds p-t cells, so the
    // cell is (n-1-t, p-t).
    worth: Vec<Vec<i32>>,
}

impl Solver {
    // Solves the codes whose up steps above t are fixed and whose steps 0..=t
    // lie below position `limit`, that of up step t + 1. `value` is one run of
    // the top step, ranks count from its start, and these codes start at
    // `start`. value[rank] holds the maximum over the moves applied to the
    // code so far, and is final once all of its moves are in.
    fn fill(&self, value: &mut [i32], t: usize, limit: usize, start: usize) {
        if t < 2 {
            return self.fill_bottom(value, t, limit, start);
        }
        for p in (t..limit).rev() {
            // The run with up step t at p.
            let run = start + self.binomial[p][t + 1];
            let len = self.binomial[p][t];
            // Position p + 1 is a right step unless it is up step t + 1.
            if p + 1 < limit {
                let worth = self.worth[t][p];
                let (here, after) = value[run..].split_at_mut(len);
                for (value, after) in here.iter_mut().zip(&after[..len]) {
                    *value = (*value).max(worth - after);
                }
            }
            self.fill(value, t - 1, p, run);
        }
    }

    // The same for up steps 0 and 1 (or 0 alone), whose runs are too short
    // for whole-slice loops to pay: a run of step 0 is a single code, and
    // step 1 at p has runs of p codes, one per position of step 0 below it.
    // Each code reads the next one, with step 0 a place higher, so a run is
    // solved from its end.
    fn fill_bottom(&self, value: &mut [i32], t: usize, limit: usize, start: usize) {
        let worth = &self.worth;
        if t == 0 {
            let codes = &mut value[start..start + limit];
            for p in (0..limit - 1).rev() {
                codes[p] = codes[p].max(worth[0][p] - codes[p + 1]);
            }
            return;
        }
        for p in (1..limit).rev() {
            let run = start + p * (p - 1) / 2;
            // As in `fill`: step 1 has a move unless p + 1 is up step 2, and
            // then it reads the run after this one.
            let step_one = p + 1 < limit;
            let codes = &mut value[run..run + if step_one { 2 * p } else { p }];
            for i in (0..p).rev() {
                let mut best = codes[i];
                if step_one {
                    best = best.max(worth[1][p] - codes[p + i]);
                }
                if i + 1 < p {
                    best = best.max(worth[0][i] - codes[i + 1]);
                }
                codes[i] = best;
            }
        }
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let n = it.next().unwrap() as usize;
    let m = it.next().unwrap() as usize;
    let a: Vec<i32> = it.by_ref().take(n * m).collect();
    let b: Vec<i32> = it.take(n * m).collect();

    let bits = n + m;
    let mut binomial = vec![vec![0usize; bits + 1]; bits + 1];
    for k in 0..=bits {
        binomial[k][0] = 1;
        for t in 1..=k {
            binomial[k][t] = binomial[k - 1][t - 1] + binomial[k - 1][t];
        }
    }

    let mut worth = vec![vec![0i32; bits]; n];
    for (t, row) in worth.iter_mut().enumerate() {
        for j in 0..m {
            let cell = (n - 1 - t) * m + j;
            row[t + j] = a[cell] + b[cell];
        }
    }

    // The runs of the top step, at p from n + m - 1 down, are solved in turn,
    // and only two are ever needed at once: the run at p reads the first
    // C(p, n-1) codes of the run at p + 1 and nothing else outside itself.
    // So the runs take turns at the two ends of one buffer, each placed clear
    // of the part of the run before it that it reads.
    let solver = Solver { binomial, worth };
    let run_len = |p: usize| solver.binomial[p][n - 1];
    let first = run_len(bits - 1);
    let mut value = vec![i32::MIN; first.max(2 * run_len(bits - 2))];
    // The first run: the top step at the very end of the path, which has
    // no move. Its last code is the full board, worth 0; every other code
    // has a move and ends up with the maximum over its moves.
    value[first - 1] = 0;
    if n > 1 {
        solver.fill(&mut value[..first], n - 2, bits - 1, 0);
    }
    let mut above = 0;
    for p in (n - 1..bits - 1).rev() {
        let len = run_len(p);
        let here = if above == 0 { len } else { 0 };
        // Every code of this run has the top step's move, as p + 1 is free.
        // It goes first and sets the values that the lower steps' moves
        // then raise.
        let worth = solver.worth[n - 1][p];
        let (low, high) = value.split_at_mut(here.max(above));
        let (run, after) = if here < above {
            (&mut low[here..here + len], &high[..len])
        } else {
            (&mut high[..len], &low[above..above + len])
        };
        for (value, after) in run.iter_mut().zip(after) {
            *value = worth - after;
        }
        if n > 1 {
            solver.fill(run, n - 2, p, 0);
        }
        above = here;
    }

    let sum_d: i32 = a.iter().zip(&b).map(|(a, b)| a - b).sum();
    // The last run holds only the empty board.
    let answer = (value[above] + sum_d) / 2;
    let out = format!("{}\n", answer);
    io::stdout().write_all(out.as_bytes()).unwrap();
}
