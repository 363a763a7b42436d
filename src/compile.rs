//! Source to a cached, runnable program, or a compile error.
//!
//! Every build is keyed by a hash of the source, the language, the compile command and the compiler's version,
//! and kept in the cache folder under that key, compile errors included: a second judge of the same problem
//! compiles nothing. Every build a compiler takes or makes is held until the compiler is dropped (see `crate::cache`),
//! so that no judge sharing the cache removes a program this one may still run.

use crate::cache::{self, Cache, Holdings};
use crate::error::{Error, Result};
use crate::language::{Flags, Language, Rules};
use crate::prebuilt::Prebuilt;
use crate::runs::{self, COMPILE_LIMITS};
use crate::sandbox::{Limits, Runner, Termination};
use crate::toolchain::Toolchain;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Compiler messages are cut to this many bytes in reports.
const MESSAGE_LIMIT: usize = 4096;

/// The environment variables a compiler keeps from the harness: enough to find the toolchain.
const COMPILER_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "CARGO_HOME",
    "PYENV_ROOT",
];

/// What compiling one source gave.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompileOutcome {
    pub ok: bool,
    /// CPU time of the compiler (zero when taken from the cache).
    pub time: Duration,
    pub message: String,
    #[serde(skip)]
    pub cached: bool,
}

/// A command line ready to run, and whether its address space may be capped (see `Limits`).
#[derive(Debug, Clone)]
pub struct Program {
    pub argv: Vec<OsString>,
    /// What it may read of the folders hidden from solutions: the build folder the program runs from (the one
    /// part of the build cache it may read), or the files a program run as it is names.
    pub readable: Vec<PathBuf>,
    pub cap_address_space: bool,
}

/// A compiled program, ready to run if `outcome.ok`.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub language: Language,
    /// The build folder: the executable, class files or script.
    pub dir: PathBuf,
    /// The cache key: a name that changes whenever the build does.
    key: String,
    source_name: String,
    main_class: String,
    pub outcome: CompileOutcome,
    /// For a program run as it is, its command: it was not compiled, and has no build folder.
    prebuilt: Option<Prebuilt>,
}

pub struct Compiler<'a> {
    /// The builds this compiler took or made: no judge removes them from the cache while it lives.
    holdings: Holdings,
    /// The flags chosen over the languages' own.
    flags: Flags,
    runner: &'a dyn Runner,
    toolchain: Toolchain,
}

impl Compiled {
    /// A name that changes whenever the build does: its cache key.
    pub fn key(&self) -> String {
        self.key.clone()
    }

    /// A program run as it is: nothing to compile, and no build folder (`dir` is empty).
    pub fn prebuilt(prebuilt: &Prebuilt) -> Compiled {
        let words: Vec<&[u8]> = prebuilt.argv.iter().map(|w| w.as_encoded_bytes()).collect();
        Compiled {
            language: Language::prebuilt(),
            dir: PathBuf::new(),
            key: cache_key(&words),
            source_name: String::new(),
            main_class: String::new(),
            outcome: CompileOutcome {
                ok: true,
                time: Duration::ZERO,
                message: String::new(),
                cached: false,
            },
            prebuilt: Some(prebuilt.clone()),
        }
    }

    /// Whether it is a program run as it is, which has no build folder.
    pub fn is_prebuilt(&self) -> bool {
        self.prebuilt.is_some()
    }

    /// Its main source's name in the build folder.
    pub fn source_name(&self) -> &str {
        &self.source_name
    }

    /// Its entry point, as the Problem Package Format passes it to a static validator: the class its run starts
    /// (Java's), else its main source's name in the build folder.
    pub fn entry_point(&self) -> &str {
        if self.main_class.is_empty() {
            &self.source_name
        } else {
            &self.main_class
        }
    }
}

impl<'a> Compiler<'a> {
    /// A compiler keeping its builds in `cache`, within its size bound.
    pub fn new(cache: &Cache, runner: &'a dyn Runner) -> Self {
        Self::with_toolchain(cache, runner, Toolchain::default())
    }

    /// A compiler that finds its compilers through `toolchain` (a fixed one, in tests).
    pub(crate) fn with_toolchain(
        cache: &Cache,
        runner: &'a dyn Runner,
        toolchain: Toolchain,
    ) -> Self {
        Compiler {
            holdings: Holdings::new(cache),
            flags: Flags::default(),
            runner,
            toolchain,
        }
    }

