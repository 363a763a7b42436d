//! The program's CPU time counted from its exec, as `perf stat` counts a program: a task-clock counter that the
//! child opens on itself just before exec, enabled by the kernel once exec has replaced the worker's memory, and
//! inherited by every thread and process the program starts. The kernel's own counts (the process's, the cgroup's)
//! start earlier, before exec, and end later, after the program's memory is torn down: exec's first part (the new
//! memory made, the file opened and read, the arguments copied) and that end, about 0.1 ms here, are not the
//! program's work, and the child cannot read its clock from inside the exec.
//!
//! The child opens the counter while it still shares the worker's descriptors, and takes a table of its own before
//! anything else: the counter is the worker's, and the program never holds it. Its owner is still the program's
//! process, which could pause every counter it owns (`prctl(PR_TASK_PERF_EVENTS_DISABLE)`): the system-call filter
//! denies that, and without the filter the counter is charged only where it is at most [`EXEC_ALLOWANCE`] below the
//! kernel's count (see [`charge`]). Nor is it charged above the kernel's count: a task clock also counts the time
//! the program's processor spent on interrupts or was taken by the hypervisor while it ran, which the kernel's
//! accounting leaves out; on a virtual machine that puts it above the kernel's count on long runs (0.3 % to 0.8 %
//! at 1 s here), and those are charged the kernel's count.
//!
//! Where the kernel refuses a counter (Debian's and Ubuntu's kernels, to an ordinary user where
//! `perf_event_paranoid` is 3; a container that denies perf_event_open), the refusal is remembered and runs are
//! charged the kernel's counts.
//!
//! The first counter opened on a task where none is open anywhere on the machine, and the kernel's scheduling hooks
//! for them are off, waits for the kernel to switch them on: an RCU grace period, 15 ms to 30 ms here. (They go off
//! again about a second after a close that left no counter open, if none is open by then.) A command started cold
//! would make its first run wait that long, and a run after a pause of a second in a worker's runs (a long build, a
//! slow checker) would wait again. So each worker's keeper opens one on itself once it has forked the worker, and
//! holds it until the worker ends ([`warm_up`]): the hooks stay on as long as any worker lives. It closes a pipe once
//! its open has returned, which tells the worker ([`WarmUp`]); runs started before then go without a counter, and
//! are charged the kernel's count. The harness waits for its workers' keepers to end: a command shorter than the
//! grace period still ends with it, but its runs do not wait for it.

use perf_event_open_sys::bindings;
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How much less than the kernel's count the counter may hold: the part of exec before the counter starts, with
/// room for a loaded machine. A count further below it is not the exec's (the program paused its counter): the
/// kernel's count is charged instead.
pub(super) const EXEC_ALLOWANCE: Duration = Duration::from_millis(1);

/// A run's counter, held by the worker.
pub(super) struct ExecClock(OwnedFd);

