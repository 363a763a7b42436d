//! Stress testing: random inputs from the generator, a submission against the main reference on each, until the
//! first failure; then the failure shrunk, first by making the generator's size arguments smaller, then by taking
//! items out of the input, as long as the validator accepts it and the submission still fails.

use super::workshop::{Answer, Workshop, scratch};
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::judge::{InputCheck, TestResult, Validator};
use crate::problem::Test;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a failure is shrunk at most: the smallest found by then is kept.
pub const SHRINK_TIME: Duration = Duration::from_secs(60);
/// Seeds tried for each smaller value of a size argument.
const SEEDS_PER_SIZE: u64 = 12;
/// Bytes of a program's output kept with a failure.
const OUTPUT_KEPT: usize = 1 << 20;
/// Ends each candidate of the generator's shrink mode.
const SHRINK_SEPARATOR: &[u8] = b"---";

/// What to run: the generator's arguments (with `{seed}`), the seeds, and when to stop.
pub struct Plan {
    pub arguments: Vec<String>,
    pub first_seed: u64,
    /// Stop after this many inputs.
    pub count: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    pub jobs: usize,
}

/// Progress, for a bar.
#[derive(Debug, Clone, Copy)]
pub enum Event {
    /// Inputs tried so far while searching.
    Searched { tests: u64, elapsed: Duration },
    /// The smallest failure so far has this many bytes of input.
    Smallest { bytes: usize },
    /// Inputs tried so far while shrinking.
    Shrinking { tried: u64 },
}

/// An input the submission fails on, with both outputs.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The generator's arguments that make this input, unless items were taken out of it.
    pub arguments: Option<Vec<String>>,
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    pub output: Vec<u8>,
    pub result: TestResult,
}

/// Where a failure was saved.
#[derive(Debug, Clone)]
pub struct Saved {
    pub input: PathBuf,
    /// The main reference's output.
    pub answer: PathBuf,
    /// The submission's output.
    pub output: PathBuf,
}

impl Failure {
    /// Writes the input, the answer and the output to `dir` as `smallest.in`, `.ans` and `.out`, each in one step.
    pub fn save(&self, dir: &Path) -> Result<Saved> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        let saved = Saved {
            input: dir.join("smallest.in"),
            answer: dir.join("smallest.ans"),
            output: dir.join("smallest.out"),
        };
        crate::atomic::write(&saved.answer, &self.answer)?;
        crate::atomic::write(&saved.output, &self.output)?;
        crate::atomic::write(&saved.input, &self.input)?;
        Ok(saved)
    }
}

#[derive(Debug)]
pub struct StressReport {
    /// Inputs tried before the first failure, or in all when there is none.
    pub tests: u64,
    pub elapsed: Duration,
    pub first: Option<Failure>,
    /// The first failure, shrunk (the same when it does not shrink).
    pub smallest: Option<Failure>,
    /// Inputs tried while shrinking.
    pub shrink_tried: u64,
    /// Whether shrinking stopped at its time limit, [`SHRINK_TIME`].
    pub shrink_cut: bool,
    pub interrupted: bool,
}

/// Which part of the work a batch of trials belongs to.
#[derive(Clone, Copy)]
enum Phase {
    /// Looking for a failure, until the deadline if there is one: an input the generator cannot make, the
    /// validator rejects or the main reference cannot answer is an error of the problem's.
    Search { deadline: Option<Instant> },
    /// Looking for a smaller failure, until the deadline: such an input only rules a candidate out.
    Shrink { deadline: Instant },
}

/// What one input gave.
enum Trial {
    Passed,
    Failed(Box<Failure>),
    /// The generator refused the arguments.
    NoInput(String),
    /// The validator rejected the input.
    Invalid(String),
    /// The main reference did not answer.
    NoAnswer(String),
}

pub struct Stress<'a> {
    workshop: &'a Workshop<'a>,
    generator: Program,
    validators: Vec<Validator>,
    main: Program,
    submission: Program,
    jobs: usize,
}

