//! Writing files so that a reader sees the old contents or the new, never half of them: a temporary file in the
//! same folder, renamed over the target once complete.

use crate::error::{Error, Result};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Writes `contents` to `path` in one step.
pub(crate) fn write(path: &Path, contents: &[u8]) -> Result<()> {
    let file = complete(path, contents)?;
    file.persist(path)
        .map_err(|e| Error::io("write", path, e.error))?;
    Ok(())
}

/// Writes `contents` to `path` in one step, unless `path` exists: then it is left as it is, and this fails.
pub(crate) fn write_new(path: &Path, contents: &[u8]) -> Result<()> {
    let file = complete(path, contents)?;
    file.persist_noclobber(path)
        .map_err(|e| Error::io("write", path, e.error))?;
    Ok(())
}

/// A temporary file beside `path` holding `contents`, on disk.
fn complete(path: &Path, contents: &[u8]) -> Result<tempfile::NamedTempFile> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // As any new file is made: readable by all, less what the umask takes away (a temporary file is private).
    let mut file = tempfile::Builder::new()
        .prefix(".cpjudge-")
        .suffix(".part")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(folder)
        .map_err(|e| Error::io("create a file in", folder, e))?;
    file.write_all(contents)
        .and_then(|()| file.as_file().sync_data())
        .map_err(|e| Error::io("write", file.path(), e))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.in");
        std::fs::write(&path, "old").unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn files_get_the_mode_the_umask_gives_new_files() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let umask = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .map(|m| u32::from_str_radix(m.trim(), 8).unwrap())
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ans");
        write(&path, b"1\n").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask);
    }

    #[test]
    fn a_new_file_never_replaces_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.in");
        write_new(&path, b"first").unwrap();
        assert!(write_new(&path, b"second").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
