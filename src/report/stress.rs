//! What `stress` found: no failure in so many inputs, or the failure, how far it shrank, the input with both
//! outputs, where it was saved and how to keep it as a test.

use super::Style;
use crate::authoring::{Failure, Saved, StressReport};
use crate::judge::TestTexts;
use crate::units::{format_time, millis};
use serde::Serialize;
use std::io::{self, Write};

/// What was stressed, for the report.
pub struct StressAbout<'a> {
    pub problem: &'a str,
    pub submission: &'a str,
    /// The submission's path as given, for a command to paste.
    pub submission_path: &'a str,
    pub main: &'a str,
    pub arguments: &'a [String],
    /// The test whose input the smallest failure is, if it is one already.
    pub existing: Option<&'a str>,
    /// The group a kept failure joins (`--group`).
    pub group: Option<&'a str>,
    /// The problem's groups, one of which a kept failure must join where `group` is not given; empty if none.
    pub groups: Vec<&'a str>,
}

pub fn write_stress(
    report: &StressReport,
    about: &StressAbout,
    saved: Option<&Saved>,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    let tests = crate::units::plural(report.tests as usize, "input");
    let (Some(first), Some(smallest)) = (&report.first, &report.smallest) else {
        let stopped = if report.interrupted {
            "interrupted: "
        } else {
            ""
        };
        return writeln!(
            out,
            "{stopped}{} {} agrees with {} on all {tests} (generator {}, {})",
            style.paint("ok", console::Style::new().green()),
            about.submission,
            about.main,
            about.arguments.join(" "),
            format_time(report.elapsed)
        );
    };
    writeln!(
        out,
        "{} {} gets {} on input {} ({}), after {tests} in {}",
        style.paint("FAILED", console::Style::new().red().bold()),
        about.submission,
        first.result.verdict,
        report.tests,
        origin(first),
        format_time(report.elapsed)
    )?;
    let tries = match report.shrink_tried {
        1 => "1 try".to_owned(),
        n => format!("{n} tries"),
    };
    let shrunk = if smallest.input.len() < first.input.len() {
        format!(
            "shrunk from {} to {} bytes ({}), in {tries}",
            first.input.len(),
            smallest.input.len(),
            origin(smallest),
        )
    } else {
        format!(
            "it does not shrink ({} bytes; {tries})",
            smallest.input.len(),
        )
    };
    let cut = if report.interrupted {
        " (shrinking was interrupted)".to_owned()
    } else if report.shrink_cut {
        format!(
            " (shrinking stopped at its limit of {})",
            format_time(crate::authoring::SHRINK_TIME)
        )
    } else {
        String::new()
    };
    writeln!(out, "{shrunk}{cut}")?;
    writeln!(out, "\n{} on the smallest input:", smallest.result.verdict)?;
    for line in smallest.result.message.lines().take(8) {
        writeln!(out, "    {}", style.cut(line, 4))?;
    }
    let interactive = smallest.result.dialogue.is_some();
    match TestTexts::new(
        smallest.input.clone(),
        smallest.answer.clone(),
        smallest.output.clone(),
    ) {
        Some(texts) if !interactive => super::side_by_side::write(&texts, style, out)?,
        _ => super::table::write_evidence(&smallest.result, style, out)?,
    }
    if let Some(saved) = saved {
        let show = |path| crate::text::relative(path).display().to_string();
        writeln!(out, "\nsaved:")?;
        let rows = [
            (show(&saved.input), "the input".to_owned()),
            if interactive {
                (
                    show(&saved.answer),
                    "the answer file (the input)".to_owned(),
                )
            } else {
                (show(&saved.answer), format!("{}'s output", about.main))
            },
            if interactive {
                (show(&saved.output), "the dialogue".to_owned())
            } else {
                (
                    show(&saved.output),
                    format!("{}'s output", about.submission),
                )
            },
        ];
        let width = rows.iter().map(|(path, _)| path.len()).max().unwrap_or(0);
        for (path, what) in rows {
            writeln!(out, "    {path:<width$}  {what}")?;
        }
        if let Some(test) = about.existing {
            writeln!(
                out,
                "it is test {test} already: `cpjudge judge {} --submission {}` fails it too",
                about.problem, about.submission_path
            )?;
            return Ok(());
        }
        writeln!(out, "to keep it as a test:")?;
        let command = match &smallest.arguments {
            Some(arguments) => format!(
                "cpjudge add {} --gen '{}'",
                about.problem,
                arguments.join(" ")
            ),
            None => format!(
                "cpjudge add {} --input {}",
                about.problem,
                show(&saved.input)
            ),
        };
        match (about.group, about.groups.as_slice()) {
            (Some(group), _) => writeln!(out, "    {command} --group {group}")?,
            (None, []) => writeln!(out, "    {command}")?,
            (None, groups) => {
                writeln!(out, "    {command} --group GROUP")?;
                writeln!(out, "  where GROUP is one of {}", groups.join(", "))?;
            }
        }
    }
    Ok(())
}

/// How an input was made, in words.
fn origin(failure: &Failure) -> String {
    match &failure.arguments {
        Some(arguments) => format!("generator {}", arguments.join(" ")),
        None => "items taken out".to_owned(),
    }
}

#[derive(Serialize)]
struct JsonStress<'a> {
    problem: &'a str,
    submission: &'a str,
    main: &'a str,
    generator_arguments: &'a [String],
    /// The group a kept failure joins (`--group`).
    group: Option<&'a str>,
    tests: u64,
    elapsed_ms: u64,
    interrupted: bool,
    failure: Option<JsonFailure<'a>>,
}

#[derive(Serialize)]
struct JsonFailure<'a> {
    verdict: &'a str,
    message: &'a str,
    first_input_bytes: usize,
    smallest_input_bytes: usize,
    /// The generator's arguments that make the smallest input, if it came straight from the generator.
    generator_arguments: Option<&'a [String]>,
    shrink_tries: u64,
    /// Whether shrinking stopped at its time limit.
    shrink_cut: bool,
    saved: Option<JsonSaved>,
}

#[derive(Serialize)]
struct JsonSaved {
    input: String,
    answer: String,
    output: String,
}

pub fn write_stress_json(
    report: &StressReport,
    about: &StressAbout,
    saved: Option<&Saved>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let failure = match (&report.first, &report.smallest) {
        (Some(first), Some(smallest)) => Some(JsonFailure {
            verdict: smallest.result.verdict.code(),
            message: &smallest.result.message,
            first_input_bytes: first.input.len(),
            smallest_input_bytes: smallest.input.len(),
            generator_arguments: smallest.arguments.as_deref(),
            shrink_tries: report.shrink_tried,
            shrink_cut: report.shrink_cut,
            saved: saved.map(|s| JsonSaved {
                input: s.input.display().to_string(),
                answer: s.answer.display().to_string(),
                output: s.output.display().to_string(),
            }),
        }),
        _ => None,
    };
    let json = JsonStress {
        problem: about.problem,
        submission: about.submission,
        main: about.main,
        generator_arguments: about.arguments,
        group: about.group,
        tests: report.tests,
        elapsed_ms: millis(report.elapsed),
        interrupted: report.interrupted,
        failure,
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}
