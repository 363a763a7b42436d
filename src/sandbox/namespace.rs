//! User, PID, network, mount, IPC, UTS and cgroup namespaces for a worker's runs.
//!
//! A worker that runs programs in namespaces makes them once, when it starts ([`enter`]): a user namespace (root
//! inside, the judge's own user outside), a network namespace with only a loopback interface, and it down (no
//! network at all), IPC and UTS namespaces, and a mount namespace that is the read-only view every run sees: the
//! whole file system read-only, and /dev holding only five harmless devices and the links to the standard streams.
//! It then forks the process that carries out the runs, which is PID 1 of a new PID namespace
//! ([`become_init`]): it mounts a /proc of that namespace, read-only, an empty /dev/shm and a message queue file
//! system of its own. Every program it starts is its child in these namespaces, and every one is PID 2 ([`Pids`]).
//!
//! For each run, PID 1 makes the run's working directory writable ([`Workdir`]: for a solution, a fresh in-memory
//! file system as large as its memory limit, mounted in the worker's [`Holder`] where Landlock is on), and starts
//! the program, which joins the run's cgroup, takes a cgroup namespace of its own rooted there, and drops every
//! capability before exec. After the run, PID 1 kills every other process of the namespace ([`kill_all`]), and
//! looks for anything the run could have left for the next one ([`leftovers`]): a file in /dev/shm or a change to
//! it, a message queue, a System V object, or a mount. If it finds one, the worker ends, and the next run gets a
//! new worker and new namespaces.
//!
//! The program, a child of PID 1 rather than PID 1, gets the ordinary signal semantics: abort() and raise() work as
//! they do anywhere. It cannot signal PID 1 (the kernel ignores a signal sent to a namespace's init from inside
//! unless the init handles it), and without capabilities it can change neither the network, nor the host name,
//! nor any mount.

use crate::units::Bytes;
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Every namespace made for a worker's runs; the cgroup namespace is the program's own.
const WORKER: libc::c_int = libc::CLONE_NEWUSER
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWPID;

/// The user (and group) a root judge's solutions and compilers run as, inside the namespaces.
pub(crate) const RUN_USER: libc::uid_t = 100_000;

/// Who [`RUN_USER`] is outside: a user and group no account of the machine has (below 2^31, which some tools
/// take for negative, and apart from the ranges that systemd and container tools hand out). Files a compiler
/// makes are its until the worker hands them back to root.
pub(crate) const RUN_USER_OUTSIDE: libc::uid_t = 0x7ff0_0000;

/// Moves the calling process into new user, network, mount, IPC and UTS namespaces, maps root inside to its own
/// user outside, and makes the mount namespace the read-only view. Its next child is PID 1 of a new PID namespace.
/// The calling process must be single-threaded.
///
/// A judge run as root also maps [`RUN_USER`] to [`RUN_USER_OUTSIDE`], and returns it: solutions and compilers
/// then run as that user, who may read only what any user of the machine may (not /etc/shadow, /root, nor
/// another user's home), rather than as root. A judge of an ordinary user can map only itself, and its runs are
/// that user, as the judge is.
pub(crate) fn enter() -> io::Result<Option<libc::uid_t>> {
    // SAFETY: geteuid and getegid have no preconditions.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let root = uid == 0;
    let map = |own: u32| {
        let extra = if root {
            format!("\n{RUN_USER} {RUN_USER_OUTSIDE} 1")
        } else {
            String::new()
        };
        CString::new(format!("0 {own} 1{extra}")).expect("no NUL")
    };
    let (uid_map, gid_map) = (map(uid), map(gid));
    // SAFETY: plain system calls with C strings.
    unsafe {
        if root {
            // Mapping a user other than one's own takes a process that stays outside, with the capability to:
            // root keeps setgroups, for its runs to drop every supplementary group the judge has. (Root writes the
            // maps of a process that is not dumpable, which this one stays throughout: a run as root without
            // capabilities still owns the new user namespace, and could open a dumpable process in it.)
            let own = std::process::id();
            let maps = [
                (format!("/proc/{own}/uid_map"), uid_map),
                (format!("/proc/{own}/gid_map"), gid_map),
            ]
            .map(|(path, map)| (CString::new(path).expect("no NUL"), map));
            from_outside(|| {
                for (path, map) in &maps {
                    write_file(path, map)?;
                }
                Ok(())
            })?;
        } else {
            // A process that is not dumpable has /proc/self handed to root, and a judge that is not root may not
            // write its own maps then: it is dumpable only while it writes them.
            checked(libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0))?;
            checked(super::mounts::unshare(WORKER))?;
            // An ordinary user may map its group only if it gives up setgroups.
            write_file(c"/proc/self/setgroups", c"deny")?;
            write_file(c"/proc/self/uid_map", &uid_map)?;
            write_file(c"/proc/self/gid_map", &gid_map)?;
            checked(libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0))?;
        }
        // Nothing mounted here may reach the judge's mount namespace.
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE)?;
        private_dev()?;
        set_read_only(c"/", true, true)?;
    }
    Ok(root.then_some(RUN_USER))
}

