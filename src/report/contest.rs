//! The summary of a command over several problems of the project (`judge`, `validate` or `regen` naming none): a
//! row per problem on the terminal, one JSON object for a judge of them all, and an HTML index linking each
//! problem's own page.

use super::json::report_value;
use super::{AboutJudge, Origin, Style};
use crate::judge::JudgeReport;
use crate::units::{Bytes, format_time};
use crate::verdict::Verdict;
use serde::Serialize;
use std::io::{self, Write};

const TEMPLATE: &str = include_str!("html/contest.html");

/// How a problem came out of the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemStatus {
    AsExpected,
    NotAsExpected,
    /// The user stopped the command while it worked on the problem.
    Interrupted,
    /// The problem could not be loaded, or the command not carried out on it: why.
    Broken(String),
}

impl ProblemStatus {
    fn text(&self) -> String {
        match self {
            ProblemStatus::AsExpected => "as expected".into(),
            ProblemStatus::NotAsExpected => "NOT AS EXPECTED".into(),
            ProblemStatus::Interrupted => "interrupted".into(),
            ProblemStatus::Broken(why) => format!("error: {why}"),
        }
    }

    fn color(&self) -> console::Style {
        match self {
            ProblemStatus::AsExpected => console::Style::new().green(),
            ProblemStatus::Interrupted => console::Style::new().yellow(),
            _ => console::Style::new().red().bold(),
        }
    }
}

/// One problem's row: its name, a cell per column of the command's summary, and how it came out.
#[derive(Debug, Clone)]
pub struct ProblemRow {
    pub problem: String,
    pub cells: Vec<String>,
    pub status: ProblemStatus,
}

impl ProblemRow {
    /// The row of a problem the command could not work on, with `columns` empty cells.
    pub fn broken(problem: String, why: String, columns: usize) -> ProblemRow {
        ProblemRow {
            problem,
            cells: vec!["-".into(); columns],
            status: ProblemStatus::Broken(why),
        }
    }
}

/// The columns of a judge's summary, between the problem and its status.
pub const JUDGE_COLUMNS: [&str; 3] = ["solutions", "tests", "slowest reference / limit"];

/// A judged problem's row: its solutions as expected out of those judged, its tests, and its slowest reference's
/// CPU time (on its slowest test) against the time limit.
pub fn judged_row(report: &JudgeReport, status: ProblemStatus) -> ProblemRow {
    let as_expected = report.solutions.iter().filter(|s| s.ok).count();
    let slowest = report
        .solutions
        .iter()
        .filter(|s| s.expected == [Verdict::Accepted])
        .map(|s| s.max_cpu())
        .max()
        .map_or("-".to_owned(), format_time);
    ProblemRow {
        problem: report.problem.clone(),
        cells: vec![
            format!("{as_expected}/{}", report.solutions.len()),
            report.tests.len().to_string(),
            format!("{slowest} / {}", format_time(report.time_limit)),
        ],
        status,
    }
}

