//! Scores and test groups: the tree a problem's tests are judged in, which tests a solution must run, and how its
//! test results add up to group verdicts and a score.

mod aggregate;
mod expect;
mod grouping;
mod plan;
mod tree;

pub use aggregate::{GroupResult, Scored, TestScore, aggregate, show};
pub use expect::{Expectation, Judged, Scope, and_above, broken, glob};
pub use grouping::{GroupSpec, Grouping, Takes};
pub use plan::Plan;
pub use tree::{
    Aggregation, Child, Group, Item, LegacyRule, MaxScore, OnReject, Rule, ScoreRule, StaticScore,
    Tree, VerdictRule,
};
