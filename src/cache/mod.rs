//! The cache folder: builds, bounded in size with the least recently used removed first, memos of inputs found
//! valid, and kept time-limit suggestions; judges sharing it at once never remove a build another is using.

mod builds;
mod clear;
mod entry;
mod folder;
mod holdings;
mod trim;

pub(crate) use builds::measure;
pub use clear::{Cleared, Tally, clear, survey};
pub use folder::{Cache, DEFAULT_SIZE_BOUND};
pub(crate) use holdings::Holdings;
