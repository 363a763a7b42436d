//! A package's programs as files of a problem of ours: each file as a judge of the package builds it (its constants
//! replaced, read as the compiler reads a source: a regular file of the package, bounded), placed below the
//! problem's folder.

use crate::compile::{Source, gather};
use crate::error::Result;
use std::path::{Path, PathBuf};

/// A file to write below problems/<name>/: its path there, and its bytes.
#[derive(Debug, Clone)]
pub(super) struct File {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// Where a program goes, or why problem.toml cannot have it.
pub(super) enum Placed {
    /// Its path below the problem's folder, as problem.toml names it, and its files.
    Program {
        path: String,
        files: Vec<File>,
    },
    Not(String),
}

/// A checker, interactor or validator (which speaks the package protocol, and so may be a folder) placed in
/// `folder`: a folder's files keep their places below it, and problem.toml names the folder; a lone file goes into
/// it under its own name, and is named itself.
pub(super) fn tool(source: &Source, folder: &Path) -> Result<Placed> {
    if let Some(why) = built_with_more(source) {
        return Ok(Placed::Not(why));
    }
    let (main, others) = gather(source)?;
    let mut files = Vec::new();
    let named = match &source.folder {
        Some(theirs) => {
            for (path, bytes) in std::iter::once(main).chain(others) {
                let Ok(inside) = path.strip_prefix(theirs) else {
                    return Ok(Placed::Not(format!(
                        "is built with {}, a file from outside its folder",
                        path.display()
                    )));
                };
                files.push(File {
                    path: folder.join(inside),
                    bytes,
                });
            }
            folder.to_owned()
        }
        None => {
            let path = folder.join(main.0.file_name().unwrap_or_default());
            files.push(File {
                path: path.clone(),
                bytes: main.1,
            });
            path
        }
    };
    Ok(match named.to_str() {
        Some(name) => Placed::Program {
            path: name.to_owned(),
            files,
        },
        None => Placed::Not("has a name that is not UTF-8".to_owned()),
    })
}

/// A solution, which problem.toml takes as one file, placed at `path`.
pub(super) fn single(source: &Source, path: &Path) -> Result<Placed> {
    if let Some(why) = built_with_more(source) {
        return Ok(Placed::Not(why));
    }
    if source.language.is_build_run() {
        return Ok(Placed::Not(
            "is a program of build and run scripts; a solution of problem.toml is one source file"
                .to_owned(),
        ));
    }
    let (main, others) = gather(source)?;
    if !others.is_empty() {
        return Ok(Placed::Not(format!(
            "is a program of {} files; a solution of problem.toml is one source file",
            others.len() + 1
        )));
    }
    Ok(match path.to_str() {
        Some(name) => Placed::Program {
            path: name.to_owned(),
            files: vec![File {
                path: path.to_owned(),
                bytes: main.1,
            }],
        },
        None => Placed::Not("has a name that is not UTF-8".to_owned()),
    })
}

/// Why a program is built from more than its own files, which problem.toml cannot say: the package's included
/// files (`include/`) copied in beside them.
fn built_with_more(source: &Source) -> Option<String> {
    let preparation = &source.preparation;
    (!preparation.included.is_empty() || preparation.driver.is_some()).then(|| {
        format!(
            "is built with {} of include/, which problem.toml cannot add to a program",
            if preparation.included.len() == 1 {
                "a file".to_owned()
            } else {
                format!("{} files", preparation.included.len())
            }
        )
    })
}
