//! A Polygon-style problem: a testlib checker, validator and generator beside the problem's own `testlib.h` (the
//! real one, see tests/fixtures/polygon/README.md), and a reference including a header of its own. Every program
//! is built from a copy in the cache, where the headers it includes must go with it.

use crate::harness::{Judge, solution};
use std::path::Path;

fn polygon() -> Judge {
    Judge::fixture("polygon")
}

#[test]
fn a_polygon_problem_judges_with_its_testlib_programs_and_own_headers() {
    let report = polygon()
        .args(&["judge", "sorting", "--json"])
        .run()
        .expect_code(0)
        .json();
    for name in ["sort.cpp", "sort.py"] {
        assert_eq!(solution(&report, name)["verdict"], "AC", "{report:#}");
    }
    let wrong = solution(&report, "as_read.py");
    assert_eq!(wrong["verdict"], "WA");
    // ncmp.cpp's own words, from the testlib checker.
    let message = wrong["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("1st numbers differ - expected: '-1', found: '3'"),
        "{message}"
    );
}

/// Polygon's own build puts testlib.h where the compiler looks for `<testlib.h>`; here the checker, validator and
/// generator include it so, and the reference its own header too, and every program is still built with the
/// problem's copy.
#[test]
fn headers_included_in_angle_brackets_are_found_as_quoted_ones_are() {
    let judge = polygon();
    let sorting = judge.root().join("problems/sorting");
    for program in [
        "checker.cpp",
        "validator.cpp",
        "generator.cpp",
        "solutions/sort.cpp",
    ] {
        let path = sorting.join(program);
        let text = std::fs::read_to_string(&path).unwrap();
        let angled = text
            .replace("#include \"testlib.h\"", "#include <testlib.h>")
            .replace("#include \"util.h\"", "#include <util.h>");
        assert_ne!(text, angled, "{program} includes a header of the problem");
        std::fs::write(&path, angled).unwrap();
    }
    let report = judge
        .args(&["judge", "sorting", "--json"])
        .run()
        .expect_code(0)
        .json();
    assert_eq!(solution(&report, "sort.cpp")["verdict"], "AC", "{report:#}");
    let wrong = solution(&report, "as_read.py");
    let message = wrong["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("1st numbers differ"), "{message}");
}

#[test]
fn a_changed_header_is_a_new_build() {
    let mut judge = polygon();
    judge
        .then(&["judge", "sorting", "--json"], b"")
        .expect_code(0);
    // The reference's own header now reads nothing: the reference must be built again, and fail.
    let util = judge.root().join("problems/sorting/solutions/util.h");
    let text = std::fs::read_to_string(&util).unwrap();
    std::fs::write(
        &util,
        text.replace("if (std::scanf(\"%d\", &n) != 1) return {};", "return {};"),
    )
    .unwrap();
    let run = judge.then(&["judge", "sorting", "--json"], b"");
    let report = run.json();
    assert_eq!(solution(&report, "sort.cpp")["verdict"], "WA", "{report:#}");
}

#[test]
fn validate_add_and_stress_run_the_testlib_programs() {
    let mut judge = polygon();
    let validated = judge.then(&["validate", "sorting"], b"").expect_code(0);
    assert!(
        validated
            .stdout()
            .contains("2 of 2 kept invalid inputs rejected with the expected message"),
        "{}",
        validated.stdout()
    );
    let added = judge
        .then(
            &["add", "sorting", "--gen", "5 {seed}", "--seeds", "1..2"],
            b"",
        )
        .expect_code(0);
    assert!(
        added
            .stdout()
            .contains("answered by sort.cpp; sort.py agrees"),
        "{}",
        added.stdout()
    );
    assert!(judge.root().join("testdata/sorting/5-2.in").is_file());
    let stressed = judge
        .then(
            &[
                "stress",
                "sorting",
                "--submission",
                "problems/sorting/solutions/as_read.py",
                "--count",
                "20",
                "--json",
            ],
            b"",
        )
        .expect_code(1);
    let failure = &stressed.json()["failure"];
    assert_eq!(failure["verdict"], "WA", "{failure:#}");
}

#[test]
fn a_submission_includes_a_header_beside_it() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("mine.h"),
        "#include <algorithm>\n#include <cstdio>\n#include <vector>\n",
    )
    .unwrap();
    let source = outside.path().join("mine.cpp");
    std::fs::write(
        &source,
        "#include \"mine.h\"\nint main() { int n; std::scanf(\"%d\", &n); std::vector<long long> a(n);\n\
         for (auto& x : a) std::scanf(\"%lld\", &x); std::sort(a.begin(), a.end());\n\
         for (auto x : a) std::printf(\"%lld \", x); std::printf(\"\\n\"); }\n",
    )
    .unwrap();
    let report = polygon()
        .args(&["judge", "sorting", "--json", "--submission"])
        .args(&[source.to_str().unwrap()])
        .run()
        .expect_code(0)
        .json();
    assert_eq!(solution(&report, "mine.cpp")["verdict"], "AC", "{report:#}");
}

