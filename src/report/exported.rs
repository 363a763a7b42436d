//! What `export` wrote.

use crate::export::Exported;
use std::io::{self, Write};

pub fn write_exported(problem: &str, exported: &Exported, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "exported {problem} to {}: {} tests, {} submissions",
        exported.dir.display(),
        exported.tests,
        exported.submissions
    )?;
    for (role, folder) in &exported.wrapped {
        writeln!(
            out,
            "  the {role} speaks cpjudge's protocol: wrapped in {folder} (build and run scripts)"
        )?;
    }
    Ok(())
}
