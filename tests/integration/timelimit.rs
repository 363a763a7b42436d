//! `cpjudge timelimit` on a copy of the bundled knight-tour: both references timed with a margin, a suggested
//! limit, and the solution expected TLE shown far from finishing within 1.5 x the limit.

use crate::harness::{Judge, solution as timing};
use serde_json::Value;

#[test]
fn knight_tour_references_margins_and_a_suggestion() {
    let run = Judge::bundled(&["knight-tour"])
        .args(&["timelimit", "knight-tour", "--runs", "2", "--json"])
        .run()
        .expect_code(0);
    let report = run.json();
    assert_eq!(report["problem"], "knight-tour");
    assert_eq!(report["time_limit_ms"], 1000);
    assert_eq!(report["runs"], 2);
    assert_eq!(report["tests"], 65);

    for name in ["warnsdorff.rs", "cyclic_shift.rs"] {
        let reference = timing(&report, name);
        assert_eq!(reference["role"], "reference", "{name}");
        assert_eq!(reference["ran_under_ms"], 3000, "{name}");
        assert_eq!(reference["timed_out"], serde_json::json!([]), "{name}");
        let slowest = &reference["slowest"];
        assert!(
            slowest["min_ms"].as_u64() <= slowest["max_ms"].as_u64(),
            "{name}"
        );
        // Two runs per test at least (a borderline one is run again).
        assert!(slowest["runs"].as_u64().unwrap() >= 2, "{name}");
        let margin = reference["margin"].as_f64().unwrap();
        assert!(margin > 1.0, "{name}: margin {margin}");
    }

    let slowest = report["slowest_reference_ms"].as_u64().unwrap();
    let suggested = report["suggested_time_limit_ms"].as_u64().unwrap();
    assert_eq!(suggested % 100, 0, "{suggested}");
    // x 2, rounded up to the next 100 ms, and at least the floor (1 s unless problem.toml says otherwise).
    assert_eq!(report["time_limit_floor_ms"], 1000);
    assert!(
        suggested >= (2 * slowest).max(1000),
        "{suggested} for {slowest}"
    );
    assert!(
        suggested < (2 * slowest + 101).max(1001),
        "{suggested} for {slowest}"
    );

    // Killed under 1.5 x the limit on most tests: no warning about it, and no time that hides the kills.
    let brute = timing(&report, "plain_backtracking.rs");
    assert_eq!(brute["role"], "expected_tle");
    assert_eq!(brute["ran_under_ms"], 1500);
    let killed = brute["timed_out"].as_array().unwrap().len();
    assert!(killed >= 30, "killed on only {killed} tests: {brute:#}");
    assert_eq!(brute["margin"], Value::Null);
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .all(|w| w["solution"] != "plain_backtracking.rs"),
        "{warnings:#?}"
    );
    assert_eq!(report["skipped"][0]["name"], "fixed_tour.rs");
}

#[test]
fn the_table_shows_the_kill_and_the_suggestion() {
    // sample-1 is a start plain_backtracking never finishes; sq-00 one it finishes at once.
    let args = [
        "timelimit",
        "knight-tour",
        "--runs",
        "1",
        "--test",
        "sample-1",
        "--test",
        "sq-00",
    ];
    let run = Judge::bundled(&["knight-tour"])
        .args(&args)
        .run()
        .expect_code(0);
    let (stdout, stderr) = (run.stdout(), run.stderr());
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{stdout}"))
            .to_owned()
    };
    assert!(row("warnsdorff.rs").contains(" x"), "{stdout}");
    assert!(row("plain_backtracking.rs").contains(">1.50s"), "{stdout}");
    assert!(
        row("plain_backtracking.rs").contains("killed on 1/2"),
        "{stdout}"
    );
    assert!(stdout.contains("suggested limit: "), "{stdout}");
    assert!(!stdout.contains("warning:"), "{stdout}");
    // Progress goes to stderr, never into the table.
    assert!(
        stderr.contains("run 1/1: plain_backtracking.rs on 2 tests under 1.50s"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let mut project = Judge::bundled(&["knight-tour"]);
    let stderr = project
        .then(&["timelimit", "no-such-problem"], b"")
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("unknown problem \"no-such-problem\""),
        "{stderr}"
    );
    project
        .then(&["timelimit", "knight-tour", "--runs", "0"], b"")
        .expect_code(2);
    let stderr = project
        .then(&["timelimit", "knight-tour", "--test", "nothing-*"], b"")
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("no test matches --test nothing-*"),
        "{stderr}"
    );
}

