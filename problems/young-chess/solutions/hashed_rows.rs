// Memoized search over the row lengths of the filled staircase. Ten lengths
// of at most 10 fit in 4 bits each, so a whole position packs into one u64 key
// with row i in bits 4i..4i+4, and covering a cell in row i adds 1 << 4i.
// Since every move makes the key larger, the memo is filled bottom-up: taking
// the staircases in decreasing key order finds every child already solved,
// with no recursion and no lookups that miss.
//
// Nearly all of the time goes into the memo, so it is a small open-addressing
// table of our own rather than std's HashMap:
// - A value never exceeds 50 cells of 100000 either way (each side covers at
//   most 50 of the 100 cells), so it fits in 24 signed bits, and key and value
//   share one u64 slot. Sized once for every staircase at most 3/4 full, the
//   10 x 10 table is 2^18 slots, 2 MiB, half of HashMap<u64, i64>. Fresh memory
//   costs a page fault per 4 KiB, so this halves that cost too.
// - The keys are our own staircases, not hostile input, so one multiply that
//   keeps the top bits (Fibonacci hashing) spreads them well enough.
// - Most lookups miss the cache. A probe loop that branches on each slot makes
//   the CPU guess before the slot arrives, and it guesses wrong about a third
//   of the time. Robin Hood insertion keeps entries within a few slots of their
//   home, so a lookup instead reads WINDOW slots and picks the match without a
//   branch; only a few percent need to search further.

use std::hint::{black_box, select_unpredictable};
use std::io::{self, Read, Write};

const KEY_BITS: u32 = 40;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
// The empty board, key 0, is the answer and never stored, so 0 marks a free
// slot, and the table can start as zeroed memory straight from the OS.
const FREE: u64 = 0;
const WINDOW: usize = 3;

struct Memo {
    slots: Vec<u64>,
    // The home slot of a key is the top bits of its hash, `shift` bits down.
    shift: u32,
}

impl Memo {
    fn with_room_for(states: usize) -> Memo {
        let size = (states + states / 3 + 1).next_power_of_two();
        // Probes run past the end rather than wrapping around; the spare
        // slots at the end keep every window inside the vector.
        Memo {
            slots: vec![FREE; size + WINDOW],
            shift: 64 - size.trailing_zeros(),
        }
    }

    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    // Reads the slot where the insertion of `key` will start, only so that
    // its cache miss overlaps the lookups that come before the insertion.
    fn warm_up(&self, key: u64) {
        black_box(self.slots[self.home(key)]);
    }

    fn insert(&mut self, key: u64, value: i32) {
        debug_assert!(value.unsigned_abs() < 1 << 23, "value needs more than 24 bits");
        let mut entry = ((value as i64) << KEY_BITS) as u64 | key;
        let mut s = self.home(key);
        let mut dist = 0;
        // Robin Hood: an entry further from its home than the one in its way
        // takes that slot, and the displaced entry moves on instead.
        while self.slots[s] != FREE {
            let their_dist = s - self.home(self.slots[s] & KEY_MASK);
            if their_dist < dist {
                entry = std::mem::replace(&mut self.slots[s], entry);
                dist = their_dist;
            }
            s += 1;
            dist += 1;
        }
        self.slots[s] = entry;
        while self.slots.len() <= s + WINDOW {
            self.slots.push(FREE);
        }
    }

    // Value of a key that is in the table.
    fn get(&self, key: u64) -> i32 {
        let s = self.home(key);
        let mut slot = self.slots[s];
        for &next in &self.slots[s + 1..s + WINDOW] {
            slot = select_unpredictable(next & KEY_MASK == key, next, slot);
        }
        if slot & KEY_MASK != key {
            let mut s = s + WINDOW;
            while self.slots[s] & KEY_MASK != key {
                s += 1;
            }
            slot = self.slots[s];
        }
        // The arithmetic shift brings the sign back.
        ((slot as i64) >> KEY_BITS) as i32
    }
}

fn binomial(top: usize, k: usize) -> usize {
    (0..k).fold(1usize, |c, i| c * (top - i) / (i + 1))
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i32>().unwrap());
    let n = it.next().unwrap() as usize;
    let m = it.next().unwrap() as usize;
    // Rows 16 wide, so that any 4-bit row length indexes them without a
    // bounds check.
    let mut a = [[0i32; 16]; 10];
    let mut b = [[0i32; 16]; 10];
    for row in a.iter_mut().take(n) {
        for x in row.iter_mut().take(m) {
            *x = it.next().unwrap();
        }
    }
    for row in b.iter_mut().take(n) {
        for x in row.iter_mut().take(m) {
            *x = it.next().unwrap();
        }
    }

    // The lowest bit of each row's 4 bits, and which rows of x are not 0.
    let ones: u64 = 0x11_1111_1111 & ((1 << (4 * n)) - 1);
    let nonzero_rows = |x: u64| (x | x >> 1 | x >> 2 | x >> 3) & ones;
    let full = m as u64 * ones;

    let mut memo = Memo::with_room_for(binomial(n + m, n));
    memo.insert(full, 0);
    let mut key = full;
    let answer = loop {
        // The next smaller staircase: shorten the first row that is longer
        // than the row below it, and refill the rows before it, which weigh
        // less in the key. Subtracting the key shifted down one row finds
        // those rows without borrowing, as no row is shorter than the next.
        let t = nonzero_rows(key - (key >> 4)).trailing_zeros();
        let low = (1 << t) - 1;
        key = ((key - (1 << t)) & !low) | (full & low);
        memo.warm_up(key);

        // Black moves when an even number of cells is covered, and the total
        // is even when an even number of rows have odd lengths.
        let black = (key & ones).count_ones().is_multiple_of(2);
        // Black maximises A + after; white minimises after - B, that is,
        // maximises B - after and then negates.
        let (gain, sign) = if black { (&a, 1) } else { (&b, -1) };
        // Row i can grow when it is shorter than row i - 1 (row -1 being m
        // long): shifting the key up one row lines each row up with the one
        // above it, and the difference is each row's gap, again borrow-free.
        let mut open = nonzero_rows(((key << 4) | m as u64) - key);
        let mut best = i32::MIN;
        while open != 0 {
            let t = open.trailing_zeros();
            open &= open - 1;
            let (i, j) = (t as usize / 4, (key >> t & 15) as usize);
            best = best.max(gain[i][j] + sign * memo.get(key + (1 << t)));
        }
        let value = sign * best;
        if key == 0 {
            break value;
        }
        memo.insert(key, value);
    };
    io::stdout().write_all(format!("{}\n", answer).as_bytes()).unwrap();
}
