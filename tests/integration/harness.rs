//! A small builder over the cpjudge binary: copy a fixture project to a fresh folder, run a command in it, and
//! look at what came out.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// The fixtures, each a project folder with problems/ and testdata/.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
}

/// The bundled problems, under problems/ and testdata/.
pub const BUNDLED: [&str; 4] = [
    "knight-pawns",
    "knight-tour",
    "young-chess",
    "hidden-knight",
];

/// Builds shared by every test of this binary: keyed by content, so sharing is safe, and it keeps the suite fast.
pub fn shared_cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("cpjudge-test-cache")
}

pub struct Judge {
    project: tempfile::TempDir,
    args: Vec<String>,
    cache: PathBuf,
    env: Vec<(String, String)>,
    env_removed: Vec<String>,
    timeout: Duration,
    /// Where the judge runs, below the project folder.
    cwd: PathBuf,
    stdin: Option<Vec<u8>>,
}

impl Judge {
    /// A fresh copy of the fixture project `name`.
    pub fn fixture(name: &str) -> Self {
        Self::fixture_in(name, &std::env::temp_dir())
    }

    /// A fresh copy of the fixture project `name`, in a new folder under `parent`.
    pub fn fixture_in(name: &str, parent: &Path) -> Self {
        let project = tempfile::Builder::new()
            .prefix("cpjudge-project-")
            .tempdir_in(parent)
            .unwrap();
        copy_dir(&fixtures().join(name), project.path());
        Self::in_project(project)
    }

    fn in_project(project: tempfile::TempDir) -> Self {
        Judge {
            project,
            args: Vec::new(),
            cache: shared_cache(),
            env: Vec::new(),
            env_removed: Vec::new(),
            timeout: Duration::from_secs(600),
            cwd: PathBuf::new(),
            stdin: None,
        }
    }

    /// A fresh project holding copies of the bundled problems named, with their tests.
    pub fn bundled(problems: &[&str]) -> Self {
        let project = tempfile::Builder::new()
            .prefix("cpjudge-project-")
            .tempdir()
            .unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for problem in problems {
            for folder in ["problems", "testdata"] {
                copy_dir(
                    &repo.join(folder).join(problem),
                    &project.path().join(folder).join(problem),
                );
            }
        }
        Self::in_project(project)
    }

    /// Runs another command on the same project (and cache), reading `stdin`.
    pub fn then(&mut self, args: &[&str], stdin: &[u8]) -> Run {
        self.args = args.iter().map(|s| s.to_string()).collect();
        self.stdin = Some(stdin.to_vec());
        self.run()
    }

    pub fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|s| s.to_string()));
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs the judge without this variable, whatever the environment of the tests holds.
    pub fn env_remove(mut self, key: &str) -> Self {
        self.env_removed.push(key.into());
        self
    }

    /// Uses this folder as the build cache.
    pub fn cache(mut self, dir: &Path) -> Self {
        self.cache = dir.to_owned();
        self
    }

    /// Kills the judge if it has not ended after this long (by default 10 minutes); `Run::code` then panics.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Uses a cache of this project's own instead of the shared one.
    pub fn private_cache(mut self) -> Self {
        self.cache = self.project.path().join("target").join("cache");
        self
    }

    /// Runs the judge in this folder of the project (or outside it, for an absolute path).
    pub fn cwd(mut self, dir: &str) -> Self {
        self.cwd = dir.into();
        self
    }

    pub fn root(&self) -> &Path {
        self.project.path()
    }

    /// Changes a file of the project copy before running.
    pub fn write(self, path: &str, contents: &str) -> Self {
        let path = self.project.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
        self
    }

    pub fn remove(self, path: &str) -> Self {
        std::fs::remove_file(self.project.path().join(path)).unwrap();
        self
    }

    pub fn run(&self) -> Run {
        let mut command = Command::cargo_bin("cpjudge").unwrap();
        command
            .current_dir(self.project.path().join(&self.cwd))
            .arg("--cache-dir")
            .arg(&self.cache)
            .args(&self.args)
            .env_remove("NO_COLOR")
            .timeout(self.timeout);
        for k in &self.env_removed {
            command.env_remove(k);
        }
        for (k, v) in &self.env {
            command.env(k, v);
        }
        if let Some(stdin) = &self.stdin {
            command.write_stdin(stdin.clone());
        }
        Run {
            output: command.output().unwrap(),
        }
    }
}

pub struct Run {
    pub output: Output,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.output.status.code().expect("exited")
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Asserts the exit code, showing everything the run printed if it differs.
    pub fn expect_code(self, code: i32) -> Self {
        assert_eq!(
            self.code(),
            code,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout(),
            self.stderr()
        );
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", self.stdout(), self.stderr()))
    }
}

/// The report of one solution in a `--json` report.
pub fn solution<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no solution {name} in {report:#}"))
}

/// The names of the tests a solution of a JSON report ran, in order.
pub fn test_names(report: &serde_json::Value, name: &str) -> Vec<String> {
    solution(report, name)["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Whether `cpjudge doctor` finds the isolation layer `layer` working here, when asked for it alone; if not, says
/// on the terminal that `what` is skipped, with the reason doctor gives.
pub fn layer_works(layer: &str, what: &str) -> bool {
    let doctor = Judge::fixture("basic")
        .args(&["--layers", layer, "doctor", "--json"])
        .run()
        .expect_code(0)
        .json();
    let status = &doctor["isolation"][layer];
    if status["active"] != true {
        skip(&format!(
            "{what} needs the {layer} layer, which is off ({})",
            status["detail"]
        ));
    }
    status["active"] == true
}

/// Says on the terminal that a test skipped and why. Written to stderr directly rather than with `eprintln!`, which
/// the test runner captures and shows only for failing tests.
pub fn skip(reason: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {reason}");
}

/// Copies a folder's contents into another, creating folders as needed.
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Processes whose command line contains `marker`, other than this test's own.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// Processes whose executable or command line lies under the folder `dir` (a build cache, say), other than this
/// test's own: the pid with its executable and command line.
pub fn processes_under(dir: &Path) -> Vec<String> {
    let marker = format!("{}/", dir.display());
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if pid == me || !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let exe = std::fs::read_link(entry.path().join("exe"))
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let cmdline = std::fs::read(entry.path().join("cmdline"))
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .unwrap_or_default();
        if exe.contains(&marker) || cmdline.contains(&marker) {
            found.push(format!("{pid}: {exe}: {}", cmdline.trim_end()));
        }
    }
    found
}

/// One of a problem's own programs (validator, generator, checker), compiled as the judge compiles it: its
/// command line.
pub fn build_tool(path: &Path) -> Vec<std::ffi::OsString> {
    let sandbox = cpjudge::sandbox::Sandbox::with_supervisor(env!("CARGO_BIN_EXE_cpjudge").into());
    // The build is held only while the compiler lives; the suite's cache stays far below its default bound, so no
    // judge trims it away afterwards.
    let cache = cpjudge::cache::Cache::new(shared_cache());
    let compiler = cpjudge::compile::Compiler::new(&cache, &sandbox);
    let built = compiler.compile(path).unwrap();
    assert!(
        built.outcome.ok,
        "{} does not compile: {}",
        path.display(),
        built.outcome.message
    );
    compiler
        .program(&built, cpjudge::units::Bytes::mib(1024))
        .unwrap()
        .argv
}

/// PATH with `dir` first, then the test's own PATH: a wrapper in `dir` stands in for the tool of its name.
pub fn path_with_first(dir: &Path) -> String {
    let path = std::env::join_paths(
        std::iter::once(dir.to_owned())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    path.into_string().unwrap()
}
