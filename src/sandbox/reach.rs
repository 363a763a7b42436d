//! What a run reaches by name, worked out by the judge for a worker that makes the run a user of its own (see
//! `view`): real paths, with every link resolved, remembered from run to run.

use super::spec::{Reach, RunSpec, Trust};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Whether a solution's runs are made as a user of their own, in a worker with namespaces: where the judge is root.
pub(super) fn own_user() -> bool {
    static ROOT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    // SAFETY: geteuid has no preconditions.
    *ROOT.get_or_init(|| unsafe { libc::geteuid() } == 0)
}

/// What a solution or compiler must reach by name, for a worker that makes it a user of its own (only a judge run
/// as root does): the folders it may read (its program's), its working directory, and the toolchain its first
/// argument belongs to (the folder above the `bin` folder of the real executable: a Python's prefix, a Rust
/// toolchain's sysroot), all as real paths, remembered in `known`.
///
/// Real paths are remembered: the same programs and folders come back run after run.
pub(super) fn reach(spec: &RunSpec, known: &RealPaths) -> Reach {
    let Trust::Solution { readable } = &spec.trust else {
        return Reach::default();
    };
    if !own_user() {
        return Reach::default();
    }
    let toolchain = spec.argv.first().and_then(|program| {
        let real = known.of(Path::new(program));
        let folder = real.parent()?;
        Some(match folder.file_name() {
            Some(name) if name == "bin" => folder.parent()?.to_owned(),
            _ => folder.to_owned(),
        })
    });
    // A run's folder is new each time, made by the judge in a folder of its own: that folder's real path is
    // looked up once.
    let workdir = match (spec.workdir.parent(), spec.workdir.file_name()) {
        (Some(run), Some(name)) => match (run.parent(), run.file_name()) {
            (Some(own), Some(run)) => known.of(own).join(run).join(name),
            _ => known.of(&spec.workdir),
        },
        _ => known.of(&spec.workdir),
    };
    Reach {
        kept: readable
            .iter()
            .map(|p| known.of(p))
            .chain(toolchain)
            .collect(),
        workdir: Some(workdir),
    }
}

/// Paths whose real path has been looked up, with it.
#[derive(Debug, Default)]
pub(super) struct RealPaths(Mutex<HashMap<PathBuf, PathBuf>>);

impl RealPaths {
    fn of(&self, path: &Path) -> PathBuf {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        known
            .entry(path.to_owned())
            .or_insert_with(|| real_path(path))
            .clone()
    }
}

/// The path with every link resolved, as far as it exists: the rest is appended as it is.
pub(super) fn real_path(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            return rest.iter().rev().fold(real, |p, name| p.join(name));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_owned(),
        }
    }
}
