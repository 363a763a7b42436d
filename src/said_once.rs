//! Remarks made once per machine and user, not at every command: a warning about the machine that the user has
//! read once, and that nothing in a project changes, only hides the output that matters when it repeats.
//!
//! What was said is kept in the user's state folder (`$XDG_STATE_HOME/cpjudge` or `~/.local/state/cpjudge`), one
//! line per remark, keyed by the machine (its machine id, or its host name) so that a home shared between machines
//! still hears each machine's own, and by the remark's cause, so that a new cause is said again.

use std::path::PathBuf;

/// The most the record of what was said may hold: a line per machine and cause, so a few KiB in a lifetime.
const SAID_LIMIT: u64 = 1 << 20;

/// Whether the remark `topic` with cause `cause` is new to this user on this machine; if so, it is remembered as
/// said. Where nothing can be remembered (no home, a folder that cannot be written), every remark is new.
pub(crate) fn first_time(topic: &str, cause: &str) -> bool {
    state_dir().is_none_or(|dir| first_time_in(&dir, topic, cause))
}

/// [`first_time`], with what was said kept in `dir`.
fn first_time_in(dir: &std::path::Path, topic: &str, cause: &str) -> bool {
    let path = dir.join("said");
    let line = [machine(), topic.to_owned(), stable(cause)]
        .map(|field| field.replace(['\t', '\n'], " "))
        .join("\t");
    // A run judged without isolation layers may write where this user can: what is there is read as a regular
    // file of bounded size, never waited on, and anything else counts as nothing said.
    let said = crate::untrusted::read_regular(&path, SAID_LIMIT)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    if said.lines().any(|l| l == line) {
        return false;
    }
    // Where it cannot be remembered, it is said again next time: harmless.
    if std::fs::create_dir_all(dir).is_ok() {
        let _ = crate::atomic::write(&path, format!("{said}{line}\n").as_bytes());
    }
    true
}

/// The user's state folder for cpjudge, as the XDG convention places it.
fn state_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_STATE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))
        .map(|base| base.join("cpjudge"))
}

/// This machine, lasting across boots: its machine id, or its host name.
fn machine() -> String {
    [
        "/etc/machine-id",
        "/var/lib/dbus/machine-id",
        "/proc/sys/kernel/hostname",
    ]
    .iter()
    .filter_map(|path| std::fs::read_to_string(path).ok())
    .map(|text| text.trim().to_owned())
    .find(|id| !id.is_empty())
    .unwrap_or_else(|| "unknown".to_owned())
}

/// A cause without what changes from one command to the next (paths holding process ids, numbers): the same cause
/// is the same remark.
fn stable(cause: &str) -> String {
    cause
        .split_whitespace()
        .filter(|word| !word.contains('/'))
        .map(|word| word.replace(|c: char| c.is_ascii_digit(), ""))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remark_is_new_once_and_a_planted_fifo_is_never_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        assert!(first_time_in(dir.path(), "cgroup", "Permission denied"));
        assert!(!first_time_in(dir.path(), "cgroup", "Permission denied"));
        assert!(first_time_in(dir.path(), "cgroup", "No such file"));
        // A FIFO in place of the record would make every command wait for a writer; it counts as nothing said.
        let planted = tempfile::tempdir().unwrap();
        let fifo = std::ffi::CString::new(
            planted
                .path()
                .join("said")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        // SAFETY: mkfifo takes a valid C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        assert!(first_time_in(planted.path(), "cgroup", "Permission denied"));
    }

    #[test]
    fn a_cause_is_the_same_whatever_its_paths_and_numbers() {
        assert_eq!(
            stable(
                "cannot create /sys/fs/cgroup/memory/cpjudge-1-2: Permission denied (os error 13)"
            ),
            stable(
                "cannot create /sys/fs/cgroup/memory/cpjudge-7-9: Permission denied (os error 13)"
            )
        );
        assert_ne!(
            stable("cannot create /a: Permission denied"),
            stable("cannot create /a: No such file or directory")
        );
    }
}
