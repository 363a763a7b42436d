//! The tree of a problem's tests: groups nested in groups, each with the rule that decides its verdict and
//! score. Two families of rules exist: the Problem Package Format's 2025-09 rules (`max_score`,
//! `score_aggregation`, `require_pass`), which cpjudge's own groups use too, and the legacy format's default
//! grader (`accept_score`, `grader_flags`, `on_reject`), kept exact for packages written for it.

/// A problem's tests as groups. Tests are indices into the problem's list of tests, which is in the order of a
/// walk of this tree ([`Tree::order`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    pub root: Group,
    /// Whether solutions get scores: a pass-fail problem's tree is one group that stops at the first failure.
    pub scored: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Its name: its folder below `data/` in a package ("secret/group1"), its own name in `problem.toml`.
    pub name: String,
    pub rule: Rule,
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Test(usize),
    /// The group's static validation test case (2025-09): a test like the others, numbered among them, that the
    /// static validator judges from the submission's files; worth what its group's `static_validation_score` says.
    Static {
        test: usize,
        score: StaticScore,
    },
    /// Boxed: a group is many times the size of a test's number.
    Group(Box<Group>),
    /// A run of tests in order, each as an [`Item::Test`]: a pass-fail problem's tree holds every test as one,
    /// instead of an item for each, since a judge of many tests keeps its tree while the tests run.
    Tests(std::ops::Range<usize>),
}

/// An item of a group as it is read: a run of tests gives each of its tests in turn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Child<'a> {
    Test(usize),
    Static { test: usize, score: StaticScore },
    Group(&'a Group),
}

/// What a group's static validation test case is worth: `static_validation_score`, a non-negative integer (its
/// maximum score) or `pass-fail` (a test that must be accepted, in a pass-fail group or problem).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaticScore {
    Points(u64),
    PassFail,
}

