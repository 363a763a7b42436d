//! What helps a problem's author judge the problem itself: how well the tests cover its constraints.

mod constraints;
mod number;

pub use constraints::{CaseRow, Constraints, ProtocolError, Summary, ValueRow};
pub use number::{Bounds, Number};
