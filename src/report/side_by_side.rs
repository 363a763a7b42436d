//! A short test shown whole: its input, the expected answer and the program's output in three columns, as wide
//! as the terminal allows, or one under another where it is too narrow.

use super::Style;
use crate::judge::TestTexts;
use std::io::{self, Write};

/// Columns narrower than this are stacked instead.
const NARROWEST: usize = 16;
const INDENT: &str = "    ";
const GAP: &str = " | ";

pub(super) fn write(texts: &TestTexts, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let columns = [
        ("input", &texts.input),
        ("expected", &texts.answer),
        ("output", &texts.output),
    ];
    let width = (style.width.saturating_sub(INDENT.len() + 2 * GAP.len())) / 3;
    let lines = |text: &[u8], width| -> Vec<String> {
        if text.is_empty() {
            return vec!["(empty)".into()];
        }
        let (body, ended) = match text.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (text, false),
        };
        let mut lines: Vec<String> = body
            .split(|&b| b == b'\n')
            .map(|l| crate::text::visible(l.strip_suffix(b"\r").unwrap_or(l), width))
            .collect();
        if !ended {
            lines.push("(no final newline)".into());
        }
        lines
    };
    let differs =
        |row: usize, expected: &[String], output: &[String]| expected.get(row) != output.get(row);
    if width < NARROWEST {
        let (expected, output) = (
            lines(&texts.answer, style.width),
            lines(&texts.output, style.width),
        );
        for (title, text) in columns {
            writeln!(out, "{INDENT}{title}:")?;
            for (row, line) in lines(text, style.width.saturating_sub(6))
                .iter()
                .enumerate()
            {
                let marked = title == "output" && differs(row, &expected, &output);
                writeln!(out, "{INDENT}  {}", paint(style, line, marked))?;
            }
        }
        return Ok(());
    }
    let [input, expected, output] = columns.map(|(_, text)| lines(text, width - 1));
    writeln!(
        out,
        "{INDENT}{:<width$}{GAP}{:<width$}{GAP}output",
        "input", "expected"
    )?;
    let rows = input.len().max(expected.len()).max(output.len());
    for row in 0..rows {
        let cell = |lines: &[String]| lines.get(row).cloned().unwrap_or_default();
        let found = cell(&output);
        // Padding by characters: `{:<width$}` would count the escapes' bytes.
        let pad = |text: String| {
            let n = text.chars().count();
            text + &" ".repeat(width.saturating_sub(n))
        };
        let marked = differs(row, &expected, &output);
        let left = format!(
            "{INDENT}{}{GAP}{}{GAP}",
            pad(cell(&input)),
            pad(cell(&expected))
        );
        if found.is_empty() {
            writeln!(out, "{}", left.trim_end())?;
        } else {
            writeln!(out, "{left}{}", paint(style, &found, marked))?;
        }
    }
    Ok(())
}

fn paint(style: Style, text: &str, differs: bool) -> String {
    if differs {
        style.paint(text, console::Style::new().red())
    } else {
        text.to_owned()
    }
}
