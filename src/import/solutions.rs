//! A package's submissions as problem.toml's `[[solutions]]`, each expected what its loader expects of it (its
//! folder, its `@EXPECTED_RESULTS@` tag, submissions.yaml), one accepted one the main reference.
//!
//! Of submissions.yaml's rules, problem.toml says a score over all tests (`score`), that a group passes whole
//! (`groups = { small = "AC" }`, for `permitted: [AC]` on a group), and what all tests may or must give, as the
//! verdict of the first failure (`expected`: what judging decides when it stops at that test). The others
//! (`message`, a group's `required`, ...) are left out, and said so: they decide whether a submission did as
//! expected, never its verdict or score.

use super::groups::Group;
use super::programs::{self, File, Placed};
use super::{below, number, quoted};
use crate::error::Result;
use crate::problem::{Problem, Solution};
use crate::scoring::{Expectation, Scope};
use crate::verdict::Verdict;
use std::path::Path;

/// A solution of problem.toml.
pub(super) struct Entry {
    /// Its path below the problem's folder.
    pub path: String,
    /// The name the reports give it.
    pub name: String,
    pub expected: Vec<Verdict>,
    pub main: bool,
    pub score: Option<(f64, f64)>,
    /// Groups that must pass whole, by name.
    pub passing: Vec<String>,
    pub file: File,
}

