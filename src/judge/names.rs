//! The names of a judge's tests, in order, in one string: a report holds the name of every test, and a string of
//! its own for each (24 bytes, and an allocation of at least 32) would cost a judge of many short names several
//! times what the names themselves take.

#[derive(Clone, Default, PartialEq, Eq)]
pub struct TestNames {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
}

impl TestNames {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The name of the test numbered `index`.
    pub fn get(&self, index: usize) -> &str {
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        &self.text[start..self.ends[index] as usize]
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + Clone {
        (0..self.len()).map(|index| self.get(index))
    }

    fn push(&mut self, name: &str) {
        self.text.push_str(name);
        let end = u32::try_from(self.text.len())
            .expect("the names of a judge's tests fill less than 4 GiB");
        self.ends.push(end);
    }
}

impl<S: AsRef<str>> FromIterator<S> for TestNames {
    fn from_iter<I: IntoIterator<Item = S>>(names: I) -> TestNames {
        let mut all = TestNames::default();
        for name in names {
            all.push(name.as_ref());
        }
        all.text.shrink_to_fit();
        all.ends.shrink_to_fit();
        all
    }
}

/// As the list of names it holds.
impl std::fmt::Debug for TestNames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_given_back_in_order() {
        let names: TestNames = ["sample-1", "", "group/07", "é"].into_iter().collect();
        assert_eq!(names.len(), 4);
        assert_eq!(names.get(2), "group/07");
        assert_eq!(
            names.iter().collect::<Vec<_>>(),
            ["sample-1", "", "group/07", "é"]
        );
        assert_eq!(names.iter().next_back(), Some("é"));
        assert!(TestNames::default().is_empty());
    }
}
