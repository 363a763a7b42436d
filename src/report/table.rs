//! The table printed after judging, and the problem list: plain text, coloured on a terminal, cut to its width.

use super::{Detail, ProblemSummary, Style};
use crate::judge::{JudgeReport, SolutionReport, TestResult};
use crate::units::{format_time, plural};
use crate::verdict::Verdict;
use std::io::{self, Write};
use std::time::Duration;

pub(super) fn expected_codes(expected: &[Verdict]) -> String {
    expected
        .iter()
        .map(|v| v.code())
        .collect::<Vec<_>>()
        .join("|")
}

/// The mark of a limit given on the command line instead of the problem's.
fn overridden(yes: bool, option: &str) -> String {
    if yes {
        format!(" (from {option})")
    } else {
        String::new()
    }
}

/// Writes the judge table: a row per solution, then the details of failures, then a one-line summary; with
/// [`Detail::Quiet`] only the summary, with [`Detail::Verbose`] every test's line too.
pub fn write_table(report: &JudgeReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    if style.detail == Detail::Quiet {
        write_warnings(report, style, out)?;
        return write_summary(report, style, out);
    }
    let first = format!(
        "{}: {} on {}, limits {} CPU{} and {} memory{}",
        report.problem,
        plural(report.solutions.len(), "solution"),
        plural(report.tests.len(), "test"),
        format_time(report.time_limit),
        overridden(report.time_limit_overridden, "--time-limit"),
        report.memory_limit,
        overridden(report.memory_limit_overridden, "--memory-limit"),
    );
    let options = textwrap::Options::new(style.width.max(20)).subsequent_indent("    ");
    for line in textwrap::wrap(&first, options) {
        writeln!(out, "{line}")?;
    }
    let mut notes = Vec::new();
    if let Some(how) = &report.time_limit_origin {
        notes.push(format!("time limit: {how}"));
    }
    if let Some(check) = &report.time_limit_check {
        notes.push(format!("compared with the rule: {}", check.summary()));
    }
    if let Some(warning) = report.time_limit_warning() {
        notes.push(style.paint(
            &format!("warning: {warning}"),
            console::Style::new().yellow(),
        ));
    }
    if let Some(suggested) = &report.suggested_time_limit {
        notes.push(format!(
            "suggested time limit: {}",
            super::suggestion_text(suggested)
        ));
    }
    let (runs, reused) = report.runs_reused();
    if reused > 0 {
        notes.push(format!(
            "runs: {reused} of {runs} taken from earlier judges, nothing they depend on changed (--fresh runs them again)"
        ));
    }
    for note in notes {
        let options = textwrap::Options::new(style.width.max(40)).subsequent_indent("    ");
        for line in textwrap::wrap(&note, options) {
            writeln!(out, "{line}")?;
        }
    }
    write_warnings(report, style, out)?;
    writeln!(out)?;
    super::rows::write_rows(report, style, mark, out)?;
    super::grid::write_grid(report, style, out)?;
    if style.detail == Detail::Verbose {
        for solution in &report.solutions {
            write_every_test(solution, style, out)?;
        }
    }
    for solution in &report.solutions {
        write_details(report, solution, style, out)?;
    }
    write_skipped(report, style, out)?;
    writeln!(out)?;
    write_summary(report, style, out)
}

