//! The manual's examples, run. Every ```` ```console ```` block of README.md and of the book's pages is a series of
//! commands, each a `$ ` line followed by what it prints; each page's commands run in order in a fresh copy of
//! the bundled problems (with a build cache of its own, as on a fresh clone), and what they print is compared
//! with the page, so that the manual cannot drift from the program.
//!
//! Timings and memory figures differ from run to run, and so do the widths of the table's columns: both sides
//! have them replaced (`[time]`, `[mem]`) and runs of spaces made one before comparing; a run stopped by its wall
//! time on a busy machine reads as one stopped by its CPU time. `[..]` in a page matches
//! any text within a line, and `...` on a line of its own any lines. A block marked ```` ```console,root ````
//! shows what a judge run as root sees, and is skipped elsewhere, saying so. A page's own files (a submission, its
//! samples) are in `tests/fixtures/examples/<page>/`, copied into the project before its commands run, and
//! `tests/fixtures/examples/<page>.toml` names fixtures kept elsewhere (a package) to copy too.
//!
//! `CPJUDGE_EXAMPLES=overwrite cargo test --test integration examples` writes what the commands printed into
//! the pages, for the examples that differ; put back the `[..]` the page needs, then read the change.

use crate::harness::copy_dir;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One command of a page and what the page says it prints.
#[derive(Debug)]
struct Example {
    /// The line of the `$ ` command, counted from 1.
    line: usize,
    command: String,
    /// The lines of output the page shows, as written.
    expected: Vec<String>,
    /// Why the example is not run here, when it is not.
    skip: Option<&'static str>,
}

/// The examples of a page, in order; panics on a command example outside a ```` ```console ```` block, which
/// would show output that nothing checks.
fn examples(page: &str, text: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if let Some(info) = line.trim_start().strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some((number, info.trim().to_owned())),
            };
            continue;
        }
        let Some((opened, info)) = &block else {
            continue;
        };
        let is_console = info == "console" || info.starts_with("console,");
        if let Some(command) = line.strip_prefix("$ ") {
            assert!(
                is_console,
                "{page}:{number}: a command example in a ```{info} block (line {opened}): make it ```console, \
                 so that the suite runs it"
            );
            let skip = (info == "console,root" && !is_root())
                .then_some("it shows what a judge run as root sees");
            examples.push(Example {
                line: number,
                command: command.to_owned(),
                expected: Vec::new(),
                skip,
            });
        } else if is_console {
            let example = examples.last_mut().unwrap_or_else(|| {
                panic!("{page}:{number}: output before the block's first `$ ` command")
            });
            example.expected.push(line.to_owned());
        }
    }
    examples
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// What differs from run to run, made the same on both sides.
fn normalize(text: &str) -> String {
    static TIME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b\d+(\.\d+)?(ns|µs|us|ms|s)\b").unwrap());
    static MEMORY: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\b\d+(\.\d+)? ?(B|KiB|MiB|GiB|TiB)\b").unwrap());
    static SPACES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[ \t]+").unwrap());
    // A run over its time limit is stopped by its CPU time, or, on a machine busy with other tests, by its wall
    // time first: the verdict is the same, and so is the page.
    static OVER_TIME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(CPU time \[time\] over the \[time\] limit|killed after \[time\] of wall time, having used \[time\] of CPU \(sleeping or waiting\?\))",
        )
        .unwrap()
    });
    let mut out = String::new();
    for line in text.lines() {
        let line = TIME.replace_all(line, "[time]");
        let line = MEMORY.replace_all(&line, "[mem]");
        let line = SPACES.replace_all(&line, " ");
        let line = OVER_TIME.replace_all(&line, "[over the time limit]");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.trim_end_matches('\n').to_owned()
}

/// A fresh project for a page: the bundled problems with their tests, and the page's own files.
fn project_for(stem: &str) -> tempfile::TempDir {
    let project = tempfile::Builder::new()
        .prefix("cpjudge-example-")
        .tempdir()
        .unwrap();
    for folder in ["problems", "testdata"] {
        copy_dir(&repo().join(folder), &project.path().join(folder));
    }
    let own = repo().join("tests/fixtures/examples").join(stem);
    if own.is_dir() {
        copy_dir(&own, project.path());
    }
    // Fixtures kept elsewhere in the repository (a package of the corpus), named in `<page>.toml`'s `[copy]`:
    // where in the project, from where in the repository.
    let manifest = own.with_extension("toml");
    if manifest.is_file() {
        let manifest: toml::Table = std::fs::read_to_string(&manifest).unwrap().parse().unwrap();
        for (to, from) in manifest["copy"].as_table().unwrap() {
            copy_dir(
                &repo().join(from.as_str().unwrap()),
                &project.path().join(to),
            );
        }
    }
    project
}

