//! A cgroup per worker, on cgroup v2 or on the v1 hierarchy: memory of the whole process tree with swap off, a
//! limit on processes, CPU time of every thread, and a way to kill everything in a run at once.
//!
//! A worker makes its cgroup below its own (so limits set above it still hold) when it starts, and removes it when
//! it ends. It reaches the cgroup's files through descriptors of its folders opened then: in its namespaces, the
//! file system it sees is read-only. Each run's program joins it before exec. Between runs the cgroup must be
//! empty, with no memory still charged to it (shared memory a run left behind would be): a worker whose cgroup is
//! not is retired. The counters that cannot be reset (CPU time on v2, the OOM kills) are read at the start of each
//! run and counted from there.

use super::Limits;
use super::process::{pid_namespace, read_whole};
use crate::units::Bytes;
use std::ffi::CString;
use std::fs::{self, File};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Processes and threads a run may have at once: plenty for a JVM or a thread pool, few enough to stop a fork
/// bomb early.
pub(crate) const MAX_TASKS: u32 = 128;

/// How far above the memory limit the kernel's hard limit sits. The supervisor stops the run as soon as its
/// resident memory passes the limit itself; the kernel's limit only has to catch what grows faster than that, and
/// leave room for the page cache of the run's own output, which the kernel charges to it but can always reclaim.
const HARD_LIMIT_HEADROOM: u64 = 64 * Bytes::MIB;

/// Where run cgroups are made: one folder per controller on v1, one folder on v2.
#[derive(Debug, Clone)]
pub(crate) enum Hierarchy {
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: PathBuf,
        swap_accounted: bool,
    },
    V2 {
        parent: PathBuf,
    },
}

/// Checks that run cgroups can be made here, by making one; returns what the layer does on this machine.
pub(crate) fn probe() -> Result<String, String> {
    let hierarchy = Hierarchy::find()?;
    let limits = Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(1),
        memory: Bytes::mib(64),
        output: Bytes::mib(1),
        disk: Bytes::mib(64),
        stack: Bytes::mib(8),
        cap_address_space: true,
    };
    // Made, given a run's limits, and removed again.
    let made = RunCgroup::create(&hierarchy).and_then(|mut cgroup| cgroup.prepare(&limits));
    made.map_err(|e| {
        if e.kind() == io::ErrorKind::PermissionDenied {
            format!(
                "{e}; making cgroups there takes root, or a cgroup delegated to this user{}",
                match hierarchy {
                    Hierarchy::V1 { .. } => " (on cgroup v1, by an administrator)",
                    Hierarchy::V2 { .. } =>
                        " (e.g. `systemd-run --user --scope -p Delegate=yes cpjudge ...`)",
                }
            )
        } else {
            e.to_string()
        }
    })?;
    Ok(match hierarchy {
        Hierarchy::V1 { swap_accounted, .. } => format!(
            "cgroup v1: memory of the whole run ({}), at most {MAX_TASKS} tasks, CPU time of every thread",
            if swap_accounted {
                "swap off"
            } else {
                "swap not accounted by this kernel"
            }
        ),
        Hierarchy::V2 { .. } => format!(
            "cgroup v2: memory of the whole run (swap off), at most {MAX_TASKS} tasks, CPU time of every thread"
        ),
    })
}

