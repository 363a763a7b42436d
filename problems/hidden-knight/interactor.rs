// Interactor for hidden-knight: `interactor <input> <answer>`.
//
// The input names the hidden square (`hx hy`); the answer file is not read,
// since the input says everything. The solution's output arrives on stdin and
// what is written to stdout reaches the solution's input. Each line from the
// solution is either `? x y`, a question, answered with the knight distance
// from (x, y) to the hidden square, or `! x y`, the final answer, which ends
// the dialogue. At most MAX_QUESTIONS questions are answered.
//
// Exit code 0: the solution named the hidden square. Exit code 1: a wrong
// answer of any kind (a wrong square, too many questions, a malformed line,
// no answer at all). Exit code 3: the interactor itself could not run (wrong
// arguments, an unreadable or malformed input file). One line on stderr says
// what happened.
use std::io::{self, BufRead, Write};
use std::process::exit;

const SIDE: usize = 50;
const MAX_QUESTIONS: usize = 5;
// No line the protocol allows comes close to this; a longer one is refused
// before it is read to its end.
const MAX_LINE: usize = 100;

fn accept(message: String) -> ! {
    eprintln!("{message}");
    exit(0)
}

fn wrong(message: String) -> ! {
    eprintln!("{message}");
    exit(1)
}

fn broken(message: String) -> ! {
    eprintln!("interactor: {message}");
    exit(3)
}

// A line as the solution wrote it, with bytes that are not printable ASCII
// escaped and long lines cut short.
fn show(line: &[u8]) -> String {
    const MAX: usize = 30;
    let mut text: String = line[..line.len().min(MAX)]
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    if line.len() > MAX {
        text.push_str("...");
    }
    text
}

// A coordinate: decimal digits only, with a value in 0..SIDE. Anything else is
// None, with what is wrong with it.
fn coordinate(token: &[u8]) -> Result<usize, &'static str> {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err("is not an integer");
    }
    if token.len() != digits.len() {
        return Err("is out of range 0..=49");
    }
    let mut value = 0usize;
    for &b in digits {
        value = (value * 10 + usize::from(b - b'0')).min(1000);
    }
    if value >= SIDE {
        return Err("is out of range 0..=49");
    }
    Ok(value)
}

fn knight_distances(from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; SIDE * SIDE];
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
                if dist[next] == u32::MAX {
                    dist[next] = dist[here] + 1;
                    queue.push(next);
                }
            }
        }
    }
    dist
}

fn read_hidden(path: &str) -> (usize, usize) {
    let text = std::fs::read(path).unwrap_or_else(|e| broken(format!("cannot read {path}: {e}")));
    let tokens: Vec<&[u8]> = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    match tokens[..] {
        [x, y] => match (coordinate(x), coordinate(y)) {
            (Ok(x), Ok(y)) => (x, y),
            _ => broken(format!("{path} does not hold a square of the board")),
        },
        _ => broken(format!("{path} does not hold two numbers")),
    }
}

// The next line from the solution without its "\n" (and "\r"), or None at the
// end of its output. A line over MAX_LINE bytes is a wrong answer.
fn next_line(input: &mut impl BufRead, number: usize) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // The solution's output cannot be read any further: as good as its end.
            Err(_) => &[],
        };
        if buffer.is_empty() {
            return if line.is_empty() { None } else { Some(line) };
        }
        let (taken, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        line.extend_from_slice(&buffer[..taken]);
        input.consume(taken);
        if line.len() > MAX_LINE + 2 {
            wrong(format!("line {number} is too long: \"{}\"", show(&line)));
        }
        if ended {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Some(line);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input_path, _answer_path] = &args[..] else {
        broken("usage: interactor <input-file> <answer-file>".to_string())
    };
    let (hx, hy) = read_hidden(input_path);
    let dist = knight_distances(hx * SIDE + hy);

    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut questions = 0;
    let mut number = 0;
    loop {
        number += 1;
        let Some(line) = next_line(&mut input, number) else {
            wrong(format!(
                "the solution ended without answering, after {questions} question{}",
                if questions == 1 { "" } else { "s" }
            ));
        };
        let tokens: Vec<&[u8]> = line
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|t| !t.is_empty())
            .collect();
        let kind = match tokens.first() {
            Some(&b"?") => '?',
            Some(&b"!") => '!',
            _ => wrong(format!(
                "line {number}: expected \"? x y\" or \"! x y\", found \"{}\"",
                show(&line)
            )),
        };
        if tokens.len() != 3 {
            wrong(format!(
                "line {number}: expected \"{kind} x y\", found \"{}\"",
                show(&line)
            ));
        }
        let mut square = [0usize; 2];
        for ((name, token), slot) in ["x", "y"].iter().zip(&tokens[1..]).zip(&mut square) {
            match coordinate(token) {
                Ok(v) => *slot = v,
                Err(what) => wrong(format!("line {number}: {name} = \"{}\" {what}", show(token))),
            }
        }
        let [x, y] = square;
        if kind == '!' {
            let asked = format!("{questions} question{}", if questions == 1 { "" } else { "s" });
            if (x, y) == (hx, hy) {
                accept(format!("found the knight on ({x}, {y}) after {asked}"));
            }
            wrong(format!(
                "answered ({x}, {y}) after {asked}, but the knight hides on ({hx}, {hy})"
            ));
        }
        questions += 1;
        if questions > MAX_QUESTIONS {
            wrong(format!(
                "too many questions: question {questions}, ({x}, {y}), is over the limit of {MAX_QUESTIONS}"
            ));
        }
        let reply = format!("{}\n", dist[x * SIDE + y]);
        // A solution that stopped reading (it ended, or closed its input) cannot
        // be told anything more; Rust ignores SIGPIPE, so this is an error here.
        if output.write_all(reply.as_bytes()).and_then(|()| output.flush()).is_err() {
            wrong(format!(
                "the solution stopped reading: the reply to question {questions} could not be sent"
            ));
        }
    }
}
