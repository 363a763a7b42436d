//! The kernel's resource limits for a run, set in the child before exec.

use super::Limits;
use std::io;

/// Open files a program may hold: plenty for any solution or runtime, few enough to stop a descriptor leak.
const OPEN_FILES: u64 = 256;

/// The rlimits of one run, computed before the program starts, so that the child only makes system calls.
pub(crate) struct RlimitSet(Vec<(libc::__rlimit_resource_t, u64)>);

impl RlimitSet {
    /// The rlimits of a run; `cgroup` says whether a cgroup counts the run's memory, which then needs no
    /// address-space backstop (a cap on address space would only stop threads: glibc reserves each one a stack as
    /// large as the stack limit).
    pub fn for_limits(limits: &Limits, cgroup: bool) -> Self {
        let mut set = vec![
            (libc::RLIMIT_CPU, limits.cpu_backstop_secs()),
            (libc::RLIMIT_STACK, limits.stack.0),
            // One byte over the output limit: writing past it raises SIGXFSZ, and the size shows it was exceeded.
            (libc::RLIMIT_FSIZE, limits.output.0.saturating_add(1)),
            (libc::RLIMIT_CORE, 0),
            (libc::RLIMIT_NOFILE, OPEN_FILES),
        ];
        if limits.cap_address_space && !cgroup {
            set.push((libc::RLIMIT_AS, limits.address_space().0));
        }
        RlimitSet(set)
    }

    /// Adds one more limit.
    pub fn push(&mut self, resource: libc::__rlimit_resource_t, value: u64) {
        self.0.push((resource, value));
    }

    /// Applies every limit with hard = soft, so the program cannot raise them again.
    /// Only makes system calls: safe in the child before exec.
    pub fn apply(&self) -> io::Result<()> {
        for &(resource, value) in &self.0 {
            let limit = libc::rlimit {
                rlim_cur: value,
                rlim_max: value,
            };
            // SAFETY: setrlimit reads `limit` and nothing else.
            if unsafe { libc::setrlimit(resource, &limit) } == -1 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}
