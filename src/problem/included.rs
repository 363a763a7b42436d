//! 2025-09's included files: `include/default/` and `include/<language>/`, copied in with every submission before
//! it is built, in place of its own files of the same names. A language's folder is named by the format's code
//! for it (appendix/languages.md), which is the table's key of the language, or of the one it is a variant of
//! (PyPy's `pypy3` takes `python3`'s).

use super::package::hidden;
use super::package_warning::{PackageWarning, WarningKind};
use crate::compile::Preparation;
use crate::error::{Error, Result};
use crate::language::Language;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The folder whose files go to submissions in every language.
const DEFAULT: &str = "default";

/// The codes of the format's languages table (appendix/languages.md): a folder of `include/` named otherwise is
/// for no language.
const CODES: &[&str] = &[
    "ada",
    "algol68",
    "apl",
    "bash",
    "c",
    "cgmp",
    "cobol",
    "cpp",
    "cppgmp",
    "crystal",
    "csharp",
    "d",
    "dart",
    "elixir",
    "erlang",
    "forth",
    "fortran",
    "fsharp",
    "gerbil",
    "go",
    "haskell",
    "java",
    "javaalgs4",
    "javascript",
    "julia",
    "kotlin",
    "lisp",
    "lua",
    "modula2",
    "nim",
    "objectivec",
    "ocaml",
    "octave",
    "odin",
    "pascal",
    "perl",
    "php",
    "prolog",
    "python2",
    "python3",
    "python3numpy",
    "racket",
    "ruby",
    "rust",
    "scala",
    "simula",
    "smalltalk",
    "snobol",
    "swift",
    "typescript",
    "visualbasic",
    "zig",
];

/// A package's included files, by the folder they are in.
#[derive(Debug, Default)]
pub(super) struct Included {
    /// `include/default/`'s files.
    default: Vec<PathBuf>,
    /// Each language folder's files, by its code.
    by_code: BTreeMap<String, Vec<PathBuf>>,
}

impl Included {
    /// The included files of the package in `dir`; none when it has no `include/`. A file that is no file of the
    /// package (a link out of it), or one in a folder below a language's, is refused: it would be read by the
    /// judge, or built otherwise than its package means. A folder for no language of the format is left with a
    /// warning.
    pub(super) fn find(dir: &Path, warnings: &mut Vec<PackageWarning>) -> Result<Included> {
        let root = dir.join("include");
        let mut included = Included::default();
        if !root.is_dir() {
            return Ok(included);
        }
        let package = std::fs::canonicalize(dir).map_err(|e| Error::io("read", dir, e))?;
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&root)
            .map_err(|e| Error::io("read", &root, e))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::io("read", &root, e))?;
        entries.sort();
        for folder in entries.into_iter().filter(|p| !hidden(p)) {
            let name = crate::text::file_name(folder.file_name().unwrap_or_default());
            if !folder.is_dir() {
                warnings.push(PackageWarning::new(
                    WarningKind::UnknownKey,
                    &folder,
                    None,
                    "a file of include/ outside the folder of a language (include/default/ or include/<language>/): \
                     not included",
                ));
                continue;
            }
            if name != DEFAULT && !CODES.contains(&name.as_str()) {
                warnings.push(PackageWarning::new(
                    WarningKind::UnknownKey,
                    &folder,
                    None,
                    format!(
                        "`{name}` is no language code of the format (appendix/languages.md): its files are included \
                         in no submission"
                    ),
                ));
                continue;
            }
            let files = files_of(&package, &folder)?;
            if name == DEFAULT {
                included.default = files;
            } else {
                included.by_code.insert(name, files);
            }
        }
        Ok(included)
    }

    /// What a submission in `language` is built with: include/default's files, and its language folder's, which
    /// take the place of default ones of the same name; a file of its language's folder named as the format names
    /// an entry point (`main.*`, Python's `__main__.py`) is a driver, which the submission starts from.
    pub(super) fn for_language(&self, language: Language) -> Preparation {
        let spec = language.spec();
        let code = spec.variant_of.as_deref().unwrap_or(&spec.id);
        let own = self
            .by_code
            .get(code)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut included: Vec<PathBuf> = self
            .default
            .iter()
            .filter(|d| !own.iter().any(|o| o.file_name() == d.file_name()))
            .cloned()
            .collect();
        included.extend(own.iter().cloned());
        let driver = own
            .iter()
            .find(|f| language.claims(f) && is_entry_point(f))
            .cloned();
        Preparation {
            included,
            driver,
            constants: None,
            contestant: false,
            headers: None,
        }
    }
}

/// Whether `file` is named as the format's languages table names a default entry point: `main` (any case, as
/// problemtools takes it, which covers Java's `Main` and JavaScript's `main.js`) or Python's `__main__`.
fn is_entry_point(file: &Path) -> bool {
    file.file_stem()
        .is_some_and(|s| s.eq_ignore_ascii_case("main") || s == OsStr::new("__main__"))
}

