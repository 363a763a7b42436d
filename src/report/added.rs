//! What `add` did: the tests written, or why none was.

use super::Style;
use crate::authoring::{Added, Refusal};
use std::io::{self, Write};

pub fn write_added(added: &[Added], style: Style, out: &mut dyn Write) -> io::Result<()> {
    for test in added {
        let path = crate::text::relative(&test.input);
        let agreed = match test.agreed.len() {
            0 => String::new(),
            1 => format!("; {} agrees", test.agreed[0]),
            _ => format!("; {} agree", test.agreed.join(", ")),
        };
        writeln!(
            out,
            "{} {} (and .ans) from {}: answered by {}{agreed}",
            style.paint("added", console::Style::new().green()),
            path.display(),
            test.origin,
            test.main,
        )?;
    }
    Ok(())
}

pub fn write_refusal(refusal: &Refusal, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let refused = style.paint("not added", console::Style::new().red().bold());
    match refusal {
        Refusal::MainFailed {
            origin,
            main,
            verdict,
            message,
        } => {
            writeln!(
                out,
                "{refused}: the main reference {main} gets {verdict} on {origin}"
            )?;
            for line in message.lines().take(8) {
                writeln!(out, "    {}", style.cut(line, 4))?;
            }
        }
        Refusal::Disagreed {
            origin,
            main,
            other,
            result,
        } => {
            writeln!(
                out,
                "{refused}: the references disagree on {origin}: {other} gets {} against the answer of {main}",
                result.verdict
            )?;
            for line in result.message.lines().take(8) {
                writeln!(out, "    {}", style.cut(line, 4))?;
            }
            writeln!(
                out,
                "    (\"expected\" is {main}'s output, \"output\" is {other}'s)"
            )?;
            super::table::write_evidence(result, style, out)?;
        }
    }
    Ok(())
}
