//! A problem's testdata folder as the authoring commands change it: under a lock, so that two commands at once
//! never pick one name for two tests, and with every file written in one step.

use super::recipe::{Entry, FILE_NAME, Recipe};
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The testdata folder of one problem, locked for as long as this lives.
pub struct TestFolder {
    dir: PathBuf,
    _lock: File,
}

/// A test to write: its name, input and answer.
pub struct NewTest {
    pub name: String,
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
}

impl TestFolder {
    /// Locks `dir` (made if missing), waiting for any other command that holds it. The lock is the folder's own
    /// (`flock` on it), so nothing is left behind if the holder is killed.
    pub fn lock(dir: &Path) -> Result<TestFolder> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        let lock = File::open(dir).map_err(|e| Error::io("open", dir, e))?;
        lock.lock().map_err(|e| Error::io("lock", dir, e))?;
        Ok(TestFolder {
            dir: dir.to_owned(),
            _lock: lock,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn recipe(&self) -> Result<Recipe> {
        Recipe::load(&self.dir)
    }

    /// The test whose input is byte for byte `input`, if there is one.
    pub fn identical(&self, input: &[u8]) -> Result<Option<String>> {
        identical(&self.dir, input)
    }

    /// Whether a test called `name` exists or is promised by the recipe.
    pub fn taken(&self, name: &str, recipe: &Recipe) -> bool {
        ["in", "ans", "out"]
            .iter()
            .any(|extension| self.path(name, extension).exists())
            || recipe.get(name).is_some()
    }

    /// `name` if free, else the first of `name-2`, `name-3`, ... that is.
    pub fn free_name(&self, name: &str, recipe: &Recipe) -> String {
        if !self.taken(name, recipe) {
            return name.to_owned();
        }
        (2..)
            .map(|k| format!("{name}-{k}"))
            .find(|candidate| !self.taken(candidate, recipe))
            .expect("some suffix is free")
    }

    pub fn path(&self, name: &str, extension: &str) -> PathBuf {
        self.dir.join(format!("{name}.{extension}"))
    }

    /// Writes a test's answer, then its input, each in one step: a reader sees a test whole or not at all, except
    /// for the instant between the two renames.
    pub fn write(&self, test: &NewTest) -> Result<()> {
        let answer = self.path(&test.name, "ans");
        let input = self.path(&test.name, "in");
        for (path, contents) in [(&answer, &test.answer), (&input, &test.input)] {
            write_file(path, contents)?;
        }
        Ok(())
    }

    /// Writes a test's answer alone, in one step, where its input is right as it is.
    pub fn write_answer(&self, name: &str, answer: &[u8]) -> Result<()> {
        write_file(&self.path(name, "ans"), answer)
    }

    /// Adds `entries` at the end of the recipe, keeping what is there as it is.
    pub fn record(&self, entries: &[Entry]) -> Result<()> {
        let path = self.dir.join(FILE_NAME);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        crate::atomic::write(&path, Recipe::appended(&existing, entries).as_bytes())
    }
}

/// Writes `contents` at `path` in one step, making its folder if need be; a file that is already right is left as
/// it is.
fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| Error::io("create", folder, e))?;
    }
    if !holds(path, contents).unwrap_or(false) {
        crate::atomic::write(path, contents)?;
    }
    Ok(())
}

/// Whether the file at `path` holds exactly `contents`. It is read a piece at a time, and not at all when its size
/// differs: a test kept there may be far larger than what should be held.
pub(crate) fn holds(path: &Path, contents: &[u8]) -> io::Result<bool> {
    let mut file = File::open(path)?;
    if file.metadata()?.len() != contents.len() as u64 {
        return Ok(false);
    }
    let mut buffer = vec![0; 64 * 1024];
    let mut rest = contents;
    loop {
        let read = match file.read(&mut buffer) {
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if read == 0 {
            return Ok(rest.is_empty());
        }
        if read > rest.len() || buffer[..read] != rest[..read] {
            return Ok(false);
        }
        rest = &rest[read..];
    }
}

/// The test under `dir` whose input is byte for byte `input`, if there is one.
pub fn identical(dir: &Path, input: &[u8]) -> Result<Option<String>> {
    let tests = match crate::problem::find_inputs(dir) {
        Ok(tests) => tests,
        Err(Error::NoTestsFolder { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    for test in tests {
        if holds(&test.input(), input).map_err(|e| Error::io("read", test.input(), e))? {
            return Ok(Some(test.name.into()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authoring::recipe::Source;

    fn test(name: &str, input: &str) -> NewTest {
        NewTest {
            name: name.into(),
            input: input.into(),
            answer: b"42\n".to_vec(),
        }
    }

    #[test]
    fn written_tests_are_found_and_named_apart() {
        let dir = tempfile::tempdir().unwrap();
        let folder = TestFolder::lock(dir.path()).unwrap();
        folder.write(&test("hand-1", "1 2\n")).unwrap();
        folder
            .record(&[Entry {
                name: "hand-1".into(),
                source: Source::HandMade,
            }])
            .unwrap();
        let recipe = folder.recipe().unwrap();
        assert_eq!(
            folder.identical(b"1 2\n").unwrap().as_deref(),
            Some("hand-1")
        );
        assert_eq!(folder.identical(b"1 2 \n").unwrap(), None);
        assert_eq!(folder.free_name("hand-1", &recipe), "hand-1-2");
        assert_eq!(folder.free_name("other", &recipe), "other");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(names.is_empty(), "temporary files left: {names:?}");
    }

    #[test]
    fn a_file_holds_contents_only_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.in");
        let contents: Vec<u8> = (0..200_000u32).map(|i| (i % 253) as u8).collect();
        std::fs::write(&path, &contents).unwrap();
        assert!(holds(&path, &contents).unwrap());
        let mut changed = contents.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert!(!holds(&path, &changed).unwrap());
        assert!(!holds(&path, &contents[..contents.len() - 1]).unwrap());
        assert!(holds(&dir.path().join("none"), b"").is_err());
        // A file of another size is not read: a sparse one of many gigabytes is told apart at once.
        let sparse = dir.path().join("2.in");
        File::create(&sparse).unwrap().set_len(1 << 40).unwrap();
        assert!(!holds(&sparse, &contents).unwrap());
    }

    #[test]
    fn a_second_lock_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let first = TestFolder::lock(dir.path()).unwrap();
        let other = File::open(dir.path()).unwrap();
        assert!(other.try_lock().is_err(), "the folder is not locked");
        drop(first);
        assert!(other.try_lock().is_ok(), "the lock outlived its holder");
    }
}
