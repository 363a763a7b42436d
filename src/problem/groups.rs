//! `problem.toml`'s test groups (`[[groups]]`: a name, the tests it takes, its points, the groups it requires,
//! how it scores) as a [`Grouping`], and a solution's expected score and group verdicts as [`Expectation`]s.

use super::config::Validator;
use super::{Test, find_tests};
use crate::error::Result;
use crate::scoring::{Aggregation, Expectation, GroupSpec, Grouping, MaxScore, Rule, Scope, Takes};
use crate::verdict::Verdict;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// The group that holds the samples: judged first, never counted in the score.
pub const SAMPLES: &str = "samples";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroup {
    name: Spanned<String>,
    /// Globs over test names below the tests folder; default: the folder named like the group.
    tests: Option<Spanned<OneOrMany>>,
    points: Spanned<f64>,
    #[serde(default)]
    requires: Vec<Spanned<String>>,
    scoring: Option<Spanned<Scoring>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Scoring {
    /// Its points if every test passes, else nothing.
    All,
    /// Its points shared among its tests.
    Sum,
    /// Its points times the lowest test's share: with no scores of the checker's own, as `all`.
    Min,
}

/// `score = 45` or `score = [40, 60]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawScore {
    Exact(f64),
    Range(Vec<f64>),
}

/// A group's expected verdict: "AC", "TLE|WA" or ["TLE", "WA"].
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawVerdicts {
    One(String),
    Many(Vec<String>),
}

/// What a solution's entry says of its score and groups.
pub(super) struct SolutionRules<'a> {
    pub path: &'a str,
    pub score: Option<&'a Spanned<RawScore>>,
    pub groups: Option<&'a Spanned<BTreeMap<String, Spanned<RawVerdicts>>>>,
}

/// The glob a group name must be, so that it can name the group in a scope and a folder.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
}

