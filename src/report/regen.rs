//! What `regen` found: a line per test that its recipe does not rebuild as kept, then a summary.

use super::Style;
use crate::authoring::{Difference, Rebuilt, RegenReport};
use std::io::{self, Write};

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `problem` as the user named it, for the command that accepts the changes.
pub fn write_regen(
    report: &RegenReport,
    problem: &str,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let red = || console::Style::new().red();
    let yellow = || console::Style::new().yellow();
    for (name, rebuilt) in &report.tests {
        let mut changes = Vec::new();
        let (mark, what) = match rebuilt {
            Rebuilt::Same => continue,
            Rebuilt::Changed {
                input,
                answer,
                written,
            } => {
                let parts: Vec<String> = [("input", input), ("answer", answer)]
                    .into_iter()
                    .filter_map(|(file, difference)| match difference {
                        Difference::Same => None,
                        Difference::Differs(_) => Some(format!("{file} differs")),
                        Difference::Missing => Some(format!("{file} is missing")),
                    })
                    .collect();
                // How each file would change, under the test's line: a short one whole, a longer one as a diff.
                for (file, difference) in [("input", input), ("answer", answer)] {
                    if let Difference::Differs(Some(change)) = difference {
                        changes.push(if change.contains('\n') {
                            format!("{file}:\n{}", indent(change))
                        } else {
                            format!("{file}: {change}")
                        });
                    }
                }
                if *written {
                    (
                        style.paint("rewritten", yellow()),
                        format!("{} (was: {})", name, parts.join(", ")),
                    )
                } else {
                    (
                        style.paint("would change", red()),
                        format!("{name}: {}", parts.join(", ")),
                    )
                }
            }
            Rebuilt::Nondeterministic => (
                style.paint("nondeterministic", red()),
                format!("{name}: the generator gave two different inputs for the same arguments"),
            ),
            Rebuilt::GeneratorFailed(why) => {
                (style.paint("failed", red()), format!("{name}: {why}"))
            }
            Rebuilt::InputLost => (
                style.paint("lost", red()),
                format!("{name}: a hand-made test whose input is gone; nothing can rebuild it"),
            ),
            Rebuilt::Invalid(why) => (
                style.paint("invalid", red()),
                format!("{name}: the validator rejects the rebuilt input: {why}"),
            ),
            Rebuilt::ReferenceFailed { verdict, message } => (
                style.paint("failed", red()),
                format!("{name}: the main reference gets {verdict}: {message}"),
            ),
        };
        writeln!(out, "{mark} {}", style.cut(&what, 20))?;
        for change in changes {
            writeln!(out, "{}", indent(&change))?;
        }
    }
    if !report.unrecorded.is_empty() {
        writeln!(
            out,
            "{} not in the recipe (add them as `hand_made = true`, or with `cpjudge add`): {}",
            style.paint("note", yellow()),
            report.unrecorded.join(", ")
        )?;
    }
    let count = |f: &dyn Fn(&Rebuilt) -> bool| report.tests.iter().filter(|(_, r)| f(r)).count();
    let same = count(&|r| *r == Rebuilt::Same);
    let written = count(&|r| matches!(r, Rebuilt::Changed { written: true, .. }));
    let wrong = count(&|r| !r.is_fine());
    let mut summary = format!(
        "{} of {} rebuilt byte for byte",
        same,
        crate::units::plural(report.tests.len(), "test")
    );
    if written > 0 {
        summary.push_str(&format!(", {written} rewritten"));
    }
    if wrong > 0 {
        summary.push_str(&format!(
            ", {wrong} not{}",
            if report
                .tests
                .iter()
                .any(|(_, r)| matches!(r, Rebuilt::Changed { written: false, .. }))
            {
                format!(" (`cpjudge regen {problem} --write` accepts the changes)")
            } else {
                String::new()
            }
        ));
    }
    if report.interrupted {
        summary = format!("interrupted: {summary}; the tests after these were not rebuilt");
    }
    writeln!(out, "{summary}")
}
