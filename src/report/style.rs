//! How output is drawn: colour or not, how wide, how much detail; decided once from the terminal, the user's
//! options and the environment (`NO_COLOR`, `CLICOLOR_FORCE`).

use std::io::IsTerminal;

/// Whether to colour the output: `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set; always if CLICOLOR_FORCE is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// How much the judge table says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Only the summary line (`-q`).
    Quiet,
    /// A row per solution and why each failed.
    #[default]
    Normal,
    /// Also a line for every test (`-v`).
    Verbose,
}

/// How output is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    /// Columns available: text is wrapped to it, and where `clip`, long messages and diff lines are cut to fit.
    pub width: usize,
    /// Whether lines from programs are cut to the width: on a terminal, where a line longer than the screen
    /// would wrap into the next; never elsewhere (a log, a pipe), where the end of a line (a traceback's line
    /// number) would be lost for nothing.
    pub clip: bool,
    pub detail: Detail,
}

impl Style {
    pub(super) fn paint(&self, text: &str, style: console::Style) -> String {
        style.force_styling(self.color).apply_to(text).to_string()
    }

    /// A line of text from a program, made printable and cut to the width.
    pub(super) fn cut(&self, line: &str, indent: usize) -> String {
        let line = &crate::text::printable(line);
        let room = self.width.saturating_sub(indent).max(20);
        if !self.clip || line.chars().count() <= room {
            line.to_owned()
        } else {
            crate::text::clip(line, room - 3)
        }
    }
}

impl Style {
    /// The style of standard output, colour as chosen, as wide as the terminal it draws on, its lines cut to it;
    /// elsewhere (a pipe, a log) as wide as `COLUMNS` says, which a user sets to read a report through a pager,
    /// or 100 columns, and no line cut.
    pub fn for_stdout(choice: ColorChoice, detail: Detail) -> Style {
        let terminal = std::io::stdout().is_terminal();
        let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => set("CLICOLOR_FORCE") || (terminal && !set("NO_COLOR")),
        };
        Style {
            color,
            width: if terminal {
                console::Term::stdout().size().1 as usize
            } else {
                std::env::var("COLUMNS")
                    .ok()
                    .and_then(|columns| columns.trim().parse().ok())
                    .filter(|&columns: &usize| columns > 0)
                    .unwrap_or(100)
            },
            clip: terminal,
            detail,
        }
    }
}

/// A bar drawn on stderr in `template`, of `length` steps (none: a spinner), if stderr is a terminal; elsewhere
/// (a log) no bar at all.
pub(super) fn stderr_bar(template: &str, length: Option<u64>) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::with_draw_target(
            length,
            indicatif::ProgressDrawTarget::term_like_with_hz(
                Box::new(ShortOfTheEdge(console::Term::buffered_stderr())),
                20,
            ),
        );
        bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid template"));
        bar
    })
}

/// Columns a bar leaves free at the end of its line. A terminal echoes Ctrl-C as `^C` where the cursor is: after a
/// bar as wide as the terminal, that wraps to a line of its own, and clearing the bar then clears only that line,
/// leaving the bar on screen above the report.
const ECHO_ROOM: u16 = 3;

/// The terminal, a few columns narrower than it is (see [`ECHO_ROOM`]).
#[derive(Debug)]
struct ShortOfTheEdge(console::Term);

impl indicatif::TermLike for ShortOfTheEdge {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(ECHO_ROOM).max(10)
    }
    fn height(&self) -> u16 {
        self.0.size().0
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}
