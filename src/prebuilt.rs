//! A program run as it is, never compiled: an executable the contestant built (`a.out`), or a command
//! (`python3 sol.py`), as online-judge-tools' `oj test -c` runs one.
//!
//! It is judged as any built program is: its command becomes a [`crate::compile::Program`] and runs through the
//! same sandbox as every solution. A run starts in a fresh empty folder and may not read the judge's hidden
//! folders, so every path in the command is made absolute, and the files and folders it names are what its run
//! may read there besides everything a solution may read anyway.

use crate::error::{Error, Result};
use crate::language::Language;
use crate::toolchain::Toolchain;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A command to run as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Prebuilt {
    /// Its words: the program as an absolute path, then its arguments, those naming files made absolute.
    pub argv: Vec<OsString>,
    /// The files and folders its words name: what its run may read, wherever they lie.
    pub readable: Vec<PathBuf>,
}

impl Prebuilt {
    /// An executable file, run with no arguments.
    pub fn executable(path: &Path) -> Result<Prebuilt> {
        let absolute = absolute(path)?;
        Ok(Prebuilt {
            argv: vec![absolute.clone().into_os_string()],
            readable: vec![absolute],
        })
    }

    /// A command line: its words as a shell splits them, the first a program on PATH (or a path holding a `/`), each
    /// other that names an existing file or folder made absolute and readable (the rule `--help` gives).
    pub fn command(text: &str) -> Result<Prebuilt> {
        let bad = |why: &str| Error::Usage(format!("--command {text:?}: {why}"));
        let words = shlex::split(text).ok_or_else(|| bad("an unclosed quote"))?;
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| bad("no program to run"))?;
        let program = if first.contains('/') {
            let path = absolute(Path::new(first))?;
            if !is_executable(&path) {
                return Err(bad(&format!("{first} is not an executable file")));
            }
            path
        } else {
            on_path(first).ok_or_else(|| bad(&format!("{first} is not found on PATH")))?
        };
        let mut prebuilt = Prebuilt {
            argv: vec![program.clone().into_os_string()],
            readable: vec![program],
        };
        for word in rest {
            let path = Path::new(word);
            if path.exists() {
                let path = absolute(path)?;
                prebuilt.argv.push(path.clone().into_os_string());
                prebuilt.readable.push(path);
            } else {
                prebuilt.argv.push(word.into());
            }
        }
        Ok(prebuilt)
    }

    /// Refuses a command that names a file in `secret` (the tests: `cat tests/1.ans`), which its run would read by
    /// the rule that makes the files it names readable.
    pub fn check_outside(&self, shown: &str, secret: &[PathBuf]) -> Result<()> {
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
        for path in &self.readable {
            let path = real(path);
            if let Some(folder) = secret.iter().find(|s| path.starts_with(real(s))) {
                return Err(Error::Usage(format!(
                    "{shown}: {} lies in {}, which no run may read: the tests stay hidden",
                    path.display(),
                    folder.display()
                )));
            }
        }
        Ok(())
    }
}

/// Whether `path` is a regular file someone may execute: a program of no known language given as a submission is
/// run as it is when it is one.
pub fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A program on PATH: the real one behind it where the language table runs it as an interpreter and says how to
/// find that (a version manager's `python3` is a wrapper needing the user's environment, which a run does not have).
fn on_path(name: &str) -> Option<PathBuf> {
    let language = Language::all().find(|l| {
        let spec = l.spec();
        spec.interpreter() == Some(name) && spec.locate.is_some()
    });
    language
        .and_then(|l| Toolchain::default().resolve(name, l).ok())
        .or_else(|| which::which(name).ok())
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).map_err(|e| Error::io("resolve", path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commands_program_is_found_on_path_and_its_files_made_absolute() {
        let here = std::env::current_dir().unwrap();
        let command = Prebuilt::command("sh 'Cargo.toml' -c \"no such file\"").unwrap();
        assert!(Path::new(&command.argv[0]).is_absolute(), "{command:?}");
        assert_eq!(command.argv[1], here.join("Cargo.toml").into_os_string());
        assert_eq!(command.argv[2], "-c");
        assert_eq!(command.argv[3], "no such file");
        assert_eq!(command.readable[1], here.join("Cargo.toml"));
        assert_eq!(command.readable.len(), 2);
        assert!(Prebuilt::command("no-such-program-anywhere x").is_err());
        assert!(Prebuilt::command("sh 'open").is_err());
        assert!(Prebuilt::command("  ").is_err());
        // A path with a slash is the current folder's, and must be executable.
        assert!(Prebuilt::command("./Cargo.toml").is_err());
    }

    #[test]
    fn a_command_naming_a_secret_file_is_refused() {
        let here = std::env::current_dir().unwrap();
        let command = Prebuilt::command("cat src/lib.rs").unwrap();
        assert!(command.check_outside("cat", &[here.join("src")]).is_err());
        assert!(command.check_outside("cat", &[here.join("tests")]).is_ok());
    }
}
