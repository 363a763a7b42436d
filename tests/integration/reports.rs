//! The machine-readable reports and the problem list.

use crate::harness::Judge;

/// The JSON report keeps its documented shape: a snapshot with the figures that vary from run to run redacted.
#[test]
fn json_report_matches_the_schema() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair", "--json"])
        .run()
        .expect_code(0);
    insta::assert_json_snapshot!(run.json(), {
        ".solutions[].path" => "[path]",
        ".solutions[].compile.cached" => "[bool]",
        ".solutions[].compile.time_ms" => "[ms]",
        ".solutions[].tests[].time_ms" => "[ms]",
        ".solutions[].tests[].time_us" => "[us]",
        ".solutions[].tests[].wall_ms" => "[ms]",
        ".solutions[].tests[].memory_kib" => "[kib]",
        ".isolation.*.active" => "[bool]",
        ".isolation.*.detail" => "[text]",
        ".harness.peak_memory" => "[bytes]",
        ".host" => "[host]",
        ".date" => "[date]",
        ".fingerprint.cpu" => "[text]",
        ".fingerprint.kernel" => "[text]",
        ".fingerprint.cgroup" => "[text]",
        ".cpjudge" => "[build]",
        ".checker" => "[digest]",
        ".solutions[].build.source" => "[digest]",
        ".solutions[].build.key" => "[digest]",
        ".solutions[].build.executable" => "[digest]",
        ".solutions[].build.toolchain" => "[text]",
        ".solutions[].tests[].record.key" => "[digest]",
        ".solutions[].tests[].record.input" => "[digest]",
        ".solutions[].tests[].record.answer" => "[digest]",
    });
}

/// The JUnit report is well-formed XML with a case per solution x test, plus one per solution for its verdict.
#[test]
fn junit_report_is_well_formed() {
    let judge = Judge::fixture("checker").args(&["judge", "pair", "--junit", "report.xml"]);
    judge.run().expect_code(0);
    let xml = std::fs::read_to_string(judge.root().join("report.xml")).unwrap();
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures) = (0, 0);
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|e| panic!("malformed XML: {e}\n{xml}"))
        {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                match e.name().as_ref() {
                    "testcase" => cases += 1,
                    "failure" => failures += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    assert_eq!(cases, 4 * (3 + 1), "{xml}");
    assert_eq!(failures, 0, "{xml}");
}

#[test]
fn list_shows_problems() {
    let run = Judge::fixture("checker")
        .args(&["list"])
        .run()
        .expect_code(0);
    let table = run.stdout();
    assert!(table.contains("pair "), "{table}");
    assert!(table.contains("Any pair with a given sum"), "{table}");
    let json: serde_json::Value = serde_json::from_slice(
        &Judge::fixture("checker")
            .args(&["list", "--json"])
            .run()
            .expect_code(0)
            .output
            .stdout,
    )
    .unwrap();
    assert_eq!(json[0]["name"], "pair");
    assert_eq!(json[0]["tests"], 3);
    assert_eq!(json[0]["solutions"], 4);
    assert_eq!(json[0]["time_limit_ms"], 1000);
}

#[test]
fn colour_only_on_request_of_a_terminal() {
    let run = Judge::fixture("checker")
        .args(&["judge", "pair"])
        .run()
        .expect_code(0);
    assert!(
        !run.stdout().contains('\u{1b}'),
        "no escape codes when stdout is not a terminal"
    );
}

/// Colour where asked for (`--color`, CLICOLOR_FORCE), and never on a pipe otherwise, nor with NO_COLOR.
#[test]
fn colour_as_asked() {
    let table = |args: &[&str], env: &[(&str, &str)]| {
        let mut judge = Judge::fixture("checker").args(args);
        for (k, v) in env {
            judge = judge.env(k, v);
        }
        judge
            .env_remove("CLICOLOR_FORCE")
            .args(&["judge", "pair"])
            .run()
            .expect_code(0)
            .stdout()
    };
    let coloured = |text: &str| text.contains("\x1b[");
    assert!(!coloured(&table(&[], &[])));
    assert!(coloured(&table(&["--color", "always"], &[])));
    assert!(coloured(&table(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!coloured(&table(
        &["--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
}

/// `-q` prints only the summary; `-v` a line for every test too.
#[test]
fn quiet_and_verbose() {
    let quiet = Judge::fixture("checker")
        .args(&["judge", "pair", "-q"])
        .run()
        .expect_code(0);
    assert_eq!(quiet.stdout().lines().count(), 1, "{}", quiet.stdout());
    assert!(!quiet.stderr().contains("judged "), "{}", quiet.stderr());
    let verbose = Judge::fixture("checker")
        .args(&["judge", "pair", "-v"])
        .run()
        .expect_code(0)
        .stdout();
    let s0 = verbose
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("s0"));
    assert_eq!(
        s0.count(),
        4,
        "a line for s0 under each solution:\n{verbose}"
    );
}
