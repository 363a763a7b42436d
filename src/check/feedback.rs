//! The scores an output or static validator may leave in its feedback folder: `score.txt` (the test's score) or
//! `score_multiplier.txt` (a share of the test's highest score), each one number.

use std::path::Path;

/// The most a score file may hold: one number and some white space.
const SCORE_FILE_LIMIT: u64 = 256;

/// What a validator's score file said. Kept in the JSON report (`{"score": 3}`, `{"multiplier": 0.5}`), so that
/// the shares of a judge merge to the scores one judge of all the tests gives: a test's share of its group's
/// score is decided again there, and with it what the file means.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValidatorScore {
    Score(f64),
    Multiplier(f64),
}

/// The score the validator that ran in `workdir` left in its feedback folder (`feedback`, in `workdir`), if any;
/// an error saying what is wrong with it when it left both files, or one that is not a number in range (a judge
/// error). `who` names the validator in it ("output validator", "static validator").
pub fn validator_score(
    workdir: &Path,
    feedback: &Path,
    who: &str,
) -> Result<Option<ValidatorScore>, String> {
    let read = |name: &str| -> Result<Option<f64>, String> {
        let path = feedback.join(name);
        let bytes = match crate::untrusted::read(workdir, &path, SCORE_FILE_LIMIT) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("the {who}'s {name} cannot be read: {e}")),
        };
        let text = String::from_utf8_lossy(&bytes);
        match text.trim().parse::<f64>() {
            Ok(value) if value.is_finite() && value >= 0.0 => Ok(Some(value)),
            _ => Err(format!(
                "the {who}'s {name} holds \"{}\", not a non-negative number",
                crate::text::bound(text.trim(), 40)
            )),
        }
    };
    match (read("score.txt")?, read("score_multiplier.txt")?) {
        (Some(_), Some(_)) => Err(format!(
            "the {who} wrote both score.txt and score_multiplier.txt"
        )),
        (Some(score), None) => Ok(Some(ValidatorScore::Score(score))),
        (None, Some(multiplier)) if multiplier > 1.0 => Err(format!(
            "the {who}'s score_multiplier.txt holds {multiplier}, over 1"
        )),
        (None, Some(multiplier)) => Ok(Some(ValidatorScore::Multiplier(multiplier))),
        (None, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::FEEDBACK;

    fn with(files: &[(&str, &str)]) -> Result<Option<ValidatorScore>, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(FEEDBACK)).unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(FEEDBACK).join(name), text).unwrap();
        }
        validator_score(dir.path(), Path::new(FEEDBACK), "output validator")
    }

    #[test]
    fn score_files() {
        assert_eq!(with(&[]), Ok(None));
        assert_eq!(
            with(&[("score.txt", " 12.5\n")]),
            Ok(Some(ValidatorScore::Score(12.5)))
        );
        assert_eq!(
            with(&[("score_multiplier.txt", "0.25")]),
            Ok(Some(ValidatorScore::Multiplier(0.25)))
        );
        for files in [
            &[("score.txt", "1"), ("score_multiplier.txt", "1")][..],
            &[("score.txt", "-1")],
            &[("score.txt", "nan")],
            &[("score.txt", "ten")],
            &[("score_multiplier.txt", "1.5")],
        ] {
            assert!(with(files).is_err(), "{files:?}");
        }
    }

    #[test]
    fn a_linked_score_file_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(FEEDBACK)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join(FEEDBACK).join("score.txt"))
            .unwrap();
        assert!(validator_score(dir.path(), Path::new(FEEDBACK), "output validator").is_err());
    }
}
