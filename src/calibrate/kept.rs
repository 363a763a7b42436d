//! The limit `timelimit` suggested, kept in the build cache so that later judges' reports can show it beside the
//! problem's own limit. It is kept under a digest of the references' sources and the tests' inputs: once either
//! changes, the suggestion is not found, since it no longer says anything about them.

use crate::error::{Error, Result};
use crate::judge::SuggestedLimit;
use crate::problem::{Problem, Test};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

use super::Role;

/// Where the suggestion for `problem`'s references on `tests` is kept in `cache`.
pub fn place(cache: &Path, problem: &Problem, tests: &[Test]) -> Result<PathBuf> {
    let mut digest = Sha256::new();
    let mut part = |bytes: &[u8]| {
        // Length-prefixed, so that no two different lists of parts hash the same bytes.
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(bytes);
    };
    let read = |path: &Path| std::fs::read(path).map_err(|e| Error::io("read", path, e));
    part(problem.name.as_bytes());
    for solution in &problem.solutions {
        if Role::of(&solution.expected) != Some(Role::Reference) {
            continue;
        }
        part(solution.name.as_bytes());
        for file in std::iter::once(&solution.path).chain(&solution.others) {
            part(&read(file)?);
        }
    }
    for test in tests {
        part(test.name.as_bytes());
        part(&read(&test.input)?);
    }
    let name: String = digest
        .finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(cache.join("timelimit").join(format!("{name}.json")))
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