/// Enters the worker's namespaces while a child that stays outside them does `outside` (the writing of the user
/// namespace's maps), once they exist: a process inside a user namespace has no capability in its parent.
/// The calling process must be single-threaded; `outside` must only make system calls.
unsafe fn from_outside(outside: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let (entered_read, entered_write) = super::process::pipe()?;
    let (done_read, done_write) = super::process::pipe()?;
    // SAFETY: the child only makes system calls, and ends with _exit.
    let child = unsafe { libc::fork() };
    if child == 0 {
        let mut byte = 0u8;
        // SAFETY: plain system calls on our own descriptors.
        unsafe {
            libc::read(entered_read.as_raw_fd(), (&mut byte as *mut u8).cast(), 1);
            let code: u8 = match outside() {
                Ok(()) => 0,
                Err(e) => e.raw_os_error().unwrap_or(libc::EIO) as u8,
            };
            libc::write(done_write.as_raw_fd(), (&code as *const u8).cast(), 1);
            libc::_exit(0);
        }
    }
    // SAFETY: plain system calls on our own descriptors and child.
    unsafe {
        let unshared = if child == -1 {
            Err(io::Error::last_os_error())
        } else {
            checked(super::mounts::unshare(WORKER)).map(drop)
        };
        // The child goes on either way, and fails if we could not enter the namespaces.
        let go = 1u8;
        libc::write(entered_write.as_raw_fd(), (&go as *const u8).cast(), 1);
        let mut code = libc::EIO as u8;
        // Our end for writing is closed first: should the child end without a word, the read sees the end.
        drop(done_write);
        let said = libc::read(done_read.as_raw_fd(), (&mut code as *mut u8).cast(), 1);
        if child > 0 {
            let mut status = 0;
            while libc::waitpid(child, &mut status, 0) == -1
                && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
        }
        unshared?;
        match (said, code) {
            (1, 0) => Ok(()),
            (1, code) => Err(io::Error::from_raw_os_error(code.into())),
            _ => Err(io::Error::other(
                "the process that maps the users ended early",
            )),
        }
    }
}

