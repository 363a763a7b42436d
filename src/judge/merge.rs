//! Joining the reports of the N shares of a judge (`judge --partition K/N`) into the report one judge of every
//! run would have given: each solution's tests in test order, cut after its first failure unless every test was
//! run, and its verdict that of its first failing test. Where the problem is at hand, its groups, scores and rules
//! beyond verdicts are decided again on the joined runs, as one judge of them all decides them.

use super::engine::{score, tree_of};
use super::{JudgeReport, SolutionReport, TestResult};
use crate::problem::{Problem, Test};
use crate::scoring::{Judged, Plan};
use crate::verdict::Verdict;
use std::collections::HashMap;

/// One share's report, and where it came from (its file), to name it in a refusal.
pub struct Share {
    pub origin: String,
    pub report: JudgeReport,
}

/// What only the problem knows, which no share can decide for the whole: how its tests are grouped and scored,
/// and each solution's rules beyond its verdict.
pub struct Rules<'a> {
    pub problem: &'a Problem,
    /// The problem's tests: those the shares judged are taken, by name.
    pub tests: &'a [Test],
}

/// The whole judge's report; refused, with the reason, unless the shares are all N of one judge: the same
/// problem, tests, limits and solutions, each share once. Shares of a scoring problem need its `rules`: a group's
/// score is not the sum of its shares' scores.
pub fn merge(shares: Vec<Share>, rules: Option<Rules>) -> Result<JudgeReport, String> {
    let Some(first) = shares.first() else {
        return Err("no report to merge".to_owned());
    };
    let Some(partition) = first.report.partition else {
        return Err(format!(
            "{} is not a share of a judge (it was judged without --partition)",
            first.origin
        ));
    };
    let count = partition.count;
    let mut by_index: Vec<Option<&Share>> = vec![None; count as usize];
    for share in &shares {
        agrees(first, share)?;
        let index = share.report.partition.expect("checked by agrees").index;
        if let Some(taken) = by_index[index as usize - 1] {
            return Err(format!(
                "share {index}/{count} is given twice: {} and {}",
                taken.origin, share.origin
            ));
        }
        by_index[index as usize - 1] = Some(share);
    }
    let missing: Vec<String> = (1..=count)
        .filter(|&index| by_index[index as usize - 1].is_none())
        .map(|index| format!("{index}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the share{} {} {} missing",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }

    let base = &first.report;
    let scored = shares
        .iter()
        .flat_map(|share| &share.report.solutions)
        .any(|s| s.score.is_some() || !s.groups.is_empty());
    if scored && rules.is_none() {
        return Err(format!(
            "the shares are of the scoring problem {}: its groups and scores are decided again from its tests, \
             and the problem is needed for that (give it with --problem)",
            base.problem
        ));
    }
    let positions = base.positions();
    let solutions = base
        .solutions
        .iter()
        .enumerate()
        .map(|(at, solution)| {
            let mut tests: Vec<_> = shares
                .iter()
                .flat_map(|share| share.report.solutions[at].tests.iter().cloned())
                .collect();
            if let Some(rules) = &rules {
                return decide(base, solution, tests, rules);
            }
            tests.sort_by_key(|t| positions.get(t.name.as_str()).copied());
            if !base.all_tests
                && let Some(stop) = tests.iter().position(|t| !t.verdict.is_accepted())
            {
                tests.truncate(stop + 1);
            }
            let verdict = SolutionReport::verdict_of(solution.compile.ok, &tests);
            Ok(SolutionReport {
                verdict,
                ok: solution.expected.contains(&verdict),
                tests,
                ..solution.clone()
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(JudgeReport {
        solutions,
        partition: None,
        // Each share judged some of the accepted runs: the slowest of all is the slowest of the shares'.
        time_limit_check: shares
            .iter()
            .filter_map(|share| share.report.time_limit_check.clone())
            .max_by_key(|check| check.slowest),
        // Each share's machine may or may not have timed the references.
        suggested_time_limit: shares
            .iter()
            .find_map(|share| share.report.suggested_time_limit.clone()),
        ..base.clone()
    })
}

/// A solution's report from all its `runs`, decided as the judge decides it of a whole judge: the runs kept that a
/// one-at-a-time judge keeps, in the tree's order, then its groups, score, verdict and rules.
fn decide(
    base: &JudgeReport,
    solution: &SolutionReport,
    runs: Vec<TestResult>,
    rules: &Rules,
) -> Result<SolutionReport, String> {
    let judged: Vec<Test> = base
        .tests
        .iter()
        .map(|name| {
            rules
                .tests
                .iter()
                .find(|t| t.name == name)
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "the shares judged a test {name} that {} does not have",
                        rules.problem.name
                    )
                })
        })
        .collect::<Result<_, String>>()?;
    let (tree, ordered) = tree_of(rules.problem, &judged).map_err(|e| e.to_string())?;
    let mut by_name: HashMap<String, TestResult> =
        runs.into_iter().map(|t| (t.name.clone(), t)).collect();
    let results: Vec<Option<TestResult>> = ordered
        .iter()
        .map(|t| by_name.remove(t.name.as_str()))
        .collect();
    let own = rules
        .problem
        .solutions
        .iter()
        .find(|s| s.name == solution.name);
    let expectations = own.map(|s| s.expectations.as_slice()).unwrap_or_default();
    let plan = Plan::for_rules(&tree, expectations, base.all_tests);
    let mut results = match plan.filter(|_| solution.compile.ok) {
        None => results,
        // A share stops at its own failures, never later than the whole judge would: what the whole keeps, some
        // share ran.
        Some(plan) => plan.keep(
            results,
            |r| r.verdict.is_accepted(),
            |index| {
                Err(format!(
                    "no share ran {} on test {}, which one judge of all the tests would run: judge the shares \
                     with --all",
                    solution.name, ordered.get(index).name
                ))
            },
        )?,
    };
    let scored = score(&tree, &mut results);
    let tests: Vec<TestResult> = results.into_iter().flatten().collect();
    let verdict = match scored.verdict {
        Some(verdict) if solution.compile.ok => verdict,
        _ => SolutionReport::verdict_of(solution.compile.ok, &tests),
    };
    let names: Vec<&str> = ordered.iter().map(|t| t.name.as_str()).collect();
    let broken = crate::scoring::broken(
        expectations,
        &Judged {
            tests: &tests,
            all_tests: &names,
            groups: &scored.groups,
            score: scored.score,
            compiled: solution.compile.ok,
        },
    );
    let accepts = solution.expected.is_empty() || solution.expected.contains(&verdict);
    Ok(SolutionReport {
        verdict,
        ok: accepts && broken.is_empty(),
        tests,
        score: scored.score,
        max_score: scored.max,
        groups: scored.groups,
        broken,
        ..solution.clone()
    })
}

/// Whether `share` is a share of the same judge as `first`, and complete.
fn agrees(first: &Share, share: &Share) -> Result<(), String> {
    let (a, b) = (&first.report, &share.report);
    let differ = |what: &str| {
        Err(format!(
            "{} and {} are not shares of one judge: their {what} differ",
            first.origin, share.origin
        ))
    };
    let Some(partition) = b.partition else {
        return Err(format!(
            "{} is not a share of a judge (it was judged without --partition)",
            share.origin
        ));
    };
    if b.interrupted.is_some() {
        return Err(format!(
            "{} was interrupted: its share is incomplete, judge it again",
            share.origin
        ));
    }
    if a.problem != b.problem {
        return differ("problems");
    }
    if a.tests != b.tests {
        return differ("tests");
    }
    if (a.time_limit, a.memory_limit) != (b.time_limit, b.memory_limit) {
        return differ("limits");
    }
    if a.all_tests != b.all_tests {
        return differ("--all settings");
    }
    if Some(partition.count) != a.partition.map(|p| p.count) {
        return differ("numbers of shares");
    }
    let solutions = |r: &JudgeReport| -> Vec<(String, Vec<Verdict>)> {
        r.solutions
            .iter()
            .map(|s| (s.name.clone(), s.expected.clone()))
            .collect()
    };
    if solutions(a) != solutions(b) {
        return differ("solutions");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Partition, TestResult};

    /// Share `index` of 2 of a judge of one solution on tests 1, 2, 3, with these (test, verdict) runs.
    fn share(index: u32, runs: &[(&str, Verdict)]) -> Share {
        let mut report = crate::report::json::tests::sample_report();
        report.tests = ["1", "2", "3"].into_iter().collect();
        report.partition = Some(Partition { index, count: 2 });
        report.solutions.truncate(1);
        let template = report.solutions[0].tests[0].clone();
        report.solutions[0].tests = runs
            .iter()
            .map(|(name, verdict)| TestResult {
                name: (*name).into(),
                verdict: *verdict,
                ..template.clone()
            })
            .collect();
        Share {
            origin: format!("{index}.json"),
            report,
        }
    }

    #[test]
    fn the_first_failure_in_test_order_decides_whichever_share_found_it() {
        let merged = merge(
            vec![
                share(1, &[("1", Verdict::Accepted), ("3", Verdict::WrongAnswer)]),
                share(2, &[("2", Verdict::TimeLimit)]),
            ],
            None,
        )
        .unwrap();
        let solution = &merged.solutions[0];
        let runs: Vec<(&str, Verdict)> = solution
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.verdict))
            .collect();
        assert_eq!(runs, [("1", Verdict::Accepted), ("2", Verdict::TimeLimit)]);
        assert_eq!(solution.verdict, Verdict::TimeLimit);
        assert!(!solution.ok);
        assert_eq!(merged.partition, None);

        // With every test run, every run stays.
        let mut first = share(1, &[("1", Verdict::Accepted), ("3", Verdict::WrongAnswer)]);
        let mut second = share(2, &[("2", Verdict::Accepted)]);
        first.report.all_tests = true;
        second.report.all_tests = true;
        let merged = merge(vec![second, first], None).unwrap();
        assert_eq!(merged.solutions[0].tests.len(), 3);
        assert_eq!(merged.solutions[0].verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn a_fixed_limit_is_compared_with_the_slowest_accepted_run_of_any_share() {
        let check = |ms: u64, on: &str| {
            Some(crate::judge::LimitCheck {
                slowest: std::time::Duration::from_millis(ms),
                on: on.into(),
                multiplier: 5.0,
                derived: std::time::Duration::from_secs(1),
            })
        };
        let mut first = share(1, &[("1", Verdict::Accepted)]);
        let mut second = share(2, &[("2", Verdict::Accepted)]);
        first.report.time_limit_check = check(120, "ref on 1");
        second.report.time_limit_check = check(330, "ref on 2");
        let merged = merge(vec![first, second], None).unwrap();
        assert_eq!(merged.time_limit_check, check(330, "ref on 2"));
        // 330 ms x 5 is over the 1 s limit of the sample.
        assert!(merged.time_limit_warning().is_some());
    }

    #[test]
    fn shares_of_other_judges_are_refused() {
        let mut other = share(2, &[]);
        other.report.time_limit *= 2;
        let refused = merge(vec![share(1, &[]), other], None)
            .map(|_| ())
            .unwrap_err();
        assert!(refused.contains("limits differ"), "{refused}");
        let mut other = share(2, &[]);
        other.report.partition = Some(Partition { index: 2, count: 3 });
        let refused = merge(vec![share(1, &[]), other], None)
            .map(|_| ())
            .unwrap_err();
        assert!(refused.contains("numbers of shares differ"), "{refused}");
    }
}
