//! One run of a program under limits: spawn, rlimits, wall and CPU timers, killing the whole process tree,
//! reaping it, and measuring what the kernel accounted.
//!
//! Runs are carried out by workers: long-lived copies of this executable (`cpjudge __supervise`), one per
//! run going at once, each the parent and subreaper of every program it starts (in its namespaces, their PID 1),
//! so that processes which escape with `setsid` are still found, killed and reaped before it reports. The harness
//! sends a worker requests on a socket, with each run's standard streams attached; replies come back on its
//! stdout, and a worker kills its run and ends when the harness closes its requests (it died or was
//! interrupted).

mod cgroup;
mod confine;
mod excerpt;
mod exec_clock;
mod filesystem;
mod input;
mod isolation;
mod kept_probe;
mod limits;
mod mounts;
mod namespace;
mod process;
mod reach;
mod runner;
mod spawn;
mod spec;
mod supervisor;
mod syscalls;
mod trial;
mod view;
mod wire;
mod worker;

pub use isolation::{Enforcement, Isolation, Layer, LayerStatus, Layers};
pub use kept_probe::{Probe, forget_after, probe_ahead, probe_for_sandbox, probe_once};
pub(crate) use namespace::HELD_WORKDIR;
pub(crate) use process::{
    become_subreaper, close_inherited_on_exec, kill_orphans, pipe, signal_name,
};
pub use process::{not_dumpable, own_peak_memory};
pub use runner::{Runner, SUPERVISE_ARG, Sandbox, prestart, wait_for_released};
pub use spec::{
    LimitKind, Limits, Reply, Request, RunResult, RunSpec, Termination, Trust, small_env,
};
pub use trial::{PROBE_ARG, echo};
pub use worker::serve;
