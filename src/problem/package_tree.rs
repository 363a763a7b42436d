//! A scoring package's groups and their rules, read from its group files: the legacy format's `testdata.yaml`
//! (every folder below `data/` a group, each key inherited from the folder above, as problemtools reads them)
//! or 2025-09's `test_group.yaml` (`data/secret` and the folders below it that have one).

use super::constants::Constants;
use super::package::{read_group_text, yaml_value};
use super::package_groups::group_file;
use super::yaml_keys::{Version, key_line};
use crate::error::{Error, Result};
use crate::scoring::{
    Aggregation, GroupSpec, Grouping, LegacyRule, MaxScore, OnReject, Rule, Takes,
};
use serde_json::{Map, Value};
use std::path::Path;

/// The keys that say a group file is written for 2025-09's rules (or the 2023-07 drafts' `scoring` map); a static
/// validation test case has a score under those rules alone.
const MODERN_KEYS: &[&str] = &[
    "max_score",
    "score_aggregation",
    "require_pass",
    "scoring",
    "static_validation_score",
];

/// The grouping of a scoring package in `dir`.
pub(super) fn grouping(dir: &Path, version: Version, constants: &Constants) -> Result<Grouping> {
    let data = dir.join("data");
    let mut files = Vec::new();
    folders(&data, &mut files);
    let mut modern = version == Version::V2025;
    for folder in &files {
        if let Some(file) = group_file(folder, version) {
            let map = read_map(&file, constants)?;
            modern |= MODERN_KEYS.iter().any(|k| map.contains_key(*k));
        }
    }
    let root = if modern {
        modern_root(dir, version, constants)?
    } else {
        legacy_group(&data, &data, version, constants, &LegacyRule::default())?
    };
    Ok(Grouping {
        root,
        by_name: true,
    })
}

/// `data/sample`, `data/secret` and every folder below them.
fn folders(data: &Path, out: &mut Vec<std::path::PathBuf>) {
    out.push(data.to_owned());
    for part in ["sample", "secret"] {
        for entry in walkdir::WalkDir::new(data.join(part))
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !super::package::hidden(e.path()))
            .flatten()
        {
            if entry.file_type().is_dir() {
                out.push(entry.into_path());
            }
        }
    }
}

fn read_map(file: &Path, constants: &Constants) -> Result<Map<String, Value>> {
    let text = read_group_text(file, constants)?;
    Ok(match yaml_value(file, &text)? {
        Value::Object(map) => map,
        _ => Map::new(),
    })
}

/// A group's name: its folder below `data/`, with `/` between folders.
fn name_of(data: &Path, folder: &Path) -> String {
    let below = folder.strip_prefix(data).unwrap_or(folder);
    below
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn folder_takes(name: &str) -> Takes {
    Takes::Folder(if name.is_empty() {
        String::new()
    } else {
        format!("{name}/")
    })
}

/// A legacy group and the folders below it, each taking what its own file gives over `inherited`.
fn legacy_group(
    data: &Path,
    folder: &Path,
    version: Version,
    constants: &Constants,
    inherited: &LegacyRule,
) -> Result<GroupSpec> {
    let mut rule = inherited.clone();
    if let Some(file) = group_file(folder, version) {
        let text = read_group_text(&file, constants)?;
        if let Value::Object(map) = yaml_value(&file, &text)? {
            read_legacy(&file, &text, &map, &mut rule)?;
        }
    }
    let name = name_of(data, folder);
    let mut children = Vec::new();
    let parts: &[&str] = if name.is_empty() {
        &["sample", "secret"]
    } else {
        &[]
    };
    let mut below: Vec<std::path::PathBuf> = if name.is_empty() {
        parts
            .iter()
            .map(|p| folder.join(p))
            .filter(|p| p.is_dir())
            .collect()
    } else {
        std::fs::read_dir(folder)
            .map_err(|e| Error::io("read", folder, e))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !super::package::hidden(p))
            .collect()
    };
    below.sort();
    for child in below {
        children.push(legacy_group(data, &child, version, constants, &rule)?);
    }
    Ok(GroupSpec {
        takes: folder_takes(&name),
        name,
        rule: Rule::Legacy(rule),
        children,
    })
}

