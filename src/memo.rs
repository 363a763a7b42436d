//! Facts about this machine that are dear to learn and seldom change (which isolation layers work here, what a
//! compiler says its version is), kept between commands so that a command learns each one once.
//!
//! A fact is kept in a file of its own in the user's cache folder (`$XDG_CACHE_HOME/cpjudge/memo` or
//! `~/.cache/cpjudge/memo`), beside the key it was learnt under: a text naming everything that decides it (the
//! kernel, the boot, a compiler's inode and modification time). It is used only while that key still holds, so a
//! change to anything the key names makes the command learn the fact again.
//!
//! Writes are atomic (a temporary file renamed into place), so two commands starting at once each read a whole
//! fact or none; both may learn it, and the last to finish keeps its copy. Reads go through
//! [`crate::untrusted::read_regular`]: a run judged without isolation layers may write where the user can, and a
//! FIFO or a device planted here must not hang or flood the next command. A memo that cannot be read or written is
//! no error: the fact is learnt again.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The most a memo file may hold: a fact is a few KiB.
const MEMO_LIMIT: u64 = 1 << 20;

/// One kept fact: the file that holds it.
#[derive(Debug, Clone)]
pub(crate) struct Memo {
    path: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Kept<K, T> {
    key: K,
    value: T,
}

impl Memo {
    /// The memo of the fact `kind` about `subject` (a tool's path, or nothing for a fact about the machine) in the
    /// user's memo folder; `None` where the user has no home to keep it in.
    pub(crate) fn of(kind: &str, subject: &str) -> Option<Memo> {
        memo_dir().map(|dir| Memo::in_dir(&dir, kind, subject))
    }

    /// The memo of `kind` about `subject`, kept in `dir`.
    pub(crate) fn in_dir(dir: &Path, kind: &str, subject: &str) -> Memo {
        let name = if subject.is_empty() {
            format!("{kind}.json")
        } else {
            let digest = Sha256::digest(subject.as_bytes());
            let short: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            format!("{kind}-{short}.json")
        };
        Memo {
            path: dir.join(name),
        }
    }

    /// The fact kept under `key`; `None` when there is none, it was learnt under another key, or it cannot be
    /// read as one.
    pub(crate) fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let bytes = crate::untrusted::read_regular(&self.path, MEMO_LIMIT).ok()?;
        let kept: Kept<String, T> = serde_json::from_slice(&bytes).ok()?;
        (kept.key == key).then_some(kept.value)
    }

    /// Keeps `value` under `key`, replacing what was kept. A memo that cannot be written is left as it was.
    pub(crate) fn put<T: Serialize>(&self, key: &str, value: &T) {
        let Ok(bytes) = serde_json::to_vec(&Kept { key, value }) else {
            return;
        };
        if let Some(dir) = self.path.parent()
            && std::fs::create_dir_all(dir).is_ok()
        {
            let _ = crate::atomic::write(&self.path, &bytes);
        }
    }

    /// Forgets the fact, so that the next command learns it again.
    pub(crate) fn forget(&self) {
        let _ = std::fs::remove_file(&self.path);
    }

    /// The file that holds the fact.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// The folder of memos: `memo` in the user's cache folder.
fn memo_dir() -> Option<PathBuf> {
    crate::user_cache_folder().map(|folder| folder.join("memo"))
}

/// What `path` is now, for a key: its device, inode, size and modification and change times (a file replaced or
/// rewritten changes one of them), or that it is missing.
pub(crate) fn identity(path: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata(path) {
        Ok(m) => format!(
            "{}:{}:{}:{}.{}:{}.{}",
            m.dev(),
            m.ino(),
            m.size(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec()
        ),
        Err(_) => "missing".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_is_read_back_only_under_its_own_key() {
        let dir = tempfile::tempdir().unwrap();
        let memo = Memo::in_dir(dir.path(), "fact", "/usr/bin/tool");
        assert_eq!(memo.get::<String>("k1"), None);
        memo.put("k1", &"one".to_owned());
        assert_eq!(memo.get::<String>("k1").as_deref(), Some("one"));
        assert_eq!(
            memo.get::<String>("k2"),
            None,
            "another key is another fact"
        );
        memo.put("k2", &"two".to_owned());
        assert_eq!(memo.get::<String>("k1"), None);
        assert_eq!(memo.get::<String>("k2").as_deref(), Some("two"));
        memo.forget();
        assert_eq!(memo.get::<String>("k2"), None);
        let other = Memo::in_dir(dir.path(), "fact", "/usr/bin/other");
        assert_ne!(
            memo.path(),
            other.path(),
            "each subject has a file of its own"
        );
    }

    #[test]
    fn a_planted_fifo_or_garbage_is_no_fact() {
        let dir = tempfile::tempdir().unwrap();
        let memo = Memo::in_dir(dir.path(), "fact", "");
        std::fs::write(memo.path(), b"{not json").unwrap();
        assert_eq!(memo.get::<String>("k"), None);
        std::fs::remove_file(memo.path()).unwrap();
        let fifo = std::ffi::CString::new(memo.path().as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid C string; mkfifo has no other precondition.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        assert_eq!(memo.get::<String>("k"), None, "a FIFO is never waited on");
        memo.put("k", &"v".to_owned());
        assert_eq!(
            memo.get::<String>("k").as_deref(),
            Some("v"),
            "and is replaced"
        );
    }

    #[test]
    fn a_rewritten_file_has_another_identity() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tool");
        assert_eq!(identity(&path), "missing");
        std::fs::write(&path, b"1").unwrap();
        let before = identity(&path);
        std::fs::write(&path, b"22").unwrap();
        assert_ne!(identity(&path), before);
    }
}
