//! 2025-09's constants: the values problem.yaml's `constants` names, and the sequences `{{name}}` and
//! `{{name.variant}}` that stand for them in a package's programs, included files and group files.

use super::yaml_keys::key_line;
use crate::error::{Error, Result};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

/// The constants of a package: each name's representations, by variant, `value` always among them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constants {
    values: BTreeMap<String, BTreeMap<String, String>>,
}

/// The variant a sequence without one stands for.
const VALUE: &str = "value";

/// One constant sequence of a text: where it is, and what it names.
#[derive(Debug, PartialEq, Eq)]
struct Sequence<'t> {
    range: Range<usize>,
    name: &'t str,
    variant: Option<&'t str>,
}

impl Constants {
    /// The constants `constants` of problem.yaml (`path`, written as `text`) gives; none when it gives none. A
    /// constant the format does not allow is refused at its line: sequences naming it would be left as written.
    pub(super) fn read(path: &Path, text: &str, problem: &Value) -> Result<Constants> {
        let mut constants = Constants::default();
        let Some(given) = problem.get("constants") else {
            return Ok(constants);
        };
        let refuse = |at: &[&str], message: String| Error::Config {
            path: path.to_owned(),
            line: key_line(text, at).unwrap_or(1),
            column: 1,
            message,
        };
        let Some(given) = given.as_object() else {
            return Err(refuse(
                &["constants"],
                "`constants` must be a map of names to values".to_owned(),
            ));
        };
        for (name, value) in given {
            let at = ["constants", name.as_str()];
            if !is_name(name) {
                return Err(refuse(
                    &at,
                    format!(
                        "`{name}` is no constant's name: a name is a letter or `_`, then letters, digits or `_`"
                    ),
                ));
            }
            let mut variants = BTreeMap::new();
            match value.as_object() {
                Some(map) => {
                    for (variant, value) in map {
                        let text = scalar(value).ok_or_else(|| {
                            refuse(
                                &[at[0], at[1], variant],
                                format!("`constants.{name}.{variant}` must be an integer, a float or a string"),
                            )
                        })?;
                        variants.insert(variant.clone(), text);
                    }
                    if !variants.contains_key(VALUE) {
                        return Err(refuse(
                            &at,
                            format!(
                                "the constant `{name}` has variants but no `value`, which the format requires"
                            ),
                        ));
                    }
                }
                None => {
                    let text = scalar(value).ok_or_else(|| {
                        refuse(
                            &at,
                            format!(
                                "the constant `{name}` must be an integer, a float, a string, or a map with `value`"
                            ),
                        )
                    })?;
                    variants.insert(VALUE.to_owned(), text);
                }
            }
            constants.values.insert(name.clone(), variants);
        }
        Ok(constants)
    }

    /// Constants given as (name, variant, text), for tests and for programs of ours.
    #[cfg(test)]
    pub(crate) fn of(given: &[(&str, &str, &str)]) -> Constants {
        let mut constants = Constants::default();
        for (name, variant, text) in given {
            constants
                .values
                .entry(name.to_string())
                .or_default()
                .insert(variant.to_string(), text.to_string());
        }
        constants
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn lookup(&self, name: &str, variant: Option<&str>) -> Option<&str> {
        self.values
            .get(name)?
            .get(variant.unwrap_or(VALUE))
            .map(String::as_str)
    }

    /// `text` with each sequence of a defined constant replaced by its text; a sequence of an undefined one (or
    /// of a variant its constant does not have) is left as it is written, as the format says.
    pub fn substitute<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut out = String::new();
        let mut copied = 0;
        for sequence in sequences(text) {
            if let Some(value) = self.lookup(sequence.name, sequence.variant) {
                out.push_str(&text[copied..sequence.range.start]);
                out.push_str(value);
                copied = sequence.range.end;
            }
        }
        if copied == 0 {
            return Cow::Borrowed(text);
        }
        out.push_str(&text[copied..]);
        Cow::Owned(out)
    }

    /// A file's bytes with its sequences replaced; one that is not UTF-8 (an image, a binary) is left as it is.
    pub fn substitute_bytes<'b>(&self, bytes: &'b [u8]) -> Cow<'b, [u8]> {
        match std::str::from_utf8(bytes) {
            Ok(text) => match self.substitute(text) {
                Cow::Borrowed(_) => Cow::Borrowed(bytes),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            },
            Err(_) => Cow::Borrowed(bytes),
        }
    }

    /// The sequences of `text` that stand for no constant, each with its line: they are left as written.
    pub fn undefined<'t>(&self, text: &'t str) -> Vec<(&'t str, usize)> {
        sequences(text)
            .filter(|s| self.lookup(s.name, s.variant).is_none())
            .map(|s| {
                let line = 1 + text[..s.range.start].matches('\n').count();
                (&text[s.range], line)
            })
            .collect()
    }
}

