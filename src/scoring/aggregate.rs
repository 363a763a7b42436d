//! From test results to group results and a score, exactly as each family of rules says: 2025-09's result
//! aggregation (`max_score`, `score_aggregation`, `require_pass`, `score.txt` and `score_multiplier.txt`), and
//! the legacy default grader's (`accept_score`, `reject_score`, `grader_flags`, `on_reject`), as problemtools
//! runs it.

use super::tree::{
    Aggregation, Child, Group, LegacyRule, MaxScore, Rule, ScoreRule, StaticScore, Tree,
    VerdictRule,
};
use crate::check::ValidatorScore;
use crate::verdict::Verdict;

/// What aggregation needs of one test's result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestScore {
    pub verdict: Verdict,
    /// What the output validator wrote in its feedback folder, if anything.
    pub validator: Option<ValidatorScore>,
}

/// A solution's result as the tree decides it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The solution's score: None for a pass-fail problem.
    pub score: Option<f64>,
    /// The problem's highest score, where bounded.
    pub max: Option<f64>,
    /// Where the tree's rules decide the solution's verdict (the legacy grader's at the root), that verdict.
    pub verdict: Option<Verdict>,
    /// Every group but the root, parents before children.
    pub groups: Vec<GroupResult>,
    /// Each test's score, where it has one; none listed for an unscored tree's (a pass-fail problem's).
    pub tests: Vec<Option<f64>>,
    /// Tests whose validator broke a scoring rule: the test becomes a judge error, for this reason.
    pub judge_errors: Vec<(usize, String)>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupResult {
    pub name: String,
    /// None when none of its tests ran.
    pub verdict: Option<Verdict>,
    pub score: f64,
    /// Its highest score, where bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Whether its score counts towards the solution's (the samples' does not).
    pub counted: bool,
    /// Why it was not run, or what is wrong with its score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Scored {
    /// What an unscored tree (a pass-fail problem's) decides: nothing, whatever its tests' results, and nothing is
    /// listed for each test: a judge of many tests scores them while it holds them.
    pub fn unscored() -> Scored {
        Scored {
            score: None,
            max: None,
            verdict: None,
            groups: Vec::new(),
            tests: Vec::new(),
            judge_errors: Vec::new(),
        }
    }
}

/// Aggregates `results` (by test number; None where not run) over `tree`.
pub fn aggregate(tree: &Tree, results: &[Option<TestScore>]) -> Scored {
    if !tree.scored {
        return Scored::unscored();
    }
    let mut out = Scored {
        tests: vec![None; results.len()],
        ..Scored::unscored()
    };
    match &tree.root.rule {
        Rule::Legacy(_) => {
            let root = legacy(&tree.root, results, &mut out, true);
            if let Some((verdict, score)) = root {
                out.verdict = Some(verdict);
                out.score = Some(score);
            }
        }
        Rule::Modern { max, .. } => {
            let mut passed = Vec::new();
            let score = modern(&tree.root, results, &mut out, &mut passed, true);
            out.score = Some(score.score);
            out.max = match max {
                MaxScore::Bounded(m) => Some(*m),
                MaxScore::Unbounded => None,
            };
        }
    }
    out
}

/// A group's verdict and score under 2025-09's rules.
struct Modern {
    score: f64,
    /// Every test ran and was accepted.
    passed: bool,
}