/// The legacy keys of one group file over `rule`.
fn read_legacy(
    file: &Path,
    text: &str,
    map: &Map<String, Value>,
    rule: &mut LegacyRule,
) -> Result<()> {
    let bad = |key: &str, why: String| Error::Config {
        path: file.to_owned(),
        line: key_line(text, &[key]).unwrap_or(1),
        column: 1,
        message: format!("{key}: {why}"),
    };
    let number = |key: &str| -> Result<Option<f64>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| bad(key, format!("\"{s}\" is not a number"))),
            Some(other) => Err(bad(key, format!("{other} is not a number"))),
        }
    };
    if let Some(score) = number("accept_score")? {
        rule.accept_score = score;
    }
    if let Some(score) = number("reject_score")? {
        rule.reject_score = score;
    }
    if let Some(range) = map.get("range") {
        let text = match range {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let bounds: Vec<f64> = text
            .split_whitespace()
            .map(|w| w.parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad("range", format!("\"{text}\" is not two numbers")))?;
        let [low, high] = bounds[..] else {
            return Err(bad("range", format!("\"{text}\" is not two numbers")));
        };
        rule.range = (low, high);
    }
    if let Some(Value::String(on_reject)) = map.get("on_reject") {
        rule.on_reject = match on_reject.as_str() {
            "continue" => OnReject::Continue,
            _ => OnReject::Break,
        };
    }
    if let Some(flags) = map.get("grader_flags") {
        rule.take_grader_flags(flags.as_str().unwrap_or_default())
            .map_err(|flag| {
                bad(
                    "grader_flags",
                    format!("\"{flag}\" is no flag of the default grader"),
                )
            })?;
    }
    Ok(())
}

/// 2025-09's groups: the samples (pass-fail, not counted), `secret`, and each folder below it with a group file.
fn modern_root(dir: &Path, version: Version, constants: &Constants) -> Result<GroupSpec> {
    let data = dir.join("data");
    let secret = data.join("secret");
    let (secret_rule, secret_file) = modern_rule(&secret, version, constants, true)?;
    let mut groups = Vec::new();
    if secret.is_dir() {
        modern_groups(&data, &secret, version, constants, &mut groups)?;
    }
    let (secret_max, secret_aggregation) = match &secret_rule {
        Rule::Modern {
            max, aggregation, ..
        } => (*max, *aggregation),
        Rule::Legacy(_) => unreachable!(),
    };
    // The format's rules on how groups and secret agree, each named at the file that breaks it.
    let mut names = vec!["sample".to_owned()];
    for (group, file) in &groups {
        let Rule::Modern {
            max,
            aggregation,
            require_pass,
            ..
        } = &group.rule
        else {
            unreachable!()
        };
        let fail = |message: String| Error::Usage(format!("{}: {message}", file.display()));
        if *aggregation == Aggregation::PassFail && *max == MaxScore::Unbounded {
            return Err(fail(format!(
                "group {} is pass-fail and so needs a bounded max_score",
                group.name
            )));
        }
        if *max == MaxScore::Unbounded && secret_max != MaxScore::Unbounded {
            return Err(fail(format!(
                "group {} has an unbounded max_score, which only a secret whose max_score is unbounded allows \
                 (secret's is bounded{})",
                group.name,
                if secret_file.is_some() {
                    ""
                } else {
                    ": 100 by default"
                }
            )));
        }
        if secret_aggregation == Aggregation::PassFail && *aggregation != Aggregation::PassFail {
            return Err(fail(format!(
                "group {} must be pass-fail, as secret is",
                group.name
            )));
        }
        for required in require_pass {
            let earlier = names.contains(required);
            let pass_fail = required == "sample"
                || groups.iter().any(|(g, _)| {
                    &g.name == required
                        && matches!(
                            g.rule,
                            Rule::Modern {
                                aggregation: Aggregation::PassFail,
                                ..
                            }
                        )
                });
            if !earlier || !pass_fail {
                return Err(fail(format!(
                    "group {} requires {required}, which is not {}",
                    group.name,
                    if !earlier {
                        "a group before it (by name) or sample"
                    } else {
                        "pass-fail"
                    }
                )));
            }
        }
        names.push(group.name.clone());
    }
    let secret_group = GroupSpec {
        name: "secret".into(),
        rule: secret_rule,
        takes: folder_takes("secret"),
        children: nest(groups.into_iter().map(|(g, _)| g).collect()),
    };
    let sample = GroupSpec {
        name: "sample".into(),
        rule: Rule::Modern {
            max: MaxScore::Unbounded,
            aggregation: Aggregation::PassFail,
            require_pass: Vec::new(),
            counted: false,
        },
        takes: folder_takes("sample"),
        children: Vec::new(),
    };
    Ok(GroupSpec {
        name: String::new(),
        rule: Rule::Modern {
            max: secret_max,
            aggregation: Aggregation::Sum,
            require_pass: Vec::new(),
            counted: true,
        },
        takes: folder_takes(""),
        children: vec![sample, secret_group],
    })
}

