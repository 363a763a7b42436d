//! A seccomp denylist: system calls that no solution, compiler or runtime needs, and that a hostile program could
//! use against the machine or the judge. Everything else is allowed, so no runtime breaks; a denied call fails
//! with EPERM (clone3 with ENOSYS, so that the C library falls back to clone, whose flags can be checked).
//!
//! A worker installs the whole list on itself, once, and every program it starts inherits it: attaching a filter
//! costs the kernel a compilation and a pass over every system call number, which a filter attached by each program
//! (24 us a run) would pay at every run. The worker needs a few of the calls itself, for its runs (mounting the
//! run's folder, giving the program a cgroup namespace, opening a counter of its CPU time): the filter allows those
//! only with a key, a random number each worker draws, as an argument that none of them reads (see [`keyed`]). The
//! key is in the worker's memory and, during its keyed calls, in its registers, which /proc shows only to a process
//! that may trace the worker: none of its runs may (the worker is not dumpable, and tracing calls are denied here; a
//! filter cannot be read back without both tracing it and CAP_SYS_ADMIN). A program starts with none of it: exec
//! replaces the memory it shared with the worker, and clears the registers.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch, sock_filter,
};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

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
    // open_tree_attr (Linux 6.15), which the C library does not name yet: open_tree with attributes set at once.
    ("open_tree_attr", 467),
    // Which pages of a file are in the page cache: one bit per page that another run (of this judge or another)
    // left there, a channel between runs; no program needs it to work. (So is a read that must not wait, below.)
    ("mincore", libc::SYS_mincore),
    // cachestat (Linux 6.5), which the C library does not name yet: the same, for a range at once.
    ("cachestat", 451),
    // Handing descriptors over a socket (SCM_RIGHTS), the one way an open file outlives every process of a run: left
    // in flight in sockets that hold each other, which the kernel collects only when some later socket is closed,
    // a descriptor keeps a lock on a file every run reads (its executable, say) for the next run to find. The
    // filter cannot see whether a message carries descriptors; nothing a solution, compiler or runtime does here
    // sends one (a socket pair is still written and read with write, send and recv).
    ("sendmsg", libc::SYS_sendmsg),
    ("sendmmsg", libc::SYS_sendmmsg),
    // Sockets of every family. Unix sockets reach every daemon on the machine as the judge's user, and netlink,
    // packet or vsock sockets reach further still. An internet socket reaches nothing in the worker's empty network
    // namespace, but what it tries is counted there (a datagram with no route, in /proc/net/snmp), and the namespace
    // lasts as long as the worker: the next run would read the count. A socket pair is still allowed.
    ("socket", libc::SYS_socket),
    // System V IPC and POSIX message queues. A run's objects live in the worker's IPC namespace, which lasts as long
    // as the worker; the worker retires itself when a run leaves one behind, but identifiers are handed out in
    // turn, so objects made and removed still moved the next run's first identifier on by their number. (A
    // namespace of each run's own would close that too, at 60 us a run.) POSIX semaphores and shared memory, which
    // are files in /dev/shm, still work.
    ("shmget", libc::SYS_shmget),
    ("shmat", libc::SYS_shmat),
    ("shmdt", libc::SYS_shmdt),
    ("shmctl", libc::SYS_shmctl),
    ("msgget", libc::SYS_msgget),
    ("msgsnd", libc::SYS_msgsnd),
    ("msgrcv", libc::SYS_msgrcv),
    ("msgctl", libc::SYS_msgctl),
    ("semget", libc::SYS_semget),
    ("semop", libc::SYS_semop),
    ("semtimedop", libc::SYS_semtimedop),
    ("semctl", libc::SYS_semctl),
    ("mq_open", libc::SYS_mq_open),
    ("mq_unlink", libc::SYS_mq_unlink),
    ("mq_timedsend", libc::SYS_mq_timedsend),
    ("mq_timedreceive", libc::SYS_mq_timedreceive),
    ("mq_notify", libc::SYS_mq_notify),
    ("mq_getsetattr", libc::SYS_mq_getsetattr),
    #[cfg(target_arch = "x86_64")]
    ("iopl", libc::SYS_iopl),
    #[cfg(target_arch = "x86_64")]
    ("ioperm", libc::SYS_ioperm),
];

