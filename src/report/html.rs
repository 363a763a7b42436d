//! The HTML report: one self-contained page (no network, no script or font from elsewhere) that reads as the
//! terminal's table does: a row per solution first, then the solution x test matrix with each run's verdict and
//! time (its numbers and message behind its cell), then per solution its compile error or its first failure with
//! the test's texts, and plots of CPU time and memory per test against the limits; how it was judged comes last.
//! Rendered from a template; the plots are inline SVG.

use super::Origin;
use super::plot::{self, Axes, Point};
use crate::judge::{JudgeReport, SolutionReport, TestResult};
use crate::sandbox;
use crate::units::format_time;
use crate::verdict::Verdict;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};

const TEMPLATE: &str = include_str!("html/report.html");

#[derive(Serialize)]
struct Page {
    problem: String,
    ok: bool,
    summary: String,
    time_limit: String,
    time_limit_origin: Option<String>,
    /// How a fixed limit compares with the rule of the package's format, and the warning when it is below it.
    time_limit_check: Option<String>,
    time_limit_warning: Option<String>,
    /// What `timelimit` suggested for these references and tests, and where and when.
    suggested_time_limit: Option<String>,
    memory_limit: String,
    /// What the package holds that was judged otherwise than its format says, each with its file.
    warnings: Vec<String>,
    all_tests: bool,
    tests: Vec<String>,
    isolation: Vec<Layer>,
    host: String,
    date: String,
    /// The machine's CPU, kernel and cgroup mode; the cpjudge that judged; the checker's build.
    fingerprint: String,
    cpjudge: String,
    checker: Option<String>,
    /// How many runs were taken from earlier judges, where any was.
    reused: Option<String>,
    /// What each solution was built from and into: "name: toolchain; source S, build B, executable E".
    builds: Vec<String>,
    solutions: Vec<Column>,
    /// The solutions not judged here, each as "name (language): why".
    skipped: Vec<String>,
    rows: Vec<Row>,
    /// A scoring problem's groups, parents before children; none for a pass-fail problem.
    groups: Vec<GroupRow>,
    /// What the page's script shows of each run, kept apart from the matrix so that a large one stays light.
    runs: Runs,
}

/// A group's verdict and score for each solution, and its own tests' (those in no group below it).
#[derive(Serialize)]
struct GroupRow {
    name: String,
    depth: usize,
    counted: bool,
    max: Option<String>,
    cells: Vec<String>,
    tests: Vec<GroupTest>,
}

#[derive(Serialize)]
struct GroupTest {
    name: String,
    cells: Vec<String>,
}

#[derive(Serialize)]
struct Layer {
    name: &'static str,
    active: bool,
    detail: String,
}

#[derive(Serialize)]
struct Column {
    name: String,
    language: &'static str,
    expected: String,
    verdict: &'static str,
    ok: bool,
    /// The CPU time of its slowest run and its highest peak memory, "-" when it ran nothing.
    slowest: String,
    most_memory: String,
    /// Its tests accepted, of all the tests: "3/35".
    passed: String,
    /// The compiler's message, when it did not compile.
    compile_error: Option<String>,
    /// Its first failing run.
    failure: Option<Failure>,
    /// A scoring problem's score, "50/100".
    score: Option<String>,
    /// The rules beyond its verdict it broke.
    broken: Vec<String>,
    /// What is said of it besides its verdict (sensitive to the time limit).
    notes: Vec<String>,
    cpu_plot: String,
    memory_plot: String,
}

/// A solution's first failing run, as the terminal shows it: the test, the numbers, the message, and the texts
/// that show the failure (the test whole beside the output, or the first differing lines, or the dialogue).
#[derive(Serialize)]
struct Failure {
    heading: String,
    message: String,
    texts: Option<Texts>,
    /// The first differing lines or the dialogue, where the test is not short enough to show whole.
    more: Option<String>,
}

#[derive(Serialize)]
struct Texts {
    input: String,
    answer: String,
    output: String,
}

#[derive(Serialize)]
struct Row {
    test: String,
    cells: Vec<Option<Cell>>,
}

#[derive(Serialize)]
struct Cell {
    verdict: &'static str,
    /// A run that went wrong in a way its solution is not expected to.
    unexpected: bool,
    /// Its CPU time.
    time: String,
}

/// The runs' details, by test and solution, as the page's script reads them.
#[derive(Serialize)]
struct Runs {
    solutions: Vec<String>,
    tests: Vec<String>,
    /// By row, then column: none where the solution did not run the test.
    runs: Vec<Vec<Option<RunDetail>>>,
    /// By column: why a test was not run.
    not_run: Vec<&'static str>,
}

