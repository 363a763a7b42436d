//! The builds folder as a whole: its entries with their sizes and last use, the turn a remover takes, and what judges
//! that died left behind.

use super::entry::{self, TRASH_PREFIX};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Names of builds under way: they become entries when they are published.
pub(crate) const BUILD_PREFIX: &str = ".build-";

/// The file removers lock, one at a time. It holds `over` while the last trim left the builds over their bound.
const TURN_FILE: &str = ".trim";

/// A build under way that is this old and held by no judge was abandoned: its judge died. The time covers the moment
/// between making its folder and locking its status file; older judges left their compilers' logs loose beside the
/// builds, each written for at most a compile's wall time.
pub(super) const GRACE: Duration = Duration::from_secs(600);

/// An entry as trimming and clearing see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub name: OsString,
    /// Bytes on disk: recorded when it was made, or measured.
    pub size: u64,
    /// When a judge last took it, or made it.
    pub used: SystemTime,
}

/// The entries in `builds` (none if it does not exist).
pub(super) fn entries(builds: &Path) -> io::Result<Vec<Entry>> {
    let mut found = Vec::new();
    let listing = match std::fs::read_dir(builds) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        listing => listing?,
    };
    for item in listing {
        let item = item?;
        let name = item.file_name();
        // Not followed: a link among the builds is nothing a judge made.
        if name.as_bytes().starts_with(b".") || !item.file_type()?.is_dir() {
            continue;
        }
        let path = item.path();
        let (size, used) = entry::recorded(&path);
        let used = used.or_else(|| item.metadata().and_then(|m| m.modified()).ok());
        // The runs kept with the build (see `judge::records`) grow after it was made: they count as they are now.
        let runs =
            || std::fs::symlink_metadata(path.join(crate::judge::RUNS_FILE)).map_or(0, |m| m.len());
        found.push(Entry {
            size: size.map_or_else(|| measure(&path), |size| size + runs()),
            used: used.unwrap_or(SystemTime::UNIX_EPOCH),
            name,
        });
    }
    Ok(found)
}

/// What a folder's contents take on disk, never following a link.
pub(crate) fn measure(folder: &Path) -> u64 {
    crate::untrusted::usage(folder, u64::MAX).0
}

/// The right to remove from the builds folder, held by one remover at a time: two judges trimming at once would
/// each count what the other removes, and remove too much.
pub(super) struct Turn {
    lock: File,
}

impl Turn {
    /// Records whether the builds are over their bound now, for [`over_bound`].
    pub(super) fn record(&self, over: bool) {
        use std::os::unix::fs::FileExt;
        let _ = self.lock.set_len(0);
        if over {
            let _ = self.lock.write_all_at(OVER, 0);
        }
    }
}

/// What the turn file holds while the builds are over their bound.
const OVER: &[u8] = b"over";

/// Whether the last trim left the builds over their bound: only then is a judge that built nothing asked to trim
/// once more as it ends, rather than measuring every build at every judge.
pub(super) fn over_bound(builds: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(builds.join(TURN_FILE))
    else {
        return false;
    };
    let mut head = [0u8; 4];
    file.metadata().is_ok_and(|m| m.is_file())
        && (&file).read_exact(&mut head).is_ok()
        && head == OVER
}

/// Waits for the turn to remove from `builds`.
pub(super) fn take_turn(builds: &Path) -> io::Result<Turn> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW)
        .open(builds.join(TURN_FILE))?;
    loop {
        match file.lock() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            locked => break locked?,
        }
    }
    Ok(Turn { lock: file })
}

/// Removes what judges that died left in `builds`: entries they were removing, builds they never finished.
pub(super) fn sweep(builds: &Path, _turn: &Turn) {
    let Ok(listing) = std::fs::read_dir(builds) else {
        return;
    };
    for item in listing.flatten() {
        let name = item.file_name();
        let name = name.as_bytes();
        let path = item.path();
        let Ok(metadata) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let old = metadata
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > GRACE);
        if metadata.is_dir() && name.starts_with(TRASH_PREFIX.as_bytes()) {
            // Every remover has the turn while it removes, and this one has it now: no one is removing this.
            let _ = std::fs::remove_dir_all(&path);
        } else if metadata.is_dir() && name.starts_with(BUILD_PREFIX.as_bytes()) && old {
            match entry::open_status(&path) {
                Ok(Some(status)) => {
                    if status.try_lock().is_ok() {
                        let _ = std::fs::remove_dir_all(&path);
                    }
                }
                // Its judge died before it made the status file.
                Ok(None) => {
                    let _ = std::fs::remove_dir_all(&path);
                }
                Err(_) => {}
            }
        } else if !metadata.is_dir() && name != TURN_FILE.as_bytes() && old {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The names of the builds in `builds`, sorted: what tests look at after trimming.
#[cfg(test)]
pub(super) fn names(builds: &Path) -> Vec<String> {
    let mut names: Vec<String> = entries(builds)
        .unwrap()
        .into_iter()
        .map(|e| e.name.to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aged(path: &Path) {
        let old = SystemTime::now() - 2 * GRACE;
        let file = File::open(path).unwrap();
        file.set_modified(old).unwrap();
    }

    #[test]
    fn only_what_no_live_judge_holds_is_swept() {
        let builds = tempfile::tempdir().unwrap();
        let path = |name: &str| builds.path().join(name);
        for name in [
            ".build-live",
            ".build-dead",
            ".build-young",
            ".trash-1",
            "entry",
        ] {
            std::fs::create_dir(path(name)).unwrap();
        }
        let live = entry::Held::create(&path(".build-live")).unwrap();
        drop(entry::Held::create(&path(".build-dead")).unwrap());
        std::fs::write(path(".tmplog"), b"old log").unwrap();
        std::fs::write(path(".tmpnew"), b"a log being written").unwrap();
        for name in [".build-live", ".build-dead", ".tmplog", "entry"] {
            aged(&path(name));
        }
        let turn = take_turn(builds.path()).unwrap();
        sweep(builds.path(), &turn);
        let mut left: Vec<String> = std::fs::read_dir(builds.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [".build-live", ".build-young", ".tmpnew", ".trim", "entry"]
        );
        drop(live);
    }

    #[test]
    fn one_remover_at_a_time() {
        let builds = tempfile::tempdir().unwrap();
        let turn = take_turn(builds.path()).unwrap();
        let other = File::open(builds.path().join(TURN_FILE)).unwrap();
        assert!(matches!(
            other.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(turn);
        assert!(other.try_lock().is_ok());
    }
}
