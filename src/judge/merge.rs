//! Joining the reports of the N shares of a judge (`judge --partition K/N`) into the report one judge of every
//! run would have given: each solution's tests in test order, cut after its first failure unless every test was
//! run, and its verdict that of its first failing test.

use super::{JudgeReport, SolutionReport};
use crate::verdict::Verdict;

/// One share's report, and where it came from (its file), to name it in a refusal.
pub struct Share {
    pub origin: String,
    pub report: JudgeReport,
}

/// The whole judge's report; refused, with the reason, unless the shares are all N of one judge: the same
/// problem, tests, limits and solutions, each share once.
pub fn merge(shares: Vec<Share>) -> Result<JudgeReport, String> {
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
            tests.sort_by_key(|t| positions.get(t.name.as_str()).copied());
            if !base.all_tests
                && let Some(stop) = tests.iter().position(|t| !t.verdict.is_accepted())
            {
                tests.truncate(stop + 1);
            }
            let verdict = SolutionReport::verdict_of(solution.compile.ok, &tests);
            SolutionReport {
                verdict,
                ok: solution.expected.contains(&verdict),
                tests,
                ..solution.clone()
            }
        })
        .collect();
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
        report.tests = vec!["1".into(), "2".into(), "3".into()];
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
        let merged = merge(vec![
            share(1, &[("1", Verdict::Accepted), ("3", Verdict::WrongAnswer)]),
            share(2, &[("2", Verdict::TimeLimit)]),
        ])
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
        let merged = merge(vec![second, first]).unwrap();
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
        let merged = merge(vec![first, second]).unwrap();
        assert_eq!(merged.time_limit_check, check(330, "ref on 2"));
        // 330 ms x 5 is over the 1 s limit of the sample.
        assert!(merged.time_limit_warning().is_some());
    }

    #[test]
    fn shares_of_other_judges_are_refused() {
        let mut other = share(2, &[]);
        other.report.time_limit *= 2;
        let refused = merge(vec![share(1, &[]), other]).map(|_| ()).unwrap_err();
        assert!(refused.contains("limits differ"), "{refused}");
        let mut other = share(2, &[]);
        other.report.partition = Some(Partition { index: 2, count: 3 });
        let refused = merge(vec![share(1, &[]), other]).map(|_| ()).unwrap_err();
        assert!(refused.contains("numbers of shares differ"), "{refused}");
    }
}
