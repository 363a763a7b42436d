//! The subcommands: each turns parsed arguments into work for the library and output for the reporter.

mod doctor;
mod judge;
mod list;
mod new;
mod session;
mod test;
mod timelimit;

pub use doctor::doctor;
pub use judge::judge;
pub use list::list;
pub use new::new;
pub use test::test;
pub use timelimit::timelimit;
