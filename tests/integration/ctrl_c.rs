//! Ctrl-C typed on a terminal while a judge runs: the judge runs on a pseudo-terminal (util-linux `script`), the
//! Ctrl-C goes in as the byte a keyboard sends, so the terminal both signals the judge and echoes `^C` as a real one
//! does, and what a user would see is drawn on a model screen: no progress bar left, the interruption said once,
//! and said on the last line.

use crate::harness::{copy_dir, fixtures, processes_under};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The columns of the model terminal.
const WIDTH: usize = 80;

/// Judges, on a terminal of [`WIDTH`] columns, a quick solution then one that sleeps, types Ctrl-C once the sleeper
/// runs, and returns what the terminal shows, line by line, and the judge's exit code.
fn interrupt_on_a_terminal(extra: &str) -> (Vec<String>, i32) {
    let project = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join("basic"), project.path());
    std::fs::copy(
        fixtures().join("submissions/sleepers.c"),
        project.path().join("sleepers.c"),
    )
    .unwrap();
    let judge = format!(
        "stty cols {WIDTH} rows 24; exec {} --cache-dir {} judge sum --time-limit 30s \
         --submission problems/sum/solutions/ac.c --submission sleepers.c --expect TLE \
         --submission problems/sum/solutions/ac.cpp --submission problems/sum/solutions/ac.py {extra}",
        env!("CARGO_BIN_EXE_cpjudge"),
        cache.path().display()
    );
    let mut script = Command::new("script")
        .args(["-q", "-e", "-c", &judge, "/dev/null"])
        .current_dir(project.path())
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("util-linux `script` runs the judge on a pseudo-terminal");
    let mut stdout = script.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        stdout.read_to_end(&mut all).unwrap();
        all
    });
    wait_for_sleepers(cache.path());
    // What a keyboard sends for Ctrl-C: the terminal turns it into SIGINT for the judge, and echoes it.
    let mut stdin = script.stdin.take().unwrap();
    stdin.write_all(b"\x03").unwrap();
    stdin.flush().unwrap();
    let status = script.wait().unwrap();
    drop(stdin);
    let shown = reader.join().unwrap();
    (screen(&shown, WIDTH), status.code().unwrap_or(-1))
}

fn wait_for_sleepers(cache: &Path) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let sleepers = processes_under(cache)
            .iter()
            .filter(|p| {
                p.split(": ")
                    .nth(1)
                    .is_some_and(|exe| exe.ends_with("/main"))
            })
            .count();
        if sleepers >= 2 {
            // The bar is drawn at most 20 times a second: let it show the sleeper's start.
            std::thread::sleep(Duration::from_millis(300));
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the sleeper never started: {:?}", processes_under(cache));
}

/// What a terminal of `width` columns shows after `bytes`: text, carriage returns, line feeds, wrapping at the
/// last column, and the escapes a progress bar uses (cursor up, erase line, erase below); colours are dropped.
fn screen(bytes: &[u8], width: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if lines.len() <= row {
                    lines.push(Vec::new());
                }
            }
            '\x1b' => {
                if chars.peek() != Some(&'[') {
                    continue;
                }
                chars.next();
                let mut argument = String::new();
                let command = loop {
                    match chars.next() {
                        Some(c) if c.is_ascii_digit() || c == ';' || c == '?' => argument.push(c),
                        other => break other,
                    }
                };
                let n: usize = argument.parse().unwrap_or(1);
                match command {
                    Some('A') => row = row.saturating_sub(n),
                    Some('B') => row += n,
                    Some('K') => lines[row].clear(),
                    Some('J') => lines.truncate(row + 1),
                    _ => {}
                }
                while lines.len() <= row {
                    lines.push(Vec::new());
                }
            }
            c if c.is_control() => {}
            c => {
                if col >= width {
                    row += 1;
                    col = 0;
                    if lines.len() <= row {
                        lines.push(Vec::new());
                    }
                }
                let line = &mut lines[row];
                while line.len() <= col {
                    line.push(' ');
                }
                line[col] = c;
                col += 1;
            }
        }
    }
    let mut shown: Vec<String> = lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_owned())
        .collect();
    while shown.last().is_some_and(|l| l.is_empty()) {
        shown.pop();
    }
    shown
}

fn check_screen(shown: &[String], code: i32) {
    let all = shown.join("\n");
    assert_eq!(code, 130, "{all}");
    assert!(
        !shown.iter().any(|l| l.contains("[00:") || l.contains('░')),
        "the progress bar is still on screen:\n{all}"
    );
    assert_eq!(
        all.matches("interrupted").count(),
        1,
        "the interruption is said once:\n{all}"
    );
    // The last line, as the terminal wrapped it into rows.
    let rows = shown.iter().rev().take_while(|l| !l.is_empty()).count();
    let last = shown[shown.len() - rows..].concat();
    assert!(
        last.starts_with("interrupted while judging sleepers.c")
            && last.contains("not judged: sleepers.c, ac.cpp, ac.py"),
        "the last line says the judge was interrupted: {last:?}\n{all}"
    );
    assert!(
        !last.contains("all") && !last.contains("the solution got"),
        "{last}"
    );
}

#[test]
fn ctrl_c_on_a_terminal_clears_the_bar_and_says_so_once_on_the_last_line() {
    let (shown, code) = interrupt_on_a_terminal("");
    check_screen(&shown, code);
    // The one solution judged completely is still reported.
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("ac.c ") && l.ends_with("ok")),
        "{}",
        shown.join("\n")
    );
}

#[test]
fn ctrl_c_with_quiet_says_so_once_on_the_last_line() {
    let (shown, code) = interrupt_on_a_terminal("-q");
    check_screen(&shown, code);
}

#[test]
fn the_model_screen_wraps_and_erases_as_a_terminal_does() {
    // A bar as wide as the screen, then the echoed ^C, which wraps: erasing the line clears only the ^C.
    let bar = "#".repeat(10);
    let shown = screen(format!("{bar}^C\r\x1b[2Kdone\r\n").as_bytes(), 10);
    assert_eq!(shown, [bar.as_str(), "done"]);
    let shown = screen(b"one\r\ntwo\r\x1b[1A\x1b[2K\x1b[Jlast\r\n", 10);
    assert_eq!(shown, ["last"]);
}
