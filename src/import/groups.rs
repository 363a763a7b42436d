//! A scoring package's groups as problem.toml's `[[groups]]`, one level below the samples, each taking its folder.
//!
//! 2025-09's rules map one to one: `max_score` is `points`, `score_aggregation` is `scoring` (pass-fail is
//! "all"), `require_pass` is `requires`. The legacy default grader maps where it scores as ours does: a sum over
//! `data/` and `data/secret` of groups that are all-or-nothing (`grader_flags: min`, or a group of one test) or
//! shared among their tests (`sum` or `avg` with `on_reject: continue`), the samples worth nothing, `on_reject:
//! break` over the samples or over secret's groups as requirements; this is how `cpjudge export` writes groups. Any
//! other grouping is refused, at its file.

use super::below;
use crate::error::{Error, Result};
use crate::problem::{Comparison, Problem};
use crate::scoring::{
    Aggregation, GroupSpec, LegacyRule, MaxScore, OnReject, Rule, ScoreRule, VerdictRule,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The samples' group in problem.toml.
const SAMPLES: &str = "samples";

/// A group of problem.toml.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Group {
    pub name: String,
    /// The group as the package's loader names it, by its folder below data/ ("secret/1-small").
    pub folder: String,
    pub points: f64,
    pub scoring: Aggregation,
    /// The groups it requires, by name ("samples" for the samples).
    pub requires: Vec<String>,
}

/// The groups of a scoring package, in the order they are judged; None for a pass-fail package.
pub(super) fn groups(problem: &Problem, left_out: &mut Vec<String>) -> Result<Option<Vec<Group>>> {
    let Some(grouping) = &problem.groups else {
        return Ok(None);
    };
    let package = problem.package.as_ref().expect("a package");
    // How many tests each group holds itself, by its name.
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for test in &package.tests {
        let group = grouping
            .group_of(&test.name)
            .map_err(|why| Error::Usage(format!("{}: {why}", problem.dir.display())))?;
        if let Some(group) = group {
            *counts.entry(group.name.clone()).or_default() += 1;
        }
    }
    let found = Found {
        problem,
        counts,
        left_out,
    };
    let root = &grouping.root;
    let groups = match &root.rule {
        Rule::Modern { .. } => found.modern(root)?,
        Rule::Legacy(rule) => {
            if matches!(
                problem.comparison,
                Comparison::OutputValidator(_) | Comparison::Interactive { .. }
            ) {
                return Err(Error::Usage(format!(
                    "{}: a legacy scoring package whose output validator may give a test its own score \
                     (score.txt), which the legacy grader adds as it is and problem.toml's groups do not: not \
                     imported",
                    problem.config_path.display()
                )));
            }
            found.legacy(root, rule)?
        }
    };
    named(problem, groups).map(Some)
}

/// What is read to map the groups.
struct Found<'a> {
    problem: &'a Problem,
    counts: BTreeMap<String, usize>,
    left_out: &'a mut Vec<String>,
}

