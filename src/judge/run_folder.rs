//! The folder a test judged by comparison alone runs in. Making two folders on disk for every test and removing
//! them again cost as much as a good part of the run itself, so each is kept for the next such run (see
//! `scratch::put_back`), with its output removed, but only where nothing else the run could have left is there:
//! its working directory as it was made, empty, with no extended attribute or lock; its times are set anew.
//! Anything else, and the folder is thrown away and a new one made. The output is never kept: a run owns it while
//! it runs, and could leave on it what no check sees (an inode's generation number, a lock held past the run by a
//! descriptor it left in flight), so each run gets a new file.
//!
//! A run the sandbox kept out of its folder (see `RunResult::kept_out`: it worked in a folder of its own in
//! memory, mounted over the real one) cannot have left anything there but its output, and its folder is handed on
//! with only the output removed.

use super::run_test::{OUTPUT, WORKDIR};
use crate::error::{Error, Result};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// What the folders are for, in the judge's scratch folder.
const KIND: &str = "run";

/// What the folders are for while kept for the next run, whose last run was kept out of them.
const UNTOUCHED: &str = "run, untouched";

/// The mode its working directory is made with.
const MODE: u32 = 0o700;

/// A folder holding only an empty working directory, `box`.
pub(super) struct RunFolder(tempfile::TempDir);

