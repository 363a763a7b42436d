//! The report of `cpjudge timelimit`: a table per solution timed, the warnings and the suggested limit; or the
//! same as one JSON object.

use super::Style;
use crate::calibrate::{Calibration, Role, SolutionTiming, Suggestion, Warning, margin};
use crate::units::{format_time, millis, plural};
use crate::verdict::Verdict;
use serde::Serialize;
use std::io::{self, Write};
use std::time::Duration;

/// The rule of the suggestion, as the report states it.
pub const RULE: &str = "slowest reference CPU time x 2, rounded up to the next 100ms, at least the floor; \
     with references in several languages, the largest of each language's suggestion";

fn codes(expected: &[Verdict]) -> String {
    expected
        .iter()
        .map(|v| v.code())
        .collect::<Vec<_>>()
        .join("|")
}

/// What a warning says, the same in the table and in JSON.
pub fn warning_text(warning: &Warning, limit: Duration) -> String {
    let limit_text = format_time(limit);
    match warning {
        Warning::ReferenceFails {
            solution,
            test,
            verdict,
        } => format!(
            "{solution} (a reference) gets {verdict} on test {test}: no limit makes it pass"
        ),
        Warning::ReferenceTooSlow {
            solution,
            test,
            ran_under,
        } => format!(
            "{solution} (a reference) does not finish test {test} even within {}",
            format_time(*ran_under)
        ),
        Warning::ReferenceOverHalf {
            solution,
            test,
            cpu,
        } if *cpu > limit => format!(
            "{solution} (a reference) takes {} on test {test}, over the {limit_text} limit",
            format_time(*cpu)
        ),
        Warning::ReferenceOverHalf {
            solution,
            test,
            cpu,
        } => format!(
            "{solution} (a reference) uses {} of the {limit_text} limit on test {test}, more than half",
            format_time(*cpu)
        ),
        Warning::TleFinishes {
            solution,
            test,
            cpu,
            within_limit: true,
        } => format!(
            "{solution} (expected TLE) finishes every test within the {limit_text} limit (slowest {} on test {test}): \
             it would not get TLE",
            format_time(*cpu)
        ),
        Warning::TleFinishes {
            solution,
            test,
            cpu,
            within_limit: false,
        } => format!(
            "{solution} (expected TLE) finishes every test within 1.5 x the limit (slowest {} on test {test}): \
             the limit does not separate it well",
            format_time(*cpu)
        ),
    }
}

/// Writes the table, the notes, the warnings and the suggestion.
pub fn write_timelimit(
    calibration: &Calibration,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let limit = calibration.time_limit;
    writeln!(
        out,
        "{}: time limit {} (problem.toml); {} per test on {}",
        calibration.problem,
        format_time(limit),
        plural(calibration.runs, "run"),
        plural(calibration.tests, "test"),
    )?;
    let name_width = calibration
        .solutions
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    writeln!(
        out,
        "\n{:<name_width$}  {:<8}  {:>9}  {:>8}  {:<14}  {:<17}  {:>7}",
        "solution", "expected", "ran under", "slowest", "on test", "spread", "margin"
    )?;
    for solution in &calibration.solutions {
        write_row(solution, calibration, name_width, out)?;
    }
    writeln!(out)?;
    for solution in &calibration.solutions {
        write_notes(solution, calibration, style, out)?;
    }
    if !calibration.skipped.is_empty() {
        let skipped: Vec<String> = calibration
            .skipped
            .iter()
            .map(|s| format!("{} ({})", s.name, codes(&s.expected)))
            .collect();
        let line = format!(
            "not timed (expected neither AC nor TLE): {}",
            skipped.join(", ")
        );
        writeln!(out, "{}", style.cut(&line, 0))?;
    }
    for warning in calibration.warnings() {
        let mark = style.paint("warning:", console::Style::new().yellow().bold());
        // Wrapped, not cut: every word of a warning matters.
        let options = textwrap::Options::new(style.width.max(40)).subsequent_indent("         ");
        let text = format!("{mark} {}", warning_text(&warning, limit));
        for line in textwrap::wrap(&text, options) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out)?;
    writeln!(out, "current limit:   {}", format_time(limit))?;
    match calibration.suggestion() {
        Some(suggestion) => write_suggestion(&suggestion, style, out),
        None => writeln!(
            out,
            "suggested limit: none, since not every reference finished every run"
        ),
    }
}

