//! What `judge` and `test` share once they know what to judge: choosing the tests, applying the limits given on
//! the command line, setting up the sandbox, running the engine and reporting.

use crate::Outcome;
use crate::cache::Cache;
use crate::calibrate::kept;
use crate::cli::RunArgs;
use crate::error::{Error, Result};
use crate::judge::{Judge, JudgeOptions, JudgeReport, Provenance};
use crate::problem::{Files, Place, Problem, Skipped, Solution, TestSelection};
use crate::report::{self, ColorChoice, Detail, Origin, Progress, Style};
use crate::sandbox::{Isolation, Layers, Sandbox, own_peak_memory};
use crate::toolchain::Toolchain;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One judge to run: the problem, what to judge, where its tests are, and what solutions may not read.
pub(super) struct Session {
    pub problem: Problem,
    pub solutions: Vec<Solution>,
    pub tests_dir: PathBuf,
    /// Folders hidden from solutions besides the tests, the cache and the temporary folder.
    pub private_dirs: Vec<PathBuf>,
    /// Whether the report is a contestant's (`cpjudge test`): each sample and whether the file passed, instead of
    /// the table of solutions and their expected verdicts.
    pub contestant: bool,
    /// Whether the solutions are the problem's own, of which those whose language's tools are missing here are
    /// skipped; a submission the user names is judged or refused, never skipped.
    pub own_solutions: bool,
}

/// Judges and reports; returns whether every solution got its expected verdict, or whether the user stopped it.
pub(super) fn run(
    session: Session,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &RunArgs,
) -> Result<Outcome> {
    let detail = match (args.quiet, args.verbose) {
        (true, _) => Detail::Quiet,
        (_, true) => Detail::Verbose,
        _ => Detail::Normal,
    };
    let outputs = Outputs {
        json: args.json,
        json_lines: args.watch,
        style: Style::for_stdout(color, detail),
        junit: args.junit.as_deref(),
        html: args.html.as_deref(),
        contestant: session
            .contestant
            .then(|| session.problem.comparison.clone()),
    };
    // Mistakes in where reports go are found now, not after a long judge.
    outputs.check()?;
    let judged = judge(session, &cache, layers, args, outputs.per_test())?;
    write_reports(&judged.report, &judged.origin, &outputs)?;
    Ok(judged.outcome)
}

/// A problem judged: the report, where and how it was judged, and what it means for the exit code.
pub(super) struct Judged {
    pub report: JudgeReport,
    /// Where, when, how isolated and by which cpjudge it was judged.
    pub origin: Origin,
    pub outcome: Outcome,
}

