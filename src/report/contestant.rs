//! `cpjudge test`'s report, in a contestant's words: each sample with its verdict, why a failing one failed, and
//! whether the file passed. A contestant expects nothing but AC, so the setter's "expected" column says nothing.

use super::{Detail, Style};
use crate::judge::{JudgeReport, SolutionReport, TestResult};
use crate::problem::Comparison;
use crate::units::{format_time, plural};
use crate::verdict::Verdict;
use std::io::{self, Write};

/// Writes the report of one file on its samples; with [`Detail::Quiet`] only the last line.
pub fn write_contestant(
    report: &JudgeReport,
    comparison: &Comparison,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(solution) = report.solutions.first() else {
        return Ok(());
    };
    let shown = *comparison == Comparison::Shown;
    if style.detail != Detail::Quiet {
        writeln!(
            out,
            "{} ({}) on {}{}, limits {} CPU and {} memory",
            solution.name,
            solution.language.name(),
            plural(report.tests.len(), "sample"),
            if shown {
                " without answers: their outputs are shown"
            } else {
                ""
            },
            format_time(report.time_limit),
            report.memory_limit,
        )?;
        write_samples(solution, shown, style, out)?;
        writeln!(out)?;
    }
    write_last_line(report, solution, shown, style, out)
}

/// A block per sample: its verdict, time and memory, then why it failed, or the output when there is no answer.
fn write_samples(
    solution: &SolutionReport,
    shown: bool,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if solution.verdict == Verdict::CompileError {
        writeln!(out, "\ncompile error:")?;
        for line in solution.compile.message.lines().take(20) {
            writeln!(out, "    {}", style.cut(line, 4))?;
        }
        return Ok(());
    }
    let width = solution
        .tests
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0);
    for test in &solution.tests {
        let color = if test.verdict.is_accepted() {
            console::Style::new().green()
        } else {
            console::Style::new().red().bold()
        };
        writeln!(
            out,
            "\n{:<width$}  {}  {:>8}  {:>9}",
            test.name,
            style.paint(&format!("{:<3}", test.verdict.code()), color),
            format_time(test.cpu),
            test.memory.measured(),
        )?;
        if shown && test.verdict.is_accepted() {
            writeln!(out, "    output:")?;
        }
        if shown || !test.verdict.is_accepted() {
            write_message(test, style, out)?;
        }
        if !test.verdict.is_accepted() {
            super::table::write_evidence(test, style, out)?;
        }
    }
    Ok(())
}

fn write_message(test: &TestResult, style: Style, out: &mut dyn Write) -> io::Result<()> {
    for line in test.message.lines() {
        writeln!(out, "    {}", style.cut(line, 4))?;
    }
    Ok(())
}

/// Whether the file passed: every sample AC, or which failed and how.
fn write_last_line(
    report: &JudgeReport,
    solution: &SolutionReport,
    shown: bool,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(interruption) = &report.interrupted {
        writeln!(
            out,
            "{}",
            style.paint(
                &format!("interrupted while {}", interruption.during),
                console::Style::new().yellow().bold()
            )
        )?;
    }
    let total = report.tests.len();
    if solution.verdict == Verdict::CompileError {
        let text = "failed: compile error";
        return writeln!(
            out,
            "{}",
            style.paint(text, console::Style::new().red().bold())
        );
    }
    let failed: Vec<&TestResult> = solution
        .tests
        .iter()
        .filter(|t| !t.verdict.is_accepted())
        .collect();
    if failed.is_empty() && solution.tests.len() == total {
        let text = if shown {
            format!(
                "ran on {}: every run ended normally",
                plural(total, "sample")
            )
        } else {
            match total {
                1 => "AC: passed the sample".to_owned(),
                n => format!("AC: passed all {n} samples"),
            }
        };
        return writeln!(
            out,
            "{}",
            style.paint(&text, console::Style::new().green().bold())
        );
    }
    let each: Vec<String> = failed
        .iter()
        .map(|t| format!("{} on sample {}", t.verdict.code(), t.name))
        .collect();
    let text = format!(
        "failed: {} ({} of {} passed)",
        each.join(", "),
        solution.tests.len() - failed.len(),
        plural(total, "sample")
    );
    writeln!(
        out,
        "{}",
        style.paint(&text, console::Style::new().red().bold())
    )
}
