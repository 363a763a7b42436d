//! Running the problem's validator: on one input, and on every test input before judging, remembering inputs
//! already found valid.

use crate::compile::{CacheKey, Compiler, Program, cache_key};
use crate::error::{Error, Result};
use crate::problem::{InputValidator, ProblemLimits, Protocol, Test};
use crate::runs::{self, TOOL_LIMITS};
use crate::sandbox::{Limits, Runner, Termination};
use std::path::{Path, PathBuf};

/// The programs that run checktestdata scripts, by preference: DOMjudge's own, and the Python reimplementation,
/// which `pip install checktestdata` puts on PATH as `pyctd` (both read the input on standard input, exit 0 when
/// it is valid).
const CHECKTESTDATA: [&str; 2] = ["checktestdata", "pyctd"];

/// How to get a checktestdata program, for messages.
pub(crate) const CHECKTESTDATA_INSTALL: &str = "install DOMjudge's checktestdata \
    (https://github.com/DOMjudge/checktestdata, or the distribution's package where it has one), or run \
    `pip install checktestdata`, which puts its Python reimplementation on PATH as pyctd";

/// The checktestdata program on PATH, if any.
pub(crate) fn checktestdata_tool() -> Option<PathBuf> {
    CHECKTESTDATA
        .into_iter()
        .find_map(|name| which::which(name).ok())
}

/// What the validator said of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputCheck {
    /// Accepted; what it printed on stdout (the constraint protocol, if it speaks it).
    Valid { said: String },
    /// Rejected, with its message and how it ended.
    Invalid { message: String },
}

/// Runs a validator on `input` with `args` under `limits`; its exit code answers in `protocol`.
fn run_validator(
    runner: &dyn Runner,
    validator: &Program,
    limits: &Limits,
    input: &Path,
    args: &[String],
    protocol: Protocol,
) -> Result<InputCheck> {
    let dir = crate::scratch::folder("validate")
        .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?;
    let mut spec = runs::tool(validator, dir.path(), Some(input), limits.clone());
    spec.argv.extend(args.iter().map(std::ffi::OsString::from));
    let run = runner.run(&spec)?;
    let valid = match protocol {
        Protocol::Cpjudge => run.succeeded(),
        Protocol::Package => run.killed_for.is_none() && run.termination == Termination::Exited(42),
    };
    if valid {
        let said = runs::tool_output(&spec).map_err(|e| Error::io("read", &spec.stdout, e))?;
        return Ok(InputCheck::Valid {
            said: String::from_utf8_lossy(&said).into_owned(),
        });
    }
    let said = run.stderr_text().trim().to_owned();
    let ending = run.ending(limits);
    let message = if said.is_empty() {
        format!("the validator {ending} and said nothing")
    } else {
        format!("{said} (the validator {ending})")
    };
    Ok(InputCheck::Invalid {
        message: crate::text::bound(&message, 1024),
    })
}

/// An input validator, built: how to run it, what its build is (to remember what it found valid), and how it
/// answers.
pub struct Validator {
    pub(crate) program: Program,
    pub(crate) identity: String,
    pub(crate) protocol: Protocol,
    pub(crate) limits: Limits,
}

impl Validator {
    /// Builds one of the problem's input validators, which speaks `protocol` if it is a program, for a problem
    /// whose solutions run under `solutions`.
    pub fn build(
        compiler: &Compiler,
        source: &InputValidator,
        protocol: Protocol,
        solutions: &ProblemLimits,
    ) -> Result<Validator> {
        let limits = runs::tool_limits(TOOL_LIMITS, solutions);
        match source {
            InputValidator::Program(source) => {
                let (program, identity) =
                    compiler.tool_source("validator", source, limits.memory)?;
                Ok(Validator {
                    program,
                    identity,
                    protocol,
                    limits,
                })
            }
            InputValidator::Checktestdata(script) => Validator::checktestdata(script, limits),
        }
    }

