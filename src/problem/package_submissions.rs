//! A package's submissions: each file or folder in a folder of `submissions/`, expected to get what its folder
//! stands for, or what its DOMjudge `@EXPECTED_RESULTS@: ` tag says.
//!
//! Folder and tag are weighed as DOMjudge weighs them (webapp/src/Service/ImportProblemService.php): in one of the
//! format's four verdict folders (`accepted`, `wrong_answer`, `time_limit_exceeded`, `run_time_error`) the
//! folder's verdict is kept when the tag names it too, and the tag wins, with a warning, when it does not; in any
//! other folder the tag wins. A folder the format does not name (`slow_accepted/`, `mixed-verdicts/`) says
//! nothing of a verdict: its tagged submissions are judged by their tags, the others are skipped with a warning,
//! as problemtools skips the whole folder.

use super::Solution;
use super::expected_results::{self, Tag, Tagged};
use super::package::{find_programs, hidden, program};
use super::package_warning::{PackageWarning, WarningKind};
use super::submission::{Skipped, unique_names};
use super::submissions_yaml::SubmissionsYaml;
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::scoring::Expectation;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// The folders of `submissions/` and the verdicts their submissions are expected to get.
const SUBMISSION_FOLDERS: &[(&str, &[Verdict])] = &[
    ("accepted", &[Verdict::Accepted]),
    ("wrong_answer", &[Verdict::WrongAnswer]),
    ("time_limit_exceeded", &[Verdict::TimeLimit]),
    // Kattis has no verdict for memory: a run over the memory limit is a run-time error there (problemtools
    // judges it RTE, and the 2025-09 format's verdicts are AC, WA, TLE and RTE alone). cpjudge still reports it
    // as MLE, which says what happened; it is what this folder expects.
    (
        "run_time_error",
        &[Verdict::RuntimeError, Verdict::MemoryLimit],
    ),
    // cpjudge's own folders, for what Kattis calls a run-time error or a rejection.
    ("memory_limit_exceeded", &[Verdict::MemoryLimit]),
    ("output_limit_exceeded", &[Verdict::OutputLimit]),
    // A partial score comes with any verdict of a run: the legacy grader may accept a submission that fails
    // some tests (problemtools' oddecho), 2025-09's rules give it its first failure's.
    ("partially_accepted", &Verdict::OF_A_RUN),
    (
        "rejected",
        &[
            Verdict::WrongAnswer,
            Verdict::TimeLimit,
            Verdict::RuntimeError,
            Verdict::MemoryLimit,
            Verdict::OutputLimit,
        ],
    ),
    (
        "brute_force",
        &[
            Verdict::TimeLimit,
            Verdict::RuntimeError,
            Verdict::MemoryLimit,
        ],
    ),
];

/// The folders DOMjudge reads as one of its results, where a tag that names the folder's verdict is narrowed
/// to it.
const RESULT_FOLDERS: [&str; 4] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];

/// The most of a source read for its tag: a tag is in a comment near the top, and a submission is small.
const TAG_SEARCH_LIMIT: usize = 1 << 20;

