//! Rebuilding every test from its recipe: the generator's input (made twice, to catch a generator that is not
//! deterministic) or the kept hand-made one, the validator's word on it, and the main reference's answer.

use super::recipe::Source;
use super::store::{NewTest, TestFolder, holds};
use super::workshop::{Answer, Workshop, scratch};
use crate::error::{Error, Result};
use crate::judge::InputCheck;
use crate::verdict::Verdict;
use std::path::Path;

/// What rebuilding one test found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebuilt {
    /// Byte for byte the files kept.
    Same,
    /// The files kept differ from the rebuilt ones (or are missing); with --write they were replaced.
    Changed {
        input: Difference,
        answer: Difference,
        written: bool,
    },
    /// Two runs of the generator with the same arguments gave different inputs.
    Nondeterministic,
    GeneratorFailed(String),
    /// A hand-made test whose input is gone: nothing can rebuild it.
    InputLost,
    Invalid(String),
    ReferenceFailed {
        verdict: Verdict,
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    Same,
    /// With how the kept file would change, where it can be shown (see [`crate::check::diff::change`]).
    Differs(Option<String>),
    Missing,
}

impl Rebuilt {
    /// Whether this leaves the tests as their recipe makes them.
    pub fn is_fine(&self) -> bool {
        match self {
            Rebuilt::Same => true,
            Rebuilt::Changed { written, .. } => *written,
            _ => false,
        }
    }
}

#[derive(Debug)]
pub struct RegenReport {
    pub tests: Vec<(String, Rebuilt)>,
    /// Tests in the folder that the recipe does not list.
    pub unrecorded: Vec<String>,
    /// Whether the user stopped it: the tests listed are those rebuilt before.
    pub interrupted: bool,
}

impl RegenReport {
    pub fn is_fine(&self) -> bool {
        !self.interrupted && self.tests.iter().all(|(_, rebuilt)| rebuilt.is_fine())
    }
}

/// Rebuilds every test the recipe lists, writing the changes if `write`. The folder stays locked throughout, so no
/// `add` slips in between.
pub fn regen(
    workshop: &Workshop,
    folder_dir: &std::path::Path,
    write: bool,
    on_step: &mut dyn FnMut(usize, usize),
) -> Result<RegenReport> {
    let folder = TestFolder::lock(folder_dir)?;
    let recipe = folder.recipe()?;
    let generated = recipe
        .tests
        .iter()
        .any(|t| matches!(t.source, Source::Generated(_)));
    let generator = generated.then(|| workshop.generator()).transpose()?;
    let validators = workshop.validators()?;
    let flags = workshop.problem.new_test_flags();
    let main = workshop.solution(workshop.main_solution()?)?;
    let dir = scratch("regen")?;

    let mut tests = Vec::with_capacity(recipe.tests.len());
    let mut interrupted = false;
    for (index, entry) in recipe.tests.iter().enumerate() {
        on_step(index, recipe.tests.len());
        if crate::interrupt::requested() {
            interrupted = true;
            break;
        }
        let rebuild = || -> Result<Rebuilt> {
            let kept_input = folder.path(&entry.name, "in");
            let input_path = dir.path().join(format!("{index}.in"));
            // A generated input is made anew, and compared with the kept one. A hand-made one is the kept one,
            // copied as it is: the tests kept may be far larger than what should be held.
            let input = match &entry.source {
                Source::Generated(args) => {
                    let generator = generator.as_ref().expect("made when any test is generated");
                    let first = workshop.generate(generator, args)?;
                    let second = workshop.generate(generator, args)?;
                    let input = match (first, second) {
                        (Err(why), _) | (_, Err(why)) => {
                            return Ok(Rebuilt::GeneratorFailed(why));
                        }
                        (Ok(first), Ok(second)) if first != second => {
                            return Ok(Rebuilt::Nondeterministic);
                        }
                        (Ok(first), Ok(_)) => first,
                    };
                    std::fs::write(&input_path, &input)
                        .map_err(|e| Error::io("write", &input_path, e))?;
                    Some(input)
                }
                Source::HandMade => {
                    if std::fs::File::open(&kept_input).is_err() {
                        return Ok(Rebuilt::InputLost);
                    }
                    std::fs::copy(&kept_input, &input_path)
                        .map_err(|e| Error::io("copy", &kept_input, e))?;
                    None
                }
            };
            if let InputCheck::Invalid { message } =
                workshop.validate(&validators, &input_path, &flags.input)?
            {
                return Ok(Rebuilt::Invalid(message));
            }
            let answer = match workshop.answer(&main, &input_path)? {
                Answer::Output(answer) => answer,
                Answer::Failed { verdict, message } => {
                    return Ok(Rebuilt::ReferenceFailed { verdict, message });
                }
            };
            // A kept file that cannot be read is as good as missing; one that differs is shown against the new one
            // (written beside it in the scratch folder).
            let compare = |kept: &Path, new: &[u8], new_path: &Path| -> Result<Difference> {
                Ok(match holds(kept, new) {
                    Err(_) => Difference::Missing,
                    Ok(true) => Difference::Same,
                    Ok(false) => {
                        std::fs::write(new_path, new)
                            .map_err(|e| Error::io("write", new_path, e))?;
                        Difference::Differs(crate::check::diff::change(kept, new_path))
                    }
                })
            };
            let input_difference = match &input {
                Some(input) => compare(&kept_input, input, &input_path)?,
                None => Difference::Same,
            };
            let answer_path = dir.path().join(format!("{index}.ans"));
            let answer_difference =
                compare(&folder.path(&entry.name, "ans"), &answer, &answer_path)?;
            let rebuilt =
                if input_difference == Difference::Same && answer_difference == Difference::Same {
                    Rebuilt::Same
                } else {
                    if write {
                        match input {
                            Some(input) => folder.write(&NewTest {
                                name: entry.name.clone(),
                                input,
                                answer,
                            })?,
                            None => folder.write_answer(&entry.name, &answer)?,
                        }
                    }
                    Rebuilt::Changed {
                        input: input_difference,
                        answer: answer_difference,
                        written: write,
                    }
                };
            Ok(rebuilt)
        };
        match rebuild() {
            Ok(rebuilt) => tests.push((entry.name.clone(), rebuilt)),
            // What was rebuilt before stays rebuilt, and is reported.
            Err(Error::Interrupted) => {
                interrupted = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let unrecorded = crate::problem::find_inputs(folder.dir())?
        .into_iter()
        .filter(|t| recipe.get(&t.name).is_none())
        .map(|t| t.name.into())
        .collect();
    Ok(RegenReport {
        tests,
        unrecorded,
        interrupted,
    })
}
