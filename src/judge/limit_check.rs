//! How a package's fixed time limit compares with the rule of its format, from the accepted submissions judged
//! under it. A fixed limit is the author's decision: it is judged with, and the comparison is reported, with a
//! warning when the limit is below what the rule asks (as problemtools warns).

use super::outcome::SolutionReport;
use crate::problem::TimeRule;
use crate::units::format_time;
use crate::verdict::Verdict;
use std::time::Duration;

/// The slowest run of an accepted submission, against the rule.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitCheck {
    /// The CPU time of the slowest run of a submission expected AC that got it.
    pub slowest: Duration,
    /// Where it was: "slow.java on secret/3".
    pub on: String,
    /// The rule's multiplier of the slowest accepted time (`time_multiplier`, `ac_to_time_limit`).
    pub multiplier: f64,
    /// The limit the rule would derive from the slowest run.
    pub derived: Duration,
}

impl LimitCheck {
    /// The check of a limit fixed in a package whose rule is `rule`, from the runs of `solutions`; None when no
    /// submission expected AC got it.
    pub fn of(rule: &TimeRule, solutions: &[SolutionReport]) -> Option<LimitCheck> {
        let (slowest, on) = solutions
            .iter()
            .filter(|s| s.expected == [Verdict::Accepted] && s.verdict == Verdict::Accepted)
            .flat_map(|s| {
                s.tests
                    .iter()
                    .map(move |t| (t.cpu, format!("{} on {}", s.name, t.name)))
            })
            .max_by_key(|(cpu, _)| *cpu)?;
        let derive = TimeRule {
            fixed: None,
            ..rule.clone()
        };
        Some(LimitCheck {
            slowest,
            on,
            multiplier: rule.ac_multiplier,
            derived: derive.limit(slowest),
        })
    }

    /// The slowest accepted time times the multiplier: what the rule wants the limit to be at least.
    pub fn needed(&self) -> Duration {
        self.slowest.mul_f64(self.multiplier)
    }

    /// The comparison, said in a sentence.
    pub fn summary(&self) -> String {
        format!(
            "the slowest accepted submission took {} ({}), x {} is {}, from which the rule would derive {}",
            format_time(self.slowest),
            self.on,
            self.multiplier,
            format_time(self.needed()),
            format_time(self.derived)
        )
    }

    /// A warning when `limit` is below what the rule wants.
    pub fn warning(&self, limit: Duration) -> Option<String> {
        (self.needed() > limit).then(|| {
            format!(
                "the fixed time limit {} is below the rule of the package's format: the slowest accepted \
                 submission ({}, {}) x {} is {}; judged with {} all the same",
                format_time(limit),
                self.on,
                format_time(self.slowest),
                self.multiplier,
                format_time(self.needed()),
                format_time(limit)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::CompileOutcome;
    use crate::judge::TestResult;
    use crate::language::Language;
    use crate::units::Bytes;

    fn solution(name: &str, expected: Verdict, verdict: Verdict, cpu_ms: &[u64]) -> SolutionReport {
        SolutionReport {
            score: None,
            max_score: None,
            groups: Vec::new(),
            broken: Vec::new(),
            build: None,
            name: name.into(),
            path: name.into(),
            language: Language::shipped("c"),
            expected: vec![expected],
            verdict,
            ok: expected == verdict,
            compile: CompileOutcome {
                ok: true,
                time: Duration::ZERO,
                message: String::new(),
                cached: false,
            },
            tests: cpu_ms
                .iter()
                .enumerate()
                .map(|(i, ms)| TestResult {
                    name: format!("{}", i + 1),
                    verdict: Verdict::Accepted,
                    cpu: Duration::from_millis(*ms),
                    wall: Duration::from_millis(*ms),
                    memory: Bytes::mib(1),
                    message: String::new(),
                    diff: None,
                    input: std::path::Path::new("1.in").into(),
                    texts: None,
                    dialogue: None,
                    at_margin: None,
                    validator_score: None,
                    score: None,
                    passes: 1,
                    trace: None,
                })
                .collect(),
        }
    }

    #[test]
    fn the_slowest_accepted_run_against_the_rule() {
        let rule = TimeRule {
            fixed: Some(Duration::from_secs(1)),
            ac_multiplier: 5.0,
            tle_multiplier: 2.0,
            resolution: Duration::from_secs(1),
            minimum: Duration::from_secs(1),
            origin: String::new(),
        };
        use Verdict::*;
        let solutions = [
            solution("quick.c", Accepted, Accepted, &[10, 120]),
            solution("slow.java", Accepted, Accepted, &[330, 40]),
            // Only the accepted submissions that were accepted count.
            solution("slower.py", Accepted, TimeLimit, &[900]),
            solution("tle.c", TimeLimit, Accepted, &[950]),
        ];
        let check = LimitCheck::of(&rule, &solutions).unwrap();
        assert_eq!(check.slowest, Duration::from_millis(330));
        assert_eq!(check.on, "slow.java on 1");
        assert_eq!(check.derived, Duration::from_secs(2));
        let warning = check.warning(Duration::from_secs(1)).unwrap();
        assert!(warning.contains("x 5 is 1.65s"), "{warning}");
        assert_eq!(check.warning(Duration::from_secs(2)), None);
        assert!(LimitCheck::of(&rule, &solutions[2..]).is_none());
    }
}