/// In PID 1 of the new PID namespace: mounts the namespace's /proc, read-only (the kernel's settings are in it), an
/// empty /dev/shm, whose contents count as the run's memory, and a file system that lists the namespace's message
/// queues. Returns what gives every run the same process IDs.
pub(crate) fn become_init() -> io::Result<Pids> {
    let hidden = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
    // SAFETY: plain system calls with static C strings.
    unsafe {
        // The counter of process IDs is written through a /proc of our own, writable, that is gone before any run:
        // the /proc that runs see stays read-only throughout.
        mount(Some(c"proc"), c"/dev/shm", Some(c"proc"), hidden)?;
        let pids = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/shm/sys/kernel/ns_last_pid");
        checked(super::mounts::unmount(c"/dev/shm", libc::MNT_DETACH))?;
        let pids = Pids(pids?);
        mount(
            Some(c"proc"),
            c"/proc",
            Some(c"proc"),
            hidden | libc::MS_RDONLY,
        )?;
        mount_with(
            Some(c"tmpfs"),
            c"/dev/shm",
            Some(c"tmpfs"),
            hidden,
            c"size=64m,nr_inodes=256,mode=1777",
        )?;
        mount(
            Some(c"mqueue"),
            c"/dev/mqueue",
            Some(c"mqueue"),
            hidden | libc::MS_RDONLY,
        )?;
        Ok(pids)
    }
}

/// Hides PID 1, the worker, from its runs: an empty read-only file system over its entry in /proc. There, its
/// stat showed what the children it reaped had used (page faults, CPU time), which a run could move by a number of
/// its choosing for the next run to read, and its status and scheduling counters what the runs made it do. The
/// worker opens what it reads of itself before (its list of children, its status), since its /proc/self is this
/// entry too.
pub(crate) fn hide_init() -> io::Result<()> {
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
    // SAFETY: plain system calls with static C strings.
    unsafe {
        mount_with(
            Some(c"tmpfs"),
            c"/proc/1",
            Some(c"tmpfs"),
            flags,
            c"size=4k,nr_inodes=1,mode=0555",
        )
    }
}

/// The namespace's counter of process IDs, which PID 1 sets back before each run. Process IDs are handed out in
/// turn, so without it a program's ID would tell how many processes the runs before it made: with it, every run's
/// program is PID 2, and its own children take 3, 4 and on, whatever ran before.
pub(crate) struct Pids(std::fs::File);

impl Pids {
    /// Makes the next process ID 2. Every process but PID 1 must be gone.
    pub fn rewind(&self) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.0.write_at(b"1", 0).map(drop)
    }
}

/// A run's working directory made writable in the read-only view, for as long as this lives: a mount of its own,
/// scratch space in memory or the folder itself bound onto itself.
pub(crate) struct Workdir(CString);

impl Workdir {
    /// Mounts the run's folder at `path`: scratch space of this size, or the folder itself; either way owned by
    /// `owner` (a user inside the namespaces) if given.
    pub fn mount(
        path: &Path,
        scratch: Option<Bytes>,
        owner: Option<libc::uid_t>,
    ) -> io::Result<Workdir> {
        let path = CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: plain system calls with C strings.
        unsafe {
            match scratch {
                Some(size) => mount_scratch(&path, size, owner)?,
                // The folder itself, bound where it is: read-only as the view is, until it is made writable.
                None => {
                    mount(Some(&path), &path, None, libc::MS_BIND | libc::MS_REC)?;
                    set_read_only(&path, false, false)?;
                    if let Some(id) = owner {
                        checked(libc::chown(path.as_ptr(), id, id))?;
                    }
                }
            }
            Ok(Workdir(path))
        }
    }

    /// Hands everything in the folder back to root, once the run is over: what a compiler made is then the
    /// judge's, and no later run (as the run user) may change it. Links are not followed.
    pub fn give_back(&self) {
        let path = Path::new(std::ffi::OsStr::from_bytes(self.0.as_bytes()));
        for entry in walkdir::WalkDir::new(path)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            if let Ok(name) = CString::new(entry.path().as_os_str().as_bytes()) {
                // SAFETY: lchown takes a C string and two integers.
                unsafe { libc::lchown(name.as_ptr(), 0, 0) };
            }
        }
    }
}