impl<'a> Stress<'a> {
    pub fn new(workshop: &'a Workshop<'a>, submission: Program, jobs: usize) -> Result<Self> {
        Ok(Stress {
            generator: workshop.generator()?,
            validators: workshop.validators()?,
            main: workshop.solution(workshop.main_solution()?)?,
            submission,
            jobs: jobs.max(1),
            workshop,
        })
    }

    /// Searches for a failure as the plan says, then shrinks it. Ctrl-C stops either phase, keeping the smallest
    /// failure found.
    pub fn run(&self, plan: &Plan, on_event: &mut dyn FnMut(Event)) -> Result<StressReport> {
        let started = Instant::now();
        let deadline = plan.time.map(|t| started + t);
        let mut report = StressReport {
            tests: 0,
            elapsed: Duration::ZERO,
            first: None,
            smallest: None,
            shrink_tried: 0,
            shrink_cut: false,
            interrupted: false,
        };
        let mut next_seed = plan.first_seed;
        // Small batches, so that a limit of time or count is kept to within a batch.
        let batch = (self.jobs as u64 * 4).max(8);
        while report.first.is_none() {
            let left = plan.count.map_or(batch, |count| count - report.tests);
            if left == 0 || deadline.is_some_and(|d| Instant::now() >= d) || stopped() {
                break;
            }
            let seeds: Vec<u64> = (next_seed..next_seed + left.min(batch)).collect();
            next_seed += seeds.len() as u64;
            let mut tests = report.tests;
            let found = self.first_failure(
                &seeds,
                |&seed| self.try_arguments(&with_seed(&plan.arguments, seed)),
                Phase::Search { deadline },
                &mut |_| {
                    tests += 1;
                    on_event(Event::Searched {
                        tests,
                        elapsed: started.elapsed(),
                    })
                },
            )?;
            match found {
                Some((index, failure)) => {
                    report.tests += index as u64 + 1;
                    on_event(Event::Smallest {
                        bytes: failure.input.len(),
                    });
                    report.first = Some(*failure);
                }
                None => report.tests = tests,
            }
        }
        report.elapsed = started.elapsed();
        if let Some(first) = &report.first {
            let mut smallest = first.clone();
            report.shrink_cut =
                self.shrink(plan, &mut smallest, &mut report.shrink_tried, on_event)?;
            report.smallest = Some(smallest);
        }
        report.interrupted = stopped();
        Ok(report)
    }

    /// Makes `failure` smaller while it still fails: smaller size arguments (with other seeds), then items taken
    /// out of the input. Returns whether it stopped at its time limit.
    fn shrink(
        &self,
        plan: &Plan,
        failure: &mut Failure,
        tried: &mut u64,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<bool> {
        let mut count = |on_event: &mut dyn FnMut(Event)| {
            *tried += 1;
            on_event(Event::Shrinking { tried: *tried });
        };
        let deadline = Instant::now() + SHRINK_TIME;
        let phase = Phase::Shrink { deadline };
        let over = || stopped() || Instant::now() >= deadline;
        // The arguments as they stand, `{seed}` kept. Each size argument is bisected: the smallest value at which
        // some seed still fails, taking failing at one value to mean failing at every larger one.
        let mut sizes = plan.arguments.clone();
        let numbers: Vec<usize> = (0..sizes.len())
            .filter(|&i| !sizes[i].contains("{seed}") && sizes[i].parse::<u64>().is_ok())
            .collect();
        let mut smaller = true;
        while smaller && !over() {
            smaller = false;
            for &position in &numbers {
                let (mut low, mut high) = (0, sizes[position].parse::<u64>().expect("a number"));
                while low < high && !over() {
                    let middle = low + (high - low) / 2;
                    let mut arguments = sizes.clone();
                    arguments[position] = middle.to_string();
                    let seeds: Vec<u64> = (1..=SEEDS_PER_SIZE).collect();
                    let found = self.first_failure(
                        &seeds,
                        |&seed| self.try_arguments(&with_seed(&arguments, seed)),
                        phase,
                        &mut |_| count(on_event),
                    )?;
                    match found {
                        Some((_, found)) if found.input.len() <= failure.input.len() => {
                            *failure = *found;
                            sizes = arguments;
                            high = middle;
                            smaller = true;
                            on_event(Event::Smallest {
                                bytes: failure.input.len(),
                            });
                        }
                        _ => low = middle + 1,
                    }
                }
            }
        }
        // Then items out of the input, one at a time, for as long as one can go.
        while !over() {
            let candidates = self.smaller_inputs(&failure.input)?;
            let found = self.first_failure(
                &candidates,
                |input| self.try_input(input.clone(), None),
                phase,
                &mut |_| count(on_event),
            )?;
            match found {
                Some((_, found)) => {
                    *failure = *found;
                    on_event(Event::Smallest {
                        bytes: failure.input.len(),
                    });
                }
                None => break,
            }
        }
        Ok(!stopped() && Instant::now() >= deadline)
    }

    /// The inputs one step smaller than `input`: what the generator's shrink mode prints (`generator shrink`,
    /// reading the input), or, where the generator has no such mode, the input with one line taken out.
    fn smaller_inputs(&self, input: &[u8]) -> Result<Vec<Vec<u8>>> {
        let dir = scratch("shrink")?;
        let path = dir.path().join("input");
        std::fs::write(&path, input).map_err(|e| Error::io("write", &path, e))?;
        if let Ok(printed) =
            self.workshop
                .generate_from(&self.generator, &["shrink".to_owned()], &path)?
        {
            return Ok(split_candidates(&printed));
        }
        let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
        Ok((0..lines.len())
            .map(|skip| {
                lines
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != skip)
                    .flat_map(|(_, line)| line.iter().copied())
                    .collect()
            })
            .collect())
    }

