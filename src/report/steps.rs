//! Progress of the authoring commands' long work: a bar on a terminal, nothing elsewhere (their results say
//! everything a log needs).

use indicatif::{ProgressBar, ProgressStyle};

pub struct Steps {
    bar: Option<ProgressBar>,
}

impl Steps {
    /// A bar of `total` steps on stderr, if it is a terminal; `total` 0 is a spinner.
    pub fn new(what: &str, total: usize) -> Steps {
        let template = if total > 0 {
            "{spinner} [{elapsed_precise}] {prefix} {wide_bar} {pos}/{len} {msg}"
        } else {
            "{spinner} [{elapsed_precise}] {prefix} {pos} {msg}"
        };
        let bar = super::style::stderr_bar(template, (total > 0).then_some(total as u64));
        if let Some(bar) = &bar {
            bar.set_prefix(what.to_owned());
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
        }
        Steps { bar }
    }

    /// `done` steps of `total` (0: not known).
    pub fn set(&self, done: usize, total: usize) {
        if let Some(bar) = &self.bar {
            if total > 0 && bar.length() != Some(total as u64) {
                bar.set_length(total as u64);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] {prefix} {wide_bar} {pos}/{len} {msg}",
                    )
                    .expect("valid template"),
                );
            }
            bar.set_position(done as u64);
        }
    }

    pub fn message(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// A line of its own, above the bar, or on stderr where there is none (a log).
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Clears the bar, so that what is printed next starts on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Steps {
    fn drop(&mut self) {
        self.finish();
    }
}