/// A constant's value as it is substituted: a number as YAML reads it, a string as it is.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// Whether `name` is a name the format allows: `[a-zA-Z_][a-zA-Z0-9_]*`.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The length of the name at the start of `text`, if one starts there.
fn name_length(text: &str) -> Option<usize> {
    let length = text
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(text.len());
    text.as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        .then_some(length)
}

/// Every constant sequence of `text`, first to last: `{{`, a name, `.` and a variant if one, `}}`. Anything else
/// after `{{` (a C++ initialiser `{{1, 2}}`, a `{{ spaced }}` template) is no sequence.
fn sequences(text: &str) -> impl Iterator<Item = Sequence<'_>> {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(found) = text[from..].find("{{") {
            let start = from + found;
            let name_at = start + 2;
            from = start + 1;
            let Some(name_len) = name_length(&text[name_at..]) else {
                continue;
            };
            let name = &text[name_at..name_at + name_len];
            let mut end = name_at + name_len;
            let mut variant = None;
            if let Some(rest) = text[end..].strip_prefix('.') {
                let Some(variant_len) = name_length(rest) else {
                    continue;
                };
                variant = Some(&rest[..variant_len]);
                end += 1 + variant_len;
            }
            if !text[end..].starts_with("}}") {
                continue;
            }
            from = end + 2;
            return Some(Sequence {
                range: start..end + 2,
                name,
                variant,
            });
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> Result<Constants> {
        let path = Path::new("p/problem.yaml");
        let value: Value = serde_saphyr::from_str(yaml).unwrap();
        Constants::read(path, yaml, &value)
    }

    #[test]
    fn a_scalar_is_its_value_and_a_map_gives_variants() {
        let constants = read(
            "constants:\n  n: 5000000\n  k:\n    value: 5\n    tex: 5,000\n  eps: 1.5e-6\n  f: 10.0\n  word: five\n",
        )
        .unwrap();
        assert_eq!(
            constants.substitute("n={{n}} n={{n.value}} k={{k}} {{k.tex}} {{eps}} {{f}} {{word}}"),
            "n=5000000 n=5000000 k=5 5,000 1.5e-6 10.0 five"
        );
    }

    #[test]
    fn undefined_sequences_are_left_and_listed_with_their_line() {
        let constants = Constants::of(&[("n", "value", "7"), ("n", "tex", "7")]);
        let text = "a = {{n}}\nb = {{m}}\nc = {{n.roman}}\n";
        assert_eq!(
            constants.substitute(text),
            "a = 7\nb = {{m}}\nc = {{n.roman}}\n"
        );
        assert_eq!(
            constants.undefined(text),
            [("{{m}}", 2), ("{{n.roman}}", 3)]
        );
    }

    #[test]
    fn braces_that_are_no_sequence_are_left_alone() {
        let constants = Constants::of(&[("n", "value", "7")]);
        for text in [
            "int a[2][2] = {{1, 2}, {3, 4}};",
            "map<int, {{",
            "{{ n }}",
            "{{n}",
            "{{n.}}",
            "{{n.1}}",
            "{{}}",
            "}}{{",
        ] {
            assert_eq!(constants.substitute(text), text, "{text}");
            assert!(constants.undefined(text).is_empty(), "{text}");
        }
        // The innermost pair of a triple is a sequence, as a regex finds it.
        assert_eq!(constants.substitute("{{{n}}}"), "{7}");
        assert_eq!(
            constants.substitute("vector<vector<int>> v{{n}};"),
            "vector<vector<int>> v7;"
        );
    }

    #[test]
    fn bytes_that_are_not_text_are_left_alone() {
        let constants = Constants::of(&[("n", "value", "7")]);
        let binary = b"\xff{{n}}";
        assert_eq!(constants.substitute_bytes(binary).as_ref(), binary);
        assert_eq!(constants.substitute_bytes(b"{{n}}").as_ref(), b"7");
    }

    #[test]
    fn constants_the_format_does_not_allow_are_refused_at_their_line() {
        for (yaml, line, says) in [
            (
                "name: x\nconstants:\n  9lives: 9\n",
                3,
                "no constant's name",
            ),
            ("constants:\n  k:\n    tex: 5\n", 2, "no `value`"),
            ("constants:\n  k: [1, 2]\n", 2, "must be an integer"),
            (
                "constants:\n  k:\n    value: 1\n    v: [1]\n",
                4,
                "must be an integer",
            ),
            ("constants: 5\n", 1, "a map of names"),
        ] {
            let message = read(yaml).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("p/problem.yaml:{line}:1: "))
                    && message.contains(says),
                "{yaml}: {message}"
            );
        }
        assert!(read("name: x\n").unwrap().is_empty());
    }
}
