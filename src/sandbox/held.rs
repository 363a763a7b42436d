//! Where a worker with namespaces and Landlock mounts a solution's run ([`Holder`]), and how those mounts are kept
//! for its next run ([`Held`]).
//!
//! Mounting a run's folder and output and taking them down again was most of what the namespaces cost a test: the
//! unmount waits for an RCU grace period, and the worker made and removed the places to mount at. The judge runs a
//! program's tests one after another in the same folder, with the same output file (see `judge::run_folder`), so
//! the worker keeps a run's mounts for its next run where that run asks for the same ones and finds the folder as
//! it was made: nothing in it, and its root untouched.

use super::mounts;
use super::namespace::{Workdir, mount, mount_scratch, mount_with, set_read_only};
use crate::units::Bytes;
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The name a solution's working directory must have for its run to be held (see [`Holder`]): the one the judge gives
/// it.
pub(crate) const HELD_WORKDIR: &str = "box";

/// A small file system of the worker's own, made once and read-only, that holds only a folder named
/// [`HELD_WORKDIR`] and an empty file `output`: the places a solution's run mounts its folder and its output at.
///
/// Landlock's rules name inodes, and a run's folder is a new file system each run, its output a new file: a rule
/// naming either must be made for each run, with the ~50 rules of what it may read in the same ruleset. The holder
/// stays the same. For a run, it is bound over the folder that holds its working directory, the run's folder
/// mounted on the holder's folder and its output bound on the holder's file; a Landlock rule on the holder then
/// covers both, the kernel's walk up from a file crossing each mount to the folder the mount point lies in (the
/// mount point itself is not looked at). Nothing a run can write is kept in it: its folder is a fresh file system,
/// its output the judge's file, and the holder itself read-only. What is mounted in it may stay for the worker's
/// next run (see [`Held`]).
pub(crate) struct Holder(std::fs::File);

impl Holder {
    /// Where it is mounted, in the view.
    const PLACE: &CStr = c"/dev/holder";

    /// Makes it, in PID 1 of the namespaces.
    pub fn make() -> io::Result<Holder> {
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        // SAFETY: plain system calls with C strings.
        unsafe {
            mount_with(
                Some(c"tmpfs"),
                Self::PLACE,
                Some(c"tmpfs"),
                flags,
                c"size=4k,nr_inodes=4,mode=0755",
            )?;
        }
        let place = Path::new(std::ffi::OsStr::from_bytes(Self::PLACE.to_bytes()));
        std::fs::DirBuilder::new().create(place.join(HELD_WORKDIR))?;
        std::fs::File::create(place.join("output"))?;
        // SAFETY: as above.
        unsafe { set_read_only(Self::PLACE, false, true)? };
        let root = std::fs::File::open(place)?;
        Ok(Holder(root))
    }

    /// The holder's root, which a Landlock rule names.
    pub fn root(&self) -> std::os::fd::BorrowedFd<'_> {
        std::os::fd::AsFd::as_fd(&self.0)
    }

    /// Mounts a solution's run in the holder, as `wanted`: the holder over the folder that holds its working
    /// directory (named [`HELD_WORKDIR`]), scratch space on its folder, and where its output is a regular file,
    /// `output` (see `View::detached`) on the holder's `output`.
    pub fn mount(&self, wanted: Wanted, output: Option<OwnedFd>) -> io::Result<Held> {
        let folder = wanted
            .workdir
            .parent()
            .filter(|_| wanted.workdir.file_name() == Some(HELD_WORKDIR.as_ref()))
            .ok_or_else(|| io::Error::other("the working directory cannot be held"))?;
        let folder = CString::new(folder.as_os_str().as_bytes())?;
        // SAFETY: plain system calls with C strings. The bind of the read-only holder is read-only.
        unsafe { mount(Some(Self::PLACE), &folder, None, libc::MS_BIND)? };
        // Unmounted with all that is mounted in it when dropped, from here on.
        let mounted = Workdir(folder);
        let workdir = CString::new(wanted.workdir.as_os_str().as_bytes())?;
        // SAFETY: as above.
        unsafe { mount_scratch(&workdir, wanted.size, wanted.owner)? };
        let made = Root::of(&wanted.workdir)?;
        if let Some(tree) = output {
            mounts::move_to(tree.as_raw_fd(), libc::AT_FDCWD, &output_place(&mounted))?;
        }
        Ok(Held {
            mounted,
            wanted,
            made,
        })
    }
}