/// The suggested limit, what sets it, and each language's own when there are several.
fn write_suggestion(suggestion: &Suggestion, style: Style, out: &mut dyn Write) -> io::Result<()> {
    if suggestion.languages.len() > 1 {
        let each: Vec<String> = suggestion
            .languages
            .iter()
            .map(|l| {
                format!(
                    "{} {} ({}) -> {}",
                    l.language,
                    format_time(l.slowest),
                    l.solution,
                    format_time(l.suggested)
                )
            })
            .collect();
        let options =
            textwrap::Options::new(style.width.max(40)).subsequent_indent("                 ");
        for line in textwrap::wrap(&format!("per language:    {}", each.join("; ")), options) {
            writeln!(out, "{line}")?;
        }
    }
    let set_by = &suggestion.set_by;
    let limit = style.paint(&format_time(suggestion.limit), console::Style::new().bold());
    let reference = format!("{} ({})", set_by.solution, set_by.language);
    let line = if suggestion.floored {
        format!(
            "suggested limit: {limit}, the floor (time_limit_floor): {} x 2 is less, for {reference}",
            format_time(set_by.slowest),
        )
    } else {
        format!(
            "suggested limit: {limit} = {} x 2, rounded up to the next 100ms, set by {reference}",
            format_time(set_by.slowest),
        )
    };
    let options =
        textwrap::Options::new(style.width.max(40)).subsequent_indent("                 ");
    for line in textwrap::wrap(&line, options) {
        writeln!(out, "{line}")?;
    }
    if let Some(least) = suggestion.far_above() {
        let note = format!(
            "note: {} sets the limit at {:.1} x what {} alone needs ({}): {} solutions get that much more \
             room, so check that those expected TLE still fail",
            set_by.language,
            suggestion.limit.as_secs_f64() / least.suggested.as_secs_f64(),
            least.language,
            format_time(least.suggested),
            least.language,
        );
        let options = textwrap::Options::new(style.width.max(40)).subsequent_indent("      ");
        for line in textwrap::wrap(&note, options) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn write_row(
    solution: &SolutionTiming,
    calibration: &Calibration,
    name_width: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let timed_out = solution.timed_out();
    let slowest = solution.slowest();
    let (slowest_text, test, spread) = match (timed_out.first(), &slowest) {
        (Some(first), _) => (
            format!(">{}", format_time(solution.ran_under)),
            (*first).to_owned(),
            format!("killed on {}/{}", timed_out.len(), calibration.tests),
        ),
        (None, Some(s)) => (
            format_time(s.max),
            s.test.clone(),
            format!("{}..{}", format_time(s.min), format_time(s.max)),
        ),
        (None, None) => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
    };
    let margin = match (solution.role, timed_out.is_empty(), &slowest) {
        (Role::Reference, true, Some(s)) => {
            format!("x{:.1}", margin(calibration.time_limit, s.max))
        }
        _ => "-".to_owned(),
    };
    writeln!(
        out,
        "{:<name_width$}  {:<8}  {:>9}  {:>8}  {:<14}  {:<17}  {:>7}",
        solution.name,
        codes(&solution.expected),
        format_time(solution.ran_under),
        slowest_text,
        test,
        spread,
        margin,
    )
}

/// The lines under the table about one solution: what a solution expected TLE did where it finished, and which
/// borderline runs were repeated.
fn write_notes(
    solution: &SolutionTiming,
    calibration: &Calibration,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    if solution.role == Role::ExpectedTle
        && !solution.timed_out().is_empty()
        && let Some(s) = solution.slowest()
    {
        let finished = calibration.tests - solution.timed_out().len();
        let line = format!(
            "{}: finished {} within {}, the slowest {} on {} ({:.2} x the limit)",
            solution.name,
            plural(finished, "test"),
            format_time(solution.ran_under),
            format_time(s.max),
            s.test,
            s.max.as_secs_f64() / calibration.time_limit.as_secs_f64(),
        );
        writeln!(out, "{}", style.cut(&line, 0))?;
    }
    let repeated = solution.repeated();
    if !repeated.is_empty() {
        let line = format!(
            "{}: repeated borderline runs (within 10% of the {} they ran under) on {}",
            solution.name,
            format_time(solution.ran_under),
            repeated.join(", ")
        );
        writeln!(out, "{}", style.cut(&line, 0))?;
    }
    Ok(())
}

#[derive(Serialize)]
struct JsonCalibration<'a> {
    problem: &'a str,
    time_limit_ms: u64,
    runs: usize,
    tests: usize,
    rule: &'static str,
    /// The least limit suggested.
    time_limit_floor_ms: u64,
    slowest_reference_ms: Option<u64>,
    suggested_time_limit_ms: Option<u64>,
    /// What sets the suggestion: the language and reference, and whether the floor does instead.
    suggested_by: Option<JsonSetBy>,
    /// Each language's slowest reference and the limit it alone calls for.
    languages: Vec<JsonLanguage>,
    solutions: Vec<JsonTiming<'a>>,
    skipped: Vec<JsonSkipped<'a>>,
    warnings: Vec<JsonWarning>,
}

#[derive(Serialize)]
struct JsonSetBy {
    language: String,
    solution: String,
    slowest_ms: u64,
    floor: bool,
}

#[derive(Serialize)]
struct JsonLanguage {
    language: String,
    solution: String,
    slowest_ms: u64,
    suggested_ms: u64,
}

#[derive(Serialize)]
struct JsonTiming<'a> {
    name: &'a str,
    language: &'a str,
    expected: Vec<&'static str>,
    /// "reference" or "expected_tle".
    role: &'static str,
    ran_under_ms: u64,
    /// The slowest test among the runs that finished, with the spread of its runs.
    slowest: Option<JsonSpread>,
    /// The tests it was killed on under `ran_under_ms`.
    timed_out: Vec<&'a str>,
    /// The tests whose borderline run was repeated.
    repeated: Vec<&'a str>,
    /// The problem's limit over the slowest time, for a reference that finished every run.
    margin: Option<f64>,
}

