//! What `validate` found: each test the validator rejects, each kept invalid input it does not reject as
//! expected, each case of validation data not taken as its folder says, then a summary.

use super::Style;
use crate::authoring::{DataOutcome, SelfTest, SkipReason, ValidationReport};
use crate::problem::ValidationKind;
use std::io::{self, Write};
use std::path::Path;

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
            crate::text::relative(&test.input()).display(),
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
    write_data(report, style, out)?;
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
                "the validator reports no constraints (\"Constraint report\" in the manual, book/src/problem-format.md, says how it can)"
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
    for kind in ValidationKind::ALL {
        let cases: Vec<_> = report.data.iter().filter(|d| d.case.kind == kind).collect();
        if !cases.is_empty() {
            let right = cases
                .iter()
                .filter(|d| d.outcome == DataOutcome::AsRequired)
                .count();
            let (noun, verb) = kind_words(kind);
            write!(
                out,
                "; {right} of {} {verb}",
                crate::units::plural(cases.len(), noun)
            )?;
        }
    }
    for skipped in &report.skipped_data {
        let (noun, _) = kind_words(skipped.kind);
        write!(
            out,
            "; {} not checked",
            crate::units::plural(skipped.cases, noun)
        )?;
    }
    writeln!(out)
}

/// What a case of `kind` is called, and what must become of it.
fn kind_words(kind: ValidationKind) -> (&'static str, &'static str) {
    match kind {
        ValidationKind::InvalidInput => ("invalid input", "rejected"),
        ValidationKind::InvalidOutput => ("invalid output", "rejected"),
        ValidationKind::ValidOutput => ("valid output", "accepted"),
    }
}

/// Each case of validation data not taken as its folder says, naming its file and the rule; then each kind not
/// checked, and why.
fn write_data(report: &ValidationReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let red = || console::Style::new().red();
    let judge = report.output_judge;
    for check in &report.data {
        let case = &check.case;
        let input = case.test.input();
        let output = case.output.as_deref().unwrap_or(&input);
        let (file, what, said): (&Path, String, Option<&String>) = match &check.outcome {
            DataOutcome::AsRequired => continue,
            DataOutcome::InputAccepted => {
                let every = match report.validators_skipped {
                    0 => "every input validator".to_owned(),
                    n => {
                        format!("every input validator that ran ({n} could not: see the warnings)")
                    }
                };
                (
                    &case.test.input(),
                    format!(
                        "accepted by {every}; an invalid input must be rejected by at least one"
                    ),
                    None,
                )
            }
            DataOutcome::InputRejected { said } => (
                &case.test.input(),
                format!(
                    "rejected by an input validator; the input of {} must be valid",
                    match case.kind {
                        ValidationKind::ValidOutput => "a valid output",
                        _ => "an invalid output",
                    }
                ),
                Some(said),
            ),
            DataOutcome::OutputAccepted => (
                output,
                format!("accepted by {judge}; an invalid output must be rejected"),
                None,
            ),
            DataOutcome::OutputRejected { said } => (
                output,
                format!("rejected by {judge}; a valid output must be accepted"),
                Some(said),
            ),
            DataOutcome::ValidatorFailed { said } => (
                output,
                format!("{judge} neither accepted nor rejected it"),
                Some(said),
            ),
        };
        writeln!(
            out,
            "{} {}: {what}",
            style.paint("self-test", red()),
            crate::text::relative(file).display(),
        )?;
        if let Some(said) = said {
            writeln!(out, "    {:<9}{}", "said", style.cut(said, 13))?;
        }
    }
    for skipped in &report.skipped_data {
        let why = match skipped.why {
            SkipReason::Interactive => {
                "the problem is interactive: its output is judged in the dialogue, and the format has invalid \
                 and valid outputs for non-interactive problems only"
            }
        };
        writeln!(
            out,
            "{} {}: {} not checked: {why}",
            style.paint("warning", console::Style::new().yellow()),
            crate::text::relative(&skipped.folder).display(),
            crate::units::plural(skipped.cases, "case"),
        )?;
    }
    Ok(())
}
