//! Writing an imported problem in one step: `problems/<name>/` and `testdata/<name>/` are made whole in a folder of
//! their own in the project, loaded there as the judge will load them, and only then moved into place, never over
//! anything that is there. A failure leaves the project as it was.

use super::programs::File;
use super::testdata::{self, Placed};
use crate::error::{Error, Result};
use crate::problem::Problem;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Writes problem `name` (its problem.toml, its programs' files and its tests) into the project at `root`.
pub(super) fn write(
    root: &Path,
    name: &str,
    toml: &str,
    files: &[File],
    tests: &[Placed],
) -> Result<()> {
    let building = tempfile::Builder::new()
        .prefix(".cpjudge-import-")
        .tempdir_in(root)
        .map_err(|e| Error::io("create a folder in", root, e))?;
    let problems = building.path().join("problems").join(name);
    let tests_dir = building.path().join("testdata").join(name);
    for folder in [&problems, &tests_dir] {
        std::fs::create_dir_all(folder).map_err(|e| Error::io("create", folder, e))?;
    }
    crate::atomic::write_new(&problems.join("problem.toml"), toml.as_bytes())?;
    for file in files {
        let path = problems.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
        }
        crate::atomic::write_new(&path, &file.bytes)?;
    }
    testdata::copy(tests, &tests_dir)?;
    // What was written must be a problem the judge takes, tests and all: a mistake here is found before the
    // project holds it.
    Problem::load(name, &problems).map_err(|e| {
        Error::Usage(format!(
            "the problem made from the package does not load ({e}): nothing was written"
        ))
    })?;
    let testdata = root.join("testdata");
    std::fs::create_dir_all(&testdata).map_err(|e| Error::io("create", &testdata, e))?;
    let tests_to = testdata.join(name);
    move_new(&tests_dir, &tests_to)?;
    if let Err(e) = move_new(&problems, &root.join("problems").join(name)) {
        // Back where it was made, to go with the rest.
        let _ = std::fs::rename(&tests_to, &tests_dir);
        return Err(e);
    }
    Ok(())
}

/// Moves the folder `from` to `to`, which must not exist: a folder made there meanwhile is someone else's, and is
/// never replaced (a plain rename would replace an empty one).
fn move_new(from: &Path, to: &Path) -> Result<()> {
    let path = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| Error::Usage(format!("{}: a path with a NUL byte", p.display())))
    };
    let (source, target) = (path(from)?, path(to)?);
    // SAFETY: both are NUL-terminated paths that live through the call.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            source.as_ptr(),
            libc::AT_FDCWD,
            target.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if done == 0 {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    match error.raw_os_error() {
        Some(libc::EEXIST) => Err(Error::Usage(format!(
            "{} already exists: nothing was written",
            to.display()
        ))),
        // A file system that cannot promise it: nothing is there now, which is as near as it comes.
        Some(libc::EINVAL | libc::ENOSYS) if to.symlink_metadata().is_err() => {
            std::fs::rename(from, to).map_err(|e| Error::io("move into place", to, e))
        }
        _ => Err(Error::io("move into place", to, error)),
    }
}
