//! The judge table's header and a row per solution, fitted to the width it is drawn on: as wide as it was made
//! where it fits; else its columns are made as narrow as what they hold and the language is left out (the
//! extension tells it), then long names are shortened in the middle (their ends, the extension, kept), then the
//! columns the rest of the report can spare are left out (the peak memory, the CPU time), in that order; last, the marks are said shortly
//! (`NOT OK`) and names shortened further. No line is ever wider than the width.

use super::Style;
use crate::judge::{JudgeReport, SolutionReport};
use crate::units::format_time;
use std::io::{self, Write};

/// A name is shortened to no fewer than this many characters before a column other than the language is left out.
const SHORT_NAME: usize = 12;
/// ... and to no fewer than this once every column that can go has gone.
const SHORTEST_NAME: usize = 8;
const GAP: usize = 2;

/// What a row's last column says of a solution, and how it is painted.
pub(super) struct Mark {
    pub text: &'static str,
    /// What it says on a terminal too narrow for `text`.
    pub short: &'static str,
    pub color: console::Style,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Language,
    Verdict,
    Score,
    Expected,
    Tests,
    Cpu,
    Memory,
    Mark,
}

struct Column {
    kind: Kind,
    header: &'static str,
    right: bool,
    /// The width it has where the table fits.
    width: usize,
    cells: Vec<String>,
    /// Shorter cells, said where the table would not fit otherwise.
    short: Option<Vec<String>>,
}

impl Column {
    fn new(kind: Kind, header: &'static str, right: bool, made: usize, cells: Vec<String>) -> Self {
        let width = cells
            .iter()
            .map(|c| c.chars().count())
            .chain([made, header.len()])
            .max()
            .unwrap_or(0);
        Column {
            kind,
            header,
            right,
            width,
            cells,
            short: None,
        }
    }

    /// As narrow as its header and cells.
    fn tighten(&mut self) {
        self.width = self
            .cells
            .iter()
            .map(|c| c.chars().count())
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
    }
}

/// Writes the header and the rows, each no wider than `style.width`.
pub(super) fn write_rows(
    report: &JudgeReport,
    style: Style,
    mark: impl Fn(&SolutionReport) -> Mark,
    out: &mut dyn Write,
) -> io::Result<()> {
    let solutions = &report.solutions;
    let cells = |f: &dyn Fn(&SolutionReport) -> String| solutions.iter().map(f).collect::<Vec<_>>();
    let measured = |s: &SolutionReport, f: &dyn Fn(&SolutionReport) -> String| {
        if s.tests.is_empty() {
            "-".to_owned()
        } else {
            f(s)
        }
    };
    let mut columns = vec![
        Column::new(Kind::Name, "solution", false, 8, cells(&|s| s.name.clone())),
        Column::new(
            Kind::Language,
            "lang",
            false,
            6,
            cells(&|s| s.language.name().to_owned()),
        ),
        Column::new(
            Kind::Verdict,
            "verdict",
            false,
            7,
            cells(&|s| s.verdict.code().to_owned()),
        ),
    ];
    // A scoring problem's solutions have a score beside their verdict; a pass-fail problem's table has none.
    if solutions
        .iter()
        .any(|s| super::grid::score_text(s).is_some())
    {
        columns.push(Column::new(
            Kind::Score,
            "score",
            false,
            5,
            cells(&|s| super::grid::score_text(s).unwrap_or_else(|| "-".to_owned())),
        ));
    }
    columns.extend([
        Column::new(
            Kind::Expected,
            "expected",
            false,
            8,
            cells(&|s| super::table::expected_codes(&s.expected)),
        ),
        Column::new(
            Kind::Tests,
            "tests",
            true,
            7,
            cells(&|s| {
                let passed = s.tests.iter().filter(|t| t.verdict.is_accepted()).count();
                format!("{passed}/{}", report.tests.len())
            }),
        ),
        Column::new(
            Kind::Cpu,
            "max CPU",
            true,
            8,
            cells(&|s| measured(s, &|s| format_time(s.max_cpu()))),
        ),
        Column::new(
            Kind::Memory,
            "max mem",
            true,
            9,
            cells(&|s| measured(s, &|s| s.max_memory().measured())),
        ),
        Column {
            short: Some(cells(&|s| mark(s).short.to_owned())),
            ..Column::new(
                Kind::Mark,
                "",
                false,
                0,
                cells(&|s| mark(s).text.to_owned()),
            )
        },
    ]);
    fit(&mut columns, style.width);

    let header: Vec<String> = columns.iter().map(|c| pad(c, c.header)).collect();
    writeln!(out, "{}", header.join(&" ".repeat(GAP)).trim_end())?;
    for (row, solution) in solutions.iter().enumerate() {
        let line: Vec<String> = columns
            .iter()
            .map(|column| {
                let text = pad(column, &column.cells[row]);
                match column.kind {
                    Kind::Verdict => {
                        let color = if solution.verdict.is_accepted() {
                            console::Style::new().green()
                        } else {
                            console::Style::new().yellow()
                        };
                        style.paint(&text, color)
                    }
                    Kind::Mark => style.paint(text.trim_end(), mark(solution).color),
                    _ => text,
                }
            })
            .collect();
        writeln!(out, "{}", line.join(&" ".repeat(GAP)).trim_end())?;
    }
    Ok(())
}