#[test]
fn the_judge_reports_show_the_suggestion_for_the_same_references_and_tests() {
    // A cache of its own: the suggestion is kept there, and would otherwise show in other tests' reports.
    let cache = tempfile::tempdir().unwrap();
    let mut project = Judge::fixture("basic").cache(cache.path());
    let timed = project
        .then(&["timelimit", "sum", "--runs", "1", "--json"], b"")
        .expect_code(0);
    let suggested = timed.json()["suggested_time_limit_ms"].as_u64().unwrap();

    // The problem's own solutions are judged with its references known to be timed.
    let own = ["judge", "sum", "--json"];
    let judged = project
        .then(&[&own[..], &["--html", "r.html"]].concat(), b"")
        .expect_code(0);
    let kept = &judged.json()["suggested_time_limit"];
    assert_eq!(kept["limit_ms"], suggested, "{kept:#}");
    assert_eq!(kept["runs"], 1, "{kept:#}");
    assert!(kept["date"].as_str().unwrap().starts_with("20"), "{kept:#}");
    // A contestant's submission is judged under the problem's limit: the setter's suggestion is not theirs.
    let ac_py = [
        "judge",
        "sum",
        "--submission",
        "problems/sum/solutions/ac.py",
        "--json",
    ];
    let submitted = project.then(&ac_py, b"").expect_code(0);
    assert_eq!(submitted.json()["suggested_time_limit"], Value::Null);
    let submitted = project.then(&ac_py[..4], b"").expect_code(0);
    assert!(
        !submitted.stdout().contains("suggested time limit"),
        "{}",
        submitted.stdout()
    );
    let page = std::fs::read_to_string(project.root().join("r.html")).unwrap();
    assert!(
        page.contains("suggested time limit"),
        "no suggestion on the page"
    );
    assert!(
        page.contains("stroke=\"#5A5A5A\""),
        "no dashed line in the plot"
    );

    // Other tests, or a changed reference: the suggestion says nothing about them.
    // The table says it too.
    let table = project.then(&own[..2], b"").expect_code(0);
    assert!(
        table
            .stdout()
            .lines()
            .any(|line| line.starts_with("suggested time limit: ")
                && line.contains(" by timelimit: slowest reference ")),
        "{}",
        table.stdout()
    );
    let fewer = project
        .then(&["judge", "sum", "--test", "1", "--json"], b"")
        .expect_code(0);
    assert_eq!(fewer.json()["suggested_time_limit"], Value::Null);
    let reference = project.root().join("problems/sum/solutions/ac.py");
    let mut source = std::fs::read_to_string(&reference).unwrap();
    source.push_str("\n# changed\n");
    std::fs::write(&reference, source).unwrap();
    let changed = project.then(&own, b"").expect_code(0);
    assert_eq!(changed.json()["suggested_time_limit"], Value::Null);
}

/// The sum of the numbers on stdin, at once.
const FAST_CPP: &str = "#include <iostream>
int main() { long long s = 0, x; while (std::cin >> x) s += x; std::cout << s << '\\n'; }
";

/// The same sum after a busy loop (no sleep: CPU time is what is timed) of some tens of millions of steps: tens
/// of times the C++ one's time on any machine, loaded or not.
const SLOW_PY: &str = "import sys
x = 0
for i in range(8_000_000):
    x ^= i
print(sum(int(t) for t in sys.stdin.read().split()) + (x & 0))
";

/// A project with problem `busy`: `problem_toml` and the solutions named there, from `files`, and one test.
fn busy(problem_toml: &str, files: &[(&str, &str)]) -> Judge {
    let mut judge = Judge::fixture("basic")
        .write("problems/busy/problem.toml", problem_toml)
        .write("testdata/busy/1.in", "2 3\n")
        .write("testdata/busy/1.ans", "5\n");
    for (path, text) in files {
        judge = judge.write(&format!("problems/busy/{path}"), text);
    }
    judge
}

const ONE_CPP: &str = "title = \"busy\"
time_limit = \"5s\"
memory_limit = \"256MiB\"
FLOOR

[[solutions]]
path = \"solutions/main.cpp\"
expected = \"AC\"
main = true
";