/// Judges, showing progress (unless `args` asks for JSON or quiet) but no report. `per_test`: whether the report
/// shows each test (see [`Outputs::per_test`]), or only what its summary is made of.
pub(super) fn judge(
    mut session: Session,
    cache: &Cache,
    layers: &Layers,
    args: &RunArgs,
    per_test: bool,
) -> Result<Judged> {
    let mut found = super::target::judged_in(&session.problem, &session.tests_dir)?;
    // Checkers and interactors get the tests by path, and run in folders of their own.
    let absolute =
        |path: &Path| std::path::absolute(path).map_err(|e| Error::io("resolve", path, e));
    // The tests found in a folder share their place: it is made absolute once, not for each.
    let mut made: Vec<(Files, Files)> = Vec::new();
    for test in found.iter_mut().filter(|t| t.has_files()) {
        test.files = match test.files.place() {
            Place::Named { folder, answer } => {
                match made.iter().find(|(was, _)| was.shares(&test.files)) {
                    Some((_, now)) => now.clone(),
                    None => {
                        let now = Files::named(absolute(folder)?, *answer);
                        made.push((test.files.clone(), now.clone()));
                        now
                    }
                }
            }
            Place::At(paths) => Files::at(absolute(&paths.input)?, absolute(&paths.answer)?),
        };
    }
    session.tests_dir = absolute(&session.tests_dir)?;
    let every_test = found.len();
    let tests = TestSelection::new(&args.test_patterns, args.samples)?.apply(found)?;
    let limits = &mut session.problem.limits;
    if let Some(time) = args.time_limit {
        limits.time = time;
        if let Some(package) = &mut session.problem.package {
            package.time_rule.fixed = Some(time);
            package.time_rule.origin = "given with --time-limit".into();
        }
    }
    // Every share must be judged under the same limit, which a limit found by timing could not promise.
    if args.partition.is_some()
        && let Some(package) = &session.problem.package
        && package.time_rule.fixed.is_none()
    {
        return Err(Error::Usage(format!(
            "--partition: {} fixes no time limit, and one found by timing may differ from machine to machine; \
             give it with --time-limit",
            session.problem.config_path.display()
        )));
    }
    if let Some(memory) = args.memory_limit {
        limits.memory = memory;
    }

    // One toolchain for the whole command: what is learnt of a compiler while setting solutions aside serves the judge.
    let toolchain = Toolchain::default();
    let skipped = set_aside_unavailable(&mut session, &toolchain);
    // What a program run as it is names, its run may read, in the project too (the user named it): never a test.
    for solution in &session.solutions {
        if let Some(prebuilt) = &solution.prebuilt {
            prebuilt.check_outside(&solution.name, std::slice::from_ref(&session.tests_dir))?;
        }
    }
    let mut hidden = session.private_dirs;
    hidden.push(session.tests_dir.clone());
    let (sandbox, isolation) =
        prepare_sandbox(layers, args.strict, hidden, &session.tests_dir, &cache.dir)?;
    // The first run's worker sets itself up while the judge prepares that run.
    if Judge::surely_runs(&session.solutions, &tests) {
        sandbox.start_early()?;
    }
    let options = JudgeOptions {
        all_tests: args.all,
        jobs: usize::from(args.jobs),
        partition: args.partition,
        subset: tests.len() < every_test,
        // The summary of a share counts its runs.
        per_test: per_test || args.partition.is_some(),
    };
    let mut flags = crate::language::Flags::default();
    for (key, words) in &args.lang_flags {
        flags
            .choose(key, words.clone())
            .map_err(|why| Error::Usage(format!("--lang-flags {key}=...: {why}")))?;
    }
    let flags = session.problem.flags.over(&flags);
    let origin = Origin::here(isolation);
    let provenance = Provenance {
        build: origin.cpjudge.clone(),
        fingerprint: origin.fingerprint.clone(),
        layers: origin.isolation.active().to_string(),
        fresh: args.fresh,
    };
    let judge = Judge::with_toolchain(&sandbox, cache.clone(), options, toolchain)
        .with_flags(flags)
        .with_provenance(provenance);
    let mut progress = Progress::new(args.json || args.quiet, !args.json);
    let outcome = judge.judge(&session.problem, &session.solutions, &tests, &mut |event| {
        progress.on_event(&event)
    });
    progress.finish();
    // No more runs: the workers end while the report is made and written (see `crate::run`).
    sandbox.release();
    let mut report = outcome?;
    report.skipped = skipped;
    report.time_limit_overridden = args.time_limit.is_some();
    report.memory_limit_overridden = args.memory_limit.is_some();
    // A test or reference that cannot be read now (one that vanished since) only means no suggestion is found.
    // The suggestion is the setter's: a contestant's submissions are judged under the problem's limit, and their
    // report does not hint at another.
    report.suggested_time_limit = session
        .own_solutions
        .then(|| kept::place(cache, &session.problem, &tests).ok())
        .flatten()
        .and_then(|place| kept::find(&place));

    let outcome = if report.interrupted.is_some() {
        Outcome::Interrupted
    } else {
        // Under --strict, a solution not judged is not as expected.
        Outcome::from(report.all_as_expected() && (report.skipped.is_empty() || !args.strict))
    };
    Ok(Judged {
        report,
        origin,
        outcome,
    })
}

/// Takes out of `solutions` (and the problem's own) those whose language's tools are not installed, and returns
/// them with those a package has in no language at all: a submission in Kotlin on a machine without it does not
/// stop the rest from being judged, as in problemtools and DOMjudge.
///
/// The problem's own solutions go too when the user named submissions: a package's accepted ones, which its time
/// limit may be found from, are then not reported.
fn set_aside_unavailable(session: &mut Session, toolchain: &Toolchain) -> Vec<Skipped> {
    let problem = &mut session.problem;
    problem
        .solutions
        .retain(|solution| toolchain.check(solution.language).is_ok());
    if !session.own_solutions {
        return Vec::new();
    }
    let mut skipped: Vec<Skipped> = problem
        .package
        .as_ref()
        .map(|package| package.unknown_language.clone())
        .unwrap_or_default();
    session
        .solutions
        .retain(|solution| match toolchain.check(solution.language) {
            Ok(()) => true,
            Err(why) => {
                skipped.push(Skipped {
                    name: solution.name.clone(),
                    path: solution.path.clone(),
                    language: Some(solution.language.name().to_owned()),
                    why: why.to_string(),
                });
                false
            }
        });
    skipped
}

/// The reports a command writes: the table (in `style`) or JSON on standard output, and the files asked for.
pub(super) struct Outputs<'a> {
    pub json: bool,
    /// JSON reports one per line, for a reader of a stream of them (`--watch --json`).
    pub json_lines: bool,
    pub style: Style,
    pub junit: Option<&'a Path>,
    pub html: Option<&'a Path>,
    /// For a contestant's report, how outputs were judged (see [`Session::contestant`]).
    pub contestant: Option<crate::problem::Comparison>,
}