/// Every submission to judge, accepted first, and those in no language of the table, set aside; what is skipped or
/// taken otherwise than written is added to `warnings`.
pub(super) fn submissions(
    dir: &Path,
    warnings: &mut Vec<PackageWarning>,
) -> Result<(Vec<Solution>, Vec<Skipped>)> {
    let root = dir.join("submissions");
    let rules = SubmissionsYaml::read(dir)?;
    // Each submission: where it is, what it is built from, its verdicts and its rules (submissions.yaml's).
    let mut found: Vec<(PathBuf, Source, Vec<Verdict>, Vec<Expectation>)> = Vec::new();
    let mut unknown = Vec::new();
    if root.is_dir() {
        let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
            .map_err(|e| Error::io("read", &root, e))?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<std::io::Result<_>>()
            .map_err(|e| Error::io("read", &root, e))?;
        // Warnings come in the same order on every machine.
        folders.sort();
        for folder in folders {
            if hidden(&folder) || !folder.is_dir() {
                continue;
            }
            let name = crate::text::file_name(folder.file_name().unwrap_or_default());
            let of_folder = SUBMISSION_FOLDERS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, expected)| *expected);
            let mut untagged = Vec::new();
            for path in find_programs(&root, &[&name])? {
                // BAPCtools' way to keep a submission out of judging, as a folder too.
                if path.to_string_lossy().ends_with(".disabled") {
                    unknown.push(Skipped {
                        name: crate::text::file_name(
                            path.strip_prefix(&root).unwrap_or(&path).as_os_str(),
                        ),
                        path: path.clone(),
                        language: None,
                        why: "its name ends in .disabled: left out, as BAPCtools leaves it"
                            .to_owned(),
                    });
                    continue;
                }
                // The program first: its files are read for a tag only once they are known to be files of the
                // package, never through a link out of it.
                let source = match program(&path) {
                    Ok(source) => Ok(source),
                    Err(Error::UnknownLanguage { extension, .. }) => Err(extension),
                    Err(other) => return Err(other),
                };
                // submissions.yaml, where there is one, says what a submission must do.
                let below = path.strip_prefix(&root).unwrap_or(&path);
                let below = below
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                if let Some(said) = (!rules.is_empty()).then(|| rules.said(&below)).flatten() {
                    match source {
                        Ok(mut source) => {
                            if let Some(entrypoint) = &said.entrypoint {
                                enter_at(&mut source, &path, entrypoint)?;
                            }
                            found.push((path.clone(), source, said.expected, said.expectations));
                        }
                        Err(extension) => unknown.push(unknown_language(&root, &path, &extension)),
                    }
                    continue;
                }
                let tag = tag_of(&path, of_folder.is_some(), warnings);
                let Some(expected) = expected(&name, of_folder, tag, warnings) else {
                    if !tagged_in_vain(&path) {
                        untagged.push(crate::text::file_name(path.file_name().unwrap_or_default()));
                    }
                    continue;
                };
                match source {
                    Ok(source) => found.push((path.clone(), source, expected, Vec::new())),
                    Err(extension) => unknown.push(unknown_language(&root, &path, &extension)),
                }
            }
            if !untagged.is_empty() {
                warnings.push(PackageWarning::new(
                    WarningKind::SubmissionSkipped,
                    &folder,
                    None,
                    format!(
                        "not a folder of the format, so it says nothing of a verdict, and {} {} no \
                         @EXPECTED_RESULTS@ tag: not judged",
                        untagged.join(", "),
                        if untagged.len() == 1 { "has" } else { "have" }
                    ),
                ));
            }
        }
    }
    found.sort_by(|a, b| {
        let rank = |expected: &[Verdict]| {
            SUBMISSION_FOLDERS
                .iter()
                .position(|(_, e)| *e == expected)
                .unwrap_or(usize::MAX)
        };
        rank(&a.2)
            .cmp(&rank(&b.2))
            .then_with(|| natord::compare(&a.0.to_string_lossy(), &b.0.to_string_lossy()))
    });
    let names = unique_names(&found.iter().map(|(p, ..)| p.clone()).collect::<Vec<_>>());
    let mut main_taken = false;
    let solutions = found
        .into_iter()
        .zip(names)
        .map(|((_, source, expected, expectations), name)| {
            let main = expected == [Verdict::Accepted] && !std::mem::replace(&mut main_taken, true);
            Solution {
                name,
                path: source.main,
                language: source.language,
                expected,
                main,
                others: source.others,
                expectations,
                preparation: source.preparation,
                prebuilt: None,
            }
        })
        .collect();
    Ok((solutions, unknown))
}

/// Makes `entrypoint` (a file of the folder program at `path`, as submissions.yaml names it) the program's main file.
fn enter_at(source: &mut Source, path: &Path, entrypoint: &str) -> Result<()> {
    let wanted = path.join(entrypoint);
    let Some(at) = source.others.iter().position(|o| *o == wanted) else {
        if source.main == wanted {
            return Ok(());
        }
        return Err(Error::Usage(format!(
            "{}: submissions.yaml names {entrypoint} as its entry point, and it has no such file",
            path.display()
        )));
    };
    std::mem::swap(&mut source.main, &mut source.others[at]);
    Ok(())
}

/// A submission in no language of the table, to list as not judged.
fn unknown_language(root: &Path, path: &Path, extension: &str) -> Skipped {
    let named = if extension.is_empty() {
        "no extension".to_owned()
    } else {
        format!(".{extension}")
    };
    Skipped {
        name: crate::text::file_name(path.strip_prefix(root).unwrap_or(path).as_os_str()),
        path: path.to_owned(),
        language: None,
        why: format!(
            "no language of the table has files like this ({named}); a project's or the user's languages.toml \
             can add one"
        ),
    }
}