    /// This compiler, compiling with `flags` instead of the languages' own (see [`Flags`]).
    pub fn with_flags(self, flags: Flags) -> Self {
        Compiler { flags, ..self }
    }

    /// Compiles the single file `source`, or takes it from the cache. A compile error is an `Ok` with
    /// `outcome.ok == false`; an `Err` is the harness's own failure (unknown language, missing compiler,
    /// unreadable file).
    pub fn compile(&self, source: &Path) -> Result<Compiled> {
        self.compile_source(&Source::file(source)?)
    }

    /// Compiles a program of one or more files, or takes it from the cache.
    ///
    /// A cache entry is a folder named by its key, holding `status.json` (how the compile went, and what the build
    /// takes on disk) and `box/` (the compiler's working folder: the copied sources and what it made). The compiler,
    /// which runs the source's compile-time code, can write in `box/` alone; what it left there is checked before
    /// the entry is kept, and the judge reads nothing back from it.
    pub fn compile_source(&self, source: &Source) -> Result<Compiled> {
        let language = source.language;
        let spec = language.spec();
        let ((main, text), gathered) = gather(source)?;
        let build_name = |text: &[u8], path: &Path| {
            let name = language.build_file_name(&String::from_utf8_lossy(text), &file_name(path));
            // A name in the build folder, never a path out of it.
            match Path::new(&name).components().collect::<Vec<_>>()[..] {
                [std::path::Component::Normal(_)] => name,
                _ => file_name(path),
            }
        };
        let source_name = build_name(&text, &main);
        let mut others = Vec::new();
        for (other, bytes) in gathered {
            let name = if language.claims(&other) {
                build_name(&bytes, &other)
            } else {
                file_name(&other)
            };
            others.push((name, bytes));
        }
        self.toolchain.check(language)?;
        let version = self.toolchain.version(language)?;
        // The program's sources, the main one first: what `{files}` stands for.
        let files: Vec<String> = std::iter::once(source_name.clone())
            .chain(
                others
                    .iter()
                    .map(|(name, _)| name.clone())
                    .filter(|name| language.claims(Path::new(name))),
            )
            .collect();
        let standard = self.toolchain.standard(language)?;
        let words = Words {
            dir: None,
            main: &source_name,
            files: &files,
            flags: self.flags.of(language),
            standard: &standard,
            memory: None,
            main_class: "",
        };
        let command = spec
            .compile
            .as_deref()
            .map(|compile| words.expand_text(compile))
            .unwrap_or_default();
        let env: String = spec.env.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        let mut parts: Vec<&[u8]> = vec![
            LAYOUT.as_bytes(),
            spec.id.as_bytes(),
            version.as_bytes(),
            command.as_bytes(),
            env.as_bytes(),
            source_name.as_bytes(),
            &text,
        ];
        for (name, bytes) in &others {
            parts.extend([name.as_bytes(), bytes.as_slice()]);
        }
        // The limits too: a build that failed under other limits may succeed under these.
        let limits = limits_key(&COMPILE_LIMITS);
        parts.push(limits.as_bytes());
        // A build script starts whatever it finds on PATH: another PATH may build another program.
        let path = std::env::var_os("PATH").unwrap_or_default();
        if language.is_build_run() {
            parts.push(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()));
        }
        let key = cache_key(&parts);
        let compiled = |status: Status, folder: PathBuf, cached: bool| Compiled {
            language,
            dir: folder.join(BOX),
            key: key.clone(),
            source_name: source_name.clone(),
            main_class: status.main_class,
            outcome: CompileOutcome {
                cached,
                ..status.outcome
            },
            prebuilt: None,
        };
        if let Some((mut status, folder)) = self.holdings.take(&key, read_status) {
            // Nothing was compiled this time.
            status.outcome.time = Duration::ZERO;
            return Ok(compiled(status, folder, true));
        }

