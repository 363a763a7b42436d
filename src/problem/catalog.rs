//! Finding problems: every folder under `problems/` that holds a `problem.toml`.

use super::Problem;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The problems of a project folder (the one holding `problems/` and `testdata/`).
#[derive(Debug, Clone)]
pub struct Catalog {
    root: PathBuf,
}

impl Catalog {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Catalog { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn problems_dir(&self) -> PathBuf {
        self.root.join("problems")
    }

    /// The folders no solution may read: the whole project, which holds every problem's statement, solutions and
    /// tools, every test, and whatever else may give them away (its history, backups, fixtures, builds). A project
    /// at the file system's root or in a home folder itself, where compilers may live too, hides only the parts
    /// that are the project's own.
    pub fn private_dirs(&self) -> Vec<PathBuf> {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        if self.root.parent().is_none() || home.as_deref() == Some(self.root.as_path()) {
            ["problems", "testdata", ".git", "target"]
                .map(|dir| self.root.join(dir))
                .to_vec()
        } else {
            vec![self.root.clone()]
        }
    }

    /// The folder of a problem's bundled tests.
    pub fn testdata_dir(&self, name: &str) -> PathBuf {
        self.root.join("testdata").join(name)
    }

    /// The names of every problem, sorted.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.problems_dir()) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("problem.toml").is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort_by(|a, b| natord::compare(a, b));
        names
    }

    /// Loads a problem by name; an unknown name is an error that lists the known ones.
    pub fn load(&self, name: &str) -> Result<Problem> {
        let dir = self.problems_dir().join(name);
        let is_plain_name =
            !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != "..";
        if !is_plain_name || !dir.join("problem.toml").is_file() {
            return Err(Error::UnknownProblem {
                name: name.to_owned(),
                known: self.names(),
            });
        }
        Problem::load(name, &dir)
    }
}
