//! Writing one of our problems as a Problem Package Format package, so that it travels to problemtools, DOMjudge
//! and Kattis: in the legacy format, which they all read, or in 2025-09, the format's latest version.
//!
//! - `problem.yaml`: the title, a UUID made from the name, the memory and output limits, the time multipliers of
//!   our own rule (the slowest reference x 2, TLE solutions judged at the limit x 1.5), how outputs are
//!   validated; the time limit in `.timelimit` (legacy) or `limits.time_limit` (2025-09).
//! - `data/sample` (the tests shown in the statement) and `data/secret` (the others, in their folders).
//! - The checker, the interactor and the validator speak our protocol (exit code 0 accepts), not the format's
//!   (42): each goes as a folder with a `build` script that compiles it and a `run` script that calls it as we
//!   do and turns its exit code and message into the format's. A comparison mode becomes the default
//!   validator's flags (legacy's `validator_flags`, 2025-09's `output_validator_args` in `data/test_group.yaml`).
//! - The solutions go under `submissions/`, in the folder of their expected verdict; the generator under
//!   `generators/`; the statement rendered to LaTeX (legacy, whose tools read LaTeX alone) or as Markdown
//!   (2025-09), see [`statement`].

mod config;
mod files;
mod scoring;
mod statement;

use files::{copy, copy_into, write, write_executable};

use crate::compile::Source;
use crate::error::{Error, Result};
use crate::language::Flags;
use crate::problem::{Comparison, Problem, Protocol, Test};
use crate::verdict::Verdict;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The version of the format a package is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// The legacy format, which problemtools' verifyproblem, DOMjudge and Kattis read.
    #[default]
    Legacy,
    /// 2025-09, the format's latest version.
    #[value(name = "2025-09")]
    V2025_09,
}

impl Format {
    pub fn label(self) -> &'static str {
        match self {
            Format::Legacy => "legacy",
            Format::V2025_09 => "2025-09",
        }
    }
}

/// A package's folder name as Kattis and problemtools want it, `[a-z0-9]+`: the problem's name in lower case
/// without its other characters (`knight-pawns` becomes `knightpawns`); none when nothing is left.
pub fn short_name(name: &str) -> Option<String> {
    let short: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (!short.is_empty()).then_some(short)
}

