//! User, PID, network, mount, IPC, UTS and cgroup namespaces for a run.
//!
//! What is the same for every run of a worker is made once, by a helper process that the worker forks when its
//! first run asks for namespaces ([`Shared`]): a user namespace (root inside, the judge's own user outside), a
//! network namespace with only a loopback interface, and it down (no network at all), and a mount namespace that
//! is the read-only view every run starts from: the whole file system read-only, and /dev holding only five
//! harmless devices and the links to the standard streams. The worker keeps them open, and the helper ends.
//!
//! Between fork and exec, a run's child enters those three and unshares a PID, mount, IPC and UTS namespace of its
//! own (its mount namespace a copy of the read-only view), then forks twice more, so that a run is three processes
//! deep:
//!
//! - the *relay*, still in the supervisor's PID namespace: the supervisor's direct child, which ends exactly as
//!   the program ended, so the supervisor reads the program's exit code or signal from it;
//! - the *init*, PID 1 of the new PID namespace: it makes the run's working directory writable (for a solution, a
//!   fresh in-memory file system as large as its memory limit), gives the run an empty /dev/shm and a /proc of its
//!   own, read-only; it reaps whatever is orphaned in the run and, once the program has ended, exits, and the
//!   kernel kills everything left in the namespace;
//! - the *program*, PID 2, which goes on to exec. Being PID 2 rather than PID 1, it gets the ordinary signal
//!   semantics: abort() and raise() work as they do anywhere. Once it has joined the run's cgroup, it takes a cgroup
//!   namespace of its own, rooted there.
//!
//! Nothing a run does in the shared namespaces outlives it: its processes die with its init, sockets with their
//! processes, and without capabilities it can change neither the network, nor the host name, nor any mount.

use crate::units::Bytes;
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The namespaces a worker makes once, which every run of it enters.
const SHARED: libc::c_int = libc::CLONE_NEWUSER | libc::CLONE_NEWNET | libc::CLONE_NEWNS;

/// The namespaces each run makes for itself.
const OWN: libc::c_int =
    libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;

/// The user, network and mount namespaces of a worker's runs, kept open by the worker.
pub(crate) struct Shared {
    user: OwnedFd,
    net: OwnedFd,
    /// The read-only view each run's mount namespace starts as a copy of.
    view: OwnedFd,
}

impl Shared {
    /// Makes the namespaces, in a helper process that ends once the worker holds them.
    pub fn make() -> io::Result<Shared> {
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let uid_map = CString::new(format!("0 {uid} 1")).expect("no NUL");
        let gid_map = CString::new(format!("0 {gid} 1")).expect("no NUL");
        // SAFETY: plain system calls; the helper only makes system calls on values prepared before fork.
        unsafe {
            let (ready_read, ready_write) = status_pipe()?;
            let (done_read, done_write) = status_pipe()?;
            let helper = checked(libc::fork())?;
            if helper == 0 {
                libc::close(ready_read);
                libc::close(done_write);
                let made = make_shared(&uid_map, &gid_map);
                let byte = [u8::from(made.is_ok())];
                libc::write(ready_write, byte.as_ptr().cast(), 1);
                // Wait until the worker has opened the namespaces (or is gone), then end.
                libc::read(done_read, [0u8; 1].as_mut_ptr().cast(), 1);
                libc::_exit(0);
            }
            libc::close(ready_write);
            libc::close(done_read);
            let mut byte = [0u8; 1];
            let got = libc::read(ready_read, byte.as_mut_ptr().cast(), 1);
            libc::close(ready_read);
            let shared = if got == 1 && byte[0] == 1 {
                let open = |name: &str| -> io::Result<OwnedFd> {
                    let path = CString::new(format!("/proc/{helper}/ns/{name}")).expect("no NUL");
                    let fd = checked(libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC))?;
                    Ok(OwnedFd::from_raw_fd(fd))
                };
                (|| {
                    Ok(Shared {
                        user: open("user")?,
                        net: open("net")?,
                        view: open("mnt")?,
                    })
                })()
            } else {
                Err(io::Error::other(
                    "the helper could not make the user, network and mount namespaces",
                ))
            };
            libc::close(done_write);
            let mut status = 0;
            while libc::waitpid(helper, &mut status, 0) == -1
                && *libc::__errno_location() == libc::EINTR
            {}
            shared
        }
    }
}

