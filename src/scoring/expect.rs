//! What a solution is expected to do beyond one verdict: rules over all its tests or over some groups and tests
//! (2025-09's `submissions.yaml`: `permitted`, `required`, `score`, `message`; `problem.toml`'s expected score
//! and group verdicts), and the check of a judged solution against them.

use super::aggregate::{GroupResult, show};
use crate::judge::TestResult;
use crate::verdict::Verdict;

/// One rule a solution must keep.
#[derive(Debug, Clone)]
pub struct Expectation {
    /// Where it is written, to name it when broken ("submissions.yaml: wa/*, secret/hard").
    pub origin: String,
    pub scope: Scope,
    /// Every test in scope must get one of these.
    pub permitted: Option<Vec<Verdict>>,
    /// Some test in scope must get one of these.
    pub required: Option<Vec<Verdict>>,
    /// The score (of the solution, or of each group in scope) must be in this inclusive range.
    pub score: Option<(f64, f64)>,
    /// Some test in scope must have a judge message holding this.
    pub message: Option<String>,
    /// The verdict of each group in scope (its first failure's, AC if every test passed) must be one of these:
    /// `problem.toml`'s `groups = { small = "AC" }`.
    pub verdict: Option<Vec<Verdict>>,
}

/// The tests a rule is about.
#[derive(Debug, Clone)]
pub enum Scope {
    All,
    /// The tests and groups these globs match, by name: a test is in scope when it, or a group holding it, is
    /// matched. `*` stays within one folder; `{a,b}` is either.
    Matching {
        pattern: String,
        globs: globset::GlobSet,
    },
}

impl Scope {
    /// A scope of `pattern`, or why it is no glob.
    pub fn matching(pattern: &str) -> Result<Scope, String> {
        let glob = glob(pattern)?;
        let globs = globset::GlobSetBuilder::new()
            .add(glob)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Scope::Matching {
            pattern: pattern.to_owned(),
            globs,
        })
    }

    /// Whether the test or group `name` is in scope: it, or a group above it, is matched.
    pub fn holds(&self, name: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Matching { globs, .. } => and_above(name).any(|at| globs.is_match(at)),
        }
    }

    fn describe(&self) -> String {
        match self {
            Scope::All => "its tests".to_owned(),
            Scope::Matching { pattern, .. } => format!("tests matching {pattern}"),
        }
    }
}

/// `name` ("secret/a/1"), then each folder above it ("secret/a", "secret"): what a glob may match for it.
pub fn and_above(name: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(name), |at| at.rfind('/').map(|slash| &at[..slash]))
}

/// A glob of the format's kind: `*` within one folder, `{a,b}` either, white space around an alternative not part
/// of it (`{ 4 }` is `{4}`, as BAPCtools reads it), a trailing `/` not part of it.
pub fn glob(pattern: &str) -> Result<globset::Glob, String> {
    let mut normal = String::new();
    let mut in_braces = false;
    let mut alternative = String::new();
    for c in pattern.trim_end_matches('/').chars() {
        match c {
            '{' if !in_braces => {
                in_braces = true;
                normal.push(c);
            }
            ',' | '}' if in_braces => {
                normal.push_str(alternative.trim());
                alternative.clear();
                normal.push(c);
                in_braces = c == ',';
            }
            _ if in_braces => alternative.push(c),
            _ => normal.push(c),
        }
    }
    normal.push_str(&alternative);
    globset::GlobBuilder::new(&normal)
        .literal_separator(true)
        .build()
        .map_err(|e| e.to_string())
}

impl Expectation {
    /// Whether judging must run every test in scope to decide this rule: a rule about some tests' verdicts, a
    /// required verdict other than the first failure's, or a message.
    pub fn needs_every_test(&self) -> bool {
        let about_tests = self.permitted.is_some() || self.required.is_some();
        (about_tests && matches!(self.scope, Scope::Matching { .. }))
            || self.message.is_some()
            || self
                .required
                .as_ref()
                .is_some_and(|r| r.contains(&Verdict::Accepted))
    }

    /// Whether this rule is about the verdict or the score of group `name`, which judging must then decide as if the
    /// group were judged alone: to its first failure, whatever failed before it. A solution's whole score needs no
    /// more than the run plan gives.
    pub fn decides_group(&self, name: &str) -> bool {
        let of_groups = self.verdict.is_some()
            || (self.score.is_some() && matches!(self.scope, Scope::Matching { .. }));
        of_groups && self.scope.holds(name)
    }
}

/// What a judged solution shows of itself, for its rules.
pub struct Judged<'a> {
    pub tests: &'a [TestResult],
    /// The names of every test it was to run, run or not.
    pub all_tests: &'a [&'a str],
    pub groups: &'a [GroupResult],
    pub score: Option<f64>,
    /// Whether it compiled.
    pub compiled: bool,
}

