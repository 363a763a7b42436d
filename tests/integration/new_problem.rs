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

/// Each language the template is offered in: the problem judges green at once, and its generator, validator and
/// reference serve `add`, `validate` and `stress`.
#[test]
fn every_template_language_judges_green_and_grows_tests() {
    for (lang, ext) in [("rust", "rs"), ("cpp", "cpp"), ("python", "py")] {
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join("problems")).unwrap();
        let said = expect(
            &cpjudge(project.path(), &["new", "demo", "--lang", lang]),
            0,
        );
        for file in ["solutions/main", "validator", "generator"] {
            let path = format!("problems/demo/{file}.{ext}");
            assert!(said.contains(&path), "{lang}: {said}");
            assert!(project.path().join(&path).is_file(), "{lang}: {path}");
        }
        let judged = expect(&cpjudge(project.path(), &["judge", "demo", "--json"]), 0);
        assert!(judged.contains("\"verdict\": \"AC\""), "{lang}: {judged}");

        let added = cpjudge(
            project.path(),
            &["add", "demo", "--gen", "random {seed}", "--seeds", "1..3"],
        );
        expect(&added, 0);
        for seed in 1..=3 {
            let input = project
                .path()
                .join(format!("testdata/demo/random-{seed}.in"));
            let text = std::fs::read_to_string(&input).unwrap_or_else(|e| panic!("{lang}: {e}"));
            assert_eq!(text.split_whitespace().count(), 2, "{lang}: {text:?}");
        }
        // The same seeds give the same inputs in every language: the generators share their PRNG.
        let first =
            std::fs::read_to_string(project.path().join("testdata/demo/random-1.in")).unwrap();
        assert_eq!(first, "975214279 -812194083\n", "{lang}");

        let validated = expect(
            &cpjudge(project.path(), &["validate", "demo", "--constraints"]),
            0,
        );
        // The validator's constraint report: both values and the special case, summed up over the tests.
        for name in ["a", "b", "negative_sum"] {
            assert!(validated.contains(name), "{lang}: {validated}");
        }
        // A bad input is refused with the line and what is wrong.
        let bad = project.path().join("bad.in");
        std::fs::write(&bad, "1 01\n").unwrap();
        let refused = expect(
            &cpjudge(project.path(), &["add", "demo", "--input", "bad.in"]),
            2,
        );
        assert!(refused.contains("line 1"), "{lang}: {refused}");
        assert!(refused.contains("01"), "{lang}: {refused}");

        // A submission wrong on negative sums: stress finds an input it fails with the template's generator.
        let wrong = project.path().join("wrong.py");
        std::fs::write(
            &wrong,
            "a, b = map(int, input().split())\nprint(a + b + (1 if a + b < 0 else 0))\n",
        )
        .unwrap();
        let stressed = cpjudge(
            project.path(),
            &[
                "stress",
                "demo",
                "--submission",
                "wrong.py",
                "--seeds",
                "1..40",
                "--json",
            ],
        );
        let stressed = expect(&stressed, 1);
        assert!(
            stressed.contains("\"verdict\": \"WA\""),
            "{lang}: {stressed}"
        );
    }
}

#[test]
fn an_unknown_language_is_refused_listing_those_offered() {
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join("problems")).unwrap();
    let said = expect(
        &cpjudge(project.path(), &["new", "demo", "--lang", "cobol"]),
        2,
    );
    assert!(said.contains("rust, cpp, python"), "{said}");
    assert_eq!(
        contents(project.path()).len(),
        2,
        "{:?}",
        contents(project.path())
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
