//! A scoring problem's groups in the judge table: a grid of each group's verdict and score for each solution, in
//! the widest form the terminal holds.

use super::Style;
use crate::judge::{JudgeReport, SolutionReport};
use crate::scoring::{GroupResult, show};
use std::io::{self, Write};

/// Narrower than this, a solution's name in a column head says too little to tell it from the others.
const SHORTEST_NAME: usize = 4;

/// A solution's score as "50/100", or "50" where unbounded; None for a pass-fail problem.
pub(super) fn score_text(solution: &SolutionReport) -> Option<String> {
    let score = solution.score?;
    Some(match solution.max_score {
        Some(max) => format!("{}/{}", show(score), show(max)),
        None => show(score),
    })
}

/// A group's cell: its verdict and score, "-" where none of its tests ran.
fn cell(group: Option<&GroupResult>) -> String {
    match group.and_then(|g| g.verdict.map(|v| (v, g.score))) {
        Some((verdict, score)) => format!("{} {}", verdict.code(), show(score)),
        None => "-".to_owned(),
    }
}

/// Every group any solution has, in the order they come, each as first met (its counting and highest score are
/// the problem's, the same for every solution).
fn groups(report: &JudgeReport) -> Vec<&GroupResult> {
    let mut found: Vec<&GroupResult> = Vec::new();
    for group in report.solutions.iter().flat_map(|s| &s.groups) {
        if !found.iter().any(|g| g.name == group.name) {
            found.push(group);
        }
    }
    found
}

/// `text` cut to `width` characters, its cut marked.
fn abbreviate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}~")
}

/// The widest names (at most each one's whole) for which columns of `cells` wide cells and these names, two
/// spaces before each, fit in `room`; None if not even names of [`SHORTEST_NAME`] do.
fn fitting_names(names: &[usize], cells: &[usize], room: usize) -> Option<Vec<usize>> {
    let longest = names.iter().copied().max().unwrap_or(0);
    (SHORTEST_NAME.min(longest)..=longest)
        .rev()
        .find_map(|limit| {
            let widths: Vec<usize> = names
                .iter()
                .zip(cells)
                .map(|(&name, &cell)| name.min(limit).max(cell))
                .collect();
            (widths.iter().map(|w| w + 2).sum::<usize>() <= room).then_some(widths)
        })
}

