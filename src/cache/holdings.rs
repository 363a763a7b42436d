//! The builds one user of the cache (a compiler) took from it or made for it, each held until that user is dropped,
//! so that no judge's trimming removes a program it may still run.

use super::builds::BUILD_PREFIX;
use super::entry::{self, Held, STATUS_FILE};
use super::folder::Cache;
use super::trim::trim;
use crate::error::{Error, Result};
use crate::units::Bytes;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub(crate) struct Holdings {
    builds: PathBuf,
    size_bound: Bytes,
    by_key: Mutex<HashMap<String, Holding>>,
}

/// A build held in use.
struct Holding {
    /// The entry's folder, or the build's own when it could not be published.
    folder: PathBuf,
    held: Held,
    /// A build kept out of the cache, for its user alone: removed with it.
    _private: Option<tempfile::TempDir>,
}

/// A build under way: a folder among the builds, under a name of its own, with its status file held from the start.
pub(crate) struct Build {
    folder: tempfile::TempDir,
    held: Held,
}

impl Build {
    pub(crate) fn path(&self) -> &Path {
        self.folder.path()
    }

    /// Writes the build's status, once it is done: before it is published.
    pub(crate) fn write_status(&self, bytes: &[u8]) -> Result<()> {
        self.held
            .write_status(bytes)
            .map_err(|e| Error::io("write", self.path().join(STATUS_FILE), e))
    }
}

impl Holdings {
    /// Nothing held yet, in `cache`.
    pub(crate) fn new(cache: &Cache) -> Holdings {
        Holdings {
            builds: cache.builds(),
            size_bound: cache.size_bound,
            by_key: Mutex::new(HashMap::new()),
        }
    }

    /// The build under `key` taken into use, with what `read` makes of its status: one held already, or the cache's
    /// entry, held from now on and marked used. `None` if there is none that `read` accepts.
    pub(crate) fn take<T>(
        &self,
        key: &str,
        read: impl Fn(&[u8]) -> Option<T>,
    ) -> Option<(T, PathBuf)> {
        let mut by_key = self.by_key.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(holding) = by_key.get(key) {
            let status = read(&holding.held.read_status().ok()?)?;
            return Some((status, holding.folder.clone()));
        }
        let folder = self.builds.join(key);
        let held = entry::hold(&folder)?;
        let status = read(&held.read_status().ok()?)?;
        held.mark_used();
        by_key.insert(
            key.to_owned(),
            Holding {
                folder: folder.clone(),
                held,
                _private: None,
            },
        );
        Some((status, folder))
    }

    /// Starts a build.
    pub(crate) fn start(&self) -> Result<Build> {
        let builds = &self.builds;
        std::fs::create_dir_all(builds).map_err(|e| Error::io("create", builds, e))?;
        // Open to every user, as the cache around it is: a root judge's runs are made as another user, who must
        // reach the program (what solutions may read is decided by the sandbox, not by these modes).
        let folder = tempfile::Builder::new()
            .prefix(BUILD_PREFIX)
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .tempdir_in(builds)
            .map_err(|e| Error::io("create a build folder in", builds, e))?;
        let held = Held::create(folder.path())
            .map_err(|e| Error::io("create a status file in", folder.path(), e))?;
        Ok(Build { folder, held })
    }

    /// Publishes a finished build under `key` in one step, and trims the cache to its bound; if another judge got
    /// there first, theirs stands (if `usable` accepts its status), and is held instead. Returns the folder the
    /// build is in.
    pub(crate) fn publish(
        &self,
        key: &str,
        build: Build,
        usable: impl Fn(&[u8]) -> bool,
    ) -> PathBuf {
        let entry = self.builds.join(key);
        let published = std::fs::rename(build.path(), &entry).is_ok();
        let holding = if published {
            let _ = build.folder.keep();
            Holding {
                folder: entry,
                held: build.held,
                _private: None,
            }
        } else {
            match entry::hold(&entry) {
                Some(theirs) if theirs.read_status().is_ok_and(|s| usable(&s)) => Holding {
                    folder: entry,
                    held: theirs,
                    _private: None,
                },
                // Theirs went as soon as it came, or is broken: ours serves this user alone.
                _ => Holding {
                    folder: build.path().to_owned(),
                    held: build.held,
                    _private: Some(build.folder),
                },
            }
        };
        let folder = {
            let mut by_key = self.by_key.lock().unwrap_or_else(|e| e.into_inner());
            // Built twice at once by this user: the first build stands, as it may be running already.
            by_key
                .entry(key.to_owned())
                .or_insert(holding)
                .folder
                .clone()
        };
        if published {
            trim(&self.builds, self.size_bound, Some(key));
        }
        folder
    }
}

