//! The HTML report, rendered by headless Chromium: a row per solution, a cell per run with its verdict and time,
//! a compile error's and a wrong answer's evidence, and the plots, whose labels are measured in the browser. A
//! screenshot of each page is kept under target/test-artifacts/ to look at (tests/screenshots keeps copies).

use crate::harness::{BUNDLED, Judge, skip};
use assert_cmd::Command;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Debian's Chromium, or another on PATH; None (after saying why) where there is none and none is required.
pub fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(path) = which::which(name) {
            return Some(path);
        }
    }
    let why = "no Chromium on PATH (.ci/install-chromium installs Debian's)";
    assert!(
        std::env::var_os("CPJUDGE_TEST_REQUIRE_CHROMIUM").is_none(),
        "{why}"
    );
    skip(why);
    None
}

/// Chromium, headless, on `page` at `fragment` (`#...`, or empty), with `args`: what it printed.
pub fn headless(chromium: &Path, page: &Path, args: &[&str], fragment: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(chromium)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}{fragment}", page.display()))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The value of attribute `name` in each element of the DOM that has it, in document order.
fn attributes<'a>(dom: &'a str, name: &str) -> Vec<&'a str> {
    let marker = format!(" {name}=\"");
    dom.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &dom[at + marker.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn the_html_report_renders_every_run_and_the_plots() {
    let Some(chromium) = chromium() else {
        return;
    };
    for problem in BUNDLED {
        let mut project = Judge::bundled(&[problem]);
        let page = project.root().join("report.html");
        let run = project
            .then(&["judge", problem, "--json", "--html", "report.html"], b"")
            .expect_code(0);
        check_page(
            &chromium,
            &page,
            &run.json(),
            problem,
            &format!("report-{problem}.png"),
        );
    }
}

/// Checks the page of `problem`'s judge at `page` against its JSON report in the browser: a cell per run with its
/// verdict, two plots per solution with a point per run, and a run's detail shown from its address. A screenshot
/// is kept under target/test-artifacts/ as `shot`.
pub fn check_page(
    chromium: &Path,
    page: &Path,
    report: &serde_json::Value,
    problem: &str,
    shot: &str,
) {
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let dom = headless(chromium, page, &["--dump-dom"], "");

    // The cells, row by row (a test per row, a solution per column), as the DOM has them after rendering.
    let cells = attributes(&dom, "data-verdict");
    let tests = report["tests"].as_array().unwrap();
    let solutions = report["solutions"].as_array().unwrap();
    assert_eq!(cells.len(), tests.len() * solutions.len(), "{problem}");
    for (row, test) in tests.iter().enumerate() {
        for (column, solution) in solutions.iter().enumerate() {
            let ran = solution["tests"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == *test)
                .map_or("", |t| t["verdict"].as_str().unwrap());
            assert_eq!(
                cells[row * solutions.len() + column],
                ran,
                "{problem}: {} on {test}",
                solution["name"]
            );
        }
    }
    // Two plots per solution, with a point per run: each a dot in a path of the plot's runs.
    let plots = dom.matches("<svg").count();
    assert_eq!(plots, 2 * solutions.len(), "{problem}");
    let runs: usize = solutions
        .iter()
        .map(|s| s["tests"].as_array().unwrap().len())
        .sum();
    let dots: usize = dom
        .match_indices("<path class=\"runs ")
        .map(|(at, _)| {
            let path = &dom[at..];
            let d = attributes(&path[..path.find(">").unwrap()], "d")[0];
            d.matches('M').count()
        })
        .sum();
    assert_eq!(dots, 2 * runs, "{problem}");
    assert!(dom.contains("time limit"), "{problem}");

    // A run's address selects it, and shows its detail: the last run of the last solution, a failure if any.
    let solution = solutions.last().unwrap();
    let run = solution["tests"].as_array().unwrap().last().unwrap();
    let address = format!(
        "#run={}/{}",
        solution["name"].as_str().unwrap(),
        run["name"].as_str().unwrap()
    );
    let selected = headless(chromium, page, &["--dump-dom"], &address);
    let detail = &selected[selected.find("<div id=\"detail\"").unwrap()..];
    let detail = &detail[..detail.find("</div>").unwrap()];
    let first_line = format!(
        "{} on {}: {}",
        solution["name"].as_str().unwrap(),
        run["name"].as_str().unwrap(),
        run["verdict"].as_str().unwrap()
    );
    assert!(detail.contains(&first_line), "{problem}: {detail}");
    let message = run["message"]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap_or("");
    assert!(
        detail.contains(
            &message
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        ),
        "{problem}: {detail} lacks {message}"
    );

    let shot = artifacts.join(shot);
    let _ = std::fs::remove_file(&shot);
    headless(
        chromium,
        page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,1800",
            "--hide-scrollbars",
        ],
        &address,
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{problem}: no screenshot");
}

#[test]
fn a_saved_report_renders_the_same_page() {
    let mut project = Judge::bundled(&["young-chess"]);
    let run = project
        .then(
            &["judge", "young-chess", "--json", "--html", "judged.html"],
            b"",
        )
        .expect_code(0);
    std::fs::write(project.root().join("run.json"), &run.output.stdout).unwrap();
    project
        .then(&["report", "run.json", "--html", "again.html"], b"")
        .expect_code(0);
    let judged = std::fs::read_to_string(project.root().join("judged.html")).unwrap();
    let again = std::fs::read_to_string(project.root().join("again.html")).unwrap();
    // The same runs, cell for cell (the message of a run that went wrong may show more than the JSON keeps).
    assert_eq!(
        attributes(&judged, "data-verdict"),
        attributes(&again, "data-verdict")
    );
    // Self-contained: nothing is fetched (an SVG's xmlns names a namespace; it fetches nothing).
    for fetch in ["src=", "href=", "url(", "@import"] {
        assert!(
            !again.contains(fetch),
            "the page fetches something: {fetch}"
        );
    }
    // Not a report: exit 2, naming the file.
    std::fs::write(project.root().join("bad.json"), "{\"problem\": 1}").unwrap();
    let bad = project
        .then(&["report", "bad.json", "--html", "bad.html"], b"")
        .expect_code(2);
    assert!(
        bad.stderr().contains("bad.json: not a report"),
        "{}",
        bad.stderr()
    );
}

/// What the page's own script finds in the browser, for a test to read: each plot's text boxes that intersect,
/// and the test names written on the plots' axes. Appended to a copy of the page, since a page from disk cannot
/// be reached from another one.
const LAYOUT_PROBE: &str = r#"<script>
(() => {
  const overlaps = [];
  const plots = [];
  for (const svg of document.querySelectorAll('svg')) {
    const boxes = [...svg.querySelectorAll('text')]
      .map((t) => [t.textContent, t.getBoundingClientRect()])
      .filter(([, b]) => b.width > 0 && b.height > 0);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i][1], boxes[j][1]];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
          overlaps.push(boxes[i][0] + ' / ' + boxes[j][0]);
        }
      }
    }
    plots.push({
      labels: [...svg.querySelectorAll('.test-labels text')].map((t) => t.textContent),
      titles: [...svg.querySelectorAll('.test-labels title')].map((t) => t.textContent),
    });
  }
  const out = document.createElement('pre');
  out.id = 'layout-probe';
  out.textContent = JSON.stringify({ overlaps, plots });
  document.body.append(out);
})();
</script>"#;