impl ExecClock {
    /// The counter at `fd`, which the caller owns from here on.
    ///
    /// # Safety
    /// `fd` is a counter [`Counter::open`] opened, which nothing else owns.
    pub unsafe fn from_raw_fd(fd: RawFd) -> ExecClock {
        // SAFETY: as asked of our caller.
        ExecClock(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    /// The CPU time counted so far: of the program's process, and of every thread and process it started that has
    /// ended (the kernel adds theirs as each ends); None if it cannot be read.
    pub fn read(&self) -> Option<Duration> {
        let mut count = 0u64;
        // SAFETY: read writes at most 8 bytes into `count`.
        let got = unsafe { libc::read(self.0.as_raw_fd(), (&raw mut count).cast(), 8) };
        (got == 8).then(|| Duration::from_nanos(count))
    }
}

/// What the run is charged: the counter's figure where it is within [`EXEC_ALLOWANCE`] below `counted` (what the
/// kernel counted of the run since just before exec), else `counted`.
pub(super) fn charge(counted: Duration, from_exec: Option<Duration>) -> Duration {
    match from_exec {
        Some(time) if time <= counted && counted - time <= EXEC_ALLOWANCE => time,
        _ => counted,
    }
}

/// Whether a counter may be opened: false once the kernel refused one.
static AVAILABLE: AtomicBool = AtomicBool::new(true);

/// How to open a counter, made by the worker beforehand.
pub(super) struct Counter {
    attr: bindings::perf_event_attr,
}

impl Counter {
    /// The worker's; None once the kernel refused a counter.
    pub fn get() -> Option<&'static Counter> {
        static COUNTER: OnceLock<Counter> = OnceLock::new();
        AVAILABLE
            .load(Ordering::Relaxed)
            .then(|| COUNTER.get_or_init(Counter::new))
    }

    fn new() -> Counter {
        let mut attr = bindings::perf_event_attr {
            type_: bindings::PERF_TYPE_SOFTWARE,
            size: std::mem::size_of::<bindings::perf_event_attr>() as u32,
            config: bindings::PERF_COUNT_SW_TASK_CLOCK as u64,
            ..Default::default()
        };
        attr.set_disabled(1);
        attr.set_enable_on_exec(1);
        attr.set_inherit(1);
        // A task clock counts the kernel's time on the task all the same; leaving the kernel out is what lets an
        // ordinary user open one where `perf_event_paranoid` is 2.
        attr.set_exclude_kernel(1);
        attr.set_exclude_hv(1);
        Counter { attr }
    }

    /// Opens a counter on the calling thread, close-on-exec; its descriptor, or None if the kernel refused it
    /// (which is remembered) or had no room for it. Only makes system calls: safe in the child before exec.
    ///
    /// # Safety
    /// In the child of `spawn`, which shares the worker's descriptors at that point: the counter is then the
    /// worker's too, and the program never holds it once the child has a table of its own. Or in the keeper, which
    /// owns what it returns.
    pub unsafe fn open(&self) -> Option<RawFd> {
        // SAFETY: a valid attribute structure of its own size; the kernel reads no sixth argument.
        let fd = unsafe {
            super::syscalls::keyed(
                libc::SYS_perf_event_open,
                [
                    (&raw const self.attr) as usize,
                    0,
                    -1isize as usize,
                    -1isize as usize,
                    bindings::PERF_FLAG_FD_CLOEXEC as usize,
                ],
            )
        };
        if fd < 0 {
            // A refusal is for good; a lack of memory or of descriptors only for this run.
            let refused = !matches!(
                std::io::Error::last_os_error().raw_os_error(),
                Some(libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EINTR | libc::EAGAIN)
            );
            if refused {
                AVAILABLE.store(false, Ordering::Relaxed);
            }
            return None;
        }
        Some(fd as RawFd)
    }
}

/// The keeper's part of the warm-up: opens a counter on itself, then closes `write`, the only write end of the pipe
/// left, which tells the worker that its runs may open theirs. The counter, which the keeper holds until the worker
/// ends; None where the kernel refused it.
pub(super) fn warm_up(write: File) -> Option<OwnedFd> {
    // SAFETY: in the keeper, which owns the counter from here on.
    let counter = unsafe { Counter::new().open() };
    drop(write);
    // SAFETY: the counter just opened, which nothing else owns.
    counter.map(|fd| unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A worker's view of its keeper's warm-up: the read end of its pipe, until the write end is closed.
pub(super) struct WarmUp(Option<File>);

impl WarmUp {
    /// For a worker with no pipe: counters are opened at once.
    pub fn over() -> WarmUp {
        WarmUp(None)
    }

    /// For a worker given the read end of the pipe, whose write end it has closed.
    pub fn until_closed(read: File) -> WarmUp {
        WarmUp(Some(read))
    }

    /// How the next run opens its counter: None while the warm-up goes on, or where the kernel refused one.
    pub fn counter(&mut self) -> Option<&'static Counter> {
        if let Some(read) = &self.0 {
            let mut poll = libc::pollfd {
                fd: read.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: poll reads and writes one pollfd of ours.
            let ready = unsafe { libc::poll(&mut poll, 1, 0) };
            // Nothing is ever written: the pipe is readable once the keeper has closed its end. An interrupted look is
            // taken again at the next run.
            if ready <= 0 {
                return None;
            }
            self.0 = None;
        }
        Counter::get()
    }
}

/// Why no counter can be had here, for the tests that need one.
#[cfg(test)]
pub(super) fn unavailable() -> Option<&'static str> {
    Counter::get().is_none().then_some(
        "the kernel refuses a task-clock counter here (perf_event_paranoid, or a container's filter)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_open_no_counter_until_the_warm_up_is_over() {
        let (read, write) = super::super::process::pipe().expect("no pipe for the warm-up");
        let mut warm_up = WarmUp::until_closed(read);
        for _ in 0..3 {
            assert!(warm_up.counter().is_none(), "a counter during the warm-up");
        }
        drop(write);
        assert_eq!(
            warm_up.counter().map(|c| c as *const Counter),
            Counter::get().map(|c| c as *const Counter)
        );
        // And for good.
        assert!(warm_up.0.is_none());
        assert_eq!(WarmUp::over().counter().is_some(), Counter::get().is_some());
    }

    #[test]
    fn the_keepers_warm_up_tells_the_worker_once_a_counter_opened() {
        let (read, write) = super::super::process::pipe().expect("no pipe for the warm-up");
        let mut warm_up_seen = WarmUp::until_closed(read);
        assert!(warm_up_seen.counter().is_none());
        let held = std::thread::spawn(move || warm_up(write)).join().unwrap();
        assert_eq!(held.is_some(), Counter::get().is_some());
        assert_eq!(
            warm_up_seen.counter().map(|c| c as *const Counter),
            Counter::get().map(|c| c as *const Counter)
        );
    }

    #[test]
    fn the_counter_is_charged_only_within_the_allowance_below_the_kernels_count() {
        let ms = Duration::from_millis;
        let us = Duration::from_micros;
        let cases = [
            (ms(5), None, ms(5)),
            (ms(5), Some(ms(5) - us(70)), ms(5) - us(70)),
            (ms(5), Some(ms(5) - EXEC_ALLOWANCE), ms(5) - EXEC_ALLOWANCE),
            // Paused by the program: the kernel's count.
            (ms(5), Some(ms(5) - EXEC_ALLOWANCE - us(1)), ms(5)),
            (ms(5), Some(Duration::ZERO), ms(5)),
            // More than the kernel counted: never charged more than that.
            (ms(5), Some(ms(5) + us(1)), ms(5)),
        ];
        for (counted, from_exec, charged) in cases {
            assert_eq!(
                charge(counted, from_exec),
                charged,
                "{counted:?} {from_exec:?}"
            );
        }
    }
}
