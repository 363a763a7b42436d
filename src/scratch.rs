//! The judge's folder in the temporary folder, where every run's folder lies.
//!
//! It is made fresh at first use, under a random name (`cpjudge-scratch-XXXXXXXXXXXX`), with mode 0700, and its
//! owner is checked: a folder someone else made in the shared temporary folder, under any name, is never used. The
//! judge holds a lock on a marker in it for as long as it lives. A judge that ends normally removes it; one that
//! was killed outright cannot, so each judge removes, at start and at its end, the folders of its own user whose
//! marker no live judge holds.

use std::fs::File;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

const PREFIX: &str = "cpjudge-scratch-";

/// The marker a live judge holds locked.
const MARKER: &str = ".lock";

/// A folder with no marker is one a judge is making (its marker comes locked), or one whose judge was killed
/// before it locked it: it is left alone until it is this old.
const GRACE: Duration = Duration::from_secs(60);

/// This judge's own folder, and the marker it holds locked.
struct Own {
    path: PathBuf,
    _lock: File,
}

static OWN: Mutex<Option<Own>> = Mutex::new(None);

/// Folders given back to be used again ([`put_back`]), each with what it is for; removed by [`clean_up`].
static KEPT: Mutex<Vec<(&'static str, tempfile::TempDir)>> = Mutex::new(Vec::new());

/// A new folder for one run or tool, removed when dropped.
pub(crate) fn folder(what: &str) -> io::Result<tempfile::TempDir> {
    let mut own = OWN.lock().unwrap_or_else(|e| e.into_inner());
    // Made on first use, and made anew if it was removed meanwhile (a clean-up of the temporary folder).
    if own.as_ref().is_none_or(|own| !own.path.is_dir()) {
        *own = Some(make_own(&std::env::temp_dir())?);
    }
    let path = &own.as_ref().expect("made above").path;
    tempfile::Builder::new()
        .prefix(&format!("{what}-"))
        .tempdir_in(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// A folder for `what` given back earlier ([`put_back`]), if one is: its new user sees to it that nothing its last
/// user left in it remains.
pub(crate) fn take_back(what: &str) -> Option<tempfile::TempDir> {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let at = kept.iter().position(|(kind, _)| *kind == what)?;
    Some(kept.swap_remove(at).1)
}

/// Keeps a folder made by [`folder`] for the next user of a folder for `what`, until the judge ends.
pub(crate) fn put_back(what: &'static str, dir: tempfile::TempDir) {
    KEPT.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((what, dir));
}

/// Makes a folder of this judge's own in `tmp`, and locks its marker.
fn make_own(tmp: &Path) -> io::Result<Own> {
    let annotate = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", tmp.display()));
    // mkdir fails on any name that exists, so nothing found there is ever taken over.
    let path = tempfile::Builder::new()
        .prefix(PREFIX)
        .rand_bytes(12)
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir_in(tmp)
        .map_err(annotate)?
        .keep();
    let metadata = std::fs::symlink_metadata(&path)?;
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    if !metadata.is_dir() || metadata.uid() != uid || metadata.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "{}: the folder just made is not a private folder of this user",
            path.display()
        )));
    }
    // Locked before it has its name, so that no clean-up ever finds the marker unlocked.
    let marker = tempfile::NamedTempFile::new_in(&path)?;
    marker.as_file().lock()?;
    let lock = marker.persist(path.join(MARKER)).map_err(|e| e.error)?;
    Ok(Own { path, _lock: lock })
}

/// Removes this judge's folder, once everything in it is gone; and the folders of judges of this user that no
/// longer run, whatever is in them.
pub(crate) fn clean_up() {
    let tmp = std::env::temp_dir();
    KEPT.lock().unwrap_or_else(|e| e.into_inner()).clear();
    {
        let mut own = OWN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mine) = own.as_ref()
            && empty_but_marker(&mine.path)
        {
            let _ = std::fs::remove_file(mine.path.join(MARKER));
            let _ = std::fs::remove_dir(&mine.path);
            *own = None;
        }
    }
    remove_abandoned(&tmp);
}

fn empty_but_marker(path: &Path) -> bool {
    std::fs::read_dir(path)
        .is_ok_and(|entries| entries.flatten().all(|entry| entry.file_name() == MARKER))
}

/// Removes the folders in `tmp` that a judge of this user made and that no live judge holds.
fn remove_abandoned(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    // Told by name first: the temporary folder is shared, and may hold thousands of files to no stat each.
    let ours = entries.flatten().filter(|entry| {
        entry
            .file_name()
            .to_str()
            .is_some_and(|name| name.starts_with(PREFIX))
    });
    for entry in ours {
        // Never followed: a link or another user's folder under our name is not ours to remove.
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        if !metadata.is_dir() || metadata.uid() != uid {
            continue;
        }
        let abandoned = match held(&entry.path()) {
            Some(held) => !held,
            None => metadata
                .modified()
                .ok()
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|age| age > GRACE),
        };
        if abandoned {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a live judge holds the folder's marker; None if it has none.
fn held(path: &Path) -> Option<bool> {
    use std::os::unix::fs::OpenOptionsExt;
    let marker = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path.join(MARKER))
        .ok()?;
    Some(marker.try_lock().is_err())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_folder_with_a_random_name_and_a_held_marker() {
        let tmp = tempfile::tempdir().unwrap();
        let own = make_own(tmp.path()).unwrap();
        let name = own.path.file_name().unwrap().to_str().unwrap().to_owned();
        assert!(
            name.starts_with(PREFIX) && name.len() == PREFIX.len() + 12,
            "{name}"
        );
        let mode = std::fs::metadata(&own.path).unwrap().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(held(&own.path), Some(true));
        let other = make_own(tmp.path()).unwrap();
        assert_ne!(own.path, other.path);
    }

    #[test]
    fn only_abandoned_folders_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let alive = make_own(tmp.path()).unwrap();
        let gone = make_own(tmp.path()).unwrap();
        std::fs::create_dir(gone.path.join("run-x")).unwrap();
        let gone_path = gone.path.clone();
        drop(gone);
        // Not a folder without a marker, unless it is old: its judge may be making it.
        let making = tmp.path().join(format!("{PREFIX}beingmade00"));
        let stale = tmp.path().join(format!("{PREFIX}killedearly"));
        std::fs::create_dir(&making).unwrap();
        std::fs::create_dir(&stale).unwrap();
        let old = std::time::SystemTime::now() - 2 * GRACE;
        File::open(&stale).unwrap().set_modified(old).unwrap();
        remove_abandoned(tmp.path());
        assert!(alive.path.is_dir());
        assert!(!gone_path.exists());
        assert!(making.is_dir());
        assert!(!stale.exists());
    }
}