/// Writes the grid: groups as rows and solutions as columns (names shortened as needed), or, where even that is
/// too wide, solutions as rows and groups as columns. Nothing for a pass-fail problem.
pub(super) fn write_grid(
    report: &JudgeReport,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let groups = groups(report);
    if groups.is_empty() {
        return Ok(());
    }
    let cells: Vec<Vec<String>> = report
        .solutions
        .iter()
        .map(|s| {
            groups
                .iter()
                .map(|g| cell(s.groups.iter().find(|r| r.name == g.name)))
                .collect()
        })
        .collect();
    let widest = |texts: &mut dyn Iterator<Item = usize>| texts.max().unwrap_or(0);
    // Rows of groups: each indented by its depth, named by its last part, the highest score beside it.
    let labels: Vec<String> = groups
        .iter()
        .map(|g| {
            let depth = g.name.matches('/').count();
            let last = g.name.rsplit('/').next().unwrap_or(&g.name);
            let mark = if g.counted { "" } else { " (not counted)" };
            format!("{}{last}{mark}", "  ".repeat(depth))
        })
        .collect();
    let maxima: Vec<String> = groups
        .iter()
        .map(|g| g.max.map(show).unwrap_or_default())
        .collect();
    let label_width = widest(&mut labels.iter().map(|l| l.chars().count())).max("group".len());
    let max_width = widest(&mut maxima.iter().map(String::len)).max("max".len());
    let names: Vec<usize> = report
        .solutions
        .iter()
        .map(|s| s.name.chars().count())
        .collect();
    let cell_widths: Vec<usize> = cells
        .iter()
        .map(|row| widest(&mut row.iter().map(String::len)))
        .collect();
    let room = style.width.saturating_sub(label_width + 2 + max_width);
    // Solutions as rows: a column per group, headed by its last part.
    let name_width = widest(&mut names.iter().copied()).max("solution".len());
    let transposed_room = style.width.saturating_sub(name_width);
    let column_cells: Vec<usize> = (0..groups.len())
        .map(|at| widest(&mut cells.iter().map(|row| row[at].len())))
        .collect();
    let fits = |heads: &[String]| {
        heads
            .iter()
            .zip(&column_cells)
            .map(|(h, &c)| h.chars().count().max(c) + 2)
            .sum::<usize>()
            <= transposed_room
    };
    // Headed by whole names where they fit, else by their last parts.
    let mut heads: Vec<String> = groups.iter().map(|g| g.name.clone()).collect();
    if !fits(&heads) {
        heads = groups
            .iter()
            .map(|g| g.name.rsplit('/').next().unwrap_or(&g.name).to_owned())
            .collect();
    }
    let head_widths: Vec<usize> = heads.iter().map(|h| h.chars().count()).collect();
    let whole_heads = head_widths
        .iter()
        .zip(&column_cells)
        .map(|(&h, &c)| h.max(c) + 2)
        .sum::<usize>()
        <= transposed_room;
    // Whole names first; then whichever form keeps its heads whole; shortened names only while they still tell
    // the solutions apart.
    let columns = fitting_names(&names, &cell_widths, room).filter(|widths| {
        let whole = widths.iter().zip(&names).all(|(w, n)| w >= n);
        let shortened: Vec<String> = report
            .solutions
            .iter()
            .zip(widths)
            .map(|(s, w)| abbreviate(&s.name, *w))
            .collect();
        let distinct = shortened
            .iter()
            .enumerate()
            .all(|(at, name)| !shortened[..at].contains(name));
        whole || (!whole_heads && distinct)
    });
    writeln!(out, "\ngroups (verdict and score):")?;
    if let Some(widths) = columns {
        let mut head = format!("{:<label_width$}  {:>max_width$}", "group", "max");
        for (solution, width) in report.solutions.iter().zip(&widths) {
            head.push_str(&format!("  {:<width$}", abbreviate(&solution.name, *width)));
        }
        writeln!(out, "{}", head.trim_end())?;
        for (at, label) in labels.iter().enumerate() {
            let mut line = format!("{label:<label_width$}  {:>max_width$}", maxima[at]);
            for (row, width) in cells.iter().zip(&widths) {
                line.push_str(&format!("  {:<width$}", row[at]));
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        return Ok(());
    }
    let widths = fitting_names(&head_widths, &column_cells, transposed_room).unwrap_or_else(|| {
        head_widths
            .iter()
            .zip(&column_cells)
            .map(|(&h, &c)| h.min(SHORTEST_NAME).max(c))
            .collect()
    });
    let mut head = format!("{:<name_width$}", "solution");
    for (text, width) in heads.iter().zip(&widths) {
        head.push_str(&format!("  {:<width$}", abbreviate(text, *width)));
    }
    writeln!(out, "{}", style.cut(head.trim_end(), 0))?;
    if maxima.iter().any(|m| !m.is_empty()) {
        let mut line = format!("{:<name_width$}", "max");
        for (text, width) in maxima.iter().zip(&widths) {
            line.push_str(&format!("  {text:<width$}"));
        }
        writeln!(out, "{}", style.cut(line.trim_end(), 0))?;
    }
    for (solution, row) in report.solutions.iter().zip(&cells) {
        let mut line = format!("{:<name_width$}", solution.name);
        for (text, width) in row.iter().zip(&widths) {
            line.push_str(&format!("  {text:<width$}"));
        }
        writeln!(out, "{}", style.cut(line.trim_end(), 0))?;
    }
    let uncounted: Vec<&str> = groups
        .iter()
        .filter(|g| !g.counted)
        .map(|g| g.name.as_str())
        .collect();
    if !uncounted.is_empty() {
        writeln!(out, "not counted: {}", uncounted.join(", "))?;
    }
    Ok(())
}
