//! One run of a program under limits: spawn, rlimits, wall and CPU timers, killing the whole process tree,
//! reaping it, and measuring what the kernel accounted.
//!
//! A run is carried out by a supervisor: a fresh copy of this executable (`cpjudge __supervise`) that becomes
//! the child subreaper of everything the program starts, so that processes which escape with `setsid` are still
//! found, killed and reaped before the supervisor reports. The harness talks to it over two pipes: the run's spec
//! goes in on its stdin, the result comes back on its stdout, and the supervisor kills the run if its stdin closes
//! (the harness died or was interrupted).

mod cgroup;
mod confine;
mod excerpt;
mod filesystem;
mod isolation;
mod limits;
mod namespace;
mod process;
mod runner;
mod spec;
mod supervisor;
mod syscalls;
mod trial;

pub use isolation::{Enforcement, Isolation, Layer, LayerStatus, Layers};
pub use process::own_peak_memory;
pub(crate) use process::{become_subreaper, kill_orphans, pid_namespace, signal_name};
pub use runner::{Runner, SUPERVISE_ARG, Sandbox};
pub use spec::{LimitKind, Limits, Request, RunResult, RunSpec, Termination, Trust, small_env};
pub use supervisor::supervise;
pub use trial::{PROBE_ARG, echo};