/// The files of one folder of include/, in name order: each a regular file of the package (a link is followed
/// only to one), directly in the folder, since a build folder holds its files side by side.
fn files_of(package: &Path, folder: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(folder)
        .follow_links(false)
        .sort_by_file_name()
        .min_depth(1)
    {
        let entry = entry.map_err(|e| Error::io("read", folder, e.into()))?;
        if hidden(entry.path()) {
            continue;
        }
        let kind = std::fs::metadata(entry.path()).map(|m| m.file_type());
        let real = std::fs::canonicalize(entry.path());
        match (kind, real) {
            (Ok(kind), Ok(real)) if kind.is_file() && real.starts_with(package) => {
                if entry.depth() > 1 {
                    return Err(Error::Usage(format!(
                        "{}: included files in a folder of their own are not supported yet: a build folder holds its \
                         files side by side",
                        entry.path().display()
                    )));
                }
                files.push(entry.into_path());
            }
            (Ok(kind), _) if kind.is_dir() && !entry.path_is_symlink() => {}
            _ => {
                return Err(Error::Usage(format!(
                    "{}: an included file must be a file of its package, and this is {}",
                    entry.path().display(),
                    if entry.path_is_symlink() {
                        "a link out of the package, or a link to something other than a file"
                    } else {
                        crate::untrusted::describe(&entry.file_type())
                    }
                )));
            }
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package in a temporary folder with the given files (path, contents).
    fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("problem.yaml"), "name: P\n").unwrap();
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn names(files: &[PathBuf]) -> Vec<String> {
        files
            .iter()
            .map(|f| {
                let parts: Vec<_> = f.components().rev().take(2).collect();
                format!(
                    "{}/{}",
                    parts[1].as_os_str().to_string_lossy(),
                    parts[0].as_os_str().to_string_lossy()
                )
            })
            .collect()
    }

    #[test]
    fn a_language_folder_takes_the_place_of_default_files_and_may_hold_a_driver() {
        let dir = package(&[
            ("include/default/data.txt", "1"),
            ("include/default/util.py", "a = 1"),
            ("include/python3/util.py", "a = 2"),
            ("include/python3/__main__.py", "import util"),
            ("include/cpp/main.cpp", "int main() {}"),
        ]);
        let mut warnings = Vec::new();
        let included = Included::find(&dir.path().join("p"), &mut warnings).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let python = included.for_language(Language::shipped("python3"));
        assert_eq!(
            names(&python.included),
            ["default/data.txt", "python3/__main__.py", "python3/util.py"]
        );
        assert_eq!(
            names(&python.driver.into_iter().collect::<Vec<_>>()),
            ["python3/__main__.py"]
        );
        // PyPy's submissions are Python 3's.
        let pypy = included.for_language(Language::shipped("pypy3"));
        assert_eq!(
            pypy.included,
            included.for_language(Language::shipped("python3")).included
        );
        let c = included.for_language(Language::shipped("c"));
        assert_eq!(names(&c.included), ["default/data.txt", "default/util.py"]);
        assert_eq!(c.driver, None, "a default file is never a driver");
        let cpp = included.for_language(Language::shipped("cpp"));
        assert_eq!(
            names(&cpp.driver.into_iter().collect::<Vec<_>>()),
            ["cpp/main.cpp"]
        );
    }

    #[test]
    fn a_folder_for_no_language_is_warned_of() {
        let dir = package(&[("include/c++/x.h", ""), ("include/c/x.h", "")]);
        let mut warnings = Vec::new();
        let included = Included::find(&dir.path().join("p"), &mut warnings).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains("`c++` is no language code"),
            "{}",
            warnings[0]
        );
        assert_eq!(
            included.for_language(Language::shipped("cpp")).included,
            Vec::<PathBuf>::new()
        );
        assert_eq!(
            included.for_language(Language::shipped("c")).included.len(),
            1
        );
    }

    #[test]
    fn an_included_file_is_a_file_of_its_package() {
        let dir = package(&[("include/c/x.h", "")]);
        std::fs::write(dir.path().join("secret"), "s").unwrap();
        let root = dir.path().join("p");
        std::os::unix::fs::symlink("../../../secret", root.join("include/c/y.h")).unwrap();
        let message = Included::find(&root, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(message.contains("a link out of the package"), "{message}");
        // A link within the package is a file of it.
        std::fs::remove_file(root.join("include/c/y.h")).unwrap();
        std::os::unix::fs::symlink("x.h", root.join("include/c/y.h")).unwrap();
        assert_eq!(
            Included::find(&root, &mut Vec::new())
                .unwrap()
                .for_language(Language::shipped("c"))
                .included
                .len(),
            2
        );
        // A link to a folder out of the package is refused too, never walked.
        std::fs::create_dir(dir.path().join("outside")).unwrap();
        std::os::unix::fs::symlink("../../../outside", root.join("include/c/more")).unwrap();
        let message = Included::find(&root, &mut Vec::new())
            .unwrap_err()
            .to_string();
        assert!(message.contains("a link out of the package"), "{message}");
    }
}
