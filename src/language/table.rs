//! The language table: the shipped `languages.toml`, then the user's and the project's files over it, read once per
//! process into [`Spec`]s.

use super::Language;
use crate::error::{Error, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const SHIPPED: &str = include_str!("languages.toml");

/// One language: how its files are told, built and run. See `languages.toml` for what each key means.
#[derive(Debug)]
pub struct Spec {
    /// Its key in the table (`cpp`).
    pub id: String,
    pub name: String,
    /// Which language a program is when its files fit several equally well: the higher.
    pub priority: i64,
    /// The file name patterns of its sources, as given.
    pub files: Vec<String>,
    matcher: GlobSet,
    /// Files matching the gate's names count for this language only if their first bytes match its pattern.
    gate: Option<Gate>,
    /// The language this one is another implementation of (PyPy of Python 3), chosen only when preferred.
    pub variant_of: Option<String>,
    /// Whether a package's programs use this variant where its tool is installed (Kattis's PyPy).
    pub preferred_in_packages: bool,
    pub compile: Option<Vec<String>>,
    /// What `{flags}` in `compile` stands for unless a problem or the command line chooses others: the
    /// optimisation, the standard, the defines.
    pub flags: Vec<String>,
    pub run: Vec<String>,
    /// Arguments that make the compiler (or the interpreter, with no compile) print its version.
    pub version: Vec<String>,
    /// Arguments that make a tool print the path of the real program, or its toolchain's root.
    pub locate: Option<Vec<String>>,
    /// `{std}`: the first of these the compiler accepts, asked with `standard_probe`.
    pub standards: Vec<String>,
    pub standard_probe: Vec<String>,
    /// Variables the compile gets besides the judge's few (placeholders expanded).
    pub env: Vec<(String, String)>,
    pub cap_address_space: bool,
    pub class_named_files: bool,
    /// What to install when a tool is missing.
    pub install: String,
}

impl Spec {
    /// Whether `path` is a source file of this language, by name.
    pub fn claims(&self, path: &Path) -> bool {
        path.file_name()
            .is_some_and(|name| self.matcher.is_match(name))
    }

    /// Whether `path`, a source of this language by name, counts as evidence for it: always, unless the language
    /// gates files of its name on their content (`#!...python2`).
    pub(super) fn passes_gate(&self, path: &Path, head: &mut dyn FnMut() -> String) -> bool {
        match &self.gate {
            Some(gate) if path.file_name().is_some_and(|n| gate.files.is_match(n)) => {
                gate.pattern().is_match(&head())
            }
            _ => true,
        }
    }

    /// Whether its compile command has a place for flags: a word `{flags}`.
    pub fn takes_flags(&self) -> bool {
        self.compile
            .as_ref()
            .is_some_and(|words| words.iter().any(|w| w == "{flags}"))
    }

    /// The program the compile command starts, if there is a compile.
    pub fn compiler(&self) -> Option<&str> {
        self.compile.as_ref().map(|words| words[0].as_str())
    }

    /// The program on PATH the run command starts; `None` when it starts what the compile made.
    pub fn interpreter(&self) -> Option<&str> {
        let first = self.run[0].as_str();
        (!first.starts_with("{dir}/")).then_some(first)
    }

    /// The tool whose version stands for the language's: the compiler, or else the interpreter.
    pub fn versioned_tool(&self) -> Option<&str> {
        self.compiler().or(self.interpreter())
    }
}

pub(super) struct Table {
    specs: Vec<Spec>,
    /// Languages chosen over the others of their family, first first (`--prefer`).
    pub(super) prefer: Vec<Language>,
}

static TABLE: OnceLock<Table> = OnceLock::new();

pub(super) fn get() -> &'static Table {
    TABLE.get_or_init(|| Table::read(&[], &[]).expect("the shipped language table is valid"))
}

/// A file that extends the table, and whether it is the user's own: the commands a table gives for finding tools
/// and their versions run outside the sandbox, so only the user's own file may give them, not a project's, which
/// may come from anyone.
#[derive(Debug, Clone)]
pub struct TableFile {
    pub path: PathBuf,
    pub users_own: bool,
}

