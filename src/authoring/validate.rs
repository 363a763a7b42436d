//! Checking the tests with the validator, and the validator itself: every test must be accepted, and every kept
//! invalid input (`problems/<p>/invalid/*.in`) rejected with the message its `.err` file expects.

use super::constraints::{Constraints, ProtocolError, Summary};
use super::workshop::Workshop;
use crate::error::{Error, Result};
use crate::judge::InputCheck;
use crate::problem::Test;
use std::path::PathBuf;

#[derive(Debug)]
pub struct ValidationReport {
    /// Every test with what the validator said of it.
    pub tests: Vec<(Test, InputCheck)>,
    /// The validator's self-test.
    pub kept_invalid: Vec<KeptInvalid>,
    /// With --constraints: the bounds and cases the valid tests reach, as the validator reported them.
    pub constraints: Option<Summary>,
    /// Lines of the validator's stdout that break the constraint protocol (with --constraints).
    pub protocol_errors: Vec<ProtocolError>,
}

/// One kept invalid input and how the validator took it.
#[derive(Debug)]
pub struct KeptInvalid {
    pub input: PathBuf,
    pub outcome: SelfTest,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SelfTest {
    /// Rejected, with the expected message.
    Rejected,
    /// Accepted: the validator misses what is wrong with it.
    Accepted,
    /// Rejected, but not for the reason expected.
    OtherMessage { expected: String, said: String },
    /// Rejected, but there is no `.err` file to say with what message.
    NoExpectation { said: String },
}

impl ValidationReport {
    pub fn invalid_tests(&self) -> impl Iterator<Item = (&Test, &str)> {
        self.tests.iter().filter_map(|(test, check)| match check {
            InputCheck::Invalid { message } => Some((test, message.as_str())),
            InputCheck::Valid { .. } => None,
        })
    }

    pub fn is_fine(&self) -> bool {
        self.invalid_tests().next().is_none()
            && self.protocol_errors.is_empty()
            && self
                .kept_invalid
                .iter()
                .all(|k| k.outcome == SelfTest::Rejected)
    }
}

/// Runs the validator on `tests` and on the problem's kept invalid inputs; with `constraints`, gathers what it
/// reports of the valid tests by the constraint protocol.
pub fn validate(
    workshop: &Workshop,
    tests: Vec<Test>,
    constraints: bool,
    on_step: &mut dyn FnMut(usize, usize),
) -> Result<ValidationReport> {
    let validators = workshop.required_validators()?;
    let invalid_dir = workshop.problem.dir.join("invalid");
    let mut kept: Vec<PathBuf> = match std::fs::read_dir(&invalid_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io("read", &invalid_dir, e)),
    };
    kept.sort_by(|a, b| natord::compare(&a.to_string_lossy(), &b.to_string_lossy()));
    let total = tests.len() + kept.len();
    let mut step = 0;
    let mut next = |on_step: &mut dyn FnMut(usize, usize)| -> Result<()> {
        on_step(step, total);
        step += 1;
        if crate::interrupt::requested() {
            return Err(Error::Interrupted);
        }
        Ok(())
    };

    let mut checked = Vec::with_capacity(tests.len());
    let mut reached = Constraints::new();
    let mut protocol_errors = Vec::new();
    for test in tests {
        next(on_step)?;
        let check = workshop.validate(&validators, &test.input, &test.flags.input)?;
        if constraints
            && let InputCheck::Valid { said } = &check
            && let Err(e) = reached.record(&test.name, said.as_bytes())
        {
            protocol_errors.push(e);
        }
        checked.push((test, check));
    }
    let mut kept_invalid = Vec::with_capacity(kept.len());
    for input in kept {
        next(on_step)?;
        let expected = std::fs::read_to_string(input.with_extension("err"))
            .ok()
            .map(|text| text.trim().to_owned());
        let outcome = match (workshop.validate(&validators, &input, &[])?, expected) {
            (InputCheck::Valid { .. }, _) => SelfTest::Accepted,
            (InputCheck::Invalid { message }, None) => SelfTest::NoExpectation { said: message },
            (InputCheck::Invalid { message }, Some(expected)) if message.contains(&expected) => {
                SelfTest::Rejected
            }
            (InputCheck::Invalid { message }, Some(expected)) => SelfTest::OtherMessage {
                expected,
                said: message,
            },
        };
        kept_invalid.push(KeptInvalid { input, outcome });
    }
    Ok(ValidationReport {
        tests: checked,
        kept_invalid,
        constraints: constraints.then(|| reached.summary()),
        protocol_errors,
    })
}
