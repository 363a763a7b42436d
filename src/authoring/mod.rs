//! What a problem setter uses to grow and check a problem's tests: the recipe of each test, the testdata folder
//! under a lock, and the problem's programs ready to run.

mod add;
mod constraints;
mod number;
mod placement;
mod reached;
mod recipe;
mod regen;
mod scaffold;
mod store;
mod stress;
mod validate;
mod validation_data;
mod workshop;

pub use add::{Added, Candidate, Name, Refusal, add, check_name, name_from_args};
pub use constraints::{CaseRow, Constraints, ProtocolError, Summary, ValueRow};
pub use number::{Bounds, Number};
pub use placement::Placement;
pub use reached::{Reached, keep_reached, kept_reached, reached_key};
pub use recipe::{Entry, Recipe, Source};
pub use regen::{Difference, Rebuilt, RegenReport, regen};
pub use scaffold::{check_name as check_problem_name, scaffold};
pub use store::{NewTest, TestFolder, identical};
pub use stress::{Event as StressEvent, Failure, Plan, SHRINK_TIME, Saved, Stress, StressReport};
pub use validate::{KeptInvalid, SelfTest, ValidationReport, validate};
pub use validation_data::{DataCheck, DataOutcome, SkipReason, SkippedData};
pub use workshop::{Answer, Workshop};
