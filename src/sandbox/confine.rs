//! Confining one run: everything is prepared before the program is started, so that the child (which shares the
//! worker's memory until exec, see `spawn`) only makes system calls, in this order: take its own process group, ask to
//! die with the worker, restrict the file system, set the rlimits, join the run's cgroup (and, in the worker's
//! namespaces, a cgroup namespace of its own), drop every capability. The namespaces and the system-call filter
//! are the worker's, which every program it starts inherits (see `namespace` and `syscalls`).

use super::cgroup::{self, RunCgroup};
use super::filesystem::{self, Fixed, FsRules};
use super::isolation::{Layer, Layers};
use super::limits::RlimitSet;
use super::namespace::{self, Holder, MountWatch, Pids, ShmWatch};
use super::spec::{Request, RunSpec, Trust};
use super::syscalls::SyscallFilter;
use super::view::View;
use std::io;
use std::os::fd::RawFd;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

/// The parts of a run's confinement the child enters.
pub(crate) struct Confinement {
    cgroup_fds: Vec<RawFd>,
    rlimits: RlimitSet,
    /// Whether the program runs in the worker's namespaces.
    namespaces: bool,
    /// The user (and group) it runs as in them, where it is not the worker's.
    run_as: Option<libc::uid_t>,
    files: Option<Rc<FsRules>>,
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

/// Empties what exec could grant capabilities from, for the calling process and everything it forks: the ambient
/// set (which survives exec) and the bounding set (which exec as root grants from; dropping needs a capability of
/// its own, so without one there is nothing to drop). Both are inherited and never grow again, so a worker drops
/// them once for all its runs, after it has entered its user namespace (where the bounding set starts full again).
/// Only makes system calls.
pub(crate) fn drop_exec_capabilities() {
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
}

/// Leaves the program no capabilities at all, even as root (in its user namespace or, without one, on the host), and
/// whatever capabilities the judge was started with: it can then neither raise its hard limits again nor override
/// file permissions. What exec could grant from is empty already (see [`drop_exec_capabilities`]); with `run_as`, it
/// becomes that user and group with no supplementary group; then the permitted, effective and inheritable sets go;
/// and exec may not grant any again. Only makes system calls.
fn drop_capabilities(run_as: Option<libc::uid_t>) -> io::Result<()> {
    if let Some(id) = run_as {
        // SAFETY: setgroups reads no list when its size is 0; setresgid and setresuid take plain integers.
        unsafe {
            if libc::setgroups(0, std::ptr::null()) == -1
                || libc::setresgid(id, id, id) == -1
                || libc::setresuid(id, id, id) == -1
            {
                return Err(io::Error::last_os_error());
            }
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

/// What a worker makes once and keeps for all its runs: its cgroup and namespaces (made when it starts, by the
/// process that keeps it), what it sets up in them and the system-call filter (see [`Reused::start_worker`]), and
/// what solutions may read for the hidden folders they are last asked to keep out of.
pub(crate) struct Reused {
    pub layers: Layers,
    pub cgroup: Option<RunCgroup>,
    /// In the namespaces, what tells whether a run changed the mounts, and what sets back their process IDs.
    mounts: Option<MountWatch>,
    pids: Option<Pids>,
    /// In the namespaces, what tells whether a run changed the worker's /dev/shm.
    shm: Option<ShmWatch>,
    syscalls: Option<SyscallFilter>,
    /// What solutions' rules are made from.
    opened: OpenedForRules,
    /// What every run's Landlock rules name besides its own folder and output.
    fixed: Option<Fixed>,
    /// In the namespaces with Landlock, where a solution's run is mounted (see [`Reused::holds`]), and the rules of
    /// its runs: made once for what they were last asked to keep out of and to read.
    holder: Option<Holder>,
    held_rules: Option<(Vec<PathBuf>, Vec<PathBuf>, Rc<FsRules>)>,
    /// For a judge run as root: the user its solutions and compilers run as, in the namespaces, and what they can
    /// reach by name.
    run_user: Option<libc::uid_t>,
    view: View,
}

impl Reused {
    /// Makes the worker's cgroup, and moves the calling process into the worker's namespaces, as `layers` ask.
    /// The calling process must be single-threaded.
    pub fn make(layers: Layers) -> Result<Reused, String> {
        let cgroup = if layers.contains(Layer::Cgroup) {
            let hierarchy = cgroup::Hierarchy::find()?;
            let made = RunCgroup::create(&hierarchy)
                .map_err(|e| format!("cannot set up the worker's cgroup: {e}"))?;
            Some(made)
        } else {
            None
        };
        let run_user = if layers.contains(Layer::Namespaces) {
            namespace::enter().map_err(|e| format!("cannot make the worker's namespaces: {e}"))?
        } else {
            None
        };
        Ok(Reused {
            layers,
            cgroup,
            mounts: None,
            pids: None,
            shm: None,
            syscalls: None,
            opened: OpenedForRules::default(),
            fixed: None,
            holder: None,
            held_rules: None,
            run_user,
            view: View::default(),
        })
    }

    /// The user a run is made as, where it is not the worker's: a root judge's solutions and compilers, in the
    /// namespaces. The problem's own tools run as the worker, reading the tests they are given wherever they are.
    pub fn run_user(&self, spec: &RunSpec) -> Option<libc::uid_t> {
        match spec.trust {
            Trust::Solution { .. } => self.run_user,
            Trust::Tool => None,
        }
    }

    /// Makes what a run made as [`Reused::run_user`] reaches by name reachable. Its working directory needs only a
    /// place to be mounted at where the worker mounts scratch space there (`in_memory`), and the real one bound
    /// otherwise.
    pub fn expose(&mut self, reach: &super::spec::Reach, in_memory: bool) -> Result<(), String> {
        let fail = |path: &std::path::Path, e: io::Error| {
            format!("cannot make {} reachable for the run: {e}", path.display())
        };
        let covers = self.view.covers();
        let exposed = (|| {
            for path in &reach.kept {
                self.view.expose(path).map_err(|e| fail(path, e))?;
            }
            if let Some(workdir) = &reach.workdir {
                match in_memory {
                    true => self.view.place(workdir),
                    false => self.view.expose(workdir),
                }
                .map_err(|e| fail(workdir, e))?;
            }
            Ok(())
        })();
        // The folders readable were opened in the view as it was: one at or below a folder covered since is out of
        // reach now, and the rules must name what is there instead. (A rule on a folder above a cover still
        // reaches into it.) Looked at whether or not everything could be exposed: a cover made before a failure
        // stays.
        let renamed = self
            .view
            .covered_since(covers)
            .iter()
            .any(|cover| self.opened.named.iter().any(|path| path.starts_with(cover)));
        if renamed {
            self.opened = OpenedForRules::default();
            self.held_rules = None;
        }
        exposed
    }

    /// Takes back what was exposed for one run alone: its working directory.
    pub fn withdraw(&mut self, reach: &super::spec::Reach) {
        if let Some(workdir) = &reach.workdir {
            self.view.withdraw(workdir);
        }
    }

    /// Whether a mount was made or removed in the namespaces since the last call.
    pub fn mounts_changed(&self) -> bool {
        self.mounts.as_ref().is_some_and(MountWatch::changed)
    }

    /// In the namespaces, what the last run left in them for the next (see `namespace::leftovers`); `mounted` says
    /// whether it changed the mounts.
    pub fn namespace_leftovers(&self, mounted: bool) -> Option<String> {
        let shm = self.shm.as_ref()?;
        namespace::leftovers(mounted, shm, !self.layers.contains(Layer::Seccomp))
    }

    pub fn namespaces(&self) -> bool {
        self.layers.contains(Layer::Namespaces)
    }

    /// The holder a run of `spec` is mounted in, if it is: a solution's in scratch space, in a working directory of
    /// the name the holder has, in a worker with namespaces and Landlock. Other runs (compilers, the problem's
    /// tools, which read files beside their folder by name) are mounted where they are, with rules of their own.
    pub fn holds(&self, spec: &RunSpec) -> Option<&Holder> {
        let named = spec.workdir.file_name() == Some(namespace::HELD_WORKDIR.as_ref());
        let solution = matches!(spec.trust, Trust::Solution { .. });
        self.holder
            .as_ref()
            .filter(|_| named && solution && spec.scratch.is_some())
    }

    /// Mounts a run of `spec` in the holder, if [`Reused::holds`] it, its folder owned by `owner`, with its output
    /// `stdout`: what unmounts it, and the output opened again through the holder where it is a regular file.
    pub fn hold(
        &self,
        spec: &RunSpec,
        owner: Option<libc::uid_t>,
        stdout: &std::fs::File,
    ) -> Option<io::Result<(namespace::Workdir, Option<std::fs::File>)>> {
        let (holder, size) = (self.holds(spec)?, spec.scratch?);
        let held = (|| {
            let output = match stdout.metadata()? {
                file if file.is_file() => Some((self.view.detached(&spec.stdout)?, file)),
                _ => None,
            };
            holder.mount(&spec.workdir, size, owner, output)
        })();
        Some(held)
    }

    /// In the worker, before its first run: in the namespaces, makes it their init and starts watching its mounts;
    /// then, once it has made every mount it keeps, opens what every run's Landlock rules name and installs the
    /// system-call filter, which its runs inherit.
    pub fn start_worker(&mut self) -> Result<(), String> {
        if self.namespaces() {
            let pids = namespace::become_init()
                .map_err(|e| format!("cannot set up the worker's namespaces: {e}"))?;
            self.pids = Some(pids);
            let watch =
                MountWatch::new().map_err(|e| format!("cannot watch the worker's mounts: {e}"))?;
            self.mounts = Some(watch);
            let shm =
                ShmWatch::new().map_err(|e| format!("cannot watch the worker's /dev/shm: {e}"))?;
            self.shm = Some(shm);
            super::process::keep_own_children_list()
                .map_err(|e| format!("cannot open the worker's list of children: {e}"))?;
            super::supervisor::keep_own_status();
            namespace::hide_init()
                .map_err(|e| format!("cannot hide the worker from its runs: {e}"))?;
        }
        if self.layers.contains(Layer::Landlock) {
            self.fixed = Some(Fixed::open(self.namespaces())?);
            if self.namespaces() {
                let holder =
                    Holder::make().map_err(|e| format!("cannot make the worker's holder: {e}"))?;
                self.holder = Some(holder);
            }
        }
        if self.layers.contains(Layer::Seccomp) {
            let filter = SyscallFilter::new()?;
            filter
                .apply()
                .map_err(|e| format!("cannot install the worker's system-call filter: {e}"))?;
            self.syscalls = Some(filter);
        }
        Ok(())
    }

    /// Opens the folders readable around `hidden` for the Landlock rules of the solutions' runs, before the first
    /// asks for them.
    pub fn hide(&mut self, hidden: &[PathBuf]) {
        if self.layers.contains(Layer::Landlock) {
            self.opened.around(hidden);
        }
    }
}

/// Folders opened to name in Landlock rules, and what they were opened for: a worker's runs ask for the same ones
/// run after run, and they are opened again only when that changes.
type Opened = (Vec<PathBuf>, Vec<filesystem::Grant>);

/// What the rules of solutions' runs are made from, kept from run to run.
#[derive(Default)]
struct OpenedForRules {
    /// The folders readable around the hidden ones, and those hidden folders.
    around: Option<Opened>,
    /// The folders the last run was given to read besides, and those folders.
    own: Option<Opened>,
    /// Every folder and file opened for the rules kept, these and the worker's held rules.
    named: std::collections::HashSet<PathBuf>,
}

impl OpenedForRules {
    /// The folders readable around `hidden`, opened again only where `hidden` changed.
    fn around(&mut self, hidden: &[PathBuf]) -> &[filesystem::Grant] {
        around_kept(&mut self.around, &mut self.named, hidden)
    }

    /// The folders readable around `hidden` and the folders of `readable`, each opened again only where what it was
    /// opened for changed.
    fn both(&mut self, hidden: &[PathBuf], readable: &[PathBuf]) -> [&[filesystem::Grant]; 2] {
        let OpenedForRules { around, own, named } = self;
        [
            around_kept(around, named, hidden),
            kept_open(own, named, readable, || readable.to_vec()),
        ]
    }

    /// Closes what was opened, keeping what it named (for rules made from it and kept).
    fn close(&mut self) {
        self.around = None;
        self.own = None;
    }
}

/// The folders readable around `hidden`, kept in `around` (see [`kept_open`]).
fn around_kept<'a>(
    around: &'a mut Option<Opened>,
    named: &mut std::collections::HashSet<PathBuf>,
    hidden: &[PathBuf],
) -> &'a [filesystem::Grant] {
    kept_open(around, named, hidden, || {
        filesystem::readable_outside(hidden)
    })
}

/// The folders `paths` lists for `key`, opened again only where `key` changed since `kept` was; each path opened is
/// added to `named`.
fn kept_open<'a>(
    kept: &'a mut Option<Opened>,
    named: &mut std::collections::HashSet<PathBuf>,
    key: &[PathBuf],
    paths: impl FnOnce() -> Vec<PathBuf>,
) -> &'a [filesystem::Grant] {
    if kept.as_ref().is_none_or(|(known, _)| known != key) {
        let paths = paths();
        let grants = filesystem::open_all(&paths);
        named.extend(paths);
        *kept = Some((key.to_vec(), grants));
    }
    &kept.as_ref().expect("made above").1
}