/// Mounts scratch space of `size` at `path`, owned by `owner` if given.
unsafe fn mount_scratch(path: &CStr, size: Bytes, owner: Option<libc::uid_t>) -> io::Result<()> {
    let owned = owner
        .map(|id| format!(",uid={id},gid={id}"))
        .unwrap_or_default();
    let options = CString::new(format!(
        "size={},nr_inodes={},mode=0700{owned}",
        size.0,
        super::Limits::FILES
    ))
    .expect("no NUL");
    // SAFETY: as required of our caller.
    unsafe {
        mount_with(
            Some(c"tmpfs"),
            path,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            &options,
        )
    }
}

impl Drop for Workdir {
    fn drop(&mut self) {
        // SAFETY: umount2 takes a C string and flags. Every process of the run is gone by now.
        unsafe { super::mounts::unmount(&self.0, libc::MNT_DETACH) };
    }
}

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
/// its output the judge's file, and the holder itself read-only.
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

    /// Mounts a solution's run in the holder: the holder over the folder that holds `workdir` (named
    /// [`HELD_WORKDIR`]), scratch space of `size` (owned by `owner` if given) on its folder, and where its output is
    /// a regular file (`stdout` is what the harness opened), that file as a detached mount (see `View::detached`) on
    /// its `output`.
    /// Returns what unmounts them all, and `stdout` opened again through the holder: the program's output, which it
    /// may open again by name.
    pub fn mount(
        &self,
        workdir: &Path,
        size: Bytes,
        owner: Option<libc::uid_t>,
        output: Option<(OwnedFd, std::fs::Metadata)>,
    ) -> io::Result<(Workdir, Option<std::fs::File>)> {
        let folder = workdir
            .parent()
            .filter(|_| workdir.file_name() == Some(HELD_WORKDIR.as_ref()))
            .ok_or_else(|| io::Error::other("the working directory cannot be held"))?;
        let folder = CString::new(folder.as_os_str().as_bytes())?;
        // SAFETY: plain system calls with C strings. The bind of the read-only holder is read-only.
        unsafe { mount(Some(Self::PLACE), &folder, None, libc::MS_BIND)? };
        // Unmounted with all that is mounted in it when dropped, from here on.
        let held = Workdir(folder);
        let workdir = CString::new(workdir.as_os_str().as_bytes())?;
        // SAFETY: as above.
        unsafe { mount_scratch(&workdir, size, owner)? };
        let Some((tree, stdout)) = output else {
            return Ok((held, None));
        };
        let output = [held.0.as_bytes(), b"/output"].concat();
        let output = CString::new(output)?;
        super::mounts::move_to(tree.as_raw_fd(), libc::AT_FDCWD, &output)?;
        let path = Path::new(std::ffi::OsStr::from_bytes(output.as_bytes()));
        let opened = std::fs::OpenOptions::new().write(true).open(path)?;
        let is = opened.metadata()?;
        if (stdout.dev(), stdout.ino()) != (is.dev(), is.ino()) {
            return Err(io::Error::other("the output in view is another file"));
        }
        Ok((held, Some(opened)))
    }
}

/// In PID 1: kills every other process of the namespace, and reaps them all.
pub(crate) fn kill_all() {
    // Every process of the namespace descends from its init, through parents alive or, once they end, through
    // the init itself: with no child, there is no other process. Most runs leave none, and `kill(-1)` goes through
    // every process of the machine to find those in the namespace (6 us a run).
    if !super::process::has_children() {
        return;
    }
    // SAFETY: kill takes plain integers; from PID 1 of a namespace, -1 is every other process in it.
    unsafe { libc::kill(-1, libc::SIGKILL) };
    super::process::kill_and_reap_all(None);
}

/// Tells whether the mounts of this mount namespace changed: the kernel marks its mount table when they do.
pub(crate) struct MountWatch(std::fs::File);

impl MountWatch {
    pub fn new() -> io::Result<MountWatch> {
        let watch = MountWatch(std::fs::File::open("/proc/self/mountinfo")?);
        watch.changed();
        Ok(watch)
    }

