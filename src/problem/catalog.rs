//! Finding problems: every folder under `problems/` that holds a `problem.toml`.

use super::Problem;
use crate::error::{Error, Result};
use std::os::unix::ffi::OsStrExt;
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
        let mut dirs =
            if self.root.parent().is_none() || home.as_deref() == Some(self.root.as_path()) {
                ["problems", "testdata", ".git", "target"]
                    .map(|dir| self.root.join(dir))
                    .to_vec()
            } else {
                vec![self.root.clone()]
            };
        dirs.extend(git_elsewhere(&self.root));
        dirs
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

    /// The folders under `problems/` without a `problem.toml` (hidden ones aside): a problem begun by hand, or one
    /// whose file was lost, which would otherwise go unlisted without a word.
    pub(crate) fn without_config(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.problems_dir()) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .filter(|e| e.path().is_dir() && !e.path().join("problem.toml").is_file())
            .map(|e| e.path())
            .collect();
        found.sort();
        found
    }

    /// The folders under `problems/` holding a `problem.toml` whose names are not UTF-8: no problem can be named
    /// by them, since a problem's name goes into reports and `testdata/<name>`.
    pub(crate) fn misnamed(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.problems_dir()) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_str().is_none() && e.path().join("problem.toml").is_file())
            .map(|e| e.path())
            .collect();
        found.sort();
        found
    }

    /// Loads a problem given by name (`knight-pawns`) or by the path of its folder (`problems/knight-pawns`, or
    /// `.` inside it), relative to `cwd`.
    pub fn load_given(&self, given: &Path, cwd: &Path) -> Result<Problem> {
        let text = given.as_os_str().as_bytes();
        let is_path =
            text.contains(&b'/') || text.contains(&b'\\') || text == b"." || text == b"..";
        if !is_path {
            return match given.to_str() {
                Some(name) => self.load(name),
                None => Err(Error::UnknownProblem {
                    name: crate::text::file_name(given.as_os_str()),
                    known: self.names(),
                }),
            };
        }
        let folder = std::fs::canonicalize(cwd.join(given)).ok();
        let problems = std::fs::canonicalize(self.problems_dir()).ok();
        match folder {
            Some(folder) if folder.parent().is_some() && folder.parent() == problems.as_deref() => {
                match folder.file_name().and_then(|n| n.to_str()) {
                    Some(name) => self.load(name),
                    None => Err(Error::Usage(misnamed(&folder))),
                }
            }
            _ => Err(Error::Usage(format!(
                "{} is not a problem folder of the project {} (a folder of {} with a problem.toml)",
                given.display(),
                self.root.display(),
                self.problems_dir().display()
            ))),
        }
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

/// Why the problem in `folder` cannot be loaded, when its name is not UTF-8.
pub(crate) fn misnamed(folder: &Path) -> String {
    format!(
        "{}: a problem's folder name must be UTF-8, as the problem is named by it in reports and testdata/; \
         rename it",
        folder.display()
    )
}

/// The project folder `start` is in: the nearest folder holding `problems/`, from `start` up, as cargo finds its
/// manifest.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join("problems").is_dir())
        .map(Path::to_owned)
}

/// Where the project's git history lives when not inside it: a worktree's or submodule's `.git` is a file that
/// names the repository's folder, which may share its objects with a main repository (`commondir`) and borrow
/// from others (`objects/info/alternates`). Every commit of the tests and answers is there.
fn git_elsewhere(root: &Path) -> Vec<PathBuf> {
    let Ok(link) = std::fs::read_to_string(root.join(".git")) else {
        return Vec::new();
    };
    let Some(gitdir) = link.trim().strip_prefix("gitdir:") else {
        return Vec::new();
    };
    let gitdir = root.join(gitdir.trim());
    let mut dirs = vec![gitdir.clone()];
    let common = std::fs::read_to_string(gitdir.join("commondir"))
        .map(|dir| gitdir.join(dir.trim()))
        .unwrap_or_else(|_| gitdir.clone());
    dirs.push(common.clone());
    if let Ok(alternates) = std::fs::read_to_string(common.join("objects/info/alternates")) {
        let objects = common.join("objects");
        dirs.extend(
            alternates
                .lines()
                .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
                .map(|line| objects.join(line.trim())),
        );
    }
    dirs
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_found_from_below() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("problems/p/solutions");
        std::fs::create_dir_all(&inside).unwrap();
        assert_eq!(find_root(&inside).as_deref(), Some(dir.path()));
        assert_eq!(find_root(dir.path()).as_deref(), Some(dir.path()));
    }

    #[test]
    fn a_worktrees_history_is_hidden_too() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main/.git");
        let worktree_git = main.join("worktrees/wt");
        let borrowed = dir.path().join("borrowed/objects");
        std::fs::create_dir_all(&borrowed).unwrap();
        std::fs::create_dir_all(&worktree_git).unwrap();
        std::fs::create_dir_all(main.join("objects/info")).unwrap();
        std::fs::write(worktree_git.join("commondir"), "../..\n").unwrap();
        std::fs::write(
            main.join("objects/info/alternates"),
            format!("{}\n", borrowed.display()),
        )
        .unwrap();
        let project = dir.path().join("wt");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            project.join(".git"),
            format!("gitdir: {}\n", worktree_git.display()),
        )
        .unwrap();

        let hidden = Catalog::new(&project).private_dirs();
        let real = |p: &Path| std::fs::canonicalize(p).unwrap();
        let hidden: Vec<PathBuf> = hidden
            .iter()
            .filter(|p| p.exists())
            .map(|p| real(p))
            .collect();
        for needed in [&project, &worktree_git, &main, &borrowed] {
            assert!(
                hidden.contains(&real(needed)),
                "{} not in {hidden:?}",
                needed.display()
            );
        }
        // An ordinary project has nothing of its history elsewhere.
        assert!(git_elsewhere(dir.path()).is_empty());
    }
}
