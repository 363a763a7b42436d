//! What the cache holds, and clearing it: `cpjudge cache` and `cpjudge cache --clear`.

use super::builds::{self, GRACE};
use super::entry::{self, Removal};
use super::folder::Cache;
use crate::error::{Error, Result};
use serde::Serialize;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// What the cache holds, or what clearing it removed or kept.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub builds: usize,
    /// What the builds take on disk.
    pub build_bytes: u64,
    pub validation_memos: usize,
    pub time_limit_suggestions: usize,
    /// The digests of a problem's test files, kept by their identity for the runs kept with the builds.
    pub digest_lists: usize,
    /// What `validate --constraints` last found each problem's tests reach, kept for `list`.
    pub constraint_findings: usize,
}

/// What clearing the cache did.
#[derive(Debug, Default)]
pub struct Cleared {
    pub removed: Tally,
    /// What another judge is using: builds it may still run.
    pub kept: Tally,
    /// The first thing that could not be removed for another reason.
    pub failure: Option<Error>,
}

/// What the cache holds, without changing anything in it.
pub fn survey(cache: &Cache) -> Result<Tally> {
    let builds = cache.builds();
    let entries = builds::entries(&builds).map_err(|e| Error::io("read", &builds, e))?;
    Ok(Tally {
        builds: entries.len(),
        build_bytes: entries.iter().map(|e| e.size).sum(),
        validation_memos: files(&cache.validated())?.len(),
        time_limit_suggestions: files(&cache.suggestions())?.len(),
        digest_lists: files(&cache.digests())?.len(),
        constraint_findings: files(&cache.constraints())?.len(),
    })
}

/// Removes every build no judge is using (with the runs kept with it), every validation memo, every kept
/// suggestion, every list of digests and every constraint finding. Folders are kept, so
/// that a judge at work meanwhile can go on writing in them.
pub fn clear(cache: &Cache) -> Cleared {
    let mut cleared = Cleared::default();
    let builds = cache.builds();
    if let Err(e) = clear_builds(&builds, &mut cleared) {
        cleared.failure.get_or_insert(e);
    }
    for (folder, count) in [
        (cache.validated(), &mut cleared.removed.validation_memos),
        (
            cache.suggestions(),
            &mut cleared.removed.time_limit_suggestions,
        ),
        (cache.digests(), &mut cleared.removed.digest_lists),
        (
            cache.constraints(),
            &mut cleared.removed.constraint_findings,
        ),
    ] {
        let names = match files(&folder) {
            Ok(names) => names,
            Err(e) => {
                cleared.failure.get_or_insert(e);
                continue;
            }
        };
        for name in names {
            // Never followed: a link is removed as a link.
            match std::fs::remove_file(folder.join(&name)) {
                Ok(()) => *count += 1,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    cleared
                        .failure
                        .get_or_insert(Error::io("remove", folder.join(&name), e));
                }
            }
        }
        remove_stale_temporaries(&folder);
    }
    cleared
}

fn clear_builds(builds: &Path, cleared: &mut Cleared) -> Result<()> {
    if !builds.is_dir() {
        return Ok(());
    }
    let turn = builds::take_turn(builds).map_err(|e| Error::io("lock", builds, e))?;
    builds::sweep(builds, &turn);
    let entries = builds::entries(builds).map_err(|e| Error::io("read", builds, e))?;
    for found in entries {
        let path = builds.join(&found.name);
        let tally = match entry::remove(&path) {
            Ok(Removal::Removed) => &mut cleared.removed,
            Ok(Removal::InUse) => &mut cleared.kept,
            Ok(Removal::Gone) => continue,
            Err(e) => {
                cleared.failure.get_or_insert(Error::io("remove", &path, e));
                continue;
            }
        };
        tally.builds += 1;
        tally.build_bytes += found.size;
    }
    Ok(())
}

/// The names of the files in `folder` (none if it does not exist), but for files being written (see `atomic`).
fn files(folder: &Path) -> Result<Vec<std::ffi::OsString>> {
    let listing = match std::fs::read_dir(folder) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        listing => listing.map_err(|e| Error::io("read", folder, e))?,
    };
    let mut names = Vec::new();
    for item in listing {
        let item = item.map_err(|e| Error::io("read", folder, e))?;
        let is_dir = item.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir && !item.file_name().as_bytes().starts_with(b".") {
            names.push(item.file_name());
        }
    }
    Ok(names)
}

/// Removes the temporary files of writes that never finished (their judge died), leaving those under way.
fn remove_stale_temporaries(folder: &Path) {
    let Ok(listing) = std::fs::read_dir(folder) else {
        return;
    };
    for item in listing.flatten() {
        let stale = item.metadata().is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > GRACE))
        });
        if stale && item.file_name().as_bytes().starts_with(b".") {
            let _ = std::fs::remove_file(item.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::entry::{STATUS_FILE, hold};

    /// A cache with three builds of 100 bytes each, two memos, a kept suggestion, a digest list and a constraint
    /// finding.
    fn cache() -> (tempfile::TempDir, Cache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().to_owned());
        for name in ["a", "b", "c"] {
            let entry = cache.builds().join(name);
            std::fs::create_dir_all(entry.join("box")).unwrap();
            std::fs::write(entry.join(STATUS_FILE), r#"{"size":100}"#).unwrap();
        }
        for (folder, name) in [
            (cache.validated(), "m1"),
            (cache.validated(), "m2"),
            (cache.suggestions(), "s.json"),
            (cache.digests(), "d.json"),
            (cache.constraints(), "c.json"),
        ] {
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join(name), "").unwrap();
        }
        (dir, cache)
    }

    #[test]
    fn a_survey_counts_everything() {
        let (_dir, cache) = cache();
        let tally = survey(&cache).unwrap();
        assert_eq!(
            tally,
            Tally {
                builds: 3,
                build_bytes: 300,
                validation_memos: 2,
                time_limit_suggestions: 1,
                digest_lists: 1,
                constraint_findings: 1
            }
        );
        assert_eq!(
            survey(&Cache::new("/nonexistent/cache".into())).unwrap(),
            Tally::default()
        );
    }

    #[test]
    fn clearing_keeps_only_the_builds_in_use() {
        let (_dir, cache) = cache();
        let held = hold(&cache.builds().join("b")).unwrap();
        let cleared = clear(&cache);
        assert!(cleared.failure.is_none(), "{:?}", cleared.failure);
        assert_eq!(
            cleared.removed,
            Tally {
                builds: 2,
                build_bytes: 200,
                validation_memos: 2,
                time_limit_suggestions: 1,
                digest_lists: 1,
                constraint_findings: 1
            }
        );
        assert_eq!(
            cleared.kept,
            Tally {
                builds: 1,
                build_bytes: 100,
                ..Tally::default()
            }
        );
        let left = survey(&cache).unwrap();
        assert_eq!((left.builds, left.validation_memos), (1, 0));
        assert!(cache.builds().join("b").join("box").is_dir());
        // The folders stay, for judges writing in them meanwhile.
        assert!(cache.validated().is_dir() && cache.suggestions().is_dir());
        drop(held);
        assert_eq!(clear(&cache).removed.builds, 1);
        assert_eq!(survey(&cache).unwrap(), Tally::default());
    }
}
