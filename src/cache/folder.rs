//! Where the cache is, what it holds, and how much of it the builds may take.

use crate::units::Bytes;
use std::path::PathBuf;

/// How much the builds may take together unless `--cache-size` says otherwise: room for a few hundred builds of
/// a few megabytes, and far below what one compile may leave (see `runs::COMPILE_LIMITS`) times the judges of a day.
pub const DEFAULT_SIZE_BOUND: Bytes = Bytes(2 * Bytes::GIB);

/// The cache folder: compiled programs under `build/`, memos of inputs found valid under `validated/`, and the time
/// limits `timelimit` suggested under `timelimit/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    pub dir: PathBuf,
    /// How much the builds may take together; past it, each new build removes those used least recently.
    pub size_bound: Bytes,
}

impl Cache {
    /// The cache in `dir`, with the default size bound.
    pub fn new(dir: PathBuf) -> Cache {
        Cache {
            dir,
            size_bound: DEFAULT_SIZE_BOUND,
        }
    }

    /// The builds, one folder each, named by its key.
    pub fn builds(&self) -> PathBuf {
        self.dir.join("build")
    }

    /// An empty file per input a validator accepted, named by a digest of the validator, the input and its flags.
    pub fn validated(&self) -> PathBuf {
        self.dir.join("validated")
    }

    /// The limits `timelimit` suggested, one file each.
    pub fn suggestions(&self) -> PathBuf {
        self.dir.join("timelimit")
    }

    /// The digests of each problem's test files, one file per problem (see `judge::records`).
    pub fn digests(&self) -> PathBuf {
        self.dir.join("digests")
    }

    /// What `validate --constraints` last found each problem's tests reach, one file per problem (see
    /// `authoring::reached`).
    pub fn constraints(&self) -> PathBuf {
        self.dir.join("constraints")
    }
}
