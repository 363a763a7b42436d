// A closed tour is one cycle through all 64 squares, so the tour from any
// start is that cycle read from the start onwards. The cycle is built once,
// from the corner, by a depth-first search that prefers squares with few
// onward moves and insists that the last square returns to the first.
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

struct Cycle {
    neighbours: Vec<Vec<usize>>,
    step: [u8; 64],
    origin: usize,
}

impl Cycle {
    fn onward(&self, s: usize) -> usize {
        self.neighbours[s]
            .iter()
            .filter(|&&t| self.step[t] == 0)
            .count()
    }

    fn extend(&mut self, s: usize, k: u8) -> bool {
        self.step[s] = k;
        if k == 64 {
            if self.neighbours[s].contains(&self.origin) {
                return true;
            }
            self.step[s] = 0;
            return false;
        }
        // Once every square next to the origin is taken, the walk can no
        // longer close, however it ends: give up on this branch at once.
        if self.onward(self.origin) == 0 {
            self.step[s] = 0;
            return false;
        }
        let mut order: Vec<(usize, usize)> = Vec::with_capacity(8);
        for (i, &t) in self.neighbours[s].iter().enumerate() {
            if self.step[t] == 0 {
                order.push((self.onward(t), i));
            }
        }
        order.sort_unstable();
        for &(_, i) in &order {
            let t = self.neighbours[s][i];
            if self.extend(t, k + 1) {
                return true;
            }
        }
        self.step[s] = 0;
        false
    }
}

fn closed_tour() -> [u8; 64] {
    let mut neighbours = vec![Vec::new(); 64];
    for (s, list) in neighbours.iter_mut().enumerate() {
        let (r, c) = ((s / 8) as i32, (s % 8) as i32);
        for &(dr, dc) in &MOVES {
            let (nr, nc) = (r + dr, c + dc);
            if (0..8).contains(&nr) && (0..8).contains(&nc) {
                list.push((nr * 8 + nc) as usize);
            }
        }
    }
    let mut cycle = Cycle {
        neighbours,
        step: [0; 64],
        origin: 0,
    };
    assert!(cycle.extend(0, 1), "no closed tour found");
    cycle.step
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|x| x.parse::<usize>().unwrap());
    let (r, c) = (it.next().unwrap(), it.next().unwrap());

    let cycle = closed_tour();
    let shift = cycle[r * 8 + c] as usize;

    let mut out = String::with_capacity(256);
    for row in cycle.chunks(8) {
        let line: Vec<String> = row
            .iter()
            .map(|&old| ((old as usize + 64 - shift) % 64 + 1).to_string())
            .collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
