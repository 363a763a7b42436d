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

/// One way a system call is denied only with some arguments: argument `arg` compared with `value`.
#[derive(Clone)]
struct When {
    arg: u8,
    op: SeccompCmpOp,
    value: u64,
}

/// `arg` is not 0: the call is aimed at another process than the caller.
const AT_OTHERS: When = When {
    arg: 0,
    op: SeccompCmpOp::Ne,
    value: 0,
};

/// Denied with some arguments only: each entry denies the call when any one of its conditions holds.
fn conditional() -> Vec<(&'static str, libc::c_long, Vec<When>)> {
    let who = |arg| When {
        arg,
        op: SeccompCmpOp::Ne,
        value: 0,
    };
    let device = |arg| {
        [libc::S_IFCHR, libc::S_IFBLK].map(|kind| When {
            arg,
            op: SeccompCmpOp::MaskedEq(libc::S_IFMT as u64),
            value: kind as u64,
        })
    };
    let mut list = vec![
        (
            "clone",
            libc::SYS_clone,
            NAMESPACE_FLAGS
                .iter()
                .map(|&flag| When {
                    arg: 0,
                    op: SeccompCmpOp::MaskedEq(flag),
                    value: flag,
                })
                .collect(),
        ),
        // Unix sockets reach every daemon on the machine, as the judge's user; nothing a solution does needs one
        // (socketpair, which connects nowhere, stays allowed).
        (
            "socket",
            libc::SYS_socket,
            vec![When {
                arg: 0,
                op: SeccompCmpOp::Eq,
                value: libc::AF_UNIX as u64,
            }],
        ),
        // Limits, priorities and scheduling of other processes (its own stay its business).
        ("prlimit64", libc::SYS_prlimit64, vec![AT_OTHERS]),
        ("setpriority", libc::SYS_setpriority, vec![who(1)]),
        ("ioprio_set", libc::SYS_ioprio_set, vec![who(1)]),
        (
            "sched_setscheduler",
            libc::SYS_sched_setscheduler,
            vec![AT_OTHERS],
        ),
        ("sched_setparam", libc::SYS_sched_setparam, vec![AT_OTHERS]),
        ("sched_setattr", libc::SYS_sched_setattr, vec![AT_OTHERS]),
        (
            "sched_setaffinity",
            libc::SYS_sched_setaffinity,
            vec![AT_OTHERS],
        ),
        // Typing into a terminal.
        (
            "ioctl",
            libc::SYS_ioctl,
            [libc::TIOCSTI, libc::TIOCLINUX]
                .map(|request| When {
                    arg: 1,
                    op: SeccompCmpOp::Eq,
                    // The request's type differs between C libraries.
                    #[allow(clippy::unnecessary_cast)]
                    value: request as u64,
                })
                .to_vec(),
        ),
        // Device nodes.
        ("mknodat", libc::SYS_mknodat, device(2).to_vec()),
    ];
    #[cfg(target_arch = "x86_64")]
    list.push(("mknod", libc::SYS_mknod, device(1).to_vec()));
    list
}

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
        for (_, nr, conditions) in conditional() {
            let rules = conditions
                .into_iter()
                .map(|when| {
                    // Every argument here is an int or a flag word: compare all 64 bits of those that are
                    // unsigned longs, the low 32 of the rest.
                    let len = if nr == libc::SYS_clone {
                        SeccompCmpArgLen::Qword
                    } else {
                        SeccompCmpArgLen::Dword
                    };
                    let condition = SeccompCondition::new(when.arg, len, when.op, when.value)
                        .map_err(|e| e.to_string())?;
                    SeccompRule::new(vec![condition]).map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<_>, String>>()?;
            denied.insert(nr, rules);
        }
        let eperm = compile(denied, SeccompAction::Errno(libc::EPERM as u32))?;
        let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
        let enosys = compile(clone3, SeccompAction::Errno(libc::ENOSYS as u32))?;
        let mut programs = vec![eperm, enosys];
        programs.extend(x32_guard());
        Ok(SyscallFilter { programs })
    }

    /// How many system calls are denied, outright or with some arguments.
    pub fn denied_count() -> usize {
        DENIED.len() + conditional().len() + 1
    }

    /// Installs the filters on the calling process. Only makes system calls: safe between fork and exec.
    pub fn apply(&self) -> io::Result<()> {
        for program in &self.programs {
            seccompiler::apply_filter(program).map_err(io::Error::other)?;
        }
        Ok(())
    }
}

/// On x86_64, the x32 system calls carry the same architecture but numbers with bit 30 set, which no rule above
/// names: they are refused outright (a kernel built without x32 refuses them anyway).
#[cfg(target_arch = "x86_64")]
fn x32_guard() -> Option<BpfProgram> {
    use seccompiler::sock_filter;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let op = |code: u32, jt: u8, jf: u8, k: u32| sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let errno = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    Some(vec![
        // The syscall number is the first field of struct seccomp_data.
        op(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
        op(
            libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K,
            0,
            1,
            X32_SYSCALL_BIT,
        ),
        op(libc::BPF_RET | libc::BPF_K, 0, 0, errno),
        op(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ])
}

#[cfg(not(target_arch = "x86_64"))]
fn x32_guard() -> Option<BpfProgram> {
    None
}

/// Checks that the filter compiles and that the kernel takes it, in a throwaway child.
pub(crate) fn probe() -> Result<String, String> {
    let filter = SyscallFilter::new()?;
    super::namespace::in_child(|| filter.apply())
        .map_err(|e| format!("the kernel refuses seccomp filters: {e}"))?;
    Ok(format!(
        "denylist of {} system calls ({}, ...; clone with namespace flags, Unix sockets, other processes' \
         limits and priorities, device nodes, typing into terminals)",
        SyscallFilter::denied_count(),
        DENIED[..4]
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
