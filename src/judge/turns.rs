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
use std::collections::BTreeSet;
use std::fs::File;
use std::sync::{Condvar, Mutex};

/// The turns a judge's tests take: how many runs may go at once, and the tests handed out that have not yet taken
/// one, which take them in their order.
pub(super) struct Turns {
    state: Mutex<State>,
    changed: Condvar,
}

struct State {
    free: usize,
    /// How many tests have been handed out.
    handed_out: usize,
    /// The tests handed out that have neither taken a turn nor given up their claim, by their place in the order.
    pending: BTreeSet<usize>,
}

impl Turns {
    pub fn new(at_once: usize) -> Turns {
        Turns {
            state: Mutex::new(State {
                free: at_once,
                handed_out: 0,
                pending: BTreeSet::new(),
            }),
            changed: Condvar::new(),
        }
    }

    /// The next test to judge, by its place in the judge's order: no test after it takes a turn before it has
    /// taken its own or dropped its [`Claim`], which must be made at once.
    pub fn next_test(&self) -> usize {
        let mut state = self.lock();
        let test = state.handed_out;
        state.handed_out += 1;
        state.pending.insert(test);
        test
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until a turn is free and no test before `test` is pending.
    fn take(&self, test: usize) {
        let mut state = self.lock();
        while state.free == 0 || state.pending.first() != Some(&test) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.pending.remove(&test);
        state.free -= 1;
        // The next test pending may take another free turn.
        self.changed.notify_all();
    }

    /// Gives up the turn of a test that ran nothing (not wanted, or its result kept from an earlier judge).
    fn pass(&self, test: usize) {
        if self.lock().pending.remove(&test) {
            self.changed.notify_all();
        }
    }

    fn give_back(&self) {
        self.lock().free += 1;
        self.changed.notify_all();
        // The next test, ready and waiting for the turn, is woken on this processor: it goes first, to send its run
        // to the worker, and this thread's work (making a later test ready) comes after.
        std::thread::yield_now();
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
    /// The claim of `test`, as [`Turns::next_test`] handed it out.
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
        if held.is_none() {
            self.turns.take(self.test);
            // Held from here on, so that the turn is given back even if the question panics.
            *held = Some(false);
            *held = Some((self.wanted)());
        }
        match *held {
            Some(true) => Ok(()),
            _ => Err(Error::NotWanted),
        }
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        match self.held.get_mut().unwrap_or_else(|e| e.into_inner()) {
            Some(_) => self.turns.give_back(),
            None => self.turns.pass(self.test),
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
            Ok(RunResult::at_once())
        }
    }

    fn spec() -> RunSpec {
        let here = std::path::Path::new("/");
        crate::runs::compile(
            vec!["true".into()],
            Vec::new(),
            here,
            Vec::new(),
            here,
            false,
        )
    }

    #[test]
    fn no_more_runs_go_at_once_than_there_are_turns_and_a_test_runs_all_its_runs_in_one() {
        for at_once in [1, 2] {
            let counting = Counting::default();
            let turns = Turns::new(at_once);
            let always = || true;
            std::thread::scope(|scope| {
                for _ in 0..at_once + 2 {
                    scope.spawn(|| {
                        for _ in 0..10 {
                            let test = turns.next_test();
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
        let claim = Claim::new(&turns, turns.next_test(), &never);
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
        let claim = Claim::new(&turns, turns.next_test(), &always);
        let runner = InTurn {
            runner: &counting,
            claim: &claim,
        };
        runner.run(&spec()).unwrap();
        assert_eq!(counting.made.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn turns_go_in_the_tests_order_however_long_each_takes_to_get_ready() {
        let turns = Turns::new(1);
        let order = Mutex::new(Vec::new());
        let always = || true;
        std::thread::scope(|scope| {
            for ready_after in [50, 0, 20] {
                // Handed out in this order, as the engine's threads take them.
                let test = turns.next_test();
                let (turns, order) = (&turns, &order);
                scope.spawn(move || {
                    let claim = Claim::new(turns, test, &always);
                    std::thread::sleep(Duration::from_millis(ready_after));
                    claim.enter().unwrap();
                    order.lock().unwrap().push(test);
                });
            }
        });
        assert_eq!(*order.lock().unwrap(), [0, 1, 2]);
    }

    #[test]
    fn a_test_that_runs_nothing_holds_back_no_other() {
        let turns = Turns::new(1);
        let always = || true;
        let kept = Claim::new(&turns, turns.next_test(), &always);
        let after = Claim::new(&turns, turns.next_test(), &always);
        // The first test's result was kept: it gives up its claim without a turn.
        drop(kept);
        after.enter().unwrap();
    }

    #[test]
    fn a_question_that_panics_gives_the_turn_back() {
        let turns = Turns::new(1);
        let panics = || -> bool { panic!("a poisoned plan") };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let claim = Claim::new(&turns, turns.next_test(), &panics);
            let _ = claim.enter();
        }));
        assert!(caught.is_err());
        assert_eq!(turns.lock().free, 1);
    }
}
