//! Finding the compilers and interpreters the language table names, and their versions, once per process.

use crate::error::{Error, Result};
use crate::language::{Language, Tool};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Toolchain {
    paths: Mutex<HashMap<&'static str, PathBuf>>,
    versions: Mutex<HashMap<Language, String>>,
}

impl Toolchain {
    /// A toolchain that knows these compilers already, with these versions, and looks up no other: for tests that
    /// run nothing for real and must not depend on what is installed.
    #[cfg(test)]
    pub(crate) fn fixed(compilers: &[(Language, &str, &str)]) -> Self {
        let toolchain = Toolchain::default();
        for &(language, path, version) in compilers {
            let Tool::OnPath { name, .. } = language.spec().compile.tool else {
                unreachable!("every language is compiled by a tool on PATH");
            };
            toolchain
                .paths
                .lock()
                .expect("lock")
                .insert(name, path.into());
            toolchain
                .versions
                .lock()
                .expect("lock")
                .insert(language, version.to_owned());
        }
        toolchain
    }

    /// The absolute path of a tool found on PATH. `Tool::Built` has no path of its own and is refused.
    pub fn resolve(&self, tool: Tool, language: Language) -> Result<PathBuf> {
        let Tool::OnPath { name, locate } = tool else {
            unreachable!("a built program is found in its build folder, not on PATH");
        };
        if let Some(path) = self.paths.lock().expect("lock").get(name) {
            return Ok(path.clone());
        }
        let missing = || Error::MissingCompiler {
            language: language.name(),
            program: name.to_owned(),
            hint: language.spec().install_hint,
        };
        let found = which::which(name).map_err(|_| missing())?;
        let path = match locate {
            Some(args) => {
                let output = Command::new(&found)
                    .args(args)
                    .output()
                    .map_err(|_| missing())?;
                let real = String::from_utf8_lossy(&output.stdout).trim().to_owned();
                if !output.status.success() || real.is_empty() {
                    return Err(missing());
                }
                // A folder is a toolchain's root (`rustc --print sysroot`), with the program in its bin/.
                let real = PathBuf::from(real);
                if real.is_dir() {
                    real.join("bin").join(name)
                } else {
                    real
                }
            }
            None => found,
        };
        self.paths.lock().expect("lock").insert(name, path.clone());
        Ok(path)
    }

    /// The first line the compiler prints about its version: part of every cache key, so that a new compiler
    /// rebuilds everything.
    pub fn version(&self, language: Language) -> Result<String> {
        if let Some(version) = self.versions.lock().expect("lock").get(&language) {
            return Ok(version.clone());
        }
        let spec = language.spec();
        let compiler = self.resolve(spec.compile.tool, language)?;
        let output = Command::new(&compiler)
            .args(spec.version_args)
            .output()
            .map_err(|e| Error::io("run", &compiler, e))?;
        // javac prints its version on stderr, the others on stdout.
        let text = [output.stdout, output.stderr].concat();
        let version = String::from_utf8_lossy(&text)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        self.versions
            .lock()
            .expect("lock")
            .insert(language, version.clone());
        Ok(version)
    }
}

/// The folders a program started from the search path of `env` may need: each folder of its PATH, and the homes of
/// the version managers whose proxies and shims lie there (rustup's, pyenv's), where they exist. (A judge run as
/// root makes its compilers another user, who reaches only these by name in root's home: see `sandbox::view`.)
pub(crate) fn search_path_folders(env: &[(OsString, OsString)]) -> Vec<PathBuf> {
    let var = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let home = var("HOME").map(PathBuf::from);
    let mut folders: Vec<PathBuf> = var("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    for (variable, default) in [("RUSTUP_HOME", ".rustup"), ("PYENV_ROOT", ".pyenv")] {
        let found = var(variable)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|home| home.join(default)));
        folders.extend(found);
    }
    folders
        .into_iter()
        .filter(|folder| folder.is_absolute())
        .filter_map(|folder| std::fs::canonicalize(folder).ok())
        .collect()
}
