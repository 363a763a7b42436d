//! Starting a run's program without copying the worker: `clone(CLONE_VM | CLONE_VFORK)`, a child that shares the
//! worker's memory, on a stack of its own, until it calls exec. The worker is suspended meanwhile, so its address
//! space is neither copied at the start nor torn down again at exec (a cost the run's cgroup would be charged), and
//! the child only makes system calls on what was made beforehand: the places the program may be found at, its
//! arguments and environment, its streams and its confinement. Where the kernel gives a counter of the program's CPU
//! time from exec on, the child also shares the worker's descriptors at first, opens the counter into them, and takes
//! a table of its own before it touches any (see `exec_clock`).
//!
//! The worker handles no signal itself (only the faults of its own stack overflowing, which the child's code does
//! not reach), so no handler of its can run in the child and touch the memory they share.

use super::confine::Confinement;
use super::exec_clock::{Counter, ExecClock};
use super::process;
use super::syscalls;
use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;
use std::time::Duration;

/// The CPU time the program's process used before it called exec, as it read its own clock just before: its start,
/// the sandbox's work (its streams, its confinement, the worker's descriptors closed), which the program is not
/// charged for. The exec itself is left in it, as the child cannot read its clock from inside the exec: where the
/// kernel gives a counter from exec on, that is charged instead (see `exec_clock`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct StartCost {
    /// From its clone to just before exec: what the kernel counts for the process (its clock, its rusage).
    pub total: Duration,
    /// From just before it joined the run's cgroup to just before exec: what the cgroup counts of it.
    pub in_cgroup: Duration,
}

/// The size of the child's stack: far more than entering the confinement takes.
const STACK_SIZE: usize = 256 * 1024;

/// A program ready to be started: everything the child needs, made beforehand.
pub(super) struct Program {
    /// Where exec looks for it, in turn: the path itself if it has a slash, else each folder of the run's own PATH,
    /// as the C library's execvp looks.
    places: Vec<CString>,
    /// The arguments and the environment (which the lists point into), and their lists as exec takes them (ending
    /// in a null pointer).
    argv: Vec<CString>,
    argv_list: Vec<*const libc::c_char>,
    _envp: Vec<CString>,
    envp_list: Vec<*const libc::c_char>,
    /// The arguments for `/bin/sh` where a place holds a script without a `#!` line, as execvp runs one: the
    /// second is set to the place in the child.
    script_list: Vec<*const libc::c_char>,
    workdir: CString,
}

impl Program {
    /// The program of a run of `argv` with the environment `env` (which alone gives the PATH it is looked for in),
    /// working in `workdir`.
    pub fn new(
        argv: &[std::ffi::OsString],
        env: &[(std::ffi::OsString, std::ffi::OsString)],
        workdir: &std::path::Path,
    ) -> io::Result<Program> {
        let c =
            |s: &[u8]| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
        let name = argv
            .first()
            .ok_or_else(|| io::Error::other("empty command line"))?;
        let name = name.as_bytes();
        let places = if name.contains(&b'/') {
            vec![c(name)?]
        } else {
            let path = env
                .iter()
                .find(|(key, _)| key == "PATH")
                .map_or(OsStr::new("/bin:/usr/bin"), |(_, value)| value.as_os_str());
            path.as_bytes()
                .split(|&b| b == b':')
                .map(|dir| match dir {
                    // An empty entry is the working directory.
                    b"" => c(name),
                    dir => c(&[dir, b"/", name].concat()),
                })
                .collect::<io::Result<_>>()?
        };
        let argv: Vec<CString> = argv
            .iter()
            .map(|a| c(a.as_bytes()))
            .collect::<io::Result<_>>()?;
        let envp: Vec<CString> = env
            .iter()
            .map(|(k, v)| c(&[k.as_bytes(), b"=", v.as_bytes()].concat()))
            .collect::<io::Result<_>>()?;
        let list = |strings: &[CString]| {
            strings
                .iter()
                .map(|s| s.as_ptr())
                .chain([std::ptr::null()])
                .collect::<Vec<_>>()
        };
        let script_list = [c"/bin/sh".as_ptr(), std::ptr::null()]
            .into_iter()
            .chain(list(&argv).into_iter().skip(1))
            .collect();
        Ok(Program {
            places,
            argv_list: list(&argv),
            envp_list: list(&envp),
            argv,
            _envp: envp,
            script_list,
            workdir: c(workdir.as_os_str().as_bytes())?,
        })
    }

