// Partial on purpose: every order in which the pawns can be captured is tried,
// n! of them, by swapping the next pawn into place. Right answers, fast enough
// for n <= 8 (40320 orders), hopeless for n = 15.
use std::collections::VecDeque;
use std::io::{self, Read};

const N: i32 = 50;

/// Knight moves from (x, y) to every square of the board.
fn moves_from(x: i32, y: i32) -> Vec<i32> {
    let mut steps = vec![-1; (N * N) as usize];
    let mut queue = VecDeque::from([(x, y)]);
    steps[(x * N + y) as usize] = 0;
    while let Some((cx, cy)) = queue.pop_front() {
        let here = steps[(cx * N + cy) as usize];
        for (dx, dy) in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)] {
            let (nx, ny) = (cx + dx, cy + dy);
            if nx >= 0 && ny >= 0 && nx < N && ny < N && steps[(nx * N + ny) as usize] < 0 {
                steps[(nx * N + ny) as usize] = here + 1;
                queue.push_back((nx, ny));
            }
        }
    }
    steps
}

/// The game's value once `order[..depth]` are captured, the knight standing on `at`: Alice moves at even depths.
fn play(order: &mut Vec<usize>, depth: usize, at: usize, far: &[Vec<i32>]) -> i32 {
    if depth == order.len() {
        return 0;
    }
    let alice = depth % 2 == 0;
    let mut best = if alice { i32::MIN } else { i32::MAX };
    for pick in depth..order.len() {
        order.swap(depth, pick);
        let pawn = order[depth];
        let total = far[at][pawn] + play(order, depth + 1, pawn, far);
        order.swap(depth, pick);
        best = if alice { best.max(total) } else { best.min(total) };
    }
    best
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("input");
    let mut numbers = text.split_whitespace().map(|w| w.parse::<i32>().expect("a number"));
    let mut next = || numbers.next().expect("more numbers");
    let knight = (next(), next());
    let n = next() as usize;
    let pawns: Vec<(i32, i32)> = (0..n).map(|_| (next(), next())).collect();
    // far[i][j]: moves from square i to pawn j, where square n is the knight's start.
    let starts = pawns.iter().chain(std::iter::once(&knight));
    let far: Vec<Vec<i32>> = starts
        .map(|&(x, y)| {
            let steps = moves_from(x, y);
            pawns.iter().map(|&(px, py)| steps[(px * N + py) as usize]).collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    println!("{}", play(&mut order, 0, n, &far));
}
