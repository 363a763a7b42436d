//! Waiting for the files a judge depends on to change: the folders and files to watch, the events that are changes,
//! and one change for each save, however an editor writes it.
//!
//! Editors save in several steps: a few writes in a row, a temporary file renamed over the original (vim, VS Code),
//! or the original deleted and written anew; vim also tries a file named `4913` first. Every step is an event, so
//! events are gathered until none has come for [`QUIET`], and the files they name are then one change. A file made
//! and gone again within that time (a temporary file renamed into place) is no change, and neither are swap and
//! backup files, the judge's own temporary files, or what the judge writes: its cache and its report files.

use crate::error::{Error, Result};
use notify::event::{EventKind, ModifyKind};
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long the files must stay still before a change counts: long enough for an editor's save, short enough not
/// to be felt.
pub const QUIET: Duration = Duration::from_millis(300);

/// How often Ctrl-C is looked for while nothing changes.
const POLL: Duration = Duration::from_millis(100);

/// What a judge depends on: folders with everything in them, and single files.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Places {
    pub folders: Vec<PathBuf>,
    pub files: Vec<PathBuf>,
}

impl Places {
    /// Adds a folder, and everything in it: a folder already inside one watched is left out, as are those inside it.
    pub fn add_folder(&mut self, folder: PathBuf) {
        if self.folders.iter().any(|f| folder.starts_with(f)) {
            return;
        }
        self.folders.retain(|f| !f.starts_with(&folder));
        self.files.retain(|f| !f.starts_with(&folder));
        self.folders.push(folder);
    }

    /// Adds a file, unless a folder watched holds it.
    pub fn add_file(&mut self, file: PathBuf) {
        if !self.holds(&file) && !self.files.contains(&file) {
            self.files.push(file);
        }
    }

    /// Whether a change to `path` is a change to what the judge depends on.
    fn holds(&self, path: &Path) -> bool {
        self.folders.iter().any(|f| path.starts_with(f)) || self.files.iter().any(|f| f == path)
    }

    /// The folders the single files are in, each watched without what is below it.
    fn parents(&self) -> Vec<PathBuf> {
        let mut parents: Vec<PathBuf> = Vec::new();
        for file in &self.files {
            let parent = file.parent().unwrap_or(Path::new("/")).to_owned();
            if !parents.contains(&parent) {
                parents.push(parent);
            }
        }
        parents
    }
}

/// What ended a wait.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// These files changed (in the order first seen).
    Changed(Vec<PathBuf>),
    /// The user pressed Ctrl-C.
    Interrupted,
}

/// A watch over a judge's files, kept between judges.
pub struct Watch {
    watcher: RecommendedWatcher,
    events: Receiver<notify::Result<Event>>,
    places: Places,
    /// What the judge writes itself: its cache folder and its report files.
    own: Vec<PathBuf>,
    /// The paths given to the watcher, and whether with what is below them.
    watched: Vec<(PathBuf, RecursiveMode)>,
}

impl Watch {
    /// A watch that never reports the judge's own writes under `own`.
    pub fn new(own: Vec<PathBuf>) -> Result<Watch> {
        let (sender, events) = channel();
        let watcher = notify::recommended_watcher(move |event| {
            // The receiver is gone only once the watch is dropped.
            let _ = sender.send(event);
        })
        .map_err(|e| watch_error("start watching", Path::new("files"), e))?;
        Ok(Watch {
            watcher,
            events,
            places: Places::default(),
            own,
            watched: Vec::new(),
        })
    }

    /// Watches `places` from now on, instead of what was watched before.
    pub fn set(&mut self, places: Places) -> Result<()> {
        let mut wanted: Vec<(PathBuf, RecursiveMode)> = places
            .folders
            .iter()
            .map(|f| (f.clone(), RecursiveMode::Recursive))
            .collect();
        wanted.extend(
            places
                .parents()
                .into_iter()
                .map(|p| (p, RecursiveMode::NonRecursive)),
        );
        for (path, _) in self.watched.iter().filter(|w| !wanted.contains(w)) {
            // A folder deleted since is no longer watched anyway.
            let _ = self.watcher.unwatch(path);
        }
        let mut watched = Vec::with_capacity(wanted.len());
        for (path, mode) in wanted {
            if !self.watched.contains(&(path.clone(), mode)) {
                // A folder missing now (deleted to be made anew) is watched from the first judge after it is back.
                if !path.is_dir() {
                    continue;
                }
                self.watcher
                    .watch(&path, mode)
                    .map_err(|e| watch_error("watch", &path, e))?;
            }
            watched.push((path, mode));
        }
        self.watched = watched;
        self.places = places;
        Ok(())
    }