    /// Whether a mount was made or removed since the last call.
    pub fn changed(&self) -> bool {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.0.as_raw_fd(),
            events: libc::POLLPRI,
            revents: 0,
        };
        // SAFETY: one valid pollfd; no waiting.
        unsafe {
            libc::poll(&mut fd, 1, 0) > 0 && fd.revents & (libc::POLLPRI | libc::POLLERR) != 0
        }
    }
}

/// In PID 1, once a run is over: what it left in the namespaces that the next run would find, if anything; `mounted`
/// says whether the mounts changed while it ran, and `shm` what it did to /dev/shm. System V objects and message
/// queues are looked for only where a run could make them (`ipc`): the system-call filter refuses them.
pub(crate) fn leftovers(mounted: bool, shm: &ShmWatch, ipc: bool) -> Option<String> {
    let mut found = Vec::new();
    if holds_files(c"/dev/shm") {
        found.push("files in /dev/shm".to_owned());
    } else if shm.changed() {
        found.push("changes to /dev/shm".to_owned());
    }
    if ipc {
        let not_empty = |dir: &str| std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some());
        if not_empty("/dev/mqueue") {
            found.push("message queues".to_owned());
        }
        let objects = system_v_objects();
        for (count, what) in
            objects
                .into_iter()
                .zip(["shared memory", "message queues", "semaphores"])
        {
            if count != Some(0) {
                found.push(format!("System V {what}"));
            }
        }
    }
    if mounted {
        found.push("a mount".to_owned());
    }
    (!found.is_empty()).then(|| found.join(", "))
}

/// How many System V shared memory segments, message queues and semaphore sets this IPC namespace holds, as the
/// kernel counts them (one call each, where listing them in /proc/sysvipc takes three); None where it cannot be
/// asked.
fn system_v_objects() -> [Option<u64>; 3] {
    /// What `shmctl(SHM_INFO)` fills in, of which the first field is the count (`struct shm_info`).
    #[repr(C)]
    #[derive(Default)]
    struct ShmInfo {
        used_ids: libc::c_int,
        rest: [libc::c_ulong; 5],
    }
    const SHM_INFO: libc::c_int = 14;
    let mut shm = ShmInfo::default();
    // SAFETY: with SHM_INFO, shmctl fills in a `struct shm_info`, which `shm` is.
    let shm_got = unsafe { libc::shmctl(0, SHM_INFO, (&raw mut shm).cast()) };
    // SAFETY: a zeroed msginfo is valid; with MSG_INFO, msgctl fills it in.
    let mut msg: libc::msginfo = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let msg_got = unsafe { libc::msgctl(0, libc::MSG_INFO, (&raw mut msg).cast()) };
    // SAFETY: a zeroed seminfo is valid; with SEM_INFO, semctl fills in the one its fourth argument points to.
    let mut sem: libc::seminfo = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let sem_got = unsafe { libc::semctl(0, 0, libc::SEM_INFO, &raw mut sem) };
    let count =
        |got: libc::c_int, n: libc::c_int| (got >= 0).then(|| u64::try_from(n).unwrap_or(u64::MAX));
    [
        count(shm_got, shm.used_ids),
        count(msg_got, msg.msgpool),
        count(sem_got, sem.semusz),
    ]
}

/// What a run can change of the worker's /dev/shm without leaving a file in it: its root's times, mode and owner
/// (which making and removing a file there moves on, and which a run that is the namespaces' root, as an ordinary
/// user's judge's runs are, may set at will), and the file system's count of inodes made, which every file moves
/// on, named or not (`O_TMPFILE`). After each run, the watch makes an unnamed file of its own and expects the inode
/// number after its last one's.
pub(crate) struct ShmWatch {
    root: OwnedFd,
    seen: std::cell::Cell<Option<ShmSeen>>,
}

