//! What each key of a package's `problem.yaml` means to cpjudge, by the version of the format the package is in.
//!
//! Real packages mix the versions (a legacy package with 2023-07's `type` and `uuid`, a 2025-09 one with legacy's
//! `validation`), and problemtools, BAPCtools and DOMjudge take them. So a key is one of:
//!
//! - read and judged on;
//! - about the problem (authors, licence), not about judging: nothing to do;
//! - of another version: taken as that version means it, with a warning;
//! - not applied, where pass-fail verdicts are the same without it (scoring, compiler limits): a warning;
//! - unknown: a warning naming it;
//! - a feature whose verdicts cpjudge would get wrong (submit-answer problems): the package is refused, naming the
//!   feature, rather than judged as something else.

use super::package_warning::WarningKind;
use super::yaml_keys::{Keys, Meaning};
use crate::error::Result;
use serde_json::Value;

const LEGACY_PROBLEM: &[(&str, Meaning)] = &[
    ("problem_format_version", Meaning::Used),
    ("type", Meaning::Used),
    ("name", Meaning::Used),
    ("uuid", Meaning::About),
    ("author", Meaning::About),
    ("source", Meaning::About),
    ("source_url", Meaning::About),
    ("license", Meaning::About),
    ("rights_owner", Meaning::About),
    ("limits", Meaning::Used),
    ("validation", Meaning::Used),
    ("validator_flags", Meaning::Used),
    ("grading", Meaning::Scoring),
    ("keywords", Meaning::About),
];

const MODERN_PROBLEM: &[(&str, Meaning)] = &[
    ("problem_format_version", Meaning::Used),
    ("type", Meaning::Used),
    ("name", Meaning::Used),
    ("uuid", Meaning::About),
    ("version", Meaning::About),
    ("credits", Meaning::About),
    ("source", Meaning::About),
    ("license", Meaning::About),
    ("rights_owner", Meaning::About),
    ("embargo_until", Meaning::About),
    ("limits", Meaning::Used),
    ("keywords", Meaning::About),
    (
        "languages",
        Meaning::NotApplied(
            "the languages a submission may be in are not enforced: each is judged in its own",
        ),
    ),
    // A run may always write in its own folder, which is what `true` allows; see the manual's packages page for `false`.
    ("allow_file_writing", Meaning::Used),
    // Checked where they could be substituted (see `package_parts`).
    ("constants", Meaning::Used),
];

const COMPILERS: &str = "compilers run under cpjudge's own limits (30 s of CPU, 2 GiB)";
const VALIDATORS: &str = "the package's validators run under cpjudge's own limits (10 s of CPU, 1 GiB, 256 MiB of output)";

/// Resource guarantees, the same in every version.
const GUARANTEES: &[(&str, Meaning)] = &[
    (
        "code",
        Meaning::NotApplied("the size of a submission's source is not limited"),
    ),
    ("compilation_time", Meaning::NotApplied(COMPILERS)),
    ("compilation_memory", Meaning::NotApplied(COMPILERS)),
    ("validation_time", Meaning::NotApplied(VALIDATORS)),
    ("validation_memory", Meaning::NotApplied(VALIDATORS)),
    ("validation_output", Meaning::NotApplied(VALIDATORS)),
];

const LEGACY_LIMITS: &[(&str, Meaning)] = &[
    ("time_multiplier", Meaning::Used),
    ("time_safety_margin", Meaning::Used),
    ("memory", Meaning::Used),
    ("output", Meaning::Used),
    // DOMjudge's legacy packages say `validation: custom multi-pass`, and give the passes here, as 2025-09 does:
    // DOMjudge reads it in either version.
    ("validation_passes", Meaning::Used),
];

const MODERN_LIMITS: &[(&str, Meaning)] = &[
    ("time_multipliers", Meaning::Used),
    ("time_limit", Meaning::Used),
    ("time_resolution", Meaning::Used),
    ("memory", Meaning::Used),
    ("output", Meaning::Used),
    ("validation_passes", Meaning::Used),
];

const TIME_MULTIPLIERS: &[&str] = &["ac_to_time_limit", "time_limit_to_tle"];

/// What problem.yaml's `type` and `validation` make of the problem.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Kind {
    pub interactive: bool,
    pub scoring: bool,
    /// Whether the output is judged by the package's own validator (`validation: custom`).
    pub custom: bool,
    /// Whether the submission may be run again on an input its output validator writes (`type: multi-pass`, or
    /// DOMjudge's legacy `validation: custom multi-pass`).
    pub multi_pass: bool,
}