/// The solutions not judged here, each with why and what to install.
fn write_skipped(report: &JudgeReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    if report.skipped.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nnot judged here:")?;
    for skipped in &report.skipped {
        let language = skipped.language.as_deref().unwrap_or("no known language");
        let text = format!("{} ({language}): {}", skipped.name, skipped.why);
        let options = textwrap::Options::new(style.width.max(40))
            .initial_indent("  ")
            .subsequent_indent("    ");
        for line in textwrap::wrap(&text, options) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// What the package holds that was judged otherwise than its format says: wrapped, never cut, since every
/// word of a warning matters.
fn write_warnings(report: &JudgeReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    for warning in &report.warnings {
        let mark = style.paint("warning:", console::Style::new().yellow().bold());
        let text = format!("{mark} {warning}");
        let options = textwrap::Options::new(style.width.max(40)).subsequent_indent("    ");
        for line in textwrap::wrap(&text, options) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// What a row's last column says of a solution.
fn mark(solution: &SolutionReport) -> super::rows::Mark {
    let (text, short, color) = if not_caught(solution) {
        ("not caught", "uncaught", console::Style::new().yellow())
    } else if solution.ok {
        ("ok", "ok", console::Style::new().green())
    } else {
        (
            "NOT AS EXPECTED",
            "NOT OK",
            console::Style::new().red().bold(),
        )
    };
    super::rows::Mark { text, short, color }
}

/// Whether a solution passed what was judged of it without its expected verdict, which only a selection of the
/// tests or a share of the runs allows: the tests judged did not catch it, which is not a failure of the problem.
fn not_caught(solution: &SolutionReport) -> bool {
    solution.ok && !solution.expected.contains(&solution.verdict)
}

/// A line per test the solution ran: its verdict, CPU time, memory and the last line of its message.
fn write_every_test(
    solution: &SolutionReport,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if solution.tests.is_empty() {
        return Ok(());
    }
    writeln!(out, "\n{}:", solution.name)?;
    let name_width = solution
        .tests
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0);
    for test in &solution.tests {
        let line = format!(
            "{:<name_width$}  {:<3}  {:>8}  {:>8}  {}",
            test.name,
            test.verdict.code(),
            format_time(test.cpu),
            test.memory.measured(),
            // The last line of a crash report says most.
            test.message.lines().last().unwrap_or_default()
        );
        writeln!(out, "    {}", style.cut(line.trim_end(), 4))?;
    }
    Ok(())
}

/// What shows a wrong answer: the test whole, side by side with the output, or the first differing lines.
pub(super) fn write_evidence(
    test: &TestResult,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if let Some(dialogue) = &test.dialogue {
        write_dialogue(dialogue, style, out)?;
    } else if let Some(texts) = &test.texts {
        super::side_by_side::write(texts, style, out)?;
    } else if let Some(diff) = &test.diff {
        writeln!(out, "    first difference (- answer, + output):")?;
        for line in diff.lines() {
            let color = match line.chars().next() {
                Some('-') => console::Style::new().red(),
                Some('+') => console::Style::new().green(),
                _ => console::Style::new(),
            };
            writeln!(out, "      {}", style.paint(&style.cut(line, 6), color))?;
        }
    }
    Ok(())
}

/// Lines of a dialogue shown from its beginning and from its end; the JSON report has all that was kept.
const DIALOGUE_HEAD: usize = 6;
const DIALOGUE_TAIL: usize = 10;

/// The dialogue of an interactive test, its beginning and its end.
fn write_dialogue(dialogue: &str, style: Style, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "    dialogue (> solution, < interactor):")?;
    let lines: Vec<String> = dialogue.lines().map(str::to_owned).collect();
    let shown = if lines.len() <= DIALOGUE_HEAD + DIALOGUE_TAIL + 1 {
        lines
    } else {
        let left_out = lines.len() - DIALOGUE_HEAD - DIALOGUE_TAIL;
        let mut shown = lines[..DIALOGUE_HEAD].to_vec();
        shown.push(format!("... {left_out} lines ..."));
        shown.extend_from_slice(&lines[lines.len() - DIALOGUE_TAIL..]);
        shown
    };
    for line in shown {
        writeln!(out, "      {}", style.cut(&line, 6))?;
    }
    Ok(())
}

/// Failing tests listed after the first one's details.
const MORE_FAILURES: usize = 4;

/// Why a solution got its verdict: the compiler's message, or the failing test with its message and, when the
/// verdict was not expected, the first differing lines.
fn write_details(
    report: &JudgeReport,
    solution: &SolutionReport,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if solution.verdict == Verdict::CompileError {
        writeln!(out, "\n{}: compile error", solution.name)?;
        for line in solution
            .compile
            .message
            .lines()
            .take(if solution.ok { 3 } else { 20 })
        {
            writeln!(out, "    {}", style.cut(line, 4))?;
        }
        return Ok(());
    }
    let failing: Vec<&TestResult> = solution
        .tests
        .iter()
        .filter(|t| !t.verdict.is_accepted())
        .collect();
    let Some((test, others)) = failing.split_first() else {
        if not_caught(solution) {
            writeln!(
                out,
                "\n{}: {}, expected {}: not caught by these tests",
                solution.name,
                solution.verdict,
                expected_codes(&solution.expected)
            )?;
        }
        if !solution.broken.is_empty() {
            writeln!(
                out,
                "\n{}: {}, not as expected",
                solution.name, solution.verdict
            )?;
        }
        return write_broken(solution, style, out);
    };
    writeln!(
        out,
        "\n{}: {} on test {} ({} CPU, {})",
        solution.name,
        test.verdict,
        test.name,
        format_time(test.cpu),
        test.memory.measured()
    )?;
    if !test.message.is_empty() {
        for line in test.message.lines().take(8) {
            writeln!(out, "    {}", style.cut(line, 4))?;
        }
    }
    for note in report.notes(solution) {
        let options = textwrap::Options::new(style.width.max(40))
            .initial_indent("    note: ")
            .subsequent_indent("      ");
        for line in textwrap::wrap(&note, options) {
            writeln!(out, "{line}")?;
        }
    }
    if !solution.ok {
        // Relative to where the user is, as they would type it; a report read back from JSON has no path.
        if !test.input.as_os_str().is_empty() {
            let input = crate::text::relative(&test.input);
            writeln!(out, "    test: {}", input.display())?;
        }
        write_evidence(test, style, out)?;
    }
    // With --all, the other failing tests too, one line each: the first few, then how many more.
    for other in others.iter().take(MORE_FAILURES) {
        let first = other.message.lines().next().unwrap_or_default();
        writeln!(
            out,
            "    also {} on test {}: {}",
            other.verdict,
            other.name,
            style.cut(first, 30)
        )?;
    }
    if others.len() > MORE_FAILURES {
        writeln!(
            out,
            "    and {} more",
            plural(others.len() - MORE_FAILURES, "failing test")
        )?;
    }
    write_broken(solution, style, out)
}

/// The rules beyond its verdict that a solution broke, each whole: each is why it is not as expected.
fn write_broken(solution: &SolutionReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    for rule in &solution.broken {
        let options = textwrap::Options::new(style.width.max(40))
            .initial_indent("    broke: ")
            .subsequent_indent("      ");
        for line in textwrap::wrap(rule, options) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn write_summary(report: &JudgeReport, style: Style, out: &mut dyn Write) -> io::Result<()> {
    if let Some(partition) = report.partition {
        let runs: usize = report.solutions.iter().map(|s| s.tests.len()).sum();
        writeln!(
            out,
            "share {partition} of the runs ({}): verdicts are final once `cpjudge merge` joins all shares",
            plural(runs, "run")
        )?;
    }
    // A program run as it is (`--submission a.out`, `--command`) was neither compiled nor taken from the cache.
    let (as_is, built): (Vec<&SolutionReport>, Vec<&SolutionReport>) = report
        .solutions
        .iter()
        .partition(|s| s.language.is_prebuilt());
    let cached = built.iter().filter(|s| s.compile.cached).count();
    let compiled = format!("compiled {}, {cached} from cache", built.len() - cached);
    let as_is = match as_is.len() {
        0 => None,
        1 => Some("1 program run as it is".to_owned()),
        n => Some(format!("{n} programs run as they are")),
    };
    let mut builds = match (built.is_empty(), as_is) {
        (_, None) => compiled,
        (true, Some(as_is)) => as_is,
        (false, Some(as_is)) => format!("{compiled}, {as_is}"),
    };
    if !report.skipped.is_empty() {
        builds.push_str(&format!(
            "; {} not judged for want of their language here",
            report.skipped.len()
        ));
    }
    let wrong: Vec<String> = report
        .solutions
        .iter()
        .filter(|s| !s.ok)
        .map(|s| {
            if s.broken.is_empty() || !s.expected.contains(&s.verdict) {
                format!(
                    "{} (expected {}, got {})",
                    s.name,
                    expected_codes(&s.expected),
                    s.verdict
                )
            } else {
                format!("{} (broke {})", s.name, plural(s.broken.len(), "rule"))
            }
        })
        .collect();
    // The last line is what a reader of a log sees first: an interrupted judge says so there, never "all as
    // expected" of the few it judged.
    if let Some(interruption) = &report.interrupted {
        let judged = match (report.solutions.len(), wrong.len()) {
            (0, _) => "no solution judged".to_owned(),
            (1, 0) => "the 1 solution judged got its expected verdict".to_owned(),
            (n, 0) => format!("the {n} solutions judged as expected"),
            (n, _) => format!(
                "{} of {} judged not as expected: {}",
                wrong.len(),
                plural(n, "solution"),
                wrong.join(", ")
            ),
        };
        let text = format!(
            "interrupted while {}: {judged}; not judged: {}",
            interruption.during,
            if interruption.not_judged.is_empty() {
                "none".to_owned()
            } else {
                interruption.not_judged.join(", ")
            }
        );
        return writeln!(
            out,
            "{}; {builds}",
            style.paint(&text, console::Style::new().yellow().bold())
        );
    }
    let uncaught: Vec<&str> = report
        .solutions
        .iter()
        .filter(|s| not_caught(s))
        .map(|s| s.name.as_str())
        .collect();
    if wrong.is_empty() && !uncaught.is_empty() {
        let text = match report.solutions.len() - uncaught.len() {
            0 => format!(
                "{} not caught by these tests: {}",
                plural(uncaught.len(), "solution"),
                uncaught.join(", ")
            ),
            caught => format!(
                "{} as expected on these tests, {} not caught by them: {}",
                plural(caught, "solution"),
                uncaught.len(),
                uncaught.join(", ")
            ),
        };
        writeln!(
            out,
            "{}; {builds}",
            style.paint(&text, console::Style::new().yellow().bold())
        )
    } else if wrong.is_empty() {
        let text = match report.solutions.len() {
            1 => "the solution got its expected verdict".to_owned(),
            n => format!("all {n} solutions as expected"),
        };
        writeln!(
            out,
            "{}; {builds}",
            style.paint(&text, console::Style::new().green().bold())
        )
    } else {
        let text = format!(
            "{} of {} not as expected: {}",
            wrong.len(),
            plural(report.solutions.len(), "solution"),
            wrong.join(", ")
        );
        writeln!(
            out,
            "{}; {builds}",
            style.paint(&text, console::Style::new().red().bold())
        )
    }
}

/// Writes the problem list of `cpjudge list`.
pub fn write_list(problems: &[ProblemSummary], out: &mut dyn Write) -> io::Result<()> {
    let name_width = problems
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(7);
    writeln!(
        out,
        "{:<name_width$}  {:>6}  {:>8}  {:>5}  {:>9}  title",
        "problem", "time", "memory", "tests", "solutions"
    )?;
    for p in problems {
        match &p.error {
            Some(error) => writeln!(out, "{:<name_width$}  error: {error}", p.name)?,
            None => writeln!(
                out,
                "{:<name_width$}  {:>6}  {:>8}  {:>5}  {:>9}  {}",
                p.name,
                p.time_limit_ms
                    .map_or("-".into(), |ms| format_time(Duration::from_millis(ms))),
                p.memory_limit_kib
                    .map_or("-".into(), |kib| crate::units::Bytes(kib * 1024)
                        .to_string()),
                p.tests.map_or("-".into(), |n| n.to_string()),
                p.solutions.map_or("-".into(), |n| n.to_string()),
                p.title.as_deref().unwrap_or("")
            )?,
        }
        if !p.lacks.is_empty() {
            writeln!(out, "{:<name_width$}  lacks {}", "", p.lacks.join(", "))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Interruption, TestTexts};

    /// The sample report, with what a user meets when things go wrong: a wrong answer on a short test, more
    /// failing tests after it (as with --all), a crash whose message has several lines, and an interruption.
    fn failing_report() -> JudgeReport {
        let mut report = crate::report::json::tests::sample_report();
        let wrong = &mut report.solutions[1];
        wrong.tests[0].texts = Some(Box::new(TestTexts {
            input: "2\n1 3\n".into(),
            answer: "4\n".into(),
            output: "5 \n".into(),
        }));
        let mut other = wrong.tests[0].clone();
        for name in ["2", "3", "4", "5", "6", "7"] {
            other.name = name.into();
            wrong.tests.push(other.clone());
        }
        let mut crash = report.solutions[0].clone();
        crash.name = "crash.py".into();
        crash.verdict = Verdict::RuntimeError;
        crash.ok = false;
        crash.tests[1].verdict = Verdict::RuntimeError;
        crash.tests[1].message =
            "exit code 1: Traceback (most recent call last):\n  File \"crash.py\", line 2, in <module>\n    print(xs[9])\nIndexError: list index out of range".into();
        report.solutions.push(crash);
        report.interrupted = Some(Interruption {
            during: "judging slow.rs".into(),
            not_judged: vec!["slow.rs".into()],
        });
        report
    }

    fn render(report: &JudgeReport, width: usize, detail: Detail) -> String {
        let mut out = Vec::new();
        write_table(
            report,
            Style {
                color: false,
                clip: true,
                width,
                detail,
            },
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn table_of_failures() {
        insta::assert_snapshot!(render(&failing_report(), 100, Detail::Normal));
    }

    #[test]
    fn quiet_and_verbose_tables() {
        let quiet = render(&failing_report(), 100, Detail::Quiet);
        assert_eq!(quiet.lines().count(), 1, "{quiet}");
        assert!(
            quiet.starts_with(
                "interrupted while judging slow.rs: 2 of 4 solutions judged not as expected"
            ),
            "{quiet}"
        );
        insta::assert_snapshot!(render(&failing_report(), 100, Detail::Verbose));
    }

    #[test]
    fn scores_and_groups_in_the_table() {
        let report = crate::report::json::tests::scored_report();
        let wide = render(&report, 100, Detail::Normal);
        assert!(wide.contains("AC       100/100"), "{wide}");
        assert!(wide.contains("samples_only.rs (broke 1 rule)"), "{wide}");
        insta::assert_snapshot!(wide);
        // On 80 columns, groups are columns and solutions rows; narrower, groups are named by their last parts.
        for width in [80, 50] {
            let narrow = render(&report, width, Detail::Normal);
            let grid = narrow.split("groups (verdict and score):").nth(1).unwrap();
            let grid: Vec<&str> = grid.lines().skip(1).take_while(|l| !l.is_empty()).collect();
            assert!(grid.len() > 3, "{narrow}");
            assert!(grid.iter().all(|l| l.chars().count() <= width), "{narrow}");
            insta::assert_snapshot!(
                format!("table_of_scores_in_{width}_columns"),
                grid.join("\n")
            );
        }
    }

    /// The bundled problems' solutions, as their table names them: the longest names there are, with every mark.
    fn bundled_names_report(scored: bool) -> JudgeReport {
        let mut report = if scored {
            crate::report::json::tests::scored_report()
        } else {
            crate::report::json::tests::sample_report()
        };
        let model = report.solutions[0].clone();
        report.solutions = [
            (
                "strategy_search.rs",
                Verdict::Accepted,
                Verdict::Accepted,
                true,
            ),
            (
                "strategy_search.cpp",
                Verdict::Accepted,
                Verdict::Accepted,
                true,
            ),
            (
                "table_then_search.py",
                Verdict::Accepted,
                Verdict::Accepted,
                true,
            ),
            (
                "too_many_questions.py",
                Verdict::WrongAnswer,
                Verdict::WrongAnswer,
                true,
            ),
            (
                "plain_backtracking.rs",
                Verdict::Accepted,
                Verdict::TimeLimit,
                true,
            ),
            (
                "never_answers.rs",
                Verdict::RuntimeError,
                Verdict::TimeLimit,
                false,
            ),
        ]
        .into_iter()
        .map(|(name, verdict, expected, ok)| {
            let mut solution = model.clone();
            solution.name = name.into();
            solution.verdict = verdict;
            solution.expected = vec![expected];
            solution.ok = ok;
            solution.broken.clear();
            solution
        })
        .collect();
        report.interrupted = None;
        report
    }

    /// The rows never go past the terminal's edge: at 80 columns every mark stays on its row, at 60 columns names
    /// and columns give way.
    #[test]
    fn the_table_fits_80_and_60_columns_with_the_bundled_names() {
        for scored in [false, true] {
            for width in [80, 60] {
                let table = render(&bundled_names_report(scored), width, Detail::Normal);
                let rows: Vec<&str> = table
                    .lines()
                    .skip_while(|l| !l.starts_with("solution"))
                    .take_while(|l| !l.is_empty())
                    .collect();
                assert_eq!(rows.len(), 7, "{table}");
                for line in &rows {
                    assert!(line.chars().count() <= width, "{width}: {line:?}\n{table}");
                }
                assert!(rows[4].ends_with(" ok"), "{table}");
                assert!(
                    rows[5].ends_with(" not caught") || rows[5].ends_with(" uncaught"),
                    "{table}"
                );
                let kind = if scored { "scored" } else { "pass_fail" };
                insta::assert_snapshot!(
                    format!("bundled_names_{kind}_in_{width}_columns"),
                    rows.join("\n")
                );
            }
        }
    }

    /// A program run as it is was neither compiled nor taken from the cache, and the summary says so.
    #[test]
    fn programs_run_as_they_are_are_not_counted_as_compiled() {
        let mut report = crate::report::json::tests::sample_report();
        report.interrupted = None;
        let summary = |report: &JudgeReport| {
            render(report, 100, Detail::Quiet)
                .split("; ")
                .skip(1)
                .collect::<Vec<_>>()
                .join("; ")
        };
        assert_eq!(summary(&report), "compiled 3, 0 from cache\n");
        report.solutions[0].language = crate::language::Language::prebuilt();
        assert_eq!(
            summary(&report),
            "compiled 2, 0 from cache, 1 program run as it is\n"
        );
        for solution in &mut report.solutions {
            solution.language = crate::language::Language::prebuilt();
        }
        assert_eq!(summary(&report), "3 programs run as they are\n");
    }

    #[test]
    fn table_of_failures_on_a_narrow_terminal() {
        insta::assert_snapshot!(render(&failing_report(), 44, Detail::Normal));
    }
}
