//! What `--watch` says between judges: which files changed and when, before each new report (on a terminal, in
//! place of the last one), and that it waits for the next change. With `--json`, standard output holds the reports
//! alone, one per line, and the rest is said on standard error.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// How many changed files are named; the rest are counted.
const NAMED: usize = 5;

/// Starts the report of a judge made because `changed` changed: on a terminal the screen is cleared, so that the
/// new report stands where the last one stood; elsewhere (a file, a pipe) a separator line keeps the reports apart.
/// The files are named from `cwd`. Where the reports are JSON (`json`), standard output is theirs alone: the line
/// goes to standard error.
pub fn write_changed(changed: &[PathBuf], cwd: &Path, json: bool) -> io::Result<()> {
    let line = changed_line(changed, cwd, &now());
    if json {
        eprintln!("--- {line} ---");
        return Ok(());
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if out.is_terminal() {
        out.flush()?;
        console::Term::stdout().clear_screen()?;
        writeln!(out, "{line}\n")?;
    } else {
        writeln!(out, "\n--- {line} ---\n")?;
    }
    out.flush()
}

/// Says on standard error that the judge waits for changes to the files it depends on.
pub fn write_waiting() {
    eprintln!("watching for changes; Ctrl-C stops");
}

/// Says on standard error why a judge made on a change could not be made; the watch goes on, and the next change
/// is judged again.
pub fn write_watch_error(error: &crate::error::Error) {
    eprintln!("error: {error}");
}

/// The time of day now, in UTC as the reports' dates are.
fn now() -> String {
    let date = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    // "2026-11-26T16:40:12Z": the time of day.
    date.get(11..19)
        .map_or(date.clone(), |time| format!("{time} UTC"))
}

fn changed_line(changed: &[PathBuf], cwd: &Path, when: &str) -> String {
    let mut names: Vec<String> = changed
        .iter()
        .take(NAMED)
        .map(|path| path.strip_prefix(cwd).unwrap_or(path).display().to_string())
        .collect();
    if changed.len() > NAMED {
        names.push(format!("{} more", changed.len() - NAMED));
    }
    format!("{when}: {} changed", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_files_from_the_current_folder_and_counts_the_rest() {
        let cwd = Path::new("/p");
        let changed: Vec<PathBuf> = (1..=7)
            .map(|i| PathBuf::from(format!("/p/testdata/sum/{i}.ans")))
            .collect();
        assert_eq!(
            changed_line(&changed, cwd, "16:40:12 UTC"),
            "16:40:12 UTC: testdata/sum/1.ans, testdata/sum/2.ans, testdata/sum/3.ans, \
             testdata/sum/4.ans, testdata/sum/5.ans, 2 more changed"
        );
        assert_eq!(
            changed_line(&[PathBuf::from("/q/x.cpp")], cwd, "09:00:00 UTC"),
            "09:00:00 UTC: /q/x.cpp changed"
        );
    }
}
