//! One entry of the build cache, and who may use or remove it.
//!
//! An entry is a folder named by its key, holding `status.json` and the build. The status file is also the entry's
//! lock: a judge holds a shared lock on it for as long as it may run the program, and a remover takes an exclusive
//! one without waiting, so that an entry in use is never removed. An entry goes in one step, renamed to a `.trash-`
//! name before it is removed, so that no judge ever finds half of one; and since a judge's lock may be granted just
//! after the entry it opened was moved away, the judge checks, once it holds the lock, that its file is still the
//! one under the entry's name.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

pub(super) const STATUS_FILE: &str = "status.json";

/// Names of what is moved away to be removed.
pub(super) const TRASH_PREFIX: &str = ".trash-";

/// More than any status holds (a compiler's message is cut to a few KiB): a bound on what is read of one.
const STATUS_LIMIT: u64 = 1 << 20;

/// An entry, or a build under way, held in use: a shared lock on its status file, kept until dropped.
#[derive(Debug)]
pub(crate) struct Held {
    status: File,
}

impl Held {
    /// Makes the status file of a new build in `folder`, empty and held from the start, so that the build is never
    /// taken for one abandoned by a judge that died.
    pub(crate) fn create(folder: &Path) -> io::Result<Held> {
        let status = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(folder.join(STATUS_FILE))?;
        lock_shared(&status);
        Ok(Held { status })
    }

    /// Writes the status of the build made: once, before it is published.
    pub(crate) fn write_status(&self, bytes: &[u8]) -> io::Result<()> {
        (&self.status).write_all(bytes)
    }

    /// The status file's contents.
    pub(crate) fn read_status(&self) -> io::Result<Vec<u8>> {
        let mut file = &self.status;
        file.rewind()?;
        let mut bytes = Vec::new();
        file.take(STATUS_LIMIT).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Marks the entry used now: trimming removes the least recently used first.
    pub(crate) fn mark_used(&self) {
        // A cache this user may not write to keeps its entries' old times: they are only removed sooner.
        let _ = self.status.set_modified(SystemTime::now());
    }
}

/// Takes the entry in the folder `entry` into use: `None` if there is none, or none any longer once its lock is
/// held (it was being removed), for the caller to build anew.
pub(crate) fn hold(entry: &Path) -> Option<Held> {
    let status = open_status(entry).ok()??;
    // Waits only while a remover moves the entry away, which takes it a moment.
    lock_shared(&status);
    still_there(&status, entry).then_some(Held { status })
}

/// What became of an entry a remover was asked to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Removal {
    Removed,
    /// A judge holds it: it stays.
    InUse,
    /// It was no longer there.
    Gone,
}

/// Removes the entry in the folder `entry` unless a judge holds it. The caller has its turn (see `Turn`): no other
/// remover acts meanwhile.
pub(crate) fn remove(entry: &Path) -> io::Result<Removal> {
    let Some(status) = open_status(entry)? else {
        return remove_unheld(entry);
    };
    match status.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Ok(Removal::InUse),
        Err(TryLockError::Error(e)) => return Err(e),
    }
    if !still_there(&status, entry) {
        return Ok(Removal::Gone);
    }
    let trash = move_to_trash(entry)?;
    // The lock is kept until the entry is gone, so that a judge that opened it just before it moved waits, and
    // then sees that it moved.
    std::fs::remove_dir_all(&trash)?;
    drop(status);
    Ok(Removal::Removed)
}

/// Removes a folder among the entries that has no status file, which no judge can hold: a build of an older layout,
/// or something else left there.
fn remove_unheld(entry: &Path) -> io::Result<Removal> {
    match std::fs::symlink_metadata(entry) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Removal::Gone),
        Err(e) => return Err(e),
        Ok(metadata) if !metadata.is_dir() => return Ok(Removal::Gone),
        Ok(_) => {}
    }
    // An empty folder could be replaced by a build published under its name at any moment, and removing it by name
    // would then take that build: it is removed only while it is empty.
    match std::fs::remove_dir(entry) {
        Ok(()) => return Ok(Removal::Removed),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Removal::Gone),
        Err(_) => {}
    }
    let trash = move_to_trash(entry)?;
    std::fs::remove_dir_all(&trash)?;
    Ok(Removal::Removed)
}

