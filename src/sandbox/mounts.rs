//! The calls of the kernel's mount API that take and place detached mounts (`open_tree`, `mount_setattr` on a
//! detached mount, `move_mount`), each wrapped once. They make no allocation, so the namespaces' set-up may call
//! them where it may call nothing else of the library. Each carries the worker's key (see `syscalls::keyed`).

use super::namespace::checked;
use super::syscalls::keyed;
use std::ffi::CStr;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};

/// A detached copy of the mount at `path` (relative to the folder `dir`, or the current one for
/// `libc::AT_FDCWD`), with `flags` beside `OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC` (`AT_RECURSIVE`,
/// `AT_SYMLINK_NOFOLLOW`): it goes away with its last descriptor, unless it is moved somewhere.
pub(super) fn open_tree(dir: RawFd, path: &CStr, flags: u32) -> io::Result<OwnedFd> {
    let flags = libc::OPEN_TREE_CLONE | libc::OPEN_TREE_CLOEXEC | flags;
    // SAFETY: open_tree takes a descriptor, a C string and flags; a non-negative result is a new descriptor.
    let tree = checked(unsafe {
        keyed(
            libc::SYS_open_tree,
            [dir as usize, path.as_ptr() as usize, flags as usize, 0, 0],
        ) as libc::c_int
    })?;
    // SAFETY: a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(tree) })
}

/// Sets the attributes `set` (`MOUNT_ATTR_*`) of the detached mount `tree`, and clears `clear`.
pub(super) fn set_attributes(tree: BorrowedFd<'_>, set: u64, clear: u64) -> io::Result<()> {
    // SAFETY: an all-zero mount_attr is a valid one.
    let mut attr: libc::mount_attr = unsafe { std::mem::zeroed() };
    attr.attr_set = set;
    attr.attr_clr = clear;
    // SAFETY: mount_setattr reads `attr`, of the size given, on a descriptor of ours and an empty C string.
    checked(unsafe {
        keyed(
            libc::SYS_mount_setattr,
            [
                tree.as_raw_fd() as usize,
                c"".as_ptr() as usize,
                libc::AT_EMPTY_PATH as usize,
                (&raw const attr) as usize,
                std::mem::size_of::<libc::mount_attr>(),
            ],
        ) as libc::c_int
    })?;
    Ok(())
}

/// Places the detached mount `tree` at `path` (relative to the folder `dir`, or the current one for
/// `libc::AT_FDCWD`), which must exist: a folder for a folder, a file for a file.
pub(super) fn move_to(tree: RawFd, dir: RawFd, path: &CStr) -> io::Result<()> {
    // SAFETY: move_mount takes descriptors, C strings and flags.
    checked(unsafe {
        keyed(
            libc::SYS_move_mount,
            [
                tree as usize,
                c"".as_ptr() as usize,
                dir as usize,
                path.as_ptr() as usize,
                libc::MOVE_MOUNT_F_EMPTY_PATH as usize,
            ],
        ) as libc::c_int
    })?;
    Ok(())
}

/// Unmounts what is mounted at `path`, with `flags` (`MNT_DETACH`). Returns what umount2 returns.
///
/// # Safety
/// Only makes a system call: safe wherever that is.
pub(super) unsafe fn unmount(path: &CStr, flags: libc::c_int) -> libc::c_int {
    // SAFETY: umount2 takes a C string and flags.
    unsafe {
        keyed(
            libc::SYS_umount2,
            [path.as_ptr() as usize, flags as usize, 0, 0, 0],
        ) as libc::c_int
    }
}

/// Moves the calling process into new namespaces of the kinds in `flags` (`CLONE_NEW*`). Returns what unshare
/// returns.
///
/// # Safety
/// Only makes a system call; the calling process must be single-threaded for a user or mount namespace.
pub(super) unsafe fn unshare(flags: libc::c_int) -> libc::c_int {
    // SAFETY: unshare takes plain integers.
    unsafe { keyed(libc::SYS_unshare, [flags as usize, 0, 0, 0, 0]) as libc::c_int }
}
