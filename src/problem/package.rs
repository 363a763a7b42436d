//! Problem packages, the format of Kattis, DOMjudge and the ICPC: a folder holding `problem.yaml`, read into a
//! [`Problem`] as it is. The legacy format, 2023-07 and 2025-09 are read; where they differ, `problem.yaml`'s
//! `problem_format_version` says which rules apply, and what each key means is `package_keys`' to say.
//!
//! - Tests: `data/sample` then `data/secret`, groups nested to any depth, each with the flags its group files
//!   give (see `package_groups`).
//! - Output: `validation: default` (legacy) or no output validator: the default validator with the flags of
//!   problem.yaml's `validator_flags` and the group's `output_validator_flags` (`output_validator_args` in
//!   2023-07); `custom`: the program in `output_validators/` (or 2025-09's `output_validator/`, which is the
//!   program); `custom interactive` (or 2023-07's `type: interactive`): that program as interactor. A multi-pass
//!   problem (`type: multi-pass`, DOMjudge's legacy `validation: custom multi-pass`) runs the submission again
//!   on each input that program writes, up to `limits.validation_passes` times (see `judge::passes`).
//! - Input validators: each program (a file or a folder) or checktestdata script in `input_validators/` (or
//!   `input_validator/`).
//! - Submissions: each file or folder in a folder of `submissions/` named for its verdict, or tagged with
//!   DOMjudge's `@EXPECTED_RESULTS@` (see [`super::package_submissions`]), built with the package's included files
//!   (see [`super::included`]).
//! - Constants (2025-09): replaced in the programs as they are built, and in the group files as they are read
//!   (see [`super::constants`]).
//! - Static validation (2025-09): the program in `static_validator/`, and the static validation test case a
//!   group's file defines (see [`super::package_static`]).

use super::Comparison;
use super::config::{InputValidator, PackageParts, Problem, ProblemLimits, Protocol};
use super::constants::Constants;
use super::included::Included;
use super::package_flags::group_flags;
use super::package_groups::check_groups;
use super::package_interaction::{Shown, read_interactions};
use super::package_keys::problem_keys;
use super::package_limits::{PackageLimits, RawLimits};
use super::testset::{Test, find_tests_named_from};
use super::yaml_keys::{Keys, Version, key_line};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::language::{Language, Rules};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether `dir` is a problem package: a folder holding `problem.yaml`.
pub fn is_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file()
}