/// Why a solution that did not compile ran no test: what its cells say.
const NOT_COMPILED: &str = "not run: compile error";

/// A run's CPU and wall time and memory, in one line; what it said; and the diff or dialogue: a list that ends at
/// its last text, since most runs say nothing more than their numbers.
#[derive(Serialize)]
struct RunDetail(Vec<String>);

/// Writes the page for `report`.
pub fn write_html(report: &JudgeReport, origin: &Origin, out: &mut dyn Write) -> io::Result<()> {
    render("report.html", TEMPLATE, &page(report, origin), out)
}

/// Writes the page `template` (named `name`) makes of `page`.
pub(super) fn render(
    name: &'static str,
    template: &'static str,
    page: &impl Serialize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut env = minijinja::Environment::new();
    env.add_template(name, template).map_err(io::Error::other)?;
    let html = env
        .get_template(name)
        .and_then(|t| t.render(minijinja::value::Serde(page)))
        .map_err(io::Error::other)?;
    out.write_all(html.as_bytes())
}

fn page(report: &JudgeReport, origin: &Origin) -> Page {
    let unexpected: Vec<&str> = report
        .solutions
        .iter()
        .filter(|s| !s.ok)
        .map(|s| s.name.as_str())
        .collect();
    let summary = if report.interrupted.is_some() {
        "interrupted: the report is incomplete".to_owned()
    } else if unexpected.is_empty() {
        format!("all {} solutions as expected", report.solutions.len())
    } else {
        format!("not as expected: {}", unexpected.join(", "))
    };
    let positions = report.positions();
    let mut rows: Vec<Row> = report
        .tests
        .iter()
        .map(|test| Row {
            test: test.to_owned(),
            cells: report.solutions.iter().map(|_| None).collect(),
        })
        .collect();
    let mut runs: Vec<Vec<Option<RunDetail>>> = report
        .tests
        .iter()
        .map(|_| report.solutions.iter().map(|_| None).collect())
        .collect();
    for (column, solution) in report.solutions.iter().enumerate() {
        for test in &solution.tests {
            if let Some(&row) = positions.get(test.name.as_str()) {
                rows[row].cells[column] = Some(Cell {
                    verdict: test.verdict.code(),
                    unexpected: !test.verdict.is_accepted()
                        && !solution.expected.contains(&test.verdict),
                    time: format_time(test.cpu),
                });
                runs[row][column] = Some(detail(test));
            }
        }
    }
    let isolation = sandbox::Layer::ALL
        .into_iter()
        .map(|layer| {
            let status = origin.isolation.status(layer);
            Layer {
                name: layer.name(),
                active: status.active,
                detail: status.detail.clone(),
            }
        })
        .collect();
    Page {
        problem: report.problem.clone(),
        ok: report.all_as_expected(),
        summary,
        time_limit: format_time(report.time_limit),
        time_limit_origin: report.time_limit_origin.clone(),
        time_limit_check: report.time_limit_check.as_ref().map(|c| c.summary()),
        time_limit_warning: report.time_limit_warning(),
        suggested_time_limit: report
            .suggested_time_limit
            .as_ref()
            .map(super::suggestion_text),
        memory_limit: report.memory_limit.to_string(),
        warnings: report.warnings.iter().map(|w| w.to_string()).collect(),
        all_tests: report.all_tests,
        tests: report.tests.iter().map(str::to_owned).collect(),
        isolation,
        host: origin.host.clone(),
        date: origin.date.clone(),
        // A report of an older version, read back, has none.
        fingerprint: match origin.fingerprint == Default::default() {
            true => String::new(),
            false => origin.fingerprint.to_string(),
        },
        cpjudge: origin.cpjudge.clone(),
        checker: report.checker.clone(),
        reused: match report.runs_reused() {
            (_, 0) => None,
            (runs, reused) => Some(format!(
                "{reused} of {runs}, nothing they depend on changed since"
            )),
        },
        builds: report
            .solutions
            .iter()
            .filter_map(|s| {
                let b = s.build.as_ref()?;
                Some(format!(
                    "{}: {}; source {}, build {}, executable {}",
                    s.name, b.toolchain, b.source, b.key, b.executable
                ))
            })
            .collect(),
        solutions: report
            .solutions
            .iter()
            .map(|s| column(report, &positions, s))
            .collect(),
        skipped: report
            .skipped
            .iter()
            .map(|s| {
                let language = s.language.as_deref().unwrap_or("no known language");
                format!("{} ({language}): {}", s.name, s.why)
            })
            .collect(),
        groups: group_rows(report),
        rows,
        runs: Runs {
            solutions: report.solutions.iter().map(|s| s.name.clone()).collect(),
            tests: report.tests.iter().map(str::to_owned).collect(),
            runs,
            not_run: report
                .solutions
                .iter()
                .map(|s| {
                    if s.verdict == Verdict::CompileError {
                        NOT_COMPILED
                    } else if report.partition.is_some() {
                        "not run here (another share of the judge runs it, or it comes after the solution's first failure)"
                    } else {
                        "not run (it comes after the solution's first failure)"
                    }
                })
                .collect(),
        },
    }
}

