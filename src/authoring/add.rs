//! Adding tests: each new input is validated, answered by the main reference and checked against every other
//! reference before anything is written; then all of them are written at once, under the folder's lock.

use super::placement::Placement;
use super::recipe::{Entry, Source};
use super::store::{NewTest, TestFolder};
use super::workshop::{Answer, Workshop, scratch};
use crate::error::{Error, Result};
use crate::judge::{InputCheck, TestResult};
use crate::problem::Test;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// An input to add, before it is checked.
pub struct Candidate {
    /// Where it came from, as the user would say it ("the input from stdin", "generator random 15 3").
    pub origin: String,
    /// The name asked for, or the one it would have by default.
    pub name: Name,
    pub source: Source,
    pub input: Vec<u8>,
}

pub enum Name {
    /// Given with --name: taken means refused.
    Given(String),
    /// Made up: taken means the next free variant (`name-2`, ...).
    Default(String),
    /// The first free of `prefix-1`, `prefix-2`, ...
    Numbered(String),
}

impl Name {
    /// The name within the folder of the group new tests join.
    fn within(&self, placement: &Placement) -> Name {
        match self {
            Name::Given(name) => Name::Given(placement.name(name)),
            Name::Default(name) => Name::Default(placement.name(name)),
            Name::Numbered(prefix) => Name::Numbered(placement.name(prefix)),
        }
    }

    /// The name it gets where no test has it yet.
    fn if_free(&self) -> String {
        match self {
            Name::Given(name) | Name::Default(name) => name.clone(),
            Name::Numbered(prefix) => format!("{prefix}-1"),
        }
    }
}

/// A test that was written.
#[derive(Debug)]
pub struct Added {
    pub name: String,
    pub input: PathBuf,
    pub origin: String,
    /// The main reference, whose output is the answer.
    pub main: String,
    /// The references that agree with the main one's answer.
    pub agreed: Vec<String>,
}

/// Why nothing was added, when it is the references' fault rather than the input's.
#[derive(Debug)]
pub enum Refusal {
    /// The main reference did not answer.
    MainFailed {
        origin: String,
        main: String,
        verdict: Verdict,
        message: String,
    },
    /// Another reference's output was judged wrong against the main one's answer.
    Disagreed {
        origin: String,
        main: String,
        other: String,
        result: Box<TestResult>,
    },
}

/// Steps of the work, for a progress bar.
pub type OnStep<'a> = &'a mut dyn FnMut(usize, usize);

