//! The JSON report (`judge --json`) and problem list (`list --json`). Their schema is documented in the manual (book/src/reports.md)
//! and kept stable: fields may be added, never renamed or removed.

use super::Origin;
use crate::compile::CompileOutcome;
use crate::fingerprint::Fingerprint;
use crate::judge::{
    BuildTrace, Interruption, JudgeReport, LimitCheck, Partition, RunTrace, SolutionReport,
    SuggestedLimit, TestResult, TestTexts,
};
use crate::language::Language;
use crate::problem::{PackageWarning, Skipped, WarningKind};
use crate::sandbox::Isolation;
use crate::units::{Bytes, millis};
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

/// The report as JSON: written by `judge --json`, and read back by `merge` and `report`.
#[derive(Serialize, Deserialize)]
struct JsonReport {
    problem: String,
    time_limit_ms: u64,
    memory_limit_kib: u64,
    /// How a package's time limit was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit_origin: Option<String>,
    /// For a package whose limit is fixed, how the limit compares with the rule of its format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit_check: Option<JsonLimitCheck>,
    /// Present when that limit is below what the rule asks: the judge went on with it, and says so. Read back, it
    /// is said again from `time_limit_check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit_warning: Option<String>,
    /// For a package: the CPU time its submissions expected TLE run under (the limit times the TLE margin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tle_time_limit_ms: Option<u64>,
    /// Present, and true, when the limit was given on the command line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    time_limit_overridden: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    memory_limit_overridden: bool,
    ok: bool,
    /// Present when the user stopped the judge: what it was doing, and the solutions not judged completely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    interrupted: Option<JsonInterruption>,
    /// Every test selected, in order (a solution's `tests` stop at its first failure, unless `all_tests`).
    tests: Vec<String>,
    all_tests: bool,
    /// Present when only a share of the runs was judged (`--partition K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    partition: Option<Partition>,
    /// Present when `timelimit` was run on the same references and tests, with the cache the judge used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    suggested_time_limit: Option<SuggestedLimit>,
    solutions: Vec<JsonSolution>,
    /// The solutions not judged: their language is not in the table, or its tools are not installed here.
    #[serde(default)]
    skipped: Vec<JsonSkipped>,
    /// What the problem's package holds that was judged otherwise than its format says, or not at all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<JsonWarning>,
    isolation: Isolation,
    harness: JsonHarness,
    /// The machine the judge ran on, and when (RFC 3339); empty in reports of older versions.
    #[serde(default)]
    host: String,
    #[serde(default)]
    date: String,
    /// The machine's CPU model, kernel and cgroup mode; empty in reports of older versions.
    #[serde(default)]
    fingerprint: Fingerprint,
    /// The cpjudge that judged: its version and a digest of its executable; empty in reports of older versions.
    #[serde(default)]
    cpjudge: String,
    /// The build key of the checker or interactor, where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checker: Option<String>,
    /// The runs reported, and how many of them were taken from earlier judges rather than made.
    #[serde(default)]
    runs: JsonRuns,
}

#[derive(Serialize, Deserialize, Default)]
struct JsonRuns {
    total: usize,
    reused: usize,
}

#[derive(Serialize, Deserialize)]
struct JsonSkipped {
    name: String,
    path: String,
    /// Absent when no language of the table has files like it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    language: Option<String>,
    why: String,
}

#[derive(Serialize, Deserialize)]
struct JsonLimitCheck {
    /// The CPU time of the slowest run of an accepted submission, and where it was.
    slowest_accepted_us: u64,
    on: String,
    multiplier: f64,
    /// The limit the rule would derive from it.
    derived_ms: u64,
}

#[derive(Serialize, Deserialize)]
struct JsonWarning {
    kind: String,
    file: String,
    /// The line of the key or tag the warning is about, when it is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    message: String,
}

#[derive(Serialize, Deserialize)]
struct JsonInterruption {
    during: String,
    not_judged: Vec<String>,
}

/// The judge itself, beside the verdicts.
#[derive(Serialize, Deserialize)]
struct JsonHarness {
    /// The harness process's own peak resident memory, in bytes.
    peak_memory: u64,
}