    fn try_arguments(&self, arguments: &[String]) -> Result<Trial> {
        match self.workshop.generate(&self.generator, arguments)? {
            Ok(input) => self.try_input(input, Some(arguments.to_vec())),
            Err(why) => Ok(Trial::NoInput(format!("{}: {why}", arguments.join(" ")))),
        }
    }

    fn try_input(&self, input: Vec<u8>, arguments: Option<Vec<String>>) -> Result<Trial> {
        let dir = scratch("stress")?;
        let input_path = dir.path().join("input");
        let answer_path = dir.path().join("answer");
        std::fs::write(&input_path, &input).map_err(|e| Error::io("write", &input_path, e))?;
        // Which input it is, for a message about it.
        let which = || match &arguments {
            Some(arguments) => format!("the input from generator {}", arguments.join(" ")),
            None => "a shrunk input".to_owned(),
        };
        // Every input is validated: a submission is only wrong on inputs the problem allows.
        let flags = self.workshop.problem.new_test_flags();
        if let InputCheck::Invalid { message } =
            self.workshop
                .validate(&self.validators, &input_path, &flags.input)?
        {
            return Ok(Trial::Invalid(format!("{}: {message}", which())));
        }
        let answer = match self.workshop.answer(&self.main, &input_path)? {
            Answer::Output(answer) => answer,
            Answer::Failed { verdict, message } => {
                return Ok(Trial::NoAnswer(format!(
                    "{}: {verdict}: {message}",
                    which()
                )));
            }
        };
        std::fs::write(&answer_path, &answer).map_err(|e| Error::io("write", &answer_path, e))?;
        let test = Test {
            name: "stress".into(),
            files: crate::problem::Files::at(input_path.as_path(), answer_path),
            judging: crate::problem::Judging::new(flags, Default::default()),
        };
        let run = dir.path().join("run");
        std::fs::create_dir(&run).map_err(|e| Error::io("create", &run, e))?;
        let result = self.workshop.judge_in(&run, &self.submission, &test)?;
        if result.verdict.is_accepted() {
            return Ok(Trial::Passed);
        }
        // An interactive test's output is its dialogue.
        let output = match &result.dialogue {
            Some(dialogue) => dialogue.as_bytes().to_vec(),
            None => crate::text::read_head(&run.join(crate::judge::OUTPUT), OUTPUT_KEPT),
        };
        Ok(Trial::Failed(Box::new(Failure {
            arguments,
            input,
            answer,
            output,
            result,
        })))
    }