fn modern(
    group: &Group,
    results: &[Option<TestScore>],
    out: &mut Scored,
    passed_groups: &mut Vec<(String, bool)>,
    root: bool,
) -> Modern {
    let Rule::Modern {
        max,
        aggregation,
        require_pass,
        counted,
    } = &group.rule
    else {
        unreachable!("a 2025-09 tree holds only 2025-09 groups")
    };
    let tests = group.tests();
    let first_failure = tests
        .iter()
        .filter_map(|&t| results[t].map(|r| r.verdict))
        .find(|v| !v.is_accepted());
    let all_ran = tests.iter().all(|&t| results[t].is_some());
    let ran = tests.iter().any(|&t| results[t].is_some());
    let bound = match max {
        MaxScore::Bounded(m) => Some(*m),
        MaxScore::Unbounded => None,
    };
    let slot = out.groups.len();
    if !root {
        out.groups.push(GroupResult {
            name: group.name.clone(),
            verdict: ran.then(|| first_failure.unwrap_or(Verdict::Accepted)),
            score: 0.0,
            max: bound,
            counted: *counted,
            note: None,
        });
    }
    let unmet: Vec<&String> = require_pass
        .iter()
        .filter(|name| {
            !passed_groups
                .iter()
                .any(|(passed, ok)| passed == *name && *ok)
        })
        .collect();
    let mut result = Modern {
        score: 0.0,
        passed: first_failure.is_none() && all_ran && unmet.is_empty(),
    };
    if !unmet.is_empty() {
        // Not run: its score is 0 and its tests count as not accepted.
        let names: Vec<&str> = unmet.iter().map(|s| s.as_str()).collect();
        if !root {
            out.groups[slot].note = Some(format!("not scored: {} did not pass", names.join(", ")));
        }
        passed_groups.push((group.name.clone(), false));
        return result;
    }
    // Each test directly in the group is worth its share of the group's score; its static validation test case,
    // where it has one worth points, is worth those, and the other tests share the rest: (max_score -
    // static_validation_score) / N, N counting the tests alone.
    let direct = group
        .children()
        .filter(|child| matches!(child, Child::Test(_)))
        .count();
    let static_points = group
        .children()
        .find_map(|child| match child {
            Child::Static {
                score: StaticScore::Points(points),
                ..
            } => Some(points as f64),
            _ => None,
        })
        .unwrap_or(0.0);
    let test_max = bound.map(|m| match aggregation {
        Aggregation::Sum => (m - static_points).max(0.0) / direct.max(1) as f64,
        _ => m,
    });
    let mut scores = Vec::new();
    for child in group.children() {
        match child {
            Child::Test(t) => {
                let score = test_score(t, results[t], *aggregation, test_max, OUTPUT, out);
                out.tests[t] = score;
                scores.push(score.unwrap_or(0.0));
            }
            Child::Static { test, score } => {
                let max = match score {
                    StaticScore::Points(points) => Some(points as f64),
                    // Only in a pass-fail group, where no test has a score of its own.
                    StaticScore::PassFail => test_max,
                };
                let score = test_score(test, results[test], *aggregation, max, STATIC, out);
                out.tests[test] = score;
                scores.push(score.unwrap_or(0.0));
            }
            Child::Group(child) => {
                let child = modern(child, results, out, passed_groups, false);
                scores.push(child.score);
            }
        }
    }
    let counted_scores = || {
        group
            .children()
            .zip(&scores)
            .filter_map(|(child, s)| match child {
                Child::Group(g) if !matches!(g.rule, Rule::Modern { counted: false, .. }) => {
                    Some(*s)
                }
                Child::Group(_) => None,
                Child::Test(_) | Child::Static { .. } => Some(*s),
            })
    };
    result.score = match aggregation {
        Aggregation::PassFail => {
            if result.passed {
                bound.unwrap_or(0.0)
            } else {
                0.0
            }
        }
        Aggregation::Sum => counted_scores().sum(),
        Aggregation::Min => counted_scores()
            .fold(f64::INFINITY, f64::min)
            .min(bound.unwrap_or(f64::INFINITY)),
    };
    if !result.score.is_finite() {
        result.score = 0.0;
    }
    if let Some(m) = bound
        && result.score > m + 1e-9
        && !root
    {
        out.groups[slot].note = Some(format!(
            "its score {} is over its max_score {m}",
            show(result.score)
        ));
    }
    if !root {
        out.groups[slot].score = result.score;
    }
    passed_groups.push((group.name.clone(), result.passed));
    result
}

/// Who judged a test, in a judge error about what it wrote.
const OUTPUT: &str = "output validator";
const STATIC: &str = "static validator";