/// What a report says about the judge that produced it.
pub struct AboutJudge<'a> {
    pub origin: &'a Origin,
    pub harness_peak_memory: Bytes,
}

#[derive(Serialize, Deserialize)]
struct JsonSolution {
    name: String,
    path: String,
    language: String,
    expected: Vec<String>,
    verdict: String,
    ok: bool,
    /// What is said of it besides its verdict (sensitive to the time limit). Read back, it is said again from
    /// its tests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    compile: JsonCompile,
    /// A scoring problem's score, its highest (where bounded), and each group's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    groups: Vec<crate::scoring::GroupResult>,
    /// The rules beyond its verdict that it broke, each naming itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    broken: Vec<String>,
    /// What it was built from and into: digests of its source, its build key, a digest of the files built, and its
    /// compiler's version. Absent for a program run as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    build: Option<BuildTrace>,
    tests: Vec<JsonTest>,
}

#[derive(Serialize, Deserialize)]
struct JsonCompile {
    ok: bool,
    cached: bool,
    time_ms: u64,
    message: String,
}

#[derive(Serialize, Deserialize)]
struct JsonTest {
    name: String,
    verdict: String,
    time_ms: u64,
    /// The same CPU time in microseconds, for scripts that compare short runs.
    time_us: u64,
    wall_ms: u64,
    memory_kib: u64,
    message: String,
    /// For a wrong answer judged by a built-in comparison, the first differing lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    /// For a wrong answer on a short test: the input, the answer and the output, whole, as the terminal and the
    /// HTML report show them (bytes that are not UTF-8 as U+FFFD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    texts: Option<JsonTexts>,
    /// An interactive test's dialogue, when it failed: `> ` lines from the solution, `< ` from the interactor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dialogue: Option<String>,
    /// For a TLE run that ended within the TLE margin it ran under: the verdict it would get there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at_margin: Option<String>,
    /// The test's score, in a group that scores its tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    /// What the output or static validator wrote in `score.txt` or `score_multiplier.txt`, read back by `merge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    validator_score: Option<crate::check::ValidatorScore>,
    /// The key the run's outcome is kept under, the digests of the test's input and answer, and whether the
    /// outcome was taken from an earlier judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<RunTrace>,
}

#[derive(Serialize, Deserialize)]
struct JsonTexts {
    input: String,
    answer: String,
    output: String,
}

impl JsonTexts {
    fn new(texts: &TestTexts) -> JsonTexts {
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        JsonTexts {
            input: text(&texts.input),
            answer: text(&texts.answer),
            output: text(&texts.output),
        }
    }

    fn texts(self) -> TestTexts {
        TestTexts {
            input: self.input.into_bytes(),
            answer: self.answer.into_bytes(),
            output: self.output.into_bytes(),
        }
    }
}

fn solution(report: &JudgeReport, s: &SolutionReport) -> JsonSolution {
    JsonSolution {
        name: s.name.clone(),
        path: crate::text::file_name(s.path.as_os_str()),
        language: s.language.name().to_owned(),
        expected: s.expected.iter().map(|v| v.code().to_owned()).collect(),
        verdict: s.verdict.code().to_owned(),
        ok: s.ok,
        notes: report.notes(s),
        compile: JsonCompile {
            ok: s.compile.ok,
            cached: s.compile.cached,
            time_ms: millis(s.compile.time),
            message: s.compile.message.clone(),
        },
        score: s.score,
        max_score: s.max_score,
        groups: s.groups.clone(),
        broken: s.broken.clone(),
        build: s.build.clone(),
        tests: s.tests.iter().map(test).collect(),
    }
}

fn test(t: &TestResult) -> JsonTest {
    JsonTest {
        name: t.name.clone(),
        verdict: t.verdict.code().to_owned(),
        time_ms: millis(t.cpu),
        time_us: t.cpu.as_micros() as u64,
        wall_ms: millis(t.wall),
        memory_kib: t.memory.kib(),
        message: t.message.clone(),
        diff: t.diff.clone(),
        texts: t.texts.as_deref().map(JsonTexts::new),
        dialogue: t.dialogue.clone(),
        at_margin: t.at_margin.map(|v| v.code().to_owned()),
        score: t.score,
        validator_score: t.validator_score,
        record: t.trace.as_deref().cloned(),
    }
}