/// The verdicts a submission is expected to get, from its folder and its tag (see the module's comment); `None`
/// when neither says.
fn expected(
    folder: &str,
    of_folder: Option<&'static [Verdict]>,
    tag: Option<(PathBuf, Tag, Vec<Verdict>)>,
    warnings: &mut Vec<PackageWarning>,
) -> Option<Vec<Verdict>> {
    match (of_folder, tag) {
        (of_folder, None) => of_folder.map(<[Verdict]>::to_vec),
        (None, Some((_, _, tagged))) => Some(tagged),
        (Some(of_folder), Some((file, tag, tagged))) => {
            let shared = tagged.iter().any(|v| of_folder.contains(v));
            if shared && RESULT_FOLDERS.contains(&folder) {
                return Some(of_folder.to_vec());
            }
            if !shared {
                warnings.push(PackageWarning::new(
                    WarningKind::ExpectedResults,
                    file,
                    Some(tag.line),
                    format!(
                        "@EXPECTED_RESULTS@: {} goes against its folder {folder} ({}): the tag's results are \
                         expected, as DOMjudge takes them",
                        tag.results.join(", "),
                        Verdict::codes(of_folder)
                    ),
                ));
            }
            Some(tagged)
        }
    }
}

/// The submission's usable tag, with its file and the verdicts it stands for; a tag that cannot be taken is
/// warned about, saying what is expected instead.
fn tag_of(
    path: &Path,
    in_known_folder: bool,
    warnings: &mut Vec<PackageWarning>,
) -> Option<(PathBuf, Tag, Vec<Verdict>)> {
    let instead = if in_known_folder {
        "its folder's verdicts are expected"
    } else {
        "and its folder says nothing of a verdict: not judged"
    };
    let mut tags: Vec<(PathBuf, Tag)> = Vec::new();
    let mut several: Vec<String> = Vec::new();
    for file in files_of(path) {
        match expected_results::find(&crate::text::read_head(&file, TAG_SEARCH_LIMIT)) {
            Tagged::None => {}
            Tagged::One(tag) => tags.push((file, tag)),
            Tagged::Several(lines) => several.extend(
                lines
                    .iter()
                    .map(|line| format!("{}:{line}", file.display())),
            ),
        }
    }
    if !several.is_empty() || tags.len() > 1 {
        several.extend(
            tags.iter()
                .map(|(file, tag)| format!("{}:{}", file.display(), tag.line)),
        );
        warnings.push(PackageWarning::new(
            WarningKind::ExpectedResults,
            path,
            None,
            format!(
                "@EXPECTED_RESULTS@ is given more than once ({}), which DOMjudge refuses: no tag is taken, \
                 {instead}",
                several.join(", ")
            ),
        ));
        return None;
    }
    let (file, tag) = tags.pop()?;
    let mut verdicts: Vec<Verdict> = Vec::new();
    let mut unknown = Vec::new();
    for result in &tag.results {
        match expected_results::verdicts(result) {
            Some(these) => {
                for verdict in these {
                    if !verdicts.contains(verdict) {
                        verdicts.push(*verdict);
                    }
                }
            }
            None => unknown.push(result.as_str()),
        }
    }
    if !unknown.is_empty() {
        warnings.push(PackageWarning::new(
            WarningKind::ExpectedResults,
            &file,
            Some(tag.line),
            format!(
                "@EXPECTED_RESULTS@: {}: {} is no result cpjudge judges (it judges {}): the tag is not taken, \
                 {instead}",
                tag.results.join(", "),
                unknown.join(", "),
                expected_results::KNOWN
            ),
        ));
        return None;
    }
    Some((file, tag, verdicts))
}

/// Whether a submission has a tag that could not be taken (already warned about, and so not listed again).
fn tagged_in_vain(path: &Path) -> bool {
    files_of(path).iter().any(|file| {
        expected_results::find(&crate::text::read_head(file, TAG_SEARCH_LIMIT)) != Tagged::None
    })
}

/// The files a submission is made of, in name order: the file, or every file in its folder.
fn files_of(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return vec![path.to_owned()];
    }
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(path)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !hidden(e.path()))
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    files.sort();
    files
}