/// Looks at every key of problem.yaml (`value`, read from `text`), and finds what kind of problem it is.
pub(super) fn problem_keys(keys: &mut Keys, value: &Value) -> Result<Kind> {
    let Some(map) = value.as_object() else {
        return Ok(Kind::default());
    };
    let (own, other) = if keys.version.is_modern() {
        (MODERN_PROBLEM, LEGACY_PROBLEM)
    } else {
        (LEGACY_PROBLEM, MODERN_PROBLEM)
    };
    let first = keys.warnings.len();
    let mut kind = Kind::default();
    let mut scoring_keys = Vec::new();
    for (key, value, meaning) in keys.sort(map, &[], own, other)? {
        match (key, meaning) {
            (_, Meaning::Scoring) => scoring_keys.push(key),
            ("type", _) => problem_type(keys, value, &mut kind)?,
            ("validation", _) => validation(keys, value, &mut kind)?,
            ("limits", _) => limits(keys, value)?,
            _ => {}
        }
    }
    for key in scoring_keys.into_iter().filter(|_| !kind.scoring) {
        let why = "it is for scoring problems, and this one is pass-fail";
        keys.warn(
            WarningKind::NotApplied,
            &[key],
            format!("`{key}` is not applied: {why}"),
        );
    }
    let passes_given = map
        .get("limits")
        .and_then(Value::as_object)
        .is_some_and(|limits| limits.contains_key("validation_passes"));
    if passes_given && !kind.multi_pass {
        keys.warn(
            WarningKind::NotApplied,
            &["limits", "validation_passes"],
            "`limits.validation_passes` is not applied: it is for multi-pass problems alone"
                .to_owned(),
        );
    }
    // Keys are looked at in the order of their names; they are reported in the file's.
    keys.warnings[first..].sort_by_key(|w| w.line.unwrap_or(usize::MAX));
    Ok(kind)
}