/// Each rule of `rules` that `judged` breaks, as a sentence naming the rule and what happened.
pub fn broken(rules: &[Expectation], judged: &Judged) -> Vec<String> {
    rules
        .iter()
        .filter_map(|rule| check(rule, judged).err())
        .map(|why| why.to_string())
        .collect()
}

fn check(rule: &Expectation, judged: &Judged) -> Result<(), String> {
    let at = &rule.origin;
    let in_scope: Vec<&TestResult> = judged
        .tests
        .iter()
        .filter(|t| rule.scope.holds(&t.name))
        .collect();
    let not_run = judged
        .all_tests
        .iter()
        .filter(|name| rule.scope.holds(name))
        .count()
        .saturating_sub(in_scope.len());
    if !judged.compiled {
        // A solution that does not compile gets no test verdict: only a rule that permits CE holds.
        let permits_ce = rule
            .permitted
            .as_ref()
            .is_some_and(|p| p.contains(&Verdict::CompileError))
            || rule
                .required
                .as_ref()
                .is_some_and(|r| r.contains(&Verdict::CompileError));
        if permits_ce
            || (rule.permitted.is_none()
                && rule.required.is_none()
                && rule.score.is_none()
                && rule.message.is_none()
                && rule.verdict.is_none())
        {
            return Ok(());
        }
        return Err(format!("{at}: it did not compile"));
    }
    if let Some(permitted) = &rule.permitted
        && let Some(test) = in_scope.iter().find(|t| !permitted.contains(&t.verdict))
    {
        return Err(format!(
            "{at}: permitted [{}] on {}, but {} got {}",
            Verdict::codes(permitted),
            rule.scope.describe(),
            test.name,
            test.verdict
        ));
    }
    if let Some(required) = &rule.required
        && !in_scope.iter().any(|t| required.contains(&t.verdict))
    {
        let got: Vec<String> = {
            let mut seen: Vec<Verdict> = Vec::new();
            for test in &in_scope {
                if !seen.contains(&test.verdict) {
                    seen.push(test.verdict);
                }
            }
            seen.iter().map(|v| v.code().to_owned()).collect()
        };
        let unrun = if not_run > 0 {
            format!(" ({not_run} of them not run: judging stopped earlier)")
        } else {
            String::new()
        };
        return Err(format!(
            "{at}: required [{}] on {}, but they got {}{unrun}",
            Verdict::codes(required),
            rule.scope.describe(),
            if got.is_empty() {
                "no verdict".to_owned()
            } else {
                got.join(", ")
            }
        ));
    }
    if let Some((low, high)) = rule.score {
        let range = if low == high {
            show(low)
        } else {
            format!("[{}, {}]", show(low), show(high))
        };
        let inside = |score: f64| score >= low - 1e-9 && score <= high + 1e-9;
        match &rule.scope {
            Scope::All => match judged.score {
                Some(score) if inside(score) => {}
                Some(score) => {
                    return Err(format!(
                        "{at}: score {range}, but it scored {}",
                        show(score)
                    ));
                }
                None => {
                    return Err(format!(
                        "{at}: score {range}, but the problem is not scored"
                    ));
                }
            },
            Scope::Matching { globs, pattern } => {
                let groups: Vec<&GroupResult> = judged
                    .groups
                    .iter()
                    .filter(|g| globs.is_match(&g.name))
                    .collect();
                if groups.is_empty() {
                    return Err(format!(
                        "{at}: score {range} of group {pattern}, but no group is named so"
                    ));
                }
                if let Some(group) = groups.iter().find(|g| !inside(g.score)) {
                    return Err(format!(
                        "{at}: score {range} of group {}, but it scored {}",
                        group.name,
                        show(group.score)
                    ));
                }
            }
        }
    }
    if let Some(verdicts) = &rule.verdict {
        let groups: Vec<&GroupResult> = judged
            .groups
            .iter()
            .filter(|g| rule.scope.holds(&g.name))
            .collect();
        if groups.is_empty() {
            return Err(format!(
                "{at}: verdict [{}] of {}, but no group is in scope",
                Verdict::codes(verdicts),
                rule.scope.describe()
            ));
        }
        for group in groups {
            match group.verdict {
                Some(verdict) if verdicts.contains(&verdict) => {}
                Some(verdict) => {
                    return Err(format!(
                        "{at}: verdict [{}] of group {}, but it got {verdict}",
                        Verdict::codes(verdicts),
                        group.name
                    ));
                }
                None => {
                    return Err(format!(
                        "{at}: verdict [{}] of group {}, but none of its tests ran",
                        Verdict::codes(verdicts),
                        group.name
                    ));
                }
            }
        }
    }
    if let Some(message) = &rule.message
        && !in_scope
            .iter()
            .any(|t| t.message.contains(message.as_str()))
    {
        return Err(format!(
            "{at}: a judge message holding \"{message}\" on {}, but none did",
            rule.scope.describe()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn result(name: &str, verdict: Verdict, message: &str) -> TestResult {
        TestResult {
            name: name.into(),
            verdict,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            memory: crate::units::Bytes(0),
            message: message.into(),
            diff: None,
            input: std::path::Path::new("").into(),
            texts: None,
            dialogue: None,
            at_margin: None,
            validator_score: None,
            score: None,
            passes: 1,
            trace: None,
        }
    }

    fn rule(scope: Option<&str>) -> Expectation {
        Expectation {
            origin: "submissions.yaml: wa/odd.py".into(),
            scope: scope.map_or(Scope::All, |p| Scope::matching(p).unwrap()),
            permitted: None,
            required: None,
            score: None,
            message: None,
            verdict: None,
        }
    }

    #[test]
    fn globs_match_a_test_or_a_group_above_it_and_stay_within_a_folder() {
        let scope = Scope::matching("secret/*{1,3}").unwrap();
        assert!(scope.holds("secret/01"));
        assert!(scope.holds("secret/group3/7"));
        assert!(!scope.holds("secret/02"));
        assert!(!scope.holds("sample/1"));
        assert!(
            Scope::matching("secret/*{ 4 }{ 2 }")
                .unwrap()
                .holds("secret/42")
        );
        let star = Scope::matching("secret/*").unwrap();
        assert!(star.holds("secret/a/b"), "through the group secret/a");
        assert!(!Scope::matching("*/b").unwrap().holds("secret/a/b"));
    }

    #[test]
    fn each_kind_of_rule_names_itself_when_broken() {
        use Verdict::*;
        let tests = [
            result("sample/1", Accepted, ""),
            result("secret/hard/1", WrongAnswer, "expected 3, got 4"),
            result("secret/easy/1", Accepted, ""),
        ];
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        let groups = [GroupResult {
            name: "secret/hard".into(),
            verdict: Some(WrongAnswer),
            score: 0.0,
            max: Some(40.0),
            counted: true,
            note: None,
        }];
        let judged = Judged {
            tests: &tests,
            all_tests: &names,
            groups: &groups,
            score: Some(60.0),
            compiled: true,
        };
        let broken_by = |rule: Expectation| broken(&[rule], &judged);
        let permitted = Expectation {
            permitted: Some(vec![Accepted]),
            ..rule(Some("secret/*"))
        };
        assert_eq!(
            broken_by(permitted),
            [
                "submissions.yaml: wa/odd.py: permitted [AC] on tests matching secret/*, but secret/hard/1 got WA"
            ]
        );
        let fine = Expectation {
            permitted: Some(vec![Accepted]),
            ..rule(Some("secret/easy"))
        };
        assert!(broken_by(fine).is_empty());
        let required = Expectation {
            required: Some(vec![TimeLimit]),
            ..rule(Some("secret/hard"))
        };
        assert_eq!(
            broken_by(required),
            [
                "submissions.yaml: wa/odd.py: required [TLE] on tests matching secret/hard, but they got WA"
            ]
        );
        let score = Expectation {
            score: Some((70.0, 100.0)),
            ..rule(None)
        };
        assert_eq!(
            broken_by(score),
            ["submissions.yaml: wa/odd.py: score [70, 100], but it scored 60"]
        );
        let group_score = Expectation {
            score: Some((40.0, 40.0)),
            ..rule(Some("secret/hard"))
        };
        assert_eq!(
            broken_by(group_score),
            ["submissions.yaml: wa/odd.py: score 40 of group secret/hard, but it scored 0"]
        );
        let message = Expectation {
            message: Some("got 5".into()),
            ..rule(None)
        };
        assert!(broken_by(message)[0].contains("a judge message holding \"got 5\""));
        let said = Expectation {
            message: Some("got 4".into()),
            ..rule(None)
        };
        assert!(broken_by(said).is_empty());
        let verdict = Expectation {
            verdict: Some(vec![Accepted]),
            ..rule(Some("secret/hard"))
        };
        assert_eq!(
            broken_by(verdict),
            ["submissions.yaml: wa/odd.py: verdict [AC] of group secret/hard, but it got WA"]
        );
        let kept = Expectation {
            verdict: Some(vec![TimeLimit, WrongAnswer]),
            ..rule(Some("secret/hard"))
        };
        assert!(broken_by(kept).is_empty());
    }

    #[test]
    fn a_required_verdict_on_tests_not_run_says_so() {
        let tests = [result("secret/1", Verdict::WrongAnswer, "")];
        let names = ["secret/1", "secret/2"];
        let judged = Judged {
            tests: &tests,
            all_tests: &names,
            groups: &[],
            score: None,
            compiled: true,
        };
        let required = Expectation {
            required: Some(vec![Verdict::TimeLimit]),
            ..rule(None)
        };
        assert!(broken(&[required], &judged)[0].contains("1 of them not run"));
    }
}
