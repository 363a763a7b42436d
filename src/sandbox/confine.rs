//! Confining one run: everything is prepared before fork, so that between fork and exec the child only makes
//! system calls, in this order: take its own session, set the rlimits, ask to die with the supervisor, enter the
//! namespaces, restrict the file system, join the run's cgroup (and a cgroup namespace of its own), drop every
//! capability, install the system-call filter.
//!
//! The supervisor is single-threaded until the program has started (its stderr reader is started after), which
//! is what makes the few allocations of the Landlock crate safe in the child.

use super::cgroup::{self, RunCgroup};
use super::filesystem::{self, FsRules};
use super::isolation::Layer;
use super::limits::RlimitSet;
use super::namespace::{self, Namespaces};
use super::spec::{Request, Trust};
use super::syscalls::SyscallFilter;
use std::io;
use std::os::fd::RawFd;
use std::path::PathBuf;

/// The parts of a run's confinement the child enters.
pub(crate) struct Confinement {
    cgroup_fds: Vec<RawFd>,
    rlimits: RlimitSet,
    namespaces: Option<Namespaces>,
    files: Option<FsRules>,
    syscalls: Option<SyscallFilter>,
}

/// Has the kernel kill the calling process when its parent dies, so that a run never outlives a supervisor that
/// was killed outright. The parent is checked afterwards where it can be (`expected`), in case it died before.
/// Only makes system calls.
pub(crate) fn die_with_parent(expected: Option<libc::pid_t>) -> io::Result<()> {
    // SAFETY: prctl and getppid take and return plain integers.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) == -1 {
            return Err(io::Error::last_os_error());
        }
        if expected.is_some_and(|parent| libc::getppid() != parent) {
            libc::_exit(127);
        }
    }
    Ok(())
}

/// Leaves the program no capabilities at all, even as root (in its user namespace or, without one, on the host), and
/// whatever capabilities the judge was started with: it can then neither raise its hard limits again nor override
/// file permissions. Ambient capabilities go first (they would survive exec), then the bounding set (which exec as
/// root would grant from; dropping needs a capability of its own, so without one there is nothing to drop), then
/// the permitted, effective and inheritable sets; and exec may not grant any again. Only makes system calls.
fn drop_capabilities() -> io::Result<()> {
    // SAFETY: prctl takes plain integers. Old kernels without ambient capabilities refuse; they have none.
    unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        )
    };
    for capability in 0..64 {
        // SAFETY: as above.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) } == -1
            && io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL)
        {
            // Past the last capability this kernel knows.
            break;
        }
    }
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let header = Header {
        version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3: two Data, for 64 capabilities
        pid: 0,
    };
    let none = [const {
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }
    }; 2];
    // SAFETY: capset reads a version 3 header and two data structures.
    if unsafe { libc::syscall(libc::SYS_capset, &header, none.as_ptr()) } == -1 {
        return Err(io::Error::last_os_error());
    }
    // Nor may it gain any by exec: setuid programs and file capabilities no longer raise privileges.
    // SAFETY: prctl takes plain integers.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// What a worker makes once and keeps for all its runs: its cgroup, the system-call filter, and what solutions may
/// read for the hidden folders they are last asked to keep out of.
#[derive(Default)]
pub(crate) struct Reused {
    pub cgroup: Option<RunCgroup>,
    namespaces: Option<namespace::Shared>,
    syscalls: Option<SyscallFilter>,
    /// The hidden folders, and the folders readable around them.
    readable: Option<(Vec<PathBuf>, Vec<PathBuf>)>,
}

impl Reused {
    fn cgroup(&mut self, limits: &super::Limits) -> io::Result<&RunCgroup> {
        if self.cgroup.is_none() {
            let hierarchy = cgroup::Hierarchy::find().map_err(io::Error::other)?;
            self.cgroup = Some(RunCgroup::create(&hierarchy)?);
        }
        let cgroup = self.cgroup.as_mut().expect("made above");
        cgroup.prepare(limits)?;
        Ok(cgroup)
    }

    fn namespaces(&mut self) -> io::Result<&namespace::Shared> {
        if self.namespaces.is_none() {
            self.namespaces = Some(namespace::Shared::make()?);
        }
        Ok(self.namespaces.as_ref().expect("made above"))
    }

