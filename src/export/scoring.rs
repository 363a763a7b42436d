//! A problem with groups as a scoring package: where each test goes (`data/secret/<group>/`), and each group's
//! file, written so that the format's tools give every submission the score cpjudge gives it. In 2025-09 that is
//! `test_group.yaml` with the groups' own rules; the legacy default grader has no `require_pass`, so there each
//! group is all-or-nothing by `grader_flags: min` over its points, or its points shared among its tests, and the
//! requirements become `on_reject: break` where that says the same thing.

use super::Format;
use crate::error::{Error, Result};
use crate::problem::{Problem, Test};
use crate::scoring::{Aggregation, MaxScore, Rule};
use std::path::PathBuf;

/// A group as the package writes it.
struct Group<'a> {
    name: &'a str,
    /// Its folder below data/secret: the tools judge groups in the order of their folders' names, so where the
    /// names are not in the problem's order, each gets its number before it ("1-small").
    folder: String,
    points: f64,
    aggregation: Aggregation,
    requires: &'a [String],
}

/// The samples' group of our problems (see `problem::groups`).
const SAMPLES: &str = "samples";

/// Where each test goes below `data/` (by its index in `tests`; None: as a pass-fail problem's), and each group
/// file to write with its text, by its path below the package.
type Layout = (Vec<Option<PathBuf>>, Vec<(PathBuf, String)>);