impl Hierarchy {
    /// The cgroups this process is in, from /proc/self/cgroup and /proc/self/mountinfo.
    pub(crate) fn find() -> Result<Hierarchy, String> {
        let own = fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let mounts = fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
        let mounts: Vec<Mount> = mounts.lines().filter_map(Mount::parse).collect();
        // The folder of our own cgroup in the hierarchy that has `controller` (None: the v2 hierarchy).
        let folder = |controller: Option<&str>| -> Option<PathBuf> {
            let path = own.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
                let matches = match controller {
                    Some(c) => list.split(',').any(|l| l == c),
                    None => list.is_empty(),
                };
                matches.then_some(path)
            })?;
            let mount = mounts.iter().find(|m| match controller {
                Some(c) => m.fstype == "cgroup" && m.options.split(',').any(|o| o == c),
                None => m.fstype == "cgroup2",
            })?;
            let inside = Path::new(path).strip_prefix(&mount.root).ok()?;
            Some(mount.point.join(inside))
        };
        if let (Some(memory), Some(pids), Some(cpuacct)) = (
            folder(Some("memory")),
            folder(Some("pids")),
            folder(Some("cpuacct")),
        ) {
            let swap_accounted = memory.join("memory.memsw.limit_in_bytes").exists();
            return Ok(Hierarchy::V1 {
                memory,
                pids,
                cpuacct,
                swap_accounted,
            });
        }
        let own = folder(None)
            .ok_or("no cgroup v1 memory, pids and cpuacct controllers, and no cgroup v2")?;
        // Once the judge has moved into a leaf of its own (below), its workers start there, and their cgroups go
        // beside it.
        let moved = own
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(HARNESS_SUFFIX));
        let parent = match (moved, own.parent()) {
            (true, Some(parent)) => parent.to_owned(),
            _ => own.clone(),
        };
        let controllers = fs::read_to_string(parent.join("cgroup.controllers")).unwrap_or_default();
        for needed in ["memory", "pids"] {
            if !controllers.split_whitespace().any(|c| c == needed) {
                return Err(format!(
                    "the {needed} controller is not available in {} (delegate it to this cgroup)",
                    parent.display()
                ));
            }
        }
        // Controllers reach the runs' cgroups only if enabled here, which the kernel refuses while this cgroup
        // holds processes of its own: the judge first moves itself into a leaf, and if anything else is still
        // here, cpjudge needs a delegated cgroup of its own.
        let enable = || write(&parent.join("cgroup.subtree_control"), "+memory +pids");
        if let Err(first) = enable() {
            if moved || first.raw_os_error() != Some(libc::EBUSY) {
                return Err(cannot_enable(&parent, &first));
            }
            let leaf = parent.join(format!(
                "{PREFIX}{}-{}{HARNESS_SUFFIX}",
                pid_namespace(),
                std::process::id()
            ));
            fs::create_dir(&leaf)
                .and_then(|()| write(&leaf.join("cgroup.procs"), &std::process::id().to_string()))
                .map_err(|e| cannot_enable(&parent, &e))?;
            enable().map_err(|e| cannot_enable(&parent, &e))?;
        }
        Ok(Hierarchy::V2 { parent })
    }

    /// Removes cgroups left behind by workers that were killed before they could clean up, killing whatever of their
    /// runs is still in them.
    /// Only cgroups made in this PID namespace are looked at, since only there does a missing PID mean a dead
    /// worker.
    fn remove_stale(&self) {
        let mine = format!("{PREFIX}{}-", pid_namespace());
        for parent in self.parents() {
            let Ok(entries) = fs::read_dir(parent) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix(&mine)?.split('-').next())
                else {
                    continue;
                };
                if !Path::new("/proc").join(pid).exists() {
                    if let Ok(dir) = open_dir(&entry.path()) {
                        kill_members(&dir);
                    }
                    let _ = fs::remove_dir(entry.path());
                }
            }
        }
    }

    fn parents(&self) -> Vec<&Path> {
        match self {
            Hierarchy::V1 {
                memory,
                pids,
                cpuacct,
                ..
            } => vec![memory, pids, cpuacct],
            Hierarchy::V2 { parent } => vec![parent],
        }
    }
}

const PREFIX: &str = "cpjudge-";

/// The end of the name of the leaf cgroup the judge moves into on cgroup v2.
const HARNESS_SUFFIX: &str = "-harness";

fn cannot_enable(parent: &Path, e: &io::Error) -> String {
    format!(
        "cannot enable the memory and pids controllers below {} ({e}); run cpjudge in a delegated cgroup of its \
         own, e.g. `systemd-run --user --scope -p Delegate=yes cpjudge ...`",
        parent.display()
    )
}

/// One line of /proc/self/mountinfo, as far as cgroups need it.
struct Mount {
    root: PathBuf,
    point: PathBuf,
    fstype: String,
    options: String,
}

