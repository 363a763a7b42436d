//! The optional isolation layers: which ones a run asks for, and which ones this machine can give.
//!
//! The basics (a process group, a subreaper, rlimits, a fresh working directory) are always on. The layers here
//! depend on the kernel and on privileges, so they are probed at start-up (the answer is kept between commands, see
//! `kept_probe`); a layer that is asked for and that
//! the kernel does not offer is reported loudly and left off, unless the caller insists on every layer
//! (`--strict`). A layer the kernel offers but that fails a trial run is never left off quietly: that is a fault
//! of the judge or of its surroundings, and judging stops with its cause (see [`Isolation::trial_failures`]).

use super::{cgroup, filesystem, namespace, syscalls};
use crate::units::Bytes;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// One optional layer of isolation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// A cgroup per run: memory of the whole tree (swap off), a process limit, CPU time of every thread.
    Cgroup,
    /// User, PID, network, mount, IPC and UTS namespaces.
    Namespaces,
    /// Landlock: which files a run may read and write, no TCP, no signals out of the run.
    Landlock,
    /// A seccomp denylist of system calls a solution never needs.
    Seccomp,
}

impl Layer {
    pub const ALL: [Layer; 4] = [
        Layer::Cgroup,
        Layer::Namespaces,
        Layer::Landlock,
        Layer::Seccomp,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Layer::Cgroup => "cgroup",
            Layer::Namespaces => "namespaces",
            Layer::Landlock => "landlock",
            Layer::Seccomp => "seccomp",
        }
    }

    /// What the layer keeps a hostile program from doing.
    pub fn guards(self) -> &'static str {
        match self {
            Layer::Cgroup => {
                "memory and CPU time summed over every process of a run; fork bombs (process limit)"
            }
            Layer::Namespaces => {
                "seeing or signalling other processes; the network; writing anywhere but the run's folder; \
                 leftovers (all die with the run)"
            }
            Layer::Landlock => {
                "reading the project (tests, answers, its history), other builds and runs, or devices; \
                 writing outside the run's folder; TCP"
            }
            Layer::Seccomp => {
                "ptrace, mount, new namespaces, sockets (Unix ones to daemons), other processes' limits, \
                 kernel modules, bpf, io_uring and the like"
            }
        }
    }

    /// The kernel's own check of the layer: what it does here, or why it is not offered.
    pub(super) fn probe(self) -> Result<String, String> {
        match self {
            Layer::Cgroup => cgroup::probe(),
            Layer::Namespaces => namespace::probe(),
            Layer::Landlock => filesystem::probe(),
            Layer::Seccomp => syscalls::probe(),
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of layers, as given on the command line: `all`, `none`, or names separated by commas.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layers(Vec<Layer>);

impl Layers {
    pub fn all() -> Self {
        Layers(Layer::ALL.to_vec())
    }

    pub fn none() -> Self {
        Layers(Vec::new())
    }

    pub fn contains(&self, layer: Layer) -> bool {
        self.0.contains(&layer)
    }

    fn insert(&mut self, layer: Layer) {
        if !self.contains(layer) {
            self.0.push(layer);
            self.0.sort();
        }
    }
}

/// The form [`FromStr`] reads: names separated by commas, or `none`.
impl fmt::Display for Layers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.0.iter().map(|l| l.name()).collect();
        f.write_str(&names.join(","))
    }
}

impl From<&[Layer]> for Layers {
    fn from(layers: &[Layer]) -> Self {
        let mut set = Layers::none();
        for &layer in layers {
            set.insert(layer);
        }
        set
    }
}

impl FromStr for Layers {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "all" => return Ok(Layers::all()),
            "none" | "" => return Ok(Layers::none()),
            _ => {}
        }
        let mut layers = Layers::none();
        for name in text.split(',').map(str::trim) {
            let layer = Layer::ALL
                .into_iter()
                .find(|l| l.name() == name)
                .ok_or_else(|| {
                    format!(
                        "unknown isolation layer `{name}` (known: all, none, {})",
                        Layer::ALL.map(Layer::name).join(", ")
                    )
                })?;
            layers.insert(layer);
        }
        Ok(layers)
    }
}

/// Whether one layer is in use, and why or why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerStatus {
    pub active: bool,
    /// What the layer does here when active; why it is off otherwise.
    pub detail: String,
}

impl LayerStatus {
    fn unavailable(reason: String) -> Self {
        LayerStatus {
            active: false,
            detail: format!("unavailable: {reason}"),
        }
    }
}

/// The layers this machine gives, among those asked for: the answer of the start-up probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Isolation {
    pub cgroup: LayerStatus,
    pub namespaces: LayerStatus,
    pub landlock: LayerStatus,
    pub seccomp: LayerStatus,
    /// The layers that passed the kernel's check but failed a trial run, with why.
    #[serde(skip)]
    pub trial_failures: Vec<(Layer, String)>,
}