/// The files that extend the table, in order: the user's, then the project's (in `project`, the folder holding
/// `problems/`). Only those that exist.
pub fn table_files(project: Option<&Path>) -> Vec<TableFile> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")));
    let users = config.map(|c| TableFile {
        path: c.join("cpjudge").join("languages.toml"),
        users_own: true,
    });
    let projects = project.map(|p| TableFile {
        path: p.join("languages.toml"),
        users_own: false,
    });
    users
        .into_iter()
        .chain(projects)
        .filter(|f| f.path.is_file())
        .collect()
}

/// Reads the table once for this process: the shipped one with `files` over it, and `prefer` (keys of the table)
/// chosen over the other languages of their families. A second call changes nothing.
pub fn configure(files: &[TableFile], prefer: &[String]) -> Result<()> {
    let table = Table::read(files, prefer)?;
    let _ = TABLE.set(table);
    Ok(())
}

/// One table entry as written: every key optional, so that a later file may change a few keys of an entry.
#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    name: Option<String>,
    priority: Option<i64>,
    files: Option<Vec<String>>,
    gate_files: Option<Vec<String>>,
    gate: Option<String>,
    variant_of: Option<String>,
    preferred_in_packages: Option<bool>,
    compile: Option<Vec<String>>,
    flags: Option<Vec<String>>,
    run: Option<Vec<String>>,
    version: Option<Vec<String>>,
    locate: Option<Vec<String>>,
    standards: Option<Vec<String>>,
    standard_probe: Option<Vec<String>>,
    env: Option<BTreeMap<String, String>>,
    cap_address_space: Option<bool>,
    class_named_files: Option<bool>,
    install: Option<String>,
}

impl RawSpec {
    /// This entry with the keys `later` gives replaced.
    fn over(self, later: RawSpec) -> RawSpec {
        macro_rules! take {
            ($($key:ident),*) => { RawSpec { $($key: later.$key.or(self.$key)),* } };
        }
        take!(
            name,
            priority,
            files,
            gate_files,
            gate,
            variant_of,
            preferred_in_packages,
            compile,
            flags,
            run,
            version,
            locate,
            standards,
            standard_probe,
            env,
            cap_address_space,
            class_named_files,
            install
        )
    }
}

/// A language's gate on the content of some of its files. Its pattern is compiled when a file is first put to it:
/// the shipped table's patterns (which a test compiles) cost a command nothing that tells no file's language, and a
/// pattern from a user's or a project's file is compiled as the file is read, so that a mistake in it is told then.
#[derive(Debug)]
struct Gate {
    files: GlobSet,
    source: String,
    compiled: OnceLock<Regex>,
}

impl Gate {
    fn pattern(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            Regex::new(&self.source).expect("a gate's pattern was checked when its table was read")
        })
    }
}

/// Where an entry was last written: the file and the line of its header, for messages.
#[derive(Clone)]
struct Origin {
    path: PathBuf,
    line: usize,
}