/// What was written, for the report.
#[derive(Debug)]
pub struct Exported {
    pub dir: PathBuf,
    pub format: Format,
    /// The name the folder should have, when its own is not one Kattis and problemtools take.
    pub rename_to: Option<String>,
    pub tests: usize,
    pub submissions: usize,
    /// The programs wrapped to speak the format's protocol: (role, folder under the package).
    pub wrapped: Vec<(&'static str, String)>,
}

/// Writes `problem`, with `tests`, as a package in `format` in `dir`, which must not exist or be empty. The
/// package is made beside it and moved into place once whole.
pub fn export(problem: &Problem, tests: &[Test], dir: &Path, format: Format) -> Result<Exported> {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| Error::io("read", dir, e))?
            .next()
            .is_some()
    {
        return Err(Error::Usage(format!(
            "{} is not empty: give a new folder to export into",
            dir.display()
        )));
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
    let building = tempfile::Builder::new()
        .prefix(".cpjudge-export-")
        .tempdir_in(parent)
        .map_err(|e| Error::io("create a folder in", parent, e))?;
    let root = building.path();
    let folder_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut exported = Exported {
        dir: dir.to_owned(),
        format,
        rename_to: (short_name(&folder_name).as_deref() != Some(folder_name.as_str()))
            .then(|| short_name(&folder_name).or_else(|| short_name(&problem.name)))
            .flatten(),
        tests: tests.len(),
        submissions: 0,
        wrapped: Vec::new(),
    };

    let config = config::config(problem, format);
    write(&root.join("problem.yaml"), config.problem_yaml.as_bytes())?;
    if let Some(test_group) = &config.test_group_yaml {
        write(&root.join("data/test_group.yaml"), test_group.as_bytes())?;
    }
    if format == Format::Legacy {
        write(
            &root.join(".timelimit"),
            format!("{}\n", problem.limits.time.as_secs_f64()).as_bytes(),
        )?;
    }

    // A problem with groups: each group's tests in a folder of its own, and its rules in the group files.
    let (places, group_files) = scoring::layout(problem, tests, format)?.unwrap_or_default();
    for (path, text) in &group_files {
        write(&root.join(path), text.as_bytes())?;
    }
    for (index, test) in tests.iter().enumerate() {
        let part = if test.is_sample() { "sample" } else { "secret" };
        let name = match places.get(index).cloned().flatten() {
            Some(place) => place,
            None => Path::new(part).join(test_path(test)),
        };
        copy(
            &test.input(),
            &root.join("data").join(name.with_extension("in")),
        )?;
        copy(
            &test.answer(),
            &root.join("data").join(name.with_extension("ans")),
        )?;
    }

    // Legacy's output_validators/ holds each validator in a folder of its own; 2025-09's output_validator/ is the
    // one validator.
    let (validators, own) = match format {
        Format::Legacy => ("output_validators", true),
        Format::V2025_09 => ("output_validator", false),
    };
    let wrapped_in = |role: &str| {
        if own {
            format!("{validators}/{role}")
        } else {
            validators.to_owned()
        }
    };
    match &problem.comparison {
        Comparison::Checker(path) => {
            let folder = wrapped_in("checker");
            wrap(
                &problem.own_source(Source::file(path)?),
                &root.join(&folder),
                CHECKER_RUN,
                &problem.flags,
            )?;
            exported.wrapped.push(("checker", folder));
        }
        Comparison::OutputValidator(source) => {
            copy_program(
                &problem.own_source(source.clone()),
                &root.join(validators),
                own,
            )?;
        }
        Comparison::Interactive {
            interactor,
            protocol: Protocol::Cpjudge,
        } => {
            let folder = wrapped_in("interactor");
            wrap(
                &problem.own_source(interactor.clone()),
                &root.join(&folder),
                INTERACTOR_RUN,
                &problem.flags,
            )?;
            exported.wrapped.push(("interactor", folder));
        }
        Comparison::Interactive {
            interactor,
            protocol: Protocol::Package,
        } => copy_program(
            &problem.own_source(interactor.clone()),
            &root.join(validators),
            own,
        )?,
        Comparison::Tokens
        | Comparison::Exact
        | Comparison::Float { .. }
        | Comparison::PackageDefault
        | Comparison::Shown => {}
    }
    if let Some(validator) = &problem.validator {
        let folder = "input_validators/validator";
        match problem.protocol {
            Protocol::Cpjudge => {
                wrap(
                    &problem.own_source(Source::file(validator)?),
                    &root.join(folder),
                    VALIDATOR_RUN,
                    &problem.flags,
                )?;
                exported.wrapped.push(("validator", folder.to_owned()));
            }
            // It speaks the format's protocol already: it goes as it is.
            Protocol::Package => {
                for validator in problem.input_validators()?.0 {
                    if let crate::problem::InputValidator::Program(source) = validator {
                        copy_program(
                            &problem.own_source(source),
                            &root.join("input_validators"),
                            true,
                        )?;
                    }
                }
            }
        }
    }
    if let Some(package) = &problem.package {
        for validator in &package.input_validators {
            match validator {
                crate::problem::InputValidator::Program(source) => copy_program(
                    &problem.own_source(source.clone()),
                    &root.join("input_validators"),
                    true,
                )?,
                crate::problem::InputValidator::Checktestdata(script) => {
                    copy_into(script, &root.join("input_validators"))?
                }
            }
        }
    }

    for solution in &problem.solutions {
        let folder = submission_folder(&solution.expected).ok_or_else(|| {
            Error::Usage(format!(
                "solution {} is expected {}: the package format has no folder for that",
                solution.name,
                solution
                    .expected
                    .iter()
                    .map(|v| v.code())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ))
        })?;
        copy_program(
            &solution.source(),
            &root.join("submissions").join(folder),
            true,
        )?;
        exported.submissions += 1;
    }
    if let Some(generator) = &problem.generator {
        // generators/ is free-form: the generator goes in as it is, with the headers it includes beside it.
        copy_program(
            &problem.own_source(Source::file(generator)?),
            &root.join("generators"),
            false,
        )?;
    }
    statement::write(problem, root, format)?;

    // A temporary folder is private; the package is as readable as any folder made.
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Error::io("set the mode of", root, e))?;
    std::fs::rename(root, dir).map_err(|e| Error::io("move the package to", dir, e))?;
    // Moved: nothing is left to remove.
    let _ = building.keep();
    Ok(exported)
}

