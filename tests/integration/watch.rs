//! `--watch`: a judge that judges again on each change, as editors save them: one new report for each save, whether
//! written in place, renamed into place or written several times in a row, and a clean stop on Ctrl-C.
//!
//! Every wait is bounded: a watch that misses a change fails its test instead of hanging it.

use crate::harness::{copy_dir, fixtures, processes_under};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest any step may take before the test gives up on it.
const BOUND: Duration = Duration::from_secs(60);

/// What the judge says on standard error each time it has judged and waits again.
const WAITING: &str = "watching for changes";

/// The basic fixture's `sum`, with one solution, accepted.
const ONE_SOLUTION: &str = "title = \"Sum of numbers\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n\n\
                            [[solutions]]\npath = \"solutions/ac.c\"\nexpected = \"AC\"\nmain = true\n";

/// A judge started with `--watch` in a copy of a fixture, its output gathered as it comes: standard output and
/// error through one pipe, so that what it says after a report comes after all of the report (or each apart,
/// for a judge whose standard output is JSON).
struct Watching {
    judge: Child,
    output: Arc<Mutex<String>>,
    /// Standard error, where it is gathered apart.
    errors: Arc<Mutex<String>>,
    project: tempfile::TempDir,
    cache: tempfile::TempDir,
    tmp: tempfile::TempDir,
}

impl Watching {
    /// Starts `cpjudge ARGS` in a copy of the fixture `name`, once `prepare` has changed it.
    fn start(name: &str, prepare: impl FnOnce(&Path), args: &[&str]) -> Watching {
        Self::start_with(name, prepare, args, false)
    }

    /// As [`Watching::start`], with standard error gathered apart from standard output where `apart`.
    fn start_with(name: &str, prepare: impl FnOnce(&Path), args: &[&str], apart: bool) -> Watching {
        let (project, cache, tmp) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        copy_dir(&fixtures().join(name), project.path());
        prepare(project.path());
        let (reader, writer) = std::io::pipe().unwrap();
        let (error_reader, error_writer) = std::io::pipe().unwrap();
        let stderr = match apart {
            true => error_writer,
            false => writer.try_clone().unwrap(),
        };
        let judge = Command::new(env!("CARGO_BIN_EXE_cpjudge"))
            .arg("--cache-dir")
            .arg(cache.path())
            .args(args)
            .current_dir(project.path())
            .env("TMPDIR", tmp.path())
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(stderr)
            .spawn()
            .unwrap();
        Watching {
            judge,
            output: gather(reader),
            errors: gather(error_reader),
            project,
            cache,
            tmp,
        }
    }

    fn path(&self, path: &str) -> PathBuf {
        self.project.path().join(path)
    }

    /// The reports so far, each with the line saying what changed before it, and what was said after it.
    fn reports(&self) -> Vec<String> {
        let output = self.output.lock().unwrap().clone();
        let mut reports = vec![String::new()];
        for line in output.lines() {
            if line.starts_with("--- ") && line.ends_with(" ---") {
                reports.push(String::new());
            }
            let last = reports.last_mut().unwrap();
            last.push_str(line);
            last.push('\n');
        }
        reports
    }