impl Table {
    fn read(files: &[TableFile], prefer: &[String]) -> Result<Table> {
        let shipped = Origin {
            path: PathBuf::from("languages.toml (shipped)"),
            line: 1,
        };
        type Entries = Vec<(String, RawSpec, Origin)>;
        let add =
            |entries: &mut Entries, text: &str, origin: &Origin, users_own: bool| -> Result<()> {
                for (id, raw, line) in parse(text, &origin.path)? {
                    if !users_own {
                        let here = Origin {
                            line,
                            ..origin.clone()
                        };
                        outside_the_sandbox(&raw).map_err(|message| here.error(message))?;
                    }
                    let origin = Origin {
                        line,
                        ..origin.clone()
                    };
                    match entries.iter_mut().find(|(known, ..)| *known == id) {
                        Some(entry) => {
                            entry.1 = std::mem::take(&mut entry.1).over(raw);
                            entry.2 = origin;
                        }
                        None => entries.push((id, raw, origin)),
                    }
                }
                Ok(())
            };
        let mut entries = Entries::new();
        add(&mut entries, SHIPPED, &shipped, true)?;
        let shipped_gates: Vec<String> = entries
            .iter()
            .filter_map(|(_, raw, _)| raw.gate.clone())
            .collect();
        for file in files {
            let text = std::fs::read_to_string(&file.path)
                .map_err(|e| Error::io("read", &file.path, e))?;
            let origin = Origin {
                path: file.path.clone(),
                line: 1,
            };
            add(&mut entries, &text, &origin, file.users_own)?;
        }
        let ids: Vec<String> = entries.iter().map(|(id, ..)| id.clone()).collect();
        let specs = entries
            .into_iter()
            .map(|(id, raw, origin)| {
                validate(id, raw, &ids, &shipped_gates).map_err(|message| origin.error(message))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut table = Table {
            specs,
            prefer: Vec::new(),
        };
        for id in prefer {
            let language = table.position(|s| s.id == *id).ok_or_else(|| {
                Error::Usage(format!(
                    "--prefer {id}: no such language (known: {})",
                    table
                        .specs
                        .iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            table.prefer.push(language);
        }
        Ok(table)
    }

    pub(super) fn spec(&self, language: Language) -> &Spec {
        &self.specs[usize::from(language.0)]
    }

    pub(super) fn len(&self) -> usize {
        self.specs.len()
    }

    pub(super) fn position(&self, wanted: impl FnMut(&Spec) -> bool) -> Option<Language> {
        self.specs
            .iter()
            .position(wanted)
            .map(|i| Language(i as u16))
    }

    pub(super) fn languages(&self) -> impl Iterator<Item = (Language, &Spec)> {
        self.specs
            .iter()
            .enumerate()
            .map(|(i, s)| (Language(i as u16), s))
    }

    /// Every file name pattern, for a message about a file of none.
    pub(super) fn known_patterns(&self) -> String {
        let mut patterns: Vec<&str> = Vec::new();
        for pattern in self.specs.iter().flat_map(|s| &s.files) {
            if !patterns.contains(&pattern.as_str()) {
                patterns.push(pattern);
            }
        }
        patterns.join(" ")
    }
}

impl Origin {
    fn error(&self, message: String) -> Error {
        Error::Config {
            path: self.path.clone(),
            line: self.line,
            column: 1,
            message,
        }
    }
}

/// The entries of one file, with the line each starts on.
fn parse(text: &str, path: &Path) -> Result<Vec<(String, RawSpec, usize)>> {
    let raw: BTreeMap<String, toml::Spanned<RawSpec>> = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |span| span.start);
        Error::config_at(path, text, offset, e.message())
    })?;
    // Where each line starts, found once: a line is then a search among them, not a count from the file's start.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    Ok(raw
        .into_iter()
        .map(|(id, spanned)| {
            let line = starts.partition_point(|&start| start <= spanned.span().start);
            (id, spanned.into_inner(), line)
        })
        .collect())
}

/// A project's file may not give the arguments cpjudge runs a tool with outside the sandbox.
fn outside_the_sandbox(raw: &RawSpec) -> std::result::Result<(), String> {
    let given = [
        ("version", raw.version.is_some()),
        ("locate", raw.locate.is_some()),
        ("standard_probe", raw.standard_probe.is_some()),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((key, _)) => Err(format!(
            "`{key}` runs a tool outside the sandbox, so only the user's own languages.toml may give it, not a \
             project's"
        )),
        None => Ok(()),
    }
}

/// The entry `raw` of the language `id` as a [`Spec`], or what is wrong with it. `ids`: every language of the table;
/// `shipped_gates`: the gate patterns of the shipped table, known to compile.
fn validate(
    id: String,
    raw: RawSpec,
    ids: &[String],
    shipped_gates: &[String],
) -> std::result::Result<Spec, String> {
    let key = |what: &str| format!("[{id}] {what}");
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "`{id}`: a language's key is lower-case letters, digits and `-`"
        ));
    }
    let name = raw.name.ok_or_else(|| key("needs a `name`"))?;
    let files = raw
        .files
        .ok_or_else(|| key("needs `files`, the patterns of its file names"))?;
    let run = raw
        .run
        .filter(|r| !r.is_empty())
        .ok_or_else(|| key("needs `run`, a command"))?;
    if raw.compile.as_ref().is_some_and(|c| c.is_empty()) {
        return Err(key("`compile` is an empty command"));
    }
    // Tools are found on PATH by name, never taken from a path a file gives.
    let tools = raw.compile.iter().chain([&run]).map(|command| &command[0]);
    if let Some(tool) = tools
        .filter(|tool| !tool.starts_with("{dir}/"))
        .find(|tool| tool.contains('/') || tool.contains('{'))
    {
        return Err(key(&format!(
            "`{tool}`: a command's first word is a program's name, found on PATH (or `{{dir}}/...` in `run`)"
        )));
    }
    if let Some(parent) = &raw.variant_of
        && !ids.contains(parent)
    {
        return Err(key(&format!(
            "`variant_of = \"{parent}\"` names no language of the table"
        )));
    }
    let globs = |patterns: &[String], what: &str| -> std::result::Result<GlobSet, String> {
        let mut set = GlobSetBuilder::new();
        for pattern in patterns {
            set.add(Glob::new(pattern).map_err(|e| key(&format!("{what}: {e}")))?);
        }
        set.build().map_err(|e| key(&format!("{what}: {e}")))
    };
    let matcher = globs(&files, "files")?;
    let gate = match (raw.gate_files, raw.gate) {
        (None, None) => None,
        (Some(gate_files), Some(pattern)) => {
            let compiled = OnceLock::new();
            if !shipped_gates.contains(&pattern) {
                let regex = Regex::new(&pattern).map_err(|e| key(&format!("gate: {e}")))?;
                let _ = compiled.set(regex);
            }
            Some(Gate {
                files: globs(&gate_files, "gate_files")?,
                source: pattern,
                compiled,
            })
        }
        _ => return Err(key("`gate` and `gate_files` go together")),
    };
    let standards = raw.standards.unwrap_or_default();
    let standard_probe = raw.standard_probe.unwrap_or_default();
    if !standards.is_empty() && standard_probe.is_empty() {
        return Err(key(
            "`standards` needs a `standard_probe`, the compiler's arguments that test one",
        ));
    }
    Ok(Spec {
        priority: raw.priority.unwrap_or(0),
        matcher,
        gate,
        variant_of: raw.variant_of,
        preferred_in_packages: raw.preferred_in_packages.unwrap_or(false),
        compile: raw.compile,
        flags: raw.flags.unwrap_or_default(),
        run,
        version: raw.version.unwrap_or_else(|| vec!["--version".to_owned()]),
        locate: raw.locate,
        standards,
        standard_probe,
        env: raw.env.unwrap_or_default().into_iter().collect(),
        cap_address_space: raw.cap_address_space.unwrap_or(true),
        class_named_files: raw.class_named_files.unwrap_or(false),
        install: raw.install.unwrap_or_else(|| format!("install {name}")),
        id,
        name,
        files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn users(path: PathBuf) -> TableFile {
        TableFile {
            path,
            users_own: true,
        }
    }

    #[test]
    fn a_projects_file_may_not_say_how_tools_run_outside_the_sandbox() {
        for key in ["version", "locate", "standard_probe"] {
            let (_dir, path) = file(&format!("[cpp]\n{key} = [\"-c\", \"import os\"]\n"));
            let project = TableFile {
                path: path.clone(),
                users_own: false,
            };
            let message = Table::read(&[project], &[]).err().unwrap().to_string();
            assert!(
                message.starts_with(&format!("{}:1:", path.display())) && message.contains(key),
                "{message}"
            );
            assert!(Table::read(&[users(path)], &[]).is_ok(), "{key}");
        }
        let (_dir, path) = file("[cpp]\ncompile = [\"./evil\", \"{main}\"]\n");
        let message = Table::read(&[users(path)], &[]).err().unwrap().to_string();
        assert!(message.contains("found on PATH"), "{message}");
    }

    fn file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("languages.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn a_file_adds_languages_and_changes_keys_of_others() {
        let (_dir, path) = file(
            "[zig]\nname = \"Zig\"\nfiles = [\"*.zig\"]\ncompile = [\"zig\", \"build-exe\", \"{main}\"]\n\
             run = [\"{dir}/main\"]\n\n[cpp]\nstandards = [\"gnu++20\"]\n",
        );
        let table = Table::read(&[users(path)], &[]).unwrap();
        let zig = table.position(|s| s.id == "zig").unwrap();
        assert_eq!(table.spec(zig).name, "Zig");
        let cpp = table.spec(table.position(|s| s.id == "cpp").unwrap());
        assert_eq!(cpp.standards, ["gnu++20"]);
        // The keys not given stay as shipped.
        assert_eq!(cpp.name, "C++");
        assert!(cpp.claims(Path::new("a.cc")));
    }

    #[test]
    fn mistakes_name_the_file_and_line() {
        let cases = [
            (
                "[zig]\nname = \"Zig\"\nrun = [\"zig\"]\n",
                "needs `files`",
                1,
            ),
            (
                "[c]\nname = \"C\"\n\n[zig]\nfiles = []\nname = \"Z\"\nrun = []\n",
                "needs `run`",
                4,
            ),
            ("[c]\ncolour = \"blue\"\n", "unknown field `colour`", 2),
            ("[cpp]\ngate = \"(\"\n", "go together", 1),
            (
                "[cpp]\ngate_files = [\"*.cpp\"]\ngate = \"(\"\n",
                "[cpp] gate:",
                1,
            ),
            ("[pypy3]\nvariant_of = \"cobol\"\n", "names no language", 1),
        ];
        for (text, wanted, line) in cases {
            let (_dir, path) = file(text);
            let message = Table::read(&[users(path.clone())], &[])
                .err()
                .unwrap()
                .to_string();
            assert!(message.contains(wanted), "{text:?}: {message}");
            assert!(
                message.starts_with(&format!("{}:{line}:", path.display())),
                "{text:?}: {message}"
            );
        }
    }

    #[test]
    fn an_unknown_preference_is_refused() {
        let message = Table::read(&[], &["cobol".into()])
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("--prefer cobol") && message.contains("pypy3"),
            "{message}"
        );
    }

    #[test]
    fn the_shipped_gates_are_compiled_when_a_file_is_first_put_to_them() {
        let table = Table::read(&[], &[]).unwrap();
        let gated: Vec<&Spec> = table.specs.iter().filter(|s| s.gate.is_some()).collect();
        assert!(gated.len() >= 3, "python2, pypy2 and prolog are gated");
        for spec in &gated {
            let gate = spec.gate.as_ref().unwrap();
            assert!(
                gate.compiled.get().is_none(),
                "[{}] compiled at read",
                spec.id
            );
            // Each compiles: nothing else checks the shipped patterns.
            gate.pattern();
        }
        let python2 = table.spec(table.position(|s| s.id == "python2").unwrap());
        let shebang = |text: &'static str| move || text.to_owned();
        assert!(python2.passes_gate(Path::new("a.py"), &mut shebang("#!/usr/bin/python2\n")));
        assert!(!python2.passes_gate(Path::new("a.py"), &mut shebang("#!/usr/bin/python3\n")));
    }

    #[test]
    fn a_gate_given_by_a_file_is_compiled_as_it_is_read() {
        let (_dir, path) = file("[cpp]\ngate_files = [\"*.cpp\"]\ngate = \"^// cpp\"\n");
        let table = Table::read(&[users(path)], &[]).unwrap();
        let cpp = table.spec(table.position(|s| s.id == "cpp").unwrap());
        assert!(cpp.gate.as_ref().unwrap().compiled.get().is_some());
    }
}
