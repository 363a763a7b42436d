//! Files in folders that a program run by the judge could write: a build folder, a tool's working directory, a
//! validator's feedback folder. Whatever such a program left there, the judge reads it without following a link,
//! never blocks on a FIFO or a device, reads no more than a bound, and checks what a build left before keeping it.
//!
//! The folder given as `base` is the judge's own (it made it, and nothing a run does can replace it); every name
//! below it is the run's, and is looked up one component at a time, none of them a link.
//!
//! A file a package or a user gives (a source, a package's YAML) is read by [`read_regular`] the same way, never
//! waited on nor read without end, though by its own path.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Component, Path};

/// Opens `base/relative` for reading, if it is a regular file reached through folders alone.
pub(crate) fn open(base: &Path, relative: &Path) -> io::Result<File> {
    let mut names = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => names.push(CString::new(name.as_bytes())?),
            Component::CurDir => {}
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} leaves its folder", relative.display()),
                ));
            }
        }
    }
    let last = names
        .pop()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name to open"))?;
    let mut folder = open_folder(base)?;
    for name in &names {
        folder = open_at(
            &folder,
            name,
            libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW,
        )
        .map_err(|e| named(e, relative))?;
    }
    // Looked at before it is opened: opening a device may act on it, and a FIFO with no writer blocks.
    let before = stat_at(&folder, &last).map_err(|e| named(e, relative))?;
    if before.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(io::Error::other(format!(
            "{} is {}, not a regular file",
            relative.display(),
            kind_of(before.st_mode)
        )));
    }
    let file = open_at(
        &folder,
        &last,
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY,
    )
    .map_err(|e| named(e, relative))?;
    let file = File::from(file);
    let after = file.metadata()?;
    use std::os::unix::fs::MetadataExt;
    if !after.file_type().is_file() || after.ino() != before.st_ino || after.dev() != before.st_dev
    {
        return Err(io::Error::other(format!(
            "{} changed while it was opened",
            relative.display()
        )));
    }
    Ok(file)
}

/// The first `limit` bytes of `base/relative`, or nothing if it is not a regular file or cannot be read.
pub(crate) fn read_head(base: &Path, relative: &Path, limit: usize) -> Vec<u8> {
    let mut head = Vec::new();
    if let Ok(file) = open(base, relative) {
        let _ = file.take(limit as u64).read_to_end(&mut head);
    }
    head
}

/// All of `base/relative`, which must hold at most `limit` bytes.
pub(crate) fn read(base: &Path, relative: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open(base, relative)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "{} is over the {} the judge reads of it",
                relative.display(),
                crate::units::Bytes(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// Why [`read_regular`] read nothing.
pub(crate) enum Unread {
    Io(io::Error),
    /// It is no regular file: what it is ("a FIFO", "a device").
    NotRegular(&'static str),
    /// It holds more than the bound.
    TooLarge,
}

/// All of the file at `path` (a package's or a user's, which may be anything): a regular file, never waited on (a
/// FIFO) nor read without end (a device), of at most `limit` bytes.
pub(crate) fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, Unread> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(Unread::Io)?;
    let metadata = file.metadata().map_err(Unread::Io)?;
    if !metadata.is_file() {
        return Err(Unread::NotRegular(describe(&metadata.file_type())));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(Unread::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Unread::TooLarge);
    }
    Ok(bytes)
}

/// How much a folder's tree may hold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeLimits {
    /// Bytes in all its files, counted by their size (a sparse file counts whole).
    pub bytes: u64,
    /// Files and folders in it.
    pub entries: u64,
}

/// Checks what a program left in `dir`: only folders and regular files, none of them a link, within `limits`. The
/// error says what is wrong, for a compile error's message.
pub(crate) fn check_tree(dir: &Path, limits: TreeLimits) -> Result<(), String> {
    let mut bytes = 0u64;
    let mut entries = 0u64;
    for entry in walkdir::WalkDir::new(dir).follow_links(false).min_depth(1) {
        let entry = entry.map_err(|e| format!("cannot look through the build folder: {e}"))?;
        let name = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let kind = entry.file_type();
        entries += 1;
        if entries > limits.entries {
            return Err(format!(
                "the build left more than {} files and folders",
                limits.entries
            ));
        }
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() {
            let what = if kind.is_symlink() {
                match std::fs::read_link(entry.path()) {
                    Ok(target) => format!("a symbolic link to {}", target.display()),
                    Err(_) => "a symbolic link".to_owned(),
                }
            } else {
                describe(&kind).to_owned()
            };
            return Err(format!(
                "the build left {} as {what}: a build may leave only files and folders",
                name.display()
            ));
        }
        let size = entry
            .metadata()
            .map_err(|e| format!("cannot look at {}: {e}", name.display()))?
            .len();
        bytes = bytes.saturating_add(size);
        if bytes > limits.bytes {
            return Err(format!(
                "the build left more than {} in its folder",
                crate::units::Bytes(limits.bytes)
            ));
        }
    }
    Ok(())
}

/// Takes from what a build left (already found by [`check_tree`] to be files and folders alone) what it could
/// leave to others: write access for the group and others, and the set-user-ID, set-group-ID and sticky bits. A
/// build kept in a cache that others may reach must not be changed by them for the next judge to run.
pub(crate) fn seal_tree(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(io::Error::from)?;
        if entry.path_is_symlink() {
            continue;
        }
        let mode = entry
            .metadata()
            .map_err(io::Error::from)?
            .permissions()
            .mode();
        let sealed = mode & 0o755;
        if sealed != mode & 0o7777 {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(sealed))?;
        }
    }
    Ok(())
}

