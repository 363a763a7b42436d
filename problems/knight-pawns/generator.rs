// Test generator for knight-pawns: `generator MODE N SEED` prints one input;
// `generator shrink` prints every input one pawn smaller than the one on stdin.
use std::io::{self, Read, Write};
use std::process::exit;

const SIDE: i32 = 50;

const USAGE: &str = "usage: generator MODE N SEED
  MODE  random   knight and pawns anywhere
        spread   pawns spread out over the whole board
        cluster  pawns crowded round the knight
        corner   knight in a corner, pawns crowded in the opposite corner
        ring     every pawn the same number of knight moves from the knight
        edge     knight and pawns on the two outermost rings of the board
  N     number of pawns, 1..=15
  SEED  any unsigned 64-bit integer
       generator shrink
  reads one valid input on stdin and prints every input with one pawn fewer,
  each followed by a line \"---\"; nothing when there is a single pawn";

// splitmix64: tiny, and the same stream on every platform for a given seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn square(&mut self) -> (i32, i32) {
        (self.below(SIDE as usize) as i32, self.below(SIDE as usize) as i32)
    }

    // `count` distinct entries of `pool`, in random order.
    fn pick<T: Copy>(&mut self, pool: &[T], count: usize) -> Vec<T> {
        let mut pool = pool.to_vec();
        for i in 0..count {
            let j = i + self.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(count);
        pool
    }
}

fn fail() -> ! {
    eprintln!("{}", USAGE);
    exit(2);
}

fn all_squares() -> impl Iterator<Item = (i32, i32)> {
    (0..SIDE).flat_map(|x| (0..SIDE).map(move |y| (x, y)))
}

fn knight_distances(from: (i32, i32)) -> Vec<i32> {
    let mut dist = vec![-1; (SIDE * SIDE) as usize];
    let mut queue = vec![from];
    dist[(from.0 * SIDE + from.1) as usize] = 0;
    let mut head = 0;
    while head < queue.len() {
        let (x, y) = queue[head];
        head += 1;
        let here = dist[(x * SIDE + y) as usize];
        for (dx, dy) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
            let (nx, ny) = (x + dx, y + dy);
            if (0..SIDE).contains(&nx) && (0..SIDE).contains(&ny) && dist[(nx * SIDE + ny) as usize] < 0 {
                dist[(nx * SIDE + ny) as usize] = here + 1;
                queue.push((nx, ny));
            }
        }
    }
    dist
}

fn random(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    let knight = rng.square();
    let pool: Vec<_> = all_squares().filter(|&s| s != knight).collect();
    (knight, rng.pick(&pool, n))
}

// Best-candidate sampling: of several random squares, keep the one farthest
// (in king steps) from every piece placed so far, so no two pieces crowd.
fn spread(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    let knight = rng.square();
    let mut placed = vec![knight];
    for _ in 0..n {
        let mut best = None;
        let mut best_gap = -1;
        for _ in 0..40 {
            let c = rng.square();
            let gap = placed
                .iter()
                .map(|&(x, y)| (x - c.0).abs().max((y - c.1).abs()))
                .min()
                .unwrap();
            if gap > best_gap {
                best_gap = gap;
                best = Some(c);
            }
        }
        // A gap of 0 means every candidate landed on a taken square: unlikely
        // with 16 pieces on 2500 squares, but the output must stay valid.
        let chosen = if best_gap > 0 {
            best.unwrap()
        } else {
            let pool: Vec<_> = all_squares().filter(|s| !placed.contains(s)).collect();
            rng.pick(&pool, 1)[0]
        };
        placed.push(chosen);
    }
    (knight, placed[1..].to_vec())
}

fn cluster(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    let knight = rng.square();
    let mut radius = 2;
    loop {
        let pool: Vec<_> = all_squares()
            .filter(|&(x, y)| {
                (x, y) != knight && (x - knight.0).abs() <= radius && (y - knight.1).abs() <= radius
            })
            .collect();
        if pool.len() >= n {
            return (knight, rng.pick(&pool, n));
        }
        radius += 1;
    }
}

fn corner(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    let far = SIDE - 1;
    let (kx, ky) = match rng.below(4) {
        0 => (0, 0),
        1 => (0, far),
        2 => (far, 0),
        _ => (far, far),
    };
    // A 5 x 5 block holds 25 squares, room for 15 pawns with gaps among them.
    let pool: Vec<_> = all_squares()
        .filter(|&(x, y)| (x - (far - kx)).abs() < 5 && (y - (far - ky)).abs() < 5)
        .collect();
    ((kx, ky), rng.pick(&pool, n))
}

fn ring(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    loop {
        let knight = rng.square();
        let dist = knight_distances(knight);
        let at = |d: i32| -> Vec<(i32, i32)> {
            all_squares().filter(|&(x, y)| dist[(x * SIDE + y) as usize] == d).collect()
        };
        let radii: Vec<i32> = (1..=6).filter(|&d| at(d).len() >= n).collect();
        if radii.is_empty() {
            continue;
        }
        let d = radii[rng.below(radii.len())];
        return (knight, rng.pick(&at(d), n));
    }
}

fn edge(rng: &mut Rng, n: usize) -> ((i32, i32), Vec<(i32, i32)>) {
    let rim: Vec<_> = all_squares()
        .filter(|&(x, y)| x.min(y).min(SIDE - 1 - x).min(SIDE - 1 - y) <= 1)
        .collect();
    let chosen = rng.pick(&rim, n + 1);
    (chosen[0], chosen[1..].to_vec())
}

// Every input with one pawn removed: the knight line, n - 1, the other pawns.
fn shrink() {
    let mut input = String::new();
    if io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("shrink: cannot read the input");
        exit(1);
    }
    // Each line as its numbers with single spaces, however the input spaced them.
    let lines: Vec<String> = input
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    let n = match lines.get(1).map(|l| l.parse::<usize>()) {
        Some(Ok(n)) if lines.len() == n + 2 => n,
        _ => {
            eprintln!("shrink: the input is not \"kx ky\", n, then n pawn lines");
            exit(1);
        }
    };
    let mut out = String::new();
    if n > 1 {
        for removed in 0..n {
            out.push_str(&format!("{}\n{}\n", lines[0], n - 1));
            for (i, pawn) in lines[2..].iter().enumerate() {
                if i != removed {
                    out.push_str(&format!("{}\n", pawn));
                }
            }
            out.push_str("---\n");
        }
    }
    io::stdout().lock().write_all(out.as_bytes()).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args == ["shrink"] {
        return shrink();
    }
    if args.len() != 3 {
        fail();
    }
    let n: usize = match args[1].parse() {
        Ok(n) if (1..=15).contains(&n) => n,
        _ => fail(),
    };
    let seed: u64 = args[2].parse().unwrap_or_else(|_| fail());
    // Mixing the mode into the seed keeps two modes with one seed unrelated.
    let salt = args[0].bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let mut rng = Rng(seed ^ salt.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let (knight, pawns) = match args[0].as_str() {
        "random" => random(&mut rng, n),
        "spread" => spread(&mut rng, n),
        "cluster" => cluster(&mut rng, n),
        "corner" => corner(&mut rng, n),
        "ring" => ring(&mut rng, n),
        "edge" => edge(&mut rng, n),
        _ => fail(),
    };
    let mut out = String::new();
    out.push_str(&format!("{} {}\n{}\n", knight.0, knight.1, n));
    for (x, y) in pawns {
        out.push_str(&format!("{} {}\n", x, y));
    }
    io::stdout().lock().write_all(out.as_bytes()).unwrap();
}