impl Drop for Holdings {
    /// Trims the cache once more, now that this user holds nothing, where the last trim left it over its bound:
    /// while it held builds, no trimming could remove them, its own included, and a judge that published nothing
    /// may be the last to let go of them. So the bound holds once every judge is done.
    fn drop(&mut self) {
        let by_key = self.by_key.get_mut().unwrap_or_else(|e| e.into_inner());
        let held_any = !by_key.is_empty();
        by_key.clear();
        if held_any && super::builds::over_bound(&self.builds) {
            trim(&self.builds, self.size_bound, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const KIB: u64 = 1 << 10;

    /// A cache whose builds may take `bound` KiB.
    fn cache(bound: u64) -> (tempfile::TempDir, Cache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache {
            dir: dir.path().to_owned(),
            size_bound: Bytes(bound * KIB),
        };
        (dir, cache)
    }

    /// Builds `key` for `user` as a compiler does: a program of 64 KiB, its size recorded in its status.
    fn build(user: &Holdings, key: &str) -> PathBuf {
        let build = user.start().unwrap();
        std::fs::create_dir(build.path().join("box")).unwrap();
        std::fs::write(build.path().join("box").join("main"), vec![7u8; 64 << 10]).unwrap();
        let size = crate::cache::measure(build.path());
        build
            .write_status(format!(r#"{{"size":{size}}}"#).as_bytes())
            .unwrap();
        let folder = user.publish(key, build, |_| true);
        // Builds made in one coarse clock tick would be equally old.
        std::thread::sleep(Duration::from_millis(20));
        folder
    }

    fn read(status: &[u8]) -> Option<()> {
        (!status.is_empty()).then_some(())
    }

    fn kept(cache: &Cache) -> Vec<String> {
        super::super::builds::names(&cache.builds())
    }

    #[test]
    fn a_build_one_user_holds_outlives_another_users_trimming() {
        // Room for two builds, not three.
        let (_dir, cache) = cache(200);
        let first = Holdings::new(&cache);
        let a = build(&first, "a");
        build(&Holdings::new(&cache), "b");
        let third = Holdings::new(&cache);
        build(&third, "c");
        // Trimmed as "c" was published: "a" is the oldest, but the first user holds it, so "b" went instead.
        assert_eq!(kept(&cache), ["a", "c"]);
        assert!(a.join("box").join("main").is_file());
        drop(first);
        build(&third, "d");
        assert_eq!(kept(&cache), ["c", "d"]);
    }

    #[test]
    fn the_last_user_done_with_builds_trims_what_they_kept_over_the_bound() {
        // Room for one build.
        let (_dir, cache) = cache(100);
        let (maker, taker) = (Holdings::new(&cache), Holdings::new(&cache));
        build(&maker, "a");
        assert!(taker.take("a", read).is_some());
        build(&maker, "b");
        assert!(taker.take("b", read).is_some());
        assert_eq!(kept(&cache), ["a", "b"]);
        drop(maker);
        assert_eq!(kept(&cache), ["a", "b"]);
        // The one that made nothing lets go last.
        drop(taker);
        assert_eq!(kept(&cache), ["b"]);
    }

    #[test]
    fn taking_a_build_marks_it_used() {
        let (_dir, cache) = cache(200);
        build(&Holdings::new(&cache), "a");
        build(&Holdings::new(&cache), "b");
        let user = Holdings::new(&cache);
        let (_, folder) = user.take("a", read).expect("a is in the cache");
        assert_eq!(folder, cache.builds().join("a"));
        drop(user);
        build(&Holdings::new(&cache), "c");
        assert_eq!(kept(&cache), ["a", "c"]);
    }

    #[test]
    fn a_build_made_twice_at_once_is_kept_once() {
        let (_dir, cache) = cache(1 << 20);
        let (first, second) = (Holdings::new(&cache), Holdings::new(&cache));
        let late = second.start().unwrap();
        late.write_status(b"{}").unwrap();
        let theirs = build(&first, "a");
        // The second finds the first's published: it is held instead, and its own goes.
        let late_path = late.path().to_owned();
        assert_eq!(second.publish("a", late, |_| true), theirs);
        assert!(!late_path.exists());
        assert!(second.take("a", read).is_some());
        // One whose status is of no use (an older judge's, say) is not taken: the build is kept privately.
        let third = Holdings::new(&cache);
        let own = third.start().unwrap();
        own.write_status(b"{}").unwrap();
        let private = third.publish("a", own, |_| false);
        assert_ne!(private, theirs);
        assert!(private.is_dir());
        assert_eq!(third.take("a", read).unwrap().1, private);
        drop(third);
        assert!(!private.exists());
        assert_eq!(kept(&cache), ["a"]);
    }
}