/// Writes the report as one JSON object and a newline.
pub fn write_json(report: &JudgeReport, about: &AboutJudge, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &json_report(report, about))?;
    writeln!(out)
}

/// The object [`write_json`] writes, on one line: a report of a stream of them (`--watch --json`).
pub fn write_json_line(
    report: &JudgeReport,
    about: &AboutJudge,
    out: &mut dyn Write,
) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &json_report(report, about))?;
    writeln!(out)?;
    out.flush()
}

/// The object [`write_json`] writes, for a report that holds it among others.
pub(super) fn report_value(report: &JudgeReport, about: &AboutJudge) -> serde_json::Value {
    serde_json::to_value(json_report(report, about)).expect("a report is plain data")
}

fn json_report(report: &JudgeReport, about: &AboutJudge) -> JsonReport {
    JsonReport {
        problem: report.problem.clone(),
        time_limit_ms: millis(report.time_limit),
        memory_limit_kib: report.memory_limit.kib(),
        time_limit_origin: report.time_limit_origin.clone(),
        time_limit_check: report.time_limit_check.as_ref().map(|c| JsonLimitCheck {
            slowest_accepted_us: c.slowest.as_micros() as u64,
            on: c.on.clone(),
            multiplier: c.multiplier,
            derived_ms: millis(c.derived),
        }),
        time_limit_warning: report.time_limit_warning(),
        tle_time_limit_ms: report.tle_time_limit.map(millis),
        time_limit_overridden: report.time_limit_overridden,
        memory_limit_overridden: report.memory_limit_overridden,
        ok: report.all_as_expected(),
        interrupted: report.interrupted.as_ref().map(|i| JsonInterruption {
            during: i.during.clone(),
            not_judged: i.not_judged.clone(),
        }),
        tests: report.tests.iter().map(str::to_owned).collect(),
        all_tests: report.all_tests,
        partition: report.partition,
        suggested_time_limit: report.suggested_time_limit.clone(),
        solutions: report
            .solutions
            .iter()
            .map(|s| solution(report, s))
            .collect(),
        skipped: report
            .skipped
            .iter()
            .map(|s| JsonSkipped {
                name: s.name.clone(),
                path: s.path.display().to_string(),
                language: s.language.clone(),
                why: s.why.clone(),
            })
            .collect(),
        warnings: report
            .warnings
            .iter()
            .map(|w| JsonWarning {
                kind: w.kind.code().to_owned(),
                file: crate::text::file_name(w.file.as_os_str()),
                line: w.line,
                message: w.message.clone(),
            })
            .collect(),
        isolation: about.origin.isolation.clone(),
        harness: JsonHarness {
            peak_memory: about.harness_peak_memory.0,
        },
        host: about.origin.host.clone(),
        date: about.origin.date.clone(),
        fingerprint: about.origin.fingerprint.clone(),
        cpjudge: about.origin.cpjudge.clone(),
        checker: report.checker.clone(),
        runs: {
            let (total, reused) = report.runs_reused();
            JsonRuns { total, reused }
        },
    }
}

/// A report read back from `judge --json`, with the isolation it was judged under.
#[derive(Debug, Clone)]
pub struct SavedReport {
    pub report: JudgeReport,
    pub origin: Origin,
}

/// A size given in KiB, as bytes: a report edited by hand may give one no byte count holds.
fn kib(n: u64) -> Result<Bytes, String> {
    n.checked_mul(Bytes::KIB)
        .map(Bytes)
        .ok_or_else(|| format!("{n} KiB is too large a size"))
}