    /// A checktestdata script, run by a checktestdata program, which must be on PATH, under `limits`.
    pub fn checktestdata(script: &Path, limits: Limits) -> Result<Validator> {
        let tool = checktestdata_tool().ok_or_else(|| {
            Error::Usage(format!(
                "{}: this input validator is a checktestdata script, and no checktestdata program is on PATH \
                 ({CHECKTESTDATA_INSTALL})",
                script.display()
            ))
        })?;
        let text = std::fs::read(script).map_err(|e| Error::io("read", script, e))?;
        Ok(Validator {
            program: Program {
                argv: vec![tool.into_os_string(), script.as_os_str().to_owned()],
                readable: vec![script.parent().unwrap_or(Path::new("/")).to_owned()],
                cap_address_space: true,
            },
            identity: cache_key(&[b"checktestdata", &text]),
            // checktestdata exits 0 on a valid input, and so does its Python reimplementation.
            protocol: Protocol::Cpjudge,
            limits,
        })
    }

    /// Runs the validator on an input, with its test's input flags.
    pub fn check(&self, runner: &dyn Runner, input: &Path, flags: &[String]) -> Result<InputCheck> {
        run_validator(
            runner,
            &self.program,
            &self.limits,
            input,
            flags,
            self.protocol,
        )
    }
}

/// Checks every input with the validator. A valid input is remembered in `memo` by a hash of the validator build,
/// the flags and the input, so unchanged tests are not validated again; and by the input file's identity, so that
/// a file unchanged since is not even read again (a test may be hundreds of megabytes, read at every judge). The
/// first invalid test is an error.
pub(crate) fn validate(
    runner: &dyn Runner,
    validator: &Validator,
    memo: &Path,
    tests: &[&Test],
) -> Result<()> {
    std::fs::create_dir_all(memo).map_err(|e| Error::io("create", memo, e))?;
    for test in tests {
        // Taken before the input is read: a file changed meanwhile has another identity by then.
        let known = memo.join(identity_key(validator, test));
        if kept(&known) {
            continue;
        }
        let marker = memo.join(memo_key(validator, test)?);
        if !kept(&marker) {
            if let InputCheck::Invalid { message } =
                validator.check(runner, &test.input(), &test.flags().input)?
            {
                return Err(Error::InvalidTest {
                    test: test.input().display().to_string(),
                    message,
                });
            }
            crate::atomic::write(&marker, b"")?;
        }
        crate::atomic::write(&known, b"")?;
    }
    Ok(())
}

/// Whether a memo is there: a file of its own, never what a link planted in the cache leads to (a run judged without
/// layers may write there). Memos are written by renaming into place, which replaces a planted link.
fn kept(memo: &Path) -> bool {
    std::fs::symlink_metadata(memo).is_ok_and(|m| m.is_file())
}

/// The name of `test`'s memo by what its input file is now (see [`crate::memo::identity`]) rather than what it
/// holds: the validator build, the flags, and the file's device, inode, size and times.
fn identity_key(validator: &Validator, test: &Test) -> String {
    let mut key = CacheKey::default();
    key.part(b"identity");
    key.part(validator.identity.as_bytes());
    key.part(test.flags().input.join("\0").as_bytes());
    key.part(crate::memo::identity(&test.input()).as_bytes());
    key.finish()
}