/// Renames `entry` to a name of its own in the same folder, from which nothing takes it.
fn move_to_trash(entry: &Path) -> io::Result<PathBuf> {
    static MOVED: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let trash = entry.with_file_name(format!(
        "{TRASH_PREFIX}{}-{nanos}-{}",
        std::process::id(),
        MOVED.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::rename(entry, &trash)?;
    Ok(trash)
}

/// What an entry says of itself: the size recorded when it was made, if it was, and when it was last used.
pub(super) fn recorded(entry: &Path) -> (Option<u64>, Option<SystemTime>) {
    #[derive(serde::Deserialize)]
    struct Recorded {
        size: Option<u64>,
    }
    let Ok(Some(status)) = open_status(entry) else {
        return (None, None);
    };
    let used = status.metadata().and_then(|m| m.modified()).ok();
    let mut bytes = Vec::new();
    let size = (&status)
        .take(STATUS_LIMIT)
        .read_to_end(&mut bytes)
        .ok()
        .and_then(|_| serde_json::from_slice::<Recorded>(&bytes).ok())
        .and_then(|recorded| recorded.size);
    (size, used)
}

/// Whether `status`, locked, is still the status file of the folder `entry`: it is not if the entry was moved
/// away (and perhaps made anew) while the lock was awaited.
fn still_there(status: &File, entry: &Path) -> bool {
    let named = std::fs::symlink_metadata(entry.join(STATUS_FILE));
    match (status.metadata(), named) {
        (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
        _ => false,
    }
}

/// Opens an entry's status file for reading, and for writing where it may be written (which marking it used needs,
/// and a lock on a network file system too); never through a link, never waiting on a FIFO. `None` if the entry
/// has no status file, a link or anything else but a regular file in its place: no judge can hold such an entry.
pub(super) fn open_status(entry: &Path) -> io::Result<Option<File>> {
    let path = entry.join(STATUS_FILE);
    let open = |write: bool| {
        OpenOptions::new()
            .read(true)
            .write(write)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&path)
    };
    let opened = match open(true) {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            open(false)
        }
        opened => opened,
    };
    let status = match opened {
        Ok(status) => status,
        Err(e)
            if e.kind() == io::ErrorKind::NotFound
                || matches!(
                    e.raw_os_error(),
                    Some(libc::ELOOP | libc::ENOTDIR | libc::EISDIR)
                ) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    Ok(status.metadata()?.is_file().then_some(status))
}

/// Takes a shared lock on a status file, waiting for it. A file system without locks leaves entries unprotected
/// but usable: a remover never removes an entry it cannot lock.
fn lock_shared(status: &File) {
    while let Err(e) = status.lock_shared() {
        if e.kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry as a build publishes it: a status and a box with a file in it.
    fn entry(builds: &Path, name: &str) -> PathBuf {
        let entry = builds.join(name);
        std::fs::create_dir_all(entry.join("box")).unwrap();
        std::fs::write(entry.join("box").join("main"), b"program").unwrap();
        std::fs::write(entry.join(STATUS_FILE), br#"{"size":4096}"#).unwrap();
        entry
    }

    fn names(builds: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(builds)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_entry_held_by_one_user_is_not_removed_by_another() {
        let builds = tempfile::tempdir().unwrap();
        let entry = entry(builds.path(), "k");
        // Two users in one process, each with its own open file description, as two compilers have.
        let held = hold(&entry).expect("the entry is there");
        assert_eq!(remove(&entry).unwrap(), Removal::InUse);
        assert!(entry.join("box").join("main").is_file());
        let also = hold(&entry).expect("shared locks go together");
        drop((held, also));
        assert_eq!(remove(&entry).unwrap(), Removal::Removed);
        assert_eq!(names(builds.path()), Vec::<String>::new());
        assert_eq!(remove(&entry).unwrap(), Removal::Gone);
        assert!(hold(&entry).is_none());
    }

    #[test]
    fn a_lock_granted_after_the_entry_moved_away_is_not_taken_for_it() {
        let builds = tempfile::tempdir().unwrap();
        let entry = entry(builds.path(), "k");
        // A judge opens the entry's status just as a remover moves the entry away, and a new build is published
        // under the same name before the judge's lock is granted.
        let opened = open_status(&entry).unwrap().unwrap();
        let trash = move_to_trash(&entry).unwrap();
        self::entry(builds.path(), "k");
        lock_shared(&opened);
        assert!(!still_there(&opened, &entry));
        std::fs::remove_dir_all(trash).unwrap();
        // Or the name stays empty.
        let opened = open_status(&entry).unwrap().unwrap();
        std::fs::rename(&entry, builds.path().join(".trash-x")).unwrap();
        lock_shared(&opened);
        assert!(!still_there(&opened, &entry));
        // An entry that stayed is.
        std::fs::rename(builds.path().join(".trash-x"), &entry).unwrap();
        assert!(hold(&entry).is_some());
    }

    #[test]
    fn a_build_under_way_is_held_from_its_first_moment() {
        let builds = tempfile::tempdir().unwrap();
        let folder = builds.path().join(".build-x");
        std::fs::create_dir(&folder).unwrap();
        let held = Held::create(&folder).unwrap();
        assert_eq!(remove(&folder).unwrap(), Removal::InUse);
        held.write_status(br#"{"size":1}"#).unwrap();
        assert_eq!(held.read_status().unwrap(), br#"{"size":1}"#);
        assert_eq!(recorded(&folder).0, Some(1));
    }

    #[test]
    fn a_folder_without_a_status_is_removed_without_a_lock_and_never_through_a_link() {
        let builds = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("precious"), b"keep").unwrap();
        let odd = builds.path().join("odd");
        std::fs::create_dir(&odd).unwrap();
        std::os::unix::fs::symlink(outside.path(), odd.join("link")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("precious"), odd.join(STATUS_FILE)).unwrap();
        assert!(hold(&odd).is_none(), "a link is no status file");
        assert_eq!(remove(&odd).unwrap(), Removal::Removed);
        assert_eq!(names(builds.path()), Vec::<String>::new());
        assert!(outside.path().join("precious").is_file());
        let empty = builds.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert_eq!(remove(&empty).unwrap(), Removal::Removed);
        assert!(!empty.exists());
        let folder = builds.path().join("folder");
        std::fs::create_dir_all(folder.join(STATUS_FILE)).unwrap();
        assert_eq!(remove(&folder).unwrap(), Removal::Removed);
    }
}
