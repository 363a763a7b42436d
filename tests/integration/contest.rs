//! A whole contest at once: `judge`, `validate` and `regen` naming no problem work on every problem of the project
//! (or those `--problems` chooses) with one summary and an exit code over all; `list` says what each still lacks.

use crate::harness::{BUNDLED, Judge};
use crate::html::{check_page, chromium};
use std::path::Path;

/// The summary's row of `problem`: the line starting with its name.
fn row<'a>(table: &'a str, problem: &str) -> &'a str {
    table
        .lines()
        .find(|line| line.starts_with(&format!("{problem} ")))
        .unwrap_or_else(|| panic!("no row of {problem} in:\n{table}"))
}

#[test]
fn judge_in_a_project_judges_every_problem_with_one_summary() {
    let run = Judge::bundled(&BUNDLED)
        .args(&["judge"])
        .run()
        .expect_code(0);
    let table = run.stdout();
    assert_eq!(
        table.matches("slowest reference / limit").count(),
        1,
        "{table}"
    );
    for problem in BUNDLED {
        let row = row(&table, problem);
        assert!(row.ends_with("as expected"), "{row}");
        // Solutions as expected out of those judged, and the slowest reference against the limit.
        let solutions = row.split_whitespace().nth(1).unwrap();
        let (good, all) = solutions.split_once('/').unwrap();
        assert_eq!(good, all, "{row}");
        assert!(row.contains(" / 1s"), "{row}");
    }
    assert!(
        table.trim_end().ends_with("4 problems, all as expected"),
        "{table}"
    );
}

#[test]
fn problems_chooses_some_by_name() {
    let run = Judge::bundled(&BUNDLED)
        .args(&["judge", "--problems", "knight-*", "--json"])
        .run()
        .expect_code(0);
    let json = run.json();
    let judged: Vec<&str> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["problem"].as_str().unwrap())
        .collect();
    assert_eq!(judged, ["knight-pawns", "knight-tour"]);
    // A glob that matches nothing is a mistake, named.
    let none = Judge::bundled(&["young-chess"])
        .args(&["judge", "--problems", "queen-*"])
        .run()
        .expect_code(2);
    assert!(none.stderr().contains("queen-*"), "{}", none.stderr());
}

