//! What `validate` found: each test the validator rejects, each kept invalid input it does not reject as
//! expected, then a summary.

use super::Style;
use crate::authoring::{SelfTest, ValidationReport};
use std::io::{self, Write};

/// Protocol errors listed one by one; the rest are counted.
const PROTOCOL_ERRORS_SHOWN: usize = 3;

pub fn write_validation(
    report: &ValidationReport,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let red = || console::Style::new().red();
    for (test, message) in report.invalid_tests() {
        writeln!(
            out,
            "{} test {} ({}): {}",
            style.paint("invalid", red()),
            test.name,
            crate::text::relative(&test.input).display(),
            style.cut(message, 30)
        )?;
    }
    for kept in &report.kept_invalid {
        let path = crate::text::relative(&kept.input);
        let (what, details) = match &kept.outcome {
            SelfTest::Rejected => continue,
            SelfTest::Accepted => (
                "accepted, but it is kept as an invalid input".to_owned(),
                vec![],
            ),
            SelfTest::OtherMessage { expected, said } => (
                "rejected, but not with the message expected".to_owned(),
                vec![("expected", expected.as_str()), ("said", said.as_str())],
            ),
            SelfTest::NoExpectation { said } => (
                format!(
                    "rejected, but there is no {} saying with what message",
                    path.with_extension("err").display()
                ),
                vec![("said", said.as_str())],
            ),
        };
        writeln!(
            out,
            "{} {}: {what}",
            style.paint("self-test", red()),
            path.display(),
        )?;
        for (label, text) in details {
            writeln!(out, "    {label:<9}{}", style.cut(text, 13))?;
        }
    }
    // The same mistake is usually made on every test: the first few say what it is.
    for error in report.protocol_errors.iter().take(PROTOCOL_ERRORS_SHOWN) {
        writeln!(
            out,
            "{} {}",
            style.paint("protocol", red()),
            style.cut(&error.to_string(), 9)
        )?;
    }
    if report.protocol_errors.len() > PROTOCOL_ERRORS_SHOWN {
        writeln!(
            out,
            "{} and {} more",
            style.paint("protocol", red()),
            report.protocol_errors.len() - PROTOCOL_ERRORS_SHOWN
        )?;
    }
    if let Some(summary) = &report.constraints {
        if !summary.is_empty() {
            super::constraints::write_constraints(summary, style, out)?;
        } else if report.protocol_errors.is_empty() {
            writeln!(
                out,
                "the validator reports no constraints (\"Constraint report\" in the README says how it can)"
            )?;
        } else {
            writeln!(out, "no test's constraint report could be read")?;
        }
        writeln!(out)?;
    }
    let valid = report.tests.len() - report.invalid_tests().count();
    let rejected = report
        .kept_invalid
        .iter()
        .filter(|k| k.outcome == SelfTest::Rejected)
        .count();
    let mark = if report.is_fine() {
        style.paint("ok", console::Style::new().green())
    } else {
        style.paint("FAILED", console::Style::new().red().bold())
    };
    write!(
        out,
        "{mark}: {valid} of {} valid",
        crate::units::plural(report.tests.len(), "test"),
    )?;
    // A problem with no kept invalid inputs (a package, say) has no self-test to speak of.
    if !report.kept_invalid.is_empty() {
        write!(
            out,
            "; {rejected} of {} rejected with the expected message",
            crate::units::plural(report.kept_invalid.len(), "kept invalid input"),
        )?;
    }
    writeln!(out)
}