/// The page at `page` with [`LAYOUT_PROBE`] run in it: what the probe found.
fn layout(chromium: &Path, page: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let probed = page.with_file_name("probed.html");
    let at = html.rfind("</body>").unwrap();
    std::fs::write(
        &probed,
        format!("{}{LAYOUT_PROBE}{}", &html[..at], &html[at..]),
    )
    .unwrap();
    let dom = headless(chromium, &probed, &["--dump-dom"], "");
    let start = dom.find("<pre id=\"layout-probe\">").unwrap() + "<pre id=\"layout-probe\">".len();
    let text = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap()
}

/// The element of `dom` that starts at the first `start` after `from`, up to the first `end` after it.
fn element<'a>(dom: &'a str, from: &str, start: &str, end: &str) -> &'a str {
    let dom = &dom[dom.find(from).unwrap_or_else(|| panic!("no {from}"))..];
    let dom = &dom[dom
        .find(start)
        .unwrap_or_else(|| panic!("no {start} after {from}"))..];
    &dom[..dom
        .find(end)
        .unwrap_or_else(|| panic!("no {end} after {start}"))
        + end.len()]
}

/// A run's CPU time as the report writes it (`units::format_time`).
fn time_text(us: u64) -> String {
    if us >= 1_000_000 && us.is_multiple_of(1_000_000) {
        format!("{}s", us / 1_000_000)
    } else if us < 1_000_000 {
        format!("{}ms", us / 1000)
    } else {
        format!("{:.2}s", us as f64 / 1e6)
    }
}