/// In the helper: unshares the shared namespaces, maps root inside to our own user outside, and makes the mount
/// namespace the read-only view.
unsafe fn make_shared(uid_map: &CStr, gid_map: &CStr) -> io::Result<()> {
    // SAFETY: plain system calls.
    unsafe {
        // The worker made itself not dumpable, and this child inherited that: the kernel then hands /proc/self to
        // root, and a judge that is not root may not write its own maps. This process holds nothing a run could
        // use, and ends as soon as the worker holds the namespaces.
        checked(libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0))?;
        checked(libc::unshare(SHARED))?;
        write_file(c"/proc/self/setgroups", c"deny")?;
        write_file(c"/proc/self/uid_map", uid_map)?;
        write_file(c"/proc/self/gid_map", gid_map)?;
        // Nothing mounted here may reach the judge's mount namespace.
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE)?;
        private_dev()?;
        set_read_only(c"/", true, true)?;
    }
    Ok(())
}

/// Everything the child needs to enter the namespaces, prepared before fork so that the child only makes system
/// calls.
pub(crate) struct Namespaces {
    /// The worker's user, network and mount namespaces.
    user: RawFd,
    net: RawFd,
    view: RawFd,
    /// The run's working directory: the one place left writable in its mount namespace.
    workdir: CString,
    /// Mount options of the in-memory file system that replaces the working directory, if it is scratch space.
    scratch: Option<CString>,
    /// The process limit of the program, where the kernel counts a user's processes per user namespace: there it
    /// bounds the run's own processes only, relay and init included. (Root outside is exempt from it; its runs
    /// rely on the cgroup's.)
    max_processes: Option<libc::rlim_t>,
}

impl Namespaces {
    /// The run is root inside its user namespace and the worker's own user outside: it has no more rights over
    /// anything outside than the judge's user (which, for a judge run as root, is root's file permissions: the
    /// read-only view, Landlock and the empty capability sets are what hold such a run), and files it creates
    /// belong to the judge's user.
    pub fn new(shared: &Shared, workdir: &Path, scratch: Option<Bytes>) -> io::Result<Namespaces> {
        Ok(Namespaces {
            user: shared.user.as_raw_fd(),
            net: shared.net.as_raw_fd(),
            view: shared.view.as_raw_fd(),
            workdir: CString::new(workdir.as_os_str().as_bytes())?,
            scratch: scratch.map(|size| {
                CString::new(format!("size={},nr_inodes=16384,mode=0700", size.0)).expect("no NUL")
            }),
            max_processes: counts_processes_per_namespace()
                .then_some(libc::rlim_t::from(super::cgroup::MAX_TASKS) + 2),
        })
    }

    /// Enters the namespaces. Returns only in the program's process (PID 2 of the new PID namespace); the relay
    /// and the init above it never return.
    ///
    /// # Safety
    /// Must be called in a single-threaded child between fork and exec.
    pub unsafe fn enter(&self) -> io::Result<()> {
        // SAFETY: plain system calls on values prepared before fork.
        unsafe {
            self.unshare()?;
            let (read, write) = status_pipe()?;
            match checked(libc::fork())? {
                0 => {
                    libc::close(read);
                    // When the relay dies, so does the init, and with it the whole namespace. The relay is
                    // outside the namespace, so getppid() says 0 whether it lives or not and cannot be checked:
                    // if it died in the instant since fork, the harness kills the orphans on its way out.
                    super::confine::die_with_parent(None)?;
                    self.become_init(write)
                }
                init => {
                    close_all_but(read);
                    relay(init, read)
                }
            }
        }
    }

