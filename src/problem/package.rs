//! Problem packages, the format of Kattis, DOMjudge and the ICPC: a folder holding `problem.yaml`, read into a
//! [`Problem`] as it is. Both the legacy format and the 2023-07 one are read; where they differ, `problem.yaml`'s
//! `problem_format_version` says which rules apply.
//!
//! - Tests: `data/sample` then `data/secret`, groups nested to any depth, each with the flags its `testdata.yaml`
//!   files give (a group's file overrides its parent's, key by key).
//! - Output: `validation: default` (legacy) or no output validator: the default validator with the flags of
//!   problem.yaml's `validator_flags` and the group's `output_validator_flags` (`output_validator_args` in
//!   2023-07); `custom`: the program in `output_validators/` (or `output_validator/`); `custom interactive` (or
//!   2023-07's `type: interactive`): that program as interactor.
//! - Input validators: each program (a file or a folder) or checktestdata script in `input_validators/` (or
//!   `input_validator/`).
//! - Submissions: each file or folder in a folder of `submissions/` named for its verdict, or tagged with
//!   DOMjudge's `@EXPECTED_RESULTS@` (see [`super::package_submissions`]).

use super::Comparison;
use super::config::{InputValidator, PackageParts, Problem, ProblemLimits, Protocol};
use super::package_limits::{PackageLimits, RawLimits};
use super::testset::{Test, TestFlags, find_tests};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::language::Language;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Whether `dir` is a problem package: a folder holding `problem.yaml`.
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file()
}

#[derive(Deserialize, Default)]
struct RawProblem {
    problem_format_version: Option<String>,
    name: Option<Name>,
    #[serde(rename = "type")]
    kind: Option<Kind>,
    validation: Option<String>,
    validator_flags: Option<String>,
    #[serde(default)]
    limits: RawLimits,
}

/// A name, or a name per language.
#[derive(Deserialize)]
#[serde(untagged)]
enum Name {
    One(String),
    PerLanguage(BTreeMap<String, String>),
}

/// 2023-07's `type`: one word, or several.
#[derive(Deserialize)]
#[serde(untagged)]
enum Kind {
    One(String),
    Several(Vec<String>),
}

/// testdata.yaml: the keys that matter to judging pass/fail problems; the others are allowed and ignored.
#[derive(Deserialize, Default, Clone)]
struct RawGroup {
    input_validator_flags: Option<Args>,
    output_validator_flags: Option<Args>,
    input_validator_args: Option<Args>,
    output_validator_args: Option<Args>,
}

/// Arguments as one string or as a list.
#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum Args {
    Line(String),
    List(Vec<String>),
    /// 2023-07 gives input validators' arguments per validator name; all of them are passed to every validator.
    PerValidator(BTreeMap<String, String>),
}

impl Args {
    fn words(&self) -> Vec<String> {
        match self {
            Args::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
            Args::List(list) => list.clone(),
            Args::PerValidator(map) => map
                .values()
                .flat_map(|line| line.split_whitespace().map(str::to_owned))
                .collect(),
        }
    }
}

/// Reads YAML, an error naming the file, line and column.
fn read_yaml<T: for<'de> Deserialize<'de> + Default>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    serde_saphyr::from_str(&text).map_err(|e| {
        let message = e.to_string();
        let first = message.lines().next().unwrap_or_default();
        let (line, column, what) = position(first);
        Error::Config {
            path: path.to_owned(),
            line,
            column,
            message: what.to_owned(),
        }
    })
}

/// "error: line 3 column 20: invalid floating point" → (3, 20, "invalid floating point").
fn position(message: &str) -> (usize, usize, &str) {
    let rest = message.strip_prefix("error: ").unwrap_or(message);
    let parse = || -> Option<(usize, usize, &str)> {
        let rest = rest.strip_prefix("line ")?;
        let (line, rest) = rest.split_once(" column ")?;
        let (column, what) = rest.split_once(": ")?;
        Some((line.parse().ok()?, column.parse().ok()?, what))
    };
    parse().unwrap_or((1, 1, rest))
}