/// The layout of a problem with groups; None for one without.
pub(super) fn layout(problem: &Problem, tests: &[Test], format: Format) -> Result<Option<Layout>> {
    let Some(grouping) = &problem.groups else {
        return Ok(None);
    };
    let fail = |why: String| Error::Usage(format!("{}: {why}", problem.config_path.display()));
    let (tree, ordered) = grouping.tree(tests).map_err(fail)?;
    let groups: Vec<Group> = grouping
        .root
        .children
        .iter()
        .filter(|g| g.name != SAMPLES)
        .filter_map(|g| match &g.rule {
            Rule::Modern {
                max: MaxScore::Bounded(points),
                aggregation,
                require_pass,
                ..
            } => Some(Group {
                name: &g.name,
                folder: String::new(),
                points: *points,
                aggregation: *aggregation,
                requires: require_pass,
            }),
            _ => None,
        })
        .collect();
    let mut groups = groups;
    let names: Vec<&str> = groups.iter().map(|g| g.name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    let width = groups.len().to_string().len();
    for (index, group) in groups.iter_mut().enumerate() {
        group.folder = if sorted == names {
            group.name.to_owned()
        } else {
            format!("{:0width$}-{}", index + 1, group.name)
        };
    }
    let folder_of = |name: &str| {
        groups
            .iter()
            .find(|g| g.name == name)
            .map_or_else(|| name.to_owned(), |g| g.folder.clone())
    };
    // Each secret test into its group's folder, below it as its name says (less the group's folder, if it is in
    // one already).
    let mut places = vec![None; tests.len()];
    let mut counts = Vec::new();
    for group in tree.groups().iter().skip(1) {
        if group.name == SAMPLES {
            continue;
        }
        let mine = group.tests();
        counts.push((group.name.clone(), mine.len()));
        for index in mine {
            let test = ordered[index];
            let original = tests
                .iter()
                .position(|t| t == test)
                .expect("a test of the list");
            let path = super::test_path(test);
            let below = path.strip_prefix(&group.name).unwrap_or(&path).to_owned();
            places[original] = Some(
                PathBuf::from("secret")
                    .join(folder_of(&group.name))
                    .join(below),
            );
        }
    }
    let count = |name: &str| {
        counts
            .iter()
            .find(|(n, _)| n == name)
            .map_or(1, |(_, c)| *c)
    };
    let total: f64 = groups.iter().map(|g| g.points).sum();
    let files = match format {
        Format::Legacy => legacy(&groups, total, &count).map_err(fail)?,
        Format::V2025_09 => modern(&groups, total, &folder_of),
    };
    Ok(Some((places, files)))
}

fn number(value: f64) -> String {
    format!("{value}")
}

/// The legacy default grader's files.
fn legacy(
    groups: &[Group],
    total: f64,
    count: &dyn Fn(&str) -> usize,
) -> Result<Vec<(PathBuf, String)>, String> {
    // `on_reject: break` over the samples stops the judging of data/ at a failed sample, and over secret at the
    // first failed group: exactly the requirements "every group requires the samples" and "every group requires
    // every group before it". Where every group or none requires them, the legacy files say the same.
    let needs_samples: Vec<bool> = groups
        .iter()
        .map(|g| g.requires.iter().any(|r| r == SAMPLES))
        .collect();
    let needs_earlier: Vec<bool> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            groups[..i]
                .iter()
                .all(|e| g.requires.iter().any(|r| r == e.name))
        })
        .collect();
    let no_earlier: Vec<bool> = groups
        .iter()
        .map(|g| g.requires.iter().all(|r| r == SAMPLES))
        .collect();
    let break_on_samples = needs_samples.iter().all(|&b| b);
    if !break_on_samples && needs_samples.iter().any(|&b| b) {
        return Err(
            "some groups require the samples and some do not, which the legacy format cannot say: \
                    export with --format 2025-09"
                .into(),
        );
    }
    let break_on_groups = groups.len() > 1 && needs_earlier.iter().all(|&b| b);
    if !break_on_groups && !no_earlier.iter().all(|&b| b) {
        return Err("a group requires some groups before it but not all, which the legacy format cannot say: \
                    export with --format 2025-09"
            .into());
    }
    let reject = |stop: bool| if stop { "break" } else { "continue" };
    let mut files = vec![
        (
            PathBuf::from("data/testdata.yaml"),
            format!(
                "on_reject: {}\ngrader_flags: sum\naccept_score: 0\nrange: 0 {}\n",
                reject(break_on_samples),
                number(total)
            ),
        ),
        (
            PathBuf::from("data/sample/testdata.yaml"),
            "on_reject: continue\ngrader_flags: sum\naccept_score: 0\nrange: 0 0\n".to_owned(),
        ),
        (
            PathBuf::from("data/secret/testdata.yaml"),
            format!(
                "on_reject: {}\ngrader_flags: sum\naccept_score: 0\nrange: 0 {}\n",
                reject(break_on_groups),
                number(total)
            ),
        ),
    ];
    for group in groups {
        let mut text = match group.aggregation {
            // The lowest of the tests' scores, each the group's points if accepted: the points or nothing.
            Aggregation::PassFail | Aggregation::Min => {
                format!(
                    "on_reject: break\ngrader_flags: min\naccept_score: {}\n",
                    number(group.points)
                )
            }
            Aggregation::Sum => format!(
                "on_reject: continue\ngrader_flags: sum\naccept_score: {}\n",
                number(group.points / count(group.name) as f64)
            ),
        };
        text.push_str(&format!("range: 0 {}\n", number(group.points)));
        files.push((
            PathBuf::from(format!("data/secret/{}/testdata.yaml", group.folder)),
            text,
        ));
    }
    Ok(files)
}

/// 2025-09's files: secret sums its groups' scores, each group has its own rules.
fn modern(
    groups: &[Group],
    total: f64,
    folder_of: &dyn Fn(&str) -> String,
) -> Vec<(PathBuf, String)> {
    let mut files = vec![(
        PathBuf::from("data/secret/test_group.yaml"),
        format!("max_score: {}\nscore_aggregation: sum\n", number(total)),
    )];
    for group in groups {
        let aggregation = match group.aggregation {
            Aggregation::PassFail => "pass-fail",
            Aggregation::Sum => "sum",
            Aggregation::Min => "min",
        };
        let mut text = format!(
            "max_score: {}\nscore_aggregation: {aggregation}\n",
            number(group.points)
        );
        if !group.requires.is_empty() {
            let names: Vec<String> = group
                .requires
                .iter()
                .map(|r| {
                    if r == SAMPLES {
                        "sample".to_owned()
                    } else {
                        format!("secret/{}", folder_of(r))
                    }
                })
                .collect();
            text.push_str(&format!("require_pass: [{}]\n", names.join(", ")));
        }
        files.push((
            PathBuf::from(format!("data/secret/{}/test_group.yaml", group.folder)),
            text,
        ));
    }
    files
}