    /// Enters the worker's namespaces, and unshares the run's own.
    unsafe fn unshare(&self) -> io::Result<()> {
        // SAFETY: plain system calls on descriptors the worker keeps open.
        unsafe {
            checked(libc::setns(self.user, libc::CLONE_NEWUSER))?;
            checked(libc::setns(self.net, libc::CLONE_NEWNET))?;
            checked(libc::setns(self.view, libc::CLONE_NEWNS))?;
            checked(libc::unshare(OWN))?;
        }
        Ok(())
    }

    /// In PID 1: makes the working directory writable in the read-only view, gives the run an empty /dev/shm and
    /// mounts /proc for the new PID namespace, then forks the program and waits for it.
    unsafe fn become_init(&self, status: RawFd) -> io::Result<()> {
        // SAFETY: plain system calls with C strings prepared before fork.
        unsafe {
            // The working directory becomes a mount of its own (scratch space in memory, or itself bound onto
            // itself) and writable; cd into it anew, since the old working directory is the one underneath.
            let workdir = self.workdir.as_c_str();
            match &self.scratch {
                Some(options) => mount_with(
                    Some(c"tmpfs"),
                    workdir,
                    Some(c"tmpfs"),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    options,
                )?,
                None => mount(Some(workdir), workdir, None, libc::MS_BIND | libc::MS_REC)?,
            }
            set_read_only(workdir, false, false)?;
            checked(libc::chdir(workdir.as_ptr()))?;
            // Shared memory of the run's own, counted as its memory, and gone with it.
            let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
            mount_with(
                Some(c"tmpfs"),
                c"/dev/shm",
                Some(c"tmpfs"),
                flags,
                c"size=64m,nr_inodes=256,mode=1777",
            )?;
            // A /proc that shows the run's processes only, and read-only: the kernel's settings are in it.
            let proc_flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY;
            mount(Some(c"proc"), c"/proc", Some(c"proc"), proc_flags)?;
            match checked(libc::fork())? {
                0 => {
                    libc::close(status);
                    if let Some(max) = self.max_processes {
                        let limit = libc::rlimit {
                            rlim_cur: max,
                            rlim_max: max,
                        };
                        checked(libc::setrlimit(libc::RLIMIT_NPROC, &limit))?;
                    }
                    Ok(())
                }
                program => {
                    close_all_but(status);
                    init(program, status)
                }
            }
        }
    }
}

/// Whether the kernel counts processes towards RLIMIT_NPROC per user namespace (Linux 5.14 and later). Before,
/// the count was every process of the user on the machine, and a limit for one run would fail in a busy session.
pub(crate) fn counts_processes_per_namespace() -> bool {
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
            let flags = (libc::OPEN_TREE_CLONE | libc::OPEN_TREE_CLOEXEC) as libc::c_uint;
            *fd = checked(
                libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, path.as_ptr(), flags)
                    as libc::c_int,
            )?;
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
            checked(libc::syscall(
                libc::SYS_move_mount,
                fd,
                c"".as_ptr(),
                dev,
                name.as_ptr(),
                libc::MOVE_MOUNT_F_EMPTY_PATH,
            ) as libc::c_int)?;
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
        // Where each run mounts shared memory of its own.
        checked(libc::mkdirat(dev, c"shm".as_ptr(), 0o1777))?;
        libc::close(dev);
    }
    Ok(())
}

unsafe fn mount(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
) -> io::Result<()> {
    // SAFETY: as required of our caller.
    unsafe { mount_with(source, target, fstype, flags, c"") }
}

unsafe fn mount_with(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: libc::c_ulong,
    options: &CStr,
) -> io::Result<()> {
    let ptr = |s: Option<&CStr>| s.map_or(std::ptr::null(), CStr::as_ptr);
    let data = if options.is_empty() {
        std::ptr::null()
    } else {
        options.as_ptr().cast()
    };
    // SAFETY: NUL-terminated strings or null pointers, as mount(2) takes them.
    checked(unsafe { libc::mount(ptr(source), target.as_ptr(), ptr(fstype), flags, data) })?;
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
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags as libc::c_uint,
            &attr as *const libc::mount_attr,
            std::mem::size_of::<libc::mount_attr>(),
        )
    };
    checked(ret as libc::c_int)?;
    Ok(())
}