impl Mount {
    fn parse(line: &str) -> Option<Mount> {
        let (before, after) = line.split_once(" - ")?;
        let fields: Vec<&str> = before.split(' ').collect();
        let mut after = after.split(' ');
        let fstype = after.next()?.to_owned();
        let _source = after.next()?;
        Some(Mount {
            root: PathBuf::from(fields.get(3)?),
            point: PathBuf::from(fields.get(4)?),
            fstype,
            options: after.next()?.to_owned(),
        })
    }
}

/// The cgroup of a worker, which each of its runs joins. Dropping it kills whatever is still in it and removes it.
pub(crate) struct RunCgroup {
    hierarchy: Hierarchy,
    /// The folder in each hierarchy (three on v1, one on v2), named in messages.
    dirs: Vec<PathBuf>,
    /// Each folder, and the folder it is in, opened when it was made: every file of the cgroup is reached through
    /// them.
    dir_fds: Vec<OwnedFd>,
    parent_fds: Vec<OwnedFd>,
    /// The file of each folder that the child joins it by, writing "0" to each: opened once (see [`join_files`]).
    procs: Vec<File>,
    /// The files its figures are read from, opened once it is made.
    counters: Option<Counters>,
    /// The memory limit in force, as the kernel has it.
    hard_limit: Option<u64>,
    /// The counters as they stood when the current run started.
    cpu_before: Duration,
    memory_before: Bytes,
    ooms_before: u64,
    /// The run's own memory as the look after the last run found it, the cgroup empty, where that look found no
    /// shared memory (see [`OwnMemory::start_of_next_run`]): the next run starts from it, with the kernel's part
    /// read again (see [`RunCgroup::prepare`]).
    idle_user: std::cell::Cell<Option<Bytes>>,
}

impl RunCgroup {
    /// Makes the cgroup of a worker, with the task limit and no swap; each run sets its own memory limit.
    pub fn create(hierarchy: &Hierarchy) -> io::Result<RunCgroup> {
        hierarchy.remove_stale();
        // Unique even among judges in other PID namespaces that share the hierarchy: a cgroup is never taken over
        // from another worker, with its counters in it.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let name = format!("{PREFIX}{}-{}-{nanos}", pid_namespace(), std::process::id());
        let mut cgroup = RunCgroup {
            hierarchy: hierarchy.clone(),
            dirs: Vec::new(),
            dir_fds: Vec::new(),
            parent_fds: Vec::new(),
            procs: Vec::new(),
            counters: None,
            hard_limit: None,
            cpu_before: Duration::ZERO,
            memory_before: Bytes(0),
            ooms_before: 0,
            idle_user: std::cell::Cell::new(None),
        };
        for parent in hierarchy.parents() {
            let dir = parent.join(&name);
            fs::create_dir(&dir).map_err(|e| annotate(e, "create", &dir))?;
            cgroup.parent_fds.push(open_dir(parent)?);
            cgroup.dir_fds.push(open_dir(&dir)?);
            cgroup.dirs.push(dir);
        }
        let tasks = MAX_TASKS.to_string();
        match hierarchy {
            Hierarchy::V1 { swap_accounted, .. } => {
                if !swap_accounted {
                    cgroup.set(Controller::Memory, "memory.swappiness", "0")?;
                }
                cgroup.set(Controller::Pids, "pids.max", &tasks)?;
            }
            Hierarchy::V2 { .. } => {
                // No swap; without swap accounting the file is missing, and there is no swap to count.
                if cgroup.read(Controller::Memory, "memory.swap.max").is_some() {
                    cgroup.set(Controller::Memory, "memory.swap.max", "0")?;
                }
                cgroup.set(Controller::Pids, "pids.max", &tasks)?;
            }
        }
        for (dir, fd) in cgroup.dirs.iter().zip(&cgroup.dir_fds) {
            let mut joined = Err(io::Error::from(io::ErrorKind::NotFound));
            for name in join_files(hierarchy) {
                joined = open_at(fd, name, libc::O_WRONLY)
                    .map_err(|e| annotate(e, "open", &dir.join(name)));
                if joined.is_ok() {
                    break;
                }
            }
            cgroup.procs.push(joined?);
        }
        cgroup.counters = Some(cgroup.open_counters()?);
        Ok(cgroup)
    }

