//! `cpjudge add`: new tests from an input of the user's or from the generator.

use super::target::Target;
use crate::Outcome;
use crate::authoring::{self, Candidate, Name, Placement, Source, Workshop};
use crate::cache::Cache;
use crate::cli::AddArgs;
use crate::error::{Error, Result};
use crate::problem::Catalog;
use crate::report::{self, ColorChoice, Detail, Steps, Style};
use crate::sandbox::Layers;
use std::io::Read;
use std::path::Path;

pub fn add(
    project: Result<Catalog>,
    cwd: &Path,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &AddArgs,
) -> Result<Outcome> {
    if let Some(name) = &args.name {
        authoring::check_name(name)?;
    }
    let target = Target::find(project, cwd, &args.problem)?;
    target.warn_package();
    let (sandbox, _) = target.sandbox(layers, false, &cache.dir)?;
    let workshop = Workshop::new(&sandbox, &cache, &target.problem)?;
    let candidates = match &args.input {
        Some(path) => vec![Candidate {
            origin: if path == Path::new("-") {
                "the input from stdin".to_owned()
            } else {
                path.display().to_string()
            },
            name: name_or(args, Name::Numbered("hand".to_owned())),
            source: Source::HandMade,
            input: read_input(path)?,
        }],
        None => generated(&workshop, args)?,
    };
    if args.name.is_some() && candidates.len() > 1 {
        return Err(Error::Usage(format!(
            "--name names one test, and these arguments make {}",
            candidates.len()
        )));
    }
    let placement = Placement::new(
        &target.problem.name,
        target.problem.groups.as_ref(),
        &target.tests_dir,
        &target.new_tests_dir,
        args.group.as_deref(),
    )?;
    let steps = Steps::new("checking", candidates.len());
    let outcome = authoring::add(
        &workshop,
        &target.new_tests_dir,
        &placement,
        candidates,
        &mut |done, total| steps.set(done, total),
    )?;
    steps.finish();
    let style = Style::for_stdout(color, Detail::Normal);
    let mut out = std::io::stdout().lock();
    let written = match &outcome {
        Ok(added) => report::write_added(added, style, &mut out),
        Err(refusal) => report::write_refusal(refusal, style, &mut out),
    };
    written.map_err(|e| Error::io("write", "standard output", e))?;
    Ok(Outcome::from(outcome.is_ok()))
}

fn name_or(args: &AddArgs, default: Name) -> Name {
    match &args.name {
        Some(name) => Name::Given(name.clone()),
        None => default,
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut input = Vec::new();
        std::io::stdin()
            .read_to_end(&mut input)
            .map_err(|e| Error::io("read", "standard input", e))?;
        return Ok(input);
    }
    // A test the judge would refuse is not added, nor read to find out.
    crate::problem::check_test_file(path)?;
    std::fs::read(path).map_err(|e| Error::io("read", path, e))
}

/// The generator's inputs, one per --gen and seed.
fn generated(workshop: &Workshop, args: &AddArgs) -> Result<Vec<Candidate>> {
    if let Some(seeds) = &args.seeds
        && !args.generate.iter().any(|line| line.contains("{seed}"))
    {
        return Err(Error::Usage(format!(
            "--seeds {}..{} fills `{{seed}}` in the --gen arguments, and no --gen has one: put {{seed}} where \
             the seed goes (--gen '{} {{seed}}'), or leave out --seeds to add each --gen once",
            seeds.start(),
            seeds.end(),
            args.generate.first().map(|l| l.trim()).unwrap_or("ARGS")
        )));
    }
    let generator = workshop.generator()?;
    let mut candidates = Vec::new();
    for line in &args.generate {
        for generator_args in expand(line, args.seeds.clone())? {
            let input = workshop
                .generate(&generator, &generator_args)?
                .map_err(|why| {
                    Error::Usage(format!("generator {}: {why}", generator_args.join(" ")))
                })?;
            candidates.push(Candidate {
                origin: format!("generator {}", generator_args.join(" ")),
                name: name_or(
                    args,
                    Name::Default(authoring::name_from_args(&generator_args)),
                ),
                source: Source::Generated(generator_args),
                input,
            });
        }
    }
    Ok(candidates)
}

/// The argument lists of one --gen: `{seed}` replaced by each seed, or the arguments as they are (once, also
/// beside --seeds: a fixed --gen may be mixed with seeded ones).
fn expand(line: &str, seeds: Option<std::ops::RangeInclusive<u64>>) -> Result<Vec<Vec<String>>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return Err(Error::Usage(
            "--gen needs the generator's arguments".to_owned(),
        ));
    }
    let seeded = line.contains("{seed}");
    match (seeded, seeds) {
        (true, Some(seeds)) => Ok(seeds
            .map(|seed| {
                words
                    .iter()
                    .map(|w| w.replace("{seed}", &seed.to_string()))
                    .collect()
            })
            .collect()),
        (false, _) => Ok(vec![words.iter().map(|w| w.to_string()).collect()]),
        (true, None) => Err(Error::Usage(format!(
            "--gen {line:?} has {{seed}}: give the seeds with --seeds A..B"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_fill_the_placeholder() {
        assert_eq!(
            expand("random 3 {seed}", Some(1..=2)).unwrap(),
            [["random", "3", "1"], ["random", "3", "2"]]
        );
        assert_eq!(expand(" ring  4 ", None).unwrap(), [["ring", "4"]]);
        assert!(expand("random {seed}", None).is_err());
        // A fixed --gen beside seeded ones is added once.
        assert_eq!(expand("ring 4", Some(1..=2)).unwrap(), [["ring", "4"]]);
        assert!(expand("  ", None).is_err());
    }
}