/// getsockopt's options for a socket's cookie and its network namespace's (Linux 4.12 and 5.14).
const SO_COOKIE: libc::c_int = 57;
const SO_NETNS_COOKIE: libc::c_int = 71;

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

fn when(arg: u8, op: SeccompCmpOp, value: u64) -> When {
    When { arg, op, value }
}

/// A call is denied when all the conditions of any one of its rules hold.
type Rule = Vec<When>;

/// Denied with some arguments only.
fn conditional() -> Vec<(&'static str, libc::c_long, Vec<Rule>)> {
    use SeccompCmpOp::{Eq, MaskedEq, Ne};
    // Aimed at another process than the caller (argument `arg` is a PID, 0 for "myself").
    let at_others = |arg| vec![vec![when(arg, Ne, 0)]];
    // Aimed at anything but the caller: `which` is not "a process", or `who` is not "myself".
    let not_just_me = |process: u64| vec![vec![when(0, Ne, process)], vec![when(1, Ne, 0)]];
    let device = |arg| {
        [libc::S_IFCHR, libc::S_IFBLK]
            .map(|kind| vec![when(arg, MaskedEq(libc::S_IFMT as u64), kind as u64)])
            .to_vec()
    };
    let mut list = vec![
        (
            "clone",
            libc::SYS_clone,
            NAMESPACE_FLAGS
                .iter()
                .map(|&flag| vec![when(0, MaskedEq(flag), flag)])
                .collect(),
        ),
        // A socket pair connects nowhere, but a datagram end can still send to any named socket.
        (
            "socketpair",
            libc::SYS_socketpair,
            vec![vec![when(1, MaskedEq(0xf), libc::SOCK_DGRAM as u64)]],
        ),
        // Limits, priorities and scheduling of other processes (its own stay its business).
        ("prlimit64", libc::SYS_prlimit64, at_others(0)),
        (
            "setpriority",
            libc::SYS_setpriority,
            not_just_me(libc::PRIO_PROCESS as u64),
        ),
        // IOPRIO_WHO_PROCESS is 1.
        ("ioprio_set", libc::SYS_ioprio_set, not_just_me(1)),
        (
            "sched_setscheduler",
            libc::SYS_sched_setscheduler,
            at_others(0),
        ),
        ("sched_setparam", libc::SYS_sched_setparam, at_others(0)),
        ("sched_setattr", libc::SYS_sched_setattr, at_others(0)),
        (
            "sched_setaffinity",
            libc::SYS_sched_setaffinity,
            at_others(0),
        ),
        // Typing into a terminal.
        (
            "ioctl",
            libc::SYS_ioctl,
            [libc::TIOCSTI, libc::TIOCLINUX]
                // The request's type differs between C libraries.
                .map(|request| {
                    #[allow(clippy::unnecessary_cast)]
                    let request = request as u64;
                    vec![when(1, Eq, request)]
                })
                .to_vec(),
        ),
        // Device nodes.
        ("mknodat", libc::SYS_mknodat, device(2)),
        // A read or write that must not wait (RWF_NOWAIT) fails exactly where a file's pages are not in the page
        // cache: denied, as mincore is. The flags are the sixth argument (after the offset's two halves).
        (
            "preadv2",
            libc::SYS_preadv2,
            vec![vec![when(
                5,
                MaskedEq(libc::RWF_NOWAIT as u64),
                libc::RWF_NOWAIT as u64,
            )]],
        ),
        (
            "pwritev2",
            libc::SYS_pwritev2,
            vec![vec![when(
                5,
                MaskedEq(libc::RWF_NOWAIT as u64),
                libc::RWF_NOWAIT as u64,
            )]],
        ),
        // Socket buffers larger than the kernel's default: memory no process's resident memory shows.
        (
            "setsockopt",
            libc::SYS_setsockopt,
            [
                libc::SO_SNDBUF,
                libc::SO_RCVBUF,
                libc::SO_SNDBUFFORCE,
                libc::SO_RCVBUFFORCE,
            ]
            .map(|option| {
                vec![
                    when(1, Eq, libc::SOL_SOCKET as u64),
                    when(2, Eq, option as u64),
                ]
            })
            .to_vec(),
        ),
        // A socket's cookie, and its network namespace's: numbers handed out from one counter for the whole machine,
        // which a run can move to a place of its choosing and the next run, of any judge, can read.
        (
            "getsockopt",
            libc::SYS_getsockopt,
            [SO_COOKIE, SO_NETNS_COOKIE]
                .map(|option| {
                    vec![
                        when(1, Eq, libc::SOL_SOCKET as u64),
                        when(2, Eq, option as u64),
                    ]
                })
                .to_vec(),
        ),
        // Pausing the perf counters the process opened: the child that starts a program opens one on itself, which
        // the program is charged by (see `exec_clock`).
        (
            "prctl",
            libc::SYS_prctl,
            [
                libc::PR_TASK_PERF_EVENTS_DISABLE,
                libc::PR_TASK_PERF_EVENTS_ENABLE,
            ]
            .map(|option| vec![when(0, Eq, option as u64)])
            .to_vec(),
        ),
        // Enlarging a pipe: its buffer is memory that no cgroup-less count sees, so each pipe keeps the kernel's
        // default of 64 KiB. Taking a lease on a file (its output, which it owns while it runs): kept past the run
        // by a descriptor left in flight in sockets that hold each other, a lease made every later opening of the
        // file (the judge's, to compare it) wait 45 seconds for it to be broken.
        (
            "fcntl",
            libc::SYS_fcntl,
            [libc::F_SETPIPE_SZ, libc::F_SETLEASE]
                .map(|command| vec![when(1, Eq, command as u64)])
                .to_vec(),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    list.push(("mknod", libc::SYS_mknod, device(1)));
    list
}

/// The calls of the denylist that a worker makes for its runs: allowed with its key (see [`keyed`]). Each takes five
/// arguments at most, so the sixth is free to carry it.
const WORKER_NEEDS: &[libc::c_long] = &[
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    // Binding what a root judge's runs need into the worker's view (see `view`).
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    // A counter of the program's CPU time from its exec on, opened by the child that starts it (see `exec_clock`).
    libc::SYS_perf_event_open,
];

/// The argument that carries the key: the sixth, which none of [`WORKER_NEEDS`] reads.
const KEY_ARGUMENT: u8 = 5;

/// The key of the filter installed on this process; 0 while there is none. An atomic, so that the child that starts
/// a program (which shares the worker's memory until exec) reads it with no lock.
static KEY: AtomicU64 = AtomicU64::new(0);

/// Makes the system call `number` (one of [`WORKER_NEEDS`]) with `args`, and this process's key as the argument the
/// filter looks at. Only makes a system call: safe in the child before exec.
///
/// # Safety
/// As the system call itself asks of its arguments.
pub(super) unsafe fn keyed(number: libc::c_long, args: [usize; 5]) -> libc::c_long {
    debug_assert!(WORKER_NEEDS.contains(&number));
    let [a, b, c, d, e] = args;
    // SAFETY: as asked of our caller; the kernel does not read the sixth argument of these calls.
    unsafe { libc::syscall(number, a, b, c, d, e, KEY.load(Ordering::Relaxed)) }
}

/// The denylist, compiled for this machine's architecture once per worker, with a key of its own for the calls the
/// worker makes (see [`keyed`]).
pub(crate) struct SyscallFilter {
    program: BpfProgram,
    key: u64,
}

impl SyscallFilter {
    pub fn new() -> Result<SyscallFilter, String> {
        let arch = TargetArch::try_from(std::env::consts::ARCH)
            .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))?;
        let key = draw_key()?;
        let denied = denied(key)?;
        let named: Vec<i64> = denied.keys().copied().collect();
        let checks = compile(arch, denied, libc::EPERM)?;
        let program = assemble(arch, &named, checks);
        // seccompiler checks the length of its own part only.
        if program.len() > BPF_MAXINSNS {
            return Err(format!(
                "the system-call filter has {} instructions, over the kernel's {BPF_MAXINSNS}",
                program.len()
            ));
        }
        Ok(SyscallFilter { program, key })
    }

    /// How many system calls are denied, outright or with some arguments.
    pub fn denied_count() -> usize {
        DENIED.len() + conditional().len() + 1
    }

    /// Installs the filter on the calling process, for good: every program it starts has it, and the process's
    /// keyed calls carry its key from then on. A process takes one filter at most (a second would deny the first's
    /// key), and only one that is not dumpable: a dumpable process's memory, and the key in it, are open to other
    /// processes of its user, which its runs without namespaces are.
    pub fn apply(&self) -> io::Result<()> {
        if KEY.load(Ordering::Relaxed) != 0 {
            return Err(io::Error::other(
                "this process has a system-call filter already",
            ));
        }
        // SAFETY: prctl takes plain integers.
        if unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) } != 0 {
            return Err(io::Error::other(
                "a dumpable process would leave its filter's key open to its runs",
            ));
        }
        seccompiler::apply_filter(&self.program).map_err(io::Error::other)?;
        KEY.store(self.key, Ordering::Relaxed);
        Ok(())
    }
}

