//! The subcommands: each turns parsed arguments into work for the library and output for the reporter.

mod doctor;
mod judge;
mod list;

pub use doctor::doctor;
pub use judge::judge;
pub use list::list;