/// A test's score in a group that aggregates by `aggregation`, where it is worth `max` (None: unbounded); a score
/// that `who` (the output or static validator) wrote against the rules makes the test a judge error.
fn test_score(
    test: usize,
    result: Option<TestScore>,
    aggregation: Aggregation,
    max: Option<f64>,
    who: &str,
    out: &mut Scored,
) -> Option<f64> {
    let result = result?;
    let mut error = |why: String| {
        out.judge_errors.push((test, why));
        Some(0.0)
    };
    if aggregation == Aggregation::PassFail {
        if result.validator.is_some() {
            return error(format!(
                "the {who} wrote a score for a test of a pass-fail group"
            ));
        }
        return None;
    }
    if !result.verdict.is_accepted() {
        if result.validator.is_some() {
            return error(format!("the {who} rejected the test but wrote a score"));
        }
        return Some(0.0);
    }
    match (result.validator, max) {
        (None, Some(max)) => Some(max),
        (None, None) => error(format!(
            "the {who} accepted a test of an unbounded group without writing score.txt"
        )),
        (Some(ValidatorScore::Multiplier(_)), None) => error(format!(
            "the {who} wrote score_multiplier.txt for a test of an unbounded group"
        )),
        (Some(ValidatorScore::Multiplier(m)), Some(max)) => Some(m * max),
        (Some(ValidatorScore::Score(s)), Some(max)) if s > max + 1e-9 => error(format!(
            "the {who}'s score {} is over the test's maximum {}",
            show(s),
            show(max)
        )),
        (Some(ValidatorScore::Score(s)), _) => Some(s),
    }
}

/// A legacy group's verdict and score, None when none of it ran; its children after a rejected one are left out
/// where it breaks.
fn legacy(
    group: &Group,
    results: &[Option<TestScore>],
    out: &mut Scored,
    root: bool,
) -> Option<(Verdict, f64)> {
    let Rule::Legacy(rule) = &group.rule else {
        unreachable!("a legacy tree holds only legacy groups")
    };
    let slot = out.groups.len();
    if !root {
        out.groups.push(GroupResult {
            name: group.name.clone(),
            verdict: None,
            score: 0.0,
            max: None,
            counted: true,
            note: None,
        });
    }
    let mut children: Vec<(Verdict, f64)> = Vec::new();
    for child in group.children() {
        let child = match child {
            Child::Test(t) | Child::Static { test: t, .. } => results[t].map(|r| {
                let score = match (r.verdict.is_accepted(), r.validator) {
                    (true, Some(ValidatorScore::Score(s))) => s,
                    (true, _) => rule.accept_score,
                    (false, _) => rule.reject_score,
                };
                out.tests[t] = Some(score);
                (r.verdict, score)
            }),
            Child::Group(child) => legacy(child, results, out, false),
        };
        let Some(child) = child else { continue };
        children.push(child);
        if !child.0.is_accepted() && rule.on_reject == super::tree::OnReject::Break {
            break;
        }
    }
    if children.is_empty() {
        return None;
    }
    let (verdict, score) = grade(rule, &children);
    if !root {
        let result = &mut out.groups[slot];
        result.verdict = Some(verdict);
        result.score = score;
        result.max = rule.range.1.is_finite().then_some(rule.range.1);
        if score < rule.range.0 || score > rule.range.1 {
            result.note = Some(format!(
                "its score {} is outside its range {} {}",
                show(score),
                show(rule.range.0),
                show(rule.range.1)
            ));
        }
    } else if rule.range.1.is_finite() {
        out.max = Some(rule.range.1);
    }
    Some((verdict, score))
}

/// The default grader on a group's children's results.
fn grade(rule: &LegacyRule, children: &[(Verdict, f64)]) -> (Verdict, f64) {
    if let Some(error) = children.iter().find(|c| c.0 == Verdict::JudgeError) {
        return *error;
    }
    // ignore_sample: the group's result is its last child's (the samples come first, then the secret tests).
    let children = if rule.ignore_sample {
        &children[children.len() - 1..]
    } else {
        children
    };
    let verdict = if rule.accept_if_any_accepted && children.iter().any(|c| c.0.is_accepted()) {
        Verdict::Accepted
    } else {
        match rule.verdicts {
            VerdictRule::AlwaysAccept => Verdict::Accepted,
            VerdictRule::FirstError => children
                .iter()
                .map(|c| c.0)
                .find(|v| !v.is_accepted())
                .unwrap_or(Verdict::Accepted),
            VerdictRule::WorstError => children
                .iter()
                .map(|c| c.0)
                .min_by_key(|v| severity(*v))
                .unwrap_or(Verdict::Accepted),
        }
    };
    let scores = children.iter().map(|c| c.1);
    let score = match rule.scores {
        ScoreRule::Sum => scores.sum(),
        ScoreRule::Avg => scores.sum::<f64>() / children.len() as f64,
        ScoreRule::Min => scores.fold(f64::INFINITY, f64::min),
        ScoreRule::Max => scores.fold(f64::NEG_INFINITY, f64::max),
    };
    (verdict, score)
}

