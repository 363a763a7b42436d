//! The cache folder: builds, memos of inputs found valid, and kept time-limit suggestions.

mod folder;

pub use folder::{Cache, DEFAULT_SIZE_BOUND};
