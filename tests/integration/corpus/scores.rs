//! Scoring packages written by others, judged by cpjudge and by problemtools' verifyproblem: every submission's
//! score must be the same. DOMjudge keeps its partial submissions in `partial/`, which verifyproblem does not
//! judge; the copy given to both names it `partially_accepted/`, the format's folder.

use super::judge::copy_package;
use super::table::corpus;
use crate::harness::shared_cache;
use crate::packages::cpjudge;
use std::collections::BTreeMap;
use std::path::Path;

/// verifyproblem's points per submission, from its "Submission results:" table (by file name).
fn verifyproblem_points(tool: &Path, package: &Path) -> BTreeMap<String, f64> {
    let out = std::process::Command::new(tool)
        .current_dir(package.parent().unwrap())
        .args(["-p", "submissions", "--"])
        .arg(package.file_name().unwrap())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let table = said
        .split("Submission results:")
        .nth(1)
        .unwrap_or_else(|| panic!("verifyproblem printed no results:\n{said}"));
    let mut lines = table.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let points = header
        .iter()
        .position(|h| *h == "Pts")
        .expect("a Pts column");
    let mut scores = BTreeMap::new();
    for line in lines {
        // The table's rows are indented; the summary after it is not.
        let cells: Vec<&str> = line.split_whitespace().collect();
        if !line.starts_with(' ') || cells.len() != header.len() {
            break;
        }
        scores.insert(cells[0].to_owned(), cells[points].parse::<f64>().unwrap());
    }
    scores
}

fn same_scores(source: &str, name: &str) {
    let Some(tool) = crate::packages::verifyproblem() else {
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join(name);
    copy_package(&corpus().join(source).join(name), &package);
    let partial = package.join("submissions/partial");
    if partial.is_dir() {
        std::fs::rename(&partial, package.join("submissions/partially_accepted")).unwrap();
    }
    // Python runs with CPython and Java with this JDK, by the overrides the install wrote.
    std::fs::copy(
        repo.join("target/problemtools/languages.yaml"),
        dir.path().join("languages.yaml"),
    )
    .unwrap();
    let theirs = verifyproblem_points(&tool, &package);
    let judged = cpjudge(
        &["judge", package.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    let ours: BTreeMap<String, f64> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap();
            let file = name.rsplit('/').next().unwrap().to_owned();
            (file, s["score"].as_f64().unwrap_or(f64::NAN))
        })
        .collect();
    assert!(
        theirs.len() >= 3,
        "{source}/{name}: verifyproblem scored {theirs:?}"
    );
    let differ: Vec<String> = theirs
        .iter()
        .filter(|(file, points)| ours.get(*file).is_none_or(|o| (o - **points).abs() > 1e-6))
        .map(|(file, points)| {
            format!(
                "{file}: verifyproblem {points}, cpjudge {:?}",
                ours.get(file)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{source}/{name}:\n  {}",
        differ.join("\n  ")
    );
}

#[test]
fn oddecho_scores_as_verifyproblem_scores_it() {
    same_scores("problemtools", "oddecho");
}

#[test]
fn addone_scores_as_verifyproblem_scores_it() {
    same_scores("domjudge", "addone");
}

#[test]
fn fibonacci_scores_as_verifyproblem_scores_it() {
    same_scores("domjudge", "fibonacci");
}
