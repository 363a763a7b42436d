//! The subcommands: each turns parsed arguments into work for the library and output for the reporter.

mod add;
mod cache;
mod contest;
mod doctor;
mod export;
mod import;
mod judge;
mod list;
mod merge;
mod new;
mod regen;
mod session;
mod stress;
mod target;
mod test;
mod timelimit;
mod validate;
mod watch;

pub use add::add;
pub use cache::cache;
pub use doctor::doctor;
pub use export::export;
pub use import::import;
pub use judge::judge;
pub use list::list;
pub use merge::{merge, report};
pub use new::new;
pub use regen::regen;
pub use stress::stress;
pub use test::test;
pub use timelimit::timelimit;
pub use validate::validate;
