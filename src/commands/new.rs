//! `cpjudge new`: start a new problem from the template, judged green at once.

use crate::Outcome;
use crate::authoring::scaffold;
use crate::cli::NewArgs;
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report;

/// Makes the problem and says what was made and what to do next.
pub fn new(catalog: &Catalog, args: &NewArgs) -> Result<Outcome> {
    let made = scaffold(catalog.root(), &args.name, &args.lang)?;
    report::write_new_problem(&args.name, &made, &mut std::io::stdout().lock())
        .map_err(|e| Error::io("write", "standard output", e))?;
    Ok(Outcome::AsExpected)
}
