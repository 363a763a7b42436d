//! Progress while calibrating a time limit: a bar per pass on a terminal; elsewhere a line per pass.

use crate::calibrate::CalibrationEvent;
use crate::judge::Event;
use crate::units::{format_time, plural};
use indicatif::ProgressBar;
use std::io::Write;

pub struct CalibrationProgress {
    bar: Option<ProgressBar>,
    /// Where lines go: standard error, or a buffer in tests.
    out: Box<dyn Write + Send>,
    quiet: bool,
}

impl CalibrationProgress {
    /// A bar on stderr when it is a terminal; otherwise plain lines unless `quiet`.
    pub fn new(quiet: bool) -> Self {
        let bar = super::style::stderr_bar(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {wide_msg}",
            Some(0),
        );
        CalibrationProgress {
            bar,
            out: Box::new(std::io::stderr()),
            quiet,
        }
    }

    /// Plain lines to `out`, never a bar: for tests.
    pub fn lines_to(out: Box<dyn Write + Send>) -> Self {
        CalibrationProgress {
            bar: None,
            out,
            quiet: false,
        }
    }

    pub fn on_event(&mut self, event: &CalibrationEvent) {
        match event {
            CalibrationEvent::Pass {
                round,
                rounds,
                solutions,
                tests,
                limit,
                repeat,
            } => {
                let names: Vec<&str> = solutions.iter().map(|s| s.name.as_str()).collect();
                let text = format!(
                    "run {round}/{rounds}: {} on {} under {}{}",
                    names.join(", "),
                    plural(*tests, "test"),
                    format_time(*limit),
                    if *repeat {
                        " (repeating borderline runs)"
                    } else {
                        ""
                    }
                );
                match &self.bar {
                    Some(bar) => {
                        bar.set_length((solutions.len() * tests) as u64);
                        bar.set_position(0);
                        bar.set_message(text);
                    }
                    None if !self.quiet => {
                        let _ = writeln!(self.out, "{text}");
                    }
                    None => {}
                }
            }
            CalibrationEvent::Judge(Event::Compiling { what }) => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!("compiling {what}"));
                    bar.tick();
                }
            }
            CalibrationEvent::Judge(Event::TestFinished { solution, result }) => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                    bar.set_message(format!(
                        "{} {} {} {}",
                        solution.name,
                        result.name,
                        result.verdict,
                        format_time(result.cpu)
                    ));
                }
            }
            CalibrationEvent::Judge(Event::Interrupted { interruption }) => {
                if let Some(bar) = &self.bar {
                    bar.finish_and_clear();
                }
                let _ = writeln!(
                    self.out,
                    "interrupted while {}: runs in flight were stopped; no time limit is suggested",
                    interruption.during
                );
            }
            CalibrationEvent::Judge(_) => {}
        }
    }

    /// Clears the bar before the table is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Interruption;
    use crate::language::Language;
    use crate::problem::Solution;
    use crate::report::shared_writer::Shared;
    use crate::verdict::Verdict;
    use std::time::Duration;

    #[test]
    fn calibration_lines_where_there_is_no_terminal() {
        let shared = Shared::default();
        let mut progress = CalibrationProgress::lines_to(Box::new(shared.clone()));
        let solution = |name: &str| Solution {
            name: name.into(),
            path: name.into(),
            language: Language::shipped("rust"),
            expected: vec![Verdict::Accepted],
            main: false,
            others: Vec::new(),
            expectations: Vec::new(),
            preparation: Default::default(),
            prebuilt: None,
        };
        let references = [solution("fast.rs"), solution("slow.rs")];
        let pass = |solutions, tests, repeat| CalibrationEvent::Pass {
            round: 2,
            rounds: 3,
            solutions,
            tests,
            limit: Duration::from_secs(3),
            repeat,
        };
        progress.on_event(&pass(&references, 12, false));
        progress.on_event(&pass(&references[1..], 1, true));
        let interruption = Interruption {
            during: "judging slow.rs".into(),
            not_judged: vec!["slow.rs".into()],
        };
        progress.on_event(&CalibrationEvent::Judge(&Event::Interrupted {
            interruption: &interruption,
        }));
        progress.finish();
        let lines = shared.text();
        insta::assert_snapshot!(lines);
    }
}