/// The name of `test`'s memo: the validator build, the flags and the input, which is read a piece at a time, since
/// it may be far larger than what the judge should hold.
fn memo_key(validator: &Validator, test: &Test) -> Result<String> {
    let mut key = CacheKey::default();
    key.part(validator.identity.as_bytes());
    key.part(test.flags().input.join("\0").as_bytes());
    key.part_file(&test.input())
        .map_err(|e| Error::io("read", test.input(), e))?;
    Ok(key.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::TestFlags;
    use crate::sandbox::{RunResult, RunSpec};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A validator (of build "build") and a test of `input`, with input flags.
    fn validator_and_test(input: &Path) -> (Validator, Test) {
        let validator = Validator {
            program: Program {
                argv: Vec::new(),
                readable: vec![input.parent().unwrap().to_owned()],
                cap_address_space: true,
            },
            identity: "build".to_owned(),
            protocol: Protocol::Cpjudge,
            limits: TOOL_LIMITS,
        };
        let test = Test {
            name: "1".into(),
            files: crate::problem::Files::at(input, input.with_extension("ans")),
            judging: crate::problem::Judging::new(
                TestFlags::new(vec!["--n".to_owned(), "5".to_owned()], Vec::new()),
                Default::default(),
            ),
        };
        (validator, test)
    }

    /// A validator's runs, counted: each accepts its input.
    #[derive(Default)]
    struct Accepting(AtomicUsize);

    impl Runner for Accepting {
        fn run(&self, spec: &RunSpec) -> Result<RunResult> {
            self.0.fetch_add(1, Ordering::SeqCst);
            std::fs::write(&spec.stdout, "").unwrap();
            Ok(RunResult::at_once())
        }
    }

    #[test]
    fn an_input_unchanged_since_it_was_found_valid_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let memo = dir.path().join("memo");
        let input = dir.path().join("1.in");
        std::fs::write(&input, "5\n").unwrap();
        let (validator, test) = validator_and_test(&input);
        let runner = Accepting::default();
        validate(&runner, &validator, &memo, &[&test]).unwrap();
        assert_eq!(runner.0.load(Ordering::SeqCst), 1);
        // Without the memo by contents, only the file's identity can say the input was found valid: the input is
        // not hashed, nor validated again.
        std::fs::remove_file(memo.join(memo_key(&validator, &test).unwrap())).unwrap();
        validate(&runner, &validator, &memo, &[&test]).unwrap();
        assert_eq!(runner.0.load(Ordering::SeqCst), 1, "validated again");
        // The same contents in another file are found by contents, once the memo by contents is back.
        std::fs::write(memo.join(memo_key(&validator, &test).unwrap()), b"").unwrap();
        std::fs::remove_file(&input).unwrap();
        std::fs::write(&input, "5\n").unwrap();
        validate(&runner, &validator, &memo, &[&test]).unwrap();
        assert_eq!(runner.0.load(Ordering::SeqCst), 1, "validated again");
        // Changed contents are validated.
        std::fs::write(&input, "6\n").unwrap();
        validate(&runner, &validator, &memo, &[&test]).unwrap();
        assert_eq!(runner.0.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_link_planted_in_the_memo_is_neither_believed_nor_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let memo = dir.path().join("memo");
        std::fs::create_dir(&memo).unwrap();
        let input = dir.path().join("1.in");
        std::fs::write(&input, "5\n").unwrap();
        let answer = dir.path().join("1.ans");
        std::fs::write(&answer, "kept\n").unwrap();
        let (validator, test) = validator_and_test(&input);
        // Both memos of the input planted as links to the answer, as a run without layers could.
        for name in [
            identity_key(&validator, &test),
            memo_key(&validator, &test).unwrap(),
        ] {
            std::os::unix::fs::symlink(&answer, memo.join(name)).unwrap();
        }
        let runner = Accepting::default();
        validate(&runner, &validator, &memo, &[&test]).unwrap();
        assert_eq!(
            runner.0.load(Ordering::SeqCst),
            1,
            "a planted memo was believed"
        );
        assert_eq!(std::fs::read_to_string(&answer).unwrap(), "kept\n");
        assert!(
            std::fs::symlink_metadata(memo.join(identity_key(&validator, &test)))
                .unwrap()
                .is_file()
        );
    }

    #[test]
    fn the_memo_key_is_the_one_the_whole_input_gave() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("1.in");
        let contents: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&input, &contents).unwrap();
        let (validator, test) = validator_and_test(&input);
        // Memos written before inputs were streamed stay valid.
        assert_eq!(
            memo_key(&validator, &test).unwrap(),
            cache_key(&[b"build", b"--n\x005", &contents])
        );
    }
}
