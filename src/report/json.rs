//! The JSON report (`judge --json`) and problem list (`list --json`). Their schema is documented in the README
//! and kept stable: fields may be added, never renamed or removed.

use crate::judge::{JudgeReport, SolutionReport, TestResult};
use crate::sandbox::Isolation;
use crate::units::{Bytes, millis};
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize)]
struct JsonReport<'a> {
    problem: &'a str,
    time_limit_ms: u64,
    memory_limit_kib: u64,
    /// How a package's time limit was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_limit_origin: Option<&'a str>,
    /// Present, and true, when the limit was given on the command line.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    time_limit_overridden: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    memory_limit_overridden: bool,
    ok: bool,
    /// Present when the user stopped the judge: what it was doing, and the solutions not judged completely.
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupted: Option<JsonInterruption<'a>>,
    solutions: Vec<JsonSolution<'a>>,
    isolation: &'a Isolation,
    harness: JsonHarness,
}

#[derive(Serialize)]
struct JsonInterruption<'a> {
    during: &'a str,
    not_judged: &'a [String],
}

/// The judge itself, beside the verdicts.
#[derive(Serialize)]
struct JsonHarness {
    /// The harness process's own peak resident memory, in bytes.
    peak_memory: u64,
}

/// What a report says about the judge that produced it.
pub struct AboutJudge<'a> {
    pub isolation: &'a Isolation,
    pub harness_peak_memory: Bytes,
}

#[derive(Serialize)]
struct JsonSolution<'a> {
    name: &'a str,
    path: String,
    language: &'static str,
    expected: Vec<&'static str>,
    verdict: &'static str,
    ok: bool,
    compile: JsonCompile<'a>,
    tests: Vec<JsonTest<'a>>,
}

#[derive(Serialize)]
struct JsonCompile<'a> {
    ok: bool,
    cached: bool,
    time_ms: u64,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonTest<'a> {
    name: &'a str,
    verdict: &'static str,
    time_ms: u64,
    /// The same CPU time in microseconds, for scripts that compare short runs.
    time_us: u64,
    wall_ms: u64,
    memory_kib: u64,
    message: &'a str,
    /// An interactive test's dialogue, when it failed: `> ` lines from the solution, `< ` from the interactor.
    #[serde(skip_serializing_if = "Option::is_none")]
    dialogue: Option<&'a str>,
}

fn solution(s: &SolutionReport) -> JsonSolution<'_> {
    JsonSolution {
        name: &s.name,
        path: s.path.display().to_string(),
        language: s.language.name(),
        expected: s.expected.iter().map(|v| v.code()).collect(),
        verdict: s.verdict.code(),
        ok: s.ok,
        compile: JsonCompile {
            ok: s.compile.ok,
            cached: s.compile.cached,
            time_ms: millis(s.compile.time),
            message: &s.compile.message,
        },
        tests: s.tests.iter().map(test).collect(),
    }
}

fn test(t: &TestResult) -> JsonTest<'_> {
    JsonTest {
        name: &t.name,
        verdict: t.verdict.code(),
        time_ms: millis(t.cpu),
        time_us: t.cpu.as_micros() as u64,
        wall_ms: millis(t.wall),
        memory_kib: t.memory.kib(),
        message: &t.message,
        dialogue: t.dialogue.as_deref(),
    }
}

/// Writes the report as one JSON object and a newline.
pub fn write_json(report: &JudgeReport, about: &AboutJudge, out: &mut dyn Write) -> io::Result<()> {
    let json = JsonReport {
        problem: &report.problem,
        time_limit_ms: millis(report.time_limit),
        memory_limit_kib: report.memory_limit.kib(),
        time_limit_origin: report.time_limit_origin.as_deref(),
        time_limit_overridden: report.time_limit_overridden,
        memory_limit_overridden: report.memory_limit_overridden,
        ok: report.all_as_expected(),
        interrupted: report.interrupted.as_ref().map(|i| JsonInterruption {
            during: &i.during,
            not_judged: &i.not_judged,
        }),
        solutions: report.solutions.iter().map(solution).collect(),
        isolation: about.isolation,
        harness: JsonHarness {
            peak_memory: about.harness_peak_memory.0,
        },
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

/// One row of `cpjudge list`. A problem whose configuration is broken is listed with its error.
#[derive(Debug, Serialize)]
pub struct ProblemSummary {
    pub name: String,
    pub title: Option<String>,
    pub time_limit_ms: Option<u64>,
    pub memory_limit_kib: Option<u64>,
    pub tests: Option<usize>,
    pub solutions: Option<usize>,
    pub error: Option<String>,
}

pub fn write_list_json(problems: &[ProblemSummary], out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, problems)?;
    writeln!(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::compile::CompileOutcome;
    use crate::language::Language;
    use crate::verdict::Verdict;
    use std::time::Duration;

    /// A report with one solution of each kind the reporters distinguish.
    pub(crate) fn sample_report() -> JudgeReport {
        let test = |name: &str, verdict, ms, message: &str| TestResult {
            name: name.into(),
            verdict,
            cpu: Duration::from_millis(ms),
            wall: Duration::from_millis(ms + 3),
            memory: Bytes(2 * Bytes::MIB),
            message: message.into(),
            diff: (verdict == Verdict::WrongAnswer).then(|| "-4\n+5".to_owned()),
            input: format!("testdata/sum/{name}.in").into(),
            texts: None,
            dialogue: None,
        };
        let compile = |ok, message: &str| CompileOutcome {
            ok,
            time: Duration::from_millis(300),
            message: message.into(),
            cached: false,
        };
        JudgeReport {
            problem: "sum".into(),
            time_limit: Duration::from_secs(1),
            memory_limit: Bytes::mib(256),
            time_limit_overridden: false,
            time_limit_origin: None,
            memory_limit_overridden: false,
            interrupted: None,
            tests: vec!["1".into(), "2".into()],
            solutions: vec![
                SolutionReport {
                    name: "ref".into(),
                    path: "problems/sum/solutions/ref.rs".into(),
                    language: Language::Rust,
                    expected: vec![Verdict::Accepted],
                    verdict: Verdict::Accepted,
                    ok: true,
                    compile: compile(true, ""),
                    tests: vec![
                        test("1", Verdict::Accepted, 5, ""),
                        test("2", Verdict::Accepted, 7, ""),
                    ],
                },
                SolutionReport {
                    name: "off_by_one".into(),
                    path: "problems/sum/solutions/off_by_one.cpp".into(),
                    language: Language::Cpp,
                    expected: vec![Verdict::Accepted],
                    verdict: Verdict::WrongAnswer,
                    ok: false,
                    compile: compile(true, ""),
                    tests: vec![test(
                        "1",
                        Verdict::WrongAnswer,
                        1,
                        "token 1: expected \"4\", found \"5\"",
                    )],
                },
                SolutionReport {
                    name: "broken".into(),
                    path: "problems/sum/solutions/broken.c".into(),
                    language: Language::C,
                    expected: vec![Verdict::CompileError],
                    verdict: Verdict::CompileError,
                    ok: true,
                    compile: compile(false, "broken.c:1:1: error: expected ';'"),
                    tests: vec![],
                },
            ],
        }
    }

    #[test]
    fn json_report_schema() {
        let mut out = Vec::new();
        let isolation = Isolation::off();
        let about = AboutJudge {
            isolation: &isolation,
            harness_peak_memory: Bytes::mib(12),
        };
        write_json(&sample_report(), &about, &mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
