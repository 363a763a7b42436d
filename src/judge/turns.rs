//! Turns to run: a judge of many tests runs at most `jobs` at once, but makes one test more ready meanwhile (its
//! folder, its input and output opened), so that the work between two runs (the last result judged and recorded,
//! the next run made ready) goes on beside a run instead of between runs.
//!
//! A test takes its turn just before its first run starts, once what it runs on is open, and holds it until its
//! result is recorded: every run made for it (a checker's, an interactor's, a later pass's) is made in that turn,
//! so no more runs go at once than before. Whether the test is still wanted is asked again once its turn comes: the
//! result of the test before it, recorded meanwhile, may have made it needless.

use crate::error::{Error, Result};
use crate::sandbox::{RunResult, RunSpec, Runner};
use std::fs::File;
use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex};

/// The turns a judge's tests take: how many runs may go at once, and the tests waiting for one, which take them in
/// their order.
pub(super) struct Turns {
    state: Mutex<State>,
    changed: Condvar,
}

struct State {
    free: usize,
    /// The tests waiting, by their place in the judge's order.
    waiting: BTreeSet<usize>,
}

impl Turns {
    pub fn new(at_once: usize) -> Turns {
        Turns {
            state: Mutex::new(State {
                free: at_once,
                waiting: BTreeSet::new(),
            }),
            changed: Condvar::new(),
        }
    }

    /// Waits until a turn is free and no test before `test` is waiting for one.
    fn take(&self, test: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.waiting.insert(test);
        while state.free == 0 || state.waiting.first() != Some(&test) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.waiting.remove(&test);
        state.free -= 1;
        // The next test waiting may take another free turn.
        self.changed.notify_all();
    }

    fn give_back(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).free += 1;
        self.changed.notify_all();
    }
}

/// One test's claim to a turn: taken by its first run, given back when the claim is dropped.
pub(super) struct Claim<'a> {
    turns: &'a Turns,
    /// The test's place in the judge's order.
    test: usize,
    /// None until the turn is taken; then whether the test was still wanted.
    held: Mutex<Option<bool>>,
    /// Whether the test is still to be run, asked once its turn has come.
    wanted: &'a (dyn Fn() -> bool + Sync),
}

impl<'a> Claim<'a> {
    pub fn new(turns: &'a Turns, test: usize, wanted: &'a (dyn Fn() -> bool + Sync)) -> Claim<'a> {
        Claim {
            turns,
            test,
            held: Mutex::new(None),
            wanted,
        }
    }

    /// Waits for the test's turn, unless it holds it already (the two sides of a dialogue start together); fails
    /// with [`Error::NotWanted`] if, by then, the test is no longer to be run, and so does every later run of it.
    fn enter(&self) -> Result<()> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let wanted = *held.get_or_insert_with(|| {
            self.turns.take(self.test);
            (self.wanted)()
        });
        match wanted {
            true => Ok(()),
            false => Err(Error::NotWanted),
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if self
            .held
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
        {
            self.turns.give_back();
        }
    }
}

/// A runner whose runs are made in a claim's turn.
pub(super) struct InTurn<'a> {
    pub runner: &'a dyn Runner,
    pub claim: &'a Claim<'a>,
}

impl Runner for InTurn<'_> {
    fn run(&self, spec: &RunSpec) -> Result<RunResult> {
        self.runner.run_when(spec, &|| self.claim.enter())
    }

    fn run_attached(&self, spec: &RunSpec, stdin: File, stdout: File) -> Result<RunResult> {
        self.claim.enter()?;
        self.runner.run_attached(spec, stdin, stdout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Counts the runs going at once, and the most there ever were.
    #[derive(Default)]
    struct Counting {
        now: AtomicUsize,
        most: AtomicUsize,
        made: AtomicUsize,
    }

    impl Runner for Counting {
        fn run(&self, spec: &RunSpec) -> Result<RunResult> {
            let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            self.now.fetch_sub(1, Ordering::SeqCst);
            self.made.fetch_add(1, Ordering::SeqCst);
            let _ = spec;
            Ok(RunResult {
                termination: crate::sandbox::Termination::Exited(0),
                cpu: Duration::ZERO,
                wall: Duration::ZERO,
                peak_memory: crate::units::Bytes(0),
                stdout_bytes: 0,
                stderr: Vec::new(),
                stderr_bytes: 0,
                killed_for: None,
                kept_out: false,
            })
        }
    }

    fn spec() -> RunSpec {
        let here = std::path::Path::new("/");
        crate::runs::compile(vec!["true".into()], Vec::new(), here, Vec::new(), here, false)
    }

    #[test]
    fn no_more_runs_go_at_once_than_there_are_turns_and_a_test_runs_all_its_runs_in_one() {
        for at_once in [1, 2] {
            let counting = Counting::default();
            let turns = Turns::new(at_once);
            let always = || true;
            let next = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..at_once + 2 {
                    scope.spawn(|| {
                        for _ in 0..10 {
                            let test = next.fetch_add(1, Ordering::SeqCst);
                            let claim = Claim::new(&turns, test, &always);
                            let runner = InTurn {
                                runner: &counting,
                                claim: &claim,
                            };
                            // A solution's run and its checker's, in one turn: a second claim would wait for ever
                            // with one turn.
                            runner.run(&spec()).unwrap();
                            runner.run(&spec()).unwrap();
                        }
                    });
                }
            });
            assert_eq!(counting.most.load(Ordering::SeqCst), at_once);
            assert_eq!(counting.made.load(Ordering::SeqCst), (at_once + 2) * 20);
        }
    }

    #[test]
    fn a_test_no_longer_wanted_when_its_turn_comes_is_not_run_and_gives_its_turn_back() {
        let counting = Counting::default();
        let turns = Turns::new(1);
        let never = || false;
        let claim = Claim::new(&turns, 0, &never);
        let runner = InTurn {
            runner: &counting,
            claim: &claim,
        };
        assert!(matches!(runner.run(&spec()), Err(Error::NotWanted)));
        // Nor is any later run of the test, such as the other side of a dialogue.
        assert!(matches!(runner.run(&spec()), Err(Error::NotWanted)));
        drop(claim);
        assert_eq!(counting.made.load(Ordering::SeqCst), 0);
        // The turn is free again.
        let always = || true;
        let claim = Claim::new(&turns, 1, &always);
        let runner = InTurn {
            runner: &counting,
            claim: &claim,
        };
        runner.run(&spec()).unwrap();
        assert_eq!(counting.made.load(Ordering::SeqCst), 1);
    }
}
