//! Finding the compilers and interpreters the language table names, and their versions, once per process, and
//! once for every command while the programs stay as they were (see [`crate::memo`]).

use crate::error::{Error, Result};
use crate::language::Language;
use crate::memo::{Memo, identity};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Toolchain {
    /// Each tool's path, by its name on PATH.
    paths: Mutex<HashMap<String, PathBuf>>,
    versions: Mutex<HashMap<Language, String>>,
    /// The `{std}` each language's compiler takes.
    standards: Mutex<HashMap<Language, String>>,
}

impl Toolchain {
    /// A toolchain that knows these compilers already, with these versions, and looks up no other: for tests that
    /// run nothing for real and must not depend on what is installed.
    #[cfg(test)]
    pub(crate) fn fixed(compilers: &[(Language, &str, &str)]) -> Self {
        let toolchain = Toolchain::default();
        for &(language, path, version) in compilers {
            let tool = language
                .spec()
                .versioned_tool()
                .expect("a language has a tool");
            toolchain
                .paths
                .lock()
                .expect("lock")
                .insert(tool.to_owned(), path.into());
            toolchain
                .versions
                .lock()
                .expect("lock")
                .insert(language, version.to_owned());
        }
        toolchain
    }

    /// The absolute path of `tool`, a program of `language` found on PATH.
    pub fn resolve(&self, tool: &str, language: Language) -> Result<PathBuf> {
        if let Some(path) = self.paths.lock().expect("lock").get(tool) {
            return Ok(path.clone());
        }
        let spec = language.spec();
        let missing = || Error::MissingCompiler {
            language: spec.name.clone(),
            program: tool.to_owned(),
            hint: spec.install.clone(),
            needed_by: None,
        };
        let found = which::which(tool).map_err(|_| missing())?;
        let path = match &spec.locate {
            Some(args) => located(&found, tool, args).ok_or_else(missing)?,
            None => found,
        };
        self.paths
            .lock()
            .expect("lock")
            .insert(tool.to_owned(), path.clone());
        Ok(path)
    }

    /// Whether every tool `language` needs is installed; if not, which is missing and how to install it.
    pub fn check(&self, language: Language) -> Result<()> {
        let spec = language.spec();
        for tool in spec.compiler().into_iter().chain(spec.interpreter()) {
            self.resolve(tool, language)?;
        }
        Ok(())
    }

    /// The first line the compiler (or, with no compile, the interpreter) prints about its version: part of every
    /// cache key, so that a new compiler rebuilds everything.
    pub fn version(&self, language: Language) -> Result<String> {
        if let Some(version) = self.versions.lock().expect("lock").get(&language) {
            return Ok(version.clone());
        }
        let spec = language.spec();
        let Some(tool) = spec.versioned_tool() else {
            return Ok(String::new());
        };
        let compiler = self.resolve(tool, language)?;
        let learn = || {
            let output = Command::new(&compiler)
                .args(&spec.version)
                .stdin(Stdio::null())
                .output()
                .map_err(|e| Error::io("run", &compiler, e))?;
            // javac prints its version on stderr, the others on stdout.
            let text = [output.stdout, output.stderr].concat();
            Ok(String::from_utf8_lossy(&text)
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or_default()
                .to_owned())
        };
        let asked = version_question(&spec.version);
        let version = remembered(&compiler, "version", &asked, learn, |_| true)?;
        self.versions
            .lock()
            .expect("lock")
            .insert(language, version.clone());
        Ok(version)
    }

    /// What `{std}` stands for in `language`'s commands: the first of its standards its compiler accepts (the last
    /// when it accepts none, so that the compile says why); empty for a language with none.
    pub fn standard(&self, language: Language) -> Result<String> {
        let spec = language.spec();
        let (Some(last), Some(tool)) = (spec.standards.last(), spec.compiler()) else {
            return Ok(String::new());
        };
        if let Some(standard) = self.standards.lock().expect("lock").get(&language) {
            return Ok(standard.clone());
        }
        let compiler = self.resolve(tool, language)?;
        let accepts = |standard: &str| {
            Command::new(&compiler)
                .args(
                    spec.standard_probe
                        .iter()
                        .map(|a| a.replace("{std}", standard)),
                )
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        };
        let learn = || {
            Ok(spec
                .standards
                .iter()
                .find(|s| accepts(s))
                .unwrap_or(last)
                .clone())
        };
        let asked = standard_question(&spec.standards, &spec.standard_probe);
        let chosen = remembered(&compiler, "standard", &asked, learn, |_| true)?;
        self.standards
            .lock()
            .expect("lock")
            .insert(language, chosen.clone());
        Ok(chosen)
    }
}

