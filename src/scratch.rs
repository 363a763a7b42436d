//! The judge's folders in the temporary folder: every run's folder lies in one folder of this judge's own,
//! `cpjudge-<pid namespace>-<pid>`. A judge that ends normally leaves nothing; one that was killed outright cannot
//! clean up, so each judge removes, at start, the folders of judges of its PID namespace that are gone.

use crate::sandbox::pid_namespace;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PREFIX: &str = "cpjudge-";

/// A new folder for one run or tool, removed when dropped.
pub(crate) fn folder(what: &str) -> io::Result<tempfile::TempDir> {
    static OWN: OnceLock<PathBuf> = OnceLock::new();
    let own = OWN.get_or_init(|| std::env::temp_dir().join(name(std::process::id())));
    let make = || {
        tempfile::Builder::new()
            .prefix(&format!("{what}-"))
            .tempdir_in(own)
    };
    // Made on first use, and again if it was cleaned up meanwhile.
    make()
        .or_else(|e| match e.kind() {
            io::ErrorKind::NotFound => std::fs::create_dir_all(own).and_then(|()| make()),
            _ => Err(e),
        })
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", own.display())))
}

fn name(pid: u32) -> String {
    format!("{PREFIX}{}-{pid}", pid_namespace())
}

/// Removes this judge's folder, once everything in it is gone; and the folders of judges of this PID namespace
/// that no longer run, whatever is in them.
pub(crate) fn clean_up() {
    let own = std::env::temp_dir().join(name(std::process::id()));
    let _ = std::fs::remove_dir(own);
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    let ours = format!("{PREFIX}{}-", pid_namespace());
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&ours)) else {
            continue;
        };
        if pid.bytes().all(|b| b.is_ascii_digit()) && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_judges_that_are_gone_are_removed() {
        let tmp = std::env::temp_dir();
        // No process has a PID this large (the kernel's maximum is 2^22).
        let gone = tmp.join(name(4_999_999));
        std::fs::create_dir_all(gone.join("run-x/box")).unwrap();
        std::fs::write(gone.join("run-x/input"), "1 2\n").unwrap();
        let run = folder("run").unwrap();
        let alive = run.path().parent().unwrap().to_owned();
        clean_up();
        assert!(!gone.exists());
        // Our own folder stays while something is in it.
        assert!(run.path().is_dir());
        drop(run);
        clean_up();
        assert!(!alive.exists());
    }
}
