//! What a program that crashed said, cut to the part that tells why: the report of a known runtime (a Python
//! traceback, a Rust panic, an uncaught C++ or Java exception), or else the first and last few lines.

use std::path::Path;

/// Lines shown at most.
const LINES: usize = 6;
/// Characters kept of each line: only a bound on what a program may make the report hold. Lines are kept whole
/// (a traceback's line number is at its end); the reporter cuts them to a terminal's width, and only there.
const LINE_CHARS: usize = 4096;

/// Where the part of a crash report that matters lies, once its first line is found.
#[derive(Clone, Copy)]
enum Keep {
    /// Its last lines (a traceback ends with the innermost frame and the exception).
    Last,
    /// Its first lines (an exception, then its stack from where it was thrown).
    First,
}

/// Whether a line is the first of a runtime's crash report.
type Starts = fn(&str) -> bool;

/// The first line of each crash report the runtimes write, and which of its lines matter.
const REPORTS: &[(Starts, Keep)] = &[
    (
        |l| l.starts_with("Traceback (most recent call last)"),
        Keep::Last,
    ),
    (
        |l| l.starts_with("thread '") && l.contains("' panicked at"),
        Keep::First,
    ),
    (
        |l| l.starts_with("terminate called after throwing"),
        Keep::First,
    ),
    (|l| l.starts_with("Exception in thread \""), Keep::First),
];

/// The lines of `stderr` that say why the program died, at most [`LINES`] of them, each cut short; empty when it
/// said nothing.
pub(crate) fn last_words(stderr: &str) -> Vec<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        // Advice on getting a backtrace is not why it died.
        .filter(|l| !l.starts_with("note: run with `RUST_BACKTRACE=1`"))
        .collect();
    // The last report: a program may print several (threads), and the last one is what ended it.
    let report = lines.iter().enumerate().rev().find_map(|(at, line)| {
        REPORTS
            .iter()
            .find(|(starts, _)| starts(line.trim_start()))
            .map(|&(_, keep)| (at, keep))
    });
    let shown: Vec<&str> = match report {
        Some((at, keep)) => {
            let report = &lines[at..];
            match keep {
                _ if report.len() <= LINES => report.to_vec(),
                Keep::First => report[..LINES].to_vec(),
                Keep::Last => {
                    let mut shown = vec![report[0], "..."];
                    shown.extend(&report[report.len() - (LINES - 2)..]);
                    shown
                }
            }
        }
        None if lines.len() <= LINES => lines,
        None => {
            let half = LINES / 2;
            let mut shown = lines[..half].to_vec();
            shown.push("...");
            shown.extend(&lines[lines.len() - half..]);
            shown
        }
    };
    shown
        .into_iter()
        .map(|l| crate::text::clip(l, LINE_CHARS))
        .collect()
}

/// `message` with the paths of a program's build folder `build` (in the build cache) made the program's own: a
/// runtime that names the file it ran (Python, Ruby, Node, Perl, PHP, Lua, Bash) names the copy it ran, which the
/// user never wrote, and the user's own path is what they go to. `main` is the main source's name in the build
/// folder, `path` the program's as given, `folder` the folder it was given as, if it was one.
pub(crate) fn own_paths(
    message: &str,
    build: &Path,
    main: &str,
    path: &Path,
    folder: Option<&Path>,
) -> String {
    let build = build.to_string_lossy();
    let beside = folder.or(path.parent()).unwrap_or(Path::new(""));
    let beside = match beside.to_string_lossy() {
        b if b.is_empty() => String::new(),
        b => format!("{}/", b.trim_end_matches('/')),
    };
    let mut mapped = message.to_owned();
    if folder.is_none() {
        mapped = mapped.replace(&format!("{build}/{main}"), &path.to_string_lossy());
    }
    mapped.replace(&format!("{build}/"), &beside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_in_the_build_folder_are_the_programs_own() {
        let build = Path::new("/c/build/86a1/box");
        let traceback = "exit code 1: Traceback (most recent call last):\n  File \"/c/build/86a1/box/crashes.py\", \
                         line 3, in f\n  File \"/c/build/86a1/box/util.py\", line 9";
        assert_eq!(
            own_paths(
                traceback,
                build,
                "crashes.py",
                Path::new("sols/crash.py"),
                None
            ),
            "exit code 1: Traceback (most recent call last):\n  File \"sols/crash.py\", line 3, in f\n  \
             File \"sols/util.py\", line 9"
        );
        assert_eq!(
            own_paths(
                "/c/build/86a1/box/a.rb:3:in `f'",
                build,
                "a.rb",
                Path::new("a.rb"),
                None
            ),
            "a.rb:3:in `f'"
        );
        assert_eq!(
            own_paths(
                "at /c/build/86a1/box/main.pl line 4.",
                build,
                "main.pl",
                Path::new("prog/main.pl"),
                Some(Path::new("prog"))
            ),
            "at prog/main.pl line 4."
        );
    }

    #[test]
    fn crash_reports_of_each_runtime() {
        let cases: &[(&str, &[&str])] = &[
            (
                "debug: read 3 numbers\nTraceback (most recent call last):\n  File \"a.py\", line 12, in <module>\n    run()\n  File \"a.py\", line 9, in run\n    main()\n  File \"a.py\", line 5, in main\n    print(xs[a])\nIndexError: list index out of range\n",
                &[
                    "Traceback (most recent call last):",
                    "...",
                    "    main()",
                    "  File \"a.py\", line 5, in main",
                    "    print(xs[a])",
                    "IndexError: list index out of range",
                ][..],
            ),
            (
                "reading\n\nthread 'main' panicked at src/main.rs:3:5:\nindex out of bounds: the len is 3 but the index is 7\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
                &[
                    "thread 'main' panicked at src/main.rs:3:5:",
                    "index out of bounds: the len is 3 but the index is 7",
                ],
            ),
            (
                "n = 5\nterminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 5)\n",
                &[
                    "terminate called after throwing an instance of 'std::out_of_range'",
                    "  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 5)",
                ],
            ),
            (
                "Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat Main.f(Main.java:4)\n\tat Main.g(Main.java:8)\n\tat Main.h(Main.java:12)\n\tat Main.i(Main.java:16)\n\tat Main.j(Main.java:20)\n\tat Main.main(Main.java:24)\n",
                &[
                    "Exception in thread \"main\" java.lang.ArithmeticException: / by zero",
                    "\tat Main.f(Main.java:4)",
                    "\tat Main.g(Main.java:8)",
                    "\tat Main.h(Main.java:12)",
                    "\tat Main.i(Main.java:16)",
                    "\tat Main.j(Main.java:20)",
                ],
            ),
            ("", &[]),
            ("just one line\n", &["just one line"]),
            (
                "1\n2\n3\n4\n5\n6\n7\n8\n",
                &["1", "2", "3", "...", "6", "7", "8"],
            ),
        ];
        for (stderr, want) in cases {
            assert_eq!(last_words(stderr), *want, "{stderr}");
        }
    }

    #[test]
    fn lines_are_kept_whole_up_to_a_bound() {
        let line = format!("ValueError: {} line 1234", "x".repeat(300));
        assert_eq!(last_words(&line), [line]);
        let words = last_words(&"x".repeat(10 * LINE_CHARS));
        assert_eq!(words.len(), 1);
        assert!(words[0].len() < LINE_CHARS + 10);
    }
}