    /// Waits for a change to the files watched, and returns it once they have stayed still for [`QUIET`]; or for
    /// Ctrl-C. What changed before this call (while judging) counts.
    pub fn next(&mut self) -> Result<Wait> {
        let mut batch = Batch::default();
        loop {
            if crate::interrupt::requested() {
                return Ok(Wait::Interrupted);
            }
            let wait = if batch.seen.is_empty() { POLL } else { QUIET };
            match self.events.recv_timeout(wait) {
                Ok(Ok(event)) => {
                    if matches!(event.kind, EventKind::Remove(_)) {
                        // Its watch went with it: made anew, it must be watched again.
                        self.watched.retain(|(path, _)| !event.paths.contains(path));
                    }
                    if event.need_rescan() {
                        // Events were lost (the kernel's queue overflowed): anything may have changed.
                        for folder in &self.places.folders {
                            batch.add(folder.clone(), false);
                        }
                    }
                    if is_change(&event.kind) {
                        for path in event.paths {
                            if self.places.holds(&path) && !self.is_own(&path) {
                                batch.add(path, matches!(event.kind, EventKind::Create(_)));
                            }
                        }
                    }
                }
                Ok(Err(e)) => return Err(watch_error("watch", Path::new("files"), e)),
                Err(RecvTimeoutError::Timeout) if !batch.seen.is_empty() => {
                    let changed = std::mem::take(&mut batch).changed();
                    if !changed.is_empty() {
                        return Ok(Wait::Changed(changed));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::io(
                        "watch",
                        "files",
                        std::io::Error::other("the watcher stopped"),
                    ));
                }
            }
        }
    }

    /// Whether `path` is the judge's own or an editor's: its cache, its report files, a swap or backup file.
    fn is_own(&self, path: &Path) -> bool {
        self.own.iter().any(|own| path.starts_with(own))
            || path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_litter)
    }
}

/// The events of one save, gathered.
#[derive(Default)]
struct Batch {
    /// Each path in the order first seen, and whether it was made during the batch.
    seen: Vec<(PathBuf, bool)>,
}

impl Batch {
    fn add(&mut self, path: PathBuf, created: bool) {
        match self.seen.iter_mut().find(|(p, _)| *p == path) {
            Some((_, made)) => *made |= created,
            None => self.seen.push((path, created)),
        }
    }

    /// The files changed: all seen but those made and gone again, a temporary file renamed into place.
    fn changed(self) -> Vec<PathBuf> {
        self.seen
            .into_iter()
            .filter(|(path, made)| !*made || path.symlink_metadata().is_ok())
            .map(|(path, _)| path)
            .collect()
    }
}

/// Whether an event of `kind` can change what a file holds: opening, reading and closing cannot, nor a change of
/// times or link count alone (which the judge's own reading and linking make).
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any | EventKind::Other => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(_) => false,
    }
}

/// Whether a file named `name` is an editor's or the judge's scratch, never what the judge reads: vim's swap
/// files and its trial file `4913`, backups ending in `~`, Emacs's lock and autosave files, and the judge's own
/// half-written files (see `crate::atomic`).
fn is_litter(name: &str) -> bool {
    let swap = [".swp", ".swo", ".swx"]
        .iter()
        .any(|end| name.starts_with('.') && name.ends_with(end));
    swap || name == "4913"
        || name.ends_with('~')
        || name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#'))
        || (name.starts_with(".cpjudge-") && name.ends_with(".part"))
}

fn watch_error(action: &'static str, path: &Path, e: notify::Error) -> Error {
    let io = match e.kind {
        notify::ErrorKind::Io(io) => io,
        notify::ErrorKind::MaxFilesWatch => std::io::Error::other(
            "the system's limit on watched folders is reached: raise fs.inotify.max_user_watches",
        ),
        _ => std::io::Error::other(e.to_string()),
    };
    Error::io(action, path, io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_backup_and_half_written_files_are_litter() {
        for name in [
            ".ac.cpp.swp",
            ".ac.cpp.swx",
            "ac.cpp~",
            "4913",
            ".#ac.cpp",
            "#ac.cpp#",
            ".cpjudge-a1b2.part",
        ] {
            assert!(is_litter(name), "{name}");
        }
        for name in ["ac.cpp", "1.ans", "problem.toml", "swp", "49130", "a.part"] {
            assert!(!is_litter(name), "{name}");
        }
    }

    #[test]
    fn a_folder_takes_in_what_it_holds() {
        let mut places = Places::default();
        places.add_file("/p/sum/solutions/ac.c".into());
        places.add_folder("/p/testdata/sum/sub".into());
        places.add_folder("/p/sum".into());
        places.add_folder("/p/testdata/sum".into());
        places.add_file("/p/sum/checker.cpp".into());
        places.add_file("/q/x.cpp".into());
        assert_eq!(
            places.folders,
            [PathBuf::from("/p/sum"), PathBuf::from("/p/testdata/sum")]
        );
        assert_eq!(places.files, [PathBuf::from("/q/x.cpp")]);
        assert!(places.holds(Path::new("/p/testdata/sum/sub/1.in")));
        assert!(places.holds(Path::new("/q/x.cpp")));
        assert!(!places.holds(Path::new("/q/y.cpp")));
        assert_eq!(places.parents(), [PathBuf::from("/q")]);
    }

    #[test]
    fn a_file_made_and_gone_within_a_save_is_no_change() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("ac.c");
        std::fs::write(&kept, "int main(){}").unwrap();
        let mut batch = Batch::default();
        batch.add(dir.path().join("ac.c.tmp"), true);
        batch.add(kept.clone(), false);
        batch.add(dir.path().join("ac.c.tmp"), false);
        batch.add(dir.path().join("gone.in"), false);
        assert_eq!(batch.changed(), [kept, dir.path().join("gone.in")]);
    }
}
