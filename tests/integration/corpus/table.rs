//! expected.toml, the authors' intent for each package and submission, and the test that it describes the corpus
//! as it is on disk.

use super::languages::tools;
use crate::harness::fixtures;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The table: source -> package -> what its authors intend.
pub type Table = BTreeMap<String, BTreeMap<String, Package>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub format: String,
    pub kinds: Vec<String>,
    pub outcome: Outcome,
    pub refusal: Option<String>,
    #[allow(dead_code)]
    pub note: Option<String>,
    pub submissions: BTreeMap<String, Submission>,
}

#[derive(Deserialize, PartialEq, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Judged,
    Refused,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub language: String,
    #[serde(default)]
    pub verdicts: Vec<String>,
    pub from: Option<String>,
    #[serde(default)]
    pub flagged: bool,
    #[serde(default)]
    pub optional: bool,
    pub unchecked: Option<String>,
    /// Why a TLE is allowed too, where the run had filled most of the memory limit when its time ran out.
    pub slow_memory: Option<String>,
    pub gap: Option<String>,
    #[serde(default = "judged_by_default")]
    pub judged: bool,
    #[allow(dead_code)]
    pub note: Option<String>,
}

fn judged_by_default() -> bool {
    true
}

const VERDICTS: &[&str] = &["AC", "WA", "TLE", "RE", "MLE", "OLE", "CE"];
const KINDS: &[&str] = &[
    "interactive",
    "float",
    "checker",
    "ctd",
    "scoring",
    "multipass",
];

pub fn corpus() -> PathBuf {
    fixtures().join("corpus")
}

pub fn table() -> Table {
    let path = corpus().join("expected.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The folders and files under a package's submissions/ that are submissions: each entry of a folder, and the
/// files beside the folders, but for the files that describe submissions.
fn entries_on_disk(package: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let hidden = |name: &str| name.starts_with('.');
    for entry in std::fs::read_dir(package.join("submissions")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if hidden(&name) || name.starts_with("submissions.") {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            for inner in std::fs::read_dir(entry.path()).unwrap() {
                let inner = inner.unwrap().file_name().into_string().unwrap();
                if !hidden(&inner) {
                    found.insert(format!("{name}/{inner}"));
                }
            }
        } else {
            found.insert(name);
        }
    }
    found
}

#[test]
fn the_table_describes_every_package_and_submission_of_the_corpus() {
    let table = table();
    let mut problems = Vec::new();
    let mut packages = 0;
    let mut kinds = BTreeSet::new();
    for (source, listed) in &table {
        let on_disk: BTreeSet<String> = std::fs::read_dir(corpus().join(source))
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_dir())
            .map(|e| e.file_name().into_string().unwrap())
            .collect();
        let in_table: BTreeSet<String> = listed.keys().cloned().collect();
        if on_disk != in_table {
            problems.push(format!("{source}: folders {on_disk:?}, table {in_table:?}"));
        }
        for (name, package) in listed {
            packages += 1;
            kinds.extend(package.kinds.iter().cloned());
            let dir = corpus().join(source).join(name);
            problems.extend(check_entry(source, name, package, &dir));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(table.len() >= 3, "{} sources", table.len());
    assert!(packages >= 20, "{packages} packages");
    let wanted: BTreeSet<String> = KINDS.iter().map(|k| k.to_string()).collect();
    assert_eq!(kinds, wanted);
}

/// What is wrong with one package's entry in the table.
fn check_entry(source: &str, name: &str, package: &Package, dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let at = format!("{source}/{name}");
    if !dir.join("problem.yaml").is_file() {
        problems.push(format!("{at}: no problem.yaml"));
    }
    if package.format.is_empty() {
        problems.push(format!("{at}: no format"));
    }
    if let Some(kind) = package.kinds.iter().find(|k| !KINDS.contains(&k.as_str())) {
        problems.push(format!("{at}: unknown kind {kind}"));
    }
    if (package.outcome == Outcome::Refused) != package.refusal.is_some() {
        problems.push(format!(
            "{at}: a refusal goes with outcome \"refused\", and only there"
        ));
    }
    let listed: BTreeSet<String> = package.submissions.keys().cloned().collect();
    let on_disk = entries_on_disk(dir);
    for missing in on_disk.difference(&listed) {
        problems.push(format!("{at}: submissions/{missing} is not in the table"));
    }
    for stale in listed.difference(&on_disk) {
        problems.push(format!(
            "{at}: the table lists submissions/{stale}, which is not there"
        ));
    }
    for (path, submission) in &package.submissions {
        tools(&submission.language);
        let verdicts_wanted = submission.judged && submission.unchecked.is_none();
        if verdicts_wanted == submission.verdicts.is_empty() {
            problems.push(format!(
                "{at}: {path}: verdicts go with a judged, checked submission, and only there"
            ));
        }
        if let Some(v) = submission
            .verdicts
            .iter()
            .find(|v| !VERDICTS.contains(&v.as_str()))
        {
            problems.push(format!("{at}: {path}: unknown verdict {v}"));
        }
        if verdicts_wanted && submission.from.is_none() {
            problems.push(format!(
                "{at}: {path}: where its verdicts come from is not said"
            ));
        }
    }
    problems
}
