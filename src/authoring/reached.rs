//! What `validate --constraints` last found of a problem's bounds, kept in the cache (`constraints/`, a file per
//! problem) so that `list` can say which bounds and cases the tests never reach without running the validator.
//!
//! It is kept under a key of what it was learnt from: the identities (see [`crate::memo::identity`]) of the
//! validator and of every test input, found by `stat` alone. A test added, removed or rewritten, or a validator
//! edited, makes the kept finding stale, and `list` asks for the command again rather than trust it.

use super::constraints::Summary;
use crate::cache::Cache;
use crate::memo::{Memo, identity};
use crate::problem::{Problem, Test};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// What the tests reach, as `list` tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reached {
    /// What no test reaches, in words (see [`Summary::unreached`]).
    pub unreached: Vec<String>,
}

/// Keeps what `summary` says the problem's `tests` reach, learnt from them as they were when `key` was taken.
pub fn keep_reached(cache: &Cache, problem: &Problem, key: &str, summary: &Summary) {
    let reached = Reached {
        unreached: summary.unreached(),
    };
    memo(cache, problem).put(key, &reached);
}

/// What was kept of the problem's bounds, if it was learnt from the validator and `tests` as they are now.
pub fn kept_reached(cache: &Cache, problem: &Problem, tests: &[Test]) -> Option<Reached> {
    memo(cache, problem).get(&reached_key(problem, tests))
}

/// The key of a finding over `tests`: a digest of the validator's identity (each of its files', for a folder) and
/// of every test input's path and identity, in order.
pub fn reached_key(problem: &Problem, tests: &[Test]) -> String {
    let mut key = Sha256::new();
    if let Some(validator) = &problem.validator {
        add(&mut key, validator);
        let mut files: Vec<_> = std::fs::read_dir(validator)
            .map(|listing| listing.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for file in &files {
            add(&mut key, file);
        }
    }
    key.update(b"tests\0");
    for test in tests {
        add(&mut key, &test.input());
    }
    key.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds a file's path and identity to a key.
fn add(key: &mut Sha256, path: &Path) {
    key.update(path.as_os_str().as_encoded_bytes());
    key.update([0]);
    key.update(identity(path).as_bytes());
    key.update([0]);
}

/// The file kept for the problem: named by its folder, so that a copy elsewhere keeps its own.
fn memo(cache: &Cache, problem: &Problem) -> Memo {
    Memo::in_dir(
        &cache.constraints(),
        "reached",
        &problem.dir.to_string_lossy(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authoring::Constraints;
    use crate::problem::find_inputs;

    /// A problem with a validator and two tests, and a cache beside it.
    fn problem() -> (tempfile::TempDir, Problem, Cache) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("problems/p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("main.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("validate.py"), "\n").unwrap();
        std::fs::write(
            dir.join("problem.toml"),
            "title = \"P\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nvalidator = \"validate.py\"\n\
             [[solutions]]\npath = \"main.py\"\nexpected = \"AC\"\nmain = true\n",
        )
        .unwrap();
        let tests = root.path().join("testdata/p");
        std::fs::create_dir_all(&tests).unwrap();
        for name in ["1", "2"] {
            std::fs::write(tests.join(format!("{name}.in")), "1\n").unwrap();
        }
        let problem = Problem::load("p", &dir).unwrap();
        let cache = Cache::new(root.path().join("cache"));
        (root, problem, cache)
    }

    fn tests(root: &tempfile::TempDir) -> Vec<Test> {
        find_inputs(&root.path().join("testdata/p")).unwrap()
    }

    #[test]
    fn a_finding_holds_only_for_the_tests_and_validator_it_was_learnt_from() {
        let (root, problem, cache) = problem();
        assert_eq!(kept_reached(&cache, &problem, &tests(&root)), None);
        let mut constraints = Constraints::new();
        constraints
            .record("1", b"value n 1 1 15\ncase big no\n")
            .unwrap();
        let key = reached_key(&problem, &tests(&root));
        keep_reached(&cache, &problem, &key, &constraints.summary());
        let found = Reached {
            unreached: vec!["n = 15".into(), "case big".into()],
        };
        assert_eq!(
            kept_reached(&cache, &problem, &tests(&root)).as_ref(),
            Some(&found)
        );
        // A test rewritten, added or removed makes the finding stale; as it was, it holds again.
        let second = root.path().join("testdata/p/2.in");
        std::fs::write(&second, "15\n").unwrap();
        assert_eq!(kept_reached(&cache, &problem, &tests(&root)), None);
        keep_reached(
            &cache,
            &problem,
            &reached_key(&problem, &tests(&root)),
            &constraints.summary(),
        );
        let third = root.path().join("testdata/p/3.in");
        std::fs::write(&third, "2\n").unwrap();
        assert_eq!(kept_reached(&cache, &problem, &tests(&root)), None);
        std::fs::remove_file(&third).unwrap();
        assert_eq!(
            kept_reached(&cache, &problem, &tests(&root)).as_ref(),
            Some(&found)
        );
        std::fs::remove_file(&second).unwrap();
        assert_eq!(kept_reached(&cache, &problem, &tests(&root)), None);
        // So does an edited validator.
        std::fs::write(&second, "15\n").unwrap();
        keep_reached(
            &cache,
            &problem,
            &reached_key(&problem, &tests(&root)),
            &constraints.summary(),
        );
        assert!(kept_reached(&cache, &problem, &tests(&root)).is_some());
        std::fs::write(problem.dir.join("validate.py"), "# checks n\n").unwrap();
        assert_eq!(kept_reached(&cache, &problem, &tests(&root)), None);
        assert_eq!(
            std::fs::read_dir(cache.constraints()).unwrap().count(),
            1,
            "one file per problem"
        );
    }
}