/// Where the tool found on PATH as `found` really is, by asking it with `args` (its language's `locate`); None when
/// it names no program (a version manager's shim for a version not installed). The answer, either way, is kept
/// while the tool, what chooses the toolchain a version manager's proxy starts (see [`proxy_choice`]) and the
/// program it named all stay as they were: `rustup update` replaces the program behind the proxy.
fn located(found: &Path, tool: &str, args: &[String]) -> Option<PathBuf> {
    #[derive(Serialize, Deserialize)]
    struct Located {
        path: PathBuf,
        identity: String,
    }
    // A tool that cannot be started is not asked again later: its answer is not kept.
    let learn = || {
        let output = Command::new(found)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()?;
        let real = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        if !output.status.success() || real.is_empty() {
            return Ok(None);
        }
        // A folder is a toolchain's root (`rustc --print sysroot`), with the program in its bin/.
        let real = PathBuf::from(real);
        let path = if real.is_dir() {
            real.join("bin").join(tool)
        } else {
            real
        };
        Ok::<_, std::io::Error>(Some(Located {
            identity: identity(&path),
            path,
        }))
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let asked = locate_question(args, &proxy_choice(&|name| std::env::var_os(name), &cwd));
    let still = |located: &Option<Located>| {
        located
            .as_ref()
            .is_none_or(|located| identity(&located.path) == located.identity)
    };
    remembered(found, "located", &asked, learn, still)
        .ok()
        .flatten()
        .map(|located| located.path)
}

/// What `program` answered when `asked` (a fact of `kind`), from the user's memo of it (see [`remembered_in`]).
fn remembered<T, E>(
    program: &Path,
    kind: &str,
    asked: &str,
    learn: impl FnOnce() -> std::result::Result<T, E>,
    still: impl Fn(&T) -> bool,
) -> std::result::Result<T, E>
where
    T: Serialize + DeserializeOwned,
{
    let memo = Memo::of(kind, &program.to_string_lossy());
    remembered_in(memo, program, asked, learn, still)
}

/// What `program` answered when `asked`, from `memo` when it was learnt under the same key: the program's identity
/// and what it was asked. Otherwise, or when the kept answer is no longer `still` true, `learn` asks it, and its
/// answer is kept.
fn remembered_in<T, E>(
    memo: Option<Memo>,
    program: &Path,
    asked: &str,
    learn: impl FnOnce() -> std::result::Result<T, E>,
    still: impl Fn(&T) -> bool,
) -> std::result::Result<T, E>
where
    T: Serialize + DeserializeOwned,
{
    let key = fact_key(program, asked);
    if let Some(kept) = memo.as_ref().and_then(|memo| memo.get::<T>(&key))
        && still(&kept)
    {
        return Ok(kept);
    }
    let learnt = learn()?;
    if let Some(memo) = memo {
        memo.put(&key, &learnt);
    }
    Ok(learnt)
}

/// The key of what `program` answers when `asked`: its identity (a program replaced or rebuilt may answer
/// otherwise) and the question.
fn fact_key(program: &Path, asked: &str) -> String {
    format!("{} {}\n{asked}", program.display(), identity(program))
}

/// What a compiler is asked for its version: the language's `version` arguments.
fn version_question(args: &[String]) -> String {
    format!("version {args:?}")
}

/// What a compiler is asked to choose `{std}`: each of the language's `standards` by its `standard_probe`.
fn standard_question(standards: &[String], probe: &[String]) -> String {
    format!("standards {standards:?} probe {probe:?}")
}

/// What a tool on PATH is asked for the real program: the language's `locate` arguments, under `choice` (see
/// [`proxy_choice`]).
fn locate_question(args: &[String], choice: &str) -> String {
    format!("locate {args:?}\n{choice}")
}

/// A version manager whose proxies lie on PATH and start the toolchain it chooses.
struct Manager {
    /// The variables that choose a toolchain, or where the manager keeps its own.
    variables: &'static [&'static str],
    /// The variable naming the manager's folder, and that folder in the home folder when it is unset.
    root: (&'static str, &'static str),
    /// The manager's settings in its folder, which name the default toolchain.
    settings: &'static str,
    /// Files that choose a toolchain for the folder they are in and those below it.
    pins: &'static [&'static str],
    /// The table of the settings (TOML) that chooses toolchains for folders, by their paths.
    overrides: Option<&'static str>,
}