/// Checks every candidate, then writes them all, or nothing. An invalid or duplicate input is an error (exit 2);
/// references that disagree are a [`Refusal`] (exit 1).
pub fn add(
    workshop: &Workshop,
    folder_dir: &Path,
    placement: &Placement,
    candidates: Vec<Candidate>,
    on_step: OnStep,
) -> Result<std::result::Result<Vec<Added>, Refusal>> {
    let validators = workshop.validators()?;
    let flags = workshop.problem.new_test_flags();
    let main_solution = workshop.main_solution()?;
    let main = workshop.solution(main_solution)?;
    let others: Vec<_> = workshop
        .problem
        .solutions
        .iter()
        .filter(|s| !s.main && s.accepts(Verdict::Accepted))
        .map(|s| Ok((s, workshop.solution(s)?)))
        .collect::<Result<_>>()?;

    // A name the group would not take is refused before any program runs.
    for candidate in &candidates {
        placement.check(&candidate.name.within(placement).if_free())?;
    }
    let dir = scratch("add")?;
    let mut ready = Vec::with_capacity(candidates.len());
    let total = candidates.len();
    for (index, candidate) in candidates.into_iter().enumerate() {
        on_step(index, total);
        if crate::interrupt::requested() {
            return Err(Error::Interrupted);
        }
        if let Some(earlier) = ready
            .iter()
            .find(|(c, _, _): &&(Candidate, _, _)| c.input == candidate.input)
        {
            return Err(Error::Usage(format!(
                "{} gives the same input as {}",
                candidate.origin, earlier.0.origin
            )));
        }
        let input = dir.path().join(format!("{index}.in"));
        std::fs::write(&input, &candidate.input).map_err(|e| Error::io("write", &input, e))?;
        if let InputCheck::Invalid { message } =
            workshop.validate(&validators, &input, &flags.input)?
        {
            return Err(Error::Usage(format!(
                "{} is invalid, nothing was added: {message}",
                candidate.origin
            )));
        }
        let answer = match workshop.answer(&main, &input)? {
            Answer::Output(bytes) => bytes,
            Answer::Failed { verdict, message } => {
                return Ok(Err(Refusal::MainFailed {
                    origin: candidate.origin,
                    main: main_solution.name.clone(),
                    verdict,
                    message,
                }));
            }
        };
        let answer_path = dir.path().join(format!("{index}.ans"));
        std::fs::write(&answer_path, &answer).map_err(|e| Error::io("write", &answer_path, e))?;
        let test = Test {
            name: candidate.origin.as_str().into(),
            files: crate::problem::Files::at(input.as_path(), answer_path),
            judging: crate::problem::Judging::new(flags.clone(), Default::default()),
        };
        let mut agreed = Vec::new();
        for (other, program) in &others {
            let result = workshop.judge(program, &test)?;
            if !result.verdict.is_accepted() {
                return Ok(Err(Refusal::Disagreed {
                    origin: candidate.origin,
                    main: main_solution.name.clone(),
                    other: other.name.clone(),
                    result: Box::new(result),
                }));
            }
            agreed.push(other.name.clone());
        }
        ready.push((candidate, answer, agreed));
    }

    // Everything checked: now, and only now, the folder is locked and written.
    let folder = TestFolder::lock(folder_dir)?;
    let mut recipe = folder.recipe()?;
    let mut added = Vec::with_capacity(ready.len());
    let mut tests = Vec::with_capacity(ready.len());
    for (candidate, answer, agreed) in ready {
        if let Some(existing) = folder.identical(&candidate.input)? {
            return Err(Error::Usage(format!(
                "{} is byte for byte test {existing} ({}), nothing was added",
                candidate.origin,
                crate::text::relative(&folder.path(&existing, "in")).display()
            )));
        }
        let name = match candidate.name.within(placement) {
            Name::Given(name) if folder.taken(&name, &recipe) => {
                return Err(Error::Usage(format!(
                    "a test named {name} exists already ({}): choose another --name",
                    crate::text::relative(&folder.path(&name, "in")).display()
                )));
            }
            Name::Given(name) => name,
            Name::Default(name) => folder.free_name(&name, &recipe),
            Name::Numbered(prefix) => (1..)
                .map(|k| format!("{prefix}-{k}"))
                .find(|name| !folder.taken(name, &recipe))
                .expect("some number is free"),
        };
        placement.check(&name)?;
        // Names chosen in this batch are taken for the rest of it.
        recipe.tests.push(Entry {
            name: name.clone(),
            source: candidate.source,
        });
        added.push(Added {
            input: folder.path(&name, "in"),
            name: name.clone(),
            origin: candidate.origin,
            main: main_solution.name.clone(),
            agreed,
        });
        tests.push(NewTest {
            name,
            input: candidate.input,
            answer,
        });
    }
    let entries = &recipe.tests[recipe.tests.len() - tests.len()..];
    for test in &tests {
        folder.write(test)?;
    }
    folder.record(entries)?;
    Ok(Ok(added))
}

/// Whether `name` may name a test: a file name of letters, digits, '-', '_' and '.', not starting with '.'.
pub fn check_name(name: &str) -> Result<()> {
    let fine = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fine {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "--name {name:?}: a test's name is letters, digits, '-', '_' and '.', not starting with '.'"
        )))
    }
}

/// The default name of a generated test: its arguments joined by '-' ("random-15-3").
pub fn name_from_args(args: &[String]) -> String {
    let name: String = args
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = name.trim_start_matches('.');
    if name.is_empty() {
        "gen".to_owned()
    } else {
        name.chars().take(64).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(name_from_args(&args(&["random", "15", "3"])), "random-15-3");
        assert_eq!(name_from_args(&args(&["a/b", "x y"])), "a_b-x_y");
        assert_eq!(name_from_args(&args(&["..", "1"])), "-1");
        assert!(check_name("hand-1").is_ok());
        for bad in ["", ".hidden", "a/b", "a b", "ü"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }
}
