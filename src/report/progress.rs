//! Progress while judging: a bar on a terminal; elsewhere (CI logs) a line per solution, so long work is never
//! silent.

use crate::judge::Event;
use indicatif::ProgressBar;
use std::io::Write;

pub struct Progress {
    bar: Option<ProgressBar>,
    /// Where lines go: standard error, or a buffer in tests.
    out: Box<dyn Write + Send>,
    /// Tests per solution, to move the bar past tests a solution did not need to run.
    tests: u64,
    done: u64,
    quiet: bool,
    /// Whether a table follows on standard output, whose last line says the judge was interrupted: then only the
    /// bar goes, so that it is said once.
    table: bool,
}

impl Progress {
    /// A bar on stderr when it is a terminal; otherwise plain lines unless `quiet`. `table`: whether the table
    /// follows, saying the interruption on its last line.
    pub fn new(quiet: bool, table: bool) -> Self {
        let bar = super::style::stderr_bar(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
            Some(0),
        );
        Progress {
            bar,
            out: Box::new(std::io::stderr()),
            tests: 0,
            done: 0,
            quiet,
            table,
        }
    }

    /// Plain lines to `out`, never a bar: for tests, and wherever the output is not a terminal.
    pub fn lines_to(out: Box<dyn Write + Send>) -> Self {
        Progress {
            bar: None,
            out,
            tests: 0,
            done: 0,
            quiet: false,
            table: false,
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
            // On a terminal the table comes long after; elsewhere (a log) it is there to read, with these in it.
            Event::Warning { warning } => {
                if let Some(bar) = &self.bar {
                    bar.println(format!("warning: {warning}"));
                }
            }
            Event::Compiling { what } => self.message(&format!("compiling {what}")),
            Event::Validating { tests } => self.message(&format!("validating {tests} tests")),
            Event::TimeLimitFound { limit, .. } => {
                self.message(&format!("time limit {}", crate::units::format_time(*limit)))
            }
            // Said even when progress is not: it is about the verdicts to come.
            Event::TimeLimitWarning { warning } => {
                let line = format!("warning: {warning}");
                match &self.bar {
                    Some(bar) => bar.println(line),
                    None => {
                        let _ = writeln!(self.out, "{line}");
                    }
                }
            }
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
                            self.out,
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
                // The table's last line says it; a JSON report on standard output says it only to programs.
                if !self.table {
                    let _ = writeln!(
                        self.out,
                        "interrupted while {}: runs in flight were stopped; not judged: {}",
                        interruption.during,
                        interruption.not_judged.join(", ")
                    );
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Interruption;
    use crate::report::shared_writer::Shared;

    #[test]
    fn lines_where_there_is_no_terminal() {
        let shared = Shared::default();
        let mut progress = Progress::lines_to(Box::new(shared.clone()));
        let report = crate::report::json::tests::sample_report();
        progress.on_event(&Event::Started {
            problem: "sum",
            solutions: &[],
            tests: 2,
        });
        progress.on_event(&Event::Compiling { what: "ref" });
        for solution in &report.solutions[..2] {
            progress.on_event(&Event::SolutionFinished { report: solution });
        }
        progress.on_event(&Event::Interrupted {
            interruption: &Interruption {
                during: "judging broken".into(),
                not_judged: vec!["broken".into()],
            },
        });
        progress.finish();
        let lines = shared.text();
        insta::assert_snapshot!(lines);
    }
}
