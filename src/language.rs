//! The language table: which file extensions a language has, how a source is compiled and how it is run.
//! Adding a language is adding one entry to [`TABLE`].

use crate::error::{Error, Result};
use std::path::Path;

/// A language that solutions, checkers, validators and generators may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Rust,
    Cpp,
    C,
    Python,
    Java,
    /// A folder with a `run` script and, optionally, a `build` script (the Problem Package Format's way to give a
    /// program in any language): `build` runs in the build folder, then `run` is the program.
    Scripts,
}

/// How one program is invoked. Arguments may hold placeholders:
/// `{src}` the source's file name, `{stem}` that name without its extension, `{dir}` the absolute path of the
/// folder holding the built program, `{memory_mib}` the run's memory limit in MiB, `{main_class}` the class to
/// start (Java: the one declaring `main`, see [`Language::entry_point`]).
#[derive(Debug)]
pub struct Step {
    pub tool: Tool,
    pub args: &'static [&'static str],
}

/// rustc, taken from its toolchain's folder rather than through rustup's proxy, which needs the user's
/// environment and rustup's settings: the compiler then needs nothing outside its toolchain.
const RUSTC: Tool = Tool::OnPath {
    name: "rustc",
    locate: Some(&["--print", "sysroot"]),
};

/// The program a step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The executable that compiling produced, `{dir}/main`.
    Built,
    /// A program found on PATH.
    OnPath {
        name: &'static str,
        /// Arguments that make it print the path of the real interpreter, or the folder whose `bin/` holds it,
        /// for wrappers (such as version-manager shims) that only work with the user's environment, which a run
        /// does not have.
        locate: Option<&'static [&'static str]>,
    },
}

#[derive(Debug)]
pub struct LanguageSpec {
    pub language: Language,
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    /// Checks or compiles the source in its build folder; its first line of `--version` output is part of the
    /// cache key.
    pub compile: Step,
    pub version_args: &'static [&'static str],
    pub run: Step,
    /// Whether the address space may be capped as a memory backstop (the JVM reserves far more than it uses).
    pub cap_address_space: bool,
    /// What to install when the compiler is missing.
    pub install_hint: &'static str,
}

const fn on_path(name: &'static str) -> Tool {
    Tool::OnPath { name, locate: None }
}

const PYTHON: Tool = Tool::OnPath {
    name: "python3",
    // Isolated (-I): neither the current folder nor the user's environment is looked at.
    locate: Some(&["-I", "-c", "import sys; print(sys.executable)"]),
};

