//! 2025-09's constants and included files, on tests/fixtures/packages/constants-and-includes: its submissions
//! build, and pass, only with the package's included files and its constants replaced in them, in the validator
//! and in the group file giving the output validator's arguments.

use crate::harness::shared_cache;
use crate::packages::{cpjudge, folder_verdict, package};
use std::path::Path;

const PACKAGE: &str = "constants-and-includes";

/// Judges the package at `path`: every submission its folder's verdict.
fn judge_green(path: &Path) -> serde_json::Value {
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let solutions = report["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 5, "{report:#}");
    for solution in solutions {
        let path = solution["path"].as_str().unwrap();
        assert_eq!(
            solution["verdict"],
            folder_verdict(path),
            "{}: {solution:#}",
            solution["name"]
        );
    }
    report
}

/// `scale.c` compiles only with include/c/scale.h, `own_header/` passes only because that file takes the place of
/// its own, the Python submissions run only from the included driver, and `{{factor}}` and `{{tolerance}}` are
/// replaced where they are written. A constant changed is a new build, never one taken from the cache.
#[test]
fn included_files_and_constants_make_the_submissions_pass() {
    let (_dir, path) = package(PACKAGE);
    let report = judge_green(&path);
    // The one sequence naming no constant is left as written, and said so where it is.
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0]["file"]
            .as_str()
            .unwrap()
            .ends_with("submissions/run_time_error/solution.py")
            && warnings[0]["line"] == 3
            && warnings[0]["message"]
                .as_str()
                .unwrap()
                .starts_with("{{factr}} names no constant"),
        "{warnings:#?}"
    );

    let yaml = path.join("problem.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, text.replace("factor: 3", "factor: 4")).unwrap();
    for (test, answer) in [("sample/1", "8"), ("secret/1", "28"), ("secret/2", "4000")] {
        std::fs::write(
            path.join("data").join(test).with_extension("ans"),
            format!("{answer}\n"),
        )
        .unwrap();
    }
    judge_green(&path);
}

/// A submission given on the command line is built with the included files too; its constants are replaced only
/// when it is one of the package's own files, as the format replaces them in example submissions alone.
#[test]
fn a_submission_given_on_the_command_line_gets_the_included_files() {
    let (dir, path) = package(PACKAGE);
    let mine = dir.path().join("mine.c");
    std::fs::write(
        &mine,
        "#include <stdio.h>\n#include \"scale.h\"\nint main(void) { long long n; scanf(\"%lld\", &n); \
         printf(\"%lld\\n\", n * FACTOR); return 0; }\n",
    )
    .unwrap();
    let theirs = dir.path().join("contestant/solution.py");
    std::fs::create_dir(theirs.parent().unwrap()).unwrap();
    std::fs::write(&theirs, "def solve(n):\n    return n * {{factor}}\n").unwrap();
    let own = path.join("submissions/accepted/solution.py");
    let judged = cpjudge(
        &[
            "judge",
            path.to_str().unwrap(),
            "--json",
            "--submission",
            mine.to_str().unwrap(),
            "--submission",
            own.to_str().unwrap(),
            "--submission",
            theirs.to_str().unwrap(),
        ],
        &shared_cache(),
    );
    let report = judged.json();
    let verdicts: Vec<(&str, &str)> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("mine.c", "AC"),
            ("accepted/solution.py", "AC"),
            // Run from the driver, with its `{{factor}}` as written: a NameError.
            ("contestant/solution.py", "RE")
        ],
        "{}",
        judged.stderr
    );
}

/// An included file is a file of its package: a link out of it is refused, naming it, before anything is built.
#[test]
fn an_included_link_out_of_the_package_is_refused() {
    let (dir, path) = package(PACKAGE);
    let outside = dir.path().join("outside.h");
    std::fs::write(&outside, "#define FACTOR 3\n").unwrap();
    let link = path.join("include/c/scale.h");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let judged = cpjudge(&["judge", path.to_str().unwrap()], &shared_cache());
    judged.expect(2, "a link out of the package");
    assert!(
        judged.stderr.contains(&link.display().to_string()),
        "{}",
        judged.stderr
    );
}

/// A Markdown statement is exported with its constants replaced: the package written has no `constants`.
#[test]
fn a_markdown_statement_is_exported_with_its_constants() {
    let (dir, path) = package(PACKAGE);
    let exported = dir.path().join("exported");
    cpjudge(
        &[
            "export",
            path.to_str().unwrap(),
            exported.to_str().unwrap(),
            "--format",
            "2025-09",
        ],
        &shared_cache(),
    )
    .expect(0, "exported");
    let statement = std::fs::read_to_string(exported.join("statement/problem.en.md")).unwrap();
    assert_eq!(
        statement,
        "Given $n$ ($1 \\le n \\le 10^3$), print $n$ times 3.\n"
    );
}

/// A group file's constants are replaced before it is read, so that its score may be one: the scoring-rules
/// package with `max_score: {{small}}` scores its small group by the constant's value.
#[test]
fn a_group_files_constants_are_replaced_before_it_is_scored() {
    let (_dir, path) = package("scoring-rules");
    let yaml = std::fs::read_to_string(path.join("problem.yaml")).unwrap();
    std::fs::write(
        path.join("problem.yaml"),
        format!("{yaml}constants:\n  small: 25\n"),
    )
    .unwrap();
    std::fs::write(
        path.join("data/secret/small/test_group.yaml"),
        "max_score: {{small}}\nscore_aggregation: pass-fail\n",
    )
    .unwrap();
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let report = judged.json();
    let score = |name: &str| {
        report["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["score"].clone())
            .unwrap_or_else(|| panic!("no {name}: {report:#}\n{}", judged.stderr))
    };
    assert_eq!(score("double.py"), 85.0, "{report:#}");
    assert_eq!(score("small_only.py"), 25.0, "{report:#}");
}