    /// Waits until the judge has judged `count` times in all, and returns the last report.
    fn report(&mut self, count: usize) -> String {
        let start = Instant::now();
        while self.output.lock().unwrap().matches(WAITING).count() < count {
            if let Some(status) = self.judge.try_wait().unwrap() {
                panic!("the judge ended ({status}): {}", self.said());
            }
            assert!(
                start.elapsed() < BOUND,
                "judge {count} never came: {}",
                self.said()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let reports = self.reports();
        assert_eq!(reports.len(), count, "{}", self.said());
        reports[count - 1].clone()
    }

    /// Sends Ctrl-C and returns the exit code, once the judge has ended.
    fn interrupt(&mut self) -> i32 {
        // SAFETY: kill takes plain integers; the judge is our child.
        unsafe { libc::kill(self.judge.id() as i32, libc::SIGINT) };
        let start = Instant::now();
        loop {
            if let Some(status) = self.judge.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(
                start.elapsed() < BOUND,
                "Ctrl-C did not stop the judge: {}",
                self.said()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Everything the judge said, for failure messages.
    fn said(&self) -> String {
        let errors = self.errors.lock().unwrap();
        format!("{}{errors}", self.output.lock().unwrap())
    }

    /// Nothing of the judge is left: no process (a program run from the cache, or one that inherited the judge's
    /// own `TMPDIR`: a worker, a compiler), no temporary folder, no half-written file in the project.
    fn assert_nothing_left(&self) {
        assert_eq!(processes_under(self.cache.path()), Vec::<String>::new());
        assert_eq!(self.processes_of_the_judge(), Vec::<String>::new());
        let leftover: Vec<_> = std::fs::read_dir(self.tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(leftover, Vec::<std::ffi::OsString>::new());
        let half_written: Vec<_> = walkdir::WalkDir::new(self.project.path())
            .into_iter()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".cpjudge-"))
            .map(|e| e.path().to_owned())
            .collect();
        assert_eq!(half_written, Vec::<PathBuf>::new());
    }
}

impl Watching {
    /// The processes whose environment is the judge's: its `TMPDIR`, which no other process has.
    fn processes_of_the_judge(&self) -> Vec<String> {
        let marker = format!("TMPDIR={}\0", self.tmp.path().display());
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
                continue;
            };
            if String::from_utf8_lossy(&environ).contains(&marker) {
                found.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        found
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        // A test that failed must not leave its judge watching.
        let _ = self.judge.kill();
        let _ = self.judge.wait();
    }
}

/// Reads `from` to its end on a thread of its own, into the string returned.
fn gather(mut from: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let into = text.clone();
    std::thread::spawn(move || {
        let mut chunk = [0; 4096];
        while let Ok(n) = from.read(&mut chunk) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    });
    text
}

/// An answer edited in place, a solution renamed into place, a solution written several times in a row, an answer
/// deleted and written anew: one new report each, which says what changed and judges it; Ctrl-C then ends the watch with 130 and leaves nothing.
/// The HTML report, rewritten after each judge inside a folder watched, is no change.
#[test]
fn each_save_is_judged_once() {
    let mut watching = Watching::start(
        "basic",
        |project| {
            std::fs::write(project.join("problems/sum/problem.toml"), ONE_SOLUTION).unwrap();
        },
        &[
            "judge",
            "sum",
            "--watch",
            "-q",
            "--html",
            "problems/sum/report.html",
        ],
    );
    let first = watching.report(1);
    assert!(!first.contains("not as expected"), "{}", watching.said());

    // In place, as most editors write.
    std::fs::write(watching.path("testdata/sum/1.ans"), "7\n").unwrap();
    let second = watching.report(2);
    assert!(second.contains("testdata/sum/1.ans changed"), "{second}");
    assert!(second.contains("got WA"), "{second}");

    // A temporary file renamed over the original, as vim and VS Code write: the temporary file is no change.
    let solution = watching.path("problems/sum/solutions/ac.c");
    let accepted = std::fs::read(&solution).unwrap();
    let temporary = watching.path("problems/sum/solutions/ac.c.tmp");
    std::fs::write(&temporary, "int main( {\n").unwrap();
    std::fs::rename(&temporary, &solution).unwrap();
    let third = watching.report(3);
    assert!(
        third.contains(": problems/sum/solutions/ac.c changed"),
        "{third}"
    );
    assert!(third.contains("got CE"), "{third}");

    // Several writes in a row, the last putting back the accepted solution: the answer is still wrong.
    for attempt in 0..5 {
        std::fs::write(&solution, format!("int main( {{ // {attempt}\n")).unwrap();
    }
    std::fs::write(&solution, &accepted).unwrap();
    let fourth = watching.report(4);
    assert!(fourth.contains("got WA"), "{fourth}");
    let page = std::fs::read_to_string(watching.path("problems/sum/report.html")).unwrap();
    assert!(page.contains("WA"), "the page is of the last judge");

    // Deleted and written anew, beside an editor's swap and backup files, which are no change.
    let answer = watching.path("testdata/sum/1.ans");
    std::fs::write(watching.path("testdata/sum/.1.ans.swp"), "swap").unwrap();
    std::fs::write(watching.path("testdata/sum/1.ans~"), "7\n").unwrap();
    std::fs::remove_file(&answer).unwrap();
    std::fs::write(&answer, "6\n").unwrap();
    let fifth = watching.report(5);
    let changed = fifth.lines().next().unwrap_or_default();
    assert!(
        changed.ends_with(": testdata/sum/1.ans changed ---"),
        "{fifth}"
    );
    assert!(!fifth.contains("not as expected"), "{fifth}");

    // Another test, input and answer at once: only its run is made again, the other two are kept (the page says
    // so, as the table does).
    std::fs::write(watching.path("testdata/sum/2.in"), "2\n-5 7\n").unwrap();
    std::fs::write(watching.path("testdata/sum/2.ans"), "2\n").unwrap();
    let sixth = watching.report(6);
    assert!(!sixth.contains("not as expected"), "{sixth}");
    let page = std::fs::read_to_string(watching.path("problems/sum/report.html")).unwrap();
    assert!(
        page.contains("<dt>runs reused</dt><dd>2 of 3,"),
        "the page of the last judge does not say 2 runs were reused:\n{page}"
    );

    // The judge is found by its environment, as what it leaves would be.
    assert!(!watching.processes_of_the_judge().is_empty());
    assert_eq!(watching.interrupt(), 130, "{}", watching.said());
    assert_eq!(watching.reports().len(), 6, "{}", watching.said());
    watching.assert_nothing_left();
}

/// A problem.toml made invalid is reported with its place, and the watch goes on: mended, it is judged again.
#[test]
fn an_invalid_problem_is_reported_and_the_watch_goes_on() {
    let mut watching = Watching::start(
        "basic",
        |project| {
            std::fs::write(project.join("problems/sum/problem.toml"), ONE_SOLUTION).unwrap();
        },
        &["judge", "sum", "--watch", "-q"],
    );
    watching.report(1);
    let config = watching.path("problems/sum/problem.toml");
    std::fs::write(&config, "title = \n").unwrap();
    watching.report(2);
    let said = watching.said();
    assert!(said.contains("problems/sum/problem.toml:1:"), "{said}");
    let second = "\n[[solutions]]\npath = \"solutions/wa_off_by_one.cpp\"\nexpected = \"AC\"\n";
    std::fs::write(&config, format!("{ONE_SOLUTION}{second}")).unwrap();
    let mended = watching.report(3);
    assert!(
        mended.contains("wa_off_by_one.cpp (expected AC, got WA)"),
        "{mended}"
    );
    assert_eq!(watching.interrupt(), 130, "{}", watching.said());
    watching.assert_nothing_left();
}

/// `test FILE --watch`: the file and its samples are watched, and a sample's answer edited is judged again.
#[test]
fn a_contestant_file_is_judged_again_when_a_sample_changes() {
    let mut watching = Watching::start(
        "basic",
        |project| {
            let tests = project.join("mine/tests");
            std::fs::create_dir_all(&tests).unwrap();
            std::fs::copy(
                project.join("problems/sum/solutions/ac.c"),
                project.join("mine/sum.c"),
            )
            .unwrap();
            std::fs::write(tests.join("1.in"), "3\n1 2 3\n").unwrap();
            std::fs::write(tests.join("1.ans"), "6\n").unwrap();
        },
        &["test", "mine/sum.c", "--watch"],
    );
    let first = watching.report(1);
    assert!(!first.contains("WA"), "{first}");
    std::fs::write(watching.path("mine/tests/1.ans"), "7\n").unwrap();
    let second = watching.report(2);
    assert!(second.contains("mine/tests/1.ans changed"), "{second}");
    assert!(second.contains("WA"), "{second}");
    assert_eq!(watching.interrupt(), 130, "{}", watching.said());
    watching.assert_nothing_left();
}

/// `--watch --json`: standard output holds the reports alone, one per line, each the object `judge --json`
/// prints, for an editor to read as they come; what changed is said on standard error.
#[test]
fn watch_with_json_writes_a_report_per_line() {
    let mut watching = Watching::start_with(
        "basic",
        |project| {
            std::fs::write(project.join("problems/sum/problem.toml"), ONE_SOLUTION).unwrap();
        },
        &["judge", "sum", "--watch", "--json"],
        true,
    );
    let lines = |watching: &mut Watching, count: usize| -> Vec<serde_json::Value> {
        let start = Instant::now();
        while watching.errors.lock().unwrap().matches(WAITING).count() < count {
            assert!(
                start.elapsed() < BOUND,
                "judge {count} never came: {}",
                watching.said()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let output = watching.output.lock().unwrap().clone();
        output
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
            .collect()
    };
    let first = lines(&mut watching, 1);
    assert_eq!(first.len(), 1, "{}", watching.said());
    assert_eq!(first[0]["ok"], true, "{:#}", first[0]);
    std::fs::write(watching.path("testdata/sum/1.ans"), "7\n").unwrap();
    let both = lines(&mut watching, 2);
    assert_eq!(both.len(), 2, "{}", watching.said());
    assert_eq!(both[1]["ok"], false, "{:#}", both[1]);
    assert_eq!(both[1]["problem"], "sum");
    let errors = watching.errors.lock().unwrap().clone();
    assert!(errors.contains("testdata/sum/1.ans changed"), "{errors}");
    assert_eq!(watching.interrupt(), 130, "{}", watching.said());
    watching.assert_nothing_left();
}