/// rustup's and pyenv's, whose `rustc` and `python3` the language table finds the real program behind.
const MANAGERS: [Manager; 2] = [
    Manager {
        variables: &["RUSTUP_TOOLCHAIN", "RUSTUP_HOME"],
        root: ("RUSTUP_HOME", ".rustup"),
        settings: "settings.toml",
        pins: &["rust-toolchain", "rust-toolchain.toml"],
        overrides: Some("overrides"),
    },
    Manager {
        variables: &["PYENV_VERSION", "PYENV_ROOT", "PYENV_DIR"],
        root: ("PYENV_ROOT", ".pyenv"),
        settings: "version",
        pins: &[".python-version"],
        overrides: None,
    },
];

/// The folder, `cwd` or the nearest above it, that the `table` of the manager's `settings` chooses a toolchain for.
fn overridden(settings: &Path, table: &str, cwd: &Path) -> Option<PathBuf> {
    // Settings are a few lines; a file that is not is read as none.
    const SETTINGS_LIMIT: u64 = 1 << 20;
    let bytes = crate::untrusted::read_regular(settings, SETTINGS_LIMIT).ok()?;
    let settings: toml::Table = toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()?;
    let overrides = settings.get(table)?.as_table()?;
    cwd.ancestors()
        .find(|folder| overrides.contains_key(&*folder.to_string_lossy()))
        .map(Path::to_owned)
}

/// The folder of `manager` in the environment `var` reads.
fn manager_root(manager: &Manager, var: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let (variable, default) = manager.root;
    var(variable)
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(default)))
}

/// What decides the toolchain a version manager's proxy starts when run in `cwd` with the variables `var` reads,
/// learnt without starting anything: those variables, the identity of the manager's settings and the folder they
/// choose a toolchain for, `cwd` or one above it (rustup's overrides), and the identity of each file choosing one
/// there or in a folder above. Where nothing chooses by folder, the key is the same in every folder.
fn proxy_choice(var: &dyn Fn(&str) -> Option<OsString>, cwd: &Path) -> String {
    let mut choice = Vec::new();
    for manager in &MANAGERS {
        for variable in manager.variables {
            choice.push(format!("{variable}={:?}", var(variable)));
        }
        if let Some(root) = manager_root(manager, var) {
            let settings = root.join(manager.settings);
            choice.push(format!("{} {}", settings.display(), identity(&settings)));
            if let Some(folder) = manager
                .overrides
                .and_then(|table| overridden(&settings, table, cwd))
            {
                choice.push(format!("override for {}", folder.display()));
            }
        }
        for pin in cwd
            .ancestors()
            .flat_map(|folder| manager.pins.iter().map(|name| folder.join(name)))
        {
            let identity = identity(&pin);
            if identity != "missing" {
                choice.push(format!("{} {identity}", pin.display()));
            }
        }
    }
    choice.join("\n")
}