/// The default grader's order, worst first: a judge error, a crash, the limits, a wrong answer.
fn severity(verdict: Verdict) -> usize {
    match verdict {
        Verdict::JudgeError => 0,
        Verdict::RuntimeError | Verdict::CompileError => 1,
        Verdict::MemoryLimit => 2,
        Verdict::TimeLimit => 3,
        Verdict::OutputLimit => 4,
        Verdict::WrongAnswer => 5,
        Verdict::Accepted => 6,
    }
}

/// A score as people write it: no trailing zeros, and no sign on a zero (a sum that starts from -0.0, as an
/// empty float sum does, is still 0 to a reader).
pub fn show(score: f64) -> String {
    let score = if score == 0.0 { 0.0 } else { score };
    let text = format!("{score:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    //! Each rule on results built so that any other rule gives another score.

    use super::*;
    use crate::scoring::tree::{Item, OnReject};
    use Verdict::{Accepted as AC, TimeLimit as TLE, WrongAnswer as WA};

    #[test]
    fn a_score_is_shown_without_trailing_zeros_or_a_sign_on_zero() {
        assert_eq!(show(-0.0), "0");
        assert_eq!(show(0.0), "0");
        assert_eq!(show(30.0), "30");
        assert_eq!(show(37.5), "37.5");
        assert_eq!(show(-2.25), "-2.25");
    }

    fn group(
        name: &str,
        max: MaxScore,
        aggregation: Aggregation,
        requires: &[&str],
        items: Vec<Item>,
    ) -> Item {
        Item::Group(Box::new(Group {
            name: name.into(),
            rule: Rule::Modern {
                max,
                aggregation,
                require_pass: requires.iter().map(|s| s.to_string()).collect(),
                counted: name != "sample",
            },
            items,
        }))
    }

    fn tests(range: std::ops::Range<usize>) -> Vec<Item> {
        range.map(Item::Test).collect()
    }

    /// A 2025-09 tree: the samples, then `secret` with `max` and `aggregation` over `items`.
    fn modern_tree(
        max: MaxScore,
        aggregation: Aggregation,
        samples: usize,
        items: Vec<Item>,
    ) -> Tree {
        let Item::Group(root) = group(
            "",
            max,
            Aggregation::Sum,
            &[],
            vec![
                group(
                    "sample",
                    MaxScore::Unbounded,
                    Aggregation::PassFail,
                    &[],
                    tests(0..samples),
                ),
                group("secret", max, aggregation, &[], items),
            ],
        ) else {
            unreachable!()
        };
        Tree {
            root: *root,
            scored: true,
        }
    }

    fn plain(verdicts: &[Verdict]) -> Vec<Option<TestScore>> {
        verdicts
            .iter()
            .map(|&verdict| {
                Some(TestScore {
                    verdict,
                    validator: None,
                })
            })
            .collect()
    }

    fn scored(verdict: Verdict, score: Option<ValidatorScore>) -> Option<TestScore> {
        Some(TestScore {
            verdict,
            validator: score,
        })
    }

    #[test]
    fn a_pass_fail_tree_decides_nothing_and_lists_nothing_for_its_tests() {
        let results = plain(&[AC, WA, AC]);
        assert_eq!(aggregate(&Tree::pass_fail(3), &results), Scored::unscored());
        assert!(Scored::unscored().tests.is_empty());
    }

    fn group_score(scored: &Scored, name: &str) -> f64 {
        scored.groups.iter().find(|g| g.name == name).unwrap().score
    }

    #[test]
    fn sum_shares_a_groups_score_among_its_tests() {
        // 3 tests of secret, 100 points: each worth 33.33..; the sample's failure counts for nothing.
        let tree = modern_tree(MaxScore::Bounded(100.0), Aggregation::Sum, 1, tests(1..4));
        let result = aggregate(&tree, &plain(&[WA, AC, WA, AC]));
        assert!(
            (result.score.unwrap() - 200.0 / 3.0).abs() < 1e-9,
            "{result:?}"
        );
        assert_eq!(result.max, Some(100.0));
        assert!((result.tests[2].unwrap() - 0.0).abs() < 1e-12);
    }

    #[test]
    fn min_takes_the_worst_test() {
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            0,
            vec![group(
                "secret/a",
                MaxScore::Bounded(100.0),
                Aggregation::Min,
                &[],
                tests(0..3),
            )],
        );
        let results = [
            scored(AC, Some(ValidatorScore::Multiplier(0.5))),
            scored(AC, Some(ValidatorScore::Score(12.25))),
            scored(AC, None),
        ];
        let result = aggregate(&tree, &results);
        // min(50, 12.25, 100): a sum would be 162.25, a pass-fail 100.
        assert_eq!(result.score, Some(12.25));
        assert_eq!(group_score(&result, "secret/a"), 12.25);
    }

    #[test]
    fn pass_fail_groups_score_all_or_nothing() {
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            0,
            vec![
                group(
                    "secret/a",
                    MaxScore::Bounded(30.0),
                    Aggregation::PassFail,
                    &[],
                    tests(0..2),
                ),
                group(
                    "secret/b",
                    MaxScore::Bounded(70.0),
                    Aggregation::PassFail,
                    &[],
                    tests(2..4),
                ),
            ],
        );
        let result = aggregate(&tree, &plain(&[AC, AC, AC, TLE]));
        assert_eq!(result.score, Some(30.0));
        let b = result.groups.iter().find(|g| g.name == "secret/b").unwrap();
        assert_eq!((b.verdict, b.score), (Some(TLE), 0.0));
        // A validator's score in a pass-fail group is a judge error.
        let results = [
            scored(AC, Some(ValidatorScore::Score(1.0))),
            scored(AC, None),
            scored(AC, None),
            scored(AC, None),
        ];
        let result = aggregate(&tree, &results);
        assert_eq!(result.judge_errors.len(), 1, "{result:?}");
    }

    #[test]
    fn a_pass_fail_secret_is_its_max_or_zero() {
        let tree = modern_tree(
            MaxScore::Bounded(1.5),
            Aggregation::PassFail,
            0,
            tests(0..2),
        );
        assert_eq!(aggregate(&tree, &plain(&[AC, AC])).score, Some(1.5));
        assert_eq!(
            aggregate(
                &tree,
                &[
                    Some(TestScore {
                        verdict: AC,
                        validator: None
                    }),
                    None
                ]
            )
            .score,
            Some(0.0)
        );
    }

    #[test]
    fn unbounded_groups_take_the_validators_scores() {
        let tree = modern_tree(
            MaxScore::Unbounded,
            Aggregation::Sum,
            0,
            vec![group(
                "secret/a",
                MaxScore::Unbounded,
                Aggregation::Sum,
                &[],
                tests(0..2),
            )],
        );
        let results = [
            scored(AC, Some(ValidatorScore::Score(1e6 + 0.5))),
            scored(AC, Some(ValidatorScore::Score(2.25))),
        ];
        let result = aggregate(&tree, &results);
        assert_eq!(result.score, Some(1e6 + 2.75));
        assert_eq!(result.max, None);
        // Without a score.txt, or with a multiplier, an unbounded test is a judge error.
        for validator in [None, Some(ValidatorScore::Multiplier(0.5))] {
            let result = aggregate(
                &tree,
                &[
                    scored(AC, validator),
                    scored(AC, Some(ValidatorScore::Score(1.0))),
                ],
            );
            assert_eq!(result.judge_errors.len(), 1, "{validator:?}");
        }
    }

    #[test]
    fn scores_over_the_maximum_and_on_rejected_tests_are_judge_errors() {
        let tree = modern_tree(MaxScore::Bounded(10.0), Aggregation::Sum, 0, tests(0..2));
        let over = aggregate(
            &tree,
            &[
                scored(AC, Some(ValidatorScore::Score(5.5))),
                scored(AC, None),
            ],
        );
        assert_eq!(
            over.judge_errors.iter().map(|e| e.0).collect::<Vec<_>>(),
            [0]
        );
        let on_wa = aggregate(
            &tree,
            &[
                scored(WA, Some(ValidatorScore::Score(1.0))),
                scored(AC, None),
            ],
        );
        assert_eq!(on_wa.judge_errors.len(), 1);
        let fine = aggregate(
            &tree,
            &[
                scored(AC, Some(ValidatorScore::Score(4.75))),
                scored(AC, None),
            ],
        );
        assert_eq!(fine.score, Some(9.75));
    }

    #[test]
    fn require_pass_gates_a_groups_score() {
        let items = |requires: &'static [&'static str]| {
            vec![
                group(
                    "secret/a",
                    MaxScore::Bounded(20.0),
                    Aggregation::PassFail,
                    &[],
                    tests(1..2),
                ),
                group(
                    "secret/b",
                    MaxScore::Bounded(30.0),
                    Aggregation::PassFail,
                    requires,
                    tests(2..3),
                ),
                group(
                    "secret/c",
                    MaxScore::Bounded(50.0),
                    Aggregation::Sum,
                    &["secret/a", "sample"],
                    tests(3..5),
                ),
            ]
        };
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            1,
            items(&["secret/a"]),
        );
        // Everything passes but a: b and c, which require it, score nothing.
        let result = aggregate(&tree, &plain(&[AC, WA, AC, AC, AC]));
        assert_eq!(result.score, Some(0.0));
        let b = result.groups.iter().find(|g| g.name == "secret/b").unwrap();
        assert!(
            b.note.as_deref().unwrap().contains("secret/a did not pass"),
            "{b:?}"
        );
        // A failed sample gates c only.
        let result = aggregate(&tree, &plain(&[WA, AC, AC, AC, AC]));
        assert_eq!(result.score, Some(50.0));
        // With a passed, all count; without the requirement b scores alone.
        assert_eq!(
            aggregate(&tree, &plain(&[AC, AC, AC, AC, WA])).score,
            Some(75.0)
        );
        let free = modern_tree(MaxScore::Bounded(100.0), Aggregation::Sum, 1, items(&[]));
        assert_eq!(
            aggregate(&free, &plain(&[AC, WA, AC, AC, AC])).score,
            Some(30.0)
        );
    }

    /// A static validation test case numbered `test`, worth `points` (None: pass-fail).
    fn static_case(test: usize, points: Option<u64>) -> Item {
        Item::Static {
            test,
            score: points.map_or(StaticScore::PassFail, StaticScore::Points),
        }
    }

    /// Items: the static case first, then `tests`.
    fn with_static(points: Option<u64>, tests_after: std::ops::Range<usize>) -> Vec<Item> {
        std::iter::once(static_case(tests_after.start - 1, points))
            .chain(tests(tests_after))
            .collect()
    }

    #[test]
    fn a_static_case_is_worth_its_score_and_a_sum_shares_the_rest_among_the_tests() {
        // 50 points, 20 of them the static case's: each of the 3 tests is worth (50 - 20) / 3 = 10. Sharing 50
        // among the 3 tests (16.67), or 30 among all 4 cases (7.5), or 50 among all 4 (12.5), gives another score.
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            0,
            vec![group(
                "secret/a",
                MaxScore::Bounded(50.0),
                Aggregation::Sum,
                &[],
                with_static(Some(20), 1..4),
            )],
        );
        let result = aggregate(&tree, &plain(&[AC, AC, WA, AC]));
        assert_eq!(result.score, Some(40.0), "{result:?}");
        assert_eq!(
            result.tests,
            [Some(20.0), Some(10.0), Some(0.0), Some(10.0)]
        );
        assert_eq!(group_score(&result, "secret/a"), 40.0);
        // Rejected, it scores nothing and the tests keep their share.
        let result = aggregate(&tree, &plain(&[WA, AC, AC, AC]));
        assert_eq!(result.score, Some(30.0));
        // Its validator's score files are read against its own maximum, 20.
        let results = |static_score| {
            [
                scored(AC, Some(static_score)),
                scored(AC, None),
                scored(AC, None),
                scored(AC, None),
            ]
        };
        let half = aggregate(&tree, &results(ValidatorScore::Multiplier(0.5)));
        assert_eq!(half.score, Some(40.0));
        let written = aggregate(&tree, &results(ValidatorScore::Score(17.5)));
        assert_eq!(written.score, Some(47.5));
        let over = aggregate(&tree, &results(ValidatorScore::Score(20.5)));
        assert_eq!(over.judge_errors.len(), 1, "{over:?}");
        assert_eq!(over.judge_errors[0].0, 0);
        assert!(
            over.judge_errors[0]
                .1
                .contains("the static validator's score 20.5"),
            "{over:?}"
        );
    }

    #[test]
    fn in_a_min_group_the_static_case_is_one_of_the_scores() {
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            0,
            vec![group(
                "secret/a",
                MaxScore::Bounded(40.0),
                Aggregation::Min,
                &[],
                with_static(Some(10), 1..3),
            )],
        );
        // Every case accepted: the tests are worth 40 each, the static case 10, and the least is the group's.
        assert_eq!(aggregate(&tree, &plain(&[AC, AC, AC])).score, Some(10.0));
        let results = [
            scored(AC, Some(ValidatorScore::Score(4.0))),
            scored(AC, Some(ValidatorScore::Multiplier(0.5))),
            scored(AC, None),
        ];
        assert_eq!(aggregate(&tree, &results).score, Some(4.0));
    }

    #[test]
    fn a_pass_fail_static_case_must_pass_as_any_test_of_its_group() {
        let tree = modern_tree(
            MaxScore::Bounded(100.0),
            Aggregation::Sum,
            0,
            vec![
                group(
                    "secret/a",
                    MaxScore::Bounded(30.0),
                    Aggregation::PassFail,
                    &[],
                    with_static(None, 1..3),
                ),
                group(
                    "secret/b",
                    MaxScore::Bounded(70.0),
                    Aggregation::PassFail,
                    &["secret/a"],
                    tests(3..4),
                ),
            ],
        );
        assert_eq!(
            aggregate(&tree, &plain(&[AC, AC, AC, AC])).score,
            Some(100.0)
        );
        // Rejected, it fails its group, and the group requiring that one.
        let result = aggregate(&tree, &plain(&[WA, AC, AC, AC]));
        assert_eq!(result.score, Some(0.0));
        let a = result.groups.iter().find(|g| g.name == "secret/a").unwrap();
        assert_eq!((a.verdict, a.score), (Some(WA), 0.0));
        // Not run (its group stopped before it, say): the group is not accepted either.
        let result = aggregate(
            &tree,
            &[None, scored(AC, None), scored(AC, None), scored(AC, None)],
        );
        assert_eq!(result.score, Some(0.0));
        // A score from it in a pass-fail group is the static validator's judge error.
        let result = aggregate(
            &tree,
            &[
                scored(AC, Some(ValidatorScore::Score(1.0))),
                scored(AC, None),
                scored(AC, None),
                scored(AC, None),
            ],
        );
        assert_eq!(result.judge_errors.len(), 1);
        assert!(
            result.judge_errors[0]
                .1
                .starts_with("the static validator wrote a score"),
            "{result:?}"
        );
    }

    #[test]
    fn in_an_unbounded_group_the_static_case_is_still_bounded() {
        let tree = modern_tree(
            MaxScore::Unbounded,
            Aggregation::Sum,
            0,
            vec![group(
                "secret/a",
                MaxScore::Unbounded,
                Aggregation::Sum,
                &[],
                with_static(Some(5), 1..2),
            )],
        );
        // Accepted without a score file, it gets its 5; the test needs its score.txt.
        let results = [
            scored(AC, None),
            scored(AC, Some(ValidatorScore::Score(7.0))),
        ];
        let result = aggregate(&tree, &results);
        assert_eq!(result.score, Some(12.0), "{result:?}");
        assert!(result.judge_errors.is_empty());
        let results = [
            scored(AC, Some(ValidatorScore::Multiplier(0.2))),
            scored(AC, Some(ValidatorScore::Score(7.0))),
        ];
        assert_eq!(aggregate(&tree, &results).score, Some(8.0));
    }

    fn legacy(name: &str, rule: LegacyRule, items: Vec<Item>) -> Item {
        Item::Group(Box::new(Group {
            name: name.into(),
            rule: Rule::Legacy(rule),
            items,
        }))
    }

    #[test]
    fn the_legacy_grader_sums_accept_scores_per_test() {
        // addone's shape: scores per accepted test, summed up the tree, the samples counted.
        let go_on = LegacyRule {
            on_reject: OnReject::Continue,
            ..LegacyRule::default()
        };
        let with = |accept_score| LegacyRule {
            accept_score,
            ..go_on.clone()
        };
        let Item::Group(root) = legacy(
            "",
            go_on.clone(),
            vec![
                legacy("sample", go_on.clone(), tests(0..1)),
                legacy(
                    "secret",
                    go_on.clone(),
                    vec![
                        legacy("secret/large", with(30.0), tests(1..3)),
                        legacy("secret/small", with(10.0), tests(3..5)),
                    ],
                ),
            ],
        ) else {
            unreachable!()
        };
        let tree = Tree {
            root: *root,
            scored: true,
        };
        let result = aggregate(&tree, &plain(&[AC, AC, WA, AC, AC]));
        assert_eq!(result.score, Some(1.0 + 30.0 + 20.0));
        assert_eq!(result.verdict, Some(WA));
    }

    #[test]
    fn legacy_grader_flags() {
        let rule = |flags: &str| {
            let mut rule = LegacyRule {
                accept_score: 10.0,
                reject_score: 1.5,
                ..LegacyRule::default()
            };
            // The grader's flags as a group file gives them; `break` is the group's on_reject.
            let (flags, on_reject) = match flags.strip_suffix("break") {
                Some(rest) => (rest, OnReject::Break),
                None => (flags, OnReject::Continue),
            };
            rule.take_grader_flags(flags).unwrap();
            rule.on_reject = on_reject;
            rule
        };
        let run = |flags: &str, verdicts: &[Verdict]| {
            let Item::Group(root) = legacy("", rule(flags), tests(0..verdicts.len())) else {
                unreachable!()
            };
            let result = aggregate(
                &Tree {
                    root: *root,
                    scored: true,
                },
                &plain(verdicts),
            );
            (result.verdict.unwrap(), result.score.unwrap())
        };
        let mixed = [WA, AC, TLE, AC];
        assert_eq!(run("", &mixed), (TLE, 23.0), "worst error, sum");
        assert_eq!(run("first_error avg", &mixed), (WA, 5.75));
        assert_eq!(run("min", &mixed), (TLE, 1.5));
        assert_eq!(run("max", &mixed), (TLE, 10.0));
        assert_eq!(run("always_accept", &mixed), (AC, 23.0));
        assert_eq!(run("accept_if_any_accepted", &mixed), (AC, 23.0));
        assert_eq!(run("accept_if_any_accepted", &[WA, TLE]), (TLE, 3.0));
        // on_reject: break stops at the first rejected test.
        assert_eq!(run("break", &mixed), (WA, 1.5));
    }

    #[test]
    fn ignore_sample_takes_the_secret_result() {
        let top = LegacyRule {
            on_reject: OnReject::Continue,
            ignore_sample: true,
            ..LegacyRule::default()
        };
        let sample = LegacyRule {
            accept_score: 0.0,
            on_reject: OnReject::Continue,
            ..LegacyRule::default()
        };
        let secret = LegacyRule {
            accept_score: 50.0,
            verdicts: VerdictRule::FirstError,
            accept_if_any_accepted: true,
            on_reject: OnReject::Continue,
            ..LegacyRule::default()
        };
        let Item::Group(root) = legacy(
            "",
            top,
            vec![
                legacy("sample", sample, tests(0..1)),
                legacy(
                    "secret",
                    secret,
                    vec![
                        legacy(
                            "secret/1",
                            LegacyRule {
                                accept_score: 50.0,
                                scores: ScoreRule::Min,
                                ..LegacyRule::default()
                            },
                            tests(1..2),
                        ),
                        legacy(
                            "secret/2",
                            LegacyRule {
                                accept_score: 50.0,
                                scores: ScoreRule::Min,
                                ..LegacyRule::default()
                            },
                            tests(2..3),
                        ),
                    ],
                ),
            ],
        ) else {
            unreachable!()
        };
        // oddecho's partially accepted submission: the sample fails, one subtask passes.
        let result = aggregate(
            &Tree {
                root: *root,
                scored: true,
            },
            &plain(&[WA, AC, Verdict::RuntimeError]),
        );
        assert_eq!((result.verdict, result.score), (Some(AC), Some(50.0)));
    }
}
