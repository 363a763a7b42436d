//! Looking at a configuration file's keys one by one, by what each means to cpjudge in the package's version of
//! the format: what a key can mean, the versions, and the line a key is written at, for warnings and refusals
//! that name it.

use super::package_warning::{PackageWarning, WarningKind};
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::Path;

/// The versions of the format cpjudge reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Version {
    Legacy,
    /// 2023-07 and its drafts, which became 2025-09.
    Draft2023,
    V2025,
}

impl Version {
    /// The version `problem_format_version` names, or a message saying it is none cpjudge reads.
    pub fn of(given: Option<&str>) -> std::result::Result<Version, String> {
        match given {
            None | Some("legacy") | Some("legacy-icpc") => Ok(Version::Legacy),
            Some(v) if v.starts_with("2023-07") => Ok(Version::Draft2023),
            Some(v) if v.starts_with("2025-09") => Ok(Version::V2025),
            Some(other) => Err(format!(
                "problem_format_version \"{other}\" is not one cpjudge reads (legacy, 2023-07, 2025-09)"
            )),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Version::Legacy => "legacy",
            Version::Draft2023 => "2023-07",
            Version::V2025 => "2025-09",
        }
    }

    pub fn is_modern(self) -> bool {
        self != Version::Legacy
    }

    /// What the versions other than this one are called, in a warning.
    pub fn other(self) -> &'static str {
        if self.is_modern() {
            "legacy"
        } else {
            "2023-07 and 2025-09"
        }
    }
}

/// What a key means to cpjudge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Meaning {
    /// Read and judged on (some are checked further where they are read).
    Used,
    /// About the problem or the package, not about judging.
    About,
    /// Scoring's: in a scoring problem, judged pass-fail, not applied; in a pass-fail one, meaningless.
    Scoring,
    /// Not applied, for the reason given; pass-fail verdicts do not depend on it.
    NotApplied(&'static str),
}

/// A file's keys, looked at one by one; warnings go to `warnings`, refusals are errors at the key's line.
pub(super) struct Keys<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub version: Version,
    pub warnings: &'a mut Vec<PackageWarning>,
}

impl Keys<'_> {
    /// The line `key` (a path of keys from the top) is on, when it is written in block style.
    pub fn line(&self, key: &[&str]) -> Option<usize> {
        key_line(self.text, key)
    }

    pub fn warn(&mut self, kind: WarningKind, key: &[&str], message: String) {
        let line = self.line(key);
        self.warnings
            .push(PackageWarning::new(kind, self.path, line, message));
    }

    pub fn refuse(&self, key: &[&str], message: String) -> Error {
        Error::Config {
            path: self.path.to_owned(),
            line: self.line(key).unwrap_or(1),
            column: 1,
            message,
        }
    }

    /// Looks at each key of `map` (at `at` in the file) by `own` (this version's keys) and `other` (the other
    /// versions'); returns the keys that need more than their meaning says, with their meaning: the `Used` ones
    /// and the `Scoring` ones, in the file's order of names.
    pub fn sort<'v>(
        &mut self,
        map: &'v serde_json::Map<String, Value>,
        at: &[&str],
        own: &[(&str, Meaning)],
        other: &[(&str, Meaning)],
    ) -> Result<Vec<(&'v str, &'v Value, Meaning)>> {
        let mut kept = Vec::new();
        for (key, value) in map {
            let mut path = at.to_vec();
            path.push(key);
            let shown = path.join(".");
            let meaning = match own.iter().find(|(k, _)| k == key) {
                Some((_, meaning)) => *meaning,
                None => match other.iter().find(|(k, _)| k == key) {
                    Some((_, meaning)) => {
                        self.warn(
                            WarningKind::OtherVersion,
                            &path,
                            format!(
                                "`{shown}` belongs to the {} format, not to the {} one: taken as it means \
                                 there",
                                self.version.other(),
                                self.version.label()
                            ),
                        );
                        *meaning
                    }
                    None => {
                        self.warn(
                            WarningKind::UnknownKey,
                            &path,
                            format!(
                                "`{shown}` is no key of the format (in any version cpjudge reads): not used"
                            ),
                        );
                        continue;
                    }
                },
            };
            match meaning {
                Meaning::About => {}
                Meaning::NotApplied(why) => self.warn(
                    WarningKind::NotApplied,
                    &path,
                    format!("`{shown}` is not applied: {why}"),
                ),
                Meaning::Used | Meaning::Scoring => kept.push((key.as_str(), value, meaning)),
            }
        }
        Ok(kept)
    }
}

/// The line of a key, given as its path from the top (`["limits", "memory"]`), in block-style YAML: the first
/// line holding the path's last key, indented under the lines holding the ones before it. `None` when the key
/// is written otherwise (in a `{...}` map, say).
pub(super) fn key_line(text: &str, key: &[&str]) -> Option<usize> {
    let mut parent_indent: Option<usize> = None;
    let mut depth = 0;
    for (at, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if let Some(parent) = parent_indent
            && indent <= parent
        {
            // Left the block of the key before: the one looked for is not in it.
            return None;
        }
        let name = trimmed
            .split_once(':')
            .map(|(name, _)| name.trim().trim_matches(['"', '\'']));
        let placed = match parent_indent {
            None => indent == 0,
            Some(parent) => indent > parent,
        };
        if name == Some(key[depth]) && placed {
            depth += 1;
            if depth == key.len() {
                return Some(at + 1);
            }
            parent_indent = Some(indent);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_at_their_lines() {
        let text = "# a comment\nname: x\nlimits:\n  # time\n  memory: 5\n  time_multipliers:\n    \
                    ac_to_time_limit: 2\nmemory: 7\n";
        assert_eq!(key_line(text, &["name"]), Some(2));
        assert_eq!(key_line(text, &["limits", "memory"]), Some(5));
        assert_eq!(
            key_line(text, &["limits", "time_multipliers", "ac_to_time_limit"]),
            Some(7)
        );
        assert_eq!(key_line(text, &["memory"]), Some(8));
        assert_eq!(key_line(text, &["limits", "output"]), None);
        assert_eq!(
            key_line("limits: {memory: 5}\n", &["limits", "memory"]),
            None
        );
    }
}
