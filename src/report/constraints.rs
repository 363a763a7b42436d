//! The constraint summary: per value the range the tests reach within its bounds, per special case how many
//! tests have it; an end or a case no test reaches is marked so that it stands out even without colour.

use super::Style;
use crate::authoring::{Summary, ValueRow};
use crate::units::plural;
use std::io::{self, Write};

/// Distinct bounds shown for a value whose bounds depend on the input; the rest are counted.
const SHOWN_BOUNDS: usize = 3;

/// Writes a line per value name, then a line per case, then what no test reaches.
pub fn write_constraints(summary: &Summary, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let good = console::Style::new().green();
    let bad = console::Style::new().red().bold();
    writeln!(
        out,
        "constraints reached by {}",
        plural(summary.tests, "test")
    )?;
    if summary.is_empty() {
        return writeln!(
            out,
            "{}",
            style.paint(
                "the validator printed no `value` or `case` lines (see \"Constraint report\" in the manual, book/src/problem-format.md)",
                console::Style::new().yellow()
            )
        );
    }
    // The seen range is aligned on its "..", so that the smallest and the largest values each form a column.
    let cells: Vec<[String; 4]> = summary
        .values
        .iter()
        .map(|row| {
            let of = match row.bounds.as_slice() {
                [only] => format!("of {only}"),
                many => format!("of {} bounds", many.len()),
            };
            let [smallest, largest] = [&row.smallest, &row.largest].map(ToString::to_string);
            [row.name.clone(), smallest, largest, of]
        })
        .collect();
    let width = |k: usize| {
        cells
            .iter()
            .map(|c| c[k].chars().count())
            .max()
            .unwrap_or(0)
    };
    let [w0, w1, w2, w3] = [0, 1, 2, 3].map(width);
    let mut unreached_ends = 0;
    for (row, [name, smallest, largest, of]) in summary.values.iter().zip(&cells) {
        let mark = match unreached(row) {
            None => style.paint("✓ both ends", good.clone()),
            Some(ends) => {
                unreached_ends += usize::from(!row.low_reached) + usize::from(!row.high_reached);
                style.paint(&format!("✗ {ends}"), bad.clone())
            }
        };
        let mut notes = Vec::new();
        if row.tests < summary.tests {
            notes.push(format!(
                "in {} of {}",
                row.tests,
                plural(summary.tests, "test")
            ));
        }
        if row.bounds.len() > 1 {
            notes.push(format!("bounds {}", bounds(row)));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  ({})", notes.join("; "))
        };
        writeln!(
            out,
            "  {name:<w0$}  {smallest:>w1$}..{largest:<w2$}  {of:<w3$}  {mark}{notes}"
        )?;
    }
    let case_width = summary
        .cases
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let count_width = summary.tests.to_string().len();
    let mut never = 0;
    for case in &summary.cases {
        let counted = format!(
            "{:>count_width$} of {}",
            case.holds,
            plural(summary.tests, "test")
        );
        if case.holds == 0 {
            never += 1;
            let mark = style.paint("✗ never", bad.clone());
            writeln!(out, "  case {:<case_width$}  {counted}  {mark}", case.name)?;
        } else {
            writeln!(out, "  case {:<case_width$}  {counted}", case.name)?;
        }
    }
    let verdict = match (unreached_ends, never) {
        (0, 0) => style.paint(
            "every bound reached at both ends, every case in some test",
            good.bold(),
        ),
        (0, cases) => style.paint(&format!("never reached: {}", plural(cases, "case")), bad),
        (ends, 0) => style.paint(&format!("never reached: {}", plural(ends, "end")), bad),
        (ends, cases) => style.paint(
            &format!(
                "never reached: {} and {}",
                plural(ends, "end"),
                plural(cases, "case")
            ),
            bad,
        ),
    };
    writeln!(out, "{verdict}")
}

/// The first few of the bounds the tests gave a value, and how many more.
fn bounds(row: &ValueRow) -> String {
    let shown: Vec<String> = row
        .bounds
        .iter()
        .take(SHOWN_BOUNDS)
        .map(ToString::to_string)
        .collect();
    match row.bounds.len().saturating_sub(SHOWN_BOUNDS) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Which ends of its bounds no test reaches, in words, or `None` if both are reached. With bounds that depend on
/// the input, an end is reached when a value meets its own input's bound.
fn unreached(row: &ValueRow) -> Option<String> {
    let single = match row.bounds.as_slice() {
        [only] => Some(only),
        _ => None,
    };
    let text = match (row.low_reached, row.high_reached, single) {
        (true, true, _) => return None,
        (false, false, Some(b)) => format!("neither {} nor {}", b.min, b.max),
        (false, true, Some(b)) => format!("never {}", b.min),
        (true, false, Some(b)) => format!("never {}", b.max),
        (false, false, None) => "at neither bound".to_owned(),
        (false, true, None) => "never at its lower bound".to_owned(),
        (true, false, None) => "never at its upper bound".to_owned(),
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authoring::Constraints;
    use crate::report::Detail;

    fn render(stdouts: &[&str]) -> String {
        let mut constraints = Constraints::new();
        for (i, stdout) in stdouts.iter().enumerate() {
            constraints
                .record(&format!("t{i}"), stdout.as_bytes())
                .unwrap();
        }
        let style = Style {
            color: false,
            clip: true,
            width: 100,
            detail: Detail::Normal,
        };
        let mut out = Vec::new();
        write_constraints(&constraints.summary(), style, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A knight-pawns-like test set that misses things: the top coordinate, a bound met only by some inputs, a
    /// value some tests lack, and a case never met.
    #[test]
    fn weak_test_set() {
        let mut stdouts = Vec::new();
        for n in 1..=12 {
            let mut s = format!(
                "value kx {} 0 49\nvalue ky 0 0 49\nvalue n {n} 1 15\n",
                n * 4
            );
            for x in 0..n {
                s += &format!("value x {x} 0 49\nvalue y {} 0 49\n", 49 - x);
            }
            if n % 3 == 0 {
                s += &format!("value step {} 1 {n}\n", n - 1);
            }
            s += &format!(
                "case knight-in-corner {}\ncase all-pawns-one-move no\n",
                if n == 12 { "yes" } else { "no" }
            );
            stdouts.push(s);
        }
        stdouts.push("value step 0.5 0.5 2.5\nvalue kx 49 0 49\nvalue n 15 1 15\n".into());
        let stdouts: Vec<&str> = stdouts.iter().map(String::as_str).collect();
        insta::assert_snapshot!(render(&stdouts));
    }

    #[test]
    fn complete_and_empty_test_sets() {
        let complete = render(&["value n 1 1 2\ncase big no", "value n 2 1 2\ncase big yes"]);
        assert!(
            complete.ends_with("every bound reached at both ends, every case in some test\n"),
            "{complete}"
        );
        assert!(
            complete.contains("  n  1..2  of 1..2  ✓ both ends\n"),
            "{complete}"
        );
        let empty = render(&["", "\n"]);
        assert!(
            empty.starts_with("constraints reached by 2 tests\n"),
            "{empty}"
        );
        assert!(
            empty.contains("printed no `value` or `case` lines"),
            "{empty}"
        );
    }
}