impl Problem {
    /// Reads the package in `dir`.
    pub fn load_package(dir: &Path) -> Result<Problem> {
        let config_path = dir.join("problem.yaml");
        let raw: RawProblem = read_yaml(&config_path)?;
        let config_error = |message: String| Error::Config {
            path: config_path.clone(),
            line: 1,
            column: 1,
            message,
        };
        let modern = match raw.problem_format_version.as_deref() {
            None | Some("legacy") => false,
            Some(version) if version.starts_with("2023-07") => true,
            Some(other) => {
                return Err(config_error(format!(
                    "problem_format_version \"{other}\" is not one cpjudge reads (legacy, 2023-07)"
                )));
            }
        };
        let name = dir
            .file_name()
            .map(crate::text::file_name)
            .unwrap_or_else(|| "package".to_owned());
        let title = match &raw.name {
            Some(Name::One(title)) => title.clone(),
            Some(Name::PerLanguage(names)) => names
                .get("en")
                .or_else(|| names.values().next())
                .cloned()
                .unwrap_or_else(|| name.clone()),
            None => name.clone(),
        };
        let interactive = kind_is_interactive(&raw, modern).map_err(config_error)?;
        let custom = interactive
            || match raw.validation.as_deref() {
                None | Some("default") => false,
                Some(words) if words.split_whitespace().next() == Some("custom") => true,
                Some(other) => {
                    return Err(config_error(format!(
                        "validation \"{other}\" is not one of: default, custom, custom interactive"
                    )));
                }
            };
        let output_validator = find_programs(dir, &["output_validators", "output_validator"])?;
        let comparison = match (
            custom || (modern && !output_validator.is_empty()),
            interactive,
        ) {
            (false, _) => Comparison::PackageDefault,
            (true, interactive) => {
                let source = one_program(dir, output_validator, "output validator")?;
                if interactive {
                    Comparison::Interactive {
                        interactor: source,
                        protocol: Protocol::Package,
                    }
                } else {
                    Comparison::OutputValidator(source)
                }
            }
        };
        let problem_flags: Vec<String> = raw
            .validator_flags
            .as_deref()
            .map(|f| f.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        let tests = package_tests(dir, problem_flags.clone())?;
        // A test added to the package goes to data/secret, and takes its flags.
        let secret_flags = group_flags(
            &dir.join("data"),
            &dir.join("data").join("secret").join("new.in"),
            &problem_flags,
        )?;
        let input_validators = find_input_validators(dir)?;
        let PackageLimits {
            time_rule,
            memory,
            output,
        } = raw.limits.validate(dir, modern)?;
        let limits = ProblemLimits {
            time: time_rule.fixed.unwrap_or(time_rule.minimum),
            memory,
            output,
        };
        let mut warnings = Vec::new();
        let solutions = super::package_submissions::submissions(dir, &mut warnings)?;
        Ok(Problem {
            name,
            dir: dir.to_owned(),
            config_path,
            title,
            limits,
            comparison,
            validator: None,
            generator: None,
            stress: None,
            solutions,
            package: Some(PackageParts {
                format: if modern { "2023-07" } else { "legacy" },
                tests,
                secret_flags,
                input_validators,
                time_rule,
                warnings,
            }),
        })
    }
}

fn kind_is_interactive(raw: &RawProblem, modern: bool) -> std::result::Result<bool, String> {
    let from_validation = raw
        .validation
        .as_deref()
        .is_some_and(|v| v.split_whitespace().any(|w| w == "interactive"));
    let from_kind = match &raw.kind {
        None => false,
        Some(Kind::One(word)) => word.split_whitespace().any(|w| w == "interactive"),
        Some(Kind::Several(words)) => words.iter().any(|w| w == "interactive"),
    };
    if raw.kind.is_some() && !modern {
        return Err(
            "`type` belongs to the 2023-07 format: give problem_format_version: 2023-07-draft, \
                    or use `validation` in a legacy package"
                .into(),
        );
    }
    Ok(from_validation || from_kind)
}

/// The tests of `data/sample` and `data/secret`, in that order, each with its group's flags.
fn package_tests(dir: &Path, problem_flags: Vec<String>) -> Result<Vec<Test>> {
    let data = dir.join("data");
    if !data.is_dir() {
        return Err(Error::NoTestsFolder { dir: data });
    }
    let mut tests = Vec::new();
    for part in ["sample", "secret"] {
        let folder = data.join(part);
        if !folder.is_dir() {
            continue;
        }
        let found = match find_tests(&folder) {
            Err(Error::NoTests { .. }) => continue,
            other => other?,
        };
        for mut test in found {
            test.name = format!("{part}/{}", test.name);
            test.flags = group_flags(&data, &test.input, &problem_flags)?;
            tests.push(test);
        }
    }
    if tests.is_empty() {
        return Err(Error::NoTests { dir: data });
    }
    Ok(tests)
}

/// The flags of the group a test is in: every testdata.yaml from `data/` down to its folder, the nearest winning.
fn group_flags(data: &Path, input: &Path, problem_flags: &[String]) -> Result<TestFlags> {
    let mut group = RawGroup::default();
    let folder = input.parent().unwrap_or(data);
    let below = folder.strip_prefix(data).unwrap_or(Path::new(""));
    let mut at = data.to_owned();
    for step in std::iter::once(None).chain(below.components().map(Some)) {
        if let Some(step) = step {
            at.push(step);
        }
        let file = at.join("testdata.yaml");
        if file.is_file() {
            let here: RawGroup = read_yaml(&file)?;
            group.input_validator_flags =
                here.input_validator_flags.or(group.input_validator_flags);
            group.output_validator_flags =
                here.output_validator_flags.or(group.output_validator_flags);
            group.input_validator_args = here.input_validator_args.or(group.input_validator_args);
            group.output_validator_args =
                here.output_validator_args.or(group.output_validator_args);
        }
    }
    let words = |a: &Option<Args>, b: &Option<Args>| {
        a.iter()
            .chain(b.iter())
            .flat_map(Args::words)
            .collect::<Vec<_>>()
    };
    let mut output = problem_flags.to_vec();
    output.extend(words(
        &group.output_validator_flags,
        &group.output_validator_args,
    ));
    Ok(TestFlags {
        input: words(&group.input_validator_flags, &group.input_validator_args),
        output,
    })
}

/// The entries of the first of `folders` that exists in `dir`, as programs: each a file or a folder.
pub(super) fn find_programs(dir: &Path, folders: &[&str]) -> Result<Vec<PathBuf>> {
    for folder in folders {
        let path = dir.join(folder);
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&path)
                .map_err(|e| Error::io("read", &path, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| !hidden(p))
                .collect();
            entries.sort_by(|a, b| natord::compare(&a.to_string_lossy(), &b.to_string_lossy()));
            return Ok(entries);
        }
    }
    Ok(Vec::new())
}

