//! One solution's runs in a calibration, and what they add up to: its slowest time with the spread over that
//! test's repetitions, the tests it was killed on, the borderline runs repeated, and the warnings they call for.

use super::rule::Role;
use crate::verdict::Verdict;
use std::time::Duration;

/// One run of a solution on a test.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub test: String,
    pub verdict: Verdict,
    pub cpu: Duration,
    /// Whether this run repeats a borderline one.
    pub repeat: bool,
}

/// The times of the repetitions of one test: their slowest and fastest.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub test: String,
    pub min: Duration,
    pub max: Duration,
    /// How many runs were made on the test (repeats of borderline runs included).
    pub runs: usize,
}

/// Every run of one solution, under the limit of its role.
#[derive(Debug, Clone)]
pub struct SolutionTiming {
    pub name: String,
    /// Its language, as reports name it.
    pub language: String,
    pub expected: Vec<Verdict>,
    pub role: Role,
    /// The raised limit its runs were made under.
    pub ran_under: Duration,
    /// In the order they were made.
    pub runs: Vec<Run>,
}

impl SolutionTiming {
    /// The test whose slowest finished run (one not killed for time) is the slowest of all, with the spread of the
    /// finished runs on it. `None` when no run finished.
    pub fn slowest(&self) -> Option<Spread> {
        let mut slowest: Option<Spread> = None;
        for run in self.runs.iter().filter(|r| r.verdict != Verdict::TimeLimit) {
            if slowest.as_ref().is_none_or(|s| run.cpu > s.max) {
                slowest = Some(self.spread(&run.test));
            }
        }
        slowest
    }

    /// The finished runs on `test`.
    fn spread(&self, test: &str) -> Spread {
        let times: Vec<Duration> = self
            .runs
            .iter()
            .filter(|r| r.test == test && r.verdict != Verdict::TimeLimit)
            .map(|r| r.cpu)
            .collect();
        Spread {
            test: test.to_owned(),
            min: times.iter().copied().min().unwrap_or_default(),
            max: times.iter().copied().max().unwrap_or_default(),
            runs: self.runs.iter().filter(|r| r.test == test).count(),
        }
    }

    /// The tests it was killed on for time, under the limit it ran under, in the order first seen.
    pub fn timed_out(&self) -> Vec<&str> {
        self.tests_where(|r| r.verdict == Verdict::TimeLimit)
    }

    /// The tests whose borderline run was repeated.
    pub fn repeated(&self) -> Vec<&str> {
        self.tests_where(|r| r.repeat)
    }

    /// The first run that was neither AC nor TLE (a wrong answer, a crash): for a reference, a failure whatever
    /// the limit.
    pub fn first_failure(&self) -> Option<&Run> {
        self.runs
            .iter()
            .find(|r| !r.verdict.is_accepted() && r.verdict != Verdict::TimeLimit)
    }

    fn tests_where(&self, wanted: impl Fn(&Run) -> bool) -> Vec<&str> {
        let mut tests: Vec<&str> = Vec::new();
        for run in self.runs.iter().filter(|r| wanted(r)) {
            if !tests.contains(&run.test.as_str()) {
                tests.push(&run.test);
            }
        }
        tests
    }

    /// What is wrong with the problem's limit `limit` as this solution sees it.
    pub fn warnings(&self, limit: Duration) -> Vec<Warning> {
        let solution = self.name.clone();
        let slowest = self.slowest();
        let mut warnings = Vec::new();
        match self.role {
            Role::Reference => {
                if let Some(run) = self.first_failure() {
                    warnings.push(Warning::ReferenceFails {
                        solution,
                        test: run.test.clone(),
                        verdict: run.verdict,
                    });
                } else if let Some(test) = self.timed_out().first() {
                    warnings.push(Warning::ReferenceTooSlow {
                        solution,
                        test: (*test).to_owned(),
                        ran_under: self.ran_under,
                    });
                } else if let Some(slowest) = slowest.filter(|s| s.max > limit / 2) {
                    warnings.push(Warning::ReferenceOverHalf {
                        solution,
                        test: slowest.test,
                        cpu: slowest.max,
                    });
                }
            }
            // Left far behind on one test, it gets TLE however noisy the machine: only a solution that no test
            // leaves behind is not separated.
            Role::ExpectedTle if self.timed_out().is_empty() => {
                if let Some(slowest) = slowest {
                    warnings.push(Warning::TleFinishes {
                        solution,
                        test: slowest.test,
                        cpu: slowest.max,
                        within_limit: slowest.max <= limit,
                    });
                }
            }
            Role::ExpectedTle => {}
        }
        warnings
    }
}

