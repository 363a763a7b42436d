//! Samples shown as dialogues (a package's `data/sample/*.interaction`), against what the accepted submissions did
//! on them once judged. A file is made by, or for, some reference, so at least one accepted submission should run
//! in as many passes as it shows; submissions accepted in different numbers of passes (a guessing game played better
//! or worse) all agree with it as long as one matches. The lines themselves are not compared: right submissions may
//! well say other things. (Their form is checked when the package is read.)

use super::outcome::SolutionReport;
use crate::problem::{Interaction, PackageWarning, WarningKind};
use crate::verdict::Verdict;

/// A warning for each sample that shows a number of passes no accepted submission (one expected AC alone) took on
/// it; none for a sample no accepted submission passed, which says nothing of the passes.
pub(super) fn sample_warnings<'a>(
    interactions: impl IntoIterator<Item = &'a Interaction>,
    solutions: &[SolutionReport],
) -> Vec<PackageWarning> {
    let mut warnings = Vec::new();
    for interaction in interactions {
        let took: Vec<(&str, u32)> = solutions
            .iter()
            .filter(|s| s.expected == [Verdict::Accepted])
            .flat_map(|s| {
                s.tests
                    .iter()
                    .filter(|t| *t.input == *interaction.input && t.verdict.is_accepted())
                    .map(|t| (s.name.as_str(), t.passes))
            })
            .collect();
        if took.is_empty() || took.iter().any(|&(_, n)| n == interaction.passes) {
            continue;
        }
        let runs: Vec<String> = took
            .iter()
            .map(|(name, n)| format!("{name} took {n}"))
            .collect();
        warnings.push(PackageWarning::new(
            WarningKind::SampleInteraction,
            &interaction.file,
            None,
            format!(
                "the sample interaction shows {} passes, and no accepted submission took that many on it: {}",
                interaction.passes,
                runs.join(", ")
            ),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::TestResult;
    use crate::problem::Test;

    #[test]
    fn a_sample_is_checked_against_the_passes_of_the_accepted_submissions() {
        use crate::compile::CompileOutcome;
        use crate::language::Language;
        let result = |input: &str, verdict, passes| {
            let run = crate::sandbox::RunResult::at_once();
            let test = Test {
                name: input.into(),
                files: crate::problem::Files::at(
                    std::path::Path::new(input),
                    std::path::PathBuf::from("a"),
                ),
                judging: crate::problem::Judging::new(Default::default(), Default::default()),
            };
            TestResult {
                verdict,
                passes,
                ..TestResult::new(&test, &run)
            }
        };
        let solution = |name: &str, expected, tests| SolutionReport {
            score: None,
            max_score: None,
            groups: Vec::new(),
            broken: Vec::new(),
            build: None,
            name: name.into(),
            path: name.into(),
            language: Language::named("python3").unwrap(),
            expected: vec![expected],
            verdict: Verdict::Accepted,
            ok: true,
            compile: CompileOutcome {
                ok: true,
                time: Default::default(),
                message: String::new(),
                cached: false,
            },
            tests,
        };
        let shown = |input: &str, passes| Interaction {
            file: format!("{input}.interaction").into(),
            input: input.into(),
            passes,
        };
        let solutions = [
            solution(
                "a.py",
                Verdict::Accepted,
                vec![
                    result("1", Verdict::Accepted, 2),
                    result("2", Verdict::Accepted, 3),
                ],
            ),
            solution(
                "b.py",
                Verdict::Accepted,
                vec![
                    result("1", Verdict::Accepted, 2),
                    result("2", Verdict::Accepted, 5),
                ],
            ),
            // Neither a wrong submission, nor a run that failed, says what the references do.
            solution(
                "wrong.py",
                Verdict::WrongAnswer,
                vec![result("3", Verdict::Accepted, 4)],
            ),
            solution(
                "a2.py",
                Verdict::Accepted,
                vec![result("3", Verdict::WrongAnswer, 4)],
            ),
        ];
        let interactions = [shown("1", 2), shown("2", 5), shown("2", 4), shown("3", 4)];
        let warnings = sample_warnings(&interactions, &solutions);
        let said: Vec<(String, &str)> = warnings
            .iter()
            .map(|w| (w.file.display().to_string(), w.message.as_str()))
            .collect();
        assert_eq!(
            said,
            [(
                "2.interaction".to_owned(),
                "the sample interaction shows 4 passes, and no accepted submission took that many on it: a.py \
                 took 3, b.py took 5"
            )]
        );
        assert!(
            warnings
                .iter()
                .all(|w| w.kind == WarningKind::SampleInteraction)
        );
    }
}