#[test]
fn the_html_report_reads_as_the_terminal_does() {
    let Some(chromium) = chromium() else {
        return;
    };
    let mut project = Judge::fixture("basic");
    let run = project
        .then(
            &[
                "judge",
                "sum",
                "--json",
                "--html",
                "report.html",
                "--submission",
                "problems/sum/solutions/ac.c",
                "--submission",
                "problems/sum/solutions/wa_off_by_one.cpp",
                "--expect",
                "WA",
                "--submission",
                "problems/sum/solutions/ce_syntax.cpp",
                "--expect",
                "AC",
            ],
            b"",
        )
        .expect_code(1);
    let report = run.json();
    let page = project.root().join("report.html");
    let dom = headless(&chromium, &page, &["--dump-dom"], "");
    let solutions = report["solutions"].as_array().unwrap();
    let name = |s: &serde_json::Value| s["name"].as_str().unwrap().to_owned();

    // A summary table first, a row per solution as the terminal's table has it.
    let summary = element(&dom, "<body", "<table class=\"summary\"", "</table>");
    assert!(
        dom.find("<table class=\"summary\"").unwrap() < dom.find("id=\"verdict-matrix\"").unwrap(),
        "the summary comes after the matrix"
    );
    for solution in solutions {
        let row = element(
            summary,
            &format!("<tr data-solution=\"{}\"", name(solution)),
            "<tr",
            "</tr>",
        );
        let expected: Vec<&str> = solution["expected"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(
            row.contains(&format!(">{}<", expected.join(" or "))),
            "{row}"
        );
        assert!(
            row.contains(&format!(">{}<", solution["verdict"].as_str().unwrap())),
            "{row}"
        );
        let mark = if solution["ok"] == true {
            "as expected"
        } else {
            "NOT AS EXPECTED"
        };
        assert!(row.contains(&format!(">{mark}<")), "{row}");
        let slowest = solution["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["time_us"].as_u64().unwrap())
            .max()
            .map_or("-".to_owned(), time_text);
        assert!(
            row.contains(&format!(">{slowest}<")),
            "{row}: slowest {slowest}"
        );
    }

    // Each run's cell shows its time beside its verdict.
    let cells = Regex::new(r#"<td data-verdict="([A-Z]+)"[^>]*>(.*?)</td>"#).unwrap();
    let shown: Vec<(String, String)> = cells
        .captures_iter(&dom)
        .map(|c| (c[1].to_owned(), c[2].to_owned()))
        .collect();
    let runs: Vec<&serde_json::Value> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|test| {
            solutions.iter().filter_map(move |s| {
                s["tests"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["name"] == *test)
            })
        })
        .collect();
    assert_eq!(shown.len(), runs.len(), "{shown:?}");
    for ((verdict, text), run) in shown.iter().zip(&runs) {
        assert_eq!(verdict, run["verdict"].as_str().unwrap());
        let time = time_text(run["time_us"].as_u64().unwrap());
        assert!(
            text.contains(verdict.as_str()) && text.contains(&time),
            "{text} lacks {time}"
        );
    }

    // A compile error has a panel of its own under the solution's name, the compiler's message preformatted, and
    // its cells say why they were not run.
    let ce = solutions.iter().find(|s| s["verdict"] == "CE").unwrap();
    let section = element(
        &dom,
        &format!("<section class=\"solution\" data-solution=\"{}\"", name(ce)),
        "<section",
        "</section>",
    );
    let panel = element(section, "<pre class=\"compile-error\"", "<pre", "</pre>");
    let first_error = ce["compile"]["message"]
        .as_str()
        .unwrap()
        .lines()
        .find(|l| l.contains("error"))
        .unwrap();
    assert!(
        panel.contains(
            &first_error
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        ),
        "{panel} lacks {first_error}"
    );
    assert!(
        !section.contains("<svg"),
        "a compile error has no plots: {section}"
    );
    let column = solutions.iter().position(|s| s["verdict"] == "CE").unwrap();
    let body = element(&dom, "id=\"verdict-matrix\"", "<tbody", "</tbody>");
    for row in body.split("<tr").skip(1) {
        let cell = row.split("<td").nth(column + 1).unwrap();
        assert!(cell.contains(">not run: compile error<"), "{cell}");
    }
    let address = format!("#run={}/{}", name(ce), report["tests"][0].as_str().unwrap());
    let selected = headless(&chromium, &page, &["--dump-dom"], &address);
    let detail = element(&selected, "<div id=\"detail\"", "<div", "</div>");
    assert!(detail.contains("not run: compile error"), "{detail}");

    // A wrong answer on a short test shows its input, the answer and the output, as the terminal does; a report
    // read back from its JSON shows the same.
    let wa = solutions.iter().find(|s| s["verdict"] == "WA").unwrap();
    let failed = wa["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["verdict"] == "WA")
        .unwrap();
    let input = std::fs::read_to_string(
        project
            .root()
            .join("testdata/sum")
            .join(format!("{}.in", failed["name"].as_str().unwrap())),
    )
    .unwrap();
    std::fs::write(project.root().join("run.json"), &run.output.stdout).unwrap();
    project
        .then(&["report", "run.json", "--html", "again.html"], b"")
        .expect_code(1);
    let again = headless(
        &chromium,
        &project.root().join("again.html"),
        &["--dump-dom"],
        "",
    );
    for dom in [&dom, &again] {
        let section = element(
            dom,
            &format!("<section class=\"solution\" data-solution=\"{}\"", name(wa)),
            "<section",
            "</section>",
        );
        let evidence = element(section, "<pre class=\"input\"", "<pre", "</pre>");
        assert!(
            evidence.contains(input.trim_end()),
            "{evidence} lacks {input}"
        );
        assert!(
            section.contains(&format!("WA on test {}", failed["name"].as_str().unwrap())),
            "{section}"
        );
    }

    // The isolation layers and the machine come after the results.
    assert!(
        dom.find("<dt>cgroup</dt>").unwrap() > dom.find("id=\"plots\"").unwrap(),
        "the isolation details come before the results"
    );

    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("report-sum-failures.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &chromium,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,2000",
            "--hide-scrollbars",
        ],
        "",
    );
    assert!(
        std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"),
        "no screenshot"
    );
}

#[test]
fn the_plots_name_their_tests_without_overlapping_labels() {
    let Some(chromium) = chromium() else {
        return;
    };
    // A saved report of many tests with long names, made from a small judge: no need to run them.
    let mut project = Judge::fixture("basic");
    let run = project
        .then(
            &[
                "judge",
                "sum",
                "--json",
                "--submission",
                "problems/sum/solutions/ac.c",
            ],
            b"",
        )
        .expect_code(0);
    let mut report = run.json();
    let names: Vec<String> = (0..150)
        .map(|i| format!("group-{}/random-large-{i:03}", i % 7))
        .collect();
    let template = report["solutions"][0]["tests"][0].clone();
    report["tests"] = serde_json::json!(names);
    report["solutions"][0]["tests"] = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut test = template.clone();
            test["name"] = serde_json::json!(name);
            test["time_us"] = serde_json::json!(1500 + i as u64 * 10);
            test["time_ms"] = serde_json::json!((1500 + i as u64 * 10) / 1000);
            test
        })
        .collect();
    std::fs::write(project.root().join("many.json"), report.to_string()).unwrap();
    project
        .then(&["report", "many.json", "--html", "many.html"], b"")
        .expect_code(0);
    let page = project.root().join("many.html");
    let found = layout(&chromium, &page);
    assert_eq!(found["overlaps"], serde_json::json!([]), "labels overlap");
    let plots = found["plots"].as_array().unwrap();
    assert_eq!(plots.len(), 2);
    for plot in plots {
        // Named, not numbered: each label is a test's name (its end, where long), its title the whole name.
        let labels = plot["labels"].as_array().unwrap();
        let titles = plot["titles"].as_array().unwrap();
        assert!(labels.len() >= 10, "{plot}");
        assert_eq!(labels.len(), titles.len(), "{plot}");
        for (label, title) in labels.iter().zip(titles) {
            let title = title.as_str().unwrap();
            assert!(names.iter().any(|n| n == title), "{title}");
            let label = label.as_str().unwrap();
            assert!(
                title.ends_with(label.trim_start_matches('…')) && label.len() >= 8,
                "{label} for {title}"
            );
        }
    }
    // And the bundled knight-pawns, its 35 tests: every one named.
    let mut project = Judge::bundled(&["knight-pawns"]);
    project
        .then(&["judge", "knight-pawns", "--html", "report.html"], b"")
        .expect_code(0);
    let found = layout(&chromium, &project.root().join("report.html"));
    assert_eq!(found["overlaps"], serde_json::json!([]), "labels overlap");
    let memo = &found["plots"][0];
    assert_eq!(memo["titles"].as_array().unwrap().len(), 35, "{memo}");
}