/// A broken problem is said in its row and the others are judged; the contest's JUnit file (for a CI job) holds
/// every judged problem's suites and a failed suite for each broken one.
#[test]
fn a_broken_problem_fails_the_contest_but_not_the_others() {
    let judge = Judge::bundled(&["young-chess", "knight-pawns"])
        .write("problems/knight-pawns/problem.toml", "time_limit = \n")
        .write("problems/draft/statement.md", "# A problem begun by hand\n")
        .args(&["judge", "--junit", "contest.xml"]);
    let run = judge.run().expect_code(1);
    let xml = std::fs::read_to_string(judge.root().join("contest.xml")).unwrap();
    assert!(
        xml.contains(r#"<testsuites name="contest" failures="2">"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testsuite name="young-chess.boundary_dp.rs""#),
        "{xml}"
    );
    for broken in ["knight-pawns", "draft"] {
        let suite = format!(r#"<testsuite name="{broken}" tests="1" failures="1" skipped="0">"#);
        assert!(xml.contains(&suite), "{xml}");
    }
    assert!(xml.contains("problem.toml"), "{xml}");
    let table = run.stdout();
    assert!(
        row(&table, "young-chess").ends_with("as expected"),
        "{table}"
    );
    assert!(
        row(&table, "knight-pawns").contains("error: ")
            && row(&table, "knight-pawns").contains("problem.toml"),
        "{table}"
    );
    assert!(
        row(&table, "draft").contains("has no problem.toml"),
        "{table}"
    );
    assert!(table.contains("2 broken: knight-pawns, draft"), "{table}");
}

#[test]
fn a_problem_not_as_expected_shows_its_table_and_fails_the_contest() {
    // knight-pawns' greedy solution is expected WA: expected AC, it is not as expected.
    let toml = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/knight-pawns/problem.toml"),
    )
    .unwrap();
    let run = Judge::bundled(&["young-chess", "knight-pawns"])
        .write(
            "problems/knight-pawns/problem.toml",
            &toml.replace("expected = \"WA\"", "expected = \"AC\""),
        )
        .args(&["judge"])
        .run();
    let table = run.stdout();
    assert_eq!(run.code(), 1, "{table}\n{}", run.stderr());
    assert!(
        row(&table, "knight-pawns").ends_with("NOT AS EXPECTED"),
        "{table}"
    );
    assert!(
        row(&table, "young-chess").ends_with("as expected"),
        "{table}"
    );
    // Its own table, as `judge knight-pawns` prints it, comes before the summary.
    assert!(table.contains("greedy_nearest.rs"), "{table}");
}

#[test]
fn judge_outside_a_project_names_no_problem_to_judge() {
    let outside = tempfile::tempdir().unwrap();
    let run = Judge::bundled(&["young-chess"])
        .cwd(outside.path().to_str().unwrap())
        .args(&["judge"])
        .run()
        .expect_code(2);
    assert!(
        run.stderr().contains("judge names no problem")
            && run.stderr().contains("not in a cpjudge project"),
        "{}",
        run.stderr()
    );
}

#[test]
fn one_json_object_and_an_html_index_for_the_contest() {
    let mut project = Judge::bundled(&BUNDLED);
    std::fs::create_dir(project.root().join("reports")).unwrap();
    let run = project
        .then(&["judge", "--json", "--html", "reports/index.html"], b"")
        .expect_code(0);
    let json = run.json();
    let problems = json["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 4, "{json:#}");
    assert_eq!(json["summary"]["problems"], 4);
    assert_eq!(json["summary"]["ok"], true);
    for (problem, name) in problems.iter().zip({
        let mut sorted = BUNDLED;
        sorted.sort();
        sorted
    }) {
        assert_eq!(problem["problem"], name);
        // The same object `judge PROBLEM --json` gives.
        assert_eq!(problem["report"]["problem"], name);
        assert_eq!(problem["report"]["ok"], true);
        assert!(problem["report"]["solutions"].is_array());
    }

    let index = project.root().join("reports/index.html");
    let html = std::fs::read_to_string(&index).unwrap();
    for name in BUNDLED {
        assert!(
            html.contains(&format!("<a href=\"{name}.html\">{name}</a>")),
            "{html}"
        );
    }
    let Some(chromium) = chromium() else {
        return;
    };
    let dom = crate::html::headless(&chromium, &index, &["--dump-dom"], "");
    assert_eq!(dom.matches("<tr data-problem=").count(), 4, "{dom}");
    for problem in problems {
        let name = problem["problem"].as_str().unwrap();
        check_page(
            &chromium,
            &project.root().join(format!("reports/{name}.html")),
            &problem["report"],
            name,
            &format!("contest-{name}.png"),
        );
    }
}

#[test]
fn validate_and_regen_check_every_problem() {
    let mut project = Judge::bundled(&BUNDLED);
    for command in ["validate", "regen"] {
        let run = project.then(&[command], b"").expect_code(0);
        let table = run.stdout();
        for problem in BUNDLED {
            assert!(row(&table, problem).ends_with("as expected"), "{table}");
        }
        assert!(
            table.trim_end().ends_with("4 problems, all as expected"),
            "{table}"
        );
    }
    // An invalid test in one problem, an answer the recipe would not make in another: each fails its command,
    // the others still pass.
    std::fs::write(
        project.root().join("testdata/young-chess/zz-bad.in"),
        "not a board\n",
    )
    .unwrap();
    std::fs::write(
        project.root().join("testdata/young-chess/zz-bad.ans"),
        "0\n",
    )
    .unwrap();
    let validated = project.then(&["validate"], b"").expect_code(1);
    let table = validated.stdout();
    assert!(
        row(&table, "young-chess").ends_with("NOT AS EXPECTED"),
        "{table}"
    );
    assert!(
        row(&table, "knight-tour").ends_with("as expected"),
        "{table}"
    );
    std::fs::remove_file(project.root().join("testdata/young-chess/zz-bad.in")).unwrap();
    std::fs::remove_file(project.root().join("testdata/young-chess/zz-bad.ans")).unwrap();

    let answer = project.root().join("testdata/knight-pawns/sample-1.ans");
    std::fs::write(&answer, "12345\n").unwrap();
    let rebuilt = project
        .then(&["regen", "--problems", "knight-*"], b"")
        .expect_code(1);
    let table = rebuilt.stdout();
    assert!(
        row(&table, "knight-pawns").ends_with("NOT AS EXPECTED"),
        "{table}"
    );
    assert!(
        row(&table, "knight-tour").ends_with("as expected"),
        "{table}"
    );
    assert!(!table.contains("young-chess"), "{table}");
}

#[test]
fn list_says_what_each_problem_lacks() {
    let json = Judge::fixture("checker")
        .args(&["list", "--json"])
        .run()
        .expect_code(0)
        .json();
    let lacks = |name: &str| -> Vec<String> {
        let problem = json
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap();
        serde_json::from_value(problem["lacks"].clone()).unwrap()
    };
    assert_eq!(
        lacks("pair-crash"),
        [
            "an input validator",
            "a solution expected WA",
            "a solution expected TLE"
        ]
    );
    assert_eq!(
        lacks("pair"),
        ["an input validator", "a solution expected TLE"]
    );
    let table = Judge::fixture("checker")
        .args(&["list"])
        .run()
        .expect_code(0)
        .stdout();
    assert!(
        table.contains("lacks an input validator, a solution expected WA, a solution expected TLE"),
        "{table}"
    );
    // A problem that has them all lacks nothing, once its tests are seen to reach every bound.
    let mut bundled = Judge::bundled(&["hidden-knight"]);
    bundled
        .then(&["validate", "hidden-knight", "--constraints"], b"")
        .expect_code(0);
    let json = bundled.then(&["list", "--json"], b"").expect_code(0).json();
    assert_eq!(json[0]["lacks"], serde_json::json!([]));
}

/// What `list` says of a problem's bounds: what `validate --constraints` last found the tests reach, while the
/// tests are those it ran on, and otherwise that they were not checked.
#[test]
fn list_names_the_bounds_the_tests_never_reach() {
    let mut project = Judge::bundled(&["young-chess"]);
    let bounds = |project: &mut Judge| -> Vec<String> {
        let json = project.then(&["list", "--json"], b"").expect_code(0).json();
        let lacks: Vec<String> = serde_json::from_value(json[0]["lacks"].clone()).unwrap();
        let table = project.then(&["list"], b"").expect_code(0).stdout();
        let bounds: Vec<String> = lacks
            .into_iter()
            .filter(|lack| lack.contains("bound"))
            .collect();
        for lack in &bounds {
            assert!(table.contains(lack.as_str()), "{lack:?} in\n{table}");
        }
        bounds
    };
    let not_checked = "bounds not checked: run `cpjudge validate young-chess --constraints`";
    assert_eq!(bounds(&mut project), [not_checked]);
    // Without the 10-row boards, the largest n is never reached.
    let tests = project.root().join("testdata/young-chess");
    let aside = project.root().join("aside");
    std::fs::create_dir(&aside).unwrap();
    let mut moved = Vec::new();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let text = std::fs::read_to_string(&path).unwrap();
            if text.split_whitespace().next() == Some("10") {
                let name = path.file_stem().unwrap().to_owned();
                for extension in ["in", "ans"] {
                    let file = Path::new(&name).with_extension(extension);
                    std::fs::rename(tests.join(&file), aside.join(&file)).unwrap();
                }
                moved.push(name);
            }
        }
    }
    assert!(!moved.is_empty());
    project
        .then(&["validate", "young-chess", "--constraints"], b"")
        .expect_code(0);
    let said = bounds(&mut project);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("n = 10") && said[0].ends_with(" never reached"),
        "{said:?}"
    );
    // A test that reaches it back, validated again: nothing is lacking.
    for name in &moved {
        for extension in ["in", "ans"] {
            let file = Path::new(name).with_extension(extension);
            std::fs::rename(aside.join(&file), tests.join(&file)).unwrap();
        }
    }
    project
        .then(&["validate", "young-chess", "--constraints"], b"")
        .expect_code(0);
    assert_eq!(bounds(&mut project), Vec::<String>::new());
    // A test changed since: what was found no longer speaks of these tests.
    let changed = tests.join(Path::new(&moved[0]).with_extension("in"));
    let text = std::fs::read(&changed).unwrap();
    std::fs::write(&changed, text).unwrap();
    assert_eq!(bounds(&mut project), [not_checked]);
}

#[test]
fn a_page_may_not_be_written_over_the_index() {
    let run = Judge::bundled(&["young-chess"])
        .args(&["judge", "--html", "young-chess.html"])
        .run()
        .expect_code(2);
    assert!(
        run.stderr()
            .contains("the page of problem young-chess would be written over the index"),
        "{}",
        run.stderr()
    );
    // Refused before judging: no page is written.
    assert!(!run.stdout().contains("young-chess"), "{}", run.stdout());
}