/// What the watch saw of /dev/shm at its last look.
#[derive(Clone, Copy, PartialEq)]
struct ShmSeen {
    /// Access, modification and change times, in seconds and nanoseconds.
    times: [(i64, u32); 3],
    mode: u16,
    owner: (u32, u32),
    inode: u64,
}

impl ShmWatch {
    /// Starts watching the /dev/shm that [`become_init`] mounted.
    pub fn new() -> io::Result<ShmWatch> {
        // SAFETY: open takes a C string and flags; a non-negative result is a new descriptor.
        let root = checked(unsafe {
            libc::open(
                c"/dev/shm".as_ptr(),
                libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: a new descriptor that nothing else owns.
        let root = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(root) };
        let watch = ShmWatch {
            root,
            seen: std::cell::Cell::new(None),
        };
        watch.seen.set(Some(watch.look()?));
        Ok(watch)
    }

    /// Whether /dev/shm changed since the last call (or since it was made); true where it cannot be looked at.
    pub fn changed(&self) -> bool {
        let now = self.look().ok();
        let before = self.seen.replace(now);
        match (before, now) {
            (Some(before), Some(now)) => {
                let expected = ShmSeen {
                    inode: before.inode + 1,
                    ..before
                };
                now != expected
            }
            _ => true,
        }
    }

    /// The root's times, mode and owner, then the number of a new unnamed file's inode.
    fn look(&self) -> io::Result<ShmSeen> {
        // SAFETY: a zeroed statx is valid; statx writes only to it, given our descriptor and an empty C string.
        let mut root: libc::statx = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        checked(unsafe {
            libc::statx(
                self.root.as_raw_fd(),
                c"".as_ptr(),
                libc::AT_EMPTY_PATH,
                libc::STATX_BASIC_STATS,
                &mut root,
            )
        })?;
        // SAFETY: openat takes our descriptor, a C string, flags and a mode.
        let file = checked(unsafe {
            libc::openat(
                self.root.as_raw_fd(),
                c".".as_ptr(),
                libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC,
                0o600,
            )
        })?;
        // SAFETY: a new descriptor that nothing else owns; it is closed when dropped.
        let file = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(file) };
        let inode = std::fs::File::from(file).metadata()?.ino();
        let time = |t: libc::statx_timestamp| (t.tv_sec, t.tv_nsec);
        Ok(ShmSeen {
            times: [
                time(root.stx_atime),
                time(root.stx_mtime),
                time(root.stx_ctime),
            ],
            mode: root.stx_mode,
            owner: (root.stx_uid, root.stx_gid),
            inode,
        })
    }
}

/// Whether the in-memory file system at `path` (mounted with a number of inodes, as the worker's /dev/shm is) holds
/// anything but its root: a file there, or one removed but still open, is an inode in use (one call, where listing
/// it takes five). True if it cannot be asked, or counts no inodes.
fn holds_files(path: &CStr) -> bool {
    // SAFETY: a zeroed statfs is valid, and statfs writes only to it, given a C string.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::statfs(path.as_ptr(), &mut stat) } == -1 || stat.f_files == 0 {
        return true;
    }
    stat.f_files.saturating_sub(stat.f_ffree) > 1
}

/// Whether the kernel counts processes towards RLIMIT_NPROC per user namespace (Linux 5.14 and later). Before,
/// the count was every process of the user on the machine, and a limit for one run would fail in a busy session.
pub(crate) fn counts_processes_per_namespace() -> bool {
    static COUNTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COUNTS.get_or_init(kernel_counts_processes_per_namespace)
}

fn kernel_counts_processes_per_namespace() -> bool {
    // SAFETY: a zeroed utsname is valid, and uname fills the structure it is given.
    let mut name: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::uname(&mut name) } == -1 {
        return false;
    }
    // SAFETY: uname's fields are NUL-terminated.
    let release = unsafe { CStr::from_ptr(name.release.as_ptr()) }.to_string_lossy();
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    (major, minor) >= (5, 14)
}