/// Exported as a package, every program goes with the headers it includes: the checker, validator and generator
/// with the problem's `testlib.h`, the reference (a folder of its own now) with its `util.h`. The package then
/// judges green, and passes problemtools' verifyproblem where it is installed.
#[test]
fn an_exported_problem_takes_the_headers_its_programs_include() {
    let mut judge = polygon();
    let package = judge.root().join("sorting");
    judge
        .then(&["export", "sorting", package.to_str().unwrap()], b"")
        .expect_code(0);
    let testlib = std::fs::read(judge.root().join("problems/sorting/testlib.h")).unwrap();
    for beside in [
        "output_validators/checker",
        "input_validators/validator",
        "generators",
    ] {
        let header = package.join(beside).join("testlib.h");
        assert_eq!(
            std::fs::read(&header).ok(),
            Some(testlib.clone()),
            "{}",
            header.display()
        );
    }
    for file in ["sort.cpp", "util.h"] {
        assert!(
            package
                .join("submissions/accepted/sort")
                .join(file)
                .is_file(),
            "{file}"
        );
    }
    let report = judge
        .then(&["judge", package.to_str().unwrap(), "--json"], b"")
        .expect_code(0)
        .json();
    assert_eq!(solution(&report, "sort")["verdict"], "AC", "{report:#}");
    assert_eq!(
        solution(&report, "as_read.py")["verdict"],
        "WA",
        "{report:#}"
    );
    let Some(tool) = crate::packages::verifyproblem() else {
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("target/problemtools/languages.yaml"),
        judge.root().join("languages.yaml"),
    )
    .unwrap();
    let checked = std::process::Command::new(tool)
        .current_dir(judge.root())
        .args(["sorting", "-p", "submissions"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success() && said.contains("sorting tested: 0 errors"),
        "{said}\n{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}

#[test]
fn a_header_that_links_out_of_the_problem_is_refused_by_name() {
    let judge = polygon();
    let header = judge.root().join("problems/sorting/testlib.h");
    let elsewhere = judge.root().join("elsewhere.h");
    std::fs::rename(&header, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &header).unwrap();
    let run = judge.args(&["judge", "sorting"]).run().expect_code(2);
    let said = run.stderr();
    assert!(said.contains("testlib.h"), "{said}");
    assert!(said.contains("not a link out of it"), "{said}");
}

/// A testlib checker answering by the output's one word, as each of testlib's verdicts.
const VERDICTS_CHECKER: &str = r#"#include "testlib.h"
#include <string>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    std::string word = ouf.readToken();
    if (word == "ok") quitf(_ok, "fine");
    if (word == "wa") quitf(_wa, "wrong");
    if (word == "pe") quitf(_pe, "badly formed");
    if (word == "fail") quitf(_fail, "the answer file is broken");
    if (word == "points") quitp(2.5, "partly right");
    quitf(_wa, "unknown word %s", word.c_str());
}
"#;

#[test]
fn a_testlib_checker_verdicts_are_read_as_testlib_means_them() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/polygon");
    let testlib = std::fs::read_to_string(fixture.join("problems/sorting/testlib.h")).unwrap();
    let mut judge = Judge::fixture("polygon")
        // The checker in a folder of its own: the problem's testlib.h is found in the problem's folder.
        .write("problems/verdicts/checkers/words.cpp", VERDICTS_CHECKER)
        .write("problems/verdicts/testlib.h", &testlib)
        .write("testdata/verdicts/all/1.in", "1\n")
        .write("testdata/verdicts/all/1.ans", "ok\n");
    let mut toml = String::from(
        "title = \"testlib verdicts\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n\
         checker = \"checkers/words.cpp\"\n\n[[groups]]\nname = \"all\"\npoints = 10\nscoring = \"sum\"\n",
    );
    for (i, word) in ["ok", "wa", "pe", "fail", "points"].iter().enumerate() {
        judge = judge.write(
            &format!("problems/verdicts/solutions/{word}.py"),
            &format!("print({word:?})\n"),
        );
        toml.push_str(&format!(
            "\n[[solutions]]\npath = \"solutions/{word}.py\"\nexpected = \"AC\"\n{}",
            if i == 0 { "main = true\n" } else { "" }
        ));
    }
    judge = judge.write("problems/verdicts/problem.toml", &toml);
    let run = judge.then(&["judge", "verdicts", "--json"], b"");
    let report = run.json();
    let test = |name: &str| solution(&report, name)["tests"][0].clone();
    assert_eq!(test("ok.py")["verdict"], "AC", "{report:#}");
    assert_eq!(test("wa.py")["verdict"], "WA");
    assert_eq!(test("pe.py")["verdict"], "WA");
    assert!(
        test("pe.py")["message"]
            .as_str()
            .unwrap()
            .starts_with("presentation error"),
        "{report:#}"
    );
    // _fail is the checker's failure, never the solution's wrong answer.
    let failed = test("fail.py");
    assert_eq!(failed["verdict"], "JE", "{report:#}");
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .contains("testlib's _fail"),
        "{failed:#}"
    );
    // quitp: accepted, the points the test's score.
    let points = test("points.py");
    assert_eq!(points["verdict"], "AC", "{report:#}");
    assert_eq!(points["validator_score"]["score"], 2.5, "{points:#}");
    assert_eq!(solution(&report, "points.py")["score"], 2.5, "{report:#}");
}