/// Something the calibration found wrong with the current limit, or with a solution.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// A reference got a verdict other than AC and TLE: no limit makes it pass.
    ReferenceFails {
        solution: String,
        test: String,
        verdict: Verdict,
    },
    /// A reference did not finish even under the raised limit.
    ReferenceTooSlow {
        solution: String,
        test: String,
        ran_under: Duration,
    },
    /// A reference used more than half of the problem's limit.
    ReferenceOverHalf {
        solution: String,
        test: String,
        cpu: Duration,
    },
    /// A solution expected TLE finished within 1.5 x the limit on every test (within the limit itself, if
    /// `within_limit`): its slowest test.
    TleFinishes {
        solution: String,
        test: String,
        cpu: Duration,
        within_limit: bool,
    },
}

impl Warning {
    /// A short name for scripts.
    pub fn kind(&self) -> &'static str {
        match self {
            Warning::ReferenceFails { .. } => "reference_fails",
            Warning::ReferenceTooSlow { .. } => "reference_too_slow",
            Warning::ReferenceOverHalf { .. } => "reference_over_half",
            Warning::TleFinishes { .. } => "tle_finishes",
        }
    }

    pub fn solution(&self) -> &str {
        match self {
            Warning::ReferenceFails { solution, .. }
            | Warning::ReferenceTooSlow { solution, .. }
            | Warning::ReferenceOverHalf { solution, .. }
            | Warning::TleFinishes { solution, .. } => solution,
        }
    }

    pub fn test(&self) -> &str {
        match self {
            Warning::ReferenceFails { test, .. }
            | Warning::ReferenceTooSlow { test, .. }
            | Warning::ReferenceOverHalf { test, .. }
            | Warning::TleFinishes { test, .. } => test,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// A run as a row of a table: test, verdict, CPU milliseconds, whether it repeats a borderline run.
    type RunRow<'a> = (&'a str, Verdict, u64, bool);

    fn timing(role: Role, runs: &[RunRow]) -> SolutionTiming {
        SolutionTiming {
            name: "s.rs".into(),
            language: "Rust".into(),
            expected: vec![if role == Role::Reference {
                Accepted
            } else {
                TimeLimit
            }],
            role,
            ran_under: if role == Role::Reference {
                ms(3000)
            } else {
                ms(1500)
            },
            runs: runs
                .iter()
                .map(|&(test, verdict, cpu, repeat)| Run {
                    test: test.into(),
                    verdict,
                    cpu: ms(cpu),
                    repeat,
                })
                .collect(),
        }
    }

    #[test]
    fn slowest_is_the_spread_of_the_slowest_test() {
        let t = timing(
            Role::Reference,
            &[
                ("a", Accepted, 100, false),
                ("b", Accepted, 300, false),
                ("a", Accepted, 120, false),
                ("b", Accepted, 250, false),
                ("b", Accepted, 320, true),
            ],
        );
        let spread = t.slowest().unwrap();
        assert_eq!(spread.test, "b");
        assert_eq!((spread.min, spread.max, spread.runs), (ms(250), ms(320), 3));
        assert_eq!(t.repeated(), ["b"]);
        assert_eq!(t.warnings(ms(1000)), []);
    }

    #[test]
    fn killed_runs_have_no_time() {
        let t = timing(
            Role::ExpectedTle,
            &[("a", TimeLimit, 1510, false), ("b", Accepted, 40, false)],
        );
        assert_eq!(t.slowest().unwrap().test, "b");
        assert_eq!(t.timed_out(), ["a"]);
        let all_killed = timing(Role::ExpectedTle, &[("a", TimeLimit, 1510, false)]);
        assert_eq!(all_killed.slowest(), None);
    }

    #[test]
    fn warnings_table() {
        let limit = ms(1000);
        let cases: Vec<(Role, Vec<RunRow>, Option<&str>)> = vec![
            (Role::Reference, vec![("a", Accepted, 500, false)], None),
            (
                Role::Reference,
                vec![("a", Accepted, 501, false)],
                Some("reference_over_half"),
            ),
            (
                Role::Reference,
                vec![("a", TimeLimit, 3010, false)],
                Some("reference_too_slow"),
            ),
            (
                Role::Reference,
                vec![("a", Accepted, 900, false), ("b", WrongAnswer, 5, false)],
                Some("reference_fails"),
            ),
            // Left far behind on one test: separated, however close the others.
            (
                Role::ExpectedTle,
                vec![("a", Accepted, 1400, false), ("b", TimeLimit, 1510, false)],
                None,
            ),
            (
                Role::ExpectedTle,
                vec![("a", Accepted, 1400, false)],
                Some("tle_finishes"),
            ),
            (
                Role::ExpectedTle,
                vec![("a", Accepted, 200, false)],
                Some("tle_finishes"),
            ),
        ];
        for (role, runs, want) in cases {
            let t = timing(role, &runs);
            let kinds: Vec<&str> = t.warnings(limit).iter().map(Warning::kind).collect();
            assert_eq!(
                kinds,
                want.into_iter().collect::<Vec<_>>(),
                "{role:?} {runs:?}"
            );
        }
        let t = timing(Role::ExpectedTle, &[("a", Accepted, 200, false)]);
        assert!(matches!(
            &t.warnings(limit)[0],
            Warning::TleFinishes { within_limit: true, cpu, .. } if *cpu == ms(200)
        ));
    }
}