pub(super) fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

fn one_program(dir: &Path, mut found: Vec<PathBuf>, what: &str) -> Result<Source> {
    match found.len() {
        1 => program(&found.remove(0)),
        0 => Err(Error::Usage(format!(
            "{}: the package needs an {what} (in output_validators/), and has none",
            dir.display()
        ))),
        _ => Err(Error::Usage(format!(
            "{}: the package has {} {what}s; cpjudge runs one: {}",
            dir.join("output_validators").display(),
            found.len(),
            found
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn find_input_validators(dir: &Path) -> Result<Vec<InputValidator>> {
    find_programs(
        dir,
        &[
            "input_validators",
            "input_validator",
            "input_format_validators",
        ],
    )?
    .into_iter()
    .map(|path| {
        if path.extension().is_some_and(|e| e == "ctd") {
            Ok(InputValidator::Checktestdata(path))
        } else {
            program(&path).map(InputValidator::Program)
        }
    })
    .collect()
}

/// A program given as a file, or as a folder of files (build/run scripts, or sources in one language).
///
/// The judge reads these files itself, outside any sandbox, to copy them into a build folder: a link in the folder
/// is followed only to a file of the package (a shared `testlib.h`, say), never out of it (to `/etc/shadow` or
/// `/proc/kmsg`), and the files are copied side by side, so two of the same name are refused.
pub(crate) fn program(path: &Path) -> Result<Source> {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    if !path.is_dir() {
        return Source::file(&path);
    }
    let package = path
        .ancestors()
        .find(|dir| is_package(dir))
        .unwrap_or(&path)
        .to_owned();
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in walkdir::WalkDir::new(&path).follow_links(false) {
        let entry = entry.map_err(|e| Error::io("read", &path, e.into()))?;
        if hidden(entry.path()) || entry.file_type().is_dir() {
            continue;
        }
        let kind = std::fs::metadata(entry.path()).map(|m| m.file_type());
        let real = std::fs::canonicalize(entry.path());
        match (kind, real) {
            (Ok(kind), Ok(real)) if kind.is_file() && real.starts_with(&package) => {
                files.push(entry.into_path());
            }
            (Ok(kind), _) if kind.is_dir() => {}
            _ => {
                return Err(Error::Usage(format!(
                    "{}: a program's files must be files of its package, and this is {}",
                    entry.path().display(),
                    if entry.path_is_symlink() {
                        "a link out of the package, or a link to something other than a file"
                    } else {
                        crate::untrusted::describe(&entry.file_type())
                    }
                )));
            }
        }
    }
    files.sort();
    for (i, file) in files.iter().enumerate() {
        if let Some(other) = files[..i]
            .iter()
            .find(|f| f.file_name() == file.file_name())
        {
            return Err(Error::Usage(format!(
                "{} and {} have the same name: a program folder's files are copied side by side to be built",
                other.display(),
                file.display()
            )));
        }
    }
    let named = |name: &str| {
        files
            .iter()
            .position(|f| f.file_name().is_some_and(|n| n == name))
    };
    if let Some(run) = named("run") {
        let main = files.remove(run);
        return Ok(Source {
            main,
            others: files,
            language: Language::Scripts,
            folder: Some(path),
        });
    }
    let mut languages: Vec<Language> = files.iter().filter_map(|f| Language::of(f).ok()).collect();
    languages.sort_by_key(|l| l.name());
    languages.dedup();
    let language = match languages.as_slice() {
        [one] => *one,
        [] => {
            return Err(Error::Usage(format!(
                "{}: no source file of a known language in this folder",
                path.display()
            )));
        }
        many => {
            return Err(Error::Usage(format!(
                "{}: sources in several languages ({}); a program is in one",
                path.display(),
                many.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
            )));
        }
    };
    let sources: Vec<usize> = (0..files.len())
        .filter(|&i| Language::of(&files[i]).ok() == Some(language))
        .collect();
    let folder_name = path.file_name().unwrap_or_default();
    let stem_is = |i: &usize, stem: &OsStr| {
        files[*i]
            .file_stem()
            .is_some_and(|s| s.eq_ignore_ascii_case(stem))
    };
    let main = if sources.len() == 1 {
        sources[0]
    } else if let Some(i) = sources.iter().find(|i| stem_is(i, OsStr::new("main"))) {
        *i
    } else if let Some(i) = sources.iter().find(|i| stem_is(i, folder_name)) {
        *i
    } else if let Some(i) = sources.iter().find(|&&i| {
        language == Language::Java
            && std::fs::read_to_string(&files[i]).is_ok_and(|t| t.contains("static void main"))
    }) {
        *i
    } else {
        return Err(Error::Usage(format!(
            "{}: cannot tell which of its {} {} files is the main one (name it main, or after the folder)",
            path.display(),
            sources.len(),
            language.name()
        )));
    };
    let main = files.remove(main);
    Ok(Source {
        main,
        others: files,
        language,
        folder: Some(path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::TimeRule;
    use std::time::Duration;

    #[test]
    fn derived_limits_follow_each_formats_rounding() {
        let legacy = TimeRule {
            fixed: None,
            ac_multiplier: 5.0,
            tle_multiplier: 2.0,
            resolution: Duration::from_secs(1),
            minimum: Duration::from_secs(1),
            origin: String::new(),
        };
        assert_eq!(
            legacy.limit(Duration::from_millis(10)),
            Duration::from_secs(1)
        );
        assert_eq!(
            legacy.limit(Duration::from_millis(300)),
            Duration::from_secs(2)
        );
        assert_eq!(
            legacy.limit(Duration::from_millis(1000)),
            Duration::from_secs(5)
        );
        let modern = TimeRule {
            ac_multiplier: 2.0,
            resolution: Duration::from_millis(100),
            minimum: Duration::ZERO,
            ..legacy.clone()
        };
        assert_eq!(
            modern.limit(Duration::from_millis(260)),
            Duration::from_millis(600)
        );
        let fixed = TimeRule {
            fixed: Some(Duration::from_millis(1500)),
            ..legacy
        };
        assert_eq!(
            fixed.limit(Duration::from_secs(9)),
            Duration::from_millis(1500)
        );
    }

    #[test]
    fn yaml_errors_name_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("problem.yaml");
        std::fs::write(&path, "name: Sum\nlimits:\n  time_multiplier: fast\n").unwrap();
        let message = read_yaml::<RawProblem>(&path).err().unwrap().to_string();
        assert!(
            message.starts_with(&format!("{}:3:20: ", path.display())),
            "{message}"
        );
    }
}