/// A test's path below its tests folder, without extension, as the file system names it: the end of its input's
/// path with as many parts as its name has. Its name would do only where every part is UTF-8, since a name shows
/// the other bytes escaped.
fn test_path(test: &Test) -> PathBuf {
    let depth = test.name.split('/').count();
    let input = test.input();
    let parts: Vec<_> = input.components().collect();
    parts[parts.len().saturating_sub(depth)..]
        .iter()
        .collect::<PathBuf>()
        .with_extension("")
}

/// The folder of `submissions/` for solutions expected to get `expected`.
fn submission_folder(expected: &[Verdict]) -> Option<&'static str> {
    Some(match expected {
        [Verdict::Accepted] => "accepted",
        [Verdict::WrongAnswer] => "wrong_answer",
        [Verdict::TimeLimit] => "time_limit_exceeded",
        // A package's run-time errors include a memory overrun, as Kattis judges it.
        [Verdict::RuntimeError] | [Verdict::RuntimeError, Verdict::MemoryLimit] => "run_time_error",
        _ => return None,
    })
}

/// The `run` script of a wrapped checker: our protocol (`checker input output answer`, exit 0 accepts, 1 and 2
/// reject, stderr the message) called from the format's (`run input answer feedback_dir [flags] < output`).
const CHECKER_RUN: &str = r#"feedback="$3"
cat > "$feedback/team_output"
PROGRAM "$1" "$feedback/team_output" "$2" 2> "$feedback/judgemessage.txt"
code=$?
case $code in
  0) exit 42 ;;
  1|2) exit 43 ;;
  *) echo "the checker ended with exit code $code" >> "$feedback/judgemessage.txt"; exit 1 ;;
esac
"#;

/// The `run` script of a wrapped interactor: our protocol (`interactor input answer`, the dialogue on its
/// standard streams, exit 0 accepts, 1 rejects, stderr the message) called from the format's.
const INTERACTOR_RUN: &str = r#"feedback="$3"
PROGRAM "$1" "$2" 2> "$feedback/judgemessage.txt"
code=$?
case $code in
  0) exit 42 ;;
  1) exit 43 ;;
  *) echo "the interactor ended with exit code $code" >> "$feedback/judgemessage.txt"; exit 1 ;;
esac
"#;

/// The `run` script of a wrapped input validator: ours accepts with exit code 0, the format's with 42.
const VALIDATOR_RUN: &str = r#"if PROGRAM; then exit 42; else exit 43; fi
"#;

