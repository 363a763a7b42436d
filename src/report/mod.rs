//! Everything the user sees of a judge: the progress bar, the table, JSON and JUnit. Only this module prints.

mod doctor;
mod json;
mod junit;
mod progress;
mod table;

pub use doctor::{
    DoctorReport, ToolchainStatus, warn_unavailable, write_doctor, write_doctor_json,
};
pub use json::{AboutJudge, ProblemSummary, write_json, write_list_json};
pub use junit::write_junit;
pub use progress::Progress;
pub use table::{Style, write_list, write_table};
