//! 2025-09's `submissions/submissions.yaml`: globs over the submissions, each with rules on their verdicts
//! (`permitted`, `required`), score and judge message, over all tests or over groups and tests by glob; and the
//! default folders' rules, which an entry named exactly like the folder overrides key by key.

use super::package::{read_yaml_text, yaml_value};
use super::yaml_keys::key_line;
use crate::error::{Error, Result};
use crate::scoring::{Expectation, Scope};
use crate::verdict::Verdict;
use serde_json::{Map, Value};
use std::path::Path;

/// The keys of a rule.
const RULE_KEYS: &[&str] = &[
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];
/// The keys of an entry that say something else of its submissions.
const OTHER_KEYS: &[&str] = &["language", "entrypoint", "authors", "model_solution"];

/// The rules the format gives its folders, as (folder, permitted, required).
const DEFAULTS: &[(&str, &[&str], &[&str])] = &[
    ("accepted", &["AC"], &[]),
    ("rejected", &[], &["RTE", "TLE", "WA"]),
    ("wrong_answer", &["AC", "WA"], &["WA"]),
    ("time_limit_exceeded", &["AC", "TLE"], &["TLE"]),
    ("run_time_error", &["AC", "RTE"], &["RTE"]),
    ("brute_force", &["AC", "RTE", "TLE"], &["RTE", "TLE"]),
];

/// The file, read.
#[derive(Debug, Default)]
pub(super) struct SubmissionsYaml {
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    /// Its glob over submissions, as written.
    glob: String,
    matcher: globset::GlobMatcher,
    /// Its rules: over all tests (scope None), then per glob of tests.
    rules: Vec<(Option<String>, Map<String, Value>)>,
    entrypoint: Option<String>,
}

/// What the file says of one submission.
#[derive(Debug, Default)]
pub(super) struct Said {
    pub expectations: Vec<Expectation>,
    /// The verdicts it may end with, for the table and the time limit: the permitted set over all its tests.
    pub expected: Vec<Verdict>,
    pub entrypoint: Option<String>,
}

