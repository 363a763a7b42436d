//! A solution's standard input, given so that the run can neither change the test nor learn where it lives.
//!
//! The descriptor of the test file itself, opened outside the run's namespaces and Landlock rules, would let the
//! run change the file's mode (fchmod needs no write access), or open it again for writing through
//! /proc/self/fd/0 where the file system is not read-only to it; and that link would name the test. A small input
//! is given as a sealed copy in memory. A large one, whose copy would cost more than the program's own reading,
//! is opened through a read-only mount of that one file, detached from every file hierarchy: writing through it
//! fails whoever the run is, and its link names no path. Making that mount takes the judge's CAP_SYS_ADMIN; where
//! it is refused, the large input is copied too.

use super::mounts;
use super::namespace::checked;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Inputs larger than this are given through a read-only mount where the judge may make one.
const COPIED_UP_TO: u64 = 8 << 20;

/// Opens the test `path` as a solution's standard input.
pub(super) fn open(path: &Path) -> io::Result<File> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > COPIED_UP_TO {
        // Mounted by its path, where it must be itself (not a link there, nor another file put there since).
        use std::os::unix::fs::MetadataExt;
        let same = |m: &std::fs::Metadata| (m.dev(), m.ino()) == (meta.dev(), meta.ino());
        if let Ok(mounted) = read_only_mount(path)
            && mounted.metadata().is_ok_and(|m| same(&m))
        {
            return Ok(mounted);
        }
    }
    sealed_copy(file, &meta)
}

/// The file at `path` (never a link there), opened for reading on a read-only, detached mount of its own: the
/// mount goes away with the last descriptor.
fn read_only_mount(path: &Path) -> io::Result<File> {
    let name = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    let tree = mounts::open_tree(libc::AT_FDCWD, &name, libc::AT_SYMLINK_NOFOLLOW as u32)?;
    let read_only = libc::MOUNT_ATTR_RDONLY
        | libc::MOUNT_ATTR_NOSUID
        | libc::MOUNT_ATTR_NODEV
        | libc::MOUNT_ATTR_NOEXEC;
    mounts::set_attributes(tree.as_fd(), read_only, 0)?;
    // Only a regular file: opening a FIFO would block, and a device is no test.
    // SAFETY: fstat fills the struct it is given.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    checked(unsafe { libc::fstat(tree.as_raw_fd(), &mut stat) })?;
    if stat.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(io::Error::other("not a regular file"));
    }
    let file = File::open(format!("/proc/self/fd/{}", tree.as_raw_fd()));
    // Closing the mount's own descriptor takes it apart, which waits for the kernel's readers of mounts to pass
    // (an RCU grace period, milliseconds): that is left to a thread of its own, while the run goes on. The file
    // opened keeps the mount for itself. Should no thread be had, it is closed here.
    let _ = std::thread::Builder::new().spawn(move || drop(tree));
    file
}

/// A copy of `file` (of which `meta` is what it was opened as) in memory that nobody can change: written, sealed
/// against writing, growing and shrinking, and rewound.
fn sealed_copy(mut file: File, meta: &std::fs::Metadata) -> io::Result<File> {
    // SAFETY: memfd_create takes a C string and flags, and returns a new descriptor or -1.
    let fd = unsafe {
        libc::memfd_create(
            c"input".as_ptr(),
            libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
        )
    };
    if fd == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor that nothing else owns.
    let mut copy = unsafe { File::from_raw_fd(fd) };
    // As long as it was when opened: one call for a small test, where a general copy makes five. What a file
    // system cannot send, or a file that gave less than its size said (or said none), is read through to its end.
    let sent = match meta.is_file() && meta.len() > 0 {
        true => copy_file(&file, &copy, meta.len()),
        false => Ok(0),
    };
    let whole = match sent {
        Ok(sent) => sent == meta.len() && sent > 0,
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => false,
        Err(e) => return Err(e),
    };
    if !whole {
        io::copy(&mut file, &mut copy)?;
    }
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_GROW | libc::F_SEAL_SHRINK | libc::F_SEAL_SEAL;
    // SAFETY: fcntl and lseek take plain integers.
    unsafe {
        if libc::fcntl(fd, libc::F_ADD_SEALS, seals) == -1
            || libc::lseek(fd, 0, libc::SEEK_SET) == -1
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(copy)
}

/// Copies the first `len` bytes of the regular file `from` (fewer if it is shorter now) to `to`, from where each
/// stands; returns how many.
fn copy_file(from: &File, to: &File, len: u64) -> io::Result<u64> {
    let mut left = len;
    while left > 0 {
        let chunk = usize::try_from(left).unwrap_or(usize::MAX).min(1 << 30);
        // SAFETY: sendfile takes two descriptors of ours, no offset (each file's own position), and a count.
        let sent = unsafe {
            libc::sendfile(
                to.as_raw_fd(),
                from.as_raw_fd(),
                std::ptr::null_mut(),
                chunk,
            )
        };
        match sent {
            -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => continue,
            -1 => return Err(io::Error::last_os_error()),
            0 => break,
            sent => left -= sent as u64,
        }
    }
    Ok(len - left)
}
