//! Everything the user sees of a judge: the progress bar, the table, JSON and JUnit. Only this module prints.

mod added;
mod cache;
mod calibration_progress;
mod constraints;
mod contest;
mod contestant;
mod doctor;
mod exported;
mod grid;
mod html;
mod imported;
pub(crate) mod json;
mod junit;
mod new_problem;
mod origin;
mod package_warnings;
mod plot;
mod progress;
mod regen;
mod rows;
#[cfg(test)]
mod shared_writer;
mod side_by_side;
mod steps;
mod stress;
mod style;
mod table;
mod timelimit;
mod validation;
mod watch;

pub use added::{write_added, write_refusal};
pub use cache::{write_cache, write_cache_json, write_cleared, write_cleared_json};
pub use calibration_progress::CalibrationProgress;
pub use constraints::write_constraints;
pub use contest::{
    JUDGE_COLUMNS, JudgedProblem, ProblemRow, ProblemStatus, judged_row, write_contest_json,
    write_index, write_summary,
};
pub use contestant::write_contestant;
pub use doctor::{
    DoctorReport, ToolchainStatus, warn_unavailable, write_doctor, write_doctor_json,
};
pub use exported::write_exported;
pub use html::write_html;
pub use imported::write_imported;
pub use json::{
    AboutJudge, ProblemSummary, SavedReport, read_json, write_json, write_json_line,
    write_list_json,
};
pub use junit::{write_contest_junit, write_junit};
pub use new_problem::write_new_problem;
pub use origin::Origin;
pub use package_warnings::warn_package;
pub use progress::Progress;
pub use regen::write_regen;
pub use steps::Steps;
pub use stress::{StressAbout, write_stress, write_stress_json};
pub use style::{ColorChoice, Detail, Style};
pub use table::{write_list, write_table};
pub use timelimit::{write_timelimit, write_timelimit_json};
pub use validation::write_validation;
pub use watch::{write_changed, write_waiting, write_watch_error};

/// What `timelimit` suggested, and from what, where and when: the same words in the table and on the page.
fn suggestion_text(suggested: &crate::judge::SuggestedLimit) -> String {
    use crate::units::format_time;
    use std::time::Duration;
    let reference = if suggested.solution.is_empty() {
        String::new()
    } else {
        format!(" ({}, {})", suggested.solution, suggested.language)
    };
    format!(
        "{} by timelimit: slowest reference {}{reference} over {} runs per test, on {} at {}",
        format_time(Duration::from_millis(suggested.limit_ms)),
        format_time(Duration::from_millis(suggested.slowest_reference_ms)),
        suggested.runs,
        if suggested.host.is_empty() {
            "an unknown machine"
        } else {
            &suggested.host
        },
        suggested.date
    )
}