        // The status goes beside the compiler's folder, where the compiler cannot write.
        let build = self.holdings.start()?;
        let workdir = build.path().join(BOX);
        std::fs::create_dir(&workdir).map_err(|e| Error::io("create", &workdir, e))?;
        for (name, bytes) in others.iter().chain([&(source_name.clone(), text.clone())]) {
            let copy = workdir.join(name);
            write_new(&copy, bytes)?;
        }
        let mut outcome = match &spec.compile {
            Some(compile) => self.build(language, compile, &words, build.path())?,
            // Nothing to check before the run (an awk program).
            None => CompileOutcome {
                ok: true,
                time: Duration::ZERO,
                message: String::new(),
                cached: false,
            },
        };
        // A build folder holding a link, a FIFO or a device, or too much, is never kept: the compile failed. One
        // that is kept is sealed, so that nobody but its owner changes it.
        let checked = crate::untrusted::check_tree(&workdir, BUILD_TREE).and_then(|()| {
            crate::untrusted::seal_tree(&workdir)
                .map_err(|e| format!("cannot seal the build folder: {e}"))
        });
        if let Err(why) = checked {
            outcome.ok = false;
            outcome.message = format!("{}\n{why}", outcome.message).trim().to_owned();
            std::fs::remove_dir_all(&workdir)
                .and_then(|()| std::fs::create_dir(&workdir))
                .map_err(|e| Error::io("empty", &workdir, e))?;
        }
        // The class to start is found in the source as it was given, not in what the compiler left.
        let main_class = match language.entry_point(&String::from_utf8_lossy(&text)) {
            Ok(class) => class,
            Err(why) if outcome.ok => {
                // A program that compiles but cannot be started (a Java source without `main`) is a compile error.
                outcome.ok = false;
                outcome.message = format!("{}\n{why}", outcome.message).trim().to_owned();
                String::new()
            }
            Err(_) => String::new(),
        };
        let status = Status {
            outcome,
            main_class,
            // Recorded, so that trimming the cache need not measure every entry each time.
            size: Some(cache::measure(build.path())),
        };
        build.write_status(&serde_json::to_vec(&status).expect("a status serialises"))?;
        let folder = self
            .holdings
            .publish(&key, build, |theirs| read_status(theirs).is_some());
        Ok(compiled(status, folder, false))
    }

    /// Runs the compile command in `folder`'s `box/`, its output going to a log beside it.
    fn build(
        &self,
        language: Language,
        compile: &[String],
        words: &Words,
        folder: &Path,
    ) -> Result<CompileOutcome> {
        let dir = folder.join(BOX);
        let dir = dir.as_path();
        let words = Words {
            dir: Some(dir),
            ..*words
        };
        let log = tempfile::NamedTempFile::new_in(folder)
            .map_err(|e| Error::io("create a file in", folder, e))?;
        let compiler = self.toolchain.resolve(&compile[0], language)?;
        let mut argv = vec![compiler.into_os_string()];
        argv.extend(words.expand(&compile[1..]));
        let mut env: Vec<(OsString, OsString)> = COMPILER_ENV
            .iter()
            .filter_map(|&k| Some((k.into(), std::env::var_os(k)?)))
            .collect();
        // A build script starts whatever it likes from PATH.
        let tools = if language.is_build_run() {
            crate::toolchain::search_path_folders(&env)
        } else {
            Vec::new()
        };
        env.push(("TMPDIR".into(), dir.into()));
        env.push(("LANG".into(), "C.UTF-8".into()));
        for (key, value) in &language.spec().env {
            env.push((key.into(), words.expand_word(value).into()));
        }
        let spec = runs::compile(
            argv,
            env,
            dir,
            tools,
            log.path(),
            language.spec().cap_address_space,
        );
        let result = self.runner.run(&spec)?;
        let mut said = result.stderr_text();
        said.push_str(&String::from_utf8_lossy(&crate::text::read_head(
            log.path(),
            MESSAGE_LIMIT,
        )));
        // The compiler's words are cut; what stopped it is said after them, so it is never cut away.
        let mut message = bound(said.trim());
        if result.killed_for.is_some() || matches!(result.termination, Termination::Signaled(_)) {
            message.push_str(&format!(
                "\nthe compiler {}",
                result.ending(&COMPILE_LIMITS)
            ));
        }
        Ok(CompileOutcome {
            ok: result.succeeded(),
            time: result.cpu,
            message: message.trim().to_owned(),
            cached: false,
        })
    }

    /// Compiles one of the problem's own programs (checker, validator, generator, a reference); it failing to
    /// compile is the problem's fault, an error. Returns how to run it, and its build's key (which changes whenever
    /// the build does).
    pub fn tool(
        &self,
        what: &'static str,
        path: &Path,
        memory: Bytes,
    ) -> Result<(Program, String)> {
        self.tool_source(what, &Source::file(path)?, memory)
    }

    /// [`Compiler::tool`] for a program of one or more files.
    pub fn tool_source(
        &self,
        what: &'static str,
        source: &Source,
        memory: Bytes,
    ) -> Result<(Program, String)> {
        let build = self.compile_source(source).map_err(|e| match e {
            Error::MissingCompiler {
                language,
                program,
                hint,
                needed_by: None,
            } => Error::MissingCompiler {
                language,
                program,
                hint,
                needed_by: Some(format!(
                    "{}{what} {}",
                    if what.starts_with("the ") { "" } else { "the " },
                    source.shown().display()
                )),
            },
            other => other,
        })?;
        if !build.outcome.ok {
            return Err(Error::ToolCompile {
                what,
                path: source.shown().to_owned(),
                message: build.outcome.message,
            });
        }
        Ok((self.program(&build, memory)?, build.key()))
    }

    /// The version of `language`'s compiler or interpreter, as it says it; empty where it has none or cannot say.
    pub fn version(&self, language: Language) -> String {
        self.toolchain.version(language).unwrap_or_default()
    }

    /// How to run a compiled program under the given memory limit.
    pub fn program(&self, compiled: &Compiled, memory: Bytes) -> Result<Program> {
        let spec = compiled.language.spec();
        if let Some(prebuilt) = &compiled.prebuilt {
            return Ok(Program {
                argv: prebuilt.argv.clone(),
                readable: prebuilt.readable.clone(),
                cap_address_space: spec.cap_address_space,
            });
        }
        let words = Words {
            dir: Some(&compiled.dir),
            main: &compiled.source_name,
            files: std::slice::from_ref(&compiled.source_name),
            flags: &[],
            standard: "",
            memory: Some(memory),
            main_class: &compiled.main_class,
        };
        let program = match spec.interpreter() {
            Some(tool) => self.toolchain.resolve(tool, compiled.language)?,
            None => words.expand_word(&spec.run[0]).into(),
        };
        let mut argv = vec![program.into_os_string()];
        argv.extend(words.expand(&spec.run[1..]));
        Ok(Program {
            argv,
            readable: vec![compiled.dir.clone()],
            cap_address_space: spec.cap_address_space,
        })
    }
}

