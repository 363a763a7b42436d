//! Writing a package's files: each made with the folders it needs.

use crate::error::{Error, Result};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub(super) fn copy_into(file: &Path, folder: &Path) -> Result<()> {
    copy(file, &folder.join(file.file_name().unwrap_or_default()))
}

pub(super) fn copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    std::fs::copy(from, to).map_err(|e| Error::io("copy", from, e))?;
    Ok(())
}

pub(super) fn write(path: &Path, contents: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    }
    std::fs::write(path, contents).map_err(|e| Error::io("write", path, e))
}

pub(super) fn write_executable(path: &Path, contents: &[u8]) -> Result<()> {
    write(path, contents)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::io("make executable", path, e))
}
