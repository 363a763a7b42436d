//! JUnit XML (`judge --junit FILE`) for CI systems: a test suite per solution, a test case per solution x test,
//! plus one case per solution for "got its expected verdict"; a scoring problem's groups are suites within the
//! solution's, with their verdict and score as properties. A contest's file holds every problem's suites.

use super::contest::{JudgedProblem, ProblemRow, ProblemStatus};
use crate::judge::{JudgeReport, SolutionReport};
use crate::scoring::{GroupResult, show};
use crate::verdict::Verdict;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use std::io::{self, Write};

pub fn write_junit(report: &JudgeReport, out: &mut dyn Write) -> io::Result<()> {
    let failures = report.solutions.iter().filter(|s| !s.ok).count();
    write_suites(&report.problem, failures, out, |xml| {
        report
            .solutions
            .iter()
            .try_for_each(|solution| write_suite(xml, report, solution))
    })
}

/// The JUnit XML of a contest's judge (`judge --junit FILE` naming no problem): each problem's suites as its own
/// judge writes them, and for a problem that could not be judged, a suite of one failed case saying why.
pub fn write_contest_junit(problems: &[JudgedProblem], out: &mut dyn Write) -> io::Result<()> {
    let failures = problems
        .iter()
        .map(|problem| match &problem.judged {
            Some((report, _)) => report.solutions.iter().filter(|s| !s.ok).count(),
            None => 1,
        })
        .sum();
    write_suites("contest", failures, out, |xml| {
        problems
            .iter()
            .try_for_each(|problem| match &problem.judged {
                Some((report, _)) => report
                    .solutions
                    .iter()
                    .try_for_each(|solution| write_suite(xml, report, solution)),
                None => write_unjudged(xml, &problem.row),
            })
    })
}

/// The document: its `testsuites`, named `name` with `failures` failed suites, holding what `suites` writes.
fn write_suites(
    name: &str,
    failures: usize,
    out: &mut dyn Write,
    suites: impl FnOnce(&mut Writer<&mut dyn Write>) -> io::Result<()>,
) -> io::Result<()> {
    let mut xml = Writer::new_with_indent(out, b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut start = BytesStart::new("testsuites");
    start.push_attribute(("name", name));
    start.push_attribute(("failures", failures.to_string().as_str()));
    xml.write_event(Event::Start(start))?;
    suites(&mut xml)?;
    xml.write_event(Event::End(BytesEnd::new("testsuites")))?;
    writeln!(xml.get_mut())
}

/// The suite of a problem that could not be judged: one failed case, saying why.
fn write_unjudged<W: Write>(xml: &mut Writer<W>, row: &ProblemRow) -> io::Result<()> {
    let why = match &row.status {
        ProblemStatus::Broken(why) => why.as_str(),
        _ => "not judged",
    };
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", row.problem.as_str()));
    suite.push_attribute(("tests", "1"));
    suite.push_attribute(("failures", "1"));
    suite.push_attribute(("skipped", "0"));
    xml.write_event(Event::Start(suite))?;
    Case {
        name: "judged",
        seconds: 0.0,
        failure: Some(why),
        skipped: None,
        output: None,
    }
    .write(xml, &row.problem)?;
    xml.write_event(Event::End(BytesEnd::new("testsuite")))
}

fn write_suite<W: Write>(
    xml: &mut Writer<W>,
    report: &JudgeReport,
    solution: &SolutionReport,
) -> io::Result<()> {
    let class = format!("{}.{}", report.problem, solution.name);
    let expects_ac = solution.expected == [Verdict::Accepted];
    // A test fails only for a solution that should pass it; a kept wrong solution failing is the point.
    let test_fails = |verdict: Verdict| expects_ac && !verdict.is_accepted();
    let failures = usize::from(!solution.ok)
        + solution
            .tests
            .iter()
            .filter(|t| test_fails(t.verdict))
            .count();
    let not_run = if solution.compile.ok {
        "not run: judging stopped at an earlier failing test"
    } else {
        "not run: the solution did not compile"
    };
    let skipped = report.tests.len() - solution.tests.len();
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", class.as_str()));
    suite.push_attribute(("tests", (report.tests.len() + 1).to_string().as_str()));
    suite.push_attribute(("failures", failures.to_string().as_str()));
    suite.push_attribute(("skipped", skipped.to_string().as_str()));
    xml.write_event(Event::Start(suite))?;

    let expected: Vec<_> = solution.expected.iter().map(|v| v.code()).collect();
    let failure = (!solution.ok).then(|| {
        let mut why = format!("expected {}, got {}", expected.join("|"), solution.verdict);
        if !solution.compile.ok {
            why.push_str(&format!(": {}", solution.compile.message));
        }
        // A rule beyond the verdict, broken, fails the solution as a wrong verdict does.
        let mut reasons: Vec<String> = solution.broken.clone();
        if !solution.expected.contains(&solution.verdict) || reasons.is_empty() {
            reasons.insert(0, why);
        }
        reasons.join("\n")
    });
    // The compiler's message goes with the verdict, whether a compile error was expected or not.
    let compiler = (!solution.compile.ok).then_some(solution.compile.message.as_str());
    Case {
        name: "verdict",
        seconds: 0.0,
        failure: failure.as_deref(),
        skipped: None,
        output: compiler,
    }
    .write(xml, &class)?;
    let case = |xml: &mut Writer<W>, name: &str| -> io::Result<()> {
        match solution.tests.iter().find(|t| t.name == name) {
            Some(test) => Case {
                name,
                seconds: test.cpu.as_secs_f64(),
                failure: test_fails(test.verdict)
                    .then(|| format!("{}: {}", test.verdict, test.message))
                    .as_deref(),
                skipped: None,
                output: None,
            }
            .write(xml, &class),
            None => Case {
                name,
                seconds: 0.0,
                failure: None,
                skipped: Some(not_run),
                output: None,
            }
            .write(xml, &class),
        }
    };
    let groups = &solution.groups;
    for name in report.tests.iter().filter(|t| parent(groups, t).is_none()) {
        case(xml, name)?;
    }
    for group in groups.iter().filter(|g| parent(groups, &g.name).is_none()) {
        write_group(xml, report, &class, groups, group, &case)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuite")))?;
    Ok(())
}

/// The innermost group holding the test or group `name`, if any.
fn parent<'a>(groups: &'a [GroupResult], name: &str) -> Option<&'a GroupResult> {
    let (above, _) = name.rsplit_once('/')?;
    groups
        .iter()
        .find(|g| g.name == above)
        .or_else(|| parent(groups, above))
}

