//! `cpjudge stress`: a submission against the main reference on generated inputs, until one fails; then the
//! failure shrunk and saved.

use super::target::Target;
use crate::Outcome;
use crate::authoring::{self, Placement, Plan, Stress, StressEvent, Workshop};
use crate::cache::Cache;
use crate::cli::StressArgs;
use crate::error::{Error, Result};
use crate::problem::{Catalog, submissions};
use crate::report::{self, ColorChoice, Detail, Steps, Style};
use crate::sandbox::Layers;
use crate::verdict::Verdict;
use std::path::Path;

/// Inputs tried when neither a count, seeds nor a time is given.
const DEFAULT_COUNT: u64 = 1000;

pub fn stress(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &StressArgs,
) -> Result<Outcome> {
    let target = Target::find(project, cwd, &args.problem)?;
    target.warn_package();
    let problem = &target.problem;
    let submission =
        submissions(std::slice::from_ref(&args.submission), &[Verdict::Accepted])?.remove(0);
    problem.generator()?;
    // A group that is not there is said now, not after the search.
    Placement::new(
        &problem.name,
        problem.groups.as_ref(),
        &target.tests_dir,
        &target.new_tests_dir,
        args.group.as_deref(),
    )?;
    let arguments = match (&args.generate, &problem.stress) {
        (Some(given), _) => given.clone(),
        (None, Some(default)) => default.clone(),
        (None, None) => {
            return Err(Error::Usage(format!(
                "say what to generate: --gen 'ARGS with {{seed}}', or `stress = \"...\"` in {}",
                problem.config_path.display()
            )));
        }
    };
    let arguments: Vec<String> = arguments.split_whitespace().map(str::to_owned).collect();
    if !arguments.iter().any(|a| a.contains("{seed}")) {
        return Err(Error::Usage(format!(
            "the generator's arguments {:?} have no {{seed}}: every input would be the same",
            arguments.join(" ")
        )));
    }
    let plan = Plan {
        arguments,
        first_seed: args.seeds.as_ref().map_or(1, |s| *s.start()),
        count: match (&args.seeds, args.count, args.time) {
            (Some(seeds), _, _) => Some(seeds.end() - seeds.start() + 1),
            (None, Some(count), _) => Some(count),
            (None, None, Some(_)) => None,
            (None, None, None) => Some(DEFAULT_COUNT),
        },
        time: args.time,
        jobs: usize::from(args.jobs),
    };
    let save = match &args.save {
        Some(dir) => dir.clone(),
        // One folder per submission, so that stress runs of two submissions at once keep their own failures.
        // Outside a project (a package), beside the builds.
        None => target
            .project_root
            .as_ref()
            .map_or_else(|| cache.dir.clone(), |root| root.join("target"))
            .join("stress")
            .join(&problem.name)
            .join(&submission.name),
    };

    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let workshop = Workshop::new(&sandbox, &cache, problem)?;
    let stress = Stress::new(&workshop, workshop.submission(&submission)?, plan.jobs)?;
    let main = workshop.main_solution()?.name.clone();
    let steps = Steps::new("stress", 0);
    let mut smallest = None;
    let outcome = stress.run(&plan, &mut |event| match event {
        StressEvent::Searched { tests, elapsed } => {
            steps.set(tests as usize, 0);
            let rate = tests as f64 / elapsed.as_secs_f64().max(1e-3);
            steps.message(format!("tests, {rate:.0}/s"));
        }
        StressEvent::Smallest { bytes } => {
            if smallest.is_none() {
                steps.note(&format!(
                    "found a failure ({bytes} bytes of input); shrinking it (Ctrl-C keeps the smallest so far)"
                ));
            }
            smallest = Some(bytes);
        }
        StressEvent::Shrinking { tried } => {
            steps.set(tried as usize, 0);
            steps.message(format!(
                "shrinking; smallest failure {} bytes",
                smallest.unwrap_or_default()
            ));
        }
    });
    steps.finish();
    let outcome = outcome?;
    let saved = match &outcome.smallest {
        Some(failure) => Some(failure.save(&save)?),
        None => None,
    };
    // A failure that is already a test needs no adding: the judge would show it failing there.
    let existing = match &outcome.smallest {
        Some(failure) => authoring::identical(&target.new_tests_dir, &failure.input)?,
        None => None,
    };
    let about = report::StressAbout {
        problem: &problem.name,
        submission: &submission.name,
        submission_path: &args.submission.display().to_string(),
        main: &main,
        arguments: &plan.arguments,
        existing: existing.as_deref(),
        group: args.group.as_deref(),
        groups: problem
            .groups
            .as_ref()
            .map(|g| g.names())
            .unwrap_or_default(),
    };
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        report::write_stress_json(&outcome, &about, saved.as_ref(), &mut out)
    } else {
        let style = Style::for_stdout(color, Detail::Normal);
        report::write_stress(&outcome, &about, saved.as_ref(), style, &mut out)
    };
    written.map_err(|e| Error::io("write", "standard output", e))?;
    Ok(if outcome.interrupted {
        Outcome::Interrupted
    } else {
        Outcome::from(outcome.first.is_none())
    })
}