/// The groups of `raw`, in order: the samples' group, then each one given, under a root that sums their points.
pub(super) fn grouping(v: &Validator, raw: &[Spanned<RawGroup>]) -> Result<Option<Grouping>> {
    if raw.is_empty() {
        return Ok(None);
    }
    let mut children = vec![GroupSpec {
        name: SAMPLES.to_owned(),
        rule: Rule::Modern {
            max: MaxScore::Unbounded,
            aggregation: Aggregation::PassFail,
            require_pass: Vec::new(),
            counted: false,
        },
        takes: Takes::Samples,
        children: Vec::new(),
    }];
    let mut total = 0.0;
    for entry in raw {
        let group = entry.get_ref();
        let name = group.name.get_ref();
        if !plain_name(name) {
            return Err(v.error(
                &group.name,
                "a group's name is letters, digits, '-' and '_'",
            ));
        }
        if name == SAMPLES {
            return Err(v.error(
                &group.name,
                "\"samples\" is the samples' own group: choose another name",
            ));
        }
        if children.iter().any(|c| &c.name == name) {
            return Err(v.error(&group.name, format!("group {name} is given twice")));
        }
        let points = *group.points.get_ref();
        if !(points.is_finite() && points >= 0.0) {
            return Err(v.error(
                &group.points,
                "`points` must be a finite number, at least 0",
            ));
        }
        let takes = match &group.tests {
            None => Takes::Folder(format!("{name}/")),
            Some(tests) => {
                let patterns = match tests.get_ref() {
                    OneOrMany::One(one) => vec![one.clone()],
                    OneOrMany::Many(many) => many.clone(),
                };
                if patterns.is_empty() {
                    return Err(v.error(tests, "`tests` lists no glob"));
                }
                let globs = patterns
                    .iter()
                    .map(|p| {
                        crate::scoring::glob(p)
                            .map(|g| g.compile_matcher())
                            .map_err(|why| {
                                v.error(tests, format!("`tests`: {p:?} is no glob: {why}"))
                            })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Takes::Globs(globs)
            }
        };
        let aggregation = match group.scoring.as_ref().map(|s| *s.get_ref()) {
            None | Some(Scoring::All) => Aggregation::PassFail,
            Some(Scoring::Sum) => Aggregation::Sum,
            Some(Scoring::Min) => Aggregation::Min,
        };
        let mut require_pass = Vec::new();
        for required in &group.requires {
            let wanted = required.get_ref();
            let Some(earlier) = children.iter().find(|c| &c.name == wanted) else {
                let known: Vec<&str> = children.iter().map(|c| c.name.as_str()).collect();
                return Err(v.error(
                    required,
                    format!(
                        "group {name} requires {wanted}, which is not a group before it (those are: {})",
                        known.join(", ")
                    ),
                ));
            };
            // As the package format says: only a group that passes or fails whole can be required.
            if !matches!(
                earlier.rule,
                Rule::Modern {
                    aggregation: Aggregation::PassFail,
                    ..
                }
            ) {
                return Err(v.error(
                    required,
                    format!("group {name} requires {wanted}, which scores by parts: only a group scored \"all\" can be required"),
                ));
            }
            require_pass.push(wanted.clone());
        }
        total += points;
        children.push(GroupSpec {
            name: name.clone(),
            rule: Rule::Modern {
                max: MaxScore::Bounded(points),
                aggregation,
                require_pass,
                counted: true,
            },
            takes,
            children: Vec::new(),
        });
    }
    Ok(Some(Grouping {
        root: GroupSpec {
            name: String::new(),
            rule: Rule::Modern {
                max: MaxScore::Bounded(total),
                aggregation: Aggregation::Sum,
                require_pass: Vec::new(),
                counted: true,
            },
            // The root takes no test itself: a test no group takes is an error, not a test worth nothing.
            takes: Takes::Globs(Vec::new()),
            children,
        },
        by_name: false,
    }))
}

/// Checks the groups against the tests in `tests_dir`: each test in exactly one group, the samples in theirs and
/// no other, and no group without tests. Nothing is checked where the folder has no tests yet.
pub(super) fn check_tests(
    v: &Validator,
    raw: &[Spanned<RawGroup>],
    grouping: &Grouping,
    tests_dir: &Path,
) -> Result<()> {
    let Ok(tests) = find_tests(tests_dir) else {
        return Ok(());
    };
    let first = &raw[0];
    let (tree, ordered) = grouping.tree(&tests).map_err(|why| v.error(first, why))?;
    for group in tree.groups().iter().skip(1) {
        for index in group.tests() {
            let test: &Test = ordered[index];
            if (group.name == SAMPLES) != test.is_sample() {
                let why = if test.is_sample() {
                    format!(
                        "sample {} is taken by group {}: the samples make a group of their own",
                        test.name, group.name
                    )
                } else {
                    format!(
                        "test {} is taken for a sample: its name must not start with \"sample\"",
                        test.name
                    )
                };
                let at = raw
                    .iter()
                    .find(|r| r.get_ref().name.get_ref() == &group.name)
                    .map_or(first, |r| r);
                return Err(v.error(at, why));
            }
        }
    }
    for entry in raw {
        let name = entry.get_ref().name.get_ref();
        if !tree.groups().iter().any(|g| &g.name == name) {
            let what = match &entry.get_ref().tests {
                Some(_) => "none matches its `tests`".to_owned(),
                None => format!("it takes the folder {name}/ by default, and that has none"),
            };
            return Err(v.error(
                &entry.get_ref().name,
                format!(
                    "group {name} takes no test of {}: {what}",
                    tests_dir.display()
                ),
            ));
        }
    }
    Ok(())
}

/// The line of `problem.toml` an offset is on.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn verdicts(v: &Validator, raw: &Spanned<RawVerdicts>) -> Result<Vec<Verdict>> {
    let codes: Vec<String> = match raw.get_ref() {
        RawVerdicts::One(one) => one.split('|').map(|c| c.trim().to_owned()).collect(),
        RawVerdicts::Many(many) => many.clone(),
    };
    if codes.is_empty() || codes.iter().any(String::is_empty) {
        return Err(v.error(raw, "a group's verdict is like \"AC\" or \"TLE|WA\""));
    }
    codes
        .iter()
        .map(|c| {
            c.parse::<Verdict>()
                .map_err(|e| v.error(raw, e.to_string()))
        })
        .collect()
}

/// The rules a solution's `score` and `groups` state.
pub(super) fn expectations(
    v: &Validator,
    grouping: Option<&Grouping>,
    rules: &SolutionRules,
) -> Result<Vec<Expectation>> {
    // Named as written: "problem.toml:31: solutions/slow.rs: large = \"TLE\"".
    let origin = |key: &str, at: std::ops::Range<usize>| {
        format!(
            "problem.toml:{}: {}: {key} = {}",
            line_of(v.text, at.start),
            rules.path,
            v.text.get(at).unwrap_or_default()
        )
    };
    let mut found = Vec::new();
    let groups: Vec<&str> = grouping.map_or_else(Vec::new, |g| {
        g.root.children.iter().map(|c| c.name.as_str()).collect()
    });
    if let Some(score) = rules.score {
        if grouping.is_none() {
            return Err(v.error(
                score,
                "`score` needs [[groups]] with points: this problem is pass-fail",
            ));
        }
        let (low, high) = match score.get_ref() {
            RawScore::Exact(exact) => (*exact, *exact),
            RawScore::Range(range) => match range[..] {
                [low, high] if low <= high => (low, high),
                _ => return Err(v.error(score, "`score` is a number or a range [low, high]")),
            },
        };
        found.push(Expectation {
            origin: origin("score", score.span()),
            scope: Scope::All,
            permitted: None,
            required: None,
            score: Some((low, high)),
            message: None,
            verdict: None,
        });
    }
    if let Some(map) = rules.groups {
        if grouping.is_none() {
            return Err(v.error(map, "`groups` needs [[groups]]: this problem has none"));
        }
        for (name, raw) in map.get_ref() {
            if !groups.contains(&name.as_str()) {
                return Err(v.error(
                    raw,
                    format!(
                        "no group is named {name}: the groups are {}",
                        groups.join(", ")
                    ),
                ));
            }
            found.push(Expectation {
                origin: origin(name, raw.span()),
                scope: Scope::matching(name).map_err(|why| v.error(raw, why))?,
                permitted: None,
                required: None,
                score: None,
                message: None,
                verdict: Some(verdicts(v, raw)?),
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::super::Problem;
    use crate::scoring::Takes;

    /// A project with problem p: `groups` and `solution` appended to its problem.toml, and these tests.
    fn load(
        groups: &str,
        solution: &str,
        tests: &[&str],
    ) -> (tempfile::TempDir, Result<Problem, String>) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("problems/p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("main.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("slow.py"), "print(1)\n").unwrap();
        let toml = format!(
            "title = \"P\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n{groups}\n\
             [[solutions]]\npath = \"main.py\"\nexpected = \"AC\"\nmain = true\n{solution}\n"
        );
        std::fs::write(dir.join("problem.toml"), toml).unwrap();
        for test in tests {
            let path = root.path().join("testdata/p").join(test);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path.with_extension("in"), "1\n").unwrap();
            std::fs::write(path.with_extension("ans"), "1\n").unwrap();
        }
        let loaded = Problem::load("p", &dir).map_err(|e| e.to_string());
        (root, loaded)
    }

    const TWO: &str = "[[groups]]\nname = \"small\"\npoints = 40\nrequires = [\"samples\"]\n\n\
                       [[groups]]\nname = \"large\"\ntests = \"big-*\"\npoints = 60\nscoring = \"sum\"\n";

    #[test]
    fn groups_take_their_folder_or_their_globs() {
        let (_root, problem) = load(TWO, "", &["sample-1", "small/1", "big-1", "big-2"]);
        let problem = problem.unwrap();
        let grouping = problem.groups.unwrap();
        let names: Vec<&str> = grouping
            .root
            .children
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        assert_eq!(names, ["samples", "small", "large"]);
        assert!(matches!(&grouping.root.children[1].takes, Takes::Folder(f) if f == "small/"));
        let tests = super::find_tests(&problem.dir.join("../../testdata/p")).unwrap();
        let (tree, _) = grouping.tree(&tests).unwrap();
        let sizes: Vec<(String, usize)> = tree
            .groups()
            .iter()
            .map(|g| (g.name.clone(), g.tests().len()))
            .collect();
        assert_eq!(
            sizes[1..],
            [
                ("samples".into(), 1),
                ("small".into(), 1),
                ("large".into(), 2)
            ]
        );
    }

    #[test]
    fn mistakes_in_groups_are_named_at_their_line() {
        let cases = [
            (
                TWO,
                &["sample-1", "small/1", "big-1", "other"][..],
                "test other is in no group",
                4,
            ),
            (
                TWO,
                &["sample-1", "small/1"],
                "group large takes no test",
                10,
            ),
            (TWO, &["sample-1", "big-1"], "group small takes no test", 5),
            (
                "[[groups]]\nname = \"a\"\npoints = 1\nrequires = [\"b\"]\n[[groups]]\nname = \"b\"\npoints = 1\n",
                &["a/1", "b/1"],
                "group a requires b, which is not a group before it (those are: samples)",
                7,
            ),
            (
                "[[groups]]\nname = \"a\"\npoints = 1\nrequires = [\"nope\"]\n",
                &["a/1"],
                "group a requires nope",
                7,
            ),
            (
                "[[groups]]\nname = \"a\"\npoints = 1\nscoring = \"sum\"\n[[groups]]\nname = \"b\"\npoints = 1\nrequires = [\"a\"]\n",
                &["a/1", "b/1"],
                "only a group scored \"all\" can be required",
                11,
            ),
            (
                "[[groups]]\nname = \"a\"\npoints = 1\nweight = 2\n",
                &["a/1"],
                "unknown field `weight`",
                7,
            ),
            (
                "[[groups]]\nname = \"a\"\ntests = \"*\"\npoints = 1\n",
                &["sample-1", "x"],
                "test sample-1 is in two groups, samples and a",
                4,
            ),
        ];
        for (groups, tests, wanted, line) in cases {
            let error = load(groups, "", tests).1.unwrap_err();
            assert!(error.contains(wanted), "{groups}: {error}");
            assert!(
                error.contains(&format!("problem.toml:{line}:")),
                "{groups}: {error}"
            );
        }
    }

    #[test]
    fn a_solution_states_its_score_and_group_verdicts() {
        use crate::verdict::Verdict;
        let tests = &["small/1", "big-1"];
        let slow =
            |rules: &str| format!("[[solutions]]\npath = \"slow.py\"\nexpected = \"TLE\"\n{rules}");
        let (_root, problem) = load(
            TWO,
            &slow("score = [40, 50]\ngroups = { small = \"AC\", large = \"TLE|WA\" }"),
            tests,
        );
        let rules = &problem.unwrap().solutions[1].expectations;
        let origins: Vec<&str> = rules.iter().map(|r| r.origin.as_str()).collect();
        assert_eq!(
            origins,
            [
                "problem.toml:22: slow.py: score = [40, 50]",
                "problem.toml:23: slow.py: large = \"TLE|WA\"",
                "problem.toml:23: slow.py: small = \"AC\"",
            ]
        );
        assert_eq!(rules[0].score, Some((40.0, 50.0)));
        assert_eq!(
            rules[1].verdict,
            Some(vec![Verdict::TimeLimit, Verdict::WrongAnswer])
        );
        for (rules, wanted) in [
            (
                "groups = { huge = \"AC\" }",
                "no group is named huge: the groups are samples, small, large",
            ),
            ("groups = { small = \"OK\" }", "OK"),
            ("score = [50, 40]", "a number or a range"),
        ] {
            let error = load(TWO, &slow(rules), tests).1.unwrap_err();
            assert!(
                error.contains(wanted) && error.contains("problem.toml:22:"),
                "{rules}: {error}"
            );
        }
        let error = load("", &slow("score = 30"), tests).1.unwrap_err();
        assert!(error.contains("this problem is pass-fail"), "{error}");
    }
}
