//! The languages programs may be written in: a table of data (`languages.toml`, shipped, which a project's or the
//! user's own file extends), how a program's language is told from its files, and what each needs to build and run.

mod detect;
mod flags;
mod table;

pub use detect::Rules;
pub use flags::Flags;
pub use table::{Spec, TableFile, configure, table_files};

use crate::error::{Error, Result};
use std::path::Path;

/// A language of the table: a handle to its entry, cheap to copy and compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language(u16);

impl Language {
    /// The language of a source file, from its name (and, where names are shared, its first lines), under the
    /// project's rules.
    pub fn of(path: &Path) -> Result<Language> {
        Self::of_program(std::slice::from_ref(&path.to_owned()), Rules::Project).ok_or_else(|| {
            Error::UnknownLanguage {
                path: path.to_owned(),
                extension: path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                known: table::get().known_patterns(),
            }
        })
    }

    /// The language of a program made of `files` (its main file among them), under `rules`; `None` when no file
    /// is of a language of the table.
    pub fn of_program(files: &[std::path::PathBuf], rules: Rules) -> Option<Language> {
        detect::language_of(table::get(), files, rules)
    }

    /// Whether `path` is a source file of this language (by its name only).
    pub fn claims(self, path: &Path) -> bool {
        self.spec().claims(path)
    }

    /// A language of the shipped table, by its key (`c`, `cpp`, `python3`, `build-run`...).
    pub fn shipped(id: &str) -> Language {
        Self::with_id(id).unwrap_or_else(|| panic!("the shipped table has `{id}`"))
    }

    /// The language with this key, if the table has one.
    pub fn with_id(id: &str) -> Option<Language> {
        table::get().position(|spec| spec.id == id)
    }

    /// The language of this [`Language::name`] (or key), as reports name it; "Python", as reports of versions
    /// before the table named Python 3, too.
    pub fn named(name: &str) -> Option<Language> {
        let name = if name == "Python" { "python3" } else { name };
        table::get().position(|spec| spec.name == name || spec.id == name)
    }

    /// Every language of the table, in its order.
    pub fn all() -> impl Iterator<Item = Language> {
        (0..table::get().len()).map(|i| Language(i as u16))
    }

    pub fn spec(self) -> &'static Spec {
        table::get().spec(self)
    }

    pub fn name(self) -> &'static str {
        &self.spec().name
    }

    /// Its code in the Problem Package Format's table of languages (`cpp`, `python3`): its key, which the table
    /// shares, or that of the language it is a variant of (PyPy's is `python3`).
    pub fn code(self) -> &'static str {
        let spec = self.spec();
        spec.variant_of.as_deref().unwrap_or(&spec.id)
    }

    /// The language of a program run as it is, never compiled (see `crate::prebuilt`).
    pub fn prebuilt() -> Language {
        Self::shipped(PREBUILT)
    }

    /// Whether this is a program run as it is.
    pub fn is_prebuilt(self) -> bool {
        self.spec().id == PREBUILT
    }

    /// Whether this is a folder of `build` and `run` scripts, whose build may start anything on PATH.
    pub fn is_build_run(self) -> bool {
        self.spec().id == BUILD_RUN
    }

    /// The language of a program folder holding a `run` script.
    pub fn build_run() -> Language {
        Self::shipped(BUILD_RUN)
    }

    /// The name a source gets in its build folder: its own, but for a language whose public classes must be in
    /// files named after them (Java).
    pub fn build_file_name(self, source: &str, original: &str) -> String {
        if self.spec().class_named_files {
            crate::java::source_file_name(source, original)
        } else {
            original.to_owned()
        }
    }

    /// What `{main_class}` stands for: the class that declares `main` (Java); an error says why a source has none,
    /// which makes it a compile error. A language whose run command has no `{main_class}` starts no class.
    pub fn entry_point(self, source: &str) -> Result<String, String> {
        if self.spec().run.iter().any(|w| w.contains("{main_class}")) {
            crate::java::main_class(source)
        } else {
            Ok(String::new())
        }
    }
}

const BUILD_RUN: &str = "build-run";
const PREBUILT: &str = "prebuilt";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn languages_by_name() {
        let cases = [
            ("a.rs", Some("rust")),
            ("dir/b.cpp", Some("cpp")),
            ("b.cc", Some("cpp")),
            ("b.c++", Some("cpp")),
            ("c.c", Some("c")),
            ("d.py", Some("python3")),
            ("d.py3", Some("python3")),
            ("d.py2", Some("python2")),
            ("Main.java", Some("java")),
            ("e.go", Some("go")),
            ("hello.kt", Some("kotlin")),
            ("x.hs", Some("haskell")),
            ("x.R", Some("r")),
            ("x.unknown", None),
            ("noext", None),
        ];
        for (path, want) in cases {
            let got = Language::of(Path::new(path))
                .ok()
                .map(|l| l.spec().id.as_str());
            assert_eq!(got, want, "{path}");
        }
    }

    #[test]
    fn codes_are_the_formats() {
        // The Problem Package Format's appendix names these codes; a variant goes by its language's.
        for (id, code) in [
            ("c", "c"),
            ("cpp", "cpp"),
            ("python3", "python3"),
            ("pypy3", "python3"),
            ("pypy2", "python2"),
            ("java", "java"),
            ("kotlin", "kotlin"),
            ("csharp", "csharp"),
            ("javascript", "javascript"),
            ("rust", "rust"),
        ] {
            assert_eq!(Language::shipped(id).code(), code, "{id}");
        }
    }

    #[test]
    fn unknown_extension_lists_the_known_ones() {
        let message = Language::of(Path::new("x.zz")).unwrap_err().to_string();
        assert!(
            message.contains("\"zz\"") && message.contains("*.rs") && message.contains("*.kt"),
            "{message}"
        );
    }

    #[test]
    fn a_python2_first_line_makes_a_py_file_python_2() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.py");
        std::fs::write(&old, "#!/usr/bin/env python2\nprint 'hi'\n").unwrap();
        let new = dir.path().join("new.py");
        std::fs::write(&new, "#!/usr/bin/env python3\nprint('hi')\n").unwrap();
        let plain = dir.path().join("plain.py");
        std::fs::write(&plain, "print('hi')\n").unwrap();
        let id = |path: &PathBuf| Language::of(path).unwrap().spec().id.clone();
        assert_eq!(id(&old), "python2");
        assert_eq!(id(&new), "python3");
        assert_eq!(id(&plain), "python3");
    }

    #[test]
    fn a_pl_file_is_prolog_or_perl_by_its_clauses() {
        let dir = tempfile::tempdir().unwrap();
        let prolog = dir.path().join("a.pl");
        std::fs::write(&prolog, "% hello\nmain :-\n    write('Hello'), nl.\n").unwrap();
        let perl = dir.path().join("b.pl");
        std::fs::write(&perl, "# hello\nprint \"Hello world!\\n\";\n").unwrap();
        assert_eq!(Language::of(&prolog).unwrap().spec().id, "prolog");
        assert_eq!(Language::of(&perl).unwrap().spec().id, "perl");
    }

    #[test]
    fn reports_of_older_versions_name_python_3_as_python() {
        assert_eq!(Language::named("Python"), Language::with_id("python3"));
    }

    #[test]
    fn every_language_is_found_by_its_key_and_name() {
        for language in Language::all() {
            assert_eq!(Language::with_id(&language.spec().id), Some(language));
            assert_eq!(Language::named(language.name()), Some(language));
        }
    }
}