/// What a folder's tree holds, without following links: its files' sizes (by the disk blocks they take, so that a
/// sparse file costs what it costs) and how many entries it has, counted up to `stop` entries. A part of the tree
/// that cannot be looked at (a path too long to name) counts as unbounded: what it holds could be anything.
pub(crate) fn usage(dir: &Path, stop: u64) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let mut bytes = 0u64;
    let mut entries = 0u64;
    for entry in walkdir::WalkDir::new(dir).follow_links(false).min_depth(1) {
        let entry = match entry {
            Ok(entry) => entry,
            // Gone since it was listed: nothing to count.
            Err(e)
                if e.io_error()
                    .is_some_and(|e| e.kind() == io::ErrorKind::NotFound) =>
            {
                continue;
            }
            Err(_) => return (u64::MAX, entries),
        };
        entries += 1;
        if entries >= stop {
            break;
        }
        if let Ok(metadata) = entry.metadata() {
            bytes = bytes.saturating_add(metadata.blocks().saturating_mul(512));
        }
    }
    (bytes, entries)
}

/// What something that is not a regular file is, for a message: "a FIFO", "a device".
pub(crate) fn describe(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "something other than a file"
    }
}

fn kind_of(mode: libc::mode_t) -> &'static str {
    match mode & libc::S_IFMT {
        libc::S_IFLNK => "a symbolic link",
        libc::S_IFIFO => "a FIFO",
        libc::S_IFSOCK => "a socket",
        libc::S_IFCHR | libc::S_IFBLK => "a device",
        libc::S_IFDIR => "a folder",
        _ => "something other than a file",
    }
}

fn named(e: io::Error, relative: &Path) -> io::Error {
    match e.raw_os_error() {
        // O_NOFOLLOW on a link, or O_DIRECTORY on something else.
        Some(libc::ELOOP) | Some(libc::ENOTDIR) => io::Error::other(format!(
            "{} passes through a symbolic link or something other than a folder",
            relative.display()
        )),
        _ => io::Error::new(e.kind(), format!("{}: {e}", relative.display())),
    }
}

fn open_folder(path: &Path) -> io::Result<OwnedFd> {
    let path = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: open takes a C string and flags; a non-negative result is a new descriptor.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    owned(fd)
}

fn open_at(folder: &OwnedFd, name: &CString, flags: libc::c_int) -> io::Result<OwnedFd> {
    // SAFETY: openat takes a descriptor, a C string and flags; a non-negative result is a new descriptor.
    let fd = unsafe { libc::openat(folder.as_raw_fd(), name.as_ptr(), flags | libc::O_CLOEXEC) };
    owned(fd)
}

