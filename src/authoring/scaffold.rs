//! A new problem from the template: its files under problems/NAME and testdata/NAME, written atomically, and all
//! removed again if any cannot be written.
//!
//! The template is real files under `template/`, so that they can be read, edited and judged as they are. Their
//! only substitution is the problem's name for `{{name}}`: a plain `str::replace` does that; a templating crate
//! would earn its place only with loops or conditions.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The folder of the project a template file goes under.
#[derive(Debug, Clone, Copy)]
enum Place {
    Problems,
    Testdata,
}

/// One file of the template: where it goes (below `<place>/NAME/`) and its text.
struct TemplateFile {
    place: Place,
    path: &'static str,
    text: &'static str,
}

macro_rules! template {
    ($place:ident, $path:literal) => {
        TemplateFile {
            place: Place::$place,
            path: $path,
            text: include_str!(concat!("template/", $path)),
        }
    };
}

const TEMPLATE: &[TemplateFile] = &[
    template!(Problems, "problem.toml"),
    template!(Problems, "statement.md"),
    template!(Problems, "solutions/main.rs"),
    template!(Problems, "validator.rs"),
    template!(Problems, "generator.rs"),
    template!(Testdata, "sample-1.in"),
    template!(Testdata, "sample-1.ans"),
    template!(Testdata, "recipe.toml"),
];

/// Whether `name` can name a problem: a folder name of letters, digits, '-' and '_', not starting with '-'.
pub fn check_name(name: &str) -> Result<()> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "\"{name}\" is not a valid problem name: use 1 to 64 letters, digits, '-' and '_' \
             (not starting with '-'); nothing was written"
        )))
    }
}

/// Makes problem `name` in the project at `root`; returns the files made, relative to `root`. Refuses a name that
/// is taken (in problems/ or testdata/), and leaves nothing behind when it fails.
pub fn scaffold(root: &Path, name: &str) -> Result<Vec<PathBuf>> {
    check_name(name)?;
    write_all(root, name, TEMPLATE)
}

fn write_all(root: &Path, name: &str, files: &[TemplateFile]) -> Result<Vec<PathBuf>> {
    let base = |place| match place {
        Place::Problems => Path::new("problems").join(name),
        Place::Testdata => Path::new("testdata").join(name),
    };
    for place in [Place::Problems, Place::Testdata] {
        let folder = base(place);
        if root.join(&folder).symlink_metadata().is_ok() {
            return Err(Error::Usage(format!(
                "{} already exists: choose another name (nothing was written)",
                folder.display()
            )));
        }
    }
    let mut made = Made::default();
    let mut written = Vec::new();
    for file in files {
        let relative = base(file.place).join(file.path);
        let path = root.join(&relative);
        let parent = path.parent().expect("a file below the root");
        made.folders(root, parent)?;
        crate::atomic::write_new(&path, file.text.replace("{{name}}", name).as_bytes())?;
        written.push(relative);
    }
    made.keep();
    Ok(written)
}

/// The folders made so far, removed (with what is in them) unless kept.
#[derive(Default)]
struct Made {
    folders: Vec<PathBuf>,
    keep: bool,
}

impl Made {
    /// Makes `folder` and those above it up to `root`, remembering each one made.
    fn folders(&mut self, root: &Path, folder: &Path) -> Result<()> {
        let mut missing = Vec::new();
        let mut at = folder;
        while at != root && at.symlink_metadata().is_err() {
            missing.push(at.to_owned());
            at = at.parent().expect("below the root");
        }
        for folder in missing.into_iter().rev() {
            // Not create_dir_all: a folder that appears meanwhile is someone else's, not ours to remove.
            std::fs::create_dir(&folder).map_err(|e| Error::io("create", &folder, e))?;
            self.folders.push(folder);
        }
        Ok(())
    }

    fn keep(mut self) {
        self.keep = true;
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        for folder in self.folders.iter().rev() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in ["a", "knight-tour", "A_2", "x".repeat(64).as_str()] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "-a",
            "a b",
            "a/b",
            "..",
            ".",
            "é",
            "a.b",
            "x".repeat(65).as_str(),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    fn files_in(root: &Path) -> Vec<String> {
        let mut files: Vec<String> = walkdir::WalkDir::new(root)
            .min_depth(1)
            .into_iter()
            .map(|e| {
                e.unwrap()
                    .path()
                    .strip_prefix(root)
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn the_whole_template_with_the_name_in_place() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("problems")).unwrap();
        let made = scaffold(root.path(), "demo").unwrap();
        assert_eq!(made.len(), TEMPLATE.len());
        let toml = std::fs::read_to_string(root.path().join("problems/demo/problem.toml")).unwrap();
        assert!(toml.contains("title = \"demo\""), "{toml}");
        for file in &made {
            let text = std::fs::read_to_string(root.path().join(file)).unwrap();
            assert!(
                !text.contains("{{"),
                "{} keeps a placeholder",
                file.display()
            );
        }
        // No temporary file is left beside them.
        assert_eq!(
            files_in(root.path()).len(),
            made.len() + 5,
            "{:?}",
            files_in(root.path())
        );
    }

    #[test]
    fn a_taken_name_writes_nothing() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("testdata/demo")).unwrap();
        std::fs::create_dir(root.path().join("problems")).unwrap();
        let error = scaffold(root.path(), "demo").unwrap_err();
        assert!(
            error.to_string().contains("testdata/demo already exists"),
            "{error}"
        );
        assert_eq!(
            files_in(root.path()),
            ["problems", "testdata", "testdata/demo"]
        );
    }

    #[test]
    fn a_failure_midway_removes_what_was_made() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("problems")).unwrap();
        let files = [
            TemplateFile {
                place: Place::Problems,
                path: "a",
                text: "a",
            },
            TemplateFile {
                place: Place::Testdata,
                path: "b",
                text: "b",
            },
            // Below the file `a`: cannot be made.
            TemplateFile {
                place: Place::Problems,
                path: "a/c",
                text: "c",
            },
        ];
        let error = write_all(root.path(), "demo", &files).unwrap_err();
        assert!(error.to_string().contains("problems/demo/a"), "{error}");
        // testdata/ itself was made by it, so it goes too; problems/ was there before.
        assert_eq!(files_in(root.path()), ["problems"]);
    }
}
