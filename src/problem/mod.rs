//! Problems: the `problem.toml` schema and what it becomes, finding problems by name, and finding their tests.

mod catalog;
mod config;
mod testset;

pub use catalog::Catalog;
pub use config::{Comparison, Problem, ProblemLimits, Solution};
pub use testset::{Test, find_tests};
