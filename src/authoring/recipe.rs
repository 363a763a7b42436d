//! `testdata/<problem>/recipe.toml`: how each test was made, so that it can be made again. A test is either
//! generated (the generator's arguments are kept) or hand-made (its input is the only record of it).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The file's name inside a problem's testdata folder.
pub const FILE_NAME: &str = "recipe.toml";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    pub path: PathBuf,
    pub tests: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The test's name: its path below the testdata folder, without extension.
    pub name: String,
    pub source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `generator ARGS...` prints the input.
    Generated(Vec<String>),
    /// Written by hand (or added with `add --input`): nothing rebuilds the input.
    HandMade,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    #[serde(default)]
    tests: Vec<Spanned<RawEntry>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    hand_made: bool,
}

impl Recipe {
    /// Reads the recipe of the tests in `dir`; a folder without one has an empty recipe.
    pub fn load(dir: &Path) -> Result<Recipe> {
        let path = dir.join(FILE_NAME);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        let raw: RawRecipe = toml::from_str(&text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            Error::config_at(&path, &text, offset, e.message().trim())
        })?;
        let mut tests: Vec<Entry> = Vec::with_capacity(raw.tests.len());
        for spanned in raw.tests {
            let at = spanned.span().start;
            let raw = spanned.into_inner();
            let error = |message: String| Error::config_at(&path, &text, at, message);
            let source = match (raw.args, raw.hand_made) {
                (Some(_), true) => {
                    return Err(error(format!(
                        "test \"{}\" has both `args` and `hand_made = true`: it is one or the other",
                        raw.name
                    )));
                }
                (Some(args), false) if args.is_empty() => {
                    return Err(error(format!("test \"{}\" has empty `args`", raw.name)));
                }
                (Some(args), false) => Source::Generated(args),
                (None, true) => Source::HandMade,
                (None, false) => {
                    return Err(error(format!(
                        "test \"{}\" needs `args = [...]` (the generator's arguments) or `hand_made = true`",
                        raw.name
                    )));
                }
            };
            if tests.iter().any(|t| t.name == raw.name) {
                return Err(error(format!("test \"{}\" is listed twice", raw.name)));
            }
            tests.push(Entry {
                name: raw.name,
                source,
            });
        }
        Ok(Recipe { path, tests })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.tests.iter().find(|t| t.name == name)
    }

    /// The text to append to the file for `entries`, in the file's own layout (a blank line between tests), so
    /// that what the user wrote there, comments included, is kept as it is.
    pub fn appended(existing: &str, entries: &[Entry]) -> String {
        let mut text = existing.to_owned();
        for entry in entries {
            if !text.is_empty() {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                if !text.ends_with("\n\n") {
                    text.push('\n');
                }
            }
            let raw = RawEntry {
                name: entry.name.clone(),
                args: match &entry.source {
                    Source::Generated(args) => Some(args.clone()),
                    Source::HandMade => None,
                },
                hand_made: entry.source == Source::HandMade,
            };
            text.push_str("[[tests]]\n");
            text.push_str(&toml::to_string(&raw).expect("a recipe entry is plain TOML"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Recipe> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE_NAME), text).unwrap();
        Recipe::load(dir.path())
    }

    #[test]
    fn generated_and_hand_made_tests() {
        let recipe = load(
            "[[tests]]\nname = \"a\"\nargs = [\"random\", \"3\"]\n\n[[tests]]\nname = \"b\"\nhand_made = true\n",
        )
        .unwrap();
        assert_eq!(
            recipe.tests,
            [
                Entry {
                    name: "a".into(),
                    source: Source::Generated(vec!["random".into(), "3".into()])
                },
                Entry {
                    name: "b".into(),
                    source: Source::HandMade
                }
            ]
        );
    }

    #[test]
    fn a_missing_recipe_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Recipe::load(dir.path()).unwrap().tests.is_empty());
    }

    #[test]
    fn mistakes_are_named_with_their_line() {
        let cases = [
            ("[[tests]]\nname = \"a\"\n", "needs `args"),
            (
                "[[tests]]\nname = \"a\"\nargs = [\"x\"]\nhand_made = true\n",
                "one or the other",
            ),
            ("[[tests]]\nname = \"a\"\nargs = []\n", "empty `args`"),
            (
                "[[tests]]\nname = \"a\"\nhand_made = true\n\n[[tests]]\nname = \"a\"\nhand_made = true\n",
                "listed twice",
            ),
            ("[[tests]]\nname = \"a\"\nseed = 3\n", "unknown field"),
        ];
        for (text, wanted) in cases {
            let message = load(text).unwrap_err().to_string();
            assert!(message.contains(wanted), "{text:?}: {message}");
            assert!(message.contains("recipe.toml:"), "{message}");
        }
    }

    #[test]
    fn appending_keeps_the_text_and_reads_back() {
        let existing = "# made by hand\n[[tests]]\nname = \"a\"\nhand_made = true\n";
        let entries = [
            Entry {
                name: "b".into(),
                source: Source::Generated(vec!["random".into(), "7".into()]),
            },
            Entry {
                name: "c".into(),
                source: Source::HandMade,
            },
        ];
        let text = Recipe::appended(existing, &entries);
        assert!(text.starts_with(existing), "{text}");
        assert!(text.contains("\n\n[[tests]]\nname = \"b\"\n"), "{text}");
        let recipe = load(&text).unwrap();
        assert_eq!(recipe.tests.len(), 3);
        assert_eq!(recipe.tests[1..], entries);
    }
}