/// A key no program can guess: 64 bits from the kernel's generator, never 0 (the key of no filter).
fn draw_key() -> Result<u64, String> {
    let mut key = 0u64;
    while key == 0 {
        let mut bytes = [0u8; 8];
        // SAFETY: getrandom writes at most the length given into the buffer.
        let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
        if got != bytes.len() as isize {
            return Err(format!(
                "cannot draw the system-call filter's key: {}",
                io::Error::last_os_error()
            ));
        }
        key = u64::from_ne_bytes(bytes);
    }
    Ok(key)
}

/// The calls denied with EPERM, each with the rules of its arguments that deny it (none: always); those the worker
/// makes itself are denied without `key`.
fn denied(key: u64) -> Result<BTreeMap<i64, Vec<SeccompRule>>, String> {
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&(_, nr)| (nr, Vec::new())).collect();
    for (_, nr, conditions) in conditional() {
        // Every argument here is an int or a flag word: compare all 64 bits of those that are unsigned longs, the
        // low 32 of the rest (the kernel reads no more of them).
        let len = || {
            if nr == libc::SYS_clone {
                SeccompCmpArgLen::Qword
            } else {
                SeccompCmpArgLen::Dword
            }
        };
        let rules = conditions
            .into_iter()
            .map(|rule| {
                let conditions = rule
                    .into_iter()
                    .map(|w| SeccompCondition::new(w.arg, len(), w.op, w.value))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())?;
                SeccompRule::new(conditions).map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, String>>()?;
        denied.insert(nr, rules);
    }
    for &nr in WORKER_NEEDS {
        let without_key =
            SeccompCondition::new(KEY_ARGUMENT, SeccompCmpArgLen::Qword, SeccompCmpOp::Ne, key)
                .and_then(|condition| SeccompRule::new(vec![condition]))
                .map_err(|e| e.to_string())?;
        denied.insert(nr, vec![without_key]);
    }
    Ok(denied)
}