    fn syscalls(&mut self) -> Result<SyscallFilter, String> {
        if self.syscalls.is_none() {
            self.syscalls = Some(SyscallFilter::new()?);
        }
        Ok(self.syscalls.clone().expect("made above"))
    }

    fn readable_outside(&mut self, hidden: &[PathBuf]) -> &[PathBuf] {
        if self
            .readable
            .as_ref()
            .is_none_or(|(known, _)| known != hidden)
        {
            let around = filesystem::readable_outside(hidden);
            self.readable = Some((hidden.to_vec(), around));
        }
        &self.readable.as_ref().expect("found above").1
    }
}

/// Prepares the layers `request` asks for, making what a worker reuses the first time. Any failure is an error of
/// the run: the harness only asks for layers that its probe found working, so one that fails now must not be
/// skipped quietly.
pub(crate) fn prepare(request: &Request, reused: &mut Reused) -> Result<Confinement, String> {
    let spec = &request.spec;
    let wants = |layer| request.layers.contains(layer);
    let cgroup_fds = if wants(Layer::Cgroup) {
        reused
            .cgroup(&spec.limits)
            .map_err(|e| format!("cannot set up the run's cgroup: {e}"))?
            .join_fds()
    } else {
        Vec::new()
    };
    let files = if wants(Layer::Landlock) {
        let (hidden, readable): (&[PathBuf], &[PathBuf]) = match &spec.trust {
            Trust::Tool => (&[], &[]),
            Trust::Solution { readable } => (&request.hidden, readable),
        };
        let around = reused.readable_outside(hidden);
        Some(FsRules::new(&spec.workdir, around, readable, &spec.stdout)?)
    } else {
        None
    };
    let syscalls = wants(Layer::Seccomp)
        .then(|| reused.syscalls())
        .transpose()?;
    Ok(Confinement {
        rlimits: RlimitSet::for_limits(&spec.limits, !cgroup_fds.is_empty()),
        cgroup_fds,
        namespaces: if wants(Layer::Namespaces) {
            let shared = reused
                .namespaces()
                .map_err(|e| format!("cannot make the run's namespaces: {e}"))?;
            let namespaces = Namespaces::new(shared, &spec.workdir, spec.scratch)
                .map_err(|e| format!("bad working directory: {e}"))?;
            Some(namespaces)
        } else {
            None
        },
        files,
        syscalls,
    })
}

impl Confinement {
    /// Whether the program runs below a relay and an init (see `namespace`), rather than as the supervisor's own
    /// child.
    pub fn nested(&self) -> bool {
        self.namespaces.is_some()
    }

    /// Enters every layer, in a child of `supervisor`, which it dies with. Returns in the process that is to exec
    /// the program.
    ///
    /// # Safety
    /// Must be called between fork and exec, in the child of a single-threaded process.
    pub unsafe fn enter(&mut self, supervisor: libc::pid_t) -> io::Result<()> {
        // Its own session, and so its own process group, so the whole run can be signalled at once, and without a
        // controlling terminal, so it can neither read from nor type into the judge's.
        // SAFETY: setsid has no preconditions.
        if unsafe { libc::setsid() } == -1 {
            return Err(io::Error::last_os_error());
        }
        self.rlimits.apply()?;
        die_with_parent(Some(supervisor))?;
        if let Some(namespaces) = &self.namespaces {
            // SAFETY: as required of our caller.
            unsafe { namespaces.enter()? };
        }
        if let Some(files) = &mut self.files {
            files.restrict(self.namespaces.is_some())?;
        }
        // Only the program joins the cgroup, as late as it can: what is left to do after is the few system calls
        // that drop its capabilities and install its filter, charged to it. It then takes a cgroup namespace of its
        // own, rooted at the run's cgroup, which needs the capabilities it is about to drop.
        cgroup::join(&self.cgroup_fds)?;
        if self.namespaces.is_some() {
            namespace::enter_cgroup_namespace()?;
        }
        drop_capabilities()?;
        if let Some(syscalls) = &self.syscalls {
            syscalls.apply()?;
        }
        Ok(())
    }
}