impl Entry {
    /// Its `[[solutions]]` table.
    pub fn text(&self) -> String {
        let expected = match &self.expected[..] {
            [one] => quoted(one.code()),
            many => format!(
                "[{}]",
                many.iter()
                    .map(|v| quoted(v.code()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut text = format!(
            "[[solutions]]\npath = {}\nexpected = {expected}\n",
            quoted(&self.path)
        );
        if self.main {
            text.push_str("main = true\n");
        }
        match self.score {
            Some((low, high)) if low == high => {
                text.push_str(&format!("score = {}\n", number(low)))
            }
            Some((low, high)) => {
                text.push_str(&format!("score = [{}, {}]\n", number(low), number(high)))
            }
            None => {}
        }
        if !self.passing.is_empty() {
            let groups: Vec<String> = self
                .passing
                .iter()
                .map(|g| format!("{} = \"AC\"", quoted(g)))
                .collect();
            text.push_str(&format!("groups = {{ {} }}\n", groups.join(", ")));
        }
        text
    }
}

/// The submissions problem.toml can have, in the loader's order (accepted first); the others are said in
/// `left_out`. Refused when none can be the main reference, which problem.toml needs.
pub(super) fn solutions(
    problem: &Problem,
    groups: Option<&[Group]>,
    left_out: &mut Vec<String>,
) -> Result<Vec<Entry>> {
    let package = problem.package.as_ref().expect("a package");
    let submissions = problem.dir.join("submissions");
    let mut entries: Vec<Entry> = Vec::new();
    let mut main_kept = false;
    // Why each accepted submission was left out, should none be left to be the main reference.
    let before = left_out.len();
    for solution in &problem.solutions {
        let source = solution.source();
        let shown = below(problem, source.shown());
        let within = solution
            .path
            .strip_prefix(&submissions)
            .unwrap_or(Path::new(solution.path.file_name().unwrap_or_default()));
        let target = Path::new("solutions").join(within);
        let file = match programs::single(&source, &target)? {
            Placed::Program { mut files, .. } => files.remove(0),
            Placed::Not(why) => {
                left_out.push(format!("{shown}: {why}"));
                continue;
            }
        };
        // problem.toml tells a solution's language by its file, as a project's solutions are told.
        if crate::language::Language::of(&solution.path).is_err() {
            left_out.push(format!(
                "{shown}: its language is told only by the package's rules, not by its file's name"
            ));
            continue;
        }
        let mut entry = Entry {
            path: target.to_string_lossy().into_owned(),
            name: solution.name.clone(),
            expected: Vec::new(),
            main: false,
            score: None,
            passing: Vec::new(),
            file,
        };
        rules(solution, groups, &mut entry, left_out);
        if entry.expected.is_empty() {
            left_out.push(format!(
                "{shown}: its rules permit no verdict a run can end with"
            ));
            continue;
        }
        entry.main = solution.main && entry.expected == [Verdict::Accepted];
        main_kept |= entry.main;
        entries.push(entry);
    }
    // The loader's main reference, or else the first accepted one kept.
    if !main_kept {
        match entries
            .iter_mut()
            .find(|e| e.expected == [Verdict::Accepted])
        {
            Some(first) => first.main = true,
            None => {
                let accepted: Vec<&str> = left_out[before..]
                    .iter()
                    .filter(|l| l.starts_with("submissions/accepted/"))
                    .map(String::as_str)
                    .collect();
                return Err(crate::error::Error::Usage(format!(
                    "{}: no accepted submission that problem.toml can take as its main reference (one file in a \
                     language of the table){}: not imported",
                    submissions.display(),
                    if accepted.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", accepted.join("; "))
                    }
                )));
            }
        }
    }
    for skipped in &package.unknown_language {
        left_out.push(format!(
            "{}: {}",
            below(problem, &skipped.path),
            skipped.why
        ));
    }
    Ok(entries)
}

/// The solution's expected verdicts and rules into `entry`, and each rule problem.toml cannot say into
/// `left_out`.
fn rules(
    solution: &Solution,
    groups: Option<&[Group]>,
    entry: &mut Entry,
    left_out: &mut Vec<String>,
) {
    let mut expected: Vec<Verdict> = if solution.expected.is_empty() {
        Verdict::OF_A_RUN.to_vec()
    } else {
        solution.expected.clone()
    };
    for rule in &solution.expectations {
        let mut unsaid: Vec<String> = Vec::new();
        match &rule.scope {
            Scope::All => {
                // Over all tests, judging stops at the first failure: what may or must happen there is the
                // verdict of that test.
                if let Some(permitted) = &rule.permitted {
                    if permitted.contains(&Verdict::Accepted) {
                        expected.retain(|v| permitted.contains(v));
                    } else {
                        unsaid.push(format!("permitted {}", Verdict::codes(permitted)));
                    }
                }
                if let Some(required) = &rule.required {
                    if required.contains(&Verdict::Accepted) {
                        unsaid.push(format!("required {}", Verdict::codes(required)));
                    } else {
                        expected.retain(|v| required.contains(v));
                    }
                }
                if let Some(score) = rule.score {
                    entry.score = Some(score);
                }
            }
            Scope::Matching { pattern, .. } => {
                let group = groups.and_then(|groups| {
                    groups
                        .iter()
                        .find(|g| pattern.trim_end_matches('/') == g.folder)
                });
                match (&rule.permitted, group) {
                    (Some(permitted), Some(group)) if permitted[..] == [Verdict::Accepted] => {
                        if !entry.passing.contains(&group.name) {
                            entry.passing.push(group.name.clone());
                        }
                    }
                    (Some(permitted), _) => {
                        unsaid.push(format!("permitted {}", Verdict::codes(permitted)))
                    }
                    (None, _) => {}
                }
                if let Some(required) = &rule.required {
                    unsaid.push(format!("required {}", Verdict::codes(required)));
                }
                if let Some((low, high)) = rule.score {
                    unsaid.push(format!("score {}..{}", number(low), number(high)));
                }
            }
        }
        if let Some(message) = &rule.message {
            unsaid.push(format!("message {message:?}"));
        }
        if rule.verdict.is_some() {
            unsaid.push("a group's verdict".to_owned());
        }
        if !unsaid.is_empty() {
            left_out.push(format!("{}: {}", rule_name(rule), unsaid.join(", ")));
        }
    }
    entry.expected = expected;
}

/// The rule as its file names it, with what it is about.
fn rule_name(rule: &Expectation) -> String {
    match &rule.scope {
        Scope::All => format!("{} (over all tests)", rule.origin),
        Scope::Matching { .. } => rule.origin.clone(),
    }
}

/// What the solutions are, in a line.
pub(super) fn summary(entries: &[Entry]) -> String {
    let main = entries
        .iter()
        .find(|e| e.main)
        .map_or(String::new(), |e| format!(" (main: {})", e.name));
    format!(
        "{} solution{}{main}",
        entries.len(),
        if entries.len() == 1 { "" } else { "s" }
    )
}