#[derive(Serialize)]
struct JsonSpread {
    test: String,
    min_ms: u64,
    max_ms: u64,
    runs: usize,
}

#[derive(Serialize)]
struct JsonSkipped<'a> {
    name: &'a str,
    expected: Vec<&'static str>,
}

#[derive(Serialize)]
struct JsonWarning {
    kind: &'static str,
    solution: String,
    test: String,
    message: String,
}

/// Writes the calibration as one JSON object and a newline.
pub fn write_timelimit_json(calibration: &Calibration, out: &mut dyn Write) -> io::Result<()> {
    let limit = calibration.time_limit;
    let suggestion = calibration.suggestion();
    let json = JsonCalibration {
        problem: &calibration.problem,
        time_limit_ms: millis(limit),
        runs: calibration.runs,
        tests: calibration.tests,
        rule: RULE,
        time_limit_floor_ms: millis(calibration.floor),
        slowest_reference_ms: calibration.slowest_reference().map(millis),
        suggested_time_limit_ms: suggestion.as_ref().map(|s| millis(s.limit)),
        suggested_by: suggestion.as_ref().map(|s| JsonSetBy {
            language: s.set_by.language.clone(),
            solution: s.set_by.solution.clone(),
            slowest_ms: millis(s.set_by.slowest),
            floor: s.floored,
        }),
        languages: suggestion
            .iter()
            .flat_map(|s| &s.languages)
            .map(|l| JsonLanguage {
                language: l.language.clone(),
                solution: l.solution.clone(),
                slowest_ms: millis(l.slowest),
                suggested_ms: millis(l.suggested),
            })
            .collect(),
        solutions: calibration
            .solutions
            .iter()
            .map(|s| {
                let slowest = s.slowest();
                let timed_out = s.timed_out();
                JsonTiming {
                    name: &s.name,
                    language: &s.language,
                    expected: s.expected.iter().map(|v| v.code()).collect(),
                    role: match s.role {
                        Role::Reference => "reference",
                        Role::ExpectedTle => "expected_tle",
                    },
                    ran_under_ms: millis(s.ran_under),
                    margin: slowest
                        .as_ref()
                        .filter(|_| s.role == Role::Reference && timed_out.is_empty())
                        .map(|sp| (margin(limit, sp.max) * 100.0).round() / 100.0),
                    slowest: slowest.map(|sp| JsonSpread {
                        test: sp.test,
                        min_ms: millis(sp.min),
                        max_ms: millis(sp.max),
                        runs: sp.runs,
                    }),
                    timed_out,
                    repeated: s.repeated(),
                }
            })
            .collect(),
        skipped: calibration
            .skipped
            .iter()
            .map(|s| JsonSkipped {
                name: &s.name,
                expected: s.expected.iter().map(|v| v.code()).collect(),
            })
            .collect(),
        warnings: calibration
            .warnings()
            .iter()
            .map(|w| JsonWarning {
                kind: w.kind(),
                solution: w.solution().to_owned(),
                test: w.test().to_owned(),
                message: warning_text(w, limit),
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::{Run, Skipped};
    use crate::report::Detail;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn timing(
        name: &str,
        role: Role,
        ran_under: u64,
        runs: &[(&str, Verdict, u64, bool)],
    ) -> SolutionTiming {
        SolutionTiming {
            name: name.into(),
            language: if name.ends_with(".py") {
                "Python 3".into()
            } else {
                "Rust".into()
            },
            expected: vec![match role {
                Role::Reference => Verdict::Accepted,
                Role::ExpectedTle => Verdict::TimeLimit,
            }],
            role,
            ran_under: ms(ran_under),
            runs: runs
                .iter()
                .map(|&(test, verdict, cpu, repeat)| Run {
                    test: test.into(),
                    verdict,
                    cpu: ms(cpu),
                    repeat,
                })
                .collect(),
        }
    }

    /// Two references (one over half the limit, with a repeated borderline run... of a test near 3 x), a solution
    /// expected TLE left far behind, one that is not, and one not timed.
    fn calibration() -> Calibration {
        use Verdict::*;
        Calibration {
            problem: "sum".into(),
            time_limit: ms(1000),
            floor: ms(1000),
            runs: 2,
            tests: 3,
            solutions: vec![
                timing(
                    "fast.rs",
                    Role::Reference,
                    3000,
                    &[
                        ("1", Accepted, 10, false),
                        ("2", Accepted, 212, false),
                        ("3", Accepted, 40, false),
                        ("1", Accepted, 12, false),
                        ("2", Accepted, 198, false),
                        ("3", Accepted, 41, false),
                    ],
                ),
                timing(
                    "slow.py",
                    Role::Reference,
                    3000,
                    &[
                        ("1", Accepted, 610, false),
                        ("2", Accepted, 2800, false),
                        ("2", Accepted, 2650, true),
                        ("3", Accepted, 90, false),
                    ],
                ),
                timing(
                    "brute.rs",
                    Role::ExpectedTle,
                    1500,
                    &[
                        ("1", Accepted, 5, false),
                        ("2", TimeLimit, 1502, false),
                        ("3", TimeLimit, 1503, false),
                        ("1", Accepted, 6, false),
                    ],
                ),
                timing(
                    "almost.rs",
                    Role::ExpectedTle,
                    1500,
                    &[
                        ("1", Accepted, 300, false),
                        ("2", Accepted, 1200, false),
                        ("3", Accepted, 800, false),
                    ],
                ),
            ],
            skipped: vec![Skipped {
                name: "wrong.rs".into(),
                expected: vec![WrongAnswer],
            }],
            interrupted: None,
        }
    }

    fn style(width: usize) -> Style {
        Style {
            color: false,
            clip: true,
            width,
            detail: Detail::Normal,
        }
    }

    #[test]
    fn timelimit_table() {
        let mut out = Vec::new();
        write_timelimit(&calibration(), style(100), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "too wide: {line}");
        }
        insta::assert_snapshot!(text);
    }

    #[test]
    fn timelimit_json() {
        let mut out = Vec::new();
        write_timelimit_json(&calibration(), &mut out).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        insta::assert_json_snapshot!(json);
    }

    #[test]
    fn a_fast_reference_gets_the_floor() {
        let mut calibration = calibration();
        calibration.solutions.remove(1);
        let mut out = Vec::new();
        write_timelimit(&calibration, style(100), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("suggested limit: 1s, the floor (time_limit_floor): 212ms x 2 is less, for fast.rs (Rust)"),
            "{text}"
        );
        assert!(!text.contains("per language"), "{text}");
        calibration.floor = ms(300);
        let mut out = Vec::new();
        write_timelimit_json(&calibration, &mut out).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["suggested_time_limit_ms"], 500);
        assert_eq!(json["time_limit_floor_ms"], 300);
        assert_eq!(json["suggested_by"]["floor"], false);
    }

    #[test]
    fn no_suggestion_when_a_reference_is_cut_off() {
        let mut calibration = calibration();
        calibration.solutions[0].runs[1].verdict = Verdict::TimeLimit;
        let mut out = Vec::new();
        write_timelimit_json(&calibration, &mut out).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["suggested_time_limit_ms"], serde_json::Value::Null);
        assert_eq!(json["warnings"][0]["kind"], "reference_too_slow");
    }
}