/// An interactor giving points as testlib's `quitp` does (exit code 7, `points 2.5 ...` first in its message):
/// the test accepted with the points as its score, as a checker's points are.
#[test]
fn an_interactors_points_are_the_tests_score() {
    let interactor = "import sys\n\
                      print('say', flush=True)\n\
                      word = sys.stdin.readline().strip()\n\
                      if word == 'ok':\n    sys.exit(0)\n\
                      if word == 'points':\n    sys.stderr.write('points 2.5 partly right\\n')\n    sys.exit(7)\n\
                      sys.stderr.write('unknown word ' + word + '\\n')\n\
                      sys.exit(1)\n";
    let mut toml = String::from(
        "title = \"interactor points\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n\
         interactor = \"interactor.py\"\n\n[[groups]]\nname = \"all\"\npoints = 10\nscoring = \"sum\"\n",
    );
    let mut judge = Judge::fixture("polygon")
        .write("problems/talk/interactor.py", interactor)
        .write("testdata/talk/all/1.in", "1\n")
        .write("testdata/talk/all/1.ans", "1\n");
    for (i, word) in ["ok", "points", "wrong"].iter().enumerate() {
        judge = judge.write(
            &format!("problems/talk/solutions/{word}.py"),
            &format!("input()\nprint({word:?}, flush=True)\n"),
        );
        toml.push_str(&format!(
            "\n[[solutions]]\npath = \"solutions/{word}.py\"\nexpected = \"AC\"\n{}",
            if i == 0 { "main = true\n" } else { "" }
        ));
    }
    judge = judge.write("problems/talk/problem.toml", &toml);
    let report = judge.then(&["judge", "talk", "--json"], b"").json();
    let test = |name: &str| solution(&report, name)["tests"][0].clone();
    assert_eq!(test("ok.py")["verdict"], "AC", "{report:#}");
    assert_eq!(test("wrong.py")["verdict"], "WA", "{report:#}");
    let points = test("points.py");
    assert_eq!(points["verdict"], "AC", "{report:#}");
    assert_eq!(points["validator_score"]["score"], 2.5, "{points:#}");
    assert_eq!(solution(&report, "points.py")["score"], 2.5, "{report:#}");
}
