//! What a root judge's runs can reach by name. They run as an unprivileged user (see `namespace::RUN_USER`), who
//! may enter only the folders any user of the machine may; but a run needs some paths that may lie in folders
//! closed to others: its program (in a cache under `/root`, say), its toolchain (rustup's and pyenv's live in
//! root's home), its working directory (in the judge's private temporary folder).
//!
//! So the worker, in its own mount namespace, covers each closed folder on the way to such a path with a
//! skeleton: an empty folder in memory that others may pass through but not list, holding only the way to each
//! path a run needs, and at its end the real file or folder, bound there. Everything else in the closed folder is
//! out of reach: a run can open neither `/root/.bashrc` nor `/root/.ssh`, nor list `/root`. A run's working
//! directory is exposed for that run alone and withdrawn after it (an empty place for a mount over it may stay for
//! the next run there); programs and toolchains stay exposed for the worker's later runs.

use super::mounts;
use super::namespace::{checked, mount_with};
use std::collections::{HashMap, HashSet};
use std::ffi::CString;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

/// The skeletons a worker made, and what it bound into them.
#[derive(Default)]
pub(crate) struct View {
    /// Each covered folder, with a descriptor of the real one beneath the cover.
    covered: HashMap<PathBuf, OwnedFd>,
    /// Each path bound into a skeleton.
    bound: HashSet<PathBuf>,
    /// Each empty folder made in a skeleton for a mount of the worker's own.
    placed: HashSet<PathBuf>,
    /// The folders covered so far, in turn: what a Landlock rule made from a descriptor of a folder at or below one
    /// names is out of reach once it is covered.
    covers: Vec<PathBuf>,
    /// Paths a run needs that have been seen to, one way or another.
    exposed: HashSet<PathBuf>,
    /// Real folders found passable, on the way to paths exposed before (`/`, `/tmp`): each run's new folder lies
    /// below the same ones.
    passable: HashSet<PathBuf>,
}

impl View {
    /// Makes `path` (absolute, with no link on the way) reachable by name for an unprivileged run, as the real one.
    pub fn expose(&mut self, path: &Path) -> io::Result<()> {
        self.reach(path, Make::Bind)
    }

    /// Makes `path` a place the worker can mount a run's folder at, reachable by name for an unprivileged run: the
    /// real folder where others may reach it, an empty one in a skeleton otherwise (the mount covers it anyway).
    pub fn place(&mut self, path: &Path) -> io::Result<()> {
        self.reach(path, Make::Place)
    }