/// Writes `source` into `folder` with a `build` script that compiles it as we do and a `run` script, made from
/// `run`, in which PROGRAM stands for the command that starts it; `{flags}` is the problem's flags for its language
/// (or the table's).
fn wrap(source: &Source, folder: &Path, run: &str, flags: &Flags) -> Result<()> {
    if source.language.is_build_run() {
        return Err(Error::Usage(format!(
            "{}: a program of build/run scripts speaking cpjudge's protocol cannot be wrapped",
            source.shown().display()
        )));
    }
    let (main, others) = crate::compile::gather(source)?;
    for (path, bytes) in std::iter::once(&main).chain(&others) {
        write(&folder.join(path.file_name().unwrap_or_default()), bytes)?;
    }
    let language = source.language;
    let spec = language.spec();
    let name = source
        .main
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = Path::new(&name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files: Vec<String> = std::iter::once(&source.main)
        .chain(source.others.iter().filter(|o| language.claims(o)))
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let mut capital = stem.chars();
    let capital: String = capital
        .next()
        .map(|c| c.to_uppercase().chain(capital).collect())
        .unwrap_or_default();
    let fill = |arg: &str| {
        arg.replace("{main}", &name)
            .replace("{stem}", &stem)
            .replace("{Stem}", &capital)
            .replace("{dir}", "$dir")
            .replace("{memory_mib}", "1024")
            .replace("{main_class}", &stem)
            .replace("{std}", spec.standards.first().map_or("", String::as_str))
    };
    let words = |words: &[String]| {
        words
            .iter()
            .flat_map(|word| match word.as_str() {
                "{files}" => files.iter().map(|f| shell_word(f)).collect(),
                "{flags}" => flags
                    .of(language)
                    .iter()
                    .map(|flag| shell_word(&fill(flag)))
                    .collect(),
                _ => vec![shell_word(&fill(word))],
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let build = format!(
        "#!/bin/bash\n# Compiles {name} as cpjudge does.\nset -e\ncd \"$(dirname \"$0\")\"\n{}\n",
        spec.compile.as_deref().map_or("true".to_owned(), words)
    );
    let program = words(&spec.run);
    let run = format!(
        "#!/bin/bash\n# Runs {name}, which speaks cpjudge's protocol, in the package format's.\n\
         dir=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n{}",
        run.replace("PROGRAM", &program)
    );
    write_executable(&folder.join("build"), build.as_bytes())?;
    write_executable(&folder.join("run"), run.as_bytes())
}

/// A word for the shell: quoted unless plain, with `$dir` left to expand.
fn shell_word(word: &str) -> String {
    if word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./={}+,:".contains(c))
    {
        word.to_owned()
    } else {
        format!("\"{}\"", word.replace('"', "\\\""))
    }
}

/// A program as it is built (see [`crate::compile::gather`]): its file into `folder`, or its files into a folder of
/// its own there (`own`, named as its folder is, or as its file where the headers it includes go with it), or into
/// `folder` itself. A header found in the problem's folder goes beside the program's main file, where its quoted
/// include finds it.
fn copy_program(source: &Source, folder: &Path, own: bool) -> Result<()> {
    let (main, others) = crate::compile::gather(source)?;
    if source.folder.is_none() && others.is_empty() {
        return write(
            &folder.join(main.0.file_name().unwrap_or_default()),
            &main.1,
        );
    }
    let into = match (&source.folder, own) {
        (_, false) => folder.to_owned(),
        (Some(theirs), true) => folder.join(theirs.file_name().unwrap_or_default()),
        (None, true) => folder.join(source.main.file_stem().unwrap_or_default()),
    };
    let beside = source.main.parent().unwrap_or(Path::new(""));
    let root = source.folder.as_deref().unwrap_or(beside);
    for (file, bytes) in std::iter::once(&main).chain(&others) {
        let below = match file.strip_prefix(root) {
            Ok(below) => below,
            Err(_) => Path::new(file.file_name().unwrap_or_default()),
        };
        write(&into.join(below), bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn a_test_keeps_the_bytes_of_its_path() {
        let input = Path::new(std::ffi::OsStr::from_bytes(
            b"/p/data/secret/g\xfe/t\xff.in",
        ));
        let test = Test {
            name: "secret/g\\xfe/t\\xff".into(),
            files: crate::problem::Files::at(input, input.with_extension("ans")),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        };
        assert_eq!(
            test_path(&test).as_os_str().as_bytes(),
            b"secret/g\xfe/t\xff"
        );
        let plain = Test {
            name: "1.5".into(),
            files: crate::problem::Files::at(
                Path::new("/p/testdata/sum/1.5.in"),
                PathBuf::from("/p/testdata/sum/1.5.ans"),
            ),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        };
        assert_eq!(test_path(&plain), Path::new("1.5"));
    }
}
