//! Running the problem's validator on every test input before judging, remembering inputs already found valid.

use super::run_test::TOOL_LIMITS;
use crate::compile::{Program, cache_key};
use crate::error::{Error, Result};
use crate::problem::Test;
use crate::sandbox::{Limits, RunSpec, Runner, Termination, Trust, small_env};
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
        let dir = tempfile::Builder::new()
            .prefix("cpjudge-validate-")
            .tempdir()
            .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
        let run = runner.run(&RunSpec {
            argv: validator.argv.clone(),
            env: small_env(dir.path()),
            workdir: dir.path().to_owned(),
            stdin: Some(test.input.clone()),
            stdout: dir.path().join("stdout"),
            limits: Limits {
                cap_address_space: validator.cap_address_space,
                ..TOOL_LIMITS
            },
            trust: Trust::Tool,
            scratch: None,
        })?;
        let said = run.stderr_text().trim().to_owned();
        let failure = match (run.killed_for, run.termination) {
            (None, Termination::Exited(0)) => None,
            (Some(kind), _) => Some(format!("the validator went over its {kind:?} limit")),
            (None, Termination::Exited(code)) if !said.is_empty() => {
                Some(format!("{said} (validator exit code {code})"))
            }
            (None, Termination::Exited(code)) => Some(format!(
                "the validator exited with code {code} and said nothing"
            )),
            (None, Termination::Signaled(signal)) => Some(format!(
                "the validator was killed by {}",
                crate::sandbox::signal_name(signal)
            )),
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