/// seccompiler's filter of `rules`, which fail with `errno` the calls they match and allow every other.
fn compile(
    arch: TargetArch,
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
) -> Result<BpfProgram, String> {
    let action = SeccompAction::Errno(errno as u32);
    let filter =
        SeccompFilter::new(rules, SeccompAction::Allow, action, arch).map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// The most instructions the kernel takes in a filter.
const BPF_MAXINSNS: usize = 4096;

/// The value the kernel gives a filter for the calls of `arch` (`AUDIT_ARCH_*`).
fn audit_arch(arch: TargetArch) -> u32 {
    match arch {
        TargetArch::x86_64 => 0xC000_003E,
        TargetArch::aarch64 => 0xC000_00B7,
        TargetArch::riscv64 => 0xC000_00F3,
    }
}

/// The filter: `checks` (seccompiler's, for the calls `named`), with what goes before them. seccompiler compares a
/// call's number with each call it names in turn, so each of the several hundred calls it does not name passes every
/// one of about a hundred comparisons; and the kernel runs a filter for every call number as it takes it, to learn
/// which calls it may allow without running it again. What goes first here finds the number among the named ones by
/// halving: a call of this machine's architecture that `named` does not hold is allowed (as `checks` would allow it)
/// after a few comparisons, and a named one goes on to `checks`, whose first step checks the architecture again; so
/// does a call of another architecture. It also refuses clone3 with ENOSYS, so that the C library falls back to clone,
/// whose flags `checks` can read, and on x86_64 the x32 calls, which carry the same architecture but numbers with bit
/// 30 set that no rule names (a kernel built without x32 refuses them anyway). One filter where these were three, each
/// of which the kernel took apart: a worker took 0.45 ms to attach them (0.34 ms the denied calls', `strace -T`), and
/// takes 0.16 ms to attach this. A named call found goes straight to its own checks in `checks`, where they can be
/// told apart, rather than past the checks of every call named before it.
fn assemble(arch: TargetArch, named: &[i64], checks: BpfProgram) -> BpfProgram {
    let named: Vec<u32> = named.iter().map(|&nr| nr as u32).collect();
    debug_assert!(named.is_sorted(), "the numbers are searched by halving");
    let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    let blocks = blocks(&checks).filter(|blocks| blocks.keys().eq(named.iter()));
    // The jumps to `checks` (where in `code`, and where to in `checks`), set once the length is known.
    let mut found = Found {
        blocks,
        jumps: Vec::new(),
    };
    // struct seccomp_data: the call's number, then its architecture.
    let mut code = vec![load(4), branch(libc::BPF_JEQ, audit_arch(arch), 1, 0)];
    found.jumps.push((code.len(), 0));
    code.extend([
        jump(0),
        load(0),
        branch(libc::BPF_JEQ, libc::SYS_clone3 as u32, 0, 1),
        ret(enosys),
    ]);
    if arch == TargetArch::x86_64 {
        const X32_SYSCALL_BIT: u32 = 0x4000_0000;
        code.extend([branch(libc::BPF_JGE, X32_SYSCALL_BIT, 0, 1), ret(enosys)]);
    }
    search(&named, &mut code, &mut found);
    let len = code.len();
    for (at, to) in found.jumps {
        code[at].k = (len - at - 1 + to) as u32;
    }
    code.extend(checks);
    code
}

/// Where the search's jumps to the checks go.
struct Found {
    /// Where each named call's own checks start in seccompiler's, if they could be told apart.
    blocks: Option<BTreeMap<u32, usize>>,
    /// Each jump to the checks: its place in the code, and where it goes in the checks.
    jumps: Vec<(usize, usize)>,
}

impl Found {
    /// Where in the checks a call numbered `nr` goes: its own, or the start of them all.
    fn target(&self, nr: u32) -> usize {
        self.blocks
            .as_ref()
            .and_then(|blocks| blocks.get(&nr).copied())
            .unwrap_or(0)
    }
}

/// Code that goes on to the checks if the number loaded is one of `named`, and allows the call if not; its jumps
/// to the checks are added to `found`.
fn search(named: &[u32], code: &mut BpfProgram, found: &mut Found) {
    if named.len() <= 4 {
        // Each match skips the rest to its own jump to the checks, which follow the allowing return.
        for &nr in named {
            code.push(branch(libc::BPF_JEQ, nr, named.len() as u8, 0));
        }
        code.push(ret(libc::SECCOMP_RET_ALLOW));
        for &nr in named {
            found.jumps.push((code.len(), found.target(nr)));
            code.push(jump(0));
        }
        return;
    }
    let (low, high) = named.split_at(named.len() / 2);
    // At or above the upper half's first: the jump over the lower half's code.
    code.push(branch(libc::BPF_JGE, high[0], 0, 1));
    let over = code.len();
    code.push(jump(0));
    search(low, code, found);
    code[over].k = (code.len() - over - 1) as u32;
    search(high, code, found);
}

/// Where each call's checks start in seccompiler's `checks`: after its architecture check, the call's number is
/// loaded, and each call named has a block of its own, which starts by comparing that number with its own and,
/// where they differ, hops over its rules by their first jumps to the next block. A block entered with the number
/// loaded decides as the whole chain would. None where the checks are not laid out so.
fn blocks(checks: &[sock_filter]) -> Option<BTreeMap<u32, usize>> {
    let number = load(0);
    let start = checks
        .iter()
        .position(|i| (i.code, i.k) == (number.code, number.k))?;
    let (jeq, ja) = (
        (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        (libc::BPF_JMP | libc::BPF_JA) as u16,
    );
    let mut blocks = BTreeMap::new();
    let mut at = start + 1;
    loop {
        let instruction = checks.get(at)?;
        match instruction.code {
            code if code == jeq && (instruction.jt, instruction.jf) == (0, 1) => {
                blocks.insert(instruction.k, at);
                at += 2;
            }
            code if code == ja => at += 1 + instruction.k as usize,
            code if code == (libc::BPF_RET | libc::BPF_K) as u16 => return Some(blocks),
            _ => return None,
        }
    }
}

/// Loads the word at `offset` in struct seccomp_data.
fn load(offset: u32) -> sock_filter {
    instruction(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, offset)
}

/// Skips `then` instructions where the word loaded meets `test` (`BPF_JEQ`, `BPF_JGE`) against `k`, `otherwise` where
/// not.
fn branch(test: u32, k: u32, then: u8, otherwise: u8) -> sock_filter {
    instruction(libc::BPF_JMP | test | libc::BPF_K, then, otherwise, k)
}

/// Skips `k` instructions.
fn jump(k: u32) -> sock_filter {
    instruction(libc::BPF_JMP | libc::BPF_JA, 0, 0, k)
}

/// Ends with `action` (`SECCOMP_RET_*`).
fn ret(action: u32) -> sock_filter {
    instruction(libc::BPF_RET | libc::BPF_K, 0, 0, action)
}

fn instruction(code: u32, jt: u8, jf: u8, k: u32) -> sock_filter {
    sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// Checks that the filter compiles and that the kernel takes it, in a throwaway child, and that it holds: a call the
/// worker makes is refused without the key, and taken with it.
pub(crate) fn probe() -> Result<String, String> {
    let filter = SyscallFilter::new()?;
    // Told apart from the kernel's refusals by an error no step here makes.
    const LET_THROUGH: i32 = libc::EPROTO;
    super::namespace::in_child(|| {
        filter.apply()?;
        // unshare with no flags changes nothing, and needs no privilege.
        // SAFETY: unshare takes plain integers.
        if unsafe { libc::syscall(libc::SYS_unshare, 0, 0, 0, 0, 0, 0) } != -1 {
            return Err(io::Error::from_raw_os_error(LET_THROUGH));
        }
        // SAFETY: as above.
        match unsafe { keyed(libc::SYS_unshare, [0; 5]) } {
            -1 => Err(io::Error::last_os_error()),
            _ => Ok(()),
        }
    })
    .map_err(|e| match e.raw_os_error() {
        Some(LET_THROUGH) => {
            "the system-call filter lets through a call it denies without its key".into()
        }
        _ => format!("the kernel refuses seccomp filters: {e}"),
    })?;
    Ok(format!(
        "denylist of {} system calls ({}, ...; clone with namespace flags, sockets, datagram socket pairs, \
         socket cookies, System V IPC and message queues, other processes' limits and priorities, device nodes, \
         typing into terminals, enlarging pipes and socket buffers, leases on files, handing descriptors over \
         sockets, reads that tell what is in the page cache, pausing the counter a run is charged by)",
        SyscallFilter::denied_count(),
        DENIED[..4]
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::namespace::in_child;

    /// What the child of a test found wrong, told apart from the kernel's own errors.
    const WRONG: i32 = libc::EPROTO;

    fn check(holds: bool) -> io::Result<()> {
        match holds {
            true => Ok(()),
            false => Err(io::Error::from_raw_os_error(WRONG)),
        }
    }

    /// Runs a classic BPF program as the kernel runs a seccomp filter, over `data` (struct seccomp_data): the
    /// instructions seccompiler and [`assemble`] make, and no other.
    /// Returns its action and how many instructions it ran.
    fn run(program: &[sock_filter], data: &[u8; 64]) -> (u32, usize) {
        let word =
            |at: u32| u32::from_ne_bytes(data[at as usize..at as usize + 4].try_into().unwrap());
        let (mut pc, mut a) = (0usize, 0u32);
        for steps in 1.. {
            let insn = &program[pc];
            let code = u32::from(insn.code);
            pc += 1;
            let jump = |taken: bool| usize::from(if taken { insn.jt } else { insn.jf });
            match code {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => a = word(insn.k),
                c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => a &= insn.k,
                c if c == libc::BPF_JMP | libc::BPF_JA => pc += insn.k as usize,
                c if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => pc += jump(a == insn.k),
                c if c == libc::BPF_JMP | libc::BPF_JGT | libc::BPF_K => pc += jump(a > insn.k),
                c if c == libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K => pc += jump(a >= insn.k),
                c if c == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K => {
                    pc += jump(a & insn.k != 0)
                }
                c if c == libc::BPF_RET | libc::BPF_K => return (insn.k, steps),
                other => panic!("an instruction this runner does not know: {other:#x}"),
            }
        }
        unreachable!()
    }

    /// The filter as it was made before it was one: seccompiler's for the denied calls and for clone3, and a guard
    /// against x32 numbers, attached in that order.
    fn three_filters(key: u64) -> Vec<BpfProgram> {
        let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
        let eperm = compile(arch, denied(key).unwrap(), libc::EPERM).unwrap();
        let clone3 = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
        let enosys = compile(arch, clone3, libc::ENOSYS).unwrap();
        let x32_guard = vec![
            load(0),
            branch(libc::BPF_JGE, 0x4000_0000, 0, 1),
            ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
            ret(libc::SECCOMP_RET_ALLOW),
        ];
        let mut attached = vec![eperm, enosys];
        if arch == TargetArch::x86_64 {
            attached.push(x32_guard);
        }
        attached
    }

    /// What filters `attached` in this order decide: the kernel runs the last attached first, and keeps the most
    /// restrictive action (the lowest, as a signed number), the first one found on a tie.
    fn run_all(attached: &[BpfProgram], data: &[u8; 64]) -> u32 {
        let mut action = libc::SECCOMP_RET_ALLOW;
        for program in attached.iter().rev() {
            let found = run(program, data).0;
            let only = |action: u32| (action & libc::SECCOMP_RET_ACTION_FULL) as i32;
            if only(found) < only(action) {
                action = found;
            }
        }
        action
    }

    /// The filter decides every call as the three filters it replaced did: every call number of this architecture,
    /// of the x32 numbers and of another architecture, with arguments that match the rules and that do not, the
    /// worker's key among them. And it allows a call it does not name within a few steps, where seccompiler's
    /// checks alone take over a hundred.
    #[test]
    fn the_filter_decides_every_call_as_its_three_parts_did() {
        let filter = SyscallFilter::new().unwrap();
        let before = three_filters(filter.key);
        let arch = audit_arch(TargetArch::try_from(std::env::consts::ARCH).unwrap());
        let data = |nr: u32, arch: u32, args: [u64; 6]| {
            let mut data = [0u8; 64];
            data[..4].copy_from_slice(&nr.to_ne_bytes());
            data[4..8].copy_from_slice(&arch.to_ne_bytes());
            for (i, arg) in args.iter().enumerate() {
                data[16 + 8 * i..24 + 8 * i].copy_from_slice(&arg.to_ne_bytes());
            }
            data
        };
        let mut decided = std::collections::BTreeMap::new();
        for arch in [arch, 0x4000_0003] {
            for nr in (0..600).chain(0x4000_0000..0x4000_0200) {
                for args in [
                    [0u64; 6],
                    [u64::MAX; 6],
                    [1, 2, 3, 4, 5, filter.key],
                    [0x7e02_0000; 6],
                ] {
                    let data = data(nr, arch, args);
                    let action = run(&filter.program, &data).0;
                    assert_eq!(
                        action,
                        run_all(&before, &data),
                        "call {nr:#x}, architecture {arch:#x}, arguments {args:x?}"
                    );
                    *decided.entry(action).or_insert(0) += 1;
                }
            }
        }
        // Allowed, refused with EPERM and ENOSYS, and killed (another architecture).
        assert_eq!(decided.len(), 4, "{decided:x?}");
        let read = data(libc::SYS_read as u32, arch, [0; 6]);
        let (allowed, steps) = run(&filter.program, &read);
        assert_eq!(allowed, libc::SECCOMP_RET_ALLOW);
        assert!(steps <= 20, "{steps} steps to allow read");
        let ptrace = data(libc::SYS_ptrace as u32, arch, [0; 6]);
        assert_eq!(
            run(&filter.program, &ptrace).0,
            libc::SECCOMP_RET_ERRNO | libc::EPERM as u32
        );
        // A named call goes to its own checks, not past every named call's before it (one of the last, with the
        // worker's key and without it).
        for (key, action) in [
            (filter.key, libc::SECCOMP_RET_ALLOW),
            (0, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
        ] {
            let late = data(libc::SYS_mount_setattr as u32, arch, [0, 0, 0, 0, 0, key]);
            let (decided, steps) = run(&filter.program, &late);
            assert_eq!(decided, action);
            assert!(steps <= 30, "{steps} steps to decide mount_setattr");
        }
    }

    #[test]
    fn a_dumpable_process_takes_no_filter() {
        let filter = SyscallFilter::new().unwrap();
        let result = in_child(|| {
            // SAFETY: prctl takes plain integers.
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) };
            check(filter.apply().is_err())
        });
        assert!(result.is_ok(), "{result:?}");
    }

    #[test]
    fn the_workers_calls_go_through_with_its_key_alone_and_a_second_filter_is_refused() {
        let filter = SyscallFilter::new().unwrap();
        let other = SyscallFilter::new().unwrap();
        let result = in_child(|| {
            // SAFETY: prctl takes plain integers.
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
            filter.apply()?;
            // SAFETY: unshare with no flags changes nothing.
            check(unsafe { keyed(libc::SYS_unshare, [0; 5]) } == 0)?;
            // SAFETY: as above.
            check(unsafe { libc::syscall(libc::SYS_unshare, 0, 0, 0, 0, 0, other.key) } == -1)?;
            check(other.apply().is_err())?;
            // SAFETY: as above.
            check(unsafe { keyed(libc::SYS_unshare, [0; 5]) } == 0)
        });
        assert!(result.is_ok(), "{result:?}");
    }
}