/// The folders a program started from the search path of `env` may need: each folder of its PATH, and the homes of
/// the version managers whose proxies and shims lie there (rustup's, pyenv's), where they exist. (A judge run as
/// root makes its compilers another user, who reaches only these by name in root's home: see `sandbox::view`.)
pub(crate) fn search_path_folders(env: &[(OsString, OsString)]) -> Vec<PathBuf> {
    let var = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let mut folders: Vec<PathBuf> = var("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    folders.extend(
        MANAGERS
            .iter()
            .filter_map(|manager| manager_root(manager, &var)),
    );
    folders
        .into_iter()
        .filter(|folder| folder.is_absolute())
        .filter_map(|folder| std::fs::canonicalize(folder).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_replaced_tool_or_another_question_is_another_key() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("rustc");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        let asked = version_question(&words(&["--version"]));
        let key = fact_key(&tool, &asked);
        assert_eq!(fact_key(&tool, &asked), key);
        std::fs::write(&tool, "#!/bin/sh\nexit 0\n").unwrap();
        assert_ne!(fact_key(&tool, &asked), key, "the tool was rewritten");
        let key = fact_key(&tool, &asked);
        assert_ne!(fact_key(&tool, &version_question(&words(&["-V"]))), key);
        let (standards, probe) = (words(&["gnu++23", "gnu++20"]), words(&["-std={std}", "-E"]));
        let standard = standard_question(&standards, &probe);
        assert_ne!(standard_question(&standards[1..], &probe), standard);
        assert_ne!(standard_question(&standards, &probe[..1]), standard);
        let locate = locate_question(&words(&["--print", "sysroot"]), "");
        assert_ne!(
            locate_question(&words(&["--print", "target-libdir"]), ""),
            locate
        );
        assert_ne!(
            locate_question(&words(&["--print", "sysroot"]), "other"),
            locate
        );
    }

    #[test]
    fn what_chooses_a_proxys_toolchain_is_in_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        let cwd = project.join("problems");
        std::fs::create_dir_all(home.join(".rustup")).unwrap();
        std::fs::create_dir_all(&cwd).unwrap();
        let pinned = Cell::new(None::<&str>);
        let env = |name: &str| match name {
            "HOME" => Some(home.clone().into_os_string()),
            "RUSTUP_TOOLCHAIN" => pinned.get().map(OsString::from),
            _ => None,
        };
        let choice = || proxy_choice(&env, &cwd);
        let mut seen = vec![choice()];
        let mut differs = |what: &str| {
            let now = choice();
            assert!(!seen.contains(&now), "{what} is not in the key:\n{now}");
            seen.push(now);
        };
        pinned.set(Some("nightly"));
        differs("RUSTUP_TOOLCHAIN");
        pinned.set(None);
        std::fs::write(
            home.join(".rustup/settings.toml"),
            "default_toolchain = \"stable\"\n",
        )
        .unwrap();
        differs("rustup's settings.toml");
        std::fs::write(
            home.join(".rustup/settings.toml"),
            "default_toolchain = \"beta\"\n",
        )
        .unwrap();
        differs("a rewritten settings.toml");
        std::fs::write(project.join("rust-toolchain.toml"), "[toolchain]\n").unwrap();
        differs("a rust-toolchain.toml in a folder above");
        std::fs::write(cwd.join("rust-toolchain"), "nightly\n").unwrap();
        differs("a rust-toolchain in the folder");
        // The folder itself only where rustup's settings choose a toolchain for it or one above it.
        let (elsewhere, overridden) = (dir.path().join("elsewhere"), dir.path().join("nightly"));
        assert_eq!(
            proxy_choice(&env, &elsewhere),
            proxy_choice(&env, &overridden.join("sub"))
        );
        let settings = format!(
            "[overrides]\n{:?} = \"nightly\"\n",
            overridden.display().to_string()
        );
        std::fs::write(home.join(".rustup/settings.toml"), settings).unwrap();
        assert_ne!(
            proxy_choice(&env, &elsewhere),
            proxy_choice(&env, &overridden.join("sub")),
            "an override for a folder above"
        );
    }

    #[test]
    fn an_answer_is_learnt_once_while_its_key_and_it_hold() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("tool");
        std::fs::write(&tool, "1").unwrap();
        let memo = || Some(Memo::in_dir(dir.path(), "fact", "tool"));
        let asked = Cell::new(0);
        let ask = |still: bool| {
            remembered_in(
                memo(),
                &tool,
                "what",
                || {
                    asked.set(asked.get() + 1);
                    Ok::<_, ()>(asked.get())
                },
                |_| still,
            )
        };
        assert_eq!(ask(true), Ok(1));
        assert_eq!(ask(true), Ok(1), "kept");
        assert_eq!(ask(false), Ok(2), "what it named has changed");
        assert_eq!(ask(true), Ok(2));
        std::fs::write(&tool, "22").unwrap();
        assert_eq!(ask(true), Ok(3), "the tool has changed");
        let failing = remembered_in(memo(), &tool, "other", || Err::<u32, _>("no"), |_| true);
        assert_eq!(failing, Err("no"));
        assert_eq!(ask(true), Ok(3), "a failure is not kept");
    }
}
