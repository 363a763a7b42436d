//! One submission's report against the authors' intent.

use super::languages::JUDGED_WHERE_PRESENT;
use super::table::Submission;
use serde_json::Value;
use std::path::Path;

/// Whether a solution of the JSON report was skipped rather than judged: its verdict says so, or a field does.
pub fn skipped(solution: &Value) -> bool {
    let verdict = solution["verdict"].as_str().unwrap_or("");
    verdict.eq_ignore_ascii_case("skipped")
        || verdict == "SK"
        || solution["skipped"].as_bool() == Some(true)
        || solution["skipped"].is_string()
        || solution["skipped"].is_object()
}

/// The report's solutions by their path below submissions/ (a folder's solution may be reported by its main file),
/// with whether each was skipped; solutions listed only in a top-level `skipped` list count as skipped too.
pub fn reported<'a>(report: &'a Value, package: &Path) -> Vec<(String, Option<&'a Value>)> {
    let prefix = format!("{}/submissions/", package.display());
    let below = |path: &str| path.strip_prefix(&prefix).unwrap_or(path).to_owned();
    let mut all: Vec<(String, Option<&'a Value>)> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (below(s["path"].as_str().unwrap()), Some(s)))
        .collect();
    for s in report["skipped"].as_array().into_iter().flatten() {
        let path = s.as_str().or_else(|| s["path"].as_str()).unwrap_or("");
        all.push((below(path), None));
    }
    all
}

/// What is wrong with cpjudge's report of one submission, if anything. `solution` is `None` when the report does
/// not name it, `Some(None)` when it names it only as skipped; `present`, whether its language's compiler is here;
/// `memory_limit_kib`, the package's memory limit as the report gives it.
pub fn check(
    entry: &str,
    submission: &Submission,
    solution: Option<Option<&Value>>,
    present: bool,
    memory_limit_kib: u64,
) -> Option<String> {
    let language = &submission.language;
    let was_skipped = matches!(solution, Some(s) if s.is_none_or(skipped));
    if !submission.judged {
        return match solution {
            Some(Some(s)) if !skipped(s) => Some(format!(
                "{entry}: judged ({}), but its authors' judge leaves it out",
                s["verdict"]
            )),
            _ => None,
        };
    }
    let Some(solution) = solution else {
        return (!submission.optional).then(|| format!("{entry}: not reported"));
    };
    if !present {
        return (!was_skipped).then(|| {
            format!("{entry}: no {language} compiler here, so it must be skipped, not judged")
        });
    }
    if was_skipped {
        let may_skip = submission.optional || !JUDGED_WHERE_PRESENT.contains(&language.as_str());
        return (!may_skip).then(|| format!("{entry}: skipped, but {language} is judged here"));
    }
    let solution = solution.unwrap();
    if submission.unchecked.is_some() {
        return None;
    }
    let verdict = solution["verdict"].as_str().unwrap();
    if let Some(gap) = &submission.gap {
        return submission.verdicts.iter().any(|v| v == verdict).then(|| {
            format!("{entry}: got {verdict}, as its authors intend: the gap ({gap}) is closed, remove it")
        });
    }
    let host_bound = verdict == "TLE"
        && submission.slow_memory.is_some()
        && filled_memory(solution, memory_limit_kib);
    if !submission.verdicts.iter().any(|v| v == verdict) && !host_bound {
        return Some(format!(
            "{entry} ({language}): got {verdict}, its authors allow {:?}{}",
            submission.verdicts,
            first_failure(solution)
        ));
    }
    if submission.flagged && solution["ok"] != false {
        return Some(format!(
            "{entry}: got {verdict} in a folder that says otherwise, and was not reported as not as expected"
        ));
    }
    None
}

/// Whether the test a solution ran out of time on had filled at least half the memory limit by then.
fn filled_memory(solution: &Value, memory_limit_kib: u64) -> bool {
    let tests = solution["tests"].as_array().into_iter().flatten();
    tests
        .filter(|t| t["verdict"] == "TLE")
        .filter_map(|t| t["memory_kib"].as_u64())
        .any(|used| used.saturating_mul(2) >= memory_limit_kib)
}

/// What cpjudge said about the first test a solution failed, or its compile error.
fn first_failure(solution: &Value) -> String {
    let said = |text: &str| text.lines().take(3).collect::<Vec<_>>().join(" / ");
    if solution["compile"]["ok"] == false {
        return format!(
            ": {}",
            said(solution["compile"]["message"].as_str().unwrap_or(""))
        );
    }
    let failed = solution["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["verdict"] != "AC");
    // The figures too: a run out of time is told from one held up by the machine by its wall time and memory.
    match failed {
        Some(t) => format!(
            " on {}: {} ({} ms of CPU, {} ms of wall time, {} KiB)",
            t["name"],
            said(t["message"].as_str().unwrap_or("")),
            t["time_ms"],
            t["wall_ms"],
            t["memory_kib"]
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LIMIT: u64 = 2 * 1024 * 1024;

    fn expecting(verdicts: &[&str]) -> Submission {
        Submission {
            language: "c".into(),
            verdicts: verdicts.iter().map(|v| v.to_string()).collect(),
            from: Some("folder".into()),
            flagged: false,
            optional: false,
            unchecked: None,
            slow_memory: None,
            gap: None,
            judged: true,
            note: None,
        }
    }

    fn got(verdict: &str) -> Value {
        json!({"verdict": verdict, "ok": true, "compile": {"ok": true}, "tests": []})
    }

    #[test]
    fn a_verdict_is_checked_against_the_ones_the_authors_allow() {
        let wa_or_re = expecting(&["WA", "RE"]);
        assert_eq!(
            check("a.c", &wa_or_re, Some(Some(&got("RE"))), true, LIMIT),
            None
        );
        let wrong = check("a.c", &wa_or_re, Some(Some(&got("AC"))), true, LIMIT).unwrap();
        assert!(wrong.contains("got AC"), "{wrong}");
        assert!(
            check("a.c", &wa_or_re, None, true, LIMIT)
                .unwrap()
                .contains("not reported")
        );
    }

    #[test]
    fn a_language_without_its_compiler_must_be_skipped() {
        let ac = expecting(&["AC"]);
        assert_eq!(
            check("a.c", &ac, Some(Some(&got("SKIPPED"))), false, LIMIT),
            None
        );
        assert_eq!(check("a.c", &ac, Some(None), false, LIMIT), None);
        assert!(check("a.c", &ac, Some(Some(&got("CE"))), false, LIMIT).is_some());
        // Where the compiler is, a language cpjudge judges must not be skipped; another may be.
        assert!(check("a.c", &ac, Some(Some(&got("SKIPPED"))), true, LIMIT).is_some());
        let lisp = Submission {
            language: "lisp".into(),
            ..expecting(&["AC"])
        };
        assert_eq!(
            check("a.lisp", &lisp, Some(Some(&got("SKIPPED"))), true, LIMIT),
            None
        );
        assert_eq!(
            check("a.lisp", &lisp, Some(Some(&got("AC"))), true, LIMIT),
            None
        );
        assert!(check("a.lisp", &lisp, Some(Some(&got("RE"))), true, LIMIT).is_some());
    }

    #[test]
    fn what_the_authors_leave_out_must_not_be_judged() {
        let left_out = Submission {
            judged: false,
            verdicts: Vec::new(),
            ..expecting(&[])
        };
        assert_eq!(check("x/a.c", &left_out, None, true, LIMIT), None);
        assert_eq!(
            check(
                "x/a.c",
                &left_out,
                Some(Some(&json!({"skipped": true}))),
                true,
                LIMIT
            ),
            None
        );
        assert!(check("x/a.c", &left_out, Some(Some(&got("AC"))), true, LIMIT).is_some());
    }

    #[test]
    fn a_flagged_submission_must_be_reported_as_not_as_expected() {
        let flagged = Submission {
            flagged: true,
            ..expecting(&["WA"])
        };
        let judged = |solution: &Value| {
            check(
                "accepted/wa.py",
                &flagged,
                Some(Some(solution)),
                true,
                LIMIT,
            )
        };
        let mut solution = got("WA");
        assert!(judged(&solution).is_some());
        solution["ok"] = json!(false);
        assert_eq!(judged(&solution), None);
    }

    #[test]
    fn an_unchecked_verdict_is_not_checked_but_optional_ones_may_be_missing() {
        let unchecked = Submission {
            unchecked: Some("host".into()),
            verdicts: Vec::new(),
            ..expecting(&[])
        };
        assert_eq!(
            check("a.c", &unchecked, Some(Some(&got("RE"))), true, LIMIT),
            None
        );
        let optional = Submission {
            optional: true,
            ..expecting(&["AC"])
        };
        assert_eq!(check("a.py", &optional, None, true, LIMIT), None);
    }

    #[test]
    fn a_tle_is_allowed_for_slow_memory_only_where_half_the_memory_was_filled() {
        let filling = Submission {
            slow_memory: Some("host".into()),
            ..expecting(&["RE", "MLE"])
        };
        let tle_at = |memory_kib: u64| {
            let mut solution = got("TLE");
            solution["tests"] = json!([{"name": "1", "verdict": "TLE", "memory_kib": memory_kib}]);
            solution
        };
        assert_eq!(
            check(
                "m.java",
                &filling,
                Some(Some(&tle_at(LIMIT - 50_000))),
                true,
                LIMIT
            ),
            None
        );
        assert_eq!(
            check(
                "m.java",
                &filling,
                Some(Some(&tle_at(LIMIT / 2))),
                true,
                LIMIT
            ),
            None
        );
        assert!(
            check(
                "m.java",
                &filling,
                Some(Some(&tle_at(LIMIT / 2 - 1))),
                true,
                LIMIT
            )
            .is_some()
        );
        assert!(check("m.java", &filling, Some(Some(&tle_at(40_000))), true, LIMIT).is_some());
        let plain = expecting(&["RE", "MLE"]);
        assert!(
            check(
                "m.java",
                &plain,
                Some(Some(&tle_at(LIMIT - 50_000))),
                true,
                LIMIT
            )
            .is_some()
        );
    }

    #[test]
    fn a_folder_is_found_by_its_main_file_and_skipped_lists_count() {
        let report = json!({
            "solutions": [{"path": "/p/submissions/accepted/multi/main.py", "verdict": "AC"}],
            "skipped": [{"path": "/p/submissions/accepted/a.hs"}, "/p/submissions/accepted/b.ml"],
        });
        let found: Vec<(String, bool)> = reported(&report, Path::new("/p"))
            .into_iter()
            .map(|(path, s)| (path, s.is_some()))
            .collect();
        assert_eq!(
            found,
            [
                ("accepted/multi/main.py".to_owned(), true),
                ("accepted/a.hs".to_owned(), false),
                ("accepted/b.ml".to_owned(), false)
            ]
        );
    }
}