/// Reads a report written by `judge --json`; an error says what is wrong with it.
pub fn read_json(text: &str) -> Result<SavedReport, String> {
    let json: JsonReport = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let verdict = |code: &str| {
        code.parse::<Verdict>()
            .map_err(|_| format!("unknown verdict {code:?}"))
    };
    let solutions = json
        .solutions
        .into_iter()
        .map(|s| {
            let tests = s
                .tests
                .into_iter()
                .map(|t| {
                    Ok(TestResult {
                        verdict: verdict(&t.verdict)?,
                        cpu: Duration::from_micros(t.time_us),
                        wall: Duration::from_millis(t.wall_ms),
                        memory: kib(t.memory_kib)?,
                        message: t.message,
                        diff: t.diff,
                        input: Path::new("").into(),
                        texts: t.texts.map(|t| Box::new(t.texts())),
                        dialogue: t.dialogue,
                        at_margin: t.at_margin.as_deref().map(verdict).transpose()?,
                        validator_score: t.validator_score,
                        score: t.score,
                        // Not in the report: only judging looks at it.
                        passes: 1,
                        trace: t.record.map(Box::new),
                        name: t.name,
                    })
                })
                .collect::<Result<_, String>>()?;
            Ok(SolutionReport {
                language: Language::named(&s.language)
                    .ok_or_else(|| format!("unknown language {:?}", s.language))?,
                expected: s
                    .expected
                    .iter()
                    .map(|v| verdict(v))
                    .collect::<Result<_, _>>()?,
                verdict: verdict(&s.verdict)?,
                ok: s.ok,
                compile: CompileOutcome {
                    ok: s.compile.ok,
                    time: Duration::from_millis(s.compile.time_ms),
                    message: s.compile.message,
                    cached: s.compile.cached,
                },
                tests,
                score: s.score,
                max_score: s.max_score,
                groups: s.groups,
                broken: s.broken,
                build: s.build,
                path: s.path.into(),
                name: s.name,
            })
        })
        .collect::<Result<_, String>>()?;
    let warnings = json
        .warnings
        .into_iter()
        .map(|w| {
            let kind = WarningKind::from_code(&w.kind)
                .ok_or_else(|| format!("unknown kind of warning {:?}", w.kind))?;
            Ok(PackageWarning::new(kind, w.file, w.line, w.message))
        })
        .collect::<Result<_, String>>()?;
    Ok(SavedReport {
        report: JudgeReport {
            main_reference: None,
            problem: json.problem,
            time_limit: Duration::from_millis(json.time_limit_ms),
            memory_limit: kib(json.memory_limit_kib)?,
            time_limit_overridden: json.time_limit_overridden,
            time_limit_origin: json.time_limit_origin,
            time_limit_check: json.time_limit_check.map(|c| LimitCheck {
                slowest: Duration::from_micros(c.slowest_accepted_us),
                on: c.on,
                multiplier: c.multiplier,
                derived: Duration::from_millis(c.derived_ms),
            }),
            tle_time_limit: json.tle_time_limit_ms.map(Duration::from_millis),
            memory_limit_overridden: json.memory_limit_overridden,
            tests: json.tests.into_iter().collect(),
            all_tests: json.all_tests,
            partition: json.partition,
            suggested_time_limit: json.suggested_time_limit,
            solutions,
            skipped: json
                .skipped
                .into_iter()
                .map(|s| Skipped {
                    name: s.name,
                    path: s.path.into(),
                    language: s.language,
                    why: s.why,
                })
                .collect(),
            interrupted: json.interrupted.map(|i| Interruption {
                during: i.during,
                not_judged: i.not_judged,
            }),
            warnings,
            checker: json.checker,
        },
        origin: Origin {
            isolation: json.isolation,
            host: json.host,
            date: json.date,
            fingerprint: json.fingerprint,
            cpjudge: json.cpjudge,
        },
    })
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
    /// What the problem still lacks to be ready: "an input validator", "a solution expected TLE", ...
    pub lacks: Vec<String>,
    pub error: Option<String>,
}

