//! The limit `timelimit` suggested, kept in the build cache so that later judges' reports can show it beside the
//! problem's own limit. It is kept under a digest of the references' sources and the tests' inputs: once either
//! changes, the suggestion is not found, since it no longer says anything about them.

use crate::cache::Cache;
use crate::compile::CacheKey;
use crate::error::{Error, Result};
use crate::judge::SuggestedLimit;
use crate::problem::{Problem, Test};
use std::path::{Path, PathBuf};

use super::Role;

/// Where the suggestion for `problem`'s references on `tests` is kept in `cache`.
pub fn place(cache: &Cache, problem: &Problem, tests: &[Test]) -> Result<PathBuf> {
    let mut key = CacheKey::default();
    // Files are read a piece at a time: a test's input may be far larger than what the judge should hold.
    let file = |key: &mut CacheKey, path: &Path| {
        key.part_file(path).map_err(|e| Error::io("read", path, e))
    };
    key.part(problem.name.as_bytes());
    for solution in &problem.solutions {
        if Role::of(&solution.expected) != Some(Role::Reference) {
            continue;
        }
        key.part(solution.name.as_bytes());
        for path in std::iter::once(&solution.path).chain(&solution.others) {
            file(&mut key, path)?;
        }
    }
    // The tests the references run on: a static validation test case runs none, and a judge has them where a
    // calibration has not.
    for test in tests.iter().filter(|t| t.has_files()) {
        key.part(test.name.as_bytes());
        file(&mut key, &test.input())?;
    }
    Ok(cache.suggestions().join(format!("{}.json", key.finish())))
}

/// Keeps `suggestion` at `place`.
pub fn keep(place: &Path, suggestion: &SuggestedLimit) -> Result<()> {
    if let Some(folder) = place.parent() {
        std::fs::create_dir_all(folder).map_err(|e| Error::io("create", folder, e))?;
    }
    let json = serde_json::to_vec_pretty(suggestion).expect("a suggestion serializes");
    crate::atomic::write(place, &json)
}

/// The suggestion kept at `place`, if there is one (one that cannot be read is as good as none).
pub fn find(place: &Path) -> Option<SuggestedLimit> {
    serde_json::from_slice(&std::fs::read(place).ok()?).ok()
}
