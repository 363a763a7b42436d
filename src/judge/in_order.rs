//! A solution's tests in the order of its tree (see [`crate::scoring::Tree`]): the list given itself, where the tree
//! keeps its order (a pass-fail problem's), or the tests picked in the tree's order. A judge of many tests holds no
//! second list of them where the first will do.

use crate::problem::Test;

pub(crate) enum InOrder<'t> {
    Given(&'t [Test]),
    Picked(Vec<&'t Test>),
}

impl<'t> InOrder<'t> {
    pub(crate) fn len(&self) -> usize {
        match self {
            InOrder::Given(tests) => tests.len(),
            InOrder::Picked(tests) => tests.len(),
        }
    }

    /// The test numbered `index` in the tree.
    pub(crate) fn get(&self, index: usize) -> &'t Test {
        match self {
            InOrder::Given(tests) => &tests[index],
            InOrder::Picked(tests) => tests[index],
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &'t Test> + '_ {
        (0..self.len()).map(|index| self.get(index))
    }
}
