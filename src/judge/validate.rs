//! Running the problem's validator: on one input, and on every test input before judging, remembering inputs
//! already found valid.

use crate::compile::{Program, cache_key};
use crate::error::{Error, Result};
use crate::problem::Test;
use crate::runs::{self, TOOL_LIMITS};
use crate::sandbox::Runner;
use std::path::Path;

/// What the validator said of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputCheck {
    /// Accepted; what it printed on stdout (the constraint protocol, if it speaks it).
    Valid { said: String },
    /// Rejected, with its message and how it ended.
    Invalid { message: String },
}

/// Runs the validator on `input`.
pub fn check_input(runner: &dyn Runner, validator: &Program, input: &Path) -> Result<InputCheck> {
    let dir = crate::scratch::folder("validate")
        .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
    let spec = runs::tool(validator, dir.path(), Some(input), TOOL_LIMITS);
    let run = runner.run(&spec)?;
    if run.succeeded() {
        let said = std::fs::read(&spec.stdout).map_err(|e| Error::io("read", &spec.stdout, e))?;
        return Ok(InputCheck::Valid {
            said: String::from_utf8_lossy(&said).into_owned(),
        });
    }
    let said = run.stderr_text().trim().to_owned();
    let ending = run.ending(&TOOL_LIMITS);
    let message = if said.is_empty() {
        format!("the validator {ending} and said nothing")
    } else {
        format!("{said} (the validator {ending})")
    };
    Ok(InputCheck::Invalid {
        message: crate::text::bound(&message, 1024),
    })
}

/// Checks every input with the validator. A valid input is remembered in `memo` by a hash of the validator build
/// and the input, so unchanged tests are not validated again. The first invalid test is an error.
pub(crate) fn validate(
    runner: &dyn Runner,
    validator: &Program,
    identity: &str,
    memo: &Path,
    tests: &[Test],
) -> Result<()> {
    std::fs::create_dir_all(memo).map_err(|e| Error::io("create", memo, e))?;
    for test in tests {
        let input = std::fs::read(&test.input).map_err(|e| Error::io("read", &test.input, e))?;
        let marker = memo.join(cache_key(&[identity.as_bytes(), &input]));
        if marker.exists() {
            continue;
        }
        if let InputCheck::Invalid { message } = check_input(runner, validator, &test.input)? {
            return Err(Error::InvalidTest {
                test: test.input.display().to_string(),
                message,
            });
        }
        std::fs::write(&marker, b"").map_err(|e| Error::io("write", &marker, e))?;
    }
    Ok(())
}