/// `type`: one word or several, in one string or a list.
fn problem_type(keys: &mut Keys, value: &Value, kind: &mut Kind) -> Result<()> {
    let words: Vec<&str> = match value {
        Value::String(line) => line.split_whitespace().collect(),
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for word in words {
        match word {
            "pass-fail" => {}
            "scoring" => kind.scoring = true,
            "interactive" => {
                if !keys.version.is_modern() {
                    keys.warn(
                        WarningKind::OtherVersion,
                        &["type"],
                        "type `interactive` belongs to the 2023-07 and 2025-09 format (legacy says \
                         `validation: custom interactive`): taken as it means there"
                            .to_owned(),
                    );
                }
                kind.interactive = true;
                kind.custom = true;
            }
            "multi-pass" => kind.multi_pass = true,
            "submit-answer" => {
                return Err(keys.refuse(
                    &["type"],
                    "submit-answer problems (type submit-answer) are not supported yet".to_owned(),
                ));
            }
            other => {
                return Err(keys.refuse(
                    &["type"],
                    format!(
                        "type \"{other}\" is none of pass-fail, scoring, interactive, multi-pass, \
                         submit-answer"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Legacy `validation`: `default` or `custom`, then some of `interactive`, `score` (and DOMjudge's
/// `multi-pass`).
fn validation(keys: &mut Keys, value: &Value, kind: &mut Kind) -> Result<()> {
    let line = value.as_str().unwrap_or_default();
    let mut words = line.split_whitespace();
    match words.next() {
        Some("default") | None => {}
        Some("custom") => kind.custom = true,
        Some(_) => {
            return Err(keys.refuse(
                &["validation"],
                format!("validation \"{line}\" is not one of: default, custom, custom interactive"),
            ));
        }
    }
    for word in words {
        match word {
            "interactive" => kind.interactive = true,
            "score" => kind.scoring = true,
            "multi-pass" => kind.multi_pass = true,
            other => {
                return Err(keys.refuse(
                    &["validation"],
                    format!(
                        "validation \"{line}\": \"{other}\" is none of interactive, score, multi-pass"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `limits`: each key of the package's version, or of another one (taken: see `package_limits`).
fn limits(keys: &mut Keys, value: &Value) -> Result<()> {
    let Some(map) = value.as_object() else {
        return Ok(());
    };
    let with = |version: &[(&'static str, Meaning)]| -> Vec<(&'static str, Meaning)> {
        version.iter().chain(GUARANTEES).copied().collect()
    };
    let (own, other) = if keys.version.is_modern() {
        (with(MODERN_LIMITS), with(LEGACY_LIMITS))
    } else {
        (with(LEGACY_LIMITS), with(MODERN_LIMITS))
    };
    for (key, value, _) in keys.sort(map, &["limits"], &own, &other)? {
        if key == "time_multipliers"
            && let Some(multipliers) = value.as_object()
        {
            for name in multipliers.keys() {
                if !TIME_MULTIPLIERS.contains(&name.as_str()) {
                    keys.warn(
                        WarningKind::UnknownKey,
                        &["limits", "time_multipliers", name],
                        format!(
                            "`limits.time_multipliers.{name}` is no key of the format (it has {}): not used",
                            TIME_MULTIPLIERS.join(", ")
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::yaml_keys::Version;
    use std::path::PathBuf;

    /// What problem.yaml's keys come to: the kind, and the warnings as "kind line message", or the refusal.
    fn judge(version: Version, yaml: &str) -> std::result::Result<(Kind, Vec<String>), String> {
        let value: Value = serde_saphyr::from_str(yaml).unwrap();
        let path = PathBuf::from("p/problem.yaml");
        let mut warnings = Vec::new();
        let mut keys = Keys {
            path: &path,
            text: yaml,
            version,
            warnings: &mut warnings,
        };
        let kind = problem_keys(&mut keys, &value).map_err(|e| e.to_string())?;
        let said = warnings
            .iter()
            .map(|w| {
                format!(
                    "{} {} {}",
                    w.kind.code(),
                    w.line.map_or("-".to_owned(), |l| l.to_string()),
                    w.message
                )
            })
            .collect();
        Ok((kind, said))
    }

    #[test]
    fn keys_of_every_kind() {
        use Version::*;
        // Metadata of the package's own version: nothing to say.
        let (kind, said) = judge(
            Legacy,
            "name: A\nsource: NWERC\nlicense: cc by-sa\nkeywords: graphs\nvalidation: custom\n",
        )
        .unwrap();
        assert!(kind.custom && !kind.interactive, "{kind:?}");
        assert_eq!(said, Vec::<String>::new());
        // 2023-07's keys in a legacy package: taken, with a warning each.
        let (kind, said) = judge(
            Legacy,
            "name: A\ntype: scoring\nuuid: 1\ncredits: Me\nlimits:\n  time_multipliers:\n    \
             time_limit_to_tle: 4\n  compilation_time: 90\n",
        )
        .unwrap();
        assert!(kind.scoring, "{kind:?}");
        assert_eq!(
            said,
            [
                "other_version 4 `credits` belongs to the 2023-07 and 2025-09 format, not to the legacy one: \
                 taken as it means there",
                "other_version 6 `limits.time_multipliers` belongs to the 2023-07 and 2025-09 format, not to \
                 the legacy one: taken as it means there",
                "not_applied 8 `limits.compilation_time` is not applied: compilers run under cpjudge's own \
                 limits (30 s of CPU, 2 GiB)",
            ]
        );
        // Legacy keys in a 2025-09 package, and keys of no version.
        let (kind, said) = judge(
            V2025,
            "problem_format_version: 2025-09\nvalidation: custom interactive\nsource_url: x\ncolour: red\n\
             languages: [cpp]\n",
        )
        .unwrap();
        assert!(kind.interactive && kind.custom, "{kind:?}");
        let kinds: Vec<&str> = said.iter().map(|s| s.split(' ').next().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "other_version",
                "other_version",
                "unknown_key",
                "not_applied"
            ],
            "{said:#?}"
        );
        assert!(said[2].contains("`colour`"), "{said:#?}");
    }

    #[test]
    fn multi_pass_is_read_in_either_version() {
        for (version, yaml, interactive) in [
            (
                Version::Legacy,
                "name: Hangman\nvalidation: custom multi-pass\nlimits:\n  validation_passes: 26\n",
                false,
            ),
            (
                Version::V2025,
                "name: A\ntype: [pass-fail, multi-pass]\nlimits:\n  validation_passes: 3\n",
                false,
            ),
            (
                Version::V2025,
                "name: A\ntype:\n  - interactive\n  - multi-pass\n",
                true,
            ),
        ] {
            let (kind, said) = judge(version, yaml).unwrap();
            // 2025-09's validator is custom by being there, not by a key.
            assert!(kind.multi_pass, "{yaml}: {kind:?}");
            assert_eq!(
                kind.custom,
                interactive || version == Version::Legacy,
                "{yaml}"
            );
            assert_eq!(kind.interactive, interactive, "{yaml}");
            assert_eq!(said, Vec::<String>::new(), "{yaml}");
        }
        // The passes of a problem that has but one are not applied, and that is said.
        let (kind, said) = judge(
            Version::V2025,
            "name: A\ntype: pass-fail\nlimits:\n  validation_passes: 3\n",
        )
        .unwrap();
        assert!(!kind.multi_pass);
        assert_eq!(
            said,
            [
                "not_applied 4 `limits.validation_passes` is not applied: it is for multi-pass problems alone"
            ]
        );
    }

    #[test]
    fn features_that_would_change_verdicts_are_refused_by_name() {
        for (version, yaml, line, said) in [
            (
                Version::V2025,
                "name: A\ntype: pass-fail submit-answer\n",
                2,
                "submit-answer problems (type submit-answer) are not supported yet",
            ),
            (
                Version::V2025,
                "name: A\ntype: passfail\n",
                2,
                "type \"passfail\" is none of",
            ),
            (
                Version::Legacy,
                "validation: custom score sometimes\n",
                1,
                "\"sometimes\" is none of",
            ),
        ] {
            let error = judge(version, yaml).unwrap_err();
            assert!(
                error.starts_with(&format!("p/problem.yaml:{line}:1: ")) && error.contains(said),
                "{yaml}: {error}"
            );
        }
    }
}