/// PID 1: reaps every process of the run that ends; when the program ends, hands its wait status to the relay and
/// exits, which kills the rest of the namespace.
unsafe fn init(program: libc::pid_t, status_pipe: RawFd) -> ! {
    // SAFETY: plain system calls.
    unsafe {
        loop {
            let mut status = 0;
            let pid = libc::waitpid(-1, &mut status, libc::__WALL);
            if pid == program {
                let bytes = status.to_ne_bytes();
                libc::write(status_pipe, bytes.as_ptr().cast(), bytes.len());
                libc::_exit(0);
            }
            if pid == -1 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(0);
            }
        }
    }
}

/// The relay: waits for the program's wait status from the init, then ends the same way.
unsafe fn relay(init: libc::pid_t, status_pipe: RawFd) -> ! {
    // SAFETY: plain system calls.
    unsafe {
        let mut bytes = [0u8; 4];
        let mut got = 0;
        while got < bytes.len() {
            let n = libc::read(
                status_pipe,
                bytes[got..].as_mut_ptr().cast(),
                bytes.len() - got,
            );
            if n > 0 {
                got += n as usize;
            } else if n == 0 || *libc::__errno_location() != libc::EINTR {
                break;
            }
        }
        let mut init_status = 0;
        while libc::waitpid(init, &mut init_status, 0) == -1
            && *libc::__errno_location() == libc::EINTR
        {}
        // Without the program's status, the init itself was killed (by the supervisor): end as it did.
        let status = if got == bytes.len() {
            i32::from_ne_bytes(bytes)
        } else {
            init_status
        };
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            let mut all: libc::sigset_t = std::mem::zeroed();
            libc::sigfillset(&mut all);
            libc::sigprocmask(libc::SIG_UNBLOCK, &all, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }
}

/// A pipe whose ends are closed on exec.
unsafe fn status_pipe() -> io::Result<(RawFd, RawFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`.
    checked(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    Ok((fds[0], fds[1]))
}

/// Closes every descriptor but `keep`: the relay and the init must not hold the program's output, its stderr
/// pipe, or the pipe through which the standard library learns that exec succeeded.
unsafe fn close_all_but(keep: RawFd) {
    // SAFETY: close_range takes plain integers.
    unsafe {
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
    }
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

fn checked(ret: libc::c_int) -> io::Result<libc::c_int> {
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

/// Checks that a child can enter every namespace.
pub(crate) fn probe() -> Result<String, String> {
    let fail = |e: io::Error| format!("cannot create user, PID, network and mount namespaces: {e}");
    let shared = Shared::make().map_err(fail)?;
    let scratch = Some(Bytes::mib(1));
    let namespaces =
        Namespaces::new(&shared, &std::env::temp_dir(), scratch).map_err(|e| e.to_string())?;
    // The whole way a run goes, /proc included: the child becomes a relay and returns as the program, which
    // exits at once, and the relay ends as it did.
    // SAFETY: the probe child is single-threaded (fork copies only the calling thread) and only makes calls.
    in_child(|| unsafe { namespaces.enter().and_then(|()| enter_cgroup_namespace()) })
        .map_err(fail)?;
    Ok("user (root inside, the judge's own user outside), PID with its own read-only /proc, network (none), \
        mount (read-only but the run's folder, a /dev of five devices), IPC, UTS, cgroup"
        .into())
}

/// Gives the calling process a cgroup namespace of its own, rooted at the cgroup it is in: the program takes one
/// once it has joined the run's cgroup, before it drops the capability this needs. Only makes system calls.
pub(crate) fn enter_cgroup_namespace() -> io::Result<()> {
    // SAFETY: unshare takes plain integers.
    checked(unsafe { libc::unshare(libc::CLONE_NEWCGROUP) })?;
    Ok(())
}