impl SubmissionsYaml {
    /// Reads `dir/submissions/submissions.yaml`, or nothing where there is none.
    pub fn read(dir: &Path) -> Result<SubmissionsYaml> {
        let path = dir.join("submissions").join("submissions.yaml");
        if !path.is_file() {
            return Ok(SubmissionsYaml::default());
        }
        let text = read_yaml_text(&path)?;
        let Value::Object(globs) = yaml_value(&path, &text)? else {
            return Ok(SubmissionsYaml::default());
        };
        let mut entries = Vec::new();
        for (glob, entry) in globs {
            let bad = |at: &[&str], why: String| Error::Config {
                path: path.clone(),
                line: key_line(&text, at).unwrap_or(1),
                column: 1,
                message: why,
            };
            let matcher = glob_of(&glob).map_err(|why| bad(&[&glob], format!("{glob}: {why}")))?;
            let map = match entry {
                Value::Object(map) => map,
                Value::Null => Map::new(),
                other => {
                    return Err(bad(
                        &[&glob],
                        format!("{glob}: {other} is not a map of keys"),
                    ));
                }
            };
            let mut own = Map::new();
            let mut rules = Vec::new();
            let mut entrypoint = None;
            for (key, value) in map {
                if RULE_KEYS.contains(&key.as_str()) {
                    own.insert(key, value);
                } else if key == "entrypoint" {
                    entrypoint = value.as_str().map(str::to_owned);
                } else if OTHER_KEYS.contains(&key.as_str()) {
                } else if let Value::Object(group) = value {
                    check_rule(&group)
                        .map_err(|why| bad(&[&glob, &key], format!("{glob}, {key}: {why}")))?;
                    Scope::matching(&key)
                        .map_err(|why| bad(&[&glob, &key], format!("{key}: {why}")))?;
                    rules.push((Some(key), group));
                } else {
                    return Err(bad(
                        &[&glob, &key],
                        format!("{glob}: `{key}` is no key of submissions.yaml"),
                    ));
                }
            }
            check_rule(&own).map_err(|why| bad(&[&glob], format!("{glob}: {why}")))?;
            rules.insert(0, (None, own));
            entries.push(Entry {
                glob,
                matcher,
                rules,
                entrypoint,
            });
        }
        Ok(SubmissionsYaml { entries })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the file, and the default folders' rules, say of the submission at `path` below `submissions/`;
    /// None when nothing does.
    pub fn said(&self, path: &str) -> Option<Said> {
        let mut said = Said::default();
        let folder = path.split('/').next().unwrap_or_default();
        // The default folder's rule, each key replaced by an entry named exactly like the folder.
        if let Some((_, permitted, required)) = DEFAULTS.iter().find(|d| d.0 == folder) {
            let mut rule = Map::new();
            if !permitted.is_empty() {
                rule.insert("permitted".into(), Value::from(permitted.to_vec()));
            }
            if !required.is_empty() {
                rule.insert("required".into(), Value::from(required.to_vec()));
            }
            if let Some(own) = self.entries.iter().find(|e| e.glob == folder) {
                for (key, value) in &own.rules[0].1 {
                    rule.insert(key.clone(), value.clone());
                }
            }
            said.expectations.extend(expectation(
                &format!("submissions.yaml: {folder}"),
                None,
                &rule,
            ));
        }
        let mut matched = false;
        for entry in &self.entries {
            // A submission is matched when its path, or a folder above it, is.
            if !crate::scoring::and_above(path).any(|at| entry.matcher.is_match(at)) {
                continue;
            }
            matched = true;
            if entry.entrypoint.is_some() {
                said.entrypoint = entry.entrypoint.clone();
            }
            for (index, (scope, rule)) in entry.rules.iter().enumerate() {
                // The folder's own entry was taken above, as its default's override.
                if index == 0 && entry.glob == folder && DEFAULTS.iter().any(|d| d.0 == folder) {
                    continue;
                }
                let origin = match scope {
                    Some(scope) => format!("submissions.yaml: {}, {scope}", entry.glob),
                    None => format!("submissions.yaml: {}", entry.glob),
                };
                said.expectations
                    .extend(expectation(&origin, scope.as_deref(), rule));
            }
        }
        if said.expectations.is_empty() && !matched {
            return None;
        }
        let mut expected = Verdict::OF_A_RUN.to_vec();
        for rule in said
            .expectations
            .iter()
            .filter(|e| matches!(e.scope, Scope::All))
        {
            if let Some(permitted) = &rule.permitted {
                expected.retain(|v| permitted.contains(v));
            }
        }
        said.expected = expected;
        Some(said)
    }
}

fn glob_of(pattern: &str) -> std::result::Result<globset::GlobMatcher, String> {
    crate::scoring::glob(pattern).map(|g| g.compile_matcher())
}

/// Refuses a rule's malformed keys.
fn check_rule(rule: &Map<String, Value>) -> std::result::Result<(), String> {
    for key in ["permitted", "required"] {
        if let Some(value) = rule.get(key) {
            verdicts(value).map_err(|why| format!("{key}: {why}"))?;
        }
    }
    if let Some(score) = rule.get("score") {
        range(score).map_err(|why| format!("score: {why}"))?;
    }
    for key in rule.keys() {
        if !RULE_KEYS.contains(&key.as_str()) {
            return Err(format!("`{key}` is no key of a rule"));
        }
    }
    Ok(())
}

/// The format's verdict names as the judge's verdicts: RTE is any run that failed on its own (a crash, or memory
/// or output over the limit).
fn verdicts(value: &Value) -> std::result::Result<Vec<Verdict>, String> {
    let names: Vec<&str> = match value {
        Value::String(one) => vec![one.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        other => return Err(format!("{other} is not a list of verdicts")),
    };
    let mut out = Vec::new();
    for name in names {
        match name {
            "AC" => out.push(Verdict::Accepted),
            "WA" => out.push(Verdict::WrongAnswer),
            // The format has no verdict for output over the limit: a judge that cuts the output off at the limit
            // sees the run go on to TLE, one that stops it sees a failed run. Either holds.
            "TLE" => out.extend([Verdict::TimeLimit, Verdict::OutputLimit]),
            "RTE" => out.extend([
                Verdict::RuntimeError,
                Verdict::MemoryLimit,
                Verdict::OutputLimit,
            ]),
            other => return Err(format!("\"{other}\" is none of AC, WA, TLE, RTE")),
        }
    }
    Ok(out)
}

fn range(value: &Value) -> std::result::Result<(f64, f64), String> {
    match value {
        Value::Number(n) => n
            .as_f64()
            .map(|v| (v, v))
            .ok_or_else(|| "not a number".to_owned()),
        Value::Array(pair) if pair.len() == 2 => match (pair[0].as_f64(), pair[1].as_f64()) {
            (Some(low), Some(high)) if low <= high => Ok((low, high)),
            _ => Err("a range is two numbers, the lower first".to_owned()),
        },
        other => Err(format!("{other} is neither a number nor a range of two")),
    }
}

/// The rule `map` over `scope` (None: all tests); none where it says nothing of a verdict, score or message.
fn expectation(origin: &str, scope: Option<&str>, map: &Map<String, Value>) -> Option<Expectation> {
    let mut rule = Expectation {
        origin: origin.to_owned(),
        scope: match scope {
            None => Scope::All,
            Some(pattern) => Scope::matching(pattern).ok()?,
        },
        permitted: map.get("permitted").and_then(|v| verdicts(v).ok()),
        required: map.get("required").and_then(|v| verdicts(v).ok()),
        score: map.get("score").and_then(|v| range(v).ok()),
        message: map
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_owned),
        verdict: None,
    };
    // `use_for_time_limit: lower` is a permitted [AC, WA, RTE]; `upper` a required [TLE].
    match map.get("use_for_time_limit").and_then(Value::as_str) {
        Some("lower") if rule.permitted.is_none() => {
            rule.permitted = verdicts(&Value::from(vec!["AC", "WA", "RTE"])).ok();
        }
        Some("upper") if rule.required.is_none() => rule.required = Some(vec![Verdict::TimeLimit]),
        _ => {}
    }
    let says = rule.permitted.is_some()
        || rule.required.is_some()
        || rule.score.is_some()
        || rule.message.is_some();
    says.then_some(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> SubmissionsYaml {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("submissions")).unwrap();
        std::fs::write(dir.path().join("submissions/submissions.yaml"), yaml).unwrap();
        SubmissionsYaml::read(dir.path()).unwrap()
    }

    fn origins(said: &Said) -> Vec<String> {
        said.expectations.iter().map(|e| e.origin.clone()).collect()
    }

    #[test]
    fn globs_defaults_and_overrides() {
        let file = read(
            "accepted:\n  permitted: [WA]\n  required: [WA]\nwa/*.py:\n  permitted: [AC, WA]\nwa/odd.py:\n  \
             secret/*{1,3}:\n    required: [AC]\n\"*/nested.py\":\n  required: [WA]\n",
        );
        let accepted = file.said("accepted/x.py").unwrap();
        assert_eq!(accepted.expected, [Verdict::WrongAnswer]);
        assert_eq!(
            accepted.expectations.len(),
            1,
            "the override replaces the default"
        );
        assert_eq!(
            accepted.expectations[0].permitted,
            Some(vec![Verdict::WrongAnswer])
        );
        let odd = file.said("wa/odd.py").unwrap();
        assert_eq!(
            origins(&odd),
            [
                "submissions.yaml: wa/*.py",
                "submissions.yaml: wa/odd.py, secret/*{1,3}"
            ]
        );
        // `*` stays within a folder; an unmatched submission outside the default folders has no rules.
        assert!(file.said("x/y/nested.py").is_none());
        assert!(file.said("x/nested.py").is_some());
        let slow = file.said("time_limit_exceeded/a.cpp").unwrap();
        assert_eq!(
            slow.expectations[0].required,
            Some(vec![Verdict::TimeLimit, Verdict::OutputLimit])
        );
    }

    #[test]
    fn malformed_rules_are_named_at_their_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("submissions")).unwrap();
        let path = dir.path().join("submissions/submissions.yaml");
        std::fs::write(&path, "wa:\n  permitted: [AC, OK]\n").unwrap();
        let error = SubmissionsYaml::read(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains(":1:") && error.contains("\"OK\" is none of AC, WA, TLE, RTE"),
            "{error}"
        );
        std::fs::write(&path, "wa:\n  score: [5, 1]\n").unwrap();
        assert!(
            SubmissionsYaml::read(dir.path())
                .unwrap_err()
                .to_string()
                .contains("the lower first")
        );
    }
}