impl Outputs<'_> {
    /// Whether a report asked for shows each test: anything but the summary of `-q` alone.
    pub fn per_test(&self) -> bool {
        self.json
            || self.junit.is_some()
            || self.html.is_some()
            || self.contestant.is_some()
            || self.style.detail != Detail::Quiet
    }

    /// Fails before any work if a report file could not be written for want of its folder.
    pub fn check(&self) -> Result<()> {
        if let Some(junit) = self.junit {
            check_folder_of(junit, "--junit")?;
        }
        if let Some(html) = self.html {
            check_folder_of(html, "--html")?;
        }
        Ok(())
    }
}

/// Prints the report and writes the report files asked for.
pub(super) fn write_reports(
    report: &JudgeReport,
    origin: &Origin,
    outputs: &Outputs,
) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = if outputs.json {
        let about = report::AboutJudge {
            origin,
            harness_peak_memory: own_peak_memory(),
        };
        match outputs.json_lines {
            true => report::write_json_line(report, &about, &mut out),
            false => report::write_json(report, &about, &mut out),
        }
    } else if let Some(comparison) = &outputs.contestant {
        report::write_contestant(report, comparison, outputs.style, &mut out)
    } else {
        report::write_table(report, outputs.style, &mut out)
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("write", "standard output", e))?;
    // Each file whole or not at all: a CI job must not pick up half a report.
    if let Some(path) = outputs.junit {
        let mut xml = Vec::new();
        report::write_junit(report, &mut xml).map_err(|e| Error::io("write", path, e))?;
        crate::atomic::write(path, &xml)?;
    }
    if let Some(path) = outputs.html {
        let mut page = Vec::new();
        report::write_html(report, origin, &mut page).map_err(|e| Error::io("write", path, e))?;
        crate::atomic::write(path, &page)?;
    }
    Ok(())
}

/// The sandbox every run of a command goes through: the optional layers that work here (a warning names those
/// that do not), with `hidden` (besides the cache and the temporary folder) kept from solutions, and wherever the
/// links in the tests folder `tests` lead.
pub(super) fn prepare_sandbox(
    layers: &Layers,
    strict: bool,
    mut hidden: Vec<PathBuf>,
    tests: &Path,
    cache: &Path,
) -> Result<(Sandbox, Isolation)> {
    let sandbox = Sandbox::from_current_exe()?;
    let isolation = crate::sandbox::probe_for_sandbox(layers, sandbox.supervisor());
    // A layer the kernel offers must work: judging on without it would weaken isolation because of the machine's
    // state, which nobody asked for.
    if let Some((layer, reason)) = isolation.trial_failures.first() {
        return Err(Error::Sandbox(format!(
            "the {layer} layer passes the kernel's own check, but a trial run with it failed: {reason}\n\
             judging stops rather than go on with less isolation; `cpjudge doctor` shows every layer, and \
             `--layers` chooses fewer on purpose"
        )));
    }
    // The machine's state, said once per machine and user (and again when its cause changes).
    let fresh: Vec<_> = isolation
        .unavailable(layers)
        .into_iter()
        .filter(|&layer| {
            let cause = format!("{layer}: {}", isolation.status(layer).detail);
            crate::said_once::first_time("layer off", &cause)
        })
        .collect();
    report::warn_unavailable(&isolation, layers, &fresh);
    if strict {
        let off = isolation.inactive();
        if !off.is_empty() {
            let off: Vec<&str> = off.iter().map(|l| l.name()).collect();
            return Err(Error::Usage(format!(
                "--strict: refusing to judge with isolation layers off: {} (see `cpjudge doctor`)",
                off.join(", ")
            )));
        }
    }
    // The cache must exist before its real path is known; solutions may read only their own build in it.
    std::fs::create_dir_all(cache).map_err(|e| Error::io("create", cache, e))?;
    hidden.extend([cache.to_owned(), std::env::temp_dir()]);
    hidden.extend(link_targets(tests));
    Ok((sandbox.isolated(isolation.active(), hidden), isolation))
}

/// Where the links in `dir` lead, and the links in those places, to any depth: tests kept elsewhere and linked
/// into the tests folder (a package's `data/secret` as a link, a `--tests` folder of links) are as secret as the
/// rest, so the real files and folders are hidden too.
fn link_targets(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in walkdir::WalkDir::new(&dir)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            if !entry.path_is_symlink() {
                continue;
            }
            let Ok(real) = std::fs::canonicalize(entry.path()) else {
                continue;
            };
            if found.contains(&real) {
                continue;
            }
            if real.is_dir() {
                pending.push(real.clone());
            }
            found.push(real);
        }
    }
    found
}

/// A report file can only be written if its folder exists.
pub(super) fn check_folder_of(file: &Path, option: &str) -> Result<()> {
    let folder = file.parent().filter(|p| !p.as_os_str().is_empty());
    match folder {
        Some(folder) if !folder.is_dir() => Err(Error::Usage(format!(
            "{option} {}: folder {} does not exist",
            file.display(),
            folder.display()
        ))),
        _ => Ok(()),
    }
}