fn stat_at(folder: &OwnedFd, name: &CString) -> io::Result<libc::stat> {
    // SAFETY: a zeroed stat is valid, and fstatat writes only to it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let ret = unsafe {
        libc::fstatat(
            folder.as_raw_fd(),
            name.as_ptr(),
            &mut stat,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if ret == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(stat)
}

fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_given_file_is_read_only_if_regular_and_within_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        std::fs::write(&file, "four").unwrap();
        assert_eq!(read_regular(&file, 4).ok(), Some(b"four".to_vec()));
        assert!(matches!(read_regular(&file, 3), Err(Unread::TooLarge)));
        let fifo = CString::new(dir.path().join("f").as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo takes a valid C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let fifo = dir.path().join("f");
        assert!(matches!(
            read_regular(&fifo, 4),
            Err(Unread::NotRegular("a FIFO"))
        ));
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 4),
            Err(Unread::NotRegular("a device"))
        ));
        assert!(matches!(
            read_regular(&dir.path().join("none"), 4),
            Err(Unread::Io(_))
        ));
    }

    #[test]
    fn reads_files_and_refuses_links_fifos_and_devices() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::create_dir(base.join("feedback")).unwrap();
        std::fs::write(base.join("feedback/judgemessage.txt"), "fine").unwrap();
        assert_eq!(
            read(base, Path::new("feedback/judgemessage.txt"), 100).unwrap(),
            b"fine"
        );
        symlink("/etc/hostname", base.join("link")).unwrap();
        symlink(base.join("feedback"), base.join("folder_link")).unwrap();
        symlink("/dev/zero", base.join("zero")).unwrap();
        let fifo = CString::new(base.join("fifo").as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo takes a C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        for name in [
            "link",
            "folder_link/judgemessage.txt",
            "zero",
            "fifo",
            "feedback",
            "../x",
        ] {
            let error = open(base, Path::new(name)).unwrap_err();
            assert!(!error.to_string().is_empty(), "{name}");
        }
        assert!(read_head(base, Path::new("fifo"), 10).is_empty());
        assert_eq!(
            open(&base.join("folder_link"), Path::new("judgemessage.txt"))
                .map(|_| ())
                .ok(),
            Some(()),
            "the judge's own base folder may be reached through a link"
        );
    }

    #[test]
    fn reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big"), vec![b'x'; 1000]).unwrap();
        let error = read(dir.path(), Path::new("big"), 999).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            read(dir.path(), Path::new("big"), 1000).unwrap().len(),
            1000
        );
        assert_eq!(read_head(dir.path(), Path::new("big"), 10).len(), 10);
    }

    #[test]
    fn a_build_may_leave_only_files_and_folders_within_bounds() {
        let limits = TreeLimits {
            bytes: 100,
            entries: 5,
        };
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/main"), vec![0; 60]).unwrap();
        assert_eq!(check_tree(dir.path(), limits), Ok(()));

        std::fs::write(dir.path().join("more"), vec![0; 60]).unwrap();
        let error = check_tree(dir.path(), limits).unwrap_err();
        assert!(error.contains("more than 100B"), "{error}");
        std::fs::remove_file(dir.path().join("more")).unwrap();

        symlink("/root/.bashrc", dir.path().join("sub/status.json")).unwrap();
        let error = check_tree(dir.path(), limits).unwrap_err();
        assert!(
            error.contains("sub/status.json") && error.contains("symbolic link to /root/.bashrc"),
            "{error}"
        );
        std::fs::remove_file(dir.path().join("sub/status.json")).unwrap();

        for i in 0..5 {
            std::fs::write(dir.path().join(format!("f{i}")), "").unwrap();
        }
        let error = check_tree(dir.path(), limits).unwrap_err();
        assert!(error.contains("more than 5 files"), "{error}");
    }

    #[test]
    fn a_sealed_build_is_writable_by_its_owner_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (folder, file) = (dir.path().join("box"), dir.path().join("box/main"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(&file, "").unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o3777)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o6777)).unwrap();
        seal_tree(dir.path()).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&folder), 0o755);
        assert_eq!(mode(&file), 0o755);
    }
}
