//! The engine: solutions x tests -> verdicts. It never prints; it reports progress as [`Event`]s and returns
//! the whole outcome as data.

mod classify;
mod dialogue;
mod engine;
mod held;
mod in_order;
mod last_words;
mod limit_check;
mod merge;
mod names;
mod outcome;
mod partition;
mod passes;
mod records;
mod relay;
mod run_folder;
mod run_test;
mod samples;
mod turns;
mod validate;

pub(crate) use classify::classify;
pub use engine::{Judge, JudgeOptions};
pub use limit_check::LimitCheck;
pub use merge::{Rules, Share, merge};
pub use names::TestNames;
pub use outcome::{
    BuildTrace, Event, Interruption, JudgeReport, RunTrace, SolutionReport, SuggestedLimit,
    TestResult, TestTexts,
};
pub use partition::Partition;
pub(crate) use records::RUNS_FILE;
pub use records::{MARGIN_PERCENT, Provenance};
pub(crate) use run_test::{OUTPUT, TestRunner};
pub use validate::{InputCheck, Validator};