#[test]
fn a_reference_of_a_few_milliseconds_gets_the_floor() {
    let cache = tempfile::tempdir().unwrap();
    let mut project = busy(
        &ONE_CPP.replace("FLOOR", ""),
        &[("solutions/main.cpp", FAST_CPP)],
    )
    .cache(cache.path());
    let report = project
        .then(&["timelimit", "busy", "--runs", "1", "--json"], b"")
        .expect_code(0)
        .json();
    let slowest = report["slowest_reference_ms"].as_u64().unwrap();
    assert!(slowest < 450, "{report:#}");
    // Not 100 ms: the default floor, 1 s, as Kattis has.
    assert_eq!(report["time_limit_floor_ms"], 1000, "{report:#}");
    assert_eq!(report["suggested_time_limit_ms"], 1000, "{report:#}");
    assert_eq!(report["suggested_by"]["floor"], true, "{report:#}");
    assert_eq!(report["suggested_by"]["language"], "C++", "{report:#}");
    assert_eq!(report["suggested_by"]["solution"], "main.cpp", "{report:#}");

    // The suggestion the judge's reports show follows the same rule.
    let judged = project
        .then(&["judge", "busy", "--json"], b"")
        .expect_code(0)
        .json();
    let kept = &judged["suggested_time_limit"];
    assert_eq!(kept["limit_ms"], 1000, "{kept:#}");
    assert_eq!(kept["floor_ms"], 1000, "{kept:#}");
    assert_eq!(kept["language"], "C++", "{kept:#}");

    // A floor of problem.toml's own is obeyed, below the default or above it.
    for (floor, want) in [("300ms", 300), ("2500ms", 2500)] {
        let toml = ONE_CPP.replace("FLOOR", &format!("time_limit_floor = \"{floor}\""));
        std::fs::write(project.root().join("problems/busy/problem.toml"), toml).unwrap();
        let run = project
            .then(&["timelimit", "busy", "--runs", "1"], b"")
            .expect_code(0);
        let stdout = run.stdout();
        let line = stdout
            .lines()
            .find(|l| l.starts_with("suggested limit: "))
            .unwrap_or_else(|| panic!("{stdout}"));
        let shown = if want < 1000 {
            format!("{want}ms")
        } else {
            format!("{:.2}s", want as f64 / 1000.0)
        };
        assert!(
            line.starts_with(&format!("suggested limit: {shown}, the floor")),
            "{floor}: {stdout}"
        );
    }
}

#[test]
fn the_slowest_language_sets_the_limit_and_says_so() {
    let toml = ONE_CPP.replace("FLOOR", "time_limit_floor = \"100ms\"")
        + "\n[[solutions]]\npath = \"solutions/slow.py\"\nexpected = \"AC\"\n";
    let cache = tempfile::tempdir().unwrap();
    let mut project = busy(
        &toml,
        &[
            ("solutions/main.cpp", FAST_CPP),
            ("solutions/slow.py", SLOW_PY),
        ],
    )
    .cache(cache.path());
    let report = project
        .then(&["timelimit", "busy", "--runs", "1", "--json"], b"")
        .expect_code(0)
        .json();
    assert_eq!(timing(&report, "slow.py")["language"], "Python 3");
    let languages = report["languages"].as_array().unwrap();
    let own = |name: &str| {
        languages
            .iter()
            .find(|l| l["language"] == name)
            .unwrap_or_else(|| panic!("no {name} in {report:#}"))["suggested_ms"]
            .as_u64()
            .unwrap()
    };
    let (cpp, python) = (own("C++"), own("Python 3"));
    assert!(python > cpp, "{report:#}");
    assert_eq!(report["suggested_time_limit_ms"], python, "{report:#}");
    assert_eq!(report["suggested_by"]["language"], "Python 3", "{report:#}");
    assert_eq!(report["suggested_by"]["solution"], "slow.py", "{report:#}");
    assert_eq!(report["suggested_by"]["floor"], false, "{report:#}");
    assert_eq!(
        report["suggested_by"]["slowest_ms"],
        report["slowest_reference_ms"]
    );

    let table = project
        .then(&["timelimit", "busy", "--runs", "1"], b"")
        .expect_code(0)
        .stdout();
    assert!(table.contains("per language:    C++ "), "{table}");
    assert!(table.contains("set by slow.py (Python 3)"), "{table}");
}