impl Child<'_> {
    /// The test this child is, static or not; None for a group.
    pub fn test(&self) -> Option<usize> {
        match self {
            Child::Test(test) | Child::Static { test, .. } => Some(*test),
            Child::Group(_) => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// 2025-09's rules.
    Modern {
        max: MaxScore,
        aggregation: Aggregation,
        /// Groups (by name) whose every test must be accepted for this group to be run and scored.
        require_pass: Vec<String>,
        /// Whether this group's score counts towards its parent's: the samples' does not.
        counted: bool,
    },
    /// The legacy format's default grader.
    Legacy(LegacyRule),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MaxScore {
    Bounded(f64),
    Unbounded,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    PassFail,
    Sum,
    Min,
}

/// A legacy group's configuration (`testdata.yaml`), each key inherited from the parent group's file where
/// its own does not give it, as problemtools reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyRule {
    pub accept_score: f64,
    pub reject_score: f64,
    /// The range a group's score is expected in: a score outside it is reported, not changed.
    pub range: (f64, f64),
    pub on_reject: OnReject,
    pub verdicts: VerdictRule,
    pub scores: ScoreRule,
    /// The group's result is its last child's (the samples are left out of the problem's score).
    pub ignore_sample: bool,
    /// The group is accepted when any child is.
    pub accept_if_any_accepted: bool,
}

impl Default for LegacyRule {
    fn default() -> Self {
        LegacyRule {
            accept_score: 1.0,
            reject_score: 0.0,
            range: (f64::NEG_INFINITY, f64::INFINITY),
            on_reject: OnReject::Break,
            verdicts: VerdictRule::WorstError,
            scores: ScoreRule::Sum,
            ignore_sample: false,
            accept_if_any_accepted: false,
        }
    }
}

impl LegacyRule {
    /// Takes a group's `grader_flags`, which replace its parent's whole line (the grader runs with them alone);
    /// the flag the default grader does not know, if any.
    pub fn take_grader_flags(&mut self, flags: &str) -> Result<(), String> {
        self.verdicts = VerdictRule::WorstError;
        self.scores = ScoreRule::Sum;
        self.ignore_sample = false;
        self.accept_if_any_accepted = false;
        for flag in flags.split_whitespace() {
            match flag {
                "sum" => self.scores = ScoreRule::Sum,
                "avg" => self.scores = ScoreRule::Avg,
                "min" => self.scores = ScoreRule::Min,
                "max" => self.scores = ScoreRule::Max,
                "worst_error" | "no_errors" => self.verdicts = VerdictRule::WorstError,
                "first_error" => self.verdicts = VerdictRule::FirstError,
                "always_accept" => self.verdicts = VerdictRule::AlwaysAccept,
                "ignore_sample" => self.ignore_sample = true,
                "accept_if_any_accepted" => self.accept_if_any_accepted = true,
                other => return Err(other.to_owned()),
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnReject {
    /// The group's judging stops at its first rejected child.
    Break,
    Continue,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictRule {
    /// The worst verdict among the children, in the grader's order of severity.
    WorstError,
    /// The first non-AC verdict.
    FirstError,
    AlwaysAccept,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreRule {
    Sum,
    Avg,
    Min,
    Max,
}

impl Tree {
    /// A pass-fail problem's tree: every test in one group, judging stopping at the first failure.
    pub fn pass_fail(tests: usize) -> Tree {
        Tree {
            root: Group {
                name: String::new(),
                rule: Rule::Modern {
                    max: MaxScore::Unbounded,
                    aggregation: Aggregation::PassFail,
                    require_pass: Vec::new(),
                    counted: true,
                },
                items: vec![Item::Tests(0..tests)],
            },
            scored: false,
        }
    }

    /// The tests in the order of a walk of the tree: the order they are judged and reported in.
    pub fn order(&self) -> Vec<usize> {
        let mut order = Vec::new();
        self.root.walk(&mut |child| order.extend(child.test()));
        order
    }

    /// Every group, parents before their children.
    pub fn groups(&self) -> Vec<&Group> {
        let mut groups = vec![&self.root];
        self.root.walk(&mut |child| {
            if let Child::Group(group) = child {
                groups.push(group);
            }
        });
        groups
    }
}

impl Group {
    /// Its items, each run of tests as its tests.
    pub fn children(&self) -> impl Iterator<Item = Child<'_>> {
        self.items.iter().flat_map(|item| {
            let (one, run) = match item {
                Item::Test(test) => (Some(Child::Test(*test)), 0..0),
                Item::Static { test, score } => (
                    Some(Child::Static {
                        test: *test,
                        score: *score,
                    }),
                    0..0,
                ),
                Item::Group(group) => (Some(Child::Group(group)), 0..0),
                Item::Tests(run) => (None, run.clone()),
            };
            one.into_iter().chain(run.map(Child::Test))
        })
    }

    /// Calls `f` on every child below this group, depth first, in order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(Child<'a>)) {
        for child in self.children() {
            f(child);
            if let Child::Group(group) = child {
                group.walk(f);
            }
        }
    }

    /// Every test below this group.
    pub fn tests(&self) -> Vec<usize> {
        let mut tests = Vec::new();
        self.walk(&mut |child| tests.extend(child.test()));
        tests
    }

    /// Whether judging this group stops at its first rejected child.
    pub fn breaks(&self) -> bool {
        match &self.rule {
            Rule::Modern { aggregation, .. } => *aggregation == Aggregation::PassFail,
            Rule::Legacy(rule) => rule.on_reject == OnReject::Break,
        }
    }

    /// Whether a rejected child surely makes this group rejected: not so where the group may be accepted all
    /// the same (a legacy grader that always accepts, or accepts when any child is accepted).
    pub fn fails_with_a_child(&self) -> bool {
        match &self.rule {
            Rule::Modern { .. } => true,
            Rule::Legacy(rule) => {
                rule.verdicts != VerdictRule::AlwaysAccept && !rule.accept_if_any_accepted
            }
        }
    }

    pub fn require_pass(&self) -> &[String] {
        match &self.rule {
            Rule::Modern { require_pass, .. } => require_pass,
            Rule::Legacy(_) => &[],
        }
    }
}