/// Each group of any solution, with every solution's result in it and in its own tests.
fn group_rows(report: &JudgeReport) -> Vec<GroupRow> {
    use crate::scoring::show;
    let mut names: Vec<&crate::scoring::GroupResult> = Vec::new();
    for group in report.solutions.iter().flat_map(|s| &s.groups) {
        if !names.iter().any(|g| g.name == group.name) {
            names.push(group);
        }
    }
    // A test is the group's own when no deeper group holds it.
    let owner = |test: &str| {
        names
            .iter()
            .filter(|g| test.starts_with(&format!("{}/", g.name)))
            .max_by_key(|g| g.name.len())
            .map(|g| g.name.clone())
    };
    names
        .iter()
        .map(|group| GroupRow {
            name: group.name.clone(),
            depth: group.name.matches('/').count(),
            counted: group.counted,
            max: group.max.map(show),
            cells: report
                .solutions
                .iter()
                .map(|s| match s.groups.iter().find(|g| g.name == group.name) {
                    Some(g) => g.verdict.map_or("-".to_owned(), |v| {
                        format!("{} {}", v.code(), show(g.score))
                    }),
                    None => "-".to_owned(),
                })
                .collect(),
            tests: report
                .tests
                .iter()
                .filter(|t| owner(t).as_deref() == Some(group.name.as_str()))
                .map(|t| GroupTest {
                    name: t.to_owned(),
                    cells: report
                        .solutions
                        .iter()
                        .map(|s| match s.tests.iter().find(|r| r.name == t) {
                            Some(r) => match r.score {
                                Some(score) => format!("{} {}", r.verdict.code(), show(score)),
                                None => r.verdict.code().to_owned(),
                            },
                            None => "-".to_owned(),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

fn detail(test: &TestResult) -> RunDetail {
    let numbers = format!(
        "CPU {}, wall {}, memory {}",
        format_time(test.cpu),
        format_time(test.wall),
        test.memory.measured()
    );
    let more = match evidence(test) {
        Some(Evidence::Texts(t)) => [
            ("input", t.input),
            ("expected", t.answer),
            ("output", t.output),
        ]
        .map(|(title, text)| format!("{title}:\n{}", text.strip_suffix('\n').unwrap_or(&text)))
        .join("\n\n"),
        Some(Evidence::Lines(lines)) => lines,
        None => String::new(),
    };
    let numbers = match test.trace.as_deref() {
        Some(trace) => format!(
            "{numbers}; {} record {} (input {}, answer {})",
            if trace.reused {
                "taken from an earlier judge:"
            } else {
                "kept as"
            },
            trace.key,
            trace.input,
            trace.answer
        ),
        None => numbers,
    };
    let mut texts = vec![numbers, crate::text::bound(&test.message, 4096), more];
    while texts.last().is_some_and(String::is_empty) {
        texts.pop();
    }
    RunDetail(texts)
}

/// What shows how a run went wrong, as the terminal shows it (`table::write_evidence`): an interactive test's
/// dialogue, else a short test whole beside the output, else the first differing lines.
enum Evidence {
    Texts(Texts),
    Lines(String),
}

fn evidence(test: &TestResult) -> Option<Evidence> {
    let lines =
        |text: &str| (!text.is_empty()).then(|| Evidence::Lines(crate::text::bound(text, 4096)));
    if let Some(dialogue) = &test.dialogue {
        lines(dialogue)
    } else if let Some(t) = &test.texts {
        Some(Evidence::Texts(texts(t)))
    } else {
        test.diff.as_deref().and_then(lines)
    }
}

/// A short test's files and the output, as text (bytes that are not UTF-8 as U+FFFD), an empty one said so.
fn texts(texts: &crate::judge::TestTexts) -> Texts {
    let text = |bytes: &[u8]| {
        if bytes.is_empty() {
            "(empty)".to_owned()
        } else {
            String::from_utf8_lossy(bytes).into_owned()
        }
    };
    Texts {
        input: text(&texts.input),
        answer: text(&texts.answer),
        output: text(&texts.output),
    }
}

/// The first failing run of `solution`, if any.
fn failure(solution: &SolutionReport) -> Option<Failure> {
    let test = solution.tests.iter().find(|t| !t.verdict.is_accepted())?;
    let (texts, more) = match evidence(test) {
        Some(Evidence::Texts(texts)) => (Some(texts), None),
        Some(Evidence::Lines(lines)) => (None, Some(lines)),
        None => (None, None),
    };
    Some(Failure {
        heading: format!(
            "{} on test {} ({} CPU, {})",
            test.verdict.code(),
            test.name,
            format_time(test.cpu),
            test.memory.measured()
        ),
        message: crate::text::bound(&test.message, 4096),
        texts,
        more,
    })
}

fn column(
    report: &JudgeReport,
    positions: &HashMap<&str, usize>,
    solution: &SolutionReport,
) -> Column {
    let compiled = solution.verdict != Verdict::CompileError;
    // A point per run: its test's place, and `value` of the run.
    let points = |value: fn(&TestResult) -> f64| -> Vec<Point> {
        solution
            .tests
            .iter()
            .map(|t| Point {
                test: positions.get(t.name.as_str()).copied().unwrap_or(0),
                value: value(t),
                failed: !t.verdict.is_accepted(),
            })
            .collect()
    };
    let ran = !solution.tests.is_empty();
    Column {
        name: solution.name.clone(),
        language: solution.language.name(),
        expected: solution
            .expected
            .iter()
            .map(|v| v.code())
            .collect::<Vec<_>>()
            .join(" or "),
        verdict: solution.verdict.code(),
        ok: solution.ok,
        slowest: if ran {
            format_time(solution.max_cpu())
        } else {
            "-".to_owned()
        },
        most_memory: if ran {
            solution.max_memory().measured()
        } else {
            "-".to_owned()
        },
        passed: format!(
            "{}/{}",
            solution
                .tests
                .iter()
                .filter(|t| t.verdict.is_accepted())
                .count(),
            report.tests.len()
        ),
        score: super::grid::score_text(solution),
        broken: solution.broken.clone(),
        compile_error: (!compiled).then(|| crate::text::bound(&solution.compile.message, 16384)),
        failure: failure(solution),
        notes: report.notes(solution),
        // A solution that did not compile has no runs to plot.
        cpu_plot: if compiled {
            plot::svg(
                &points(|t| t.cpu.as_secs_f64()),
                &Axes {
                    tests: &report.tests,
                    limit: report.time_limit.as_secs_f64(),
                    suggested: report
                        .suggested_time_limit
                        .as_ref()
                        .map(|s| s.limit_ms as f64 / 1000.0),
                    what: "CPU",
                },
            )
        } else {
            String::new()
        },
        memory_plot: if compiled {
            plot::svg(
                &points(|t| t.memory.0 as f64),
                &Axes {
                    tests: &report.tests,
                    limit: report.memory_limit.0 as f64,
                    suggested: None,
                    what: "memory",
                },
            )
        } else {
            String::new()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::json::tests::sample_report;
    use crate::sandbox::Isolation;

    fn page_of(report: &JudgeReport) -> String {
        let origin = Origin {
            isolation: Isolation::off(),
            host: "judge-1".into(),
            date: "2026-11-23T14:00:00Z".into(),
            fingerprint: Default::default(),
            cpjudge: String::new(),
        };
        let mut out = Vec::new();
        write_html(report, &origin, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_a_solution_printed_cannot_end_the_script_or_add_markup() {
        let mut report = sample_report();
        let hostile = "</script><script>alert(1)</script><b>bold</b>";
        report.solutions[1].tests[0].message = hostile.into();
        report.solutions[1].name = "<i>name</i>".into();
        let page = page_of(&report);
        assert!(!page.contains("alert(1)</script>"), "{page}");
        assert!(!page.contains("<b>bold"), "{page}");
        assert!(!page.contains("<i>name"), "{page}");
        // Still there, as text.
        assert!(page.contains("alert(1)"), "{page}");
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
    }

    #[test]
    fn every_run_has_its_cell_and_its_details() {
        let report = sample_report();
        let page = page_of(&report);
        // Two tests x three solutions: three runs, three cells not run.
        assert_eq!(
            page.matches(r#"<td data-verdict="AC""#).count(),
            2,
            "{page}"
        );
        assert_eq!(
            page.matches(r#"<td data-verdict="WA" class="unexpected""#)
                .count(),
            1,
            "{page}"
        );
        // Not run: after off_by_one's first failure, and broken's two, since it did not compile.
        assert_eq!(page.matches(r#"<td data-verdict="">"#).count(), 1, "{page}");
        assert_eq!(
            page.matches(r#"<td data-verdict="" class="ce">not run: compile error</td>"#)
                .count(),
            2,
            "{page}"
        );
        // Each run's time beside its verdict.
        assert!(
            page.contains(r#"<td data-verdict="AC">AC <small>7ms</small></td>"#),
            "{page}"
        );
        let start = page.find(r#"id="runs">"#).unwrap() + r#"id="runs">"#.len();
        let end = start + page[start..].find("</script>").unwrap();
        let runs: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
        assert_eq!(runs["tests"], serde_json::json!(["1", "2"]));
        assert_eq!(
            runs["runs"][0][1][1],
            "token 1: expected \"4\", found \"5\""
        );
        assert_eq!(runs["runs"][0][1][2], "-4\n+5");
        // A run that said nothing has its numbers alone.
        assert_eq!(runs["runs"][0][0].as_array().unwrap().len(), 1);
        assert_eq!(runs["runs"][1][1], serde_json::Value::Null);
        assert_eq!(runs["not_run"][2], NOT_COMPILED);
    }

    #[test]
    fn a_row_per_solution_comes_first_and_the_isolation_last() {
        let page = page_of(&sample_report());
        let summary = page.find(r#"<table class="summary">"#).unwrap();
        assert!(summary < page.find("verdict-matrix").unwrap(), "{page}");
        assert!(page.find("<dt>cgroup</dt>").unwrap() > page.find(r#"id="plots""#).unwrap());
        let row = &page[page.find(r#"<tr data-solution="ref">"#).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        for cell in [">ref<", ">AC<", ">2&#x2f;2<", ">7ms<", ">as expected<"] {
            assert!(row.contains(cell), "{row} lacks {cell}");
        }
        let row = &page[page.find(r#"<tr data-solution="off_by_one">"#).unwrap()..];
        assert!(row[..row.find("</tr>").unwrap()].contains(">NOT AS EXPECTED<"));
    }

    #[test]
    fn a_compile_error_has_a_panel_and_a_wrong_answer_its_texts() {
        let mut report = sample_report();
        report.solutions[1].tests[0].texts = Some(Box::new(crate::judge::TestTexts {
            input: b"2\n1 3\n".to_vec(),
            answer: b"4\n".to_vec(),
            output: b"5\n".to_vec(),
        }));
        report.solutions[2].compile.message =
            "broken.c: In function 'main':\nbroken.c:1:1: error: expected ';'".into();
        let page = page_of(&report);
        assert!(
            page.contains(
                "<pre class=\"compile-error\">broken.c: In function &#x27;main&#x27;:\nbroken.c:1:1: error: expected &#x27;;&#x27;</pre>"
            ),
            "{page}"
        );
        // Not squashed into the heading.
        assert!(
            page.contains("<h3>broken <small>(C; expected CE; got CE)</small></h3>"),
            "{page}"
        );
        assert!(
            page.contains("<p class=\"failure\">WA on test 1 (1ms CPU, "),
            "{page}"
        );
        assert!(
            page.contains("<pre class=\"input\">2\n1 3\n</pre>"),
            "{page}"
        );
        assert!(page.contains("<pre class=\"output\">5\n</pre>"), "{page}");
        // The selected run shows them too.
        assert!(
            page.contains(r#""input:\n2\n1 3\n\nexpected:\n4\n\noutput:\n5""#),
            "{page}"
        );
    }

    #[test]
    fn groups_fold_open_to_their_tests() {
        let page = page_of(&crate::report::json::tests::scored_report());
        assert!(
            page.contains("<summary>secret&#x2f;group2</summary>"),
            "{page}"
        );
        assert!(
            page.contains("<summary>sample (not counted)</summary>"),
            "{page}"
        );
        assert!(page.contains("partial_greedy.py: 40&#x2f;100"), "{page}");
        assert!(page.contains("<td>WA 0</td><td>-</td>"), "{page}");
        assert!(
            page.contains("broke: problem.toml: samples_only.rs"),
            "{page}"
        );
        // A pass-fail problem has no groups section.
        let plain = page_of(&crate::report::json::tests::sample_report());
        assert!(!plain.contains("id=\"groups\""), "{plain}");
    }
}
