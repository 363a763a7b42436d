//! Files given on the command line to judge instead of a problem's solutions.

use super::Solution;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::prebuilt::Prebuilt;
use crate::verdict::Verdict;
use std::path::{Component, Path, PathBuf};

/// A solution left out of judging, and why: its language is not in the table, or its compiler is not installed.
/// It counts against the judge only under `--strict`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub name: String,
    pub path: PathBuf,
    /// Its language's name, when it has one.
    pub language: Option<String>,
    pub why: String,
}

/// The files `paths` as solutions (an executable of no known language run as it is) expected to get one of `expected`, each named by the shortest end of its path
/// that no other has (`a/sol.py` and `b/sol.py`, but `x.cpp` alone), so that every report tells them apart.
pub fn submissions(paths: &[PathBuf], expected: &[Verdict]) -> Result<Vec<Solution>> {
    let names = unique_names(paths);
    paths
        .iter()
        .zip(names)
        .map(|(path, name)| {
            if !path.is_file() {
                return Err(Error::Usage(format!(
                    "submission {} does not exist",
                    path.display()
                )));
            }
            if is_empty(path) {
                return Err(Error::Usage(format!(
                    "submission {}: the file is empty (saved before it was written?); there is nothing to judge",
                    path.display()
                )));
            }
            // An executable of no known language (an `a.out` built by the contestant) is run as it is.
            let (language, prebuilt) = match Language::of(path) {
                Ok(language) => (language, None),
                Err(_) if crate::prebuilt::is_executable(path) => {
                    (Language::prebuilt(), Some(Prebuilt::executable(path)?))
                }
                Err(unknown) => return Err(unknown),
            };
            Ok(Solution {
                name,
                path: path.to_owned(),
                language,
                expected: expected.to_vec(),
                main: false,
                others: Vec::new(),
                expectations: Vec::new(),
                preparation: Default::default(),
                prebuilt,
            })
        })
        .collect()
}

/// Commands to judge, each run as it is (see [`Prebuilt::command`]), named by its text, expecting `expected`.
pub fn commands(commands: &[String], expected: &[Verdict]) -> Result<Vec<Solution>> {
    commands
        .iter()
        .map(|text| {
            Ok(Solution {
                name: text.clone(),
                path: PathBuf::from(text),
                language: Language::prebuilt(),
                expected: expected.to_vec(),
                main: false,
                others: Vec::new(),
                expectations: Vec::new(),
                preparation: Default::default(),
                prebuilt: Some(Prebuilt::command(text)?),
            })
        })
        .collect()
}

/// Whether a file holds nothing but white space: compiled, it gets a linker's error or, interpreted, a wrong answer,
/// neither of which says what is wrong.
fn is_empty(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(meta) if meta.len() == 0 => true,
        Ok(meta) if meta.len() <= 4096 => {
            std::fs::read(path).is_ok_and(|text| text.iter().all(u8::is_ascii_whitespace))
        }
        _ => false,
    }
}

/// For each path, the shortest suffix of its components that is the suffix of no other path; the whole path when
/// even that is shared (the same file given twice).
pub(crate) fn unique_names(paths: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = paths.iter().map(|p| components(p)).collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, mine)| {
            let taken = (1..=mine.len())
                .find(|&n| {
                    let suffix = &mine[mine.len() - n..];
                    parts
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || !other.ends_with(suffix))
                })
                .unwrap_or(mine.len());
            mine[mine.len() - taken..].join("/")
        })
        .collect()
}

fn components(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(crate::text::file_name(part)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(paths: &[&str]) -> Vec<String> {
        unique_names(&paths.iter().map(PathBuf::from).collect::<Vec<_>>())
    }

    #[test]
    fn the_shortest_unique_end_of_each_path() {
        assert_eq!(names(&["x/sol.cpp"]), ["sol.cpp"]);
        assert_eq!(names(&["a/sol.py", "b/sol.py"]), ["a/sol.py", "b/sol.py"]);
        assert_eq!(
            names(&["u/a/sol.py", "v/a/sol.py", "w/b/sol.py", "other.py"]),
            ["u/a/sol.py", "v/a/sol.py", "b/sol.py", "other.py"]
        );
        assert_eq!(names(&["./a/s.c", "a/s.c"]), ["a/s.c", "a/s.c"]);
    }
}
