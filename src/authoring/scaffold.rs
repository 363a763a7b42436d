//! A new problem from the template: its files under problems/NAME and testdata/NAME, written atomically, and all
//! removed again if any cannot be written.
//!
//! The template is real files under `template/`, so that they can be read, edited and judged as they are: those
//! every problem has, and per language (`template/<language>/`) the main reference, the validator and the
//! generator, each written to the same conventions. Their only substitutions are the problem's name for
//! `{{name}}` and the language's file extension for `{{ext}}`: a plain `str::replace` does that; a templating
//! crate would earn its place only with loops or conditions.

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
        template!($place, "", $path)
    };
    ($place:ident, $folder:literal, $path:literal) => {
        TemplateFile {
            place: Place::$place,
            path: $path,
            text: include_str!(concat!("template/", $folder, $path)),
        }
    };
}

/// The files every problem has, whatever its language.
const COMMON: &[TemplateFile] = &[
    template!(Problems, "problem.toml"),
    template!(Problems, "statement.md"),
    template!(Testdata, "sample-1.in"),
    template!(Testdata, "sample-1.ans"),
    template!(Testdata, "recipe.toml"),
];

/// A language the template is written in: its name for `--lang`, the extension of its files, and its main
/// reference, validator and generator.
pub struct TemplateLanguage {
    pub name: &'static str,
    extension: &'static str,
    programs: [TemplateFile; 3],
}

/// The languages `cpjudge new --lang` offers; the first is the default.
pub const LANGUAGES: &[TemplateLanguage] = &[
    TemplateLanguage {
        name: "rust",
        extension: "rs",
        programs: [
            template!(Problems, "rust/", "solutions/main.rs"),
            template!(Problems, "rust/", "validator.rs"),
            template!(Problems, "rust/", "generator.rs"),
        ],
    },
    TemplateLanguage {
        name: "cpp",
        extension: "cpp",
        programs: [
            template!(Problems, "cpp/", "solutions/main.cpp"),
            template!(Problems, "cpp/", "validator.cpp"),
            template!(Problems, "cpp/", "generator.cpp"),
        ],
    },
    TemplateLanguage {
        name: "python",
        extension: "py",
        programs: [
            template!(Problems, "python/", "solutions/main.py"),
            template!(Problems, "python/", "validator.py"),
            template!(Problems, "python/", "generator.py"),
        ],
    },
];

/// The template language named `name`; refused, listing those offered, when there is none.
pub fn template_language(name: &str) -> Result<&'static TemplateLanguage> {
    LANGUAGES.iter().find(|l| l.name == name).ok_or_else(|| {
        let offered: Vec<&str> = LANGUAGES.iter().map(|l| l.name).collect();
        Error::Usage(format!(
            "--lang {name}: the template is written in {} only; nothing was written",
            offered.join(", ")
        ))
    })
}

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

/// Makes problem `name` in the project at `root`, its programs in `language` (one of [`LANGUAGES`]); returns the
/// files made, relative to `root`. Refuses a name that is taken (in problems/ or testdata/), and leaves nothing
/// behind when it fails.
pub fn scaffold(root: &Path, name: &str, language: &str) -> Result<Vec<PathBuf>> {
    let language = template_language(language)?;
    check_name(name)?;
    let (first, rest) = COMMON.split_at(2);
    let files: Vec<&TemplateFile> = first.iter().chain(&language.programs).chain(rest).collect();
    write_all(root, name, language.extension, &files)
}

fn write_all(
    root: &Path,
    name: &str,
    extension: &str,
    files: &[&TemplateFile],
) -> Result<Vec<PathBuf>> {
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
        let text = file
            .text
            .replace("{{name}}", name)
            .replace("{{ext}}", extension);
        crate::atomic::write_new(&path, text.as_bytes())?;
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
        let made = scaffold(root.path(), "demo", "rust").unwrap();
        assert_eq!(made.len(), COMMON.len() + 3);
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
    fn every_language_names_its_own_files() {
        for language in LANGUAGES {
            let root = tempfile::tempdir().unwrap();
            std::fs::create_dir(root.path().join("problems")).unwrap();
            let made = scaffold(root.path(), "demo", language.name).unwrap();
            let toml =
                std::fs::read_to_string(root.path().join("problems/demo/problem.toml")).unwrap();
            for program in ["solutions/main", "validator", "generator"] {
                let file = format!("{program}.{}", language.extension);
                assert!(toml.contains(&format!("\"{file}\"")), "{toml}");
                assert!(
                    made.contains(&Path::new("problems/demo").join(&file)),
                    "{made:?}"
                );
            }
        }
        let error = scaffold(Path::new("/nonexistent"), "demo", "cobol").unwrap_err();
        assert!(error.to_string().contains("rust, cpp, python"), "{error}");
    }

    #[test]
    fn a_taken_name_writes_nothing() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("testdata/demo")).unwrap();
        std::fs::create_dir(root.path().join("problems")).unwrap();
        let error = scaffold(root.path(), "demo", "rust").unwrap_err();
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
        let files: Vec<&TemplateFile> = files.iter().collect();
        let error = write_all(root.path(), "demo", "rs", &files).unwrap_err();
        assert!(error.to_string().contains("problems/demo/a"), "{error}");
        // testdata/ itself was made by it, so it goes too; problems/ was there before.
        assert_eq!(files_in(root.path()), ["problems"]);
    }
}
