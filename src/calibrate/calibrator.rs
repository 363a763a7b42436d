//! Running a calibration: passes of the judge engine over the solutions to time, each under its role's raised
//! limit, every test every time (bar those a solution expected TLE was already killed on), with borderline runs
//! repeated.

use super::rule::{DEFAULT_FLOOR, Role, SPREAD_NOTE, is_borderline, suggest};
use super::timing::{Run, SolutionTiming, Warning};
use crate::error::{Error, Result};
use crate::judge::{Event, Judge, JudgeReport};
use crate::problem::{Problem, Solution, Test};
use crate::verdict::Verdict;
use std::time::Duration;

/// Progress, in the order it happens.
#[derive(Debug)]
pub enum CalibrationEvent<'a> {
    /// A pass of the judge begins: these solutions on this many tests under this limit, in repetition `round` of
    /// `rounds`; `repeat` when it runs borderline runs again.
    Pass {
        round: usize,
        rounds: usize,
        solutions: &'a [Solution],
        tests: usize,
        limit: Duration,
        repeat: bool,
    },
    /// Something within the pass.
    Judge(&'a Event<'a>),
}

/// A solution the calibration does not time: it is expected neither AC nor TLE.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub name: String,
    pub expected: Vec<Verdict>,
}

/// A whole calibration of one problem.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub problem: String,
    /// The problem's own limit, which the warnings and margins are about.
    pub time_limit: Duration,
    /// The least limit suggested: problem.toml's `time_limit_floor`, or [`DEFAULT_FLOOR`].
    pub floor: Duration,
    /// Runs per test asked for.
    pub runs: usize,
    pub tests: usize,
    /// References first, then the solutions expected TLE, each in the problem's order.
    pub solutions: Vec<SolutionTiming>,
    pub skipped: Vec<Skipped>,
    /// Set when the user stopped it: what it was doing. Nothing is suggested then.
    pub interrupted: Option<String>,
}

impl Calibration {
    /// The slowest run of any reference, if every reference finished every run.
    pub fn slowest_reference(&self) -> Option<Duration> {
        let references: Vec<&SolutionTiming> = self
            .solutions
            .iter()
            .filter(|s| s.role == Role::Reference)
            .collect();
        if references.is_empty() || references.iter().any(|r| !r.timed_out().is_empty()) {
            return None;
        }
        references
            .iter()
            .map(|r| r.slowest().map(|s| s.max))
            .collect::<Option<Vec<Duration>>>()?
            .into_iter()
            .max()
    }

    /// The suggested limit (see [`suggest`] and the rule for several languages in `rule`), if it can be told:
    /// every reference finished every run.
    pub fn suggestion(&self) -> Option<Suggestion> {
        self.slowest_reference()?;
        let mut languages: Vec<LanguageSuggestion> = Vec::new();
        for reference in self.solutions.iter().filter(|s| s.role == Role::Reference) {
            let slowest = reference.slowest()?.max;
            let own = LanguageSuggestion {
                language: reference.language.clone(),
                solution: reference.name.clone(),
                slowest,
                suggested: suggest(slowest, self.floor),
            };
            match languages.iter_mut().find(|l| l.language == own.language) {
                Some(known) if known.slowest >= slowest => {}
                Some(known) => *known = own,
                None => languages.push(own),
            }
        }
        let mut set_by = languages.first()?.clone();
        for language in &languages {
            if language.slowest > set_by.slowest {
                set_by = language.clone();
            }
        }
        Some(Suggestion {
            limit: set_by.suggested,
            floored: suggest(set_by.slowest, Duration::ZERO) < self.floor,
            set_by,
            languages,
        })
    }

    pub fn warnings(&self) -> Vec<Warning> {
        self.solutions
            .iter()
            .flat_map(|s| s.warnings(self.time_limit))
            .collect()
    }
}

/// One language's slowest reference, and the limit it alone calls for.
#[derive(Debug, Clone, PartialEq)]
pub struct LanguageSuggestion {
    /// As reports name it ("C++", "Python 3").
    pub language: String,
    /// Its slowest reference.
    pub solution: String,
    pub slowest: Duration,
    pub suggested: Duration,
}

/// The suggested limit, and what sets it.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub limit: Duration,
    /// The language whose slowest reference sets the limit: the slowest of all.
    pub set_by: LanguageSuggestion,
    /// Whether the floor sets it rather than the reference's time.
    pub floored: bool,
    /// Every language of the references, in the order of their first reference.
    pub languages: Vec<LanguageSuggestion>,
}

