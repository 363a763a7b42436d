//! Problems: the `problem.toml` schema and what it becomes, finding problems by name, and finding their tests.

mod catalog;
mod config;
mod constants;
mod expected_results;
mod groups;
mod included;
mod package;
mod package_flags;
mod package_groups;
mod package_interaction;
mod package_keys;
mod package_limits;
mod package_parts;
mod package_static;
mod package_submissions;
mod package_tree;
mod package_warning;
mod selection;
mod standalone;
mod submission;
mod submissions_yaml;
mod test_name;
mod testset;
mod validation_data;
mod yaml_keys;

pub(crate) use catalog::misnamed;
pub use catalog::{Catalog, find_root};
pub use constants::Constants;
pub use package::is_package;
pub use package_interaction::Interaction;
pub use package_warning::{PackageWarning, WarningKind};

pub use config::{
    Comparison, InputValidator, PackageParts, Problem, ProblemLimits, Protocol, Solution, TimeRule,
};
pub use selection::TestSelection;
pub use standalone::{STANDALONE_LIMITS, default_tests_dir};
pub use submission::{Skipped, commands, submissions};
pub use test_name::TestName;
pub(crate) use testset::check_test_file;
pub use testset::{
    Beside, Files, Judging, Paths, Place, StaticCase, TEST_FILE_LIMIT, Test, TestFlags, TestKind,
    answer_of, find_inputs, find_tests, is_sample_name,
};
pub use validation_data::{ValidationCase, ValidationKind, validation_data};