impl ProblemSummary {
    /// A problem (or a folder that should be one) whose configuration could not be read: its name and why.
    pub fn broken(name: String, error: String) -> Self {
        ProblemSummary {
            name,
            title: None,
            time_limit_ms: None,
            memory_limit_kib: None,
            tests: None,
            solutions: None,
            lacks: Vec::new(),
            error: Some(error),
        }
    }
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
            input: Path::new(&format!("testdata/sum/{name}.in")).into(),
            texts: None,
            dialogue: None,
            at_margin: None,
            validator_score: None,
            score: None,
            passes: 1,
            trace: None,
        };
        let compile = |ok, message: &str| CompileOutcome {
            ok,
            time: Duration::from_millis(300),
            message: message.into(),
            cached: false,
        };
        JudgeReport {
            main_reference: None,
            checker: None,
            problem: "sum".into(),
            time_limit: Duration::from_secs(1),
            memory_limit: Bytes::mib(256),
            time_limit_overridden: false,
            time_limit_origin: None,
            time_limit_check: None,
            tle_time_limit: None,
            memory_limit_overridden: false,
            skipped: Vec::new(),
            interrupted: None,
            tests: ["1", "2"].into_iter().collect(),
            all_tests: false,
            partition: None,
            suggested_time_limit: None,
            warnings: Vec::new(),
            solutions: vec![
                SolutionReport {
                    score: None,
                    max_score: None,
                    groups: Vec::new(),
                    broken: Vec::new(),
                    build: None,
                    name: "ref".into(),
                    path: "problems/sum/solutions/ref.rs".into(),
                    language: Language::shipped("rust"),
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
                    score: None,
                    max_score: None,
                    groups: Vec::new(),
                    broken: Vec::new(),
                    build: None,
                    name: "off_by_one".into(),
                    path: "problems/sum/solutions/off_by_one.cpp".into(),
                    language: Language::shipped("cpp"),
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
                    score: None,
                    max_score: None,
                    groups: Vec::new(),
                    broken: Vec::new(),
                    build: None,
                    name: "broken".into(),
                    path: "problems/sum/solutions/broken.c".into(),
                    language: Language::shipped("c"),
                    expected: vec![Verdict::CompileError],
                    verdict: Verdict::CompileError,
                    ok: true,
                    compile: compile(false, "broken.c:1:1: error: expected ';'"),
                    tests: vec![],
                },
            ],
        }
    }

    /// A scoring problem's report: a full score, a partial one, and one that broke a rule beyond its verdict with
    /// a group not run; the samples not counted.
    pub(crate) fn scored_report() -> JudgeReport {
        use crate::scoring::GroupResult;
        let mut report = sample_report();
        report.problem = "ladder".into();
        report.tests = [
            "sample/1",
            "secret/group1/1",
            "secret/group1/2",
            "secret/group2/1",
        ]
        .into_iter()
        .collect();
        let group =
            |name: &str, verdict: Option<Verdict>, score: f64, max: Option<f64>| GroupResult {
                name: name.into(),
                verdict,
                score,
                max,
                counted: name != "sample",
                note: None,
            };
        let template = report.solutions[0].tests[0].clone();
        let runs = |verdicts: &[Verdict], scores: &[f64]| -> Vec<TestResult> {
            verdicts
                .iter()
                .zip(scores)
                .zip(report.tests.iter())
                .map(|((verdict, score), name)| TestResult {
                    name: name.to_owned(),
                    verdict: *verdict,
                    score: Some(*score),
                    ..template.clone()
                })
                .collect()
        };
        use Verdict::{Accepted as AC, WrongAnswer as WA};
        let mut full = report.solutions[0].clone();
        full.name = "full_solution.cpp".into();
        full.tests = runs(&[AC, AC, AC, AC], &[0.0, 20.0, 20.0, 60.0]);
        full.score = Some(100.0);
        full.max_score = Some(100.0);
        full.groups = vec![
            group("sample", Some(AC), 0.0, None),
            group("secret", Some(AC), 100.0, Some(100.0)),
            group("secret/group1", Some(AC), 40.0, Some(40.0)),
            group("secret/group2", Some(AC), 60.0, Some(60.0)),
        ];
        let mut partial = full.clone();
        partial.name = "partial_greedy.py".into();
        partial.expected = vec![WA];
        partial.verdict = WA;
        partial.tests = runs(&[AC, AC, AC, WA], &[0.0, 20.0, 20.0, 0.0]);
        partial.tests[3].message = "token 1: expected \"7\", found \"6\"".into();
        partial.score = Some(40.0);
        partial.groups[1] = group("secret", Some(WA), 40.0, Some(100.0));
        partial.groups[3] = group("secret/group2", Some(WA), 0.0, Some(60.0));
        let mut lucky = partial.clone();
        lucky.name = "samples_only.rs".into();
        lucky.ok = false;
        lucky.tests = runs(&[AC, WA], &[0.0, 0.0]);
        lucky.tests[1].message = "token 1: expected \"3\", found \"2\"".into();
        lucky.score = Some(0.0);
        lucky.groups = vec![
            group("sample", Some(AC), 0.0, None),
            group("secret", Some(WA), 0.0, Some(100.0)),
            group("secret/group1", Some(WA), 0.0, Some(40.0)),
            group("secret/group2", None, 0.0, Some(60.0)),
        ];
        lucky.broken = vec![
            "problem.toml: samples_only.rs: its score must be from 10 to 30, and it got 0".into(),
        ];
        report.solutions = vec![full, partial, lucky];
        report
    }

    fn sample_origin() -> Origin {
        Origin {
            isolation: Isolation::off(),
            host: "judge-1".into(),
            date: "2026-11-23T14:00:00Z".into(),
            fingerprint: Default::default(),
            cpjudge: String::new(),
        }
    }

    #[test]
    fn a_report_read_back_writes_the_same_json() {
        let origin = sample_origin();
        let about = AboutJudge {
            origin: &origin,
            harness_peak_memory: Bytes::mib(12),
        };
        let mut report = sample_report();
        report.partition = Some(Partition { index: 2, count: 3 });
        report.tle_time_limit = Some(Duration::from_secs(2));
        // A submission expected TLE that would pass within the TLE margin.
        let mut sensitive = report.solutions[0].clone();
        sensitive.name = "slow".into();
        sensitive.expected = vec![Verdict::TimeLimit];
        sensitive.verdict = Verdict::TimeLimit;
        sensitive.tests[1].verdict = Verdict::TimeLimit;
        sensitive.tests[1].cpu = Duration::from_millis(1730);
        sensitive.tests[1].at_margin = Some(Verdict::Accepted);
        report.solutions.push(sensitive);
        // What a validator's score file said, which a merge decides the test's score from again.
        report.solutions[1].tests[0].validator_score =
            Some(crate::check::ValidatorScore::Multiplier(0.5));
        // A short test's texts, which the HTML of the saved report shows as the judge's did.
        report.solutions[1].tests[0].texts = Some(Box::new(TestTexts {
            input: b"2\n1 3\n".to_vec(),
            answer: b"4\n".to_vec(),
            output: b"5\n".to_vec(),
        }));
        report.time_limit_check = Some(LimitCheck {
            slowest: Duration::from_micros(330_017),
            on: "ref on 2".into(),
            multiplier: 5.0,
            derived: Duration::from_secs(2),
        });
        report.suggested_time_limit = Some(SuggestedLimit {
            limit_ms: 800,
            slowest_reference_ms: 390,
            language: "C++".into(),
            solution: "ref.cpp".into(),
            floor_ms: 500,
            runs: 3,
            host: "judge-2".into(),
            date: "2026-11-22T09:00:00Z".into(),
        });
        report.warnings = vec![PackageWarning::new(
            WarningKind::SubmissionSkipped,
            "sum/submissions/slow_accepted",
            None,
            "not a folder of the format",
        )];
        let mut first = Vec::new();
        write_json(&report, &about, &mut first).unwrap();
        let saved = read_json(std::str::from_utf8(&first).unwrap()).unwrap();
        assert_eq!(saved.origin, origin);
        let mut second = Vec::new();
        write_json(&saved.report, &about, &mut second).unwrap();
        let first = String::from_utf8(first).unwrap();
        assert_eq!(String::from_utf8(second).unwrap(), first);
        assert!(first.contains("\"at_margin\": \"AC\""), "{first}");
        assert!(first.contains("\"input\": \"2\\n1 3\\n\""), "{first}");
        assert_eq!(
            saved.report.solutions[1].tests[0].texts,
            report.solutions[1].tests[0].texts
        );
        assert!(
            first.contains("\"validator_score\": {\n            \"multiplier\": 0.5\n          }"),
            "{first}"
        );
        assert!(first.contains("sensitive to the time limit"), "{first}");
        assert!(read_json("{}").unwrap_err().contains("missing field"));
    }

    #[test]
    fn json_report_schema() {
        let mut out = Vec::new();
        let origin = sample_origin();
        let about = AboutJudge {
            origin: &origin,
            harness_peak_memory: Bytes::mib(12),
        };
        write_json(&sample_report(), &about, &mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