impl RunFolder {
    /// A folder an earlier run gave back, readied for the next, or a new one.
    pub fn take() -> Result<RunFolder> {
        while let Some(dir) = crate::scratch::take_back(UNTOUCHED) {
            if without_output(dir.path()) {
                return Ok(RunFolder(dir));
            }
        }
        while let Some(dir) = crate::scratch::take_back(KIND) {
            if readied(dir.path()) {
                return Ok(RunFolder(dir));
            }
            // Dropped: removed with whatever is in it.
        }
        let dir = crate::scratch::folder(KIND)
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        let workdir = dir.path().join(WORKDIR);
        std::fs::create_dir(&workdir)
            .and_then(|()| {
                std::fs::set_permissions(&workdir, std::fs::Permissions::from_mode(MODE))
            })
            .map_err(|e| Error::io("create", &workdir, e))?;
        Ok(RunFolder(dir))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Keeps the folder for the next run, once everything of this one in it has been read; `kept_out` says
    /// whether the sandbox kept the run out of it.
    pub fn give_back(self, kept_out: bool) {
        crate::scratch::put_back(if kept_out { UNTOUCHED } else { KIND }, self.0);
    }
}

/// Removes the last run's output from `dir`, if it made one; false if it cannot.
fn without_output(dir: &Path) -> bool {
    match std::fs::remove_file(dir.join(OUTPUT)) {
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        Ok(()) => true,
    }
}

/// Removes the last run's output from `dir`, and tells whether all that is left is its working directory as it was
/// made: a folder of this user's with its mode, nothing in it, and no extended attribute (nor access list) or lock
/// on it; its times are then set to now, so that none a run set is handed on. Links are never followed.
fn readied(dir: &Path) -> bool {
    if !without_output(dir) {
        return false;
    }
    let only_workdir = std::fs::read_dir(dir).is_ok_and(|entries| {
        let mut names = entries.map(|entry| entry.map(|e| e.file_name()));
        matches!((names.next(), names.next()), (Some(Ok(name)), None) if name == WORKDIR)
    });
    let workdir = dir.join(WORKDIR);
    let Ok(folder) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(&workdir)
    else {
        return false;
    };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    only_workdir
        && folder
            .metadata()
            .is_ok_and(|m| m.uid() == uid && m.mode() & 0o7777 == MODE)
        && std::fs::read_dir(&workdir).is_ok_and(|mut entries| entries.next().is_none())
        && no_attributes(&folder)
        && unlocked(&folder)
        && times_now(&folder)
}

/// Whether `file` carries no extended attribute at all. (Where every file has one, a security label, no folder is
/// ever kept.)
fn no_attributes(file: &std::fs::File) -> bool {
    // SAFETY: with a size of 0, flistxattr only returns the size of the list, and writes nothing.
    unsafe { libc::flistxattr(file.as_raw_fd(), std::ptr::null_mut(), 0) == 0 }
}

/// Whether no lock of any kind is held on `file` by another open description. A run can keep an open description
/// of its folder past its end (in flight in a socket no process holds) with a lock on it, whose place the next run
/// could read.
fn unlocked(file: &std::fs::File) -> bool {
    // SAFETY: a zeroed flock is valid; F_OFD_GETLK fills in the one it is given.
    let mut probe: libc::flock = unsafe { std::mem::zeroed() };
    probe.l_type = libc::F_WRLCK as libc::c_short;
    probe.l_whence = libc::SEEK_SET as libc::c_short;
    // SAFETY: as above; flock takes a descriptor and flags (the lock taken goes with the descriptor).
    unsafe {
        libc::fcntl(file.as_raw_fd(), libc::F_OFD_GETLK, &mut probe) == 0
            && probe.l_type == libc::F_UNLCK as libc::c_short
            && libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0
    }
}

/// Sets the access and modification times of `file` to now, so that none a run set is handed on.
fn times_now(file: &std::fs::File) -> bool {
    // SAFETY: a null list of times sets both to now.
    unsafe { libc::futimens(file.as_raw_fd(), std::ptr::null()) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    /// A folder as a run left it: its working directory, as made, and its output.
    fn after_a_run() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let workdir = dir.path().join(WORKDIR);
        std::fs::create_dir(&workdir).unwrap();
        std::fs::set_permissions(&workdir, std::fs::Permissions::from_mode(MODE)).unwrap();
        std::fs::write(dir.path().join(OUTPUT), "3\n").unwrap();
        dir
    }

    /// Something a run could leave in its folder.
    type Leave = fn(&tempfile::TempDir);

    fn workdir(dir: &tempfile::TempDir) -> std::path::PathBuf {
        dir.path().join(WORKDIR)
    }

    #[test]
    fn only_a_folder_holding_its_output_and_an_empty_working_directory_is_kept() {
        let clean = after_a_run();
        assert!(readied(clean.path()));
        assert!(!clean.path().join(OUTPUT).exists());
        assert!(readied(clean.path()), "a folder without output");

        let left: [(&str, Leave); 6] = [
            ("a file in the working directory", |d| {
                std::fs::write(workdir(d).join("marker"), "").unwrap()
            }),
            ("a link in the working directory", |d| {
                std::os::unix::fs::symlink("/", workdir(d).join("link")).unwrap()
            }),
            ("another mode", |d| {
                std::fs::set_permissions(workdir(d), std::fs::Permissions::from_mode(0o751))
                    .unwrap()
            }),
            ("a file beside it", |d| {
                std::fs::write(d.path().join("beside"), "").unwrap()
            }),
            ("a link in its place", |d| {
                std::fs::remove_dir(workdir(d)).unwrap();
                std::os::unix::fs::symlink("/", workdir(d)).unwrap();
            }),
            ("a folder in place of the output", |d| {
                std::fs::remove_file(d.path().join(OUTPUT)).unwrap();
                std::fs::create_dir(d.path().join(OUTPUT)).unwrap();
            }),
        ];
        for (what, leave) in left {
            let dir = after_a_run();
            leave(&dir);
            assert!(!readied(dir.path()), "{what}");
        }
        // An extended attribute, where the file system takes them.
        let dir = after_a_run();
        let name = std::ffi::CString::new(workdir(&dir).as_os_str().as_bytes()).unwrap();
        // SAFETY: a C string, a name and a value of the size given.
        let set = unsafe {
            libc::lsetxattr(
                name.as_ptr(),
                c"user.mark".as_ptr(),
                c"1".as_ptr().cast(),
                1,
                0,
            )
        };
        if set == 0 {
            assert!(!readied(dir.path()), "an extended attribute");
        }
    }

    /// A lock on the working directory, held past the run by a description still open (here, by the test), keeps
    /// the folder from the next run, whatever kind it is.
    #[test]
    fn a_locked_folder_is_not_kept() {
        let dir = after_a_run();
        let held = std::fs::File::open(workdir(&dir)).unwrap();
        // SAFETY: flock takes a descriptor and flags.
        assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_SH) }, 0);
        assert!(!readied(dir.path()), "a shared flock");
        drop(held);
        let dir = after_a_run();
        let held = std::fs::File::open(workdir(&dir)).unwrap();
        // SAFETY: a zeroed flock is valid; F_OFD_SETLK reads the one it is given.
        let mut lock: libc::flock = unsafe { std::mem::zeroed() };
        lock.l_type = libc::F_RDLCK as libc::c_short;
        lock.l_start = 1_000_468;
        lock.l_len = 1;
        // SAFETY: as above.
        assert_eq!(
            unsafe { libc::fcntl(held.as_raw_fd(), libc::F_OFD_SETLK, &lock) },
            0
        );
        assert!(!readied(dir.path()), "a read lock on one byte");
        drop(held);
        assert!(readied(after_a_run().path()), "no lock");
    }

    /// Times a run set on its working directory are not kept.
    #[test]
    fn a_kept_folder_has_its_times_set_anew() {
        let dir = after_a_run();
        let past = std::fs::FileTimes::new()
            .set_accessed(std::time::UNIX_EPOCH)
            .set_modified(std::time::UNIX_EPOCH);
        std::fs::File::open(workdir(&dir))
            .unwrap()
            .set_times(past)
            .unwrap();
        assert!(readied(dir.path()));
        let seen = std::fs::metadata(workdir(&dir)).unwrap();
        assert!(seen.atime() > 0 && seen.mtime() > 0, "times kept");
    }
}
