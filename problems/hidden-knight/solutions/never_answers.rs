// Wrong on purpose: after each question it reads two lines, as if the judge
// sent the distance and then the number of questions left. The judge sends one
// line and then waits for the next question, while this program waits for a
// second line: neither side ever speaks again, and the time limit runs out.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    println!("? 0 0");
    io::stdout().flush().unwrap();
    let mut distance = String::new();
    let mut left = String::new();
    input.read_line(&mut distance).unwrap();
    input.read_line(&mut left).unwrap();
    // Only reached if the judge went away: keep quiet as well.
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