/// Writes the summary: a header, a row per problem, and a last line over them all.
pub fn write_summary(
    columns: &[&str],
    rows: &[ProblemRow],
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let headers: Vec<&str> = std::iter::once("problem")
        .chain(columns.iter().copied())
        .collect();
    let widths: Vec<usize> = headers
        .iter()
        .enumerate()
        .map(|(at, header)| {
            rows.iter()
                .map(|row| match at {
                    0 => row.problem.chars().count(),
                    _ => row.cells[at - 1].chars().count(),
                })
                .chain([header.len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(at, (cell, &width))| match at {
                0 => format!("{cell:<width$}"),
                _ => format!("{cell:>width$}"),
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}  status", line(headers.clone()))?;
    for row in rows {
        let cells = std::iter::once(row.problem.as_str())
            .chain(row.cells.iter().map(String::as_str))
            .collect();
        writeln!(
            out,
            "{}  {}",
            line(cells),
            style.paint(&row.status.text(), row.status.color())
        )?;
    }
    let count = |status: &ProblemStatus| rows.iter().filter(|r| r.status == *status).count();
    let names = |wanted: fn(&ProblemStatus) -> bool| -> Vec<&str> {
        rows.iter()
            .filter(|r| wanted(&r.status))
            .map(|r| r.problem.as_str())
            .collect()
    };
    let not_as_expected = names(|s| *s == ProblemStatus::NotAsExpected);
    let broken = names(|s| matches!(s, ProblemStatus::Broken(_)));
    let interrupted = count(&ProblemStatus::Interrupted) > 0;
    let problems = crate::units::plural(rows.len(), "problem");
    let (text, color) = if not_as_expected.is_empty() && broken.is_empty() && !interrupted {
        (
            format!("{problems}, all as expected"),
            console::Style::new().green().bold(),
        )
    } else {
        let mut parts = vec![format!("{} as expected", count(&ProblemStatus::AsExpected))];
        if !not_as_expected.is_empty() {
            parts.push(format!(
                "{} not: {}",
                not_as_expected.len(),
                not_as_expected.join(", ")
            ));
        }
        if !broken.is_empty() {
            parts.push(format!("{} broken: {}", broken.len(), broken.join(", ")));
        }
        if interrupted {
            parts.push("interrupted".into());
        }
        (
            format!("{problems}: {}", parts.join("; ")),
            console::Style::new().red().bold(),
        )
    };
    writeln!(out, "{}", style.paint(&text, color))
}

/// A problem of a judge of several: its row, and its report where it was judged.
pub struct JudgedProblem {
    pub row: ProblemRow,
    pub judged: Option<(JudgeReport, Origin)>,
}

#[derive(Serialize)]
struct JsonContest {
    /// Each problem as `judge --json` reports it alone, in its `report`.
    problems: Vec<JsonProblem>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonProblem {
    problem: String,
    ok: bool,
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct JsonSummary {
    problems: usize,
    as_expected: usize,
    not_as_expected: usize,
    broken: usize,
    interrupted: bool,
    /// Whether every problem's solutions all got their expected verdicts.
    ok: bool,
}

/// Writes a judge of several problems as one JSON object and a newline.
pub fn write_contest_json(
    problems: &[JudgedProblem],
    harness_peak_memory: Bytes,
    out: &mut dyn Write,
) -> io::Result<()> {
    let count = |wanted: fn(&ProblemStatus) -> bool| {
        problems.iter().filter(|p| wanted(&p.row.status)).count()
    };
    let as_expected = count(|s| *s == ProblemStatus::AsExpected);
    let json = JsonContest {
        problems: problems
            .iter()
            .map(|p| JsonProblem {
                problem: p.row.problem.clone(),
                ok: p.row.status == ProblemStatus::AsExpected,
                status: match &p.row.status {
                    ProblemStatus::Broken(_) => "error".into(),
                    status => status.text().to_lowercase(),
                },
                error: match &p.row.status {
                    ProblemStatus::Broken(why) => Some(why.clone()),
                    _ => None,
                },
                report: p.judged.as_ref().map(|(report, origin)| {
                    report_value(
                        report,
                        &AboutJudge {
                            origin,
                            harness_peak_memory,
                        },
                    )
                }),
            })
            .collect(),
        summary: JsonSummary {
            problems: problems.len(),
            as_expected,
            not_as_expected: count(|s| *s == ProblemStatus::NotAsExpected),
            broken: count(|s| matches!(s, ProblemStatus::Broken(_))),
            interrupted: count(|s| *s == ProblemStatus::Interrupted) > 0,
            ok: as_expected == problems.len(),
        },
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

#[derive(Serialize)]
struct IndexPage {
    ok: bool,
    columns: Vec<String>,
    rows: Vec<IndexRow>,
}

#[derive(Serialize)]
struct IndexRow {
    problem: String,
    /// The problem's own page, beside the index; none where it was not judged.
    page: Option<String>,
    cells: Vec<String>,
    status: String,
    ok: bool,
}

/// Writes the index page of a judge of several problems: the summary, each judged problem's name linking its
/// page, `page(problem)` beside the index.
pub fn write_index(
    problems: &[JudgedProblem],
    page: &dyn Fn(&str) -> String,
    out: &mut dyn Write,
) -> io::Result<()> {
    let index = IndexPage {
        ok: problems
            .iter()
            .all(|p| p.row.status == ProblemStatus::AsExpected),
        columns: JUDGE_COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows: problems
            .iter()
            .map(|p| IndexRow {
                problem: p.row.problem.clone(),
                page: p.judged.is_some().then(|| page(&p.row.problem)),
                cells: p.row.cells.clone(),
                status: p.row.status.text(),
                ok: p.row.status == ProblemStatus::AsExpected,
            })
            .collect(),
    };
    super::html::render("contest.html", TEMPLATE, &index, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ColorChoice, Detail};

    #[test]
    fn a_judged_row_counts_solutions_and_times_the_slowest_reference() {
        let report = crate::report::json::tests::sample_report();
        let row = judged_row(&report, ProblemStatus::NotAsExpected);
        let good = report.solutions.iter().filter(|s| s.ok).count();
        assert_eq!(
            row.cells,
            [
                format!("{good}/{}", report.solutions.len()),
                "2".to_owned(),
                "7ms / 1s".to_owned()
            ]
        );
    }

    #[test]
    fn the_last_line_names_the_problems_not_as_expected_and_broken() {
        let rows = [
            ProblemRow {
                problem: "sum".into(),
                cells: vec!["3/3".into()],
                status: ProblemStatus::AsExpected,
            },
            ProblemRow {
                problem: "pair".into(),
                cells: vec!["1/2".into()],
                status: ProblemStatus::NotAsExpected,
            },
            ProblemRow::broken("draft".into(), "no problem.toml".into(), 1),
        ];
        let mut out = Vec::new();
        let style = Style::for_stdout(ColorChoice::Never, Detail::Normal);
        write_summary(&["solutions"], &rows, style, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "problem  solutions  status");
        assert_eq!(lines[1], "sum            3/3  as expected");
        assert_eq!(lines[3], "draft            -  error: no problem.toml");
        assert_eq!(
            lines[4],
            "3 problems: 1 as expected; 1 not: pair; 1 broken: draft"
        );
        let everything = [ProblemRow {
            status: ProblemStatus::AsExpected,
            ..rows[0].clone()
        }];
        let mut out = Vec::new();
        write_summary(&["solutions"], &everything, style, &mut out).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .ends_with("1 problem, all as expected\n")
        );
    }
}
