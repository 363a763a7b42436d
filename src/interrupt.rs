//! Ctrl-C, and the termination signals a terminal or a CI system sends: the first asks the judge to stop cleanly
//! (runs in flight are killed, nothing more is started, what is complete is reported); a second ends it at once.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit code of a judge that was interrupted, as a shell reports a process ended by SIGINT.
pub const EXIT_CODE: u8 = 130;

/// Catches the signals from now on.
pub fn install() -> std::io::Result<()> {
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // The shutdown goes first: it acts only once the flag is already set, by an earlier signal.
        signal_hook::flag::register_conditional_shutdown(signal, i32::from(EXIT_CODE), &REQUESTED)?;
        signal_hook::flag::register(signal, &REQUESTED)?;
    }
    Ok(())
}

/// Whether the user asked the judge to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
