//! A package's static validator (2025-09): the program that judges a submission from its files, once for each
//! static validation test case of the package's groups. It runs as `validator <language> <entry_point>
//! <feedback_dir> [args]`, built and limited as the output validator is, in a working directory holding a copy of
//! the submission's build folder (its files as built, the package's included files among them, and what its
//! compile made), so that nothing it does reaches the build that the submission's runs use; and it answers as an
//! output validator does: exit code 42 accepts, 43 rejects, `judgemessage.txt` says why, `score.txt` or
//! `score_multiplier.txt` give the case's score.

use super::{CheckOutcome, ValidatorScore, validator_score, verdict_of};
use crate::compile::{Compiler, Program};
use crate::error::{Error, Result};
use crate::problem::{Problem, Protocol};
use crate::runs::{self, CHECKER_LIMITS};
use crate::sandbox::{Limits, Runner};
use crate::units::Bytes;
use std::path::{Path, PathBuf};

/// What names the static validator in a judge error.
const WHO: &str = "static validator";

/// The package's static validator, built.
pub struct StaticValidator {
    program: Program,
    /// What each run may take, but for the copy of the submission's files on disk.
    limits: Limits,
}

/// What the static validator is given of a submission.
pub struct Submitted<'a> {
    /// Its build folder, copied for each run.
    pub files: &'a Path,
    /// Its language's code in the format's table (`cpp`, `python3`).
    pub language: &'a str,
    /// Its entry point: the class its run starts, or its main file's name.
    pub entry_point: &'a str,
}

/// What the static validator said of a submission: its verdict and message, and the score it wrote (or what is
/// wrong with its score files).
pub struct StaticJudgment {
    pub said: CheckOutcome,
    pub score: std::result::Result<Option<ValidatorScore>, String>,
}

impl StaticValidator {
    /// Builds the package's static validator, if the problem has one.
    pub fn build(compiler: &Compiler, problem: &Problem) -> Result<Option<StaticValidator>> {
        let Some(source) = problem
            .package
            .as_ref()
            .and_then(|p| p.static_validator.as_ref())
        else {
            return Ok(None);
        };
        let limits = runs::tool_limits(CHECKER_LIMITS, &problem.limits);
        let (program, _) = compiler.tool_source(WHO, source, limits.memory)?;
        Ok(Some(StaticValidator { program, limits }))
    }

    /// Judges `submitted`, giving the validator `args`, in `dir` (fresh and empty).
    pub fn judge(
        &self,
        runner: &dyn Runner,
        dir: &Path,
        submitted: &Submitted,
        args: &[String],
    ) -> Result<StaticJudgment> {
        let workdir = dir.join("box");
        copy_build(submitted.files, &workdir)
            .map_err(|e| Error::io("copy the submission's files to", &workdir, e))?;
        // Its feedback folder, named as none of the submission's files is.
        let feedback = feedback_name(&workdir);
        std::fs::create_dir(workdir.join(&feedback))
            .map_err(|e| Error::io("create", workdir.join(&feedback), e))?;
        // The copy is on disk, where the validator may leave as much besides it as an output validator may.
        let (copied, _) = crate::untrusted::usage(&workdir, Limits::FILES + 1);
        let limits = Limits {
            disk: Bytes(self.limits.disk.0.saturating_add(copied)),
            ..self.limits.clone()
        };
        let spec = runs::static_validator(
            &self.program,
            &limits,
            &workdir,
            &dir.join("stdout"),
            submitted.language,
            submitted.entry_point,
            &workdir.join(&feedback),
            args,
        );
        let result = runner.run(&spec)?;
        Ok(StaticJudgment {
            said: verdict_of(
                Protocol::Package,
                &result,
                &workdir,
                &feedback,
                WHO,
                &limits,
            ),
            score: validator_score(&workdir, &feedback, WHO),
        })
    }
}

/// The feedback folder's name in `workdir`: `feedback`, or where the submission has a file of that name, the first
/// of `feedback-2`, `feedback-3`... it has none of.
fn feedback_name(workdir: &Path) -> PathBuf {
    let taken = |name: &str| std::fs::symlink_metadata(workdir.join(name)).is_ok();
    let mut name = super::FEEDBACK.to_owned();
    let mut next = 2;
    while taken(&name) {
        name = format!("{}-{next}", super::FEEDBACK);
        next += 1;
    }
    PathBuf::from(name)
}

/// Copies the build folder `from` to `to`, a new folder. The folder is the judge's own: a build is kept only when it
/// left files and folders alone (see `compile`), and only those are copied.
fn copy_build(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry?;
        let below = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let target = to.join(below);
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir(&target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feedback_folder_is_named_as_no_file_of_the_submission() {
        let dir = tempfile::tempdir().unwrap();
        let build = dir.path().join("build");
        std::fs::create_dir_all(build.join("lib")).unwrap();
        std::fs::write(build.join("feedback"), "a file of the submission\n").unwrap();
        std::fs::write(build.join("lib").join("a.py"), "x = 1\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", build.join("link")).unwrap();
        let copy = dir.path().join("copy");
        copy_build(&build, &copy).unwrap();
        assert_eq!(
            std::fs::read_to_string(copy.join("lib").join("a.py")).unwrap(),
            "x = 1\n"
        );
        // A link is no file of a build: it is not copied.
        assert!(std::fs::symlink_metadata(copy.join("link")).is_err());
        assert_eq!(feedback_name(&copy), PathBuf::from("feedback-2"));
        std::fs::remove_file(copy.join("feedback")).unwrap();
        assert_eq!(feedback_name(&copy), PathBuf::from("feedback"));
    }
}
