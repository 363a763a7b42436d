//! What `import` wrote, and what it left out: one line each.

use crate::import::Imported;
use std::io::{self, Write};

pub fn write_imported(imported: &Imported, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "imported {} as problem {} ({} {} package)",
        imported.package.display(),
        imported.name,
        imported.format,
        if imported.scoring {
            "scoring"
        } else {
            "pass-fail"
        }
    )?;
    for (path, what) in &imported.written {
        writeln!(out, "  wrote {}: {what}", path.display())?;
    }
    if imported.left_out.is_empty() {
        writeln!(out, "nothing of the package was left out")?;
    } else {
        writeln!(out, "not carried over ({}):", imported.left_out.len())?;
        for line in &imported.left_out {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}