    /// The program's name as it was asked for.
    pub fn name(&self) -> std::borrow::Cow<'_, str> {
        self.argv[0].to_string_lossy()
    }

    /// Starts the program with its standard input and output on `stdin` and `stdout`, in `confinement`, as a child
    /// of the worker `worker`, once it has called exec; or says why it could not be started (it is then reaped). The
    /// child opens a counter from exec with `counter`, where given.
    pub fn start(
        &mut self,
        stdin: &File,
        stdout: &File,
        confinement: &Confinement,
        worker: libc::pid_t,
        counter: Option<&'static Counter>,
    ) -> io::Result<Started> {
        let (read, write) = process::pipe()?;
        let stack = stack()?;
        // Where a counter is opened, the child shares the worker's descriptors until it has opened it.
        let files = match counter {
            Some(_) => libc::CLONE_FILES,
            None => 0,
        };
        let mut launch = Launch {
            program: self,
            streams: [stdin.as_raw_fd(), stdout.as_raw_fd(), write.as_raw_fd()],
            confinement,
            worker,
            counter,
            clock: None,
            start: StartCost::default(),
            failed: None,
        };
        // SAFETY: the child runs on a stack of its own, only makes system calls on `launch` (which outlives it: the
        // worker is suspended until it has called exec or exited), and never returns.
        let pid = unsafe {
            libc::clone(
                child,
                stack,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | files,
                (&raw mut launch).cast(),
            )
        };
        if pid == -1 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a counter the child opened in the worker's descriptors, which nothing else owns; taken whether or
        // not the program started.
        let clock = launch.clock.map(|fd| unsafe { ExecClock::from_raw_fd(fd) });
        if let Some(e) = launch.failed.take() {
            let mut status = 0;
            // SAFETY: waitpid writes only to `status`; the child is ours and has exited.
            while unsafe { libc::waitpid(pid, &mut status, libc::__WALL) } == -1
                && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
            return Err(e);
        }
        Ok(Started {
            pid,
            stderr: read,
            start: launch.start,
            clock,
        })
    }
}

/// A program that has called exec.
pub(super) struct Started {
    pub pid: libc::pid_t,
    /// The read end of a pipe that is its standard error.
    pub stderr: File,
    /// The CPU time its start took.
    pub start: StartCost,
    /// Its CPU time from exec on, where the kernel gives a counter.
    pub clock: Option<ExecClock>,
}

/// What the child is given, in the worker's memory: it writes there why it could not call exec.
struct Launch<'a> {
    program: &'a mut Program,
    /// Its standard input, output and error, as the worker holds them.
    streams: [RawFd; 3],
    confinement: &'a Confinement,
    worker: libc::pid_t,
    /// How the child opens a counter of its CPU time from exec on, for the worker, and the counter it opened.
    counter: Option<&'static Counter>,
    clock: Option<RawFd>,
    /// What its start took, as the child read its clock before exec.
    start: StartCost,
    failed: Option<io::Error>,
}

