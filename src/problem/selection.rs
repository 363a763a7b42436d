//! Choosing which tests to run: by name or glob (`--test`), or only the samples (`--samples`).

use super::Test;
use crate::error::{Error, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};

/// The tests wanted on the command line; with no pattern and no `--samples`, every test.
#[derive(Debug, Default)]
pub struct TestSelection {
    patterns: Vec<String>,
    globs: GlobSet,
    samples_only: bool,
}

impl TestSelection {
    /// A selection of the tests named by `patterns` (plain names or globs such as `cluster-*`), of only the samples,
    /// or both (the samples among the named tests).
    pub fn new(patterns: &[String], samples_only: bool) -> Result<Self> {
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            let glob = Glob::new(pattern)
                .map_err(|e| Error::Usage(format!("--test {pattern}: not a usable glob: {e}")))?;
            builder.add(glob);
        }
        let globs = builder
            .build()
            .map_err(|e| Error::Usage(format!("--test: {e}")))?;
        Ok(TestSelection {
            patterns: patterns.to_vec(),
            globs,
            samples_only,
        })
    }

    fn wants(&self, test: &Test) -> bool {
        (self.patterns.is_empty() || self.globs.is_match(&test.name))
            && (!self.samples_only || test.is_sample())
    }

    /// The selected tests, in their order. Selecting none is an error that names the tests there are: a typo in a
    /// name should not pass as a judge on no tests.
    pub fn apply(&self, tests: Vec<Test>) -> Result<Vec<Test>> {
        // Looked at before the tests are taken, so that a judge of many tests lists their names only to say so.
        if !tests.iter().any(|t| self.wants(t)) {
            let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
            let mut asked: Vec<String> = self
                .patterns
                .iter()
                .map(|p| format!("--test {p}"))
                .collect();
            if self.samples_only {
                asked.push("--samples".into());
            }
            return Err(Error::Usage(format!(
                "no test matches {}; the tests are: {}",
                asked.join(" "),
                list_some(&names, 20)
            )));
        }
        Ok(tests.into_iter().filter(|t| self.wants(t)).collect())
    }
}

/// The first `shown` names, and how many more there are.
fn list_some(names: &[&str], shown: usize) -> String {
    let mut text = names[..names.len().min(shown)].join(", ");
    if names.len() > shown {
        text.push_str(&format!(" and {} more", names.len() - shown));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests(names: &[&str]) -> Vec<Test> {
        names
            .iter()
            .map(|name| Test {
                name: (*name).into(),
                files: crate::problem::Files::at(
                    std::path::Path::new(&format!("{name}.in")),
                    std::path::PathBuf::from(format!("{name}.ans")),
                ),
                judging: crate::problem::Judging::new(Default::default(), Default::default()),
            })
            .collect()
    }

    fn select(patterns: &[&str], samples: bool, from: &[&str]) -> Result<Vec<String>> {
        let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        let selected = TestSelection::new(&patterns, samples)?.apply(tests(from))?;
        Ok(selected.into_iter().map(|t| t.name.into()).collect())
    }

    #[test]
    fn names_globs_and_samples() {
        let all = [
            "sample-1",
            "sample-2",
            "cluster-1",
            "cluster-10",
            "big/1",
            "big/2",
        ];
        assert_eq!(select(&[], false, &all).unwrap(), all);
        assert_eq!(select(&["cluster-1"], false, &all).unwrap(), ["cluster-1"]);
        assert_eq!(
            select(&["cluster-*", "big/2"], false, &all).unwrap(),
            ["cluster-1", "cluster-10", "big/2"]
        );
        assert_eq!(select(&["big/*"], false, &all).unwrap(), ["big/1", "big/2"]);
        assert_eq!(select(&[], true, &all).unwrap(), ["sample-1", "sample-2"]);
        assert_eq!(select(&["*-2"], true, &all).unwrap(), ["sample-2"]);
    }

    #[test]
    fn selecting_nothing_names_the_tests() {
        let message = select(&["clutser-*"], false, &["1", "2"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "no test matches --test clutser-*; the tests are: 1, 2"
        );
        let message = select(&[], true, &["1"]).unwrap_err().to_string();
        assert!(message.contains("--samples"), "{message}");
    }

    #[test]
    fn a_broken_glob_is_refused() {
        assert!(TestSelection::new(&["[a".into()], false).is_err());
    }
}
