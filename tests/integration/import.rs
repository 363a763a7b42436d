//! `cpjudge import`: a package made a problem of the project is judged as the package is, solution by solution,
//! score and verdict; our own problem exported and imported again scores as itself; what problem.toml cannot say
//! is refused, naming the file, and nothing is written.

use crate::harness::{Judge, Run};
use crate::packages::{cpjudge, package};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A fresh project with no problem yet.
fn empty_project() -> Judge {
    let judge = Judge::bundled(&[]);
    std::fs::create_dir(judge.root().join("problems")).unwrap();
    judge
}

fn import(judge: &mut Judge, package: &Path, name: &str) -> Run {
    judge.then(&["import", package.to_str().unwrap(), "--name", name], b"")
}

/// Every file and folder below `dir`, to show that nothing was written.
fn listing(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    found.sort();
    found
}

/// Each solution's verdict and score (with its groups' verdicts where `groups` is given), by name.
fn results(report: &Value, groups: bool) -> BTreeMap<String, Value> {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut shown = serde_json::json!({ "verdict": s["verdict"], "score": s["score"] });
            if groups {
                shown["groups"] = s["groups"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| serde_json::json!([g["name"], g["verdict"], g["score"]]))
                    .collect();
            }
            (s["name"].as_str().unwrap().to_owned(), shown)
        })
        .collect()
}

/// Imports the package fixture `name` into a fresh project, judges it there and as a package, and checks that
/// every submission imported gets the same verdict and score; those left out must be named in the import's
/// output. Returns what the import printed.
fn imported_judges_as_the_package(name: &str) -> String {
    let (_dir, path) = package(name);
    let mut project = empty_project();
    let imported = import(&mut project, &path, name).expect_code(0);
    let said = imported.stdout();
    assert!(
        project
            .root()
            .join("problems")
            .join(name)
            .join("problem.toml")
            .is_file(),
        "{said}"
    );
    let ours = project.then(&["judge", name, "--json"], b"").json();
    let theirs = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &crate::harness::shared_cache(),
    )
    .json();
    let (ours, theirs) = (results(&ours, false), results(&theirs, false));
    assert!(!ours.is_empty(), "{said}");
    for (solution, result) in &theirs {
        match ours.get(solution) {
            Some(mine) => assert_eq!(mine, result, "{name}: {solution}"),
            None => assert!(
                said.lines()
                    .any(|l| l.contains(&format!("/{solution}:")) && l.contains("submissions/")),
                "{name}: {solution} is neither imported nor said to be left out:\n{said}"
            ),
        }
    }
    said
}

#[test]
fn a_scoring_package_imported_scores_as_the_package() {
    let said = imported_judges_as_the_package("scoring-rules");
    for wanted in [
        "(2025-09 scoring package)",
        "in 2 groups: large 60, small 40",
        "protocol = \"package\"",
        // Rules problem.toml cannot say are named.
        "submissions.yaml: rejected/needs_tle.py, secret/large: required TLE",
    ] {
        assert!(said.contains(wanted), "{wanted}:\n{said}");
    }
}

#[test]
fn a_package_with_a_float_tolerance_imported_judges_as_the_package() {
    let said = imported_judges_as_the_package("float-sum");
    for wanted in [
        // No limit is fixed: judging the package derives it, and so does the import.
        "time limit 1s (1s derived by legacy rules",
        "compare = \"float\" (tolerance 1e-6)",
        // The validator needs the group's flags, the folder of two files is no single source.
        "input_validators/validate.py: data/secret/large gives it the flags \"large\"",
        "submissions/accepted/multi: is a program of 2 files",
        "letter case is ignored",
    ] {
        assert!(said.contains(wanted), "{wanted}:\n{said}");
    }
}

#[test]
fn a_pass_fail_package_with_an_output_validator_imported_judges_as_the_package() {
    let said = imported_judges_as_the_package("validation-data");
    assert!(said.contains("the output validator (checker)"), "{said}");
    assert!(said.contains("the input validator"), "{said}");
}

/// Our problem with groups, exported (in either format: legacy's default grader, 2025-09's rules) and imported
/// again, gets the same verdicts, scores and group verdicts as itself.
#[test]
fn knight_pawns_exported_and_imported_scores_as_itself() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let original = project
        .then(&["judge", "knight-pawns", "--json"], b"")
        .json();
    assert_eq!(original["solutions"].as_array().unwrap().len(), 5);
    for (format, name) in [("legacy", "again"), ("2025-09", "again-2025")] {
        let exported = project.root().join("exported").join(name);
        project
            .then(
                &[
                    "export",
                    "knight-pawns",
                    exported.to_str().unwrap(),
                    "--format",
                    format,
                ],
                b"",
            )
            .expect_code(0);
        let said = import(&mut project, &exported, name)
            .expect_code(0)
            .stdout();
        assert!(
            said.contains("in 3 groups: small 30, medium 30, large 40"),
            "{format}: {said}"
        );
        let again = project.then(&["judge", name, "--json"], b"").json();
        assert_eq!(results(&again, true), results(&original, true), "{format}");
    }
}

#[test]
fn a_taken_name_or_a_grouping_problem_toml_cannot_say_is_refused() {
    let mut project = Judge::bundled(&["knight-pawns"]);
    let before = listing(project.root());
    let (_dir, path) = package("scoring-rules");
    let taken = import(&mut project, &path, "knight-pawns").expect_code(2);
    assert!(
        taken
            .stderr()
            .contains("problems/knight-pawns already exists: problem knight-pawns is taken"),
        "{}",
        taken.stderr()
    );
    // The samples of legacy-mixed count towards its score, which problem.toml's never do.
    let (_dir, path) = package("legacy-mixed");
    let refused = import(&mut project, &path, "mixed").expect_code(2);
    assert!(
        refused.stderr().contains(
            "data/sample: the samples count towards the score (accept_score 1, reject_score 0; 1 and 0 unless \
             given), and problem.toml's samples never do: not imported"
        ),
        "{}",
        refused.stderr()
    );
    // An output validator given flags.
    let (_dir, path) = package("custom-checker");
    let refused = import(&mut project, &path, "pairs").expect_code(2);
    assert!(
        refused.stderr().contains(
            "custom-checker/problem.yaml: validator_flags \"strict_spacing\" are passed to the output validator"
        ),
        "{}",
        refused.stderr()
    );
    assert_eq!(listing(project.root()), before);
}

/// A package judged in part by a static validator cannot be said in problem.toml: it is refused by name, and
/// nothing is written.
#[test]
fn a_package_with_static_validation_is_refused() {
    let mut project = crate::harness::Judge::fixture("basic");
    let (_dir, package) = crate::packages::package("static-validation");
    let run = project
        .then(
            &["import", package.to_str().unwrap(), "--name", "statics"],
            b"",
        )
        .expect_code(2);
    assert!(
        run.stderr().contains("static validation (")
            && run
                .stderr()
                .contains("problem.toml cannot say: not imported"),
        "{}",
        run.stderr()
    );
    assert!(!project.root().join("problems/statics").exists());
    assert!(!project.root().join("testdata/statics").exists());
}
