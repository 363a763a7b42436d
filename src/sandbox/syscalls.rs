//! A seccomp denylist: system calls that no solution, compiler or runtime needs, and that a hostile program could
//! use against the machine or the judge. Everything else is allowed, so no runtime breaks; a denied call fails
//! with EPERM (clone3 with ENOSYS, so that the C library falls back to clone, whose flags can be checked).

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::io;

/// Denied outright.
const DENIED: &[(&str, libc::c_long)] = &[
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("pidfd_getfd", libc::SYS_pidfd_getfd),
    ("kcmp", libc::SYS_kcmp),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("reboot", libc::SYS_reboot),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("keyctl", libc::SYS_keyctl),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("settimeofday", libc::SYS_settimeofday),
    ("clock_settime", libc::SYS_clock_settime),
    ("clock_adjtime", libc::SYS_clock_adjtime),
    ("adjtimex", libc::SYS_adjtimex),
    ("sethostname", libc::SYS_sethostname),
    ("setdomainname", libc::SYS_setdomainname),
    ("syslog", libc::SYS_syslog),
    ("vhangup", libc::SYS_vhangup),
    ("fanotify_init", libc::SYS_fanotify_init),
    #[cfg(target_arch = "x86_64")]
    ("iopl", libc::SYS_iopl),
    #[cfg(target_arch = "x86_64")]
    ("ioperm", libc::SYS_ioperm),
];

/// clone flags that make new namespaces: a thread or a fork is fine, a namespace is not.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// The denylist, compiled for this machine's architecture before fork.
pub(crate) struct SyscallFilter {
    programs: Vec<BpfProgram>,
}

impl SyscallFilter {
    pub fn new() -> Result<SyscallFilter, String> {
        let arch = TargetArch::try_from(std::env::consts::ARCH)
            .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))?;
        let compile = |rules, action| -> Result<BpfProgram, String> {
            let filter = SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
                .map_err(|e| e.to_string())?;
            filter
                .try_into()
                .map_err(|e: seccompiler::BackendError| e.to_string())
        };
        let mut denied: BTreeMap<i64, Vec<SeccompRule>> =
            DENIED.iter().map(|&(_, nr)| (nr, Vec::new())).collect();
        let clone_rules = NAMESPACE_FLAGS
            .iter()
            .map(|&flag| {
                let condition = SeccompCondition::new(
                    0,
                    SeccompCmpArgLen::Qword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )
                .map_err(|e| e.to_string())?;
                SeccompRule::new(vec![condition]).map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, String>>()?;
        denied.insert(libc::SYS_clone, clone_rules);
        let eperm = compile(denied, SeccompAction::Errno(libc::EPERM as u32))?;
        let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
        let enosys = compile(clone3, SeccompAction::Errno(libc::ENOSYS as u32))?;
        Ok(SyscallFilter {
            programs: vec![eperm, enosys],
        })
    }

    /// How many system calls are denied (clone counted once, for its namespace flags).
    pub fn denied_count() -> usize {
        DENIED.len() + 2
    }

    /// Installs the filters on the calling process. Only makes system calls: safe between fork and exec.
    pub fn apply(&self) -> io::Result<()> {
        for program in &self.programs {
            seccompiler::apply_filter(program).map_err(io::Error::other)?;
        }
        Ok(())
    }
}

/// Checks that the filter compiles and that the kernel takes it, in a throwaway child.
pub(crate) fn probe() -> Result<String, String> {
    let filter = SyscallFilter::new()?;
    super::namespace::in_child(|| filter.apply())
        .map_err(|e| format!("the kernel refuses seccomp filters: {e}"))?;
    Ok(format!(
        "denylist of {} system calls ({}, ...) and clone with namespace flags",
        SyscallFilter::denied_count(),
        DENIED[..4]
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
