//! The folder a test judged by comparison alone runs in. Making two folders on disk for every test and removing
//! them again cost as much as a good part of the run itself, so each is kept for the next such run (see
//! `scratch::put_back`), but only where nothing else the run could have left is there: its working directory as it
//! was made, empty, with no extended attribute. Anything else, and the folder is thrown away and a new one made.
//!
//! The output file is kept too where the run left nothing on it but what it wrote, which the next run's opening of
//! it empties: the same file from test to test lets a worker keep the run's mounts for the next (see
//! `sandbox::held`). Otherwise it is removed, and the next run's is a new file.

use super::run_test::{OUTPUT, WORKDIR};
use crate::error::{Error, Result};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// What the folders are for, in the judge's scratch folder.
const KIND: &str = "run";

/// The mode its working directory is made with.
const MODE: u32 = 0o700;

/// A folder holding only an empty working directory, `box`.
pub(super) struct RunFolder(tempfile::TempDir);

impl RunFolder {
    /// A folder an earlier run gave back, readied for the next, or a new one.
    pub fn take() -> Result<RunFolder> {
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

    /// Keeps the folder for the next run, once everything of this one in it has been read.
    pub fn give_back(self) {
        crate::scratch::put_back(KIND, self.0);
    }
}

/// Readies `dir` for the next run: removes the last run's output unless [`reusable_output`] keeps it, and tells
/// whether all that is left besides is its working directory as it was made: a folder of this user's with its mode,
/// nothing in it, and no extended attribute (nor access list) on it; its times are then set to now. Links are never
/// followed.
fn readied(dir: &Path) -> bool {
    let output = dir.join(OUTPUT);
    if !reusable_output(&output) {
        match std::fs::remove_file(&output) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return false,
            _ => {}
        }
    }
    let only_workdir = std::fs::read_dir(dir).is_ok_and(|entries| {
        let mut names: Vec<_> = entries.map(|entry| entry.map(|e| e.file_name())).collect();
        names.retain(|name| !matches!(name, Ok(name) if name == OUTPUT));
        matches!(names.as_slice(), [Ok(name)] if name == WORKDIR)
    });
    let workdir = dir.join(WORKDIR);
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    only_workdir
        && std::fs::symlink_metadata(&workdir)
            .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o7777 == MODE)
        && std::fs::read_dir(&workdir).is_ok_and(|mut entries| entries.next().is_none())
        && no_attributes(&workdir)
        && times_now(&workdir)
}

/// Sets the access and modification times of `path` (never followed if it is a link) to now, so that none a run set
/// is handed on.
fn times_now(path: &Path) -> bool {
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a C string, and a null list of times, which sets both to now.
    unsafe {
        libc::utimensat(
            libc::AT_FDCWD,
            name.as_ptr(),
            std::ptr::null(),
            libc::AT_SYMLINK_NOFOLLOW,
        ) == 0
    }
}

/// Whether the last run's output at `path` may be the next run's, emptied as that run opens it: a regular file of
/// this user's, with no other name, no special mode bit, no extended attribute and no inode flag but the file
/// system's own (a run owns its output while it runs, and could have asked for its writes to be synchronous, say).
/// Its times are set to now, so that none the run set is handed on. Links are never followed.
fn reusable_output(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    else {
        return false;
    };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    let fd = file.as_raw_fd();
    let plain = file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.uid() == uid && m.nlink() == 1 && m.mode() & 0o7000 == 0);
    // SAFETY: with a size of 0, flistxattr only returns the size of the list, and writes nothing.
    let no_attributes = unsafe { libc::flistxattr(fd, std::ptr::null_mut(), 0) } == 0;
    let mut flags: libc::c_long = 0;
    // SAFETY: FS_IOC_GETFLAGS writes an int of flags to the place it is given, which is larger.
    let got = unsafe { libc::ioctl(fd, libc::FS_IOC_GETFLAGS, &mut flags) };
    let own_flags = match got {
        0 => (flags as libc::c_int) & !FILE_SYSTEMS_OWN_FLAGS == 0,
        // A file system without inode flags.
        _ => matches!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::ENOTTY | libc::EOPNOTSUPP | libc::EINVAL)
        ),
    };
    // SAFETY: a null list of times sets both to now.
    plain && no_attributes && own_flags && unsafe { libc::futimens(fd, std::ptr::null()) } == 0
}

/// The inode flag a file system sets on every new file of its own accord: ext4's extents.
const FILE_SYSTEMS_OWN_FLAGS: libc::c_int = 0x0008_0000;