    fn reach(&mut self, path: &Path, make: Make) -> io::Result<()> {
        // A place kept from an earlier run is an empty folder of the skeleton: a run that asks for the real one
        // there must not be given it.
        if make == Make::Bind && self.placed.contains(path) {
            self.take_back(path);
        }
        if self.exposed.contains(path) {
            return Ok(());
        }
        let names: Vec<&std::ffi::OsStr> = path
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(name),
                _ => None,
            })
            .collect();
        let mut here = PathBuf::from("/");
        // Within a skeleton: the covered folder above, and the way from it to `here`.
        let mut skeleton: Option<(PathBuf, PathBuf)> = None;
        for (i, name) in names.iter().enumerate() {
            let last = i + 1 == names.len();
            if skeleton.is_none() {
                if self.covered.contains_key(&here) {
                    skeleton = Some((here.clone(), PathBuf::new()));
                } else if !self.passable.contains(&here) {
                    if passable(&here)? {
                        self.passable.insert(here.clone());
                    } else {
                        self.cover(&here)?;
                        skeleton = Some((here.clone(), PathBuf::new()));
                    }
                }
            }
            let next = here.join(name);
            if let Some((top, within)) = &mut skeleton {
                within.push(name);
                if self.bound.contains(&next) {
                    // The real one is there already: below it, the real file system again.
                    skeleton = None;
                } else if last && make == Make::Bind {
                    let top = top.clone();
                    let within = within.clone();
                    self.bind(&top, &within, &next)?;
                } else if last {
                    make_dir(&next)?;
                    self.placed.insert(next.clone());
                } else {
                    make_dir(&next)?;
                }
            }
            here = next;
        }
        self.exposed.insert(path.to_owned());
        Ok(())
    }

    /// How many folders have been covered so far.
    pub fn covers(&self) -> usize {
        self.covers.len()
    }

    /// The folders covered since there were `count` (see [`View::covers`]).
    pub fn covered_since(&self, count: usize) -> &[PathBuf] {
        self.covers.get(count..).unwrap_or_default()
    }

    /// Takes back what [`View::expose`] or [`View::place`] did for `path` alone (a run's working directory, which no
    /// later run needs), once the run is over: its binding or its place, and the skeleton's folders that led only
    /// to it. A few places stay, empty, for later runs: the judge hands a run's folder on to its next run where it
    /// can, and making the place again cost two folders made and removed in every run.
    pub fn withdraw(&mut self, path: &Path) {
        if self.placed.contains(path) && self.placed.len() <= PLACES_KEPT {
            return;
        }
        self.take_back(path);
    }

    /// Takes back what was done for `path`, whatever it was.
    fn take_back(&mut self, path: &Path) {
        if !self.exposed.remove(path) {
            return;
        }
        if self.bound.remove(path) {
            if let Ok(name) = CString::new(path.as_os_str().as_bytes()) {
                // SAFETY: umount2 takes a C string and flags.
                unsafe { super::mounts::unmount(&name, libc::MNT_DETACH) };
            }
        } else if !self.placed.remove(path) {
            return;
        }
        // The place it was bound at, and the skeleton's folders above it, as long as they are empty and not a
        // covered folder itself.
        let _ = std::fs::remove_dir(path).or_else(|_| std::fs::remove_file(path));
        for folder in path.ancestors().skip(1) {
            if self.covered.contains_key(folder) || std::fs::remove_dir(folder).is_err() {
                break;
            }
        }
    }

    /// Covers `folder` with an empty skeleton, keeping a way to the real one beneath.
    fn cover(&mut self, folder: &Path) -> io::Result<()> {
        let name = CString::new(folder.as_os_str().as_bytes())?;
        // SAFETY: open takes a C string and flags; a non-negative result is a new descriptor.
        let real = checked(unsafe {
            libc::open(
                name.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: a new descriptor that nothing else owns.
        let real = unsafe { OwnedFd::from_raw_fd(real) };
        // SAFETY: plain system calls with C strings.
        unsafe {
            mount_with(
                Some(c"tmpfs"),
                &name,
                Some(c"tmpfs"),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                c"size=64k,nr_inodes=65536,mode=0711",
            )?;
        }
        self.covered.insert(folder.to_owned(), real);
        self.covers.push(folder.to_owned());
        Ok(())
    }

    /// The file at `path` (absolute: the real one, whatever covers it in the view), alone, as a detached mount that
    /// may be written through (the view is read-only) and from which nothing can be executed: a run's output, to be
    /// mounted where its rules reach it. The file itself is looked for through the real folder beneath the nearest
    /// cover above it, if any, and never followed if it is a link.
    pub fn detached(&self, path: &Path) -> io::Result<OwnedFd> {
        let beneath = path
            .ancestors()
            .skip(1)
            .find_map(|folder| Some((self.covered.get(folder)?, path.strip_prefix(folder).ok()?)));
        let (from, within) = match beneath {
            Some((real, within)) => (real.as_raw_fd(), within),
            None => (libc::AT_FDCWD, path),
        };
        let name = CString::new(within.as_os_str().as_bytes())?;
        let tree = mounts::open_tree(from, &name, libc::AT_SYMLINK_NOFOLLOW as u32)?;
        let set = libc::MOUNT_ATTR_NOSUID | libc::MOUNT_ATTR_NODEV | libc::MOUNT_ATTR_NOEXEC;
        mounts::set_attributes(tree.as_fd(), set, libc::MOUNT_ATTR_RDONLY)?;
        Ok(tree)
    }

    /// Binds the real `top/within` at `place`, its path in the skeleton covering `top`.
    fn bind(&mut self, top: &Path, within: &Path, place: &Path) -> io::Result<()> {
        let real = &self.covered[top];
        let within_name = CString::new(within.as_os_str().as_bytes())?;
        let tree = mounts::open_tree(real.as_raw_fd(), &within_name, libc::AT_RECURSIVE as u32)?;
        // The place to bind at: a folder for a folder, an empty file for anything else.
        // SAFETY: a zeroed stat is valid, and fstat writes only to it, on a descriptor of ours.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let is_dir = unsafe { libc::fstat(tree.as_raw_fd(), &mut stat) } == -1
            || stat.st_mode & libc::S_IFMT == libc::S_IFDIR;
        if is_dir {
            make_dir(place)?;
        } else {
            std::fs::File::create(place)?;
        }
        let place_name = CString::new(place.as_os_str().as_bytes())?;
        mounts::move_to(tree.as_raw_fd(), libc::AT_FDCWD, &place_name)?;
        self.bound.insert(place.to_owned());
        Ok(())
    }
}

/// How many places for runs' folders a view keeps once their runs are over (see [`View::withdraw`]): one for each
/// folder a judge hands on, with room to spare.
const PLACES_KEPT: usize = 8;

/// What [`View`] makes at the end of a path in a skeleton.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Make {
    /// The real file or folder, bound there.
    Bind,
    /// An empty folder, for a mount.
    Place,
}

/// Whether any user may pass through `folder` (it is a folder others may enter), as the view shows it now.
fn passable(folder: &Path) -> io::Result<bool> {
    let metadata = std::fs::metadata(folder)?;
    Ok(metadata.is_dir() && metadata.mode() & 0o001 != 0)
}

/// A folder of a skeleton: passable, not listable.
fn make_dir(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new().mode(0o711).create(path) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}
