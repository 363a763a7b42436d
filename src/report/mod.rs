//! Everything the user sees of a judge: the progress bar, the table, JSON and JUnit. Only this module prints.

mod constraints;
mod doctor;
mod json;
mod junit;
mod progress;
mod side_by_side;
mod style;
mod table;

pub use constraints::write_constraints;
pub use doctor::{
    DoctorReport, ToolchainStatus, warn_unavailable, write_doctor, write_doctor_json,
};
pub use json::{AboutJudge, ProblemSummary, write_json, write_list_json};
pub use junit::write_junit;
pub use progress::Progress;
pub use style::{ColorChoice, Detail, Style};
pub use table::{write_list, write_table};

/// Which results an interrupted judge reports, and which it does not.
fn interrupted_summary(interruption: &crate::judge::Interruption) -> String {
    format!(
        "the solutions reported were judged completely; not judged: {}",
        if interruption.not_judged.is_empty() {
            "none".to_owned()
        } else {
            interruption.not_judged.join(", ")
        }
    )
}