/// The devices a run may use; the rest of /dev (disks, terminals, the kernel log) is not there at all.
const DEVICES: [(&CStr, &CStr); 5] = [
    (c"/dev/null", c"null"),
    (c"/dev/zero", c"zero"),
    (c"/dev/full", c"full"),
    (c"/dev/random", c"random"),
    (c"/dev/urandom", c"urandom"),
];

/// Replaces /dev with a small file system: the few harmless devices (bound from the real ones), the links to the
/// standard streams, and a folder on which each run mounts its own shared memory.
unsafe fn private_dev() -> io::Result<()> {
    // SAFETY: plain system calls with static C strings; every descriptor opened here is closed here.
    unsafe {
        // The devices are taken along as detached mounts before the real /dev is covered.
        let mut taken = [-1; DEVICES.len()];
        for (fd, (path, _)) in taken.iter_mut().zip(DEVICES) {
            *fd = std::os::fd::IntoRawFd::into_raw_fd(super::mounts::open_tree(
                libc::AT_FDCWD,
                path,
                0,
            )?);
        }
        let flags = libc::MS_NOSUID | libc::MS_NOEXEC;
        mount_with(
            Some(c"tmpfs"),
            c"/dev",
            Some(c"tmpfs"),
            flags,
            c"size=64k,nr_inodes=64,mode=0755",
        )?;
        let dev = checked(libc::open(
            c"/dev".as_ptr(),
            libc::O_DIRECTORY | libc::O_CLOEXEC,
        ))?;
        for (fd, (_, name)) in taken.into_iter().zip(DEVICES) {
            let placeholder = checked(libc::openat(
                dev,
                name.as_ptr(),
                libc::O_CREAT | libc::O_CLOEXEC,
                0o666,
            ))?;
            libc::close(placeholder);
            super::mounts::move_to(fd, dev, name)?;
            libc::close(fd);
        }
        for (target, name) in [
            (c"/proc/self/fd", c"fd"),
            (c"/proc/self/fd/0", c"stdin"),
            (c"/proc/self/fd/1", c"stdout"),
            (c"/proc/self/fd/2", c"stderr"),
        ] {
            checked(libc::symlinkat(target.as_ptr(), dev, name.as_ptr()))?;
        }
        // Where the runs' own shared memory and message queues are mounted, and the worker's holder.
        checked(libc::mkdirat(dev, c"shm".as_ptr(), 0o1777))?;
        checked(libc::mkdirat(dev, c"mqueue".as_ptr(), 0o755))?;
        checked(libc::mkdirat(dev, c"holder".as_ptr(), 0o755))?;
        libc::close(dev);
    }
    Ok(())
}

pub(super) unsafe fn mount(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
) -> io::Result<()> {
    // SAFETY: as required of our caller.
    unsafe { mount_with(source, target, fstype, flags, c"") }
}

pub(super) unsafe fn mount_with(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    options: &CStr,
) -> io::Result<()> {
    let ptr = |s: Option<&CStr>| s.map_or(std::ptr::null(), CStr::as_ptr);
    let data = match options.is_empty() {
        true => std::ptr::null(),
        false => options.as_ptr(),
    };
    // SAFETY: NUL-terminated strings or null pointers, as mount(2) takes them.
    checked(unsafe {
        super::syscalls::keyed(
            libc::SYS_mount,
            [
                ptr(source) as usize,
                target.as_ptr() as usize,
                ptr(fstype) as usize,
                flags as usize,
                data as usize,
            ],
        ) as libc::c_int
    })?;
    Ok(())
}