impl Isolation {
    /// Tries each wanted layer for real: first the kernel feature on its own (in a throwaway child where it changes
    /// the process), then a trial run through the supervisor at `supervisor` with every layer that passed, as a
    /// solution would run. Call it before starting any thread: the children are forked from this process and run
    /// Rust code until they exit.
    pub fn probe(wanted: &Layers, supervisor: &Path) -> Isolation {
        let mut isolation = Isolation::off();
        let mut candidates = Vec::new();
        for layer in Layer::ALL.into_iter().filter(|&l| wanted.contains(l)) {
            *isolation.status_mut(layer) = match layer.probe() {
                Ok(detail) => {
                    candidates.push(layer);
                    LayerStatus {
                        active: true,
                        detail,
                    }
                }
                Err(reason) => LayerStatus::unavailable(reason),
            };
        }
        let (_, failed) = super::trial::usable(supervisor, &candidates);
        for (layer, reason) in &failed {
            *isolation.status_mut(*layer) = LayerStatus {
                active: false,
                detail: format!("FAILED a trial run though the kernel offers it: {reason}"),
            };
        }
        isolation.trial_failures = failed;
        isolation
    }

    /// No optional layer at all.
    pub fn off() -> Isolation {
        let off = || LayerStatus {
            active: false,
            detail: "switched off (--layers / CPJUDGE_LAYERS)".into(),
        };
        Isolation {
            cgroup: off(),
            namespaces: off(),
            landlock: off(),
            seccomp: off(),
            trial_failures: Vec::new(),
        }
    }

    pub(crate) fn status_mut(&mut self, layer: Layer) -> &mut LayerStatus {
        match layer {
            Layer::Cgroup => &mut self.cgroup,
            Layer::Namespaces => &mut self.namespaces,
            Layer::Landlock => &mut self.landlock,
            Layer::Seccomp => &mut self.seccomp,
        }
    }

    pub fn status(&self, layer: Layer) -> &LayerStatus {
        match layer {
            Layer::Cgroup => &self.cgroup,
            Layer::Namespaces => &self.namespaces,
            Layer::Landlock => &self.landlock,
            Layer::Seccomp => &self.seccomp,
        }
    }

    /// The layers that are in use.
    pub fn active(&self) -> Layers {
        Layers(
            Layer::ALL
                .into_iter()
                .filter(|&l| self.status(l).active)
                .collect(),
        )
    }

    /// The layers that are not in use, for whatever reason.
    pub fn inactive(&self) -> Vec<Layer> {
        Layer::ALL
            .into_iter()
            .filter(|&l| !self.status(l).active)
            .collect()
    }

    /// The layers that were asked for but could not be set up.
    pub fn unavailable(&self, wanted: &Layers) -> Vec<Layer> {
        Layer::ALL
            .into_iter()
            .filter(|&l| wanted.contains(l) && !self.status(l).active)
            .collect()
    }
}

/// How one kind of limit or protection is really enforced on this machine, given the active layers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Enforcement {
    pub what: &'static str,
    pub how: String,
}