    fn open_counters(&self) -> io::Result<Counters> {
        let (cpu, oom) = match self.hierarchy {
            Hierarchy::V1 { .. } => ("cpuacct.usage", "memory.oom_control"),
            Hierarchy::V2 { .. } => ("cpu.stat", "memory.events"),
        };
        let open = |controller: Controller, file: &str| {
            let i = self.index(controller);
            open_at(&self.dir_fds[i], file, libc::O_RDONLY)
                .map_err(|e| annotate(e, "open", &self.dirs[i].join(file)))
        };
        let kernel = match self.hierarchy {
            // A kernel built without kernel-memory accounting has no such file.
            Hierarchy::V1 { .. } => open(Controller::Memory, "memory.kmem.usage_in_bytes").ok(),
            Hierarchy::V2 { .. } => None,
        };
        Ok(Counters {
            cpu: open(Controller::Cpu, cpu)?,
            memory: open(Controller::Memory, "memory.stat")?,
            oom: open(Controller::Memory, oom)?,
            kernel,
        })
    }

    /// Sets the memory limit of the next run, and notes where its counters start.
    pub fn prepare(&mut self, limits: &Limits) -> io::Result<()> {
        let hard = limits.memory.0.saturating_add(HARD_LIMIT_HEADROOM);
        if self.hard_limit != Some(hard) {
            let value = hard.to_string();
            match self.hierarchy {
                Hierarchy::V1 { swap_accounted, .. } => {
                    // Memory plus swap equal to memory: no swap at all. The kernel wants memory at most memory plus
                    // swap at every moment, so which goes first depends on whether the limit rises or falls.
                    // The kernel's limits start at their maximum: the first one set lowers them.
                    let rising = self.hard_limit.is_some_and(|old| hard > old);
                    let files: &[&str] = match (swap_accounted, rising) {
                        (false, _) => &["memory.limit_in_bytes"],
                        (true, true) => &["memory.memsw.limit_in_bytes", "memory.limit_in_bytes"],
                        (true, false) => &["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"],
                    };
                    for file in files {
                        self.set(Controller::Memory, file, &value)?;
                    }
                }
                Hierarchy::V2 { .. } => self.set(Controller::Memory, "memory.max", &value)?,
            }
            self.hard_limit = Some(hard);
        }
        self.cpu_before = self.cpu_counter().unwrap_or_default();
        // Where the kernel's part has a file of its own (v1), the rest is taken from the last look where it may be
        // (see `idle_user`): `memory.stat`, which the kernel writes out whole, is then read once a run. The
        // kernel's part is read now, once the limit is set: the kernel may still give some of it back after the
        // look (it reclaims to meet a lower limit; a run's file system's inodes are freed a grace period after
        // its unmount).
        let from_look = self
            .idle_user
            .take()
            .and_then(|user| Some(Bytes(user.0.saturating_add(self.kernel_counter()?.0))));
        self.memory_before = match from_look {
            Some(before) => before,
            None => self.memory_counter().unwrap_or_default(),
        };
        self.ooms_before = self.oom_kills();
        Ok(())
    }

    /// The position of a controller's folder: its own hierarchy's on v1, the one folder on v2.
    fn index(&self, controller: Controller) -> usize {
        match self.hierarchy {
            Hierarchy::V1 { .. } => controller as usize,
            Hierarchy::V2 { .. } => 0,
        }
    }

    fn set(&self, controller: Controller, file: &str, value: &str) -> io::Result<()> {
        let i = self.index(controller);
        open_at(&self.dir_fds[i], file, libc::O_WRONLY)
            .and_then(|mut f| f.write_all(value.as_bytes()))
            .map_err(|e| annotate(e, "write", &self.dirs[i].join(file)))
    }