/// Whether `path` carries no extended attribute at all. (Where every file has one, a security label, no folder is
/// ever kept.)
fn no_attributes(path: &Path) -> bool {
    let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: with a size of 0, llistxattr only returns the size of the list, and writes nothing.
    unsafe { libc::llistxattr(name.as_ptr(), std::ptr::null_mut(), 0) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

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
        let output = clean.path().join(OUTPUT);
        let made = std::fs::metadata(&output).unwrap().ino();
        assert!(readied(clean.path()));
        assert_eq!(
            std::fs::metadata(&output).map(|m| m.ino()).ok(),
            Some(made),
            "a plain output is kept, the same file"
        );
        std::fs::remove_file(&output).unwrap();
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

    /// What a run may leave on its output file, which it owns while it runs: a second name, a special mode bit, an
    /// extended attribute, an inode flag, times of its own. A file with any of the first four is removed (the next
    /// run gets a new one) while the folder is kept; the times are set to now.
    #[test]
    fn an_output_is_kept_only_as_a_new_one_would_be() {
        let kept = |dir: &tempfile::TempDir| {
            let ready = readied(dir.path());
            (ready, dir.path().join(OUTPUT).exists())
        };
        let marked: [(&str, Leave); 4] = [
            ("a second name", |d| {
                std::fs::hard_link(d.path().join(OUTPUT), workdir(d).join("other")).unwrap()
            }),
            ("the set-user-ID bit", |d| {
                std::fs::set_permissions(
                    d.path().join(OUTPUT),
                    std::fs::Permissions::from_mode(0o4644),
                )
                .unwrap()
            }),
            ("a link in its place", |d| {
                std::fs::remove_file(d.path().join(OUTPUT)).unwrap();
                std::os::unix::fs::symlink("/etc/passwd", d.path().join(OUTPUT)).unwrap();
            }),
            ("a FIFO in its place", |d| {
                std::fs::remove_file(d.path().join(OUTPUT)).unwrap();
                let name = std::ffi::CString::new(d.path().join(OUTPUT).as_os_str().as_bytes());
                // SAFETY: a C string and a mode.
                assert_eq!(unsafe { libc::mkfifo(name.unwrap().as_ptr(), 0o644) }, 0);
            }),
        ];
        for (what, mark) in marked {
            let dir = after_a_run();
            mark(&dir);
            let (ready, output_left) = kept(&dir);
            assert!(!output_left, "an output with {what} was kept");
            // A second name lies in the working directory, which spoils the folder too.
            assert_eq!(ready, what != "a second name", "{what}");
        }
        // An extended attribute and an inode flag, where the file system takes them.
        let dir = after_a_run();
        let output =
            std::ffi::CString::new(dir.path().join(OUTPUT).as_os_str().as_bytes()).unwrap();
        // SAFETY: a C string, a name and a value of the size given.
        let set = unsafe {
            libc::setxattr(
                output.as_ptr(),
                c"user.mark".as_ptr(),
                c"1".as_ptr().cast(),
                1,
                0,
            )
        };
        if set == 0 {
            assert_eq!(
                kept(&dir),
                (true, false),
                "an output with an extended attribute"
            );
        }
        let dir = after_a_run();
        let file = std::fs::File::open(dir.path().join(OUTPUT)).unwrap();
        let mut flags: libc::c_long = 0;
        // SAFETY: FS_IOC_GETFLAGS and FS_IOC_SETFLAGS read and write an int at the place given, which is larger.
        let set = unsafe {
            libc::ioctl(file.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags) == 0 && {
                flags |= 0x40; // FS_NODUMP_FL
                libc::ioctl(file.as_raw_fd(), libc::FS_IOC_SETFLAGS, &flags) == 0
            }
        };
        if set {
            assert_eq!(kept(&dir), (true, false), "an output with an inode flag");
        }
        // Times the run set are not kept.
        let dir = after_a_run();
        let past = std::fs::FileTimes::new()
            .set_accessed(std::time::UNIX_EPOCH)
            .set_modified(std::time::UNIX_EPOCH);
        for path in [dir.path().join(OUTPUT), workdir(&dir)] {
            std::fs::File::open(&path).unwrap().set_times(past).unwrap();
        }
        assert_eq!(kept(&dir), (true, true), "a plain output");
        for path in [dir.path().join(OUTPUT), workdir(&dir)] {
            let seen = std::fs::metadata(&path).unwrap();
            assert!(
                seen.atime() > 0 && seen.mtime() > 0,
                "{}: times kept",
                path.display()
            );
        }
    }
}