impl Isolation {
    /// What is enforced, and by what, with the layers that are active.
    pub fn enforcement(&self) -> Vec<Enforcement> {
        let on = |layer| self.status(layer).active;
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let rule = |what, how: String| Enforcement { what, how };
        vec![
            rule(
                "wall time",
                "always: the supervisor kills the run (2 x the time limit + 1 s for solutions)".into(),
            ),
            rule(
                "CPU time",
                if on(Layer::Cgroup) {
                    "every thread of every process of the run (cgroup), checked every 10 ms; a per-process \
                     kernel limit 2 s above as a backstop"
                        .into()
                } else {
                    "the program's main process and the children it waited for, checked every 10 ms; other \
                     processes only by the per-process kernel limit (2 s above) and the wall time"
                        .into()
                },
            ),
            rule(
                "memory",
                if on(Layer::Cgroup) {
                    format!(
                        "resident and shared memory of the whole run and the kernel's memory for it (pipe \
                         buffers), swap off (cgroup), checked every 10 ms; the kernel's hard limit {} above",
                        Bytes(64 * Bytes::MIB)
                    )
                } else {
                    format!(
                        "resident memory of every process of the run, summed, checked every 10 ms (not shared \
                         memory nor pipe buffers, which only a cgroup counts; a pipe holds at most 64 KiB, since \
                         a run may not enlarge one); as a backstop, address space capped per process at the limit \
                         + {} + room for {} threads' stacks (not for the JVM)",
                        super::Limits::ADDRESS_SPACE_ROOM,
                        super::Limits::THREADS_IN_ADDRESS_SPACE
                    )
                },
            ),
            rule(
                "processes",
                if on(Layer::Cgroup) {
                    format!("at most {} processes and threads per run (cgroup)", super::cgroup::MAX_TASKS)
                } else if on(Layer::Namespaces) && namespace::counts_processes_per_namespace() {
                    format!(
                        "at most {} processes and threads per run (RLIMIT_NPROC, counted in the run's own user \
                         namespace){}",
                        super::cgroup::MAX_TASKS,
                        if root {
                            "; NOT LIMITED for the problem's own tools, which run as root"
                        } else {
                            ""
                        }
                    )
                } else if root {
                    "NOT LIMITED: RLIMIT_NPROC does not apply to root, so a fork bomb is stopped only by the \
                     wall time"
                        .into()
                } else {
                    "NOT LIMITED per run: a fork bomb is stopped only by the wall time and the user's own \
                     process limit"
                        .into()
                },
            ),
            rule(
                "output",
                "always: every file the run writes, standard output included, up to the output limit \
                 (RLIMIT_FSIZE); standard error is read as it comes, its first and last 32 KiB kept"
                    .into(),
            ),
            rule(
                "stack, files",
                "always: stack up to 7/8 of the memory limit, 256 open files, no core files".into(),
            ),
            rule(
                "privileges",
                if root && on(Layer::Namespaces) {
                    format!(
                        "always: no capabilities, its own process group, no terminal, dies with its worker; \
                         solutions and compilers run as an unprivileged user of their own ({} outside), not as \
                         root",
                        super::namespace::RUN_USER_OUTSIDE
                    )
                } else if root {
                    "always: no capabilities, its own process group, no terminal, dies with its worker; but AS ROOT: \
                     file permissions do not hold (the namespaces layer runs solutions as an unprivileged user)"
                        .into()
                } else {
                    "always: no capabilities, its own process group, no terminal, dies with its worker".into()
                },
            ),
            rule(
                "file system",
                if on(Layer::Landlock) {
                    "solutions and their compilers read anything but the project, the build cache and the \
                     temporary folder (Landlock); devices only /dev/null, zero, full, random, urandom; every \
                     run writes only in its own folder"
                        .into()
                } else if on(Layer::Namespaces) {
                    "read-only but for the run's own folder, and of /dev only null, zero, full, random, \
                     urandom (mount namespace); a run reads with the judge's user's rights, the tests included"
                        .into()
                } else {
                    "only Unix permissions: a run has the judge's user's rights, and may read the tests".into()
                },
            ),
            rule(
                "disk",
                if on(Layer::Namespaces) {
                    "a solution's folder is an in-memory file system as large as its memory limit (mount \
                     namespace), gone with the run; a compile's folder is added up every 50 ms, 1 GiB at most"
                        .into()
                } else {
                    "always: what a run keeps in its folder is added up every 50 ms, up to its memory limit \
                     for a solution and 1 GiB for a compile, 16384 files at most"
                        .into()
                },
            ),
            rule(
                "network",
                match (on(Layer::Namespaces), on(Layer::Seccomp), on(Layer::Landlock)) {
                    (true, true, _) => {
                        "none: an empty network namespace; no sockets but socket pairs (seccomp)"
                    }
                    (true, false, _) => {
                        "none: an empty network namespace; Unix sockets to the machine's daemons OPEN"
                    }
                    (false, true, _) => "none: no sockets but socket pairs (seccomp)",
                    (false, false, true) => {
                        "no TCP (Landlock), UDP OPEN; Unix sockets to the machine's daemons OPEN"
                    }
                    (false, false, false) => {
                        "OPEN: a run can reach the network; Unix sockets to the machine's daemons OPEN"
                    }
                }
                .to_owned(),
            ),
            rule(
                "other processes",
                if on(Layer::Namespaces) {
                    "invisible: a PID namespace and /proc holding only the run and its worker".into()
                } else if on(Layer::Landlock) {
                    "visible in /proc, but cannot be signalled (Landlock)".into()
                } else {
                    "visible, and can be signalled with the judge's user's rights".into()
                },
            ),
            rule(
                "leftover processes",
                if on(Layer::Namespaces) {
                    "all killed when the program ends (PID namespace), and found again by the subreaper".into()
                } else {
                    "found by the subreaper and the process group and killed when the program ends".into()
                },
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_layer_lists() {
        assert_eq!("all".parse::<Layers>().unwrap(), Layers::all());
        assert_eq!("none".parse::<Layers>().unwrap(), Layers::none());
        let some: Layers = "seccomp, cgroup".parse().unwrap();
        assert!(some.contains(Layer::Cgroup) && some.contains(Layer::Seccomp));
        assert!(!some.contains(Layer::Landlock));
        let error = "cgroups".parse::<Layers>().unwrap_err();
        assert!(
            error.contains("`cgroups`") && error.contains("namespaces"),
            "{error}"
        );
    }

    #[test]
    fn layers_not_wanted_are_off_and_say_so() {
        let isolation = Isolation::off();
        assert_eq!(isolation.active(), Layers::none());
        assert!(isolation.seccomp.detail.contains("switched off"));
        assert!(isolation.unavailable(&Layers::none()).is_empty());
    }
}
