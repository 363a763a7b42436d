//! JUnit XML (`judge --junit FILE`) for CI systems: a test suite per solution, a test case per solution x test,
//! plus one case per solution for "got its expected verdict".

use crate::judge::{JudgeReport, SolutionReport};
use crate::verdict::Verdict;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use std::io::{self, Write};

pub fn write_junit(report: &JudgeReport, out: &mut dyn Write) -> io::Result<()> {
    let mut xml = Writer::new_with_indent(out, b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let failures = report.solutions.iter().filter(|s| !s.ok).count();
    let mut suites = BytesStart::new("testsuites");
    suites.push_attribute(("name", report.problem.as_str()));
    suites.push_attribute(("failures", failures.to_string().as_str()));
    xml.write_event(Event::Start(suites))?;
    for solution in &report.solutions {
        write_suite(&mut xml, report, solution)?;
    }
    xml.write_event(Event::End(BytesEnd::new("testsuites")))?;
    Ok(())
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
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", class.as_str()));
    suite.push_attribute(("tests", (report.tests.len() + 1).to_string().as_str()));
    suite.push_attribute(("failures", failures.to_string().as_str()));
    xml.write_event(Event::Start(suite))?;

    let expected: Vec<_> = solution.expected.iter().map(|v| v.code()).collect();
    let failure = (!solution.ok)
        .then(|| format!("expected {}, got {}", expected.join("|"), solution.verdict));
    write_case(xml, &class, "verdict", 0.0, failure.as_deref(), None)?;
    for name in &report.tests {
        match solution.tests.iter().find(|t| &t.name == name) {
            Some(test) => {
                let failure =
                    test_fails(test.verdict).then(|| format!("{}: {}", test.verdict, test.message));
                write_case(
                    xml,
                    &class,
                    name,
                    test.cpu.as_secs_f64(),
                    failure.as_deref(),
                    None,
                )?;
            }
            None => write_case(xml, &class, name, 0.0, None, Some(not_run))?,
        }
    }
    xml.write_event(Event::End(BytesEnd::new("testsuite")))?;
    Ok(())
}

fn write_case<W: Write>(
    xml: &mut Writer<W>,
    class: &str,
    name: &str,
    seconds: f64,
    failure: Option<&str>,
    skipped: Option<&str>,
) -> io::Result<()> {
    let mut case = BytesStart::new("testcase");
    case.push_attribute(("classname", class));
    case.push_attribute(("name", name));
    case.push_attribute(("time", format!("{seconds:.3}").as_str()));
    if failure.is_none() && skipped.is_none() {
        return xml.write_event(Event::Empty(case));
    }
    xml.write_event(Event::Start(case))?;
    if let Some(message) = failure {
        let mut element = BytesStart::new("failure");
        element.push_attribute(("message", message));
        xml.write_event(Event::Start(element))?;
        xml.write_event(Event::Text(BytesText::new(message)))?;
        xml.write_event(Event::End(BytesEnd::new("failure")))?;
    }
    if let Some(why) = skipped {
        let mut element = BytesStart::new("skipped");
        element.push_attribute(("message", why));
        xml.write_event(Event::Empty(element))?;
    }
    xml.write_event(Event::End(BytesEnd::new("testcase")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_report() {
        let mut out = Vec::new();
        write_junit(&crate::report::json::tests::sample_report(), &mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap());
    }
}
