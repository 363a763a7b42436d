//! Ctrl-C, and the termination signals a terminal or a CI system sends: the first asks the judge to stop cleanly
//! (runs in flight are killed, nothing more is started, what is complete is reported); a second ends it at once.
//!
//! A second signal counts only after a short grace: a terminal sends Ctrl-C to the whole foreground group, and
//! GNU `timeout` signals both the command and its group, so one keypress or one timeout can arrive twice within
//! microseconds, and must still be a clean stop.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
/// When the first signal came, in nanoseconds of the monotonic clock.
static FIRST_AT: AtomicU64 = AtomicU64::new(0);

/// A signal within this long of the first is the same request.
const GRACE_NANOS: u64 = 200_000_000;

/// The exit code of a judge that was interrupted, as a shell reports a process ended by SIGINT.
pub const EXIT_CODE: u8 = 130;

/// Catches the signals from now on.
pub fn install() -> std::io::Result<()> {
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // SAFETY: the handler only reads the monotonic clock, touches atomics and calls _exit, all of which are
        // async-signal-safe.
        unsafe { signal_hook::low_level::register(signal, on_signal) }?;
    }
    Ok(())
}

fn on_signal() {
    let now = monotonic_nanos();
    if !REQUESTED.swap(true, Ordering::SeqCst) {
        FIRST_AT.store(now, Ordering::SeqCst);
        return;
    }
    if now.saturating_sub(FIRST_AT.load(Ordering::SeqCst)) > GRACE_NANOS {
        // SAFETY: _exit ends the process at once, without running anything that is not async-signal-safe.
        unsafe { libc::_exit(i32::from(EXIT_CODE)) };
    }
}

fn monotonic_nanos() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec given; it is async-signal-safe.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// Whether the user asked the judge to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
