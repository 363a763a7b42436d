//! Progress while judging: a bar on a terminal; elsewhere (CI logs) a line per solution, so long work is never
//! silent.

use crate::judge::Event;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};

pub struct Progress {
    bar: Option<ProgressBar>,
    /// Tests per solution, to move the bar past tests a solution did not need to run.
    tests: u64,
    done: u64,
    quiet: bool,
}

impl Progress {
    /// A bar on stderr when it is a terminal; otherwise plain lines unless `quiet`.
    pub fn new(quiet: bool) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
                )
                .expect("valid template"),
            );
            bar
        });
        Progress {
            bar,
            tests: 0,
            done: 0,
            quiet,
        }
    }

    pub fn on_event(&mut self, event: &Event) {
        match event {
            Event::Started {
                solutions, tests, ..
            } => {
                self.tests = *tests as u64;
                if let Some(bar) = &self.bar {
                    bar.set_length(solutions.len() as u64 * self.tests);
                }
            }
            Event::Compiling { what } => self.message(&format!("compiling {what}")),
            Event::Validating { tests } => self.message(&format!("validating {tests} tests")),
            Event::Compiled { .. } => {}
            Event::TestFinished { solution, result } => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                    bar.set_message(format!(
                        "{} {} {}",
                        solution.name, result.name, result.verdict
                    ));
                }
            }
            Event::SolutionFinished { report } => {
                self.done += self.tests;
                match &self.bar {
                    Some(bar) => bar.set_position(self.done),
                    None if !self.quiet => {
                        let _ = writeln!(
                            std::io::stderr(),
                            "judged {}: {} ({} of {} tests run)",
                            report.name,
                            report.verdict,
                            report.tests.len(),
                            self.tests
                        );
                    }
                    None => {}
                }
            }
            Event::Interrupted { interruption } => {
                if let Some(bar) = &self.bar {
                    bar.finish_and_clear();
                }
                let _ = writeln!(
                    std::io::stderr(),
                    "interrupted while {}: runs in flight were stopped; {}",
                    interruption.during,
                    super::interrupted_summary(interruption)
                );
            }
        }
    }

    fn message(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(text.to_owned());
            bar.tick();
        }
    }

    /// Clears the bar before the table is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