/// Runs one command as a user would type it, in the project, with cpjudge first on PATH; stdout and stderr in
/// the order they came, as a terminal shows them once the progress bar is gone: the lines that stand in for the
/// bar where stderr is not a terminal (`judged a.py: AC (2 of 2 tests run)`, `run 1/3: ...`) are left out.
fn run(command: &str, project: &Path) -> String {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_cpjudge"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let command = command.replace("cargo run --release -- ", "cpjudge ");
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(project)
        .env("PATH", path)
        .env("CPJUDGE_CACHE_DIR", project.join("target/cpjudge"))
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CPJUDGE_LAYERS")
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(judged .+: .* \(\d+ of \d+ tests? run\)|run \d+/\d+: .*)$").unwrap()
    });
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !PROGRESS.is_match(line))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// Runs every example of `page` (a path below the repository) and compares what it prints.
fn check_page(page: &str) {
    let path = repo().join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let stem = Path::new(page).file_stem().unwrap().to_str().unwrap();
    let project = project_for(stem);
    let overwrite = std::env::var("CPJUDGE_EXAMPLES").as_deref() == Ok("overwrite");
    let mut differing = Vec::new();
    let mut rewrites = Vec::new();
    for example in examples(page, &text) {
        if let Some(why) = example.skip {
            eprintln!(
                "skipped: {page}:{}: `{}`: {why}",
                example.line, example.command
            );
            continue;
        }
        let actual = run(&example.command, project.path());
        let expected = example.expected.join("\n");
        let result = snapbox::Assert::new().try_eq(
            Some(&format!("{page}:{}: {}", example.line, example.command)),
            snapbox::Data::text(normalize(&actual)),
            snapbox::Data::text(normalize(&expected)),
        );
        if let Err(error) = result {
            differing.push(error.to_string());
            rewrites.push((example, actual));
        }
    }
    if overwrite && !rewrites.is_empty() {
        std::fs::write(&path, rewrite(&text, &rewrites)).unwrap();
        eprintln!("{page}: wrote what {} commands printed", rewrites.len());
        return;
    }
    assert!(
        differing.is_empty(),
        "{page}: {} examples print something else than the page says (CPJUDGE_EXAMPLES=overwrite writes \
         what they print):\n{}",
        differing.len(),
        differing.join("\n")
    );
}

/// The page with each example's output replaced by what its command printed.
fn rewrite(text: &str, rewrites: &[(Example, String)]) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut index = 0;
    for (example, actual) in rewrites {
        // The output starts on the line after the command (`line` counts from 1); blank lines that part it
        // from the next command stay.
        let first = example.line;
        let shown = example.expected.len()
            - example
                .expected
                .iter()
                .rev()
                .take_while(|l| l.is_empty())
                .count();
        out.extend(lines[index..first].iter().map(|l| l.to_string()));
        out.extend(actual.trim_end_matches('\n').lines().map(str::to_owned));
        index = first + shown;
    }
    out.extend(lines[index..].iter().map(|l| l.to_string()));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The pages whose examples are run: README.md and every page of the book.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_owned()];
    let mut book: Vec<String> = std::fs::read_dir(repo().join("book/src"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md") && name != "SUMMARY.md")
        .map(|name| format!("book/src/{name}"))
        .collect();
    book.sort();
    pages.extend(book);
    pages
}

macro_rules! page_tests {
    ($($test:ident => $page:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_page($page);
            }
        )*

        /// A page with examples that no test above runs would drift unseen.
        #[test]
        fn examples_every_page_with_examples_is_run() {
            let run = [$($page),*];
            for page in pages() {
                let text = std::fs::read_to_string(repo().join(&page)).unwrap();
                if !examples(&page, &text).is_empty() {
                    assert!(run.contains(&page.as_str()), "{page} has examples that no test runs: add it to page_tests!");
                }
            }
        }
    };
}

page_tests! {
    examples_readme => "README.md",
    examples_judging => "book/src/judging.md",
    examples_checking_a_submission => "book/src/checking-a-submission.md",
    examples_growing_tests => "book/src/growing-tests.md",
    examples_problem_format => "book/src/problem-format.md",
    examples_scoring => "book/src/scoring.md",
    examples_isolation => "book/src/isolation.md",
}

#[test]
fn examples_normalizing_keeps_what_matters() {
    assert_eq!(
        normalize("a.rs   Rust  AC   12ms    3.0MiB  ok  \nlimits 1s CPU and 256MiB memory"),
        "a.rs Rust AC [time] [mem] ok\nlimits [time] CPU and [mem] memory"
    );
    // A verdict, a name or a count that changes is still a difference.
    assert_ne!(normalize("a.rs AC 35/35"), normalize("a.rs WA 35/35"));
    assert_ne!(normalize("35 tests"), normalize("36 tests"));
    assert_eq!(
        normalize(
            "    killed after 3.00s of wall time, having used 0.82s of CPU (sleeping or waiting?)"
        ),
        normalize("    CPU time 1.00s over the 1s limit")
    );
}

/// The README is the front door: what cpjudge is, the two commands, a tour and where to read on.
#[test]
fn examples_readme_is_short() {
    let lines = std::fs::read_to_string(repo().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines < 200,
        "README.md has {lines} lines: move the detail into the book"
    );
}

/// A page the book's table of contents does not name is not in the built manual.
#[test]
fn examples_every_page_is_in_the_book() {
    let summary = std::fs::read_to_string(repo().join("book/src/SUMMARY.md")).unwrap();
    for page in pages().iter().filter_map(|p| p.strip_prefix("book/src/")) {
        assert!(
            summary.contains(&format!("]({page})")),
            "book/src/SUMMARY.md does not list {page}"
        );
    }
}

#[test]
fn examples_a_command_outside_a_console_block_is_refused() {
    let page = "intro\n```\n$ cpjudge judge x\nout\n```\n";
    let refused = std::panic::catch_unwind(|| examples("page.md", page));
    assert!(refused.is_err());
    let page = "```console\n$ cpjudge judge x\nout\n\n$ cpjudge list\n```\n";
    let found = examples("page.md", page);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].expected, ["out", ""]);
    assert_eq!(found[1].line, 5);
}