/// The compiler's working folder in a cache entry, and the built program's folder.
const BOX: &str = "box";

/// The layout of a cache entry, in every key: entries of an older layout are never taken for this one.
const LAYOUT: &str = "layout 2: status beside box/";

/// What a build may leave in its folder: an executable, class files, a package's built program.
const BUILD_TREE: crate::untrusted::TreeLimits = crate::untrusted::TreeLimits {
    bytes: COMPILE_LIMITS.disk.0,
    entries: Limits::FILES,
};

/// What a program is built from: its main file, and the files beside it that it uses (a program given as a
/// folder). C and C++ files among them are compiled with the main file; the others are there to be found.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub main: PathBuf,
    pub others: Vec<PathBuf>,
    pub language: Language,
    /// The folder the program was given as, if it was one.
    pub folder: Option<PathBuf>,
    /// What its package does to its files on their way into the build folder.
    pub preparation: Preparation,
}

/// What a package (2025-09) does to a program's files as they are copied to be built: files of the package added
/// to them, and constants replaced in them. The build's key is made from the files as they are then, so a changed
/// constant or included file is a new build. Nothing, for a program of ours.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preparation {
    /// Files of the package copied in beside the program's own (its included files), each in place of the
    /// program's file of the same name.
    pub included: Vec<PathBuf>,
    /// The one of `included` the program starts from, in place of its own main file: a driver calling it.
    pub driver: Option<PathBuf>,
    /// Replaced in every file, where it is text; in the included ones alone for a contestant's submission.
    pub constants: Option<std::sync::Arc<crate::problem::Constants>>,
    /// Whether the program is a submission from outside the package (a contestant's, given on the command line),
    /// whose own files the format does not touch.
    pub contestant: bool,
    /// The problem's folder, where a C or C++ source's quoted includes are looked for after its own folder (the
    /// problem's `testlib.h`, for a checker in `checkers/` or a reference in `solutions/`). None for a
    /// contestant's file, whose includes are its own.
    pub headers: Option<PathBuf>,
}