/// Every folder below `folder` that has a group file, by name.
fn modern_groups(
    data: &Path,
    folder: &Path,
    version: Version,
    constants: &Constants,
    out: &mut Vec<(GroupSpec, std::path::PathBuf)>,
) -> Result<()> {
    let mut below: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| Error::io("read", folder, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !super::package::hidden(p))
        .collect();
    below.sort_by(|a, b| natord::compare(&a.to_string_lossy(), &b.to_string_lossy()));
    for child in below {
        if let (rule, Some(file)) = modern_rule(&child, version, constants, false)? {
            let name = name_of(data, &child);
            out.push((
                GroupSpec {
                    takes: folder_takes(&name),
                    name,
                    rule,
                    children: Vec::new(),
                },
                file,
            ));
        }
        modern_groups(data, &child, version, constants, out)?;
    }
    Ok(())
}

/// Puts each group under the nearest group whose folder holds it.
fn nest(groups: Vec<GroupSpec>) -> Vec<GroupSpec> {
    let mut top: Vec<GroupSpec> = Vec::new();
    for group in groups {
        insert(&mut top, group);
    }
    top
}

fn insert(siblings: &mut Vec<GroupSpec>, group: GroupSpec) {
    if let Some(parent) = siblings
        .iter_mut()
        .find(|s| group.name.starts_with(&format!("{}/", s.name)))
    {
        insert(&mut parent.children, group);
    } else {
        siblings.push(group);
    }
}

/// The rule of the group in `folder`, and its file if it has one.
fn modern_rule(
    folder: &Path,
    version: Version,
    constants: &Constants,
    secret: bool,
) -> Result<(Rule, Option<std::path::PathBuf>)> {
    let file = group_file(folder, version);
    let (map, text) = match &file {
        Some(file) => {
            let text = read_group_text(file, constants)?;
            match yaml_value(file, &text)? {
                Value::Object(map) => (map, text),
                _ => (Map::new(), text),
            }
        }
        None => (Map::new(), String::new()),
    };
    let path = file
        .clone()
        .unwrap_or_else(|| folder.join("test_group.yaml"));
    let bad = |key: &[&str], why: String| Error::Config {
        path: path.clone(),
        line: key_line(&text, key).unwrap_or(1),
        column: 1,
        message: why,
    };
    // The 2023-07 drafts' `scoring: {score, aggregation}` says the same as max_score and score_aggregation.
    let draft = map.get("scoring").and_then(Value::as_object);
    let max_value = map
        .get("max_score")
        .or_else(|| draft.and_then(|d| d.get("score")));
    let aggregation_value = map
        .get("score_aggregation")
        .or_else(|| draft.and_then(|d| d.get("aggregation")));
    let max = match max_value {
        None | Some(Value::Null) if secret => MaxScore::Bounded(100.0),
        None | Some(Value::Null) => MaxScore::Unbounded,
        Some(Value::String(s)) if s == "unbounded" => MaxScore::Unbounded,
        Some(Value::Number(n)) if n.as_f64().is_some_and(|v| v >= 0.0 && v.is_finite()) => {
            MaxScore::Bounded(n.as_f64().unwrap_or_default())
        }
        Some(other) => {
            return Err(bad(
                &["max_score"],
                format!("max_score {other} is neither a non-negative number nor unbounded"),
            ));
        }
    };
    let aggregation = match aggregation_value.and_then(Value::as_str) {
        None if secret => Aggregation::Sum,
        None => Aggregation::PassFail,
        Some("pass-fail") => Aggregation::PassFail,
        Some("sum") => Aggregation::Sum,
        Some("min") => Aggregation::Min,
        Some(other) => {
            return Err(bad(
                &["score_aggregation"],
                format!("score_aggregation \"{other}\" is none of pass-fail, sum, min"),
            ));
        }
    };
    let require_pass = match map.get("require_pass") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad(&["require_pass"], "require_pass lists group names".into()))?,
        Some(other) => {
            return Err(bad(
                &["require_pass"],
                format!("require_pass {other} is neither a group's name nor a list of them"),
            ));
        }
    };
    Ok((
        Rule::Modern {
            max,
            aggregation,
            require_pass,
            counted: true,
        },
        file,
    ))
}