/// The text of a cell in its column: shortened to the column's width (a name in the middle, keeping its end),
/// then padded.
fn pad(column: &Column, text: &str) -> String {
    let width = column.width;
    let text = if text.chars().count() > width {
        shorten(text, width)
    } else {
        text.to_owned()
    };
    if column.right {
        format!("{text:>width$}")
    } else {
        format!("{text:<width$}")
    }
}

/// `text` in `width` characters: its beginning, `…`, and its end, where the extension is.
fn shorten(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width || width == 0 {
        return chars.into_iter().take(width).collect();
    }
    let tail = ((width - 1) / 2).min(6);
    let head = width - 1 - tail;
    let mut shown: String = chars[..head].iter().collect();
    shown.push('…');
    shown.extend(&chars[chars.len() - tail..]);
    shown
}

fn total(columns: &[Column]) -> usize {
    columns.iter().map(|c| c.width).sum::<usize>() + GAP * columns.len().saturating_sub(1)
}

/// Makes the columns fit in `width`, as the module says.
fn fit(columns: &mut Vec<Column>, width: usize) {
    if total(columns) <= width {
        return;
    }
    columns.iter_mut().for_each(Column::tighten);
    let shorten_names = |columns: &mut Vec<Column>, shortest: usize| {
        let over = total(columns).saturating_sub(width);
        let name = &mut columns[0];
        name.width = name
            .width
            .saturating_sub(over)
            .max(shortest)
            .min(name.width);
    };
    columns.retain(|c| c.kind != Kind::Language);
    shorten_names(columns, SHORT_NAME);
    for spared in [Kind::Memory, Kind::Cpu] {
        if total(columns) <= width {
            return;
        }
        columns.retain(|c| c.kind != spared);
    }
    if total(columns) > width {
        for column in columns.iter_mut() {
            if let Some(short) = column.short.take() {
                column.cells = short;
                column.tighten();
            }
        }
    }
    shorten_names(columns, SHORTEST_NAME);
    // Still too wide (a terminal of a few columns): the last column's text is cut, at worst to nothing.
    let over = total(columns).saturating_sub(width);
    if let Some(last) = columns.last_mut() {
        last.width = last.width.saturating_sub(over);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_shortened_in_the_middle() {
        assert_eq!(shorten("plain_backtracking.rs", 12), "plain_…ng.rs");
        assert_eq!(shorten("plain_backtracking.rs", 8), "plai….rs");
        assert_eq!(shorten("short.rs", 12), "short.rs");
    }
}