/// The child: takes its streams and working directory, enters its confinement, and calls exec; or says why not,
/// and exits.
extern "C" fn child(launch: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the worker passes its Launch, and stays suspended until this child has called exec or exited.
    let launch = unsafe { &mut *launch.cast::<Launch<'_>>() };
    // SAFETY: this is the child of a single-threaded worker that shares its memory, as `enter` asks.
    let e = unsafe { launch.go() };
    launch.failed = Some(e);
    // SAFETY: _exit ends the child at once, running nothing of the worker's.
    unsafe { libc::_exit(127) }
}

impl Launch<'_> {
    /// Returns only if exec was not reached.
    ///
    /// # Safety
    /// In the child of [`Program::start`].
    unsafe fn go(&mut self) -> io::Error {
        if let Some(counter) = self.counter {
            // SAFETY: in the child, which shares the worker's descriptors until the unshare below.
            self.clock = unsafe { counter.open() };
            // A table of its own before anything else: the streams below go onto its own descriptors 0 to 2, and
            // the program holds none of the worker's (the counter among them).
            // SAFETY: unshare takes a plain flag.
            if unsafe {
                syscalls::keyed(libc::SYS_unshare, [libc::CLONE_FILES as usize, 0, 0, 0, 0])
            } == -1
            {
                return io::Error::last_os_error();
            }
        }
        for (target, &fd) in self.streams.iter().enumerate() {
            let target = target as RawFd;
            // SAFETY: plain system calls on descriptors the worker holds open.
            let done = unsafe {
                match fd == target {
                    // Already in place: only kept across exec.
                    true => libc::fcntl(fd, libc::F_SETFD, 0),
                    false => libc::dup2(fd, target),
                }
            };
            if done == -1 {
                return io::Error::last_os_error();
            }
        }
        // As a program started by the C library expects: SIGPIPE at its default (the worker ignores it), and no
        // signal blocked.
        // SAFETY: plain system calls; a zeroed sigset_t is a valid empty set.
        unsafe {
            let none: libc::sigset_t = std::mem::zeroed();
            if libc::chdir(self.program.workdir.as_ptr()) == -1
                || libc::signal(libc::SIGPIPE, libc::SIG_DFL) == libc::SIG_ERR
                || libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) == -1
            {
                return io::Error::last_os_error();
            }
        }
        // SAFETY: as asked of this function.
        let joined = match unsafe { self.confinement.enter(self.worker) } {
            Ok(joined) => joined,
            Err(e) => return e,
        };
        // Nothing after needs a descriptor but its streams.
        process::close_inherited();
        let total = process::own_cpu_time();
        self.start = StartCost {
            total,
            in_cgroup: total.saturating_sub(joined),
        };
        self.exec()
    }

    /// Calls exec on each place in turn, as execvp does: past those where nothing is found, to the first other
    /// failure; a script without a `#!` line is run by `/bin/sh`.
    fn exec(&mut self) -> io::Error {
        let program = &mut *self.program;
        let mut denied = false;
        let mut last = io::Error::from_raw_os_error(libc::ENOENT);
        for place in &program.places {
            // SAFETY: a C string and two lists of C strings ending in a null pointer, all alive.
            unsafe {
                libc::execve(
                    place.as_ptr(),
                    program.argv_list.as_ptr(),
                    program.envp_list.as_ptr(),
                )
            };
            let mut e = io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::ENOEXEC) {
                program.script_list[1] = place.as_ptr();
                // SAFETY: as above.
                unsafe {
                    libc::execve(
                        c"/bin/sh".as_ptr(),
                        program.script_list.as_ptr(),
                        program.envp_list.as_ptr(),
                    )
                };
                e = io::Error::last_os_error();
            }
            match e.raw_os_error() {
                Some(libc::EACCES) => denied = true,
                Some(
                    libc::ENOENT | libc::ENOTDIR | libc::ESTALE | libc::ENODEV | libc::ETIMEDOUT,
                ) => {}
                _ => return e,
            }
            last = e;
        }
        match denied {
            true => io::Error::from_raw_os_error(libc::EACCES),
            false => last,
        }
    }
}