impl Source {
    /// A program of one file, in the language of its name (and first lines).
    pub fn file(path: &Path) -> Result<Source> {
        Self::file_in(path, Language::of(path)?)
    }

    /// A program of one file, in `language`.
    pub fn file_in(path: &Path, language: Language) -> Result<Source> {
        Ok(Source {
            main: path.to_owned(),
            others: Vec::new(),
            language,
            folder: None,
            preparation: Preparation::default(),
        })
    }

    /// A program of one file, in the language of its name under `rules`; `None` for a file of no known language.
    pub fn file_under(path: &Path, rules: Rules) -> Option<Source> {
        let language = Language::of_program(std::slice::from_ref(&path.to_owned()), rules)?;
        Self::file_in(path, language).ok()
    }

    /// What to name the program by in messages: its folder, or its file.
    pub fn shown(&self) -> &Path {
        self.folder.as_deref().unwrap_or(&self.main)
    }
}

/// A file to copy into a build folder: where it comes from, and what it holds once prepared.
pub(crate) type Gathered = (PathBuf, Vec<u8>);

/// The files of `source` as they go into its build folder, the main one first: its own, then the included ones
/// in place of those of the same name (the driver as the main file), every one with its constants replaced. What
/// `cpjudge import` copies of a package's program, so that it is built from what a judge of the package builds.
pub(crate) fn gather(source: &Source) -> Result<(Gathered, Vec<Gathered>)> {
    let mut main = (source.main.clone(), read_source(&source.main)?);
    let mut others = Vec::new();
    for other in &source.others {
        others.push((other.clone(), read_source(other)?));
    }
    let preparation = &source.preparation;
    for file in &preparation.included {
        let included = (file.clone(), read_source(file)?);
        let name = file.file_name();
        if main.0.file_name() == name {
            main = included;
        } else if let Some(same) = others.iter_mut().find(|(o, _)| o.file_name() == name) {
            *same = included;
        } else {
            others.push(included);
        }
    }
    if let Some(driver) = &preparation.driver
        && let Some(at) = others.iter().position(|(o, _)| o == driver)
    {
        let driver = others.remove(at);
        others.insert(0, std::mem::replace(&mut main, driver));
    }
    let roots: Vec<&Path> = source
        .main
        .parent()
        .into_iter()
        .chain(preparation.headers.as_deref())
        .collect();
    let headers = crate::headers::gather(&main, &others, &roots)?;
    others.extend(headers);
    let names: Vec<String> = std::iter::once(&main)
        .chain(&others)
        .map(|(path, _)| file_name(path))
        .collect();
    for (path, bytes) in std::iter::once(&mut main).chain(&mut others) {
        if let std::borrow::Cow::Owned(quoted) = crate::headers::quote_own(path, bytes, &names) {
            *bytes = quoted;
        }
    }
    if let Some(constants) = &preparation.constants {
        for (path, bytes) in std::iter::once(&mut main).chain(&mut others) {
            if preparation.contestant && !preparation.included.contains(path) {
                continue;
            }
            if let std::borrow::Cow::Owned(replaced) = constants.substitute_bytes(bytes) {
                *bytes = replaced;
            }
        }
    }
    Ok((main, others))
}

/// The name a file gets in the build folder: its own, with any byte that is not UTF-8 replaced, so that its
/// extension (which tells a compiler its language) stays.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| {
            n.to_string_lossy()
                .replace(char::REPLACEMENT_CHARACTER, "_")
        })
        .unwrap_or_else(|| "main".to_owned())
}

/// How a kept build went, beside its folder.
#[derive(Serialize, Deserialize)]
struct Status {
    outcome: CompileOutcome,
    /// The class to start (see [`Language::entry_point`]); empty for every language but Java.
    main_class: String,
    /// Bytes the build takes on disk, as the cache's trimming reads them (see `cache::entry::recorded`); missing
    /// in entries made before it was recorded.
    #[serde(default)]
    size: Option<u64>,
}

fn read_status(bytes: &[u8]) -> Option<Status> {
    serde_json::from_slice(bytes).ok()
}

/// The most of one source file read: far more than any program's source, or the data a package's program keeps
/// beside it.
const SOURCE_LIMIT: u64 = 64 << 20;