pub static TABLE: &[LanguageSpec] = &[
    LanguageSpec {
        language: Language::Rust,
        name: "Rust",
        extensions: &["rs"],
        compile: Step {
            tool: RUSTC,
            // The crate is named apart from the file, whose name may hold characters a crate name may not.
            args: &[
                "-O",
                "--edition",
                "2021",
                "--crate-name",
                "main",
                "-o",
                "main",
                "{src}",
            ],
        },
        version_args: &["--version"],
        run: Step {
            tool: Tool::Built,
            args: &[],
        },
        cap_address_space: true,
        install_hint: " (install Rust, e.g. with rustup)",
    },
    LanguageSpec {
        language: Language::Cpp,
        name: "C++",
        extensions: &["cpp", "cc", "cxx"],
        compile: Step {
            tool: on_path("g++"),
            args: &["-O2", "-std=gnu++17", "-o", "main", "{src}"],
        },
        version_args: &["--version"],
        run: Step {
            tool: Tool::Built,
            args: &[],
        },
        cap_address_space: true,
        install_hint: " (install g++, e.g. `apt-get install g++`)",
    },
    LanguageSpec {
        language: Language::C,
        name: "C",
        extensions: &["c"],
        compile: Step {
            tool: on_path("gcc"),
            args: &["-O2", "-std=gnu17", "-o", "main", "{src}", "-lm"],
        },
        version_args: &["--version"],
        run: Step {
            tool: Tool::Built,
            args: &[],
        },
        cap_address_space: true,
        install_hint: " (install gcc, e.g. `apt-get install gcc`)",
    },
    LanguageSpec {
        language: Language::Python,
        name: "Python",
        extensions: &["py"],
        // A syntax check, so that a source that cannot run is a compile error, as in other languages. In isolated
        // mode (-I), since `-m` would otherwise put the build folder first on the module path: a source named
        // `token.py` would be imported, and run, by the check itself.
        compile: Step {
            tool: PYTHON,
            args: &["-I", "-m", "py_compile", "{src}"],
        },
        version_args: &["--version"],
        run: Step {
            tool: PYTHON,
            args: &["{dir}/{src}"],
        },
        cap_address_space: true,
        install_hint: " (install Python 3, e.g. `apt-get install python3`)",
    },
    LanguageSpec {
        language: Language::Java,
        name: "Java",
        extensions: &["java"],
        compile: Step {
            tool: on_path("javac"),
            // Class files under their package's folders, where `java -cp` looks for them.
            args: &[
                "-J-XX:-UsePerfData",
                "-encoding",
                "UTF-8",
                "-d",
                ".",
                "{src}",
            ],
        },
        // The JVM keeps performance data in /tmp/hsperfdata_<user> unless told not to.
        version_args: &["-J-XX:-UsePerfData", "-version"],
        run: Step {
            tool: on_path("java"),
            args: &[
                "-Xmx{memory_mib}m",
                "-Xss64m",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                "-cp",
                "{dir}",
                "{main_class}",
            ],
        },
        cap_address_space: false,
        install_hint: " (install a JDK, e.g. `apt-get install default-jdk-headless`)",
    },
    LanguageSpec {
        language: Language::Scripts,
        name: "build/run",
        // Never told by an extension: a folder holding a `run` script is this.
        extensions: &[],
        compile: Step {
            tool: on_path("bash"),
            args: &["-c", "[ ! -e build ] || bash ./build"],
        },
        version_args: &["--version"],
        run: Step {
            tool: on_path("bash"),
            args: &["{dir}/run"],
        },
        // What the scripts start is not known: a JVM, say.
        cap_address_space: false,
        install_hint: " (install bash)",
    },
];

impl Language {
    /// The language of a source file, from its extension.
    pub fn of(path: &Path) -> Result<Language> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        TABLE
            .iter()
            .find(|spec| spec.extensions.contains(&extension))
            .map(|spec| spec.language)
            .ok_or_else(|| Error::UnknownLanguage {
                path: path.to_owned(),
                extension: extension.to_owned(),
                known: TABLE
                    .iter()
                    .flat_map(|s| s.extensions.iter().map(|e| format!(".{e}")))
                    .collect::<Vec<_>>()
                    .join(" "),
            })
    }

    pub fn spec(self) -> &'static LanguageSpec {
        TABLE
            .iter()
            .find(|spec| spec.language == self)
            .expect("every language has a table entry")
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The language of this [`Language::name`].
    pub fn named(name: &str) -> Option<Language> {
        TABLE
            .iter()
            .find(|spec| spec.name == name)
            .map(|spec| spec.language)
    }

    /// The name the source gets in its build folder: its own, but for a Java source with a public class, which
    /// javac wants in a file named after it.
    pub fn build_file_name(self, source: &str, original: &str) -> String {
        match self {
            Language::Java => crate::java::source_file_name(source, original),
            _ => original.to_owned(),
        }
    }

    /// What `{main_class}` stands for: for Java, the class that declares `main`; an error says why a source has
    /// none, which makes it a compile error. Other languages start no class.
    pub fn entry_point(self, source: &str) -> Result<String, String> {
        match self {
            Language::Java => crate::java::main_class(source),
            _ => Ok(String::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        let cases = [
            ("a.rs", Some(Language::Rust)),
            ("dir/b.cpp", Some(Language::Cpp)),
            ("b.cc", Some(Language::Cpp)),
            ("c.c", Some(Language::C)),
            ("d.py", Some(Language::Python)),
            ("Main.java", Some(Language::Java)),
            ("e.go", None),
            ("noext", None),
        ];
        for (path, want) in cases {
            assert_eq!(Language::of(Path::new(path)).ok(), want, "{path}");
        }
    }

    #[test]
    fn unknown_extension_lists_the_known_ones() {
        let message = Language::of(Path::new("x.go")).unwrap_err().to_string();
        assert!(
            message.contains("\"go\"") && message.contains(".rs .cpp"),
            "{message}"
        );
    }

    #[test]
    fn every_language_has_one_entry() {
        for spec in TABLE {
            assert_eq!(spec.language.spec().name, spec.name);
        }
    }
}