/// Sets or clears read-only on the mount at `path` (and every mount below it with `recursive`).
unsafe fn set_read_only(path: &CStr, recursive: bool, read_only: bool) -> io::Result<()> {
    let mut attr: libc::mount_attr = unsafe { std::mem::zeroed() };
    if read_only {
        attr.attr_set = libc::MOUNT_ATTR_RDONLY;
    } else {
        attr.attr_clr = libc::MOUNT_ATTR_RDONLY;
    }
    let flags = if recursive { libc::AT_RECURSIVE } else { 0 };
    // SAFETY: mount_setattr reads `attr`, of the size given.
    let ret = unsafe {
        super::syscalls::keyed(
            libc::SYS_mount_setattr,
            [
                libc::AT_FDCWD as usize,
                path.as_ptr() as usize,
                flags as usize,
                (&raw const attr) as usize,
                std::mem::size_of::<libc::mount_attr>(),
            ],
        )
    };
    checked(ret as libc::c_int)?;
    Ok(())
}

unsafe fn write_file(path: &std::ffi::CStr, contents: &std::ffi::CStr) -> io::Result<()> {
    // SAFETY: plain system calls on NUL-terminated strings.
    unsafe {
        let fd = checked(libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC))?;
        let bytes = contents.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let error = io::Error::last_os_error();
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(error);
        }
    }
    Ok(())
}

pub(super) fn checked(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// Runs `f` in a throwaway child process and reports how it went: for probing what the kernel allows without
/// changing this process. `f` must only make system calls.
pub(crate) fn in_child(f: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    // SAFETY: the child only runs `f`, which makes system calls, and exits without unwinding.
    let pid = checked(unsafe { libc::fork() })?;
    if pid == 0 {
        let code = match f() {
            Ok(()) => 0,
            Err(e) => e.raw_os_error().unwrap_or(libc::EINVAL),
        };
        // SAFETY: _exit ends the child at once.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waitpid writes only to `status`.
    while unsafe { libc::waitpid(pid, &mut status, 0) } == -1 {
        let e = io::Error::last_os_error();
        if e.raw_os_error() != Some(libc::EINTR) {
            return Err(e);
        }
    }
    match libc::WEXITSTATUS(status) {
        _ if !libc::WIFEXITED(status) => Err(io::Error::other("the probe crashed")),
        0 => Ok(()),
        code => Err(io::Error::from_raw_os_error(code)),
    }
}

/// Checks that the namespaces can be made: in a child, the whole way a worker's runs go, /proc, /dev/shm and
/// the working directory in memory included, and a cgroup namespace.
pub(crate) fn probe() -> Result<String, String> {
    let fail = |e: io::Error| format!("cannot create user, PID, network and mount namespaces: {e}");
    let dir = std::env::temp_dir();
    in_child(|| {
        // The runs' own user, where there is one (a root judge's), owns their folder.
        let run_user = enter()?;
        in_child(|| {
            become_init()?.rewind()?;
            let _workdir = Workdir::mount(&dir, Some(Bytes::mib(1)), run_user)?;
            in_child(enter_cgroup_namespace)
        })
    })
    .map_err(fail)?;
    // SAFETY: geteuid has no preconditions.
    let user = if unsafe { libc::geteuid() } == 0 {
        format!(
            "user (solutions and compilers run as an unprivileged user of their own, {RUN_USER_OUTSIDE} outside, \
             who reaches root's files only where a run needs them; the problem's own tools as root)"
        )
    } else {
        "user (root inside, the judge's own user outside)".to_owned()
    };
    Ok(format!(
        "{user}, PID with its own read-only /proc, network (none), mount (read-only but the run's folder, a \
         /dev of five devices), IPC, UTS, cgroup"
    ))
}

/// Gives the calling process a cgroup namespace of its own, rooted at the cgroup it is in: the program takes one
/// once it has joined the run's cgroup, before it drops the capability this needs. Only makes system calls.
pub(crate) fn enter_cgroup_namespace() -> io::Result<()> {
    // SAFETY: unshare takes plain integers.
    checked(unsafe { super::mounts::unshare(libc::CLONE_NEWCGROUP) })?;
    Ok(())
}