/// A source file, to copy into a build folder: a regular file (never a FIFO or a device, which would keep the
/// judge waiting or reading for ever), of at most [`SOURCE_LIMIT`] bytes.
fn read_source(path: &Path) -> Result<Vec<u8>> {
    use crate::untrusted::Unread;
    crate::untrusted::read_regular(path, SOURCE_LIMIT).map_err(|why| match why {
        Unread::Io(e) => Error::io("read", path, e),
        Unread::NotRegular(what) => Error::Usage(format!(
            "{}: a source must be a regular file, and this is {what}",
            path.display()
        )),
        Unread::TooLarge => Error::Usage(format!(
            "{}: a source of more than {} is not read",
            path.display(),
            Bytes(SOURCE_LIMIT)
        )),
    })
}

/// Writes a new file, never through anything already at `path`.
fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut file| file.write_all(bytes))
        .map_err(|e| Error::io("write", path, e))
}

/// A short hex digest of a list of byte strings: the names of cache entries and memos.
pub(crate) fn cache_key(parts: &[&[u8]]) -> String {
    let mut key = CacheKey::default();
    for part in parts {
        key.part(part);
    }
    key.finish()
}

/// A [`cache_key`] taken one part at a time, for parts too many or too large to hold at once.
#[derive(Default)]
pub(crate) struct CacheKey(Sha256);

impl CacheKey {
    pub fn part(&mut self, bytes: &[u8]) {
        // Length-prefixed, so that no two different lists of parts hash the same bytes.
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    /// The contents of the file at `path` as one part, hashed as [`CacheKey::part`] would hash them, but read a
    /// piece at a time: a test's input may be far larger than what the judge should hold. The length is the open
    /// file's, and exactly that many bytes are hashed, so a file that shrinks meanwhile is an error.
    pub fn part_file(&mut self, path: &Path) -> std::io::Result<()> {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        // Opened without waiting, and read only if it is a regular file: a FIFO or a device put where a test or a
        // build was expected must not hang or flood the judge.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{} is {}, not a regular file",
                    path.display(),
                    crate::untrusted::describe(&metadata.file_type())
                ),
            ));
        }
        let len = metadata.len();
        self.0.update(len.to_le_bytes());
        let mut rest = file.take(len);
        let mut buffer = vec![0; 64 * 1024];
        let mut hashed = 0;
        loop {
            let read = match rest.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.0.update(&buffer[..read]);
            hashed += read as u64;
        }
        if hashed < len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("the file shrank while it was read ({hashed} of {len} bytes)"),
            ));
        }
        Ok(())
    }

    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// What the placeholders of a language's commands stand for (see `languages.toml`).
#[derive(Clone, Copy)]
struct Words<'a> {
    /// The build folder; `None` while the cache key is made, which must not depend on where the build is.
    dir: Option<&'a Path>,
    main: &'a str,
    files: &'a [String],
    /// What `{flags}` stands for: the flags chosen, each a word.
    flags: &'a [String],
    standard: &'a str,
    memory: Option<Bytes>,
    main_class: &'a str,
}