/// The child's stack, mapped once per worker (one run at a time uses it), with a page below it that no access
/// may reach: its top.
fn stack() -> io::Result<*mut libc::c_void> {
    static STACK: OnceLock<Option<usize>> = OnceLock::new();
    let top = STACK.get_or_init(|| {
        // SAFETY: sysconf has no preconditions; then a new private mapping, and a change of protection of its
        // lowest page.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(4096) as usize;
            let base = libc::mmap(
                std::ptr::null_mut(),
                STACK_SIZE + page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            );
            if base == libc::MAP_FAILED || libc::mprotect(base, page, libc::PROT_NONE) == -1 {
                return None;
            }
            Some(base as usize + page + STACK_SIZE)
        }
    });
    top.map(|top| top as *mut libc::c_void)
        .ok_or_else(|| io::Error::other("cannot map a stack for the program's start"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The child's stack is one per process, as a worker starts one program at a time: so do these tests.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    /// Starts `argv` with no confinement, as a child of this process, and waits for it to exit with 0; returns how
    /// it was started and the CPU time the kernel counted for it (its start included).
    fn run_to_end(argv: &[std::ffi::OsString]) -> (Started, Duration) {
        let stdin = File::open("/dev/null").unwrap();
        let stdout = File::options().write(true).open("/dev/null").unwrap();
        let mut program = Program::new(argv, &[], std::path::Path::new("/")).unwrap();
        // SAFETY: getpid has no preconditions.
        let worker = unsafe { libc::getpid() };
        let started = {
            let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
            program
                .start(
                    &stdin,
                    &stdout,
                    &Confinement::bare(),
                    worker,
                    Counter::get(),
                )
                .unwrap()
        };
        // SAFETY: a zeroed rusage is valid, and wait4 writes only to `status` and `usage`.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let mut status = 0;
        // SAFETY: as above; the child is ours.
        let waited = unsafe { libc::wait4(started.pid, &mut status, 0, &mut usage) };
        assert_eq!(waited, started.pid);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        (started, time(usage.ru_utime) + time(usage.ru_stime))
    }

    /// The start is read by the child before exec, and is part of what the kernel counts for the process: taking
    /// it off what the process used never leaves less than nothing.
    #[test]
    fn the_start_is_measured_within_what_the_process_used() {
        let (Started { start, .. }, used) = run_to_end(&["/bin/true".into()]);
        assert!(start.total > Duration::ZERO, "{start:?}");
        assert!(start.in_cgroup <= start.total, "{start:?}");
        assert!(start.total <= used, "{start:?} against {used:?} in all");
    }

    /// The counter from exec holds the program's children too, and falls short of what the kernel counted of the
    /// whole process only by the exec's first part: a shell that waits for a busy child of its own.
    #[test]
    fn the_counter_from_exec_holds_the_programs_children() {
        let busy = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
        let argv = [
            "/bin/sh".into(),
            "-c".into(),
            format!("({busy}) & wait").into(),
        ];
        let (started, used) = run_to_end(&argv);
        // Only where the kernel refused one, which is then remembered.
        let Some(clock) = started.clock else {
            let why = super::super::exec_clock::unavailable()
                .expect("no counter, though the kernel did not refuse one");
            eprintln!("skipped: {why}");
            return;
        };
        let counted = used.saturating_sub(started.start.total);
        let from_exec = clock.read().unwrap();
        assert!(
            counted >= Duration::from_millis(5),
            "the busy child did not run: {counted:?}"
        );
        // A task clock also counts what interrupts and the hypervisor took from the program while it ran, which the
        // kernel's count leaves out: on a loaded machine it may stand a little above it (17.2 ms against 16.7 ms,
        // once in eight runs of the unit tests here).
        assert!(
            from_exec <= counted + counted / 10,
            "{from_exec:?} from exec, {counted:?} counted"
        );
        assert!(
            counted.saturating_sub(from_exec) <= super::super::exec_clock::EXEC_ALLOWANCE,
            "{from_exec:?} from exec, {counted:?} counted: the child's time is missing"
        );
    }
}
