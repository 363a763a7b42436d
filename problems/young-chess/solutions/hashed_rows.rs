// Memoized search over the row lengths of the filled staircase. Ten lengths
// of at most 10 fit in 4 bits each, so a whole position packs into one u64 key
// with row i in bits 4i..4i+4, and covering a cell in row i adds 1 << 4i.
// Since every move makes the key larger, the memo is filled bottom-up: taking
// the staircases in decreasing key order finds every child already solved,
// with no recursion and no lookups that miss.
//
// The memo needs no probing and stores no keys: the row lengths hash to their
// slot through a perfect hash, the staircase's place in that decreasing key
// order. The staircases before one with rows r_0 .. r_(n-1) are those that
// are longer in its bottom row, or equal there and longer in the row above,
// and so on up. Those that first differ from it in row i have some length
// x > r_i there, and above it rows from x to m long, C(m - x + i, i) ways for
// each x and C(m - r_i + i, i + 1) in all, so the slot is
//     h = sum over rows i of C(m - r_i + i, i + 1),
// 0 for the full board. As the sum goes row by row, covering a cell in row i
// changes only row i's term, and the child lies C(m - 1 - r_i + i, i) slots
// before its parent: a lookup is one subtraction and one load.
//
// No step back is longer than C(n+m-2, n-1), at most C(18, 9) = 48620 for a
// 10 x 10 board, so the memo keeps only the last WINDOW slots and reuses each
// once nothing can reach back to it: 256 KiB of values instead of 0.7 MiB,
// fewer fresh pages to fault in and less for the cache to hold.
//
// Values are kept from the side of the player to move: their score minus the
// other player's over the cells still empty. Covering a cell is worth their
// own number for it, A for black and B for white, minus what the other player
// makes of the position after, and both players simply maximise. Black moves
// first, so the answer is the value of the empty board.

use std::io::{self, Read, Write};

// A power of two above C(18, 9), so that `% WINDOW` is a mask.
const WINDOW: usize = 1 << 16;

// Covering the next cell of one row: the child lies `back` slots before, and
// the cell pays `gain` to the player who covers it.
#[derive(Clone, Copy, Default)]
struct Move {
    back: u32,
    gain: i32,
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let n = it.next().unwrap() as usize;
    let m = it.next().unwrap() as usize;
    let mut a = vec![vec![0i32; m]; n];
    let mut b = vec![vec![0i32; m]; n];
    for row in a.iter_mut().chain(b.iter_mut()) {
        for x in row.iter_mut() {
            *x = it.next().unwrap();
        }
    }

    let mut binomial = [[0u32; 20]; 20];
    for k in 0..20 {
        binomial[k][0] = 1;
        for t in 1..=k {
            binomial[k][t] = binomial[k - 1][t - 1] + binomial[k - 1][t];
        }
    }
    // moves[black][i][j]: covering the cell after a row i of length j, with
    // black (1) or white (0) to move. 16 x 16, so that any 4-bit row number
    // and length index it without a bounds check.
    let mut moves = [[[Move::default(); 16]; 16]; 2];
    for i in 0..n {
        for j in 0..m {
            let back = binomial[m - 1 - j + i][i];
            moves[0][i][j] = Move {
                back,
                gain: b[i][j],
            };
            moves[1][i][j] = Move {
                back,
                gain: a[i][j],
            };
        }
    }

    // The lowest bit of each row's 4 bits, and which rows of x are not 0.
    let ones: u64 = 0x11_1111_1111 & ((1 << (4 * n)) - 1);
    let nonzero_rows = |x: u64| (x | x >> 1 | x >> 2 | x >> 3) & ones;
    let full = m as u64 * ones;

    // memo[h % WINDOW]: the value of the staircase in slot h. The full board,
    // slot 0, is worth 0, as the zeroed memo says.
    let mut memo = vec![0i32; WINDOW];
    let mut key = full;
    let mut slot = 0;
    let answer = loop {
        // The next smaller staircase: shorten the first row that is longer
        // than the row below it, and refill the rows before it, which weigh
        // less in the key. Subtracting the key shifted down one row finds
        // those rows without borrowing, as no row is shorter than the next.
        let t = nonzero_rows(key - (key >> 4)).trailing_zeros();
        let low = (1 << t) - 1;
        key = ((key - (1 << t)) & !low) | (full & low);
        slot += 1;

        // Black moves when an even number of cells is covered, and the total
        // is even when an even number of rows have odd lengths.
        let black = (key & ones).count_ones().is_multiple_of(2);
        let moves = &moves[black as usize];
        // Row i can grow when it is shorter than row i - 1 (row -1 being m
        // long): shifting the key up one row lines each row up with the one
        // above it, and the difference is each row's gap, again borrow-free.
        let mut open = nonzero_rows(((key << 4) | m as u64) - key);
        let mut best = i32::MIN;
        while open != 0 {
            let t = open.trailing_zeros();
            open &= open - 1;
            let Move { back, gain } = moves[t as usize / 4][(key >> t & 15) as usize];
            best = best.max(gain - memo[(slot - back as usize) % WINDOW]);
        }
        if key == 0 {
            break best;
        }
        memo[slot % WINDOW] = best;
    };
    io::stdout()
        .write_all(format!("{}\n", answer).as_bytes())
        .unwrap();
}
