//! What `export` wrote.

use crate::export::Exported;
use std::io::{self, Write};

pub fn write_exported(problem: &str, exported: &Exported, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "exported {problem} to {} ({} format): {} tests, {} submissions",
        exported.dir.display(),
        exported.format.label(),
        exported.tests,
        exported.submissions
    )?;
    if let Some(short) = &exported.rename_to {
        writeln!(
            out,
            "  note: Kattis and problemtools take a package only in a folder named with a-z and 0-9 alone \
             (verifyproblem says \"Invalid shortname\"): rename the folder {short} to check it there"
        )?;
    }
    for (role, folder) in &exported.wrapped {
        writeln!(
            out,
            "  the {role} speaks cpjudge's protocol: wrapped in {folder} (build and run scripts)"
        )?;
    }
    Ok(())
}
