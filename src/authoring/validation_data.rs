//! Checking the validators against the problem's validation data: an invalid input must be rejected by at least
//! one input validator; an invalid output's input must be valid and its output rejected by the output validator;
//! a valid output's input valid and its output accepted.

use super::workshop::Workshop;
use crate::error::Result;
use crate::judge::{InputCheck, Validator};
use crate::problem::{ValidationCase, ValidationKind};
use crate::verdict::Verdict;

/// One case and what the validators made of it.
#[derive(Debug)]
pub struct DataCheck {
    pub case: ValidationCase,
    pub outcome: DataOutcome,
}

#[derive(Debug, PartialEq, Eq)]
pub enum DataOutcome {
    /// As its folder requires.
    AsRequired,
    /// An invalid input every input validator accepted.
    InputAccepted,
    /// An output case whose input an input validator rejected, with what it said: the output proves nothing then.
    InputRejected { said: String },
    /// An invalid output the output validator accepted.
    OutputAccepted,
    /// A valid output the output validator rejected, with what it said.
    OutputRejected { said: String },
    /// The output validator neither accepted nor rejected (it crashed, or ended with another exit code).
    ValidatorFailed { said: String },
}

/// Validation data that was not checked, and why.
#[derive(Debug)]
pub struct SkippedData {
    pub kind: ValidationKind,
    /// Its folder.
    pub folder: std::path::PathBuf,
    pub cases: usize,
    pub why: SkipReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// An interactive problem's output is judged in the dialogue: there is no output to give its validator alone,
    /// and the format has invalid and valid outputs for non-interactive problems only.
    Interactive,
}

/// Checks one case with the problem's input `validators` (all of them, at least one) and its output validator.
pub(super) fn check(
    workshop: &Workshop,
    validators: &[Validator],
    case: &ValidationCase,
) -> Result<DataOutcome> {
    let input = workshop.validate(validators, &case.test.input(), &case.test.flags().input)?;
    let output = match (case.kind, input, &case.output) {
        (ValidationKind::InvalidInput, InputCheck::Valid { .. }, _) => {
            return Ok(DataOutcome::InputAccepted);
        }
        (ValidationKind::InvalidInput, InputCheck::Invalid { .. }, _) => {
            return Ok(DataOutcome::AsRequired);
        }
        (_, InputCheck::Invalid { message }, _) => {
            return Ok(DataOutcome::InputRejected { said: message });
        }
        (_, InputCheck::Valid { .. }, None) => unreachable!("an output case has its output"),
        (_, InputCheck::Valid { .. }, Some(output)) => output,
    };
    let checked = workshop.check_output(&case.test, output)?;
    let valid = case.kind == ValidationKind::ValidOutput;
    Ok(match (checked.verdict, valid) {
        (Verdict::Accepted, true) | (Verdict::WrongAnswer, false) => DataOutcome::AsRequired,
        (Verdict::Accepted, false) => DataOutcome::OutputAccepted,
        (Verdict::WrongAnswer, true) => DataOutcome::OutputRejected {
            said: checked.message,
        },
        _ => DataOutcome::ValidatorFailed {
            said: checked.message,
        },
    })
}
