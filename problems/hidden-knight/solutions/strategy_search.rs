// Hidden knight: the first question is (14, 0); every later one is chosen by
// an exhaustive search for a strategy that finishes within the five questions
// allowed, run on the squares still possible.
//
// A set S of possible squares can be finished with k more questions when it
// holds at most one square, or when some question q splits S by distance into
// parts that can each be finished with k - 1. With k = 1, q must give every
// square of S a different distance. Two questions that split S the same way
// are the same question, so only distinct splits are tried, those with the
// smallest largest part first. Results are remembered per (S, k): the search
// that proves the chosen question good has already settled every set the
// later questions meet.
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, Write};

const SIDE: usize = 50;
const SQUARES: usize = SIDE * SIDE;
const QUESTIONS: u8 = 5;
const FIRST: (usize, usize) = (14, 0);

fn knight_distances(from: usize) -> Vec<u8> {
    let mut dist = vec![u8::MAX; SQUARES];
    dist[from] = 0;
    let mut queue = vec![from];
    let mut head = 0;
    while head < queue.len() {
        let here = queue[head];
        head += 1;
        let (x, y) = ((here / SIDE) as i32, (here % SIDE) as i32);
        for (dx, dy) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            let (nx, ny) = (x + dx, y + dy);
            if (0..SIDE as i32).contains(&nx) && (0..SIDE as i32).contains(&ny) {
                let next = nx as usize * SIDE + ny as usize;
                if dist[next] == u8::MAX {
                    dist[next] = dist[here] + 1;
                    queue.push(next);
                }
            }
        }
    }
    dist
}

struct Search {
    // dist[q][s]: knight moves between squares q and s.
    dist: Vec<Vec<u8>>,
    memo: HashMap<(Vec<u16>, u8), Option<usize>>,
}

impl Search {
    // The parts of `set` that question q tells apart, by distance.
    fn split(&self, q: usize, set: &[u16]) -> Vec<Vec<u16>> {
        let mut parts: Vec<Vec<u16>> = vec![Vec::new(); 64];
        for &s in set {
            parts[self.dist[q][s as usize] as usize].push(s);
        }
        parts.retain(|p| !p.is_empty());
        parts
    }

    fn finishes(&mut self, set: &[u16], k: u8) -> bool {
        set.len() <= 1 || self.question(set, k).is_some()
    }

    // A question after which every part of `set` can be finished with k - 1
    // more, or None if there is none. `set` holds at least two squares.
    fn question(&mut self, set: &[u16], k: u8) -> Option<usize> {
        if k == 0 {
            return None;
        }
        if k == 1 {
            return (0..SQUARES).find(|&q| {
                let mut seen = 0u64;
                set.iter().all(|&s| {
                    let bit = 1u64 << self.dist[q][s as usize];
                    let fresh = seen & bit == 0;
                    seen |= bit;
                    fresh
                })
            });
        }
        let key = (set.to_vec(), k);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut splits_seen: HashSet<Vec<u8>> = HashSet::new();
        let mut candidates = Vec::new();
        for q in 0..SQUARES {
            // The split as labels in order of first appearance, so that equal
            // splits look equal whatever the distances.
            let mut label = [u8::MAX; 64];
            let mut labels = 0;
            let signature: Vec<u8> = set
                .iter()
                .map(|&s| {
                    let d = self.dist[q][s as usize] as usize;
                    if label[d] == u8::MAX {
                        label[d] = labels;
                        labels += 1;
                    }
                    label[d]
                })
                .collect();
            if !splits_seen.insert(signature) {
                continue;
            }
            let parts = self.split(q, set);
            let largest = parts.iter().map(Vec::len).max().unwrap_or(0);
            let squares: usize = parts.iter().map(|p| p.len() * p.len()).sum();
            candidates.push((largest, squares, q, parts));
        }
        candidates.sort_by_key(|&(largest, squares, q, _)| (largest, squares, q));
        let mut found = None;
        for (_, _, q, parts) in candidates {
            if parts.iter().all(|p| self.finishes(p, k - 1)) {
                found = Some(q);
                break;
            }
        }
        self.memo.insert(key, found);
        found
    }
}

fn ask(input: &mut impl BufRead, q: usize) -> u8 {
    println!("? {} {}", q / SIDE, q % SIDE);
    io::stdout().flush().unwrap();
    let mut line = String::new();
    if input.read_line(&mut line).unwrap() == 0 {
        // The interactor has stopped: nothing more can be said.
        std::process::exit(0);
    }
    line.trim().parse().expect("a distance")
}

fn main() {
    let mut search = Search {
        dist: (0..SQUARES).map(knight_distances).collect(),
        memo: HashMap::new(),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut possible: Vec<u16> = (0..SQUARES as u16).collect();
    let mut left = QUESTIONS;
    let mut next = FIRST.0 * SIDE + FIRST.1;
    while possible.len() > 1 {
        let reply = ask(&mut input, next);
        possible.retain(|&s| search.dist[next][s as usize] == reply);
        left -= 1;
        if possible.len() > 1 {
            next = search
                .question(&possible, left)
                .expect("five questions always suffice after (14, 0)");
        }
    }
    let hidden = possible[0] as usize;
    println!("! {} {}", hidden / SIDE, hidden % SIDE);
    io::stdout().flush().unwrap();
}
