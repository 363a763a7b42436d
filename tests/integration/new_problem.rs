//! `cpjudge new`: a problem that judges green at once, refused names, and nothing changed when refused.

use crate::harness::shared_cache;
use assert_cmd::Command;
use std::path::Path;
use std::process::Output;

fn cpjudge(project: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(project)
        .arg("--cache-dir")
        .arg(shared_cache())
        .args(args)
        .output()
        .unwrap()
}

/// Every file below `root` with its contents, sorted.
fn contents(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let name = e.path().strip_prefix(root).unwrap().display().to_string();
            let bytes = if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

fn expect(output: &Output, code: i32) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{stdout}\n{stderr}");
    stdout + &stderr
}

#[test]
fn a_new_problem_judges_green_and_its_name_is_then_taken() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join("problems")).unwrap();
    let said = expect(&cpjudge(project.path(), &["new", "demo"]), 0);
    assert!(said.contains("problems/demo/problem.toml"), "{said}");
    assert!(said.contains("cpjudge judge demo"), "{said}");
    let recipe = std::fs::read_to_string(project.path().join("testdata/demo/recipe.toml")).unwrap();
    let recipe: toml::Value = toml::from_str(&recipe).unwrap();
    assert_eq!(recipe["tests"][0]["name"].as_str(), Some("sample-1"));
    assert_eq!(recipe["tests"][0]["hand_made"].as_bool(), Some(true));

    let judged = expect(&cpjudge(project.path(), &["judge", "demo", "--json"]), 0);
    assert!(judged.contains("\"verdict\": \"AC\""), "{judged}");

    let before = contents(project.path());
    let said = expect(&cpjudge(project.path(), &["new", "demo"]), 2);
    assert!(said.contains("problems/demo already exists"), "{said}");
    assert!(
        before == contents(project.path()),
        "a refused name changed the project"
    );
}

#[test]
fn bad_names_and_places_are_refused_writing_nothing() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join("problems")).unwrap();
    for bad in ["a b", "../escape", "x.y", "é"] {
        let said = expect(&cpjudge(project.path(), &["new", bad]), 2);
        assert!(
            said.contains("is not a valid problem name"),
            "{bad}: {said}"
        );
    }
    // A name whose tests folder exists already is taken too.
    std::fs::create_dir_all(project.path().join("testdata/old")).unwrap();
    let said = expect(&cpjudge(project.path(), &["new", "old"]), 2);
    assert!(said.contains("testdata/old already exists"), "{said}");
    assert_eq!(
        contents(project.path()).len(),
        4,
        "{:?}",
        contents(project.path())
    );
    // Outside a project.
    let empty = tempfile::tempdir().unwrap();
    let said = expect(&cpjudge(empty.path(), &["new", "demo"]), 2);
    assert!(said.contains("not in a cpjudge project"), "{said}");
}
