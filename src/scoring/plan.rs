//! Which tests a solution must run, given the failures so far: a group that stops at its first rejection runs
//! nothing after a rejected child, and a group whose required groups failed is not run at all. Judging in
//! parallel starts tests before earlier ones end; [`Plan`] is asked before each start, and once more, in order,
//! to keep exactly the results a one-at-a-time judge would have.

use super::expect::Expectation;
use super::tree::{Child, Group, Tree};

/// The tree, flattened for quick questions. Tests are numbered in the tree's order.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Numbered parents first, each after the groups before it in the tree's order: a test's group is the last
    /// whose range holds it. Nothing is held for each test, since a judge of many tests keeps its plan while they
    /// run.
    groups: Vec<Node>,
    /// How many tests the tree has.
    tests: usize,
}

#[derive(Debug, Clone)]
struct Node {
    parent: Option<usize>,
    /// The tests below it, as the range of their numbers.
    start: usize,
    end: usize,
    breaks: bool,
    fails_with_a_child: bool,
    /// The groups it requires to pass.
    requires: Vec<usize>,
    /// The outermost group at or above it whose verdict or score a rule asks for as if all of it ran: that group
    /// runs as if alone, nothing above it stopping it and no requirement gating it or a group inside it.
    decided_at: Option<usize>,
}

/// What the failures so far decide.
#[derive(Debug, Clone)]
pub struct Progress {
    /// Per group: from which test on nothing more of it is run.
    stopped_from: Vec<usize>,
    /// Per group: whether a test below it was rejected.
    failed: Vec<bool>,
}

impl Plan {
    /// The plan of `tree`, whose tests must be numbered 0.. in the tree's order.
    pub fn new(tree: &Tree) -> Plan {
        Plan::deciding(tree, |_| false)
    }

    /// The plan a solution with `rules` is judged by, or None where they need every test run (`--all` too).
    pub fn for_rules(tree: &Tree, rules: &[Expectation], all: bool) -> Option<Plan> {
        if all || rules.iter().any(Expectation::needs_every_test) {
            return None;
        }
        Some(Plan::deciding(tree, |group| {
            rules.iter().any(|rule| rule.decides_group(group))
        }))
    }

    /// The plan of `tree`, where each group `decided` names runs as if alone.
    fn deciding(tree: &Tree, decided: impl Fn(&str) -> bool) -> Plan {
        let mut plan = Plan {
            groups: Vec::new(),
            tests: 0,
        };
        // Each group's name and the names it requires, by number, resolved once every group is numbered.
        let mut names = Vec::new();
        plan.add(&tree.root, None, &mut names);
        for (id, (name, required)) in names.iter().enumerate() {
            let parent = plan.groups[id].parent;
            // Groups are numbered parents first: a parent's is known.
            let above = parent.and_then(|p| plan.groups[p].decided_at);
            let own = parent.is_some() && decided(name);
            let node = &mut plan.groups[id];
            node.requires = required
                .iter()
                .filter_map(|r| names.iter().position(|(n, _)| n == r))
                .collect();
            node.decided_at = above.or(own.then_some(id));
        }
        plan
    }