impl Suggestion {
    /// The language whose own suggestion is the smallest, when the limit is [`SPREAD_NOTE`] x it or more: its
    /// solutions get far more room than its reference needs, which the setters should know.
    pub fn far_above(&self) -> Option<&LanguageSuggestion> {
        let least = self.languages.iter().min_by_key(|l| l.suggested)?;
        (self.limit >= least.suggested * SPREAD_NOTE).then_some(least)
    }
}

/// `limit` divided by a solution's slowest time: how many times slower it could get and still pass.
pub fn margin(limit: Duration, slowest: Duration) -> f64 {
    // A run measured as 0 would have an infinite margin: count it as the clock's resolution, 1 ms.
    limit.as_secs_f64() / slowest.max(Duration::from_millis(1)).as_secs_f64()
}

/// Times solutions through a judge (whose options say how many tests run at once, and that every test runs).
pub struct Calibrator<'a> {
    pub judge: &'a Judge<'a>,
    /// Repetitions of every run.
    pub runs: usize,
}

impl Calibrator<'_> {
    /// Times the references and the solutions expected TLE of `problem` among `solutions` on `tests`.
    pub fn calibrate(
        &self,
        problem: &Problem,
        solutions: &[Solution],
        tests: &[Test],
        on_event: &mut dyn FnMut(CalibrationEvent),
    ) -> Result<Calibration> {
        let mut calibration = Calibration {
            problem: problem.name.clone(),
            time_limit: problem.limits.time,
            floor: problem.time_limit_floor.unwrap_or(DEFAULT_FLOOR),
            runs: self.runs,
            tests: tests.len(),
            solutions: Vec::new(),
            skipped: Vec::new(),
            interrupted: None,
        };
        let mut references = Vec::new();
        let mut expected_tle = Vec::new();
        for solution in solutions {
            match Role::of(&solution.expected) {
                Some(Role::Reference) => references.push(solution.clone()),
                Some(Role::ExpectedTle) => expected_tle.push(solution.clone()),
                None => calibration.skipped.push(Skipped {
                    name: solution.name.clone(),
                    expected: solution.expected.clone(),
                }),
            }
        }
        for (group, role) in [
            (&references, Role::Reference),
            (&expected_tle, Role::ExpectedTle),
        ] {
            calibration
                .solutions
                .extend(group.iter().map(|s| SolutionTiming {
                    name: s.name.clone(),
                    language: s.language.name().to_owned(),
                    expected: s.expected.clone(),
                    role,
                    ran_under: role.limit(problem.limits.time),
                    runs: Vec::new(),
                }));
        }
        let mut pass = Pass {
            judge: self.judge,
            problem,
            rounds: self.runs,
            calibration: &mut calibration,
            on_event,
        };
        let outcome = (|| {
            for round in 1..=self.runs {
                pass.run(round, &references, tests, Role::Reference)?;
                for solution in &expected_tle {
                    // Killed under 1.5 x the limit once, it cannot finish within it: not run there again.
                    let timing = pass.timing(&solution.name);
                    let killed = timing.timed_out();
                    let left: Vec<Test> = tests
                        .iter()
                        .filter(|t| !killed.contains(&t.name.as_str()))
                        .cloned()
                        .collect();
                    pass.run(
                        round,
                        std::slice::from_ref(solution),
                        &left,
                        Role::ExpectedTle,
                    )?;
                }
            }
            Ok(())
        })();
        match outcome {
            Err(Error::Interrupted) => {}
            other => other?,
        }
        Ok(calibration)
    }
}

/// What one pass needs, and where its runs go.
struct Pass<'a> {
    judge: &'a Judge<'a>,
    problem: &'a Problem,
    rounds: usize,
    calibration: &'a mut Calibration,
    on_event: &'a mut dyn FnMut(CalibrationEvent),
}

