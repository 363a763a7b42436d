//! Finding the compilers and interpreters the language table names, and their versions, once per process.

use crate::error::{Error, Result};
use crate::language::Language;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Toolchain {
    /// Each tool's path, by its name on PATH.
    paths: Mutex<HashMap<String, PathBuf>>,
    versions: Mutex<HashMap<Language, String>>,
    /// The `{std}` each language's compiler takes.
    standards: Mutex<HashMap<Language, String>>,
}

impl Toolchain {
    /// A toolchain that knows these compilers already, with these versions, and looks up no other: for tests that
    /// run nothing for real and must not depend on what is installed.
    #[cfg(test)]
    pub(crate) fn fixed(compilers: &[(Language, &str, &str)]) -> Self {
        let toolchain = Toolchain::default();
        for &(language, path, version) in compilers {
            let tool = language
                .spec()
                .versioned_tool()
                .expect("a language has a tool");
            toolchain
                .paths
                .lock()
                .expect("lock")
                .insert(tool.to_owned(), path.into());
            toolchain
                .versions
                .lock()
                .expect("lock")
                .insert(language, version.to_owned());
        }
        toolchain
    }

    /// The absolute path of `tool`, a program of `language` found on PATH.
    pub fn resolve(&self, tool: &str, language: Language) -> Result<PathBuf> {
        if let Some(path) = self.paths.lock().expect("lock").get(tool) {
            return Ok(path.clone());
        }
        let spec = language.spec();
        let missing = || Error::MissingCompiler {
            language: spec.name.clone(),
            program: tool.to_owned(),
            hint: spec.install.clone(),
            needed_by: None,
        };
        let found = which::which(tool).map_err(|_| missing())?;
        let path = match &spec.locate {
            Some(args) => {
                let output = Command::new(&found)
                    .args(args)
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|_| missing())?;
                let real = String::from_utf8_lossy(&output.stdout).trim().to_owned();
                if !output.status.success() || real.is_empty() {
                    return Err(missing());
                }
                // A folder is a toolchain's root (`rustc --print sysroot`), with the program in its bin/.
                let real = PathBuf::from(real);
                if real.is_dir() {
                    real.join("bin").join(tool)
                } else {
                    real
                }
            }
            None => found,
        };
        self.paths
            .lock()
            .expect("lock")
            .insert(tool.to_owned(), path.clone());
        Ok(path)
    }

    /// Whether every tool `language` needs is installed; if not, which is missing and how to install it.
    pub fn check(&self, language: Language) -> Result<()> {
        let spec = language.spec();
        for tool in spec.compiler().into_iter().chain(spec.interpreter()) {
            self.resolve(tool, language)?;
        }
        Ok(())
    }

    /// The first line the compiler (or, with no compile, the interpreter) prints about its version: part of every
    /// cache key, so that a new compiler rebuilds everything.
    pub fn version(&self, language: Language) -> Result<String> {
        if let Some(version) = self.versions.lock().expect("lock").get(&language) {
            return Ok(version.clone());
        }
        let spec = language.spec();
        let Some(tool) = spec.versioned_tool() else {
            return Ok(String::new());
        };
        let compiler = self.resolve(tool, language)?;
        let output = Command::new(&compiler)
            .args(&spec.version)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error::io("run", &compiler, e))?;
        // javac prints its version on stderr, the others on stdout.
        let text = [output.stdout, output.stderr].concat();
        let version = String::from_utf8_lossy(&text)
            .lines()
            .find(|line| !line.trim().is_empty())
            .unwrap_or_default()
            .to_owned();
        self.versions
            .lock()
            .expect("lock")
            .insert(language, version.clone());
        Ok(version)
    }

    /// What `{std}` stands for in `language`'s commands: the first of its standards its compiler accepts (the last
    /// when it accepts none, so that the compile says why); empty for a language with none.
    pub fn standard(&self, language: Language) -> Result<String> {
        let spec = language.spec();
        let (Some(last), Some(tool)) = (spec.standards.last(), spec.compiler()) else {
            return Ok(String::new());
        };
        if let Some(standard) = self.standards.lock().expect("lock").get(&language) {
            return Ok(standard.clone());
        }
        let compiler = self.resolve(tool, language)?;
        let accepts = |standard: &str| {
            Command::new(&compiler)
                .args(
                    spec.standard_probe
                        .iter()
                        .map(|a| a.replace("{std}", standard)),
                )
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        };
        let chosen = spec
            .standards
            .iter()
            .find(|s| accepts(s))
            .unwrap_or(last)
            .clone();
        self.standards
            .lock()
            .expect("lock")
            .insert(language, chosen.clone());
        Ok(chosen)
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