/// Prepares the worker's layers for `request`, once its working directory is in place. Any failure is an error of
/// the run: the harness only asks for layers that its probe found working, so one that fails now must not be
/// skipped quietly.
pub(crate) fn prepare(
    request: &Request,
    reused: &mut Reused,
    stdout: std::os::fd::BorrowedFd<'_>,
) -> Result<Confinement, String> {
    let spec = &request.spec;
    let cgroup_fds = match &mut reused.cgroup {
        Some(cgroup) => {
            cgroup
                .prepare(&spec.limits)
                .map_err(|e| format!("cannot set up the run's cgroup: {e}"))?;
            cgroup.join_fds()
        }
        None => Vec::new(),
    };
    let files = if reused.layers.contains(Layer::Landlock) {
        let (hidden, readable): (&[PathBuf], &[PathBuf]) = match &spec.trust {
            Trust::Tool => (&[], &[]),
            Trust::Solution { readable } => (&request.hidden, readable),
        };
        // A folder it may read that holds a hidden one (a folder of PATH above the project) would open the hidden
        // one too: it is left out. What the run reaches through the view (its toolchain under a closed home, say)
        // is readable by a rule of its own: the view's skeleton folders above it are not the real ones that the
        // rules for the rest of the file system name, and Landlock looks only along the path taken.
        // Each once: the same folder may be named more than once.
        let readable: std::collections::BTreeSet<PathBuf> = readable
            .iter()
            .chain(&request.reach.kept)
            .filter(|r| !hidden.iter().any(|h| h.starts_with(r)))
            .cloned()
            .collect();
        let readable: Vec<PathBuf> = readable.into_iter().collect();
        let fixed = reused
            .fixed
            .as_ref()
            .ok_or("the worker has no Landlock rules")?;
        let held = reused.holds(spec).is_some();
        let kept = reused
            .held_rules
            .as_ref()
            .filter(|(h, r, _)| held && h == hidden && *r == readable);
        Some(match (kept, reused.holder.as_ref().filter(|_| held)) {
            (Some((_, _, rules)), _) => Rc::clone(rules),
            (None, Some(holder)) => {
                let grants = reused.opened.both(hidden, &readable);
                let rules = Rc::new(FsRules::held(&grants, fixed, holder.root())?);
                reused.held_rules = Some((hidden.to_vec(), readable.clone(), Rc::clone(&rules)));
                // The ruleset holds what its rules name: the descriptors they were made from, one for each entry
                // beside a hidden folder, would only be copied into each run's child and closed there again (6 us
                // a run with 190 of them). Opened again if some run needs them.
                reused.opened.close();
                rules
            }
            (None, None) => {
                let grants = reused.opened.both(hidden, &readable);
                Rc::new(FsRules::new(&spec.workdir, &grants, fixed, stdout)?)
            }
        })
    } else {
        None
    };
    // The program inherits the worker's filter, and adds none of its own.
    if reused.layers.contains(Layer::Seccomp) && reused.syscalls.is_none() {
        return Err("the worker has no system-call filter".into());
    }
    if let Some(pids) = &reused.pids {
        pids.rewind()
            .map_err(|e| format!("cannot set back the namespace's process IDs: {e}"))?;
    }
    let namespaces = reused.namespaces();
    let run_as = reused.run_user(spec);
    let mut rlimits = RlimitSet::for_limits(&spec.limits, !cgroup_fds.is_empty());
    if namespaces && namespace::counts_processes_per_namespace() {
        // Counted per user namespace: the run's own processes, and the worker and its keeper. (Root outside is
        // exempt from it; its runs rely on the cgroup's.)
        rlimits.push(
            libc::RLIMIT_NPROC,
            u64::from(cgroup::MAX_TASKS) + WORKER_PROCESSES,
        );
    }
    Ok(Confinement {
        rlimits,
        cgroup_fds,
        namespaces,
        run_as,
        files,
    })
}