impl Pass<'_> {
    fn timing(&self, name: &str) -> &SolutionTiming {
        self.calibration
            .solutions
            .iter()
            .find(|s| s.name == name)
            .expect("every solution timed has a timing")
    }

    /// One pass of `solutions` on `tests` under the limit of `role`, then the borderline runs again. An
    /// interruption is recorded in the calibration and returned as [`Error::Interrupted`].
    fn run(
        &mut self,
        round: usize,
        solutions: &[Solution],
        tests: &[Test],
        role: Role,
    ) -> Result<()> {
        if solutions.is_empty() || tests.is_empty() {
            return Ok(());
        }
        let limit = role.limit(self.problem.limits.time);
        let report = self.judge(round, solutions, tests, limit, false)?;
        for solution in &report.solutions {
            let borderline: Vec<Test> = tests
                .iter()
                .filter(|t| {
                    solution
                        .tests
                        .iter()
                        .any(|r| r.name == t.name && is_borderline(r.cpu, r.verdict, limit))
                })
                .cloned()
                .collect();
            if borderline.is_empty() {
                continue;
            }
            let one: Vec<Solution> = solutions
                .iter()
                .filter(|s| s.name == solution.name)
                .cloned()
                .collect();
            self.judge(round, &one, &borderline, limit, true)?;
        }
        Ok(())
    }

    /// A judge of `solutions` on `tests` under `limit`, its runs added to the calibration.
    fn judge(
        &mut self,
        round: usize,
        solutions: &[Solution],
        tests: &[Test],
        limit: Duration,
        repeat: bool,
    ) -> Result<JudgeReport> {
        let mut problem = self.problem.clone();
        problem.limits.time = limit;
        (self.on_event)(CalibrationEvent::Pass {
            round,
            rounds: self.rounds,
            solutions,
            tests: tests.len(),
            limit,
            repeat,
        });
        let on_event = &mut *self.on_event;
        let report = self.judge.judge(&problem, solutions, tests, &mut |event| {
            on_event(CalibrationEvent::Judge(&event))
        })?;
        for solution in &report.solutions {
            if !solution.compile.ok {
                return Err(Error::ToolCompile {
                    what: "solution",
                    path: solution.path.clone(),
                    message: solution.compile.message.clone(),
                });
            }
            let timing = self
                .calibration
                .solutions
                .iter_mut()
                .find(|s| s.name == solution.name)
                .expect("every solution timed has a timing");
            timing.runs.extend(solution.tests.iter().map(|r| Run {
                test: r.name.clone(),
                // Timed under the limit it ran under: a run of a package's submission expected TLE that went over
                // the package's limit but ended within the TLE margin counts as what it got there.
                verdict: r.at_margin.unwrap_or(r.verdict),
                cpu: r.cpu,
                repeat,
            }));
        }
        if let Some(interruption) = &report.interrupted {
            self.calibration.interrupted = Some(interruption.during.clone());
            return Err(Error::Interrupted);
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn reference(name: &str, language: &str, cpu: u64) -> SolutionTiming {
        SolutionTiming {
            name: name.into(),
            language: language.into(),
            expected: vec![Verdict::Accepted],
            role: Role::Reference,
            ran_under: ms(3000),
            runs: vec![Run {
                test: "1".into(),
                verdict: Verdict::Accepted,
                cpu: ms(cpu),
                repeat: false,
            }],
        }
    }

    fn calibration(floor: u64, solutions: Vec<SolutionTiming>) -> Calibration {
        Calibration {
            problem: "p".into(),
            time_limit: ms(1000),
            floor: ms(floor),
            runs: 1,
            tests: 1,
            solutions,
            skipped: Vec::new(),
            interrupted: None,
        }
    }

    #[test]
    fn each_language_by_its_slowest_reference_and_the_slowest_sets_the_limit() {
        let c = calibration(
            100,
            vec![
                reference("a.cpp", "C++", 20),
                reference("b.cpp", "C++", 45),
                reference("slow.py", "Python 3", 800),
                reference("a.rs", "Rust", 30),
            ],
        );
        let s = c.suggestion().unwrap();
        let each: Vec<(&str, &str, Duration)> = s
            .languages
            .iter()
            .map(|l| (l.language.as_str(), l.solution.as_str(), l.suggested))
            .collect();
        assert_eq!(
            each,
            [
                ("C++", "b.cpp", ms(100)),
                ("Python 3", "slow.py", ms(1600)),
                ("Rust", "a.rs", ms(100)),
            ]
        );
        assert_eq!(
            (s.limit, s.set_by.solution.as_str(), s.floored),
            (ms(1600), "slow.py", false)
        );
        assert_eq!(s.far_above().map(|l| l.language.as_str()), Some("C++"));

        // Under the default floor both languages get 1s: nothing to note, and the floor sets it.
        let c = calibration(
            1000,
            vec![
                reference("a.cpp", "C++", 2),
                reference("slow.py", "Python 3", 80),
            ],
        );
        let s = c.suggestion().unwrap();
        assert_eq!(
            (s.limit, s.set_by.solution.as_str(), s.floored),
            (ms(1000), "slow.py", true)
        );
        assert_eq!(s.far_above(), None);

        // No reference, no suggestion.
        assert_eq!(calibration(1000, Vec::new()).suggestion(), None);
    }
}
