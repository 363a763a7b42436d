//! Running the problem's validator on every test input before judging, remembering inputs already found valid.

use crate::compile::{Program, cache_key};
use crate::error::{Error, Result};
use crate::problem::Test;
use crate::runs::{self, TOOL_LIMITS};
use crate::sandbox::Runner;
use std::path::Path;

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
        let dir = crate::scratch::folder("validate")
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        let spec = runs::tool(validator, dir.path(), Some(&test.input), TOOL_LIMITS);
        let run = runner.run(&spec)?;
        let said = run.stderr_text().trim().to_owned();
        let ending = run.ending(&TOOL_LIMITS);
        let failure = match (run.succeeded(), said.is_empty()) {
            (true, _) => None,
            (false, false) => Some(format!("{said} (the validator {ending})")),
            (false, true) => Some(format!("the validator {ending} and said nothing")),
        };
        if let Some(message) = failure {
            return Err(Error::InvalidTest {
                test: test.input.display().to_string(),
                message: crate::text::bound(&message, 1024),
            });
        }
        std::fs::write(&marker, b"").map_err(|e| Error::io("write", &marker, e))?;
    }
    Ok(())
}
