//! A package's samples shown as dialogues: `data/sample/*.interaction`, for an interactive or multi-pass problem.
//! Each line is the judge's (`<`) or the submission's (`>`); in a multi-pass problem a line `---` separates passes,
//! and where the problem is not interactive each pass shows its input before its output.
//!
//! A file is only shown, never run, so what can be checked soundly before judging is its form, and that it shows no
//! more passes than the problem allows; a malformed one is an error at its line. How many passes it shows is
//! compared with what the accepted submissions do on the sample once they are judged (see `judge::samples`): the
//! lines themselves are not, since two right submissions may well say different things.

use super::package::read_yaml_text;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// A sample's `.interaction` file and the passes it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Interaction {
    pub file: PathBuf,
    /// The sample's input, the `.in` file beside it: the test it shows, if the package has that test.
    pub input: PathBuf,
    pub passes: u32,
}

/// What kind of problem the samples show.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shown {
    pub interactive: bool,
    /// For a multi-pass problem, the most passes it allows.
    pub passes: Option<u32>,
}

/// Reads and checks every `data/sample/*.interaction` of the package in `dir` (where problemtools looks for
/// them). A problem that is neither interactive nor multi-pass has no use for them: they are left alone, as
/// BAPCtools leaves them.
pub(super) fn read_interactions(dir: &Path, shown: Shown) -> Result<Vec<Interaction>> {
    if !shown.interactive && shown.passes.is_none() {
        return Ok(Vec::new());
    }
    let folder = dir.join("data").join("sample");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Ok(Vec::new());
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "interaction"))
        .collect();
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let text = read_yaml_text(&file)?;
        let passes = count_passes(&text, shown).map_err(|(line, message)| Error::Config {
            path: file.clone(),
            line,
            column: 1,
            message,
        })?;
        found.push(Interaction {
            input: file.with_extension("in"),
            file,
            passes,
        });
    }
    Ok(found)
}

/// The passes `text` shows, or the line (from 1) where it goes wrong and how.
fn count_passes(text: &str, shown: Shown) -> std::result::Result<u32, (usize, String)> {
    let mut passes = 1;
    // Lines in the pass so far, and whether the submission has spoken in it.
    let mut lines_in_pass = 0;
    let mut output_begun = false;
    let mut last = 0;
    for (index, line) in text.split_terminator('\n').enumerate() {
        let number = index + 1;
        last = number;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim_end() == "---" {
            let Some(most) = shown.passes else {
                return Err((
                    number,
                    "`---` separates the passes of a multi-pass problem, and this problem is not one".into(),
                ));
            };
            if lines_in_pass == 0 {
                return Err((
                    number,
                    "`---` must stand between two passes, each showing something".into(),
                ));
            }
            passes += 1;
            if passes > most {
                return Err((
                    number,
                    format!("a pass {passes}, and limits.validation_passes allows {most}"),
                ));
            }
            lines_in_pass = 0;
            output_begun = false;
            continue;
        }
        match line.as_bytes().first() {
            Some(b'<') if output_begun && !shown.interactive => {
                return Err((
                    number,
                    "the judge's line (`<`) after the submission's (`>`): a pass of a problem that is not \
                     interactive shows its input, then its output"
                        .into(),
                ));
            }
            Some(b'<') => {}
            Some(b'>') => output_begun = true,
            _ => {
                let or_separator = if shown.passes.is_some() {
                    ", or is `---` between passes"
                } else {
                    ""
                };
                return Err((
                    number,
                    format!(
                        "a line of a sample interaction starts with `<` (the judge's) or `>` (the \
                         submission's){or_separator}"
                    ),
                ));
            }
        }
        lines_in_pass += 1;
    }
    if lines_in_pass == 0 {
        let why = if last == 0 {
            "the sample interaction shows nothing"
        } else {
            "`---` must stand between two passes, each showing something"
        };
        return Err((last.max(1), why.into()));
    }
    Ok(passes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MULTI_PASS: Shown = Shown {
        interactive: false,
        passes: Some(2),
    };
    const INTERACTIVE: Shown = Shown {
        interactive: true,
        passes: None,
    };
    const BOTH: Shown = Shown {
        interactive: true,
        passes: Some(3),
    };

    #[test]
    fn passes_are_counted() {
        for (text, shown, passes) in [
            // BAPCtools' multipass sample, and its files as written on Windows.
            ("<-1\n>500\n---\n<500\n>500\n", MULTI_PASS, 2),
            ("<-1\r\n>500\r\n---\r\n<500\r\n>500", MULTI_PASS, 2),
            ("<1\n<2\n>3\n", MULTI_PASS, 1),
            (">792\n<higher\n>999\n<correct\n", INTERACTIVE, 1),
            ("<5\n>? 2\n<0\n---  \n>? 1\n<1\n---\n<2\n", BOTH, 3),
        ] {
            assert_eq!(count_passes(text, shown), Ok(passes), "{text:?}");
        }
    }

    #[test]
    fn a_malformed_file_is_refused_at_its_line() {
        for (text, shown, line, said) in [
            (
                "<1\n>2\n3\n",
                MULTI_PASS,
                3,
                "starts with `<` (the judge's) or `>`",
            ),
            ("<1\n\n>2\n", INTERACTIVE, 2, "starts with `<`"),
            (">1\n---\n<2\n", INTERACTIVE, 2, "this problem is not one"),
            ("---\n<1\n>2\n", MULTI_PASS, 1, "between two passes"),
            (
                "<1\n>2\n---\n---\n<3\n",
                MULTI_PASS,
                4,
                "between two passes",
            ),
            ("<1\n>2\n---\n", MULTI_PASS, 3, "between two passes"),
            ("", MULTI_PASS, 1, "shows nothing"),
            (
                "<1\n>2\n<3\n",
                MULTI_PASS,
                3,
                "shows its input, then its output",
            ),
            (
                "<1\n>2\n---\n<2\n>3\n---\n<3\n>4\n",
                MULTI_PASS,
                6,
                "a pass 3, and limits.validation_passes allows 2",
            ),
        ] {
            match count_passes(text, shown) {
                Err((at, message)) => {
                    assert!(
                        at == line && message.contains(said),
                        "{text:?}: {at}: {message}"
                    )
                }
                Ok(passes) => panic!("{text:?}: taken, {passes} passes"),
            }
        }
        // A dialogue's judge may well speak after the submission.
        assert_eq!(count_passes("<1\n>2\n<3\n", BOTH), Ok(1));
    }

    #[test]
    fn files_are_read_for_interactive_and_multi_pass_problems_alone() {
        let dir = tempfile::tempdir().unwrap();
        let sample = dir.path().join("data").join("sample");
        std::fs::create_dir_all(&sample).unwrap();
        std::fs::write(sample.join("1.interaction"), "<1\n>2\n---\n<2\n>3\n").unwrap();
        std::fs::write(sample.join("2.interaction"), "<1\n>2\nno\n").unwrap();
        let neither = Shown {
            interactive: false,
            passes: None,
        };
        assert_eq!(read_interactions(dir.path(), neither).unwrap(), []);
        let error = read_interactions(dir.path(), MULTI_PASS)
            .unwrap_err()
            .to_string();
        let shown = sample.join("2.interaction").display().to_string();
        assert!(error.starts_with(&format!("{shown}:3:1: ")), "{error}");
        std::fs::remove_file(sample.join("2.interaction")).unwrap();
        assert_eq!(
            read_interactions(dir.path(), MULTI_PASS).unwrap(),
            [Interaction {
                file: sample.join("1.interaction"),
                input: sample.join("1.in"),
                passes: 2,
            }]
        );
    }
}