impl Found<'_> {
    /// The refusal of what group `name` says, at its file.
    fn refuse(&self, name: &str, why: impl std::fmt::Display) -> Error {
        Error::Usage(format!(
            "{}: {why}: not imported",
            below(self.problem, &group_file(self.problem, name))
        ))
    }

    fn tests_of(&self, name: &str) -> usize {
        self.counts.get(name).copied().unwrap_or(0)
    }

    /// `spec`'s child `name`, if the package has it.
    fn child<'s>(&self, spec: &'s GroupSpec, name: &str) -> Option<&'s GroupSpec> {
        spec.children.iter().find(|c| c.name == name)
    }

    /// The groups below data/secret, by name, the order they are judged in; a group holding a group is refused.
    fn secret_groups<'s>(&self, secret: &'s GroupSpec) -> Result<Vec<&'s GroupSpec>> {
        let mut children: Vec<&GroupSpec> = secret.children.iter().collect();
        children.sort_by(|a, b| natord::compare(&a.name, &b.name));
        for child in &children {
            if let Some(inner) = child.children.first() {
                return Err(self.refuse(
                    &inner.name,
                    format!(
                        "group {} lies in group {}, and problem.toml's groups are one level deep",
                        inner.name, child.name
                    ),
                ));
            }
        }
        Ok(children)
    }

    /// 2025-09's groups.
    fn modern(mut self, root: &GroupSpec) -> Result<Vec<Group>> {
        let Some(secret) = self.child(root, "secret") else {
            return Err(self.refuse("secret", "no secret tests"));
        };
        let Rule::Modern {
            max,
            aggregation,
            require_pass,
            ..
        } = &secret.rule
        else {
            return Err(self.refuse("secret", "secret's rules are of no known kind"));
        };
        if !require_pass.is_empty() {
            return Err(self.refuse(
                "secret",
                format!("secret requires {}", require_pass.join(", ")),
            ));
        }
        let MaxScore::Bounded(total) = *max else {
            return Err(self.refuse(
                "secret",
                "max_score unbounded, and each group of problem.toml is worth its points",
            ));
        };
        let direct = self.tests_of("secret");
        if secret.children.is_empty() {
            if direct == 0 {
                return Err(self.refuse("secret", "no secret tests"));
            }
            // Its tests one group, scored as secret is.
            return Ok(vec![Group {
                name: "secret".into(),
                folder: "secret".into(),
                points: total,
                scoring: *aggregation,
                requires: Vec::new(),
            }]);
        }
        if direct > 0 {
            return Err(self.refuse(
                "secret",
                format!("{direct} tests lie in data/secret beside its groups, and each test of problem.toml is in a group"),
            ));
        }
        if *aggregation != Aggregation::Sum {
            return Err(self.refuse(
                "secret",
                format!(
                    "score_aggregation {} over secret's groups, and problem.toml adds its groups' points",
                    aggregation_name(*aggregation)
                ),
            ));
        }
        let mut groups: Vec<Group> = Vec::new();
        for child in self.secret_groups(secret)? {
            let Rule::Modern {
                max,
                aggregation,
                require_pass,
                ..
            } = &child.rule
            else {
                return Err(self.refuse(&child.name, "its rules are of no known kind"));
            };
            let MaxScore::Bounded(points) = *max else {
                return Err(self.refuse(
                    &child.name,
                    format!(
                        "group {} has max_score unbounded, and each group of problem.toml is worth its points",
                        child.name
                    ),
                ));
            };
            let mut requires = Vec::new();
            for required in require_pass {
                if required == "sample" {
                    requires.push(SAMPLES.to_owned());
                } else if groups.iter().any(|g| &g.folder == required) {
                    requires.push(required.clone());
                } else {
                    return Err(self.refuse(
                        &child.name,
                        format!(
                            "group {} requires {required}, which is neither the samples nor a group of secret \
                             before it",
                            child.name
                        ),
                    ));
                }
            }
            groups.push(Group {
                name: String::new(),
                folder: child.name.clone(),
                points,
                scoring: *aggregation,
                requires,
            });
        }
        let groups = self.without_tests_left_out(groups)?;
        let sum: f64 = groups.iter().map(|g| g.points).sum();
        if (sum - total).abs() > 1e-9 {
            self.left_out.push(format!(
                "{}: max_score {} is not the sum of its groups' ({}); the problem's highest score is {}",
                below(self.problem, &group_file(self.problem, "secret")),
                super::number(total),
                super::number(sum),
                super::number(sum)
            ));
        }
        Ok(groups)
    }

    /// A group without tests is not judged, and counts for nothing: it is left out, unless another requires it.
    fn without_tests_left_out(&mut self, groups: Vec<Group>) -> Result<Vec<Group>> {
        let mut kept = Vec::new();
        for group in &groups {
            if self.tests_of(&group.folder) > 0 {
                kept.push(group.clone());
                continue;
            }
            if let Some(requiring) = groups.iter().find(|g| g.requires.contains(&group.folder)) {
                return Err(self.refuse(
                    &requiring.folder,
                    format!(
                        "group {} requires {}, which has no tests",
                        requiring.folder, group.folder
                    ),
                ));
            }
            self.left_out.push(format!(
                "data/{}/: a group without tests, which is not judged",
                group.folder
            ));
        }
        Ok(kept)
    }

    /// The legacy default grader's groups, where they score as problem.toml's do.
    fn legacy(self, root: &GroupSpec, rule: &LegacyRule) -> Result<Vec<Group>> {
        self.plain("", rule)?;
        if rule.scores != ScoreRule::Sum {
            return Err(self.refuse(
                "",
                format!(
                    "grader_flags {} over sample and secret, where problem.toml adds their scores",
                    score_rule_name(rule.scores)
                ),
            ));
        }
        // A rejected sample stops the judging of data/: every group requires the samples.
        let samples: Vec<String> = match rule.on_reject {
            OnReject::Break => vec![SAMPLES.to_owned()],
            OnReject::Continue => Vec::new(),
        };
        if let Some(sample) = self.child(root, "sample") {
            self.worth_nothing(sample)?;
        }
        let Some(secret) = self.child(root, "secret") else {
            return Err(self.refuse("secret", "no secret tests"));
        };
        let Rule::Legacy(secret_rule) = &secret.rule else {
            return Err(self.refuse("secret", "secret's rules are of no known kind"));
        };
        self.plain("secret", secret_rule)?;
        let direct = self.tests_of("secret");
        if secret.children.is_empty() {
            let (points, scoring) = self.leaf("secret", secret_rule, direct)?;
            return Ok(vec![Group {
                name: "secret".into(),
                folder: "secret".into(),
                points,
                scoring,
                requires: samples,
            }]);
        }
        if direct > 0 {
            return Err(self.refuse(
                "secret",
                format!("{direct} tests lie in data/secret beside its groups, and each test of problem.toml is in a group"),
            ));
        }
        if secret_rule.scores != ScoreRule::Sum {
            return Err(self.refuse(
                "secret",
                format!(
                    "grader_flags {} over secret's groups, where problem.toml adds their points",
                    score_rule_name(secret_rule.scores)
                ),
            ));
        }
        let mut groups: Vec<Group> = Vec::new();
        for child in self.secret_groups(secret)? {
            let Rule::Legacy(child_rule) = &child.rule else {
                return Err(self.refuse(&child.name, "its rules are of no known kind"));
            };
            let tests = self.tests_of(&child.name);
            if tests == 0 {
                self.left_out.push(format!(
                    "data/{}/: a group without tests, which is not judged",
                    child.name
                ));
                continue;
            }
            self.plain(&child.name, child_rule)?;
            let (points, scoring) = self.leaf(&child.name, child_rule, tests)?;
            let mut requires = samples.clone();
            // A rejected group stops the judging of secret: each group requires every one before it.
            if secret_rule.on_reject == OnReject::Break {
                for earlier in &groups {
                    if earlier.scoring != Aggregation::PassFail {
                        return Err(self.refuse(
                            "secret",
                            format!(
                                "on_reject: break makes {} count only when {} passed whole, which scores by \
                                 parts and so cannot be required in problem.toml",
                                child.name, earlier.folder
                            ),
                        ));
                    }
                    requires.push(earlier.folder.clone());
                }
            }
            groups.push(Group {
                name: String::new(),
                folder: child.name.clone(),
                points,
                scoring,
                requires,
            });
        }
        Ok(groups)
    }

    /// Refuses the grader flags that decide a verdict otherwise than by the tests' (problem.toml's groups pass
    /// when every test does).
    fn plain(&self, name: &str, rule: &LegacyRule) -> Result<()> {
        let flag = if rule.verdicts == VerdictRule::AlwaysAccept {
            "always_accept"
        } else if rule.accept_if_any_accepted {
            "accept_if_any_accepted"
        } else if rule.ignore_sample {
            "ignore_sample"
        } else {
            return Ok(());
        };
        Err(self.refuse(
            name,
            format!("grader_flags {flag}, which problem.toml's groups have no way to say"),
        ))
    }

    /// Refuses samples that count towards the score: problem.toml's never do.
    fn worth_nothing(&self, spec: &GroupSpec) -> Result<()> {
        let Rule::Legacy(rule) = &spec.rule else {
            return Ok(());
        };
        self.plain(&spec.name, rule)?;
        if rule.accept_score != 0.0 || rule.reject_score != 0.0 {
            return Err(self.refuse(
                &spec.name,
                format!(
                    "the samples count towards the score (accept_score {}, reject_score {}; 1 and 0 unless \
                     given), and problem.toml's samples never do",
                    super::number(rule.accept_score),
                    super::number(rule.reject_score)
                ),
            ));
        }
        spec.children.iter().try_for_each(|c| self.worth_nothing(c))
    }

    /// The points and scoring of a legacy group of `tests` tests.
    fn leaf(&self, name: &str, rule: &LegacyRule, tests: usize) -> Result<(f64, Aggregation)> {
        if rule.reject_score != 0.0 || rule.accept_score < 0.0 {
            return Err(self.refuse(
                name,
                format!(
                    "accept_score {} and reject_score {}, where problem.toml's tests are worth their share or \
                     nothing",
                    super::number(rule.accept_score),
                    super::number(rule.reject_score)
                ),
            ));
        }
        let accept = rule.accept_score;
        Ok(match (rule.scores, rule.on_reject) {
            // Its score or nothing.
            (ScoreRule::Min, _) => (accept, Aggregation::PassFail),
            (_, _) if tests == 1 => (accept, Aggregation::PassFail),
            (ScoreRule::Sum, OnReject::Continue) => (accept * tests as f64, Aggregation::Sum),
            (ScoreRule::Avg, OnReject::Continue) => (accept, Aggregation::Sum),
            (ScoreRule::Sum | ScoreRule::Avg, OnReject::Break) => {
                return Err(self.refuse(
                    name,
                    format!(
                        "on_reject: break with grader_flags {} counts the tests before the first rejected one, \
                         which no scoring of problem.toml does",
                        score_rule_name(rule.scores)
                    ),
                ));
            }
            (ScoreRule::Max, _) => {
                return Err(self.refuse(
                    name,
                    "grader_flags max: the best test's score, which no scoring of problem.toml gives",
                ));
            }
        })
    }
}