/// What a held run is mounted as: its working directory, the size of its scratch space and its owner (a user
/// inside the namespaces, if not the worker's), and its output's device and inode where it is a regular file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub workdir: PathBuf,
    pub size: Bytes,
    pub owner: Option<libc::uid_t>,
    pub output: Option<(u64, u64)>,
}

impl Wanted {
    /// The device and inode of `file` where it is a regular file: the output a held run's is bound to.
    pub fn output_of(file: &std::fs::File) -> io::Result<Option<(u64, u64)>> {
        let metadata = file.metadata()?;
        Ok(metadata.is_file().then(|| (metadata.dev(), metadata.ino())))
    }
}

/// A run's mounts in the holder, kept from one run to the next (see the module's comment): unmounted when dropped.
pub(crate) struct Held {
    mounted: Workdir,
    wanted: Wanted,
    made: Root,
}

impl Held {
    pub fn wanted(&self) -> &Wanted {
        &self.wanted
    }

    /// The run's output opened again through the holder, where it is a regular file: what the program is given,
    /// which it may open again by name. It must be the file bound there.
    pub fn output(&self) -> io::Result<Option<std::fs::File>> {
        let Some(id) = self.wanted.output else {
            return Ok(None);
        };
        let place = output_place(&self.mounted);
        let path = Path::new(std::ffi::OsStr::from_bytes(place.as_bytes()));
        let opened = std::fs::OpenOptions::new().write(true).open(path)?;
        if Wanted::output_of(&opened)? != Some(id) {
            return Err(io::Error::other("the output in view is another file"));
        }
        Ok(Some(opened))
    }

    /// Whether the run left its folder as it was made, so that the next may have it: no file in its scratch space
    /// and no space used, and its root with the mode, owner and times it was made with and no extended attribute.
    /// Any change to the root's mode, owner or extended attributes moves its change time, and creating or removing
    /// a file in it its modification time too; the extended attributes are looked at as well, as a change within
    /// one tick of a coarse clock leaves the times as they were.
    pub fn as_made(&self) -> bool {
        let Ok(name) = CString::new(self.wanted.workdir.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a zeroed statfs is valid, and statfs writes only to it, given a C string.
        let mut space: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let empty = unsafe { libc::statfs(name.as_ptr(), &mut space) } == 0
            && space.f_files.saturating_sub(space.f_ffree) == 1
            && space.f_bfree == space.f_blocks;
        // SAFETY: with a size of 0, llistxattr only returns the size of the list, and writes nothing.
        let no_attributes =
            unsafe { libc::llistxattr(name.as_ptr(), std::ptr::null_mut(), 0) } == 0;
        empty && no_attributes && Root::of(&self.wanted.workdir).is_ok_and(|root| root == self.made)
    }
}

/// What a held run's folder's root is when it is made: its mode, owner and times.
#[derive(PartialEq, Eq)]
struct Root([i64; 9]);

impl Root {
    fn of(workdir: &Path) -> io::Result<Root> {
        let m = std::fs::symlink_metadata(workdir)?;
        Ok(Root([
            i64::from(m.mode()),
            i64::from(m.uid()),
            i64::from(m.gid()),
            m.atime(),
            m.atime_nsec(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
        ]))
    }
}

/// Where a held run's output is bound: `output` in the folder the holder is bound over.
fn output_place(mounted: &Workdir) -> CString {
    CString::new([mounted.0.as_bytes(), b"/output"].concat()).expect("no NUL")
}