impl Words<'_> {
    /// The command's words with every placeholder replaced; a word that is `{files}` alone becomes one word per file.
    fn expand(&self, words: &[String]) -> Vec<OsString> {
        words
            .iter()
            .flat_map(|word| match word.as_str() {
                "{files}" => self.files.iter().map(OsString::from).collect(),
                "{flags}" => self
                    .flags
                    .iter()
                    .map(|flag| OsString::from(self.expand_word(flag)))
                    .collect(),
                _ => vec![OsString::from(self.expand_word(word))],
            })
            .collect()
    }

    /// The command as one line, for a cache key.
    fn expand_text(&self, words: &[String]) -> String {
        self.expand(words)
            .iter()
            .map(|w| w.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn expand_word(&self, word: &str) -> String {
        let stem = Path::new(self.main)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(self.main);
        let mut upper = stem.chars();
        let capital: String = upper
            .next()
            .map(|c| c.to_uppercase().chain(upper).collect())
            .unwrap_or_default();
        let memory_mib = self.memory.map_or(0, |m| m.0 / Bytes::MIB).to_string();
        let dir = self.dir.map_or("{dir}".into(), |d| d.to_string_lossy());
        word.replace("{dir}", &dir)
            .replace("{main}", self.main)
            .replace("{stem}", stem)
            .replace("{Stem}", &capital)
            .replace("{files}", &self.files.join(" "))
            .replace("{std}", self.standard)
            .replace("{memory_mib}", &memory_mib)
            .replace("{main_class}", self.main_class)
    }
}

/// The limits of a compile as part of a cache key: every value, spelt out.
fn limits_key(limits: &Limits) -> String {
    let Limits {
        cpu,
        wall,
        memory,
        output,
        disk,
        stack,
        cap_address_space,
    } = limits;
    format!(
        "cpu={}ns wall={}ns memory={} output={} disk={} stack={} cap={cap_address_space}",
        cpu.as_nanos(),
        wall.as_nanos(),
        memory.0,
        output.0,
        disk.0,
        stack.0
    )
}

/// Cuts a compiler's message to [`MESSAGE_LIMIT`] bytes.
fn bound(message: &str) -> String {
    crate::text::bound(message, MESSAGE_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_is_hashed() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("1.in");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo takes a C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // A FIFO nobody writes to: read as a file, the hash would wait for ever.
        let error = CacheKey::default().part_file(&fifo).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{error}");
        assert!(
            CacheKey::default()
                .part_file(Path::new("/dev/zero"))
                .is_err()
        );
    }

    #[test]
    fn keys_depend_on_every_part() {
        let base = cache_key(&[b"Rust", b"1.0", b"fn main(){}"]);
        assert_eq!(base, cache_key(&[b"Rust", b"1.0", b"fn main(){}"]));
        assert_ne!(base, cache_key(&[b"Rust", b"1.1", b"fn main(){}"]));
        assert_ne!(base, cache_key(&[b"Rust", b"1.0", b"fn main(){ }"]));
        assert_ne!(cache_key(&[b"ab", b"c"]), cache_key(&[b"a", b"bc"]));
    }

    /// "Compiles" by saying a lot on stderr, then being stopped at the compile's CPU time limit.
    struct StoppedCompiler;

    impl Runner for StoppedCompiler {
        fn run(&self, spec: &crate::sandbox::RunSpec) -> Result<crate::sandbox::RunResult> {
            std::fs::write(&spec.stdout, "").unwrap();
            Ok(crate::sandbox::RunResult {
                termination: Termination::Signaled(libc::SIGKILL),
                cpu: Duration::from_secs(30),
                wall: Duration::from_secs(31),
                peak_memory: Bytes::mib(100),
                stdout_bytes: 0,
                stderr: b"warning: something\n".repeat(1000),
                stderr_bytes: 19_000,
                killed_for: Some(crate::sandbox::LimitKind::Cpu),
                kept_out: false,
            })
        }
    }

    fn compiler<'a>(runner: &'a dyn Runner, cache: &Path) -> Compiler<'a> {
        let toolchain = Toolchain::fixed(&[(Language::shipped("c"), "/usr/bin/gcc", "gcc 12")]);
        Compiler::with_toolchain(&Cache::new(cache.to_owned()), runner, toolchain)
    }

    #[test]
    fn a_compiler_stopped_at_a_limit_says_so_after_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("slow.c");
        std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
        let built = compiler(&StoppedCompiler, &dir.path().join("cache"))
            .compile(&source)
            .unwrap();
        assert!(!built.outcome.ok);
        let message = &built.outcome.message;
        assert!(
            message.ends_with("the compiler stopped at its CPU time limit of 30s"),
            "{}",
            &message[message.len().saturating_sub(200)..]
        );
        assert!(message.contains("bytes)"), "the compiler's words are cut");
        assert!(message.len() < MESSAGE_LIMIT + 200);
        // Taken from the cache the second time: nothing compiled, no compile time.
        let again = compiler(&StoppedCompiler, &dir.path().join("cache"))
            .compile(&source)
            .unwrap();
        assert!(again.outcome.cached);
        assert_eq!(again.outcome.time, Duration::ZERO);
        assert_eq!(again.outcome.message, *message);
    }

    /// "Compiles" by succeeding at once, leaving the copied sources as they are.
    struct QuietCompiler;

    impl Runner for QuietCompiler {
        fn run(&self, spec: &crate::sandbox::RunSpec) -> Result<crate::sandbox::RunResult> {
            std::fs::write(&spec.stdout, "").unwrap();
            Ok(crate::sandbox::RunResult {
                termination: Termination::Exited(0),
                cpu: Duration::ZERO,
                wall: Duration::ZERO,
                peak_memory: Bytes::mib(1),
                stdout_bytes: 0,
                stderr: Vec::new(),
                stderr_bytes: 0,
                killed_for: None,
                kept_out: false,
            })
        }
    }

    #[test]
    fn included_files_and_constants_go_into_the_copy_and_its_key() {
        use crate::problem::Constants;
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            path
        };
        let solve = write("sub/solve.c", "int solve(void) { return {{N}}; }\n");
        let own = write("sub/limits.h", "#define MAX 1\n");
        let limits = write("include/c/limits.h", "#define MAX {{N.big}}\n");
        let driver = write(
            "include/c/main.c",
            "int main(void) { return solve() != {{N}}; }\n",
        );
        let constants = |n: &str| {
            Some(Arc::new(Constants::of(&[
                ("N", "value", n),
                ("N", "big", "1000"),
            ])))
        };
        let source = Source {
            main: solve.clone(),
            others: vec![own],
            language: Language::shipped("c"),
            folder: None,
            preparation: Preparation {
                included: vec![limits.clone(), driver.clone()],
                driver: Some(driver.clone()),
                constants: constants("7"),
                contestant: false,
                headers: None,
            },
        };
        let ((main, text), others) = gather(&source).unwrap();
        assert_eq!(main, driver, "the driver is the main file");
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "int main(void) { return solve() != 7; }\n"
        );
        let others: Vec<(PathBuf, String)> = others
            .into_iter()
            .map(|(path, bytes)| (path, String::from_utf8(bytes).unwrap()))
            .collect();
        assert_eq!(
            others,
            [
                (solve, "int solve(void) { return 7; }\n".to_owned()),
                // The package's file, in place of the program's own of its name.
                (limits, "#define MAX 1000\n".to_owned()),
            ]
        );

        // A contestant's own files are left as they are; the package's included files are prepared all the same.
        let contestant = Source {
            preparation: Preparation {
                contestant: true,
                ..source.preparation.clone()
            },
            ..source.clone()
        };
        let (_, others) = gather(&contestant).unwrap();
        assert_eq!(others[0].1, b"int solve(void) { return {{N}}; }\n");
        assert_eq!(others[1].1, b"#define MAX 1000\n");

        let cache = dir.path().join("cache");
        let built = compiler(&QuietCompiler, &cache)
            .compile_source(&source)
            .unwrap();
        assert!(built.outcome.ok, "{}", built.outcome.message);
        let copied = std::fs::read_to_string(built.dir.join("solve.c")).unwrap();
        assert_eq!(copied, "int solve(void) { return 7; }\n");
        assert!(built.dir.join("main.c").is_file());
        let again = compiler(&QuietCompiler, &cache)
            .compile_source(&source)
            .unwrap();
        assert!(again.outcome.cached);
        assert_eq!(again.key(), built.key());
        // Another value is another build.
        let changed = Source {
            preparation: Preparation {
                constants: constants("8"),
                ..source.preparation.clone()
            },
            ..source.clone()
        };
        let rebuilt = compiler(&QuietCompiler, &cache)
            .compile_source(&changed)
            .unwrap();
        assert!(!rebuilt.outcome.cached);
        assert_ne!(rebuilt.key(), built.key());
    }

    #[test]
    fn placeholders() {
        let files = ["main.kt".to_owned(), "util.kt".to_owned()];
        let flags = ["-O2".to_owned(), "-std={std}".to_owned()];
        let words = Words {
            dir: Some(Path::new("/c/k")),
            main: "main.kt",
            files: &files,
            flags: &flags,
            standard: "gnu++23",
            memory: Some(Bytes::mib(256)),
            main_class: "contest.Main",
        };
        let given: Vec<String> = [
            "-Xmx{memory_mib}m",
            "-cp",
            "{dir}",
            "{stem}",
            "{Stem}Kt",
            "{main}",
            "{files}",
            "-std={std}",
            "{flags}",
            "{main_class}",
            "--eval=({files})",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            words.expand(&given),
            [
                "-Xmx256m",
                "-cp",
                "/c/k",
                "main",
                "MainKt",
                "main.kt",
                "main.kt",
                "util.kt",
                "-std=gnu++23",
                "-O2",
                "-std=gnu++23",
                "contest.Main",
                "--eval=(main.kt util.kt)",
            ]
        );
    }
}