/// The groups with problem.toml's names: their folders' last part, less the numbers that keep them in order where
/// every folder has one ("1-small", "2-medium", as `cpjudge export` writes them); a name problem.toml cannot take is
/// refused.
fn named(problem: &Problem, mut groups: Vec<Group>) -> Result<Vec<Group>> {
    let last = |g: &Group| g.folder.rsplit('/').next().unwrap_or_default().to_owned();
    let unnumbered: Option<Vec<String>> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let name = last(g);
            let (number, rest) = name.split_once('-')?;
            (number.parse::<usize>().ok()? == i + 1 && !rest.is_empty()).then(|| rest.to_owned())
        })
        .collect();
    let names = unnumbered.unwrap_or_else(|| groups.iter().map(last).collect());
    let folders: BTreeMap<String, String> = groups
        .iter()
        .zip(&names)
        .map(|(g, n)| (g.folder.clone(), n.clone()))
        .collect();
    for (index, (group, name)) in groups.iter_mut().zip(&names).enumerate() {
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
        let why = if !plain {
            Some("a group of problem.toml is named with letters, digits, '-' and '_'")
        } else if name == SAMPLES {
            Some("\"samples\" names the samples' own group in problem.toml")
        } else if names[..index].contains(name) {
            Some("two groups would have this name")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Error::Usage(format!(
                "{}: group {name}: {why}: not imported",
                below(problem, &problem.dir.join("data").join(&group.folder))
            )));
        }
        group.name = name.clone();
        for required in &mut group.requires {
            if let Some(name) = folders.get(required) {
                *required = name.clone();
            }
        }
    }
    Ok(groups)
}

/// The file that gives group `name` (its folder below data/) its rules: its own, or its folder where it has none.
fn group_file(problem: &Problem, name: &str) -> PathBuf {
    let folder = problem.dir.join("data").join(name);
    ["test_group.yaml", "testdata.yaml"]
        .iter()
        .map(|file| folder.join(file))
        .find(|file| file.is_file())
        .unwrap_or(folder)
}

fn aggregation_name(aggregation: Aggregation) -> &'static str {
    match aggregation {
        Aggregation::PassFail => "pass-fail",
        Aggregation::Sum => "sum",
        Aggregation::Min => "min",
    }
}

fn score_rule_name(rule: ScoreRule) -> &'static str {
    match rule {
        ScoreRule::Sum => "sum",
        ScoreRule::Avg => "avg",
        ScoreRule::Min => "min",
        ScoreRule::Max => "max",
    }
}
