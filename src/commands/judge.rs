//! `cpjudge judge`: judge a problem's solutions, or submissions, and report.

use crate::cli::JudgeArgs;
use crate::error::{Error, Result};
use crate::judge::{Judge, JudgeOptions};
use crate::language::Language;
use crate::problem::{Catalog, Solution, find_tests};
use crate::report::{self, Progress, Style};
use crate::sandbox::{Isolation, Layers, Sandbox, own_peak_memory};
use crate::verdict::Verdict;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Judges and reports; returns whether every solution got its expected verdict.
pub fn judge(catalog: &Catalog, cache: PathBuf, layers: &Layers, args: &JudgeArgs) -> Result<bool> {
    let problem = catalog.load(&args.problem)?;
    let solutions = if args.submissions.is_empty() {
        problem.solutions.clone()
    } else {
        args.submissions
            .iter()
            .map(|p| submission(p))
            .collect::<Result<_>>()?
    };
    let tests_dir = args
        .tests
        .clone()
        .unwrap_or_else(|| catalog.testdata_dir(&problem.name));
    let tests = find_tests(&tests_dir)?;

    let sandbox = Sandbox::from_current_exe()?;
    let isolation = Isolation::probe(layers, sandbox.supervisor());
    report::warn_unavailable(&isolation, layers);
    if args.strict {
        let off = isolation.inactive();
        if !off.is_empty() {
            let off: Vec<&str> = off.iter().map(|l| l.name()).collect();
            return Err(Error::Sandbox(format!(
                "--strict: refusing to judge with isolation layers off: {} (see `cpjudge doctor`)",
                off.join(", ")
            )));
        }
    }
    // The cache must exist before its real path is known; solutions may read only their own build in it.
    std::fs::create_dir_all(&cache).map_err(|e| Error::io("create", &cache, e))?;
    let mut hidden = catalog.private_dirs();
    hidden.extend([tests_dir, cache.clone(), std::env::temp_dir()]);
    let sandbox = sandbox.isolated(isolation.active(), hidden);
    let options = JudgeOptions {
        all_tests: args.all,
        jobs: usize::from(args.jobs),
    };
    let judge = Judge::new(&sandbox, cache, options);
    let mut progress = Progress::new(args.json);
    let outcome = judge.judge(&problem, &solutions, &tests, &mut |event| {
        progress.on_event(&event)
    });
    progress.finish();
    let report = outcome?;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = if args.json {
        let about = report::AboutJudge {
            isolation: &isolation,
            harness_peak_memory: own_peak_memory(),
        };
        report::write_json(&report, &about, &mut out)
    } else {
        report::write_table(&report, terminal_style(), &mut out)
    };
    written.map_err(|e| Error::io("write", "standard output", e))?;
    out.flush()
        .map_err(|e| Error::io("write", "standard output", e))?;
    if let Some(path) = &args.junit {
        let mut file = std::fs::File::create(path).map_err(|e| Error::io("create", path, e))?;
        report::write_junit(&report, &mut file).map_err(|e| Error::io("write", path, e))?;
    }
    Ok(report.all_as_expected())
}

/// A file given with `--submission`: it must exist and be in a known language, and is expected AC.
fn submission(path: &Path) -> Result<Solution> {
    if !path.is_file() {
        return Err(Error::Usage(format!(
            "submission {} does not exist",
            path.display()
        )));
    }
    let language = Language::of(path)?;
    Ok(Solution {
        name: path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: path.to_owned(),
        language,
        expected: vec![Verdict::Accepted],
        main: false,
    })
}

/// Colour on a terminal unless NO_COLOR is set; the terminal's width, or 100 columns elsewhere.
pub(crate) fn terminal_style() -> Style {
    let terminal = std::io::stdout().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Style {
        color: terminal && !no_color,
        width: if terminal {
            console::Term::stdout().size().1 as usize
        } else {
            100
        },
    }
}
