//! The HTML report, rendered by headless Chromium: a cell per run with its verdict, and the plots. A screenshot of
//! each page is kept under target/test-artifacts/ to look at.

use crate::harness::{BUNDLED, Judge, skip};
use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Debian's Chromium, or another on PATH; None (after saying why) where there is none and none is required.
fn chromium() -> Option<PathBuf> {
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
fn headless(chromium: &Path, page: &Path, args: &[&str], fragment: &str) -> String {
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
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    for problem in BUNDLED {
        let mut project = Judge::bundled(&[problem]);
        let page = project.root().join("report.html");
        let run = project
            .then(&["judge", problem, "--json", "--html", "report.html"], b"")
            .expect_code(0);
        let report = run.json();
        let dom = headless(&chromium, &page, &["--dump-dom"], "");

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
        let selected = headless(&chromium, &page, &["--dump-dom"], &address);
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

        let shot = artifacts.join(format!("report-{problem}.png"));
        let _ = std::fs::remove_file(&shot);
        headless(
            &chromium,
            &page,
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
