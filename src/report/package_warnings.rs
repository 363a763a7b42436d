//! The warnings of a package, for the commands that write no judge report to hold them (validate, add, regen,
//! stress, timelimit): on standard error, before their work, so that none goes unsaid.

use crate::problem::PackageWarning;

pub fn warn_package(warnings: &[PackageWarning]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}