    /// Runs `trial` on every item, up to `jobs` at once, and returns the failure of lowest index, whatever order
    /// they finish in; no item after a failure found is started. See [`Phase`] for what the other outcomes mean.
    fn first_failure<T: Sync>(
        &self,
        items: &[T],
        trial: impl Fn(&T) -> Result<Trial> + Sync,
        phase: Phase,
        on_done: &mut dyn FnMut(usize),
    ) -> Result<Option<(usize, Box<Failure>)>> {
        let next = AtomicUsize::new(0);
        let best = AtomicUsize::new(usize::MAX);
        let broken = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel();
        let (searching, deadline) = match phase {
            Phase::Search { deadline } => (true, deadline),
            Phase::Shrink { deadline } => (false, Some(deadline)),
        };
        let mut found: Option<(usize, Box<Failure>)> = None;
        let mut error = None;
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.min(items.len()) {
                let sender = sender.clone();
                let (next, best, broken, trial) = (&next, &best, &broken, &trial);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= items.len()
                            || index > best.load(Ordering::SeqCst)
                            || broken.load(Ordering::SeqCst)
                            || stopped()
                            || deadline.is_some_and(|d| Instant::now() >= d)
                        {
                            break;
                        }
                        let outcome = trial(&items[index]);
                        match &outcome {
                            Ok(Trial::Failed(_)) => {
                                best.fetch_min(index, Ordering::SeqCst);
                            }
                            Err(_) => broken.store(true, Ordering::SeqCst),
                            _ => {}
                        }
                        if sender.send((index, outcome)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for (index, outcome) in receiver {
                on_done(index);
                let problem = match outcome {
                    // Runs in flight when the user stopped the search: what was found so far stands.
                    Err(Error::Interrupted) => {
                        broken.store(true, Ordering::SeqCst);
                        None
                    }
                    Err(e) => Some(e),
                    Ok(Trial::Failed(failure)) => {
                        if found.as_ref().is_none_or(|(i, _)| index < *i) {
                            found = Some((index, failure));
                        }
                        None
                    }
                    Ok(Trial::Passed) => None,
                    Ok(Trial::NoInput(why)) if searching => Some(Error::Usage(format!(
                        "the generator cannot make an input from {why}"
                    ))),
                    Ok(Trial::Invalid(why)) if searching => {
                        Some(Error::Usage(format!("the validator rejects {why}")))
                    }
                    Ok(Trial::NoAnswer(why)) if searching => {
                        Some(Error::Usage(format!("the main reference fails on {why}")))
                    }
                    Ok(_) => None,
                };
                if let Some(problem) = problem {
                    broken.store(true, Ordering::SeqCst);
                    error.get_or_insert(problem);
                }
            }
        });
        match error {
            Some(e) => Err(e),
            None => Ok(found),
        }
    }
}

fn stopped() -> bool {
    crate::interrupt::requested()
}

/// The arguments with `{seed}` replaced.
fn with_seed(arguments: &[String], seed: u64) -> Vec<String> {
    arguments
        .iter()
        .map(|a| a.replace("{seed}", &seed.to_string()))
        .collect()
}

/// The candidates of the generator's shrink mode: each followed by a line holding only `---`.
fn split_candidates(printed: &[u8]) -> Vec<Vec<u8>> {
    let mut candidates = Vec::new();
    let mut current = Vec::new();
    for line in printed.split_inclusive(|&b| b == b'\n') {
        if line.strip_suffix(b"\n").unwrap_or(line).trim_ascii_end() == SHRINK_SEPARATOR {
            candidates.push(std::mem::take(&mut current));
        } else {
            current.extend_from_slice(line);
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_end_with_a_separator_line() {
        let printed = b"1\n5 5\n---\n0\n---\n";
        assert_eq!(
            split_candidates(printed),
            [b"1\n5 5\n".to_vec(), b"0\n".to_vec()]
        );
        // Nothing after the last separator is a candidate: it was cut short.
        assert_eq!(split_candidates(b"1\n---\n2\n"), [b"1\n".to_vec()]);
        assert!(split_candidates(b"").is_empty());
    }

    #[test]
    fn seeds_fill_their_places() {
        let arguments = [
            "random".to_owned(),
            "{seed}".to_owned(),
            "x{seed}".to_owned(),
        ];
        assert_eq!(with_seed(&arguments, 7), ["random", "7", "x7"]);
    }
}
