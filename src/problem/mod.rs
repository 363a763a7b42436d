//! Problems: the `problem.toml` schema and what it becomes, finding problems by name, and finding their tests.

mod catalog;
mod config;
mod selection;
mod standalone;
mod submission;
mod testset;

pub use catalog::{Catalog, find_root};
pub use config::{Comparison, Problem, ProblemLimits, Solution};
pub use selection::TestSelection;
pub use standalone::{STANDALONE_LIMITS, default_tests_dir};
pub use submission::submissions;
pub use testset::{Test, find_inputs, find_tests};