    fn add<'a>(
        &mut self,
        group: &'a Group,
        parent: Option<usize>,
        names: &mut Vec<(&'a str, &'a [String])>,
    ) {
        let id = self.groups.len();
        names.push((&group.name, group.require_pass()));
        self.groups.push(Node {
            parent,
            start: self.tests,
            end: 0,
            breaks: group.breaks(),
            fails_with_a_child: group.fails_with_a_child(),
            requires: Vec::new(),
            decided_at: None,
        });
        for child in group.children() {
            match child {
                // A static validation test case is planned as any test of its group.
                Child::Test(index) | Child::Static { test: index, .. } => {
                    debug_assert_eq!(index, self.tests, "tests out of the tree's order");
                    self.tests += 1;
                }
                Child::Group(child) => self.add(child, Some(id), names),
            }
        }
        self.groups[id].end = self.tests;
    }

    /// The group test `index` is in: the innermost holding it, numbered after those around it.
    fn parent(&self, index: usize) -> usize {
        self.groups
            .iter()
            .rposition(|node| (node.start..node.end).contains(&index))
            .expect("every test is in the tree's root")
    }

    /// Nothing failed yet.
    pub fn start(&self) -> Progress {
        Progress {
            stopped_from: vec![usize::MAX; self.groups.len()],
            failed: vec![false; self.groups.len()],
        }
    }

    /// Whether test `index` is to be run, given `progress`.
    pub fn wanted(&self, index: usize, progress: &Progress) -> bool {
        // Within the outermost decided group holding the test, only the stops of that group and those inside it.
        let parent = self.parent(index);
        let decided = self.groups[parent].decided_at;
        let mut group = Some(parent);
        while let Some(id) = group {
            let node = &self.groups[id];
            if index >= progress.stopped_from[id]
                || (decided.is_none() && node.requires.iter().any(|&r| progress.failed[r]))
            {
                return false;
            }
            if decided == Some(id) {
                break;
            }
            group = node.parent;
        }
        true
    }

    /// Records test `index`'s outcome.
    pub fn record(&self, index: usize, accepted: bool, progress: &mut Progress) {
        if accepted {
            return;
        }
        // Every group above it has a rejected test; the failure stops a group that breaks from the end of the
        // child it came through, as far up as it surely makes that child rejected.
        let mut child_end = index + 1;
        let mut propagates = true;
        let mut group = Some(self.parent(index));
        while let Some(id) = group {
            let node = &self.groups[id];
            progress.failed[id] = true;
            if propagates && node.breaks {
                progress.stopped_from[id] = progress.stopped_from[id].min(child_end);
            }
            propagates = propagates && node.fails_with_a_child;
            child_end = node.end;
            group = node.parent;
        }
    }

    /// Of `results` (by test, None where not run), those a one-at-a-time judge keeps: in order, each wanted given
    /// the kept ones before it. Where a wanted test has no result, `missing` is called for it.
    pub fn keep<T, E>(
        &self,
        mut results: Vec<Option<T>>,
        accepted: impl Fn(&T) -> bool,
        mut missing: impl FnMut(usize) -> Result<T, E>,
    ) -> Result<Vec<Option<T>>, E> {
        let mut progress = self.start();
        for (index, slot) in results.iter_mut().enumerate() {
            if !self.wanted(index, &progress) {
                *slot = None;
                continue;
            }
            let result = match slot.take() {
                Some(result) => result,
                None => missing(index)?,
            };
            self.record(index, accepted(&result), &mut progress);
            *slot = Some(result);
        }
        Ok(results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::tree::{
        Aggregation, Item, LegacyRule, MaxScore, OnReject, Rule, VerdictRule,
    };

    fn modern(name: &str, aggregation: Aggregation, requires: &[&str], items: Vec<Item>) -> Group {
        Group {
            name: name.into(),
            rule: Rule::Modern {
                max: MaxScore::Bounded(10.0),
                aggregation,
                require_pass: requires.iter().map(|s| s.to_string()).collect(),
                counted: true,
            },
            items,
        }
    }

    fn tests(range: std::ops::Range<usize>) -> Vec<Item> {
        range.map(Item::Test).collect()
    }

    /// The tests a one-at-a-time judge runs when the tests in `failing` fail.
    fn run(tree: &Tree, failing: &[usize]) -> Vec<usize> {
        run_plan(&Plan::new(tree), tree, failing)
    }

    fn run_plan(plan: &Plan, tree: &Tree, failing: &[usize]) -> Vec<usize> {
        let n = tree.order().len();
        let mut progress = plan.start();
        let mut ran = Vec::new();
        for i in 0..n {
            if plan.wanted(i, &progress) {
                ran.push(i);
                plan.record(i, !failing.contains(&i), &mut progress);
            }
        }
        ran
    }

    #[test]
    fn pass_fail_stops_at_the_first_failure() {
        let tree = Tree::pass_fail(5);
        assert_eq!(run(&tree, &[2, 3]), [0, 1, 2]);
        assert_eq!(run(&tree, &[]), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_pass_fail_tree_holds_its_tests_as_one_run() {
        let tree = Tree::pass_fail(30_000);
        assert_eq!(tree.root.items.len(), 1);
        assert_eq!(tree.order().len(), 30_000);
        assert_eq!(run(&tree, &[29_998]).len(), 29_999);
    }

    #[test]
    fn a_pass_fail_group_stops_alone_and_required_groups_gate() {
        use Aggregation::*;
        let tree = Tree {
            root: modern(
                "",
                Sum,
                &[],
                vec![
                    Item::Group(Box::new(modern("sample", PassFail, &[], tests(0..2)))),
                    Item::Group(Box::new(modern(
                        "secret",
                        Sum,
                        &[],
                        vec![
                            Item::Group(Box::new(modern("secret/a", PassFail, &[], tests(2..5)))),
                            Item::Group(Box::new(modern("secret/b", Sum, &[], tests(5..8)))),
                            Item::Group(Box::new(modern(
                                "secret/c",
                                PassFail,
                                &["secret/a"],
                                tests(8..10),
                            ))),
                            Item::Group(Box::new(modern(
                                "secret/d",
                                PassFail,
                                &["sample"],
                                tests(10..11),
                            ))),
                        ],
                    ))),
                ],
            ),
            scored: true,
        };
        // a fails at 3: its 4 is not run, nor is c, which requires a; b runs whole though 5 fails.
        assert_eq!(run(&tree, &[3, 5]), [0, 1, 2, 3, 5, 6, 7, 10]);
        // A failed sample stops the samples and d, which requires them.
        assert_eq!(run(&tree, &[0]), [0, 2, 3, 4, 5, 6, 7, 8, 9]);

        // A group whose own verdict a rule asks for runs to its first failure, whatever gated it.
        let decided = Plan::deciding(&tree, |g| ["secret/c", "secret/d"].contains(&g));
        assert_eq!(
            run_plan(&decided, &tree, &[3, 5, 8]),
            [0, 1, 2, 3, 5, 6, 7, 8, 10]
        );
        assert_eq!(
            run_plan(&decided, &tree, &[0]),
            [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        );
        // And past a parent that stopped: within it, its own stops hold.
        let tree = Tree {
            root: modern(
                "",
                PassFail,
                &[],
                vec![
                    Item::Group(Box::new(modern("a", PassFail, &[], tests(0..2)))),
                    Item::Group(Box::new(modern("b", PassFail, &[], tests(2..5)))),
                ],
            ),
            scored: true,
        };
        assert_eq!(run(&tree, &[0, 3]), [0]);
        let decided = Plan::deciding(&tree, |g| g == "b");
        assert_eq!(run_plan(&decided, &tree, &[0, 3]), [0, 2, 3]);
    }

    #[test]
    fn a_static_case_is_planned_as_a_test_of_its_group() {
        use Aggregation::*;
        let with_static = |name: &str, aggregation, requires: &[&str], first: usize, end: usize| {
            let mut items = vec![Item::Static {
                test: first,
                score: crate::scoring::StaticScore::PassFail,
            }];
            items.extend(tests(first + 1..end));
            Item::Group(Box::new(modern(name, aggregation, requires, items)))
        };
        let tree = Tree {
            root: modern(
                "",
                Sum,
                &[],
                vec![Item::Group(Box::new(modern(
                    "secret",
                    Sum,
                    &[],
                    vec![
                        with_static("secret/a", PassFail, &[], 0, 3),
                        with_static("secret/b", Sum, &[], 3, 5),
                        Item::Group(Box::new(modern(
                            "secret/c",
                            PassFail,
                            &["secret/a"],
                            tests(5..6),
                        ))),
                    ],
                )))],
            ),
            scored: true,
        };
        // a's static case is rejected: nothing more of a runs, nor c, which requires a.
        assert_eq!(run(&tree, &[0]), [0, 3, 4]);
        // b sums: its tests run after its static case's rejection.
        assert_eq!(run(&tree, &[3]), [0, 1, 2, 3, 4, 5]);
        // A rule on a alone runs a to its first failure, whatever else stopped.
        let decided = Plan::deciding(&tree, |g| g == "secret/c");
        assert_eq!(run_plan(&decided, &tree, &[0]), [0, 3, 4, 5]);
    }

    #[test]
    fn a_legacy_group_that_may_accept_a_failed_child_does_not_stop_its_parent() {
        let legacy = |name: &str, on_reject, any, items| Group {
            name: String::from(name),
            rule: Rule::Legacy(LegacyRule {
                on_reject,
                accept_if_any_accepted: any,
                verdicts: VerdictRule::FirstError,
                ..LegacyRule::default()
            }),
            items,
        };
        let tree = |any| Tree {
            root: legacy(
                "",
                OnReject::Break,
                false,
                vec![
                    Item::Group(Box::new(legacy("a", OnReject::Continue, any, tests(0..2)))),
                    Item::Group(Box::new(legacy("b", OnReject::Break, false, tests(2..4)))),
                ],
            ),
            scored: true,
        };
        assert_eq!(run(&tree(false), &[0]), [0, 1]);
        assert_eq!(run(&tree(true), &[0]), [0, 1, 2, 3]);
    }

    #[test]
    fn keeping_drops_what_ran_after_a_stop_and_runs_what_is_missing() {
        let tree = Tree::pass_fail(4);
        let plan = Plan::new(&tree);
        // 0 ran and passed, 1 failed, 2 ran meanwhile; 3 never started.
        let results = vec![Some(true), Some(false), Some(true), None];
        let kept = plan
            .keep(results, |ok| *ok, |_| Err::<bool, ()>(()))
            .unwrap();
        assert_eq!(kept, [Some(true), Some(false), None, None]);
        let mut asked = Vec::new();
        let kept = plan
            .keep(
                vec![Some(true), None, Some(true), Some(true)],
                |ok| *ok,
                |i| {
                    asked.push(i);
                    Ok::<bool, ()>(true)
                },
            )
            .unwrap();
        assert_eq!(asked, [1]);
        assert_eq!(kept, [Some(true); 4]);
    }
}