#[derive(Deserialize, Default)]
struct RawProblem {
    problem_format_version: Option<String>,
    name: Option<Name>,
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

/// The most of a package's YAML file read: far more than any real one holds.
const YAML_LIMIT: u64 = 16 << 20;

/// A group file (`testdata.yaml`, `test_group.yaml`), read as [`read_yaml_text`] reads it and used as the format
/// says: with the package's constants replaced (2025-09).
pub(super) fn read_group_text(path: &Path, constants: &super::Constants) -> Result<String> {
    Ok(constants.substitute(&read_yaml_text(path)?).into_owned())
}

/// A YAML file of a package, which comes from anyone: a regular file, never waited on (a FIFO) nor read without
/// end (a device), of at most [`YAML_LIMIT`] bytes.
pub(super) fn read_yaml_text(path: &Path) -> Result<String> {
    use crate::untrusted::Unread;
    let bytes = crate::untrusted::read_regular(path, YAML_LIMIT).map_err(|why| match why {
        Unread::Io(e) => Error::io("read", path, e),
        Unread::NotRegular(what) => Error::Usage(format!(
            "{}: a package's file must be a regular file, and this is {what}",
            path.display()
        )),
        Unread::TooLarge => Error::Usage(format!(
            "{}: more than {} of YAML is not read",
            path.display(),
            crate::units::Bytes(YAML_LIMIT)
        )),
    })?;
    String::from_utf8(bytes)
        .map_err(|e| Error::Usage(format!("{}: not UTF-8: {e}", path.display())))
}

/// Reads YAML, an error naming the file, line and column.
pub(super) fn read_yaml<T: for<'de> Deserialize<'de> + Default>(path: &Path) -> Result<T> {
    parse_yaml(path, &read_yaml_text(path)?)
}

/// YAML as it is written, to look at its keys: `.nan` and `.inf` kept as text, since a key's value is judged
/// where it is used, and only there (a limit of `.nan` is refused with its own message).
pub(super) fn yaml_value(path: &Path, text: &str) -> Result<serde_json::Value> {
    parse_yaml_with(
        path,
        text,
        serde_saphyr::options! {
            non_finite_float_policy: serde_saphyr::NonFiniteFloatPolicy::AsString,
        },
    )
}

/// `text`, the YAML of `path`, read into `T`.
pub(super) fn parse_yaml<T: for<'de> Deserialize<'de> + Default>(
    path: &Path,
    text: &str,
) -> Result<T> {
    parse_yaml_with(path, text, serde_saphyr::Options::default())
}

fn parse_yaml_with<T: for<'de> Deserialize<'de> + Default>(
    path: &Path,
    text: &str,
    options: serde_saphyr::Options,
) -> Result<T> {
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    serde_saphyr::from_str_with_options(text, options).map_err(|e| {
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
        let text = read_yaml_text(&config_path)?;
        let raw: RawProblem = parse_yaml(&config_path, &text)?;
        let version = Version::of(raw.problem_format_version.as_deref()).map_err(|message| {
            Error::Config {
                path: config_path.clone(),
                line: key_line(&text, &["problem_format_version"]).unwrap_or(1),
                column: 1,
                message,
            }
        })?;
        let mut warnings = Vec::new();
        let value = yaml_value(&config_path, &text)?;
        let kind = problem_keys(
            &mut Keys {
                path: &config_path,
                text: &text,
                version,
                warnings: &mut warnings,
            },
            &value,
        )?;
        let constants = Arc::new(Constants::read(&config_path, &text, &value)?);
        // Programs are built with their constants replaced; those of a package that gives none are built as they are.
        let replaced = (!constants.is_empty()).then(|| constants.clone());
        check_groups(dir, version, kind.scoring, &constants, &mut warnings)?;
        super::package_parts::check_parts(dir, version, &constants, &mut warnings)?;
        let included = Included::find(dir, &mut warnings)?;
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
        // 2025-09's `output_validator/` is the one validator; legacy's `output_validators/` holds each in a file
        // or folder of its own.
        let single = dir.join("output_validator");
        let output_validator = if single.is_dir() && !dir.join("output_validators").is_dir() {
            vec![single]
        } else {
            find_programs(dir, &["output_validators"])?
        };
        let comparison = match (
            kind.custom || (version.is_modern() && !output_validator.is_empty()),
            kind.interactive,
        ) {
            (false, _) => Comparison::PackageDefault,
            (true, interactive) => {
                let mut source = one_program(dir, output_validator, "output validator")?;
                source.preparation.constants = replaced.clone();
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
        // The format has the output validator write each next pass's input: the default one writes none.
        if kind.multi_pass && comparison == Comparison::PackageDefault {
            let key = if value.get("type").is_some() {
                "type"
            } else {
                "validation"
            };
            return Err(Error::Config {
                path: config_path.clone(),
                line: key_line(&text, &[key]).unwrap_or(1),
                column: 1,
                message: "a multi-pass problem needs its own output validator (output_validator/), which \
                          writes each next pass's input"
                    .to_owned(),
            });
        }
        let problem_flags: Vec<String> = raw
            .validator_flags
            .as_deref()
            .map(|f| f.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        let tests = package_tests(dir, problem_flags.clone(), version, &constants)?;
        if comparison == Comparison::PackageDefault {
            default_validator_flags(&config_path, &problem_flags, &tests)?;
        }
        // A test added to the package goes to data/secret, and takes its flags.
        let secret_flags = group_flags(
            &dir.join("data"),
            &dir.join("data").join("secret").join("new.in"),
            &problem_flags,
            version,
            &constants,
        )?;
        let mut substituted = None;
        let input_validators =
            find_input_validators(dir, &replaced, &mut substituted, &mut warnings)?;
        let PackageLimits {
            time_rule,
            memory,
            output,
            passes,
        } = raw.limits.validate(dir, version.is_modern())?;
        let passes = kind
            .multi_pass
            .then(|| passes.unwrap_or(super::package_limits::DEFAULT_PASSES));
        let interactions = read_interactions(
            dir,
            Shown {
                interactive: kind.interactive,
                passes,
            },
        )?;
        let limits = ProblemLimits {
            time: time_rule.fixed.unwrap_or(time_rule.minimum),
            memory,
            output,
        };
        let (mut solutions, unknown_language) =
            super::package_submissions::submissions(dir, &mut warnings)?;
        let groups = if kind.scoring {
            Some(super::package_tree::grouping(dir, version, &constants)?)
        } else {
            None
        };
        let statics = super::package_static::read(
            dir,
            version,
            groups.as_ref(),
            &constants,
            &replaced,
            &tests,
            &mut warnings,
        )?;
        for solution in &mut solutions {
            solution.preparation = crate::compile::Preparation {
                constants: replaced.clone(),
                ..included.for_language(solution.language)
            };
        }
        let included = Arc::new(included);
        Ok(Problem {
            flags: Default::default(),
            time_limit_floor: None,
            groups,
            name,
            dir: dir.to_owned(),
            config_path,
            title,
            limits,
            comparison,
            validator: None,
            protocol: Protocol::Package,
            generator: None,
            stress: None,
            solutions,
            package: Some(PackageParts {
                format: version.label(),
                tests,
                secret_flags,
                validator_flags: problem_flags,
                input_validators,
                time_rule,
                unknown_language,
                warnings,
                constants,
                substituted: substituted.map(Arc::new),
                included,
                passes,
                interactions,
                static_validator: statics.validator,
                static_cases: statics.cases,
            }),
        })
    }
}

impl Problem {
    /// Prepares a submission given besides the package's own (on the command line) as the package prepares its
    /// own: built with the included files of its language, their constants replaced. In the submission's own
    /// files they are replaced only when it is a file of the package: the format replaces them in the package's
    /// example submissions, never in a contestant's.
    pub fn prepare_submission(&self, solution: &mut super::Solution) {
        let Some(package) = &self.package else {
            return;
        };
        let own = std::fs::canonicalize(&solution.path)
            .ok()
            .zip(std::fs::canonicalize(&self.dir).ok())
            .is_some_and(|(path, dir)| path.starts_with(dir));
        solution.preparation = crate::compile::Preparation {
            constants: (!package.constants.is_empty()).then(|| package.constants.clone()),
            contestant: !own,
            ..package.included.for_language(solution.language)
        };
    }
}

/// Refuses flags the default output validator cannot take (a word it does not know, a tolerance that is no
/// number), naming where they come from: every test would be a judge error.
fn default_validator_flags(config: &Path, problem_flags: &[String], tests: &[Test]) -> Result<()> {
    if let Err(why) = crate::check::default_validator_flags(problem_flags) {
        return Err(Error::Usage(format!(
            "{}: validator_flags \"{}\": {why}",
            config.display(),
            problem_flags.join(" ")
        )));
    }
    for test in tests {
        if let Err(why) = crate::check::default_validator_flags(&test.flags().output) {
            let input = test.input();
            let group = input.parent().unwrap_or(&input);
            return Err(Error::Usage(format!(
                "{}: the default output validator cannot take this group's flags \"{}\" (problem.yaml's \
                 validator_flags, then the group files'): {why}",
                group.display(),
                test.flags().output.join(" ")
            )));
        }
    }
    Ok(())
}

/// The tests of `data/sample` and `data/secret`, in that order, each with its group's flags.
fn package_tests(
    dir: &Path,
    problem_flags: Vec<String>,
    version: Version,
    constants: &Constants,
) -> Result<Vec<Test>> {
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
        let found = match find_tests_named_from(&data, &folder) {
            Err(Error::NoTests { .. }) => continue,
            other => other?,
        };
        for mut test in found {
            let flags = group_flags(&data, &test.input(), &problem_flags, version, constants)?;
            test.set_flags(flags);
            tests.push(test);
        }
    }
    if tests.is_empty() {
        return Err(Error::NoTests { dir: data });
    }
    Ok(tests)
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

/// The package's input validators; one in no language of the table (VIVA's `.viva`) cannot run here, and is left
/// out with a warning, as a checktestdata script is where no program runs it. Each is run with `constants`
/// replaced: a program's when it is built, a checktestdata script's in a copy made in `substituted`.
fn find_input_validators(
    dir: &Path,
    constants: &Option<Arc<Constants>>,
    substituted: &mut Option<tempfile::TempDir>,
    warnings: &mut Vec<super::PackageWarning>,
) -> Result<Vec<InputValidator>> {
    let mut found = Vec::new();
    for path in find_programs(
        dir,
        &[
            "input_validators",
            "input_validator",
            "input_format_validators",
        ],
    )? {
        match checktestdata_script(&path) {
            Some(script) => found.push(InputValidator::Checktestdata(with_constants(
                dir,
                script,
                constants,
                substituted,
                found.len(),
            )?)),
            None => match program(&path) {
                Ok(mut source) => {
                    source.preparation.constants = constants.clone();
                    found.push(InputValidator::Program(source));
                }
                Err(Error::UnknownLanguage { .. }) => warnings.push(super::PackageWarning::new(
                    super::WarningKind::ValidatorSkipped,
                    &path,
                    None,
                    "an input validator in no language of the table: the tests are not checked by it \
                     (a project's or the user's languages.toml can add its language)",
                )),
                Err(other) => return Err(other),
            },
        }
    }
    Ok(found)
}

/// The most of a checktestdata script read to replace its constants: far more than any script.
const SCRIPT_LIMIT: usize = 16 << 20;

/// A checktestdata script of the package in `dir` with `constants` replaced: itself when that changes nothing, else
/// a copy of the same name in a folder of `substituted` of its own (the `index`th validator's), made on first use.
/// The judge reads the script itself to copy it, so it must be a file of the package, never a link out of it.
fn with_constants(
    dir: &Path,
    script: PathBuf,
    constants: &Option<Arc<Constants>>,
    substituted: &mut Option<tempfile::TempDir>,
    index: usize,
) -> Result<PathBuf> {
    let Some(constants) = constants else {
        return Ok(script);
    };
    let inside = std::fs::canonicalize(&script)
        .ok()
        .zip(std::fs::canonicalize(dir).ok())
        .is_some_and(|(real, package)| real.starts_with(package));
    if !inside {
        return Err(Error::Usage(format!(
            "{}: a checktestdata script whose constants are replaced must be a file of its package, and this is a \
             link out of the package",
            script.display()
        )));
    }
    let bytes = crate::text::read_head(&script, SCRIPT_LIMIT);
    let std::borrow::Cow::Owned(replaced) = constants.substitute_bytes(&bytes) else {
        return Ok(script);
    };
    let folder = match substituted {
        Some(folder) => folder,
        None => substituted.insert(
            crate::scratch::folder("constants")
                .map_err(|e| Error::io("create a folder in", std::env::temp_dir(), e))?,
        ),
    };
    let copy = folder
        .path()
        .join(index.to_string())
        .join(script.file_name().unwrap_or_default());
    std::fs::create_dir(folder.path().join(index.to_string()))
        .and_then(|()| std::fs::write(&copy, replaced))
        .map_err(|e| Error::io("write", &copy, e))?;
    Ok(copy)
}

/// The checktestdata script a validator is: a `.ctd` file, or a folder holding one and no build or run script
/// (as DOMjudge's contests give them).
fn checktestdata_script(path: &Path) -> Option<PathBuf> {
    let is_script = |p: &Path| p.extension().is_some_and(|e| e == "ctd") && p.is_file();
    if !path.is_dir() {
        return is_script(path).then(|| path.to_owned());
    }
    let files: Vec<PathBuf> = std::fs::read_dir(path)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !hidden(p))
        .collect();
    let scripts = files
        .iter()
        .any(|f| f.ends_with("run") || f.ends_with("build"));
    match files.iter().filter(|f| is_script(f)).collect::<Vec<_>>()[..] {
        [one] if !scripts => Some(one.clone()),
        _ => None,
    }
}

/// A program given as a file, or as a folder of files (build/run scripts, or sources in one language).
///
/// The judge reads these files itself, outside any sandbox, to copy them into a build folder: a link in the folder
/// is followed only to a file of the package (a shared `testlib.h`, say), never out of it (to `/etc/shadow` or
/// `/proc/kmsg`), and the files are copied side by side, so two of the same name are refused.
pub(crate) fn program(path: &Path) -> Result<Source> {
    program_under(path, Rules::Package)
}

/// As [`program`], its language told by `rules`: a package's own, or a problem of ours that keeps a program as a
/// package has it (`protocol = "package"` in problem.toml).
pub(crate) fn program_under(path: &Path, rules: Rules) -> Result<Source> {
    let given = path;
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    if !path.is_dir() {
        // A file is taken by its own name (a link named `b.R` to `a.R` is the submission `b.R`), and only from its
        // package.
        let package = given
            .ancestors()
            .find(|dir| is_package(dir))
            .and_then(|dir| std::fs::canonicalize(dir).ok());
        if let Some(package) = package
            && !path.starts_with(&package)
        {
            return Err(Error::Usage(format!(
                "{}: a program's files must be files of its package, and this is a link out of the package",
                given.display()
            )));
        }
        return Source::file_under(given, rules).ok_or_else(|| unknown_language(given, &[]));
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
            language: Language::build_run(),
            folder: Some(path),
            preparation: Default::default(),
        });
    }
    // The language most of its files are of, as problemtools decides; files of no language (a `README`, a
    // `words.txt` it reads) are there to be found.
    let language =
        Language::of_program(&files, rules).ok_or_else(|| unknown_language(&path, &files))?;
    let sources: Vec<usize> = (0..files.len())
        .filter(|&i| language.claims(&files[i]))
        .collect();
    let folder_name = path.file_name().unwrap_or_default();
    let stem_is = |i: &usize, stem: &OsStr| {
        files[*i]
            .file_stem()
            .is_some_and(|s| s.eq_ignore_ascii_case(stem))
    };
    // The one source, else the one named `main` or after the folder, else the one a class-based language can
    // start, else the first by name (as problemtools takes it).
    let main = if sources.len() == 1 {
        sources[0]
    } else if let Some(i) = sources.iter().find(|i| stem_is(i, OsStr::new("main"))) {
        *i
    } else if let Some(i) = sources.iter().find(|i| stem_is(i, folder_name)) {
        *i
    } else if let Some(i) = sources.iter().find(|&&i| {
        language
            .spec()
            .run
            .iter()
            .any(|w| w.contains("{main_class}"))
            && std::fs::read_to_string(&files[i]).is_ok_and(|t| language.entry_point(&t).is_ok())
    }) {
        *i
    } else {
        sources[0]
    };
    let main = files.remove(main);
    Ok(Source {
        main,
        others: files,
        language,
        folder: Some(path),
        preparation: Default::default(),
    })
}

/// The error for a program in no language of the table: its file, or a folder whose files' names say none.
fn unknown_language(path: &Path, files: &[PathBuf]) -> Error {
    let mut extensions: Vec<String> = std::iter::once(path)
        .chain(files.iter().map(PathBuf::as_path))
        .filter_map(|f| f.extension().map(|e| e.to_string_lossy().into_owned()))
        .collect();
    extensions.dedup();
    Error::UnknownLanguage {
        path: path.to_owned(),
        extension: extensions.join(", "),
        known: Language::all()
            .flat_map(|l| l.spec().files.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
    }
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
    fn a_program_is_a_file_of_its_package_and_keeps_its_own_name() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("p");
        let accepted = package.join("submissions/accepted");
        std::fs::create_dir_all(&accepted).unwrap();
        std::fs::write(package.join("problem.yaml"), "name: P\n").unwrap();
        std::fs::write(accepted.join("a.py"), "print(1)\n").unwrap();
        std::os::unix::fs::symlink("a.py", accepted.join("b.py")).unwrap();
        let linked = program(&accepted.join("b.py")).unwrap();
        assert_eq!(linked.main, accepted.join("b.py"));
        std::fs::write(dir.path().join("secret.py"), "print(2)\n").unwrap();
        std::os::unix::fs::symlink("../../../secret.py", accepted.join("c.py")).unwrap();
        let message = program(&accepted.join("c.py")).unwrap_err().to_string();
        assert!(message.contains("a link out of the package"), "{message}");
    }

    #[test]
    fn a_checktestdata_script_is_copied_with_its_constants_only_from_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("p");
        let validators = package.join("input_validators");
        std::fs::create_dir_all(&validators).unwrap();
        std::fs::write(validators.join("range.ctd"), "INT(1, {{n}}) NEWLINE\n").unwrap();
        std::fs::write(validators.join("plain.ctd"), "INT(1, 5) NEWLINE\n").unwrap();
        let constants = Some(Arc::new(Constants::of(&[("n", "value", "9")])));
        let mut substituted = None;
        let copy = with_constants(
            &package,
            validators.join("range.ctd"),
            &constants,
            &mut substituted,
            0,
        )
        .unwrap();
        assert!(copy.starts_with(substituted.as_ref().unwrap().path()));
        assert!(copy.ends_with("range.ctd"));
        assert_eq!(
            std::fs::read_to_string(&copy).unwrap(),
            "INT(1, 9) NEWLINE\n"
        );
        // Nothing to replace: the script as it is.
        let plain = validators.join("plain.ctd");
        let same = with_constants(&package, plain.clone(), &constants, &mut substituted, 1);
        assert_eq!(same.unwrap(), plain);
        // A link out of the package is never read by the judge.
        std::fs::write(dir.path().join("secret.ctd"), "{{n}}\n").unwrap();
        std::os::unix::fs::symlink("../../secret.ctd", validators.join("out.ctd")).unwrap();
        let message = with_constants(
            &package,
            validators.join("out.ctd"),
            &constants,
            &mut substituted,
            2,
        )
        .unwrap_err()
        .to_string();
        assert!(message.contains("a link out of the package"), "{message}");
    }

    #[test]
    fn a_packages_yaml_is_a_regular_file_never_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("problem.yaml");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo takes a valid C string and a mode.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let message = read_yaml_text(&fifo).unwrap_err().to_string();
        assert!(message.contains("a FIFO"), "{message}");
        let message = Problem::load_package(dir.path()).err().unwrap().to_string();
        assert!(message.contains("a FIFO"), "{message}");
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
