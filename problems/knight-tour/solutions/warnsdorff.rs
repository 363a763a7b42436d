// Warnsdorff's rule with a depth-first safety net: candidates are tried in
// order of fewest onward moves, so on the 8 x 8 board the first choice never
// has to be undone, yet a dead end would still be escaped correctly.
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

struct Tour {
    neighbours: Vec<Vec<usize>>,
    step: [u8; 64],
}

impl Tour {
    fn new() -> Tour {
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
        Tour {
            neighbours,
            step: [0; 64],
        }
    }

    fn onward(&self, s: usize) -> usize {
        self.neighbours[s]
            .iter()
            .filter(|&&t| self.step[t] == 0)
            .count()
    }

    fn extend(&mut self, s: usize, k: u8) -> bool {
        self.step[s] = k;
        if k == 64 {
            return true;
        }
        // Ties go to the square farther from the centre: edge squares left
        // for later tend to become dead ends, and with this tie-break the
        // greedy walk succeeds from all 64 starts without backtracking.
        let mut order: Vec<(usize, i32, usize)> = Vec::with_capacity(8);
        for (i, &t) in self.neighbours[s].iter().enumerate() {
            if self.step[t] == 0 {
                let (r, c) = ((t / 8) as i32, (t % 8) as i32);
                let centre = (2 * r - 7) * (2 * r - 7) + (2 * c - 7) * (2 * c - 7);
                order.push((self.onward(t), -centre, i));
            }
        }
        order.sort_unstable();
        for &(_, _, i) in &order {
            let t = self.neighbours[s][i];
            if self.extend(t, k + 1) {
                return true;
            }
        }
        self.step[s] = 0;
        false
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|x| x.parse::<usize>().unwrap());
    let (r, c) = (it.next().unwrap(), it.next().unwrap());

    let mut tour = Tour::new();
    assert!(tour.extend(r * 8 + c, 1), "no tour from ({r}, {c})");

    let mut out = String::with_capacity(256);
    for row in tour.step.chunks(8) {
        let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