    fn read(&self, controller: Controller, file: &str) -> Option<String> {
        let mut text = String::new();
        io::Read::read_to_string(
            &mut open_at(&self.dir_fds[self.index(controller)], file, libc::O_RDONLY).ok()?,
            &mut text,
        )
        .ok()?;
        Some(text)
    }

    /// The descriptors the child writes "0" to, before exec, to join the run's cgroup.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// CPU time of every thread that ran in the cgroup since the run started.
    pub fn cpu(&self) -> Option<Duration> {
        Some(self.cpu_counter()?.saturating_sub(self.cpu_before))
    }

    /// CPU time of every thread that ever ran in the cgroup.
    fn cpu_counter(&self) -> Option<Duration> {
        let text = read_whole(&self.counters.as_ref()?.cpu)?;
        match self.hierarchy {
            Hierarchy::V1 { .. } => Some(Duration::from_nanos(text.trim().parse().ok()?)),
            Hierarchy::V2 { .. } => Some(Duration::from_micros(stat_field(&text, "usage_usec")?)),
        }
    }

    /// Memory of the whole run now: heaps and stacks of every process, shared memory (memfd, /dev/shm), which
    /// stays charged even when no process maps it, and the kernel's memory for it (pipe buffers, page tables); not
    /// the page cache of the files it reads and writes, which the kernel can always reclaim.
    pub fn memory(&self) -> Option<Bytes> {
        Some(Bytes(
            self.memory_counter()?
                .0
                .saturating_sub(self.memory_before.0),
        ))
    }

    /// The memory charged to the cgroup now, as [`RunCgroup::memory`] counts it, but from zero rather than from the
    /// run's start: the kernel updates these figures in batches per processor, so a cgroup that is empty may still
    /// show a little.
    fn memory_counter(&self) -> Option<Bytes> {
        let (own, stat) = self.own_memory()?;
        let kernel = match self.hierarchy {
            Hierarchy::V1 { .. } => self.kernel_counter(),
            Hierarchy::V2 { .. } => stat_field(&stat, "kernel").map(Bytes),
        };
        Some(Bytes(own.total().0 + kernel.unwrap_or_default().0))
    }

    /// The run's own memory charged to the cgroup now, from zero, and the `memory.stat` it was read from.
    fn own_memory(&self) -> Option<(OwnMemory, String)> {
        let stat = read_whole(&self.counters.as_ref()?.memory)?;
        let anonymous = match self.hierarchy {
            Hierarchy::V1 { .. } => "rss",
            Hierarchy::V2 { .. } => "anon",
        };
        let own = OwnMemory {
            anonymous: stat_field(&stat, anonymous)?,
            shared: stat_field(&stat, "shmem").unwrap_or(0),
        };
        Some((own, stat))
    }

    /// The kernel's memory for the cgroup, where it has a file of its own (v1, with kernel-memory accounting).
    fn kernel_counter(&self) -> Option<Bytes> {
        let file = self.counters.as_ref()?.kernel.as_ref()?;
        let text = read_whole(file)?;
        Some(Bytes(text.trim().parse().ok()?))
    }

    /// Whether the kernel killed a process of the run for going over the hard memory limit.
    pub fn oom_killed(&self) -> bool {
        self.oom_kills() > self.ooms_before
    }

    /// How many processes the kernel has killed in the cgroup for going over its memory limit.
    fn oom_kills(&self) -> u64 {
        let events = self.counters.as_ref().and_then(|c| read_whole(&c.oom));
        events.and_then(|e| stat_field(&e, "oom_kill")).unwrap_or(0)
    }