/// A group's suite: its verdict and score, its tests' cases, then its groups' suites.
fn write_group<W: Write>(
    xml: &mut Writer<W>,
    report: &JudgeReport,
    class: &str,
    groups: &[GroupResult],
    group: &GroupResult,
    case: &dyn Fn(&mut Writer<W>, &str) -> io::Result<()>,
) -> io::Result<()> {
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", format!("{class}.{}", group.name).as_str()));
    xml.write_event(Event::Start(suite))?;
    xml.write_event(Event::Start(BytesStart::new("properties")))?;
    let verdict = group.verdict.map_or("not run", |v| v.code());
    let mut properties = vec![
        ("verdict", verdict.to_owned()),
        ("score", show(group.score)),
    ];
    if let Some(max) = group.max {
        properties.push(("max_score", show(max)));
    }
    properties.push(("counted", group.counted.to_string()));
    if let Some(note) = &group.note {
        properties.push(("note", note.clone()));
    }
    for (name, value) in properties {
        let mut property = BytesStart::new("property");
        property.push_attribute(("name", name));
        property.push_attribute(("value", value.as_str()));
        xml.write_event(Event::Empty(property))?;
    }
    xml.write_event(Event::End(BytesEnd::new("properties")))?;
    let held = |name: &str| parent(groups, name).is_some_and(|g| g.name == group.name);
    for name in report.tests.iter().filter(|t| held(t)) {
        case(xml, name)?;
    }
    let children = groups
        .iter()
        .filter(|g| parent(groups, &g.name).is_some_and(|p| p.name == group.name));
    for child in children {
        write_group(xml, report, class, groups, child, case)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuite")))
}

/// One test case: passed, failed, or skipped, with what the program (or compiler) said.
struct Case<'a> {
    name: &'a str,
    seconds: f64,
    failure: Option<&'a str>,
    skipped: Option<&'a str>,
    output: Option<&'a str>,
}

impl Case<'_> {
    fn write<W: Write>(&self, xml: &mut Writer<W>, class: &str) -> io::Result<()> {
        let mut case = BytesStart::new("testcase");
        case.push_attribute(("classname", class));
        case.push_attribute(("name", self.name));
        case.push_attribute(("time", format!("{:.3}", self.seconds).as_str()));
        if self.failure.is_none() && self.skipped.is_none() && self.output.is_none() {
            return xml.write_event(Event::Empty(case));
        }
        xml.write_event(Event::Start(case))?;
        if let Some(message) = self.failure {
            let mut element = BytesStart::new("failure");
            element.push_attribute(("message", message));
            xml.write_event(Event::Start(element))?;
            xml.write_event(Event::Text(BytesText::new(message)))?;
            xml.write_event(Event::End(BytesEnd::new("failure")))?;
        }
        if let Some(why) = self.skipped {
            let mut element = BytesStart::new("skipped");
            element.push_attribute(("message", why));
            xml.write_event(Event::Empty(element))?;
        }
        if let Some(output) = self.output {
            xml.write_event(Event::Start(BytesStart::new("system-out")))?;
            xml.write_event(Event::Text(BytesText::new(output)))?;
            xml.write_event(Event::End(BytesEnd::new("system-out")))?;
        }
        xml.write_event(Event::End(BytesEnd::new("testcase")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_report() {
        let mut out = Vec::new();
        write_junit(&crate::report::json::tests::sample_report(), &mut out).unwrap();
        let xml = String::from_utf8(out).unwrap();
        assert!(xml.ends_with("</testsuites>\n"));
        insta::assert_snapshot!(xml);
    }

    #[test]
    fn groups_as_suites_in_junit() {
        let mut out = Vec::new();
        write_junit(&crate::report::json::tests::scored_report(), &mut out).unwrap();
        let xml = String::from_utf8(out).unwrap();
        assert!(
            xml.contains(r#"<testsuite name="ladder.partial_greedy.py.secret/group2">"#),
            "{xml}"
        );
        assert!(xml.contains("its score must be from 10 to 30"), "{xml}");
        insta::assert_snapshot!(xml);
    }
}
