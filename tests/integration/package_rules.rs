//! How a package's own rules are applied, on small packages written for each case: a fixed time limit below the
//! rule of the format, a TLE submission within the TLE margin, and validators that need a deep stack.

use crate::harness::shared_cache;
use crate::packages::{Judged, cpjudge};
use std::path::{Path, PathBuf};

/// A package in a folder of its own, made of `files` (path, contents), one test `secret/1` of `input` and `answer`.
fn write_package(
    files: &[(&str, &str)],
    input: &str,
    answer: &str,
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules");
    let mut all = vec![("data/secret/1.in", input), ("data/secret/1.ans", answer)];
    all.extend_from_slice(files);
    for (file, contents) in all {
        let file = path.join(file);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, contents).unwrap();
    }
    (dir, path)
}

/// A C program that uses `seconds` of CPU time, then copies its input to its output.
fn busy_echo(seconds: f64) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\n\
         int main(void) {{\n\
         \twhile (clock() < {seconds} * CLOCKS_PER_SEC) {{}}\n\
         \tint c;\n\
         \twhile ((c = getchar()) != EOF) putchar(c);\n\
         \treturn 0;\n\
         }}\n"
    )
}

fn judge(package: &Path, more: &[&str]) -> Judged {
    let mut args = vec!["judge", package.to_str().unwrap(), "--json"];
    args.extend_from_slice(more);
    cpjudge(&args, &shared_cache())
}

/// A fixed limit is the author's: an accepted submission whose time times the format's multiplier is past it is
/// judged all the same, under that limit, and the report warns of it. Whether the limit is fixed by `.timelimit`,
/// by problem.yaml or on the command line, no submission runs before the judge to find it.
#[test]
fn a_fixed_time_limit_below_the_rule_is_judged_with_a_warning() {
    let slow = busy_echo(0.3);
    let legacy = "name: Rules\n";
    let fixed_in_yaml = "name: Rules\nlimits:\n  time_limit: 0.5\n";
    // How the limit is fixed: the package's files, and the options of the judge.
    let cases = [
        (
            ".timelimit",
            vec![("problem.yaml", legacy), (".timelimit", "0.5\n")],
            &[][..],
        ),
        (
            "limits.time_limit",
            vec![("problem.yaml", fixed_in_yaml)],
            &[],
        ),
        (
            "--time-limit",
            vec![("problem.yaml", legacy)],
            &["--time-limit", "0.5s"],
        ),
    ];
    for (how, mut files, options) in cases {
        files.push(("submissions/accepted/slow.c", &slow));
        let (_dir, package) = write_package(&files, "7\n", "7\n");
        let judged = judge(&package, options);
        let report = judged.json();
        assert_eq!(judged.code, Some(0), "{how}: {report:#}\n{}", judged.stderr);
        assert_eq!(report["time_limit_ms"], 500, "{how}");
        assert_eq!(report["solutions"][0]["verdict"], "AC", "{how}");
        // 0.3 s x 5 is 1.5 s, three times the limit.
        let warning = report["time_limit_warning"]
            .as_str()
            .unwrap_or_else(|| panic!("{how}: {report:#}"));
        assert!(warning.contains("x 5 is 1.5"), "{how}: {warning}");
        // The reporter says it too, as the judge goes.
        assert!(
            judged.stderr.contains("warning:"),
            "{how}: {}",
            judged.stderr
        );
    }
}

/// A submission expected TLE that runs past the limit but within the TLE margin is TLE: the run is over the limit.
/// That it would pass with the margin is said of it, as a note.
#[test]
fn a_run_over_the_limit_within_the_margin_is_tle_with_a_note() {
    let quick = busy_echo(0.0);
    let within = busy_echo(0.7);
    let files = [
        ("problem.yaml", "name: Rules\n"),
        (".timelimit", "0.5\n"),
        ("submissions/accepted/quick.c", quick.as_str()),
        ("submissions/time_limit_exceeded/within.c", within.as_str()),
    ];
    let (_dir, package) = write_package(&files, "7\n", "7\n");
    let judged = judge(&package, &[]);
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    let within = crate::harness::solution(&report, "within.c");
    assert_eq!(within["verdict"], "TLE", "{within:#}");
    let test = &within["tests"][0];
    assert_eq!(test["verdict"], "TLE", "{test:#}");
    assert_eq!(test["at_margin"], "AC", "{test:#}");
    let notes = within["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("{within:#}"));
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().contains("sensitive to the time limit")),
        "{notes:?}"
    );
    assert_eq!(report["tle_time_limit_ms"], 1000, "{report:#}");
}

/// A line of a million letters, matched by std::regex, which recurses once per character: it needs some 300 MiB of
/// stack, as a solution of a problem with a 2 GiB memory limit may have, and so may the problem's own programs.
#[test]
fn validators_get_at_least_the_stack_of_a_solution() {
    let word = r#"#include <fstream>
#include <iostream>
#include <regex>
#include <string>

// Accepts a line of lower-case letters and nothing else.
int main() {
    std::string line;
    std::getline(std::cin, line);
    static const std::regex word("[a-z]*");
    if (!std::regex_match(line, word)) {
        std::cerr << "not one word" << std::endl;
        return 43;
    }
    return 42;
}
"#;
    let same = r#"#include <fstream>
#include <iostream>
#include <regex>
#include <string>

// Output validator: the output is a line of lower-case letters, the answer's.
int main(int argc, char **argv) {
    std::ifstream answer_file(argv[2]);
    std::string answer, line;
    std::getline(answer_file, answer);
    std::getline(std::cin, line);
    static const std::regex word("[a-z]*");
    if (!std::regex_match(line, word) || line != answer) return 43;
    return 42;
}
"#;
    let echo = busy_echo(0.0);
    let long = format!("{}\n", "a".repeat(1_000_000));
    let files = [
        ("problem.yaml", "name: Rules\nvalidation: custom\n"),
        (".timelimit", "1\n"),
        ("input_validators/word/word.cpp", word),
        ("output_validators/same/same.cpp", same),
        ("submissions/accepted/echo.c", echo.as_str()),
    ];
    let (_dir, package) = write_package(&files, &long, &long);
    let judged = judge(&package, &[]);
    assert_eq!(judged.code, Some(0), "{}\n{}", judged.stdout, judged.stderr);
    assert_eq!(judged.json()["solutions"][0]["verdict"], "AC");
}