#[cfg(test)]
impl Confinement {
    /// No layer: only what every run enters (its own process group, its descriptors closed on exec, death with its
    /// parent) and the rlimits of generous limits.
    pub(crate) fn bare() -> Confinement {
        let limits = super::Limits {
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(10),
            memory: crate::units::Bytes::mib(256),
            output: crate::units::Bytes::mib(1),
            disk: crate::units::Bytes::mib(1),
            stack: crate::units::Bytes::mib(8),
            cap_address_space: false,
        };
        Confinement {
            cgroup_fds: Vec::new(),
            rlimits: RlimitSet::for_limits(&limits, false),
            namespaces: false,
            run_as: None,
            files: None,
        }
    }
}

/// The processes of a worker in its user namespace: the worker and the process that keeps it.
const WORKER_PROCESSES: u64 = 2;

impl Confinement {
    /// Enters every layer, in a child of the worker `worker`, which it dies with. Returns the CPU time the child
    /// had used as it joined the run's cgroup: what the cgroup does not count of its start.
    ///
    /// # Safety
    /// Must be called in the child of [`super::spawn`], which shares the memory of the single-threaded worker.
    pub unsafe fn enter(&self, worker: libc::pid_t) -> io::Result<Duration> {
        // Its own process group, so the whole run can be signalled at once. It has no controlling terminal: the
        // worker's session has none (see `worker::serve`).
        // SAFETY: setpgid takes plain integers.
        if unsafe { libc::setpgid(0, 0) } == -1 {
            return Err(io::Error::last_os_error());
        }
        // Whatever the worker holds, the program starts with its standard streams alone.
        super::process::close_inherited_on_exec();
        die_with_parent(Some(worker))?;
        if let Some(files) = &self.files {
            files.restrict()?;
        }
        // After the Landlock rules, whose making opens descriptors: the limit on open files must never be what
        // makes a layer fail.
        self.rlimits.apply()?;
        // Only the program joins the cgroup, as late as it can: what is left to do after is the few system calls
        // that drop its capabilities, which the cgroup counts and the run is not charged for
        // (see `spawn::StartCost`). It then takes a cgroup namespace of its own, rooted at the run's cgroup, which
        // needs the capabilities it is about to drop.
        // The kernel charges a process's CPU time to its cgroup only when it next counts it, and reading the
        // process's clock counts it: read just before joining, everything so far goes to the worker's cgroup (not,
        // as at the next tick, all to the run's), and the run's cgroup counts from here on.
        let joined = super::process::own_cpu_time();
        cgroup::join(&self.cgroup_fds)?;
        if self.namespaces {
            namespace::enter_cgroup_namespace()?;
        }
        drop_capabilities(self.run_as)?;
        Ok(joined)
    }
}