    /// What a run that is over left in the cgroup, which the next run would find: processes, or memory still
    /// charged to it (a file in a shared-memory folder, say). None when it is as empty as a new one, and the memory
    /// it found then is where the next run's own starts. `alone` says that no process can be in it: the worker is
    /// the init of the run's namespaces, and has no child left.
    pub fn leftovers(&self, alone: bool) -> Option<String> {
        let residue = residue();
        // A process killed a moment ago leaves its cgroup, and its memory is given back, a moment after it is
        // reaped.
        for _ in 0..LEFTOVER_CHECKS {
            if alone || self.members().is_empty() {
                let own = self.own_memory().map(|(own, _)| own);
                if own.is_none_or(|own| own.total() < residue) {
                    self.idle_user
                        .set(own.and_then(OwnMemory::start_of_next_run));
                    return None;
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let members = self.members().len();
        Some(if members > 0 {
            format!("{members} processes still in its cgroup")
        } else {
            format!(
                "{} of memory still charged to its cgroup, as shared memory or files kept in memory",
                self.own_memory()
                    .map(|(own, _)| own.total())
                    .unwrap_or_default()
            )
        })
    }

    /// The processes in the cgroup.
    fn members(&self) -> Vec<libc::pid_t> {
        self.dir_fds.first().map(members_at).unwrap_or_default()
    }

    /// Kills every process in the cgroup, until none is left (processes forked meanwhile included).
    pub fn kill_all(&self) {
        // Half made (its creation failed): nothing can have joined it.
        let Some(first) = self.dir_fds.first() else {
            return;
        };
        if let Hierarchy::V2 { .. } = self.hierarchy {
            let _ = self.set(Controller::Memory, "cgroup.kill", "1");
        }
        kill_members(first);
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        self.kill_all();
        self.procs.clear();
        self.counters = None;
        for (dir, parent) in self.dirs.iter().zip(&self.parent_fds).rev() {
            let Some(name) = dir
                .file_name()
                .and_then(|n| CString::new(n.as_bytes()).ok())
            else {
                continue;
            };
            // A killed process leaves its cgroup a moment after it is reaped.
            for _ in 0..100 {
                // SAFETY: unlinkat takes a descriptor we own and a C string.
                let removed = unsafe {
                    libc::unlinkat(parent.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR)
                } == 0;
                if removed || io::Error::last_os_error().kind() == io::ErrorKind::NotFound {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// A run's own memory in its cgroup: not the kernel's for it, which is charged to the run but does not tell whether
/// it left something behind (the kernel keeps some of it cached after the run, the entries of the folders it looked
/// in, and gives it back only under pressure).
#[derive(Clone, Copy)]
struct OwnMemory {
    anonymous: u64,
    shared: u64,
}

impl OwnMemory {
    fn total(self) -> Bytes {
        Bytes(self.anonymous + self.shared)
    }

    /// Where the next run's own memory starts, as a look after a run found it with no process left: its anonymous
    /// memory cannot move until a process joins. Shared memory can be given back all the same (a run's output in a
    /// temporary folder in memory, removed by the judge): a look that found any is not where the next run starts.
    fn start_of_next_run(self) -> Option<Bytes> {
        (self.shared == 0).then(|| self.total())
    }
}

/// How many times, a millisecond apart, a worker looks whether its cgroup has emptied before it gives up on it.
const LEFTOVER_CHECKS: usize = 50;

/// What an empty cgroup's memory figure may still show: the kernel batches its updates per processor, 64 pages at
/// a time. Memory a run leaves behind is only noticed from this much on.
fn residue() -> Bytes {
    static RESIDUE: std::sync::OnceLock<Bytes> = std::sync::OnceLock::new();
    *RESIDUE.get_or_init(|| {
        let processors = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        Bytes((64 * 4096 * processors).max(Bytes::MIB))
    })
}

/// The controllers whose files a run's cgroup uses; on v1, also the position of each one's folder.
#[derive(Clone, Copy)]
enum Controller {
    Memory = 0,
    Pids = 1,
    Cpu = 2,
}

/// The files of a cgroup that its figures are read from, kept open: each look at them is one `pread` from the
/// start, where opening them again would cost a path walk each time. Not `cgroup.procs`: on v1 the kernel keeps the
/// list it made for an open file, and hands the same one out again while that file is read now and then, so a
/// kept descriptor would go on listing processes long gone (or missing new ones).
struct Counters {
    cpu: File,
    memory: File,
    oom: File,
    /// The kernel memory charged to the cgroup (pipe buffers among it) on v1; v2 has it in `memory.stat`.
    kernel: Option<File>,
}

/// The processes in the cgroup folder `dir`: its `cgroup.procs`, opened anew (see [`Counters`]) and read whole
/// (three calls for an empty one, where reading it to a string takes five).
fn members_at(dir: &OwnedFd) -> Vec<libc::pid_t> {
    let listed = open_at(dir, "cgroup.procs", libc::O_RDONLY)
        .ok()
        .and_then(|file| read_whole(&file));
    listed
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect()
}

/// Kills every process in the cgroup folder `dir` until none is left (processes forked meanwhile included; the
/// task limit bounds how many there can be).
fn kill_members(dir: &OwnedFd) {
    for _ in 0..1000 {
        let pids = members_at(dir);
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            // SAFETY: kill takes plain integers. Only processes of one run are in a run's cgroup.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The files a process joins a cgroup by, the first that opens. On v1, `tasks` first: writing "0" there moves only
/// the calling thread, which the kernel does without the lock that keeps every thread group of the machine from
/// changing meanwhile, where `cgroup.procs` takes it, and taking it for writing waits for an RCU grace period
/// whenever no other write took it a moment before: milliseconds, which a run's wall time would count (a program
/// reading 200 MB was started 10 to 25 ms later than without its cgroup). The child that joins is the program's
/// single thread, so the thread is the whole process. Where `tasks` is not ours to write (a delegated hierarchy
/// that gave only `cgroup.procs`), and on v2, which has no such file for a process, `cgroup.procs`.
fn join_files(hierarchy: &Hierarchy) -> &'static [&'static str] {
    match hierarchy {
        Hierarchy::V1 { .. } => &["tasks", "cgroup.procs"],
        Hierarchy::V2 { .. } => &["cgroup.procs"],
    }
}

/// Writes "0" to each descriptor: moves the calling process into the run's cgroup. Only makes system calls, so it
/// is safe in the child before exec.
pub(crate) fn join(fds: &[RawFd]) -> io::Result<()> {
    for &fd in fds {
        // SAFETY: writes one byte from a static buffer to a descriptor we own.
        if unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) } != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A folder, opened to reach its files by name whatever file system view the process is in later.
fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    let name = CString::new(path.as_os_str().as_bytes())?;
    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
    // SAFETY: open takes a C string and flags, and returns a new descriptor or -1.
    let fd = unsafe { libc::open(name.as_ptr(), flags) };
    if fd == -1 {
        return Err(annotate(io::Error::last_os_error(), "open", path));
    }
    // SAFETY: a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A file of the folder `dir`.
fn open_at(dir: &OwnedFd, name: &str, flags: libc::c_int) -> io::Result<File> {
    let name = CString::new(name)?;
    // SAFETY: openat takes a descriptor we own, a C string and flags, and returns a new descriptor or -1.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor that nothing else owns.
    Ok(unsafe { File::from_raw_fd(fd) })
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut file = File::options().write(true).open(path)?;
    file.write_all(value.as_bytes())
}

fn annotate(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("cannot {what} {}: {e}", path.display()))
}

/// The number after `name` in a "name value" per line file such as memory.stat.
fn stat_field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(' ')?;
        (key == name).then(|| value.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_that_found_shared_memory_is_not_where_the_next_run_starts() {
        let found = |anonymous, shared| OwnMemory { anonymous, shared }.start_of_next_run();
        assert_eq!(found(8192, 0), Some(Bytes(8192)));
        assert_eq!(found(0, 0), Some(Bytes(0)));
        assert_eq!(found(8192, 4096), None);
    }

    #[test]
    fn reads_fields_of_stat_files() {
        let stat = "cache 4096\nrss 1234\nrss_huge 0\n";
        assert_eq!(stat_field(stat, "rss"), Some(1234));
        assert_eq!(stat_field(stat, "swap"), None);
    }

    #[test]
    fn parses_mountinfo_lines() {
        let line = "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct";
        let mount = Mount::parse(line).unwrap();
        assert_eq!(mount.point, Path::new("/sys/fs/cgroup/cpuacct"));
        assert_eq!(mount.fstype, "cgroup");
        assert!(mount.options.split(',').any(|o| o == "cpuacct"));
    }
}
