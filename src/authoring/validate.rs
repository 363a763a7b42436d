//! Checking the tests with the validator, and the validators themselves: every test must be accepted, every kept
//! invalid input (`problems/<p>/invalid/*.in`) rejected with the message its `.err` file expects, and the
//! validation data (a package's `data/invalid_input`, `invalid_output`, `valid_output`) taken as its folder says.

use super::constraints::{Constraints, ProtocolError, Summary};
use super::validation_data::{self, DataCheck, DataOutcome, SkipReason, SkippedData};
use super::workshop::Workshop;
use crate::error::{Error, Result};
use crate::judge::InputCheck;
use crate::problem::{Comparison, Test, ValidationKind, WarningKind};
use std::path::PathBuf;

#[derive(Debug)]
pub struct ValidationReport {
    /// Every test with what the validator said of it.
    pub tests: Vec<(Test, InputCheck)>,
    /// The validator's self-test.
    pub kept_invalid: Vec<KeptInvalid>,
    /// Each case of validation data checked, with what the validators made of it.
    pub data: Vec<DataCheck>,
    /// The validation data not checked, kind by kind.
    pub skipped_data: Vec<SkippedData>,
    /// How many of the problem's input validators cannot run here (each said in a package warning): an input they
    /// alone would reject is taken as accepted.
    pub validators_skipped: usize,
    /// What judges an output ("the output validator"), to say who accepted or rejected one.
    pub output_judge: &'static str,
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
            && self
                .data
                .iter()
                .all(|d| d.outcome == DataOutcome::AsRequired)
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
    let (data, skipped_data) = data_to_check(workshop)?;
    let total = tests.len() + kept.len() + data.len();
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
        let check = workshop.validate(&validators, &test.input(), &test.flags().input)?;
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
    let mut data_checks = Vec::with_capacity(data.len());
    for case in data {
        next(on_step)?;
        let outcome = validation_data::check(workshop, &validators, &case)?;
        data_checks.push(DataCheck { case, outcome });
    }
    let validators_skipped = workshop.problem.package.as_ref().map_or(0, |p| {
        p.warnings
            .iter()
            .filter(|w| w.kind == WarningKind::ValidatorSkipped)
            .count()
    });
    Ok(ValidationReport {
        tests: checked,
        kept_invalid,
        data: data_checks,
        skipped_data,
        validators_skipped,
        output_judge: output_judge(&workshop.problem.comparison),
        constraints: constraints.then(|| reached.summary()),
        protocol_errors,
    })
}

/// The problem's validation data that can be checked, and the kinds that cannot, with how many cases each has.
fn data_to_check(
    workshop: &Workshop,
) -> Result<(Vec<crate::problem::ValidationCase>, Vec<SkippedData>)> {
    let mut cases = crate::problem::validation_data(workshop.problem)?;
    let mut skipped = Vec::new();
    if workshop.is_interactive() {
        for kind in [ValidationKind::InvalidOutput, ValidationKind::ValidOutput] {
            if let Some(first) = cases.iter().find(|c| c.kind == kind) {
                skipped.push(SkippedData {
                    kind,
                    folder: folder_of(first),
                    cases: cases.iter().filter(|c| c.kind == kind).count(),
                    why: SkipReason::Interactive,
                });
            }
        }
        cases.retain(|c| !c.kind.has_output());
    }
    Ok((cases, skipped))
}

/// The folder of a case's kind: its name ("valid_output/group/a") is its input's path below the folder's parent.
fn folder_of(case: &crate::problem::ValidationCase) -> std::path::PathBuf {
    let depth = std::path::Path::new(case.test.name.as_str())
        .components()
        .count();
    let input = &case.test.input();
    input
        .ancestors()
        .nth(depth.saturating_sub(1))
        .unwrap_or(input)
        .to_owned()
}

/// What judges the problem's outputs, in a message.
fn output_judge(comparison: &Comparison) -> &'static str {
    match comparison {
        Comparison::OutputValidator(_) => "the output validator",
        Comparison::PackageDefault => "the default output validator",
        Comparison::Checker(_) => "the checker",
        Comparison::Interactive { .. } => "the interactor",
        Comparison::Tokens | Comparison::Exact | Comparison::Float { .. } | Comparison::Shown => {
            "the comparison"
        }
    }
}
