//! The validator's constraint protocol: the `value` and `case` lines a validator may print on stdout for a
//! valid input, read test by test and gathered into a summary of which bounds and special cases the tests reach.

use super::number::{Bounds, Number};
use std::collections::HashMap;

/// A line of a validator's stdout that breaks the protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("test {test}: line {line} of the validator's stdout: {what}")]
pub struct ProtocolError {
    pub test: String,
    /// 1-based.
    pub line: usize,
    pub what: String,
}

/// One line of the protocol.
#[derive(Debug)]
enum Line<'a> {
    Value {
        name: &'a str,
        value: Number,
        bounds: Bounds,
    },
    Case {
        name: &'a str,
        holds: bool,
    },
}

/// Reads one line: `None` for a blank one, else the line or what is wrong with it.
fn parse_line(text: &str) -> Result<Option<Line<'_>>, String> {
    let words: Vec<&str> = text.split_ascii_whitespace().collect();
    let number = |field: &str, word: &str| {
        Number::parse(word).ok_or_else(|| {
            format!(
                "{field} = \"{}\" is not a number",
                crate::text::clip(word, 24)
            )
        })
    };
    match words.as_slice() {
        [] => Ok(None),
        ["value", name, value, min, max] => {
            let (value, min, max) = (
                number("V", value)?,
                number("MIN", min)?,
                number("MAX", max)?,
            );
            if min > max {
                return Err(format!(
                    "{name}: bounds {min}..{max} are empty (MIN is above MAX)"
                ));
            }
            if value < min || value > max {
                return Err(format!(
                    "{name} = {value} is outside its bounds {min}..{max}"
                ));
            }
            Ok(Some(Line::Value {
                name,
                value,
                bounds: Bounds { min, max },
            }))
        }
        ["value", ..] => Err(format!(
            "expected \"value NAME V MIN MAX\", found {} words after \"value\"",
            words.len() - 1
        )),
        ["case", name, answer] => match *answer {
            "yes" => Ok(Some(Line::Case { name, holds: true })),
            "no" => Ok(Some(Line::Case { name, holds: false })),
            _ => Err(format!(
                "case {name}: expected yes or no, found \"{}\"",
                crate::text::clip(answer, 24)
            )),
        },
        ["case", ..] => Err(format!(
            "expected \"case NAME yes|no\", found {} words after \"case\"",
            words.len() - 1
        )),
        [other, ..] => Err(format!(
            "\"{}\" starts neither a \"value\" nor a \"case\" line",
            crate::text::clip(other, 24)
        )),
    }
}

/// What the tests showed of one value name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRow {
    pub name: String,
    pub smallest: Number,
    pub largest: Number,
    /// Every distinct range given for the name, in the order first seen: one unless the bounds depend on the
    /// input (`x` in `1..n`).
    pub bounds: Vec<Bounds>,
    /// Whether some line gave a value equal to its own line's MIN.
    pub low_reached: bool,
    /// Whether some line gave a value equal to its own line's MAX.
    pub high_reached: bool,
    /// In how many tests the name appears.
    pub tests: usize,
}

/// In how many tests a special case holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRow {
    pub name: String,
    pub holds: usize,
}

/// The protocol gathered over a test set: value names, then case names, each in the order first seen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// How many tests were recorded, including those whose validator printed nothing.
    pub tests: usize,
    pub values: Vec<ValueRow>,
    pub cases: Vec<CaseRow>,
}

impl Summary {
    /// Whether no validator printed a single protocol line.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.cases.is_empty()
    }

    /// What no test reaches, each in a few words: a bound (`n = 15`, or `x at its upper bound` where the bounds
    /// depend on the input) and a case (`case corner`), in the order of the summary.
    pub fn unreached(&self) -> Vec<String> {
        let mut unreached = Vec::new();
        for row in &self.values {
            let name = &row.name;
            match row.bounds.as_slice() {
                [only] => {
                    if !row.low_reached {
                        unreached.push(format!("{name} = {}", only.min));
                    }
                    if !row.high_reached {
                        unreached.push(format!("{name} = {}", only.max));
                    }
                }
                _ => {
                    if !row.low_reached {
                        unreached.push(format!("{name} at its lower bound"));
                    }
                    if !row.high_reached {
                        unreached.push(format!("{name} at its upper bound"));
                    }
                }
            }
        }
        let never = self.cases.iter().filter(|c| c.holds == 0);
        unreached.extend(never.map(|c| format!("case {}", c.name)));
        unreached
    }
}

/// A row with the number of the test that last touched it, so that a name counts once per test.
#[derive(Debug)]
struct Tally<T> {
    row: T,
    last_test: usize,
}

/// Gathers the validator's stdout of every test, one [`Constraints::record`] per test.
#[derive(Debug, Default)]
pub struct Constraints {
    tests: usize,
    values: Vec<Tally<ValueRow>>,
    cases: Vec<Tally<CaseRow>>,
    value_index: HashMap<String, usize>,
    case_index: HashMap<String, usize>,
}

impl Constraints {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the stdout of the validator on one valid test. A test whose stdout breaks the protocol is not
    /// counted at all, so that the summary never mixes in half a test.
    pub fn record(&mut self, test: &str, stdout: &[u8]) -> Result<(), ProtocolError> {
        let mut lines = Vec::new();
        for (index, text) in stdout.split(|&b| b == b'\n').enumerate() {
            let error = |what: String| ProtocolError {
                test: test.to_owned(),
                line: index + 1,
                what,
            };
            let text = std::str::from_utf8(text).map_err(|_| error("not UTF-8 text".into()))?;
            if let Some(line) = parse_line(text).map_err(error)? {
                lines.push(line);
            }
        }
        self.tests += 1;
        for line in lines {
            match line {
                Line::Value {
                    name,
                    value,
                    bounds,
                } => self.add_value(name, value, bounds),
                // A test holds a case if any of its lines says yes: an input of several cases says it per case.
                Line::Case { name, holds } => self.add_case(name, holds),
            }
        }
        Ok(())
    }

    fn add_value(&mut self, name: &str, value: Number, bounds: Bounds) {
        let (low, high) = (value == bounds.min, value == bounds.max);
        let Some(&i) = self.value_index.get(name) else {
            self.value_index.insert(name.to_owned(), self.values.len());
            self.values.push(Tally {
                row: ValueRow {
                    name: name.to_owned(),
                    smallest: value.clone(),
                    largest: value,
                    bounds: vec![bounds],
                    low_reached: low,
                    high_reached: high,
                    tests: 1,
                },
                last_test: self.tests,
            });
            return;
        };
        let tally = &mut self.values[i];
        let row = &mut tally.row;
        if tally.last_test != self.tests {
            tally.last_test = self.tests;
            row.tests += 1;
        }
        row.low_reached |= low;
        row.high_reached |= high;
        if !row.bounds.contains(&bounds) {
            row.bounds.push(bounds);
        }
        if value < row.smallest {
            row.smallest = value;
        } else if value > row.largest {
            row.largest = value;
        }
    }

    fn add_case(&mut self, name: &str, holds: bool) {
        let i = *self.case_index.entry(name.to_owned()).or_insert_with(|| {
            self.cases.push(Tally {
                row: CaseRow {
                    name: name.to_owned(),
                    holds: 0,
                },
                last_test: 0,
            });
            self.cases.len() - 1
        });
        let tally = &mut self.cases[i];
        if holds && tally.last_test != self.tests {
            tally.last_test = self.tests;
            tally.row.holds += 1;
        }
    }

    /// What the tests recorded so far reach.
    pub fn summary(&self) -> Summary {
        Summary {
            tests: self.tests,
            values: self.values.iter().map(|t| t.row.clone()).collect(),
            cases: self.cases.iter().map(|t| t.row.clone()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_errors_name_the_line_and_what_is_wrong() {
        let cases = [
            (
                "value n 3 1\n",
                1,
                "expected \"value NAME V MIN MAX\", found 3 words",
            ),
            ("\nvalue n 3 1 15 16\n", 2, "found 5 words"),
            ("value n three 1 15", 1, "V = \"three\" is not a number"),
            ("value n 3 x 15", 1, "MIN = \"x\""),
            ("value n 3 1 ?", 1, "MAX = \"?\""),
            ("value n 3 15 1", 1, "n: bounds 15..1 are empty"),
            ("value n 16 1 15", 1, "n = 16 is outside its bounds 1..15"),
            ("value x 0.5 1 2", 1, "x = 0.5 is outside its bounds 1..2"),
            (
                "case big maybe",
                1,
                "case big: expected yes or no, found \"maybe\"",
            ),
            (
                "case big",
                1,
                "expected \"case NAME yes|no\", found 1 words",
            ),
            ("case two words yes", 1, "found 3 words"),
            ("value n 1 1 1\n\nn = 1\n", 3, "\"n\" starts neither"),
            ("Value n 1 1 1", 1, "\"Value\" starts neither"),
        ];
        for (stdout, line, what) in cases {
            let mut constraints = Constraints::new();
            let error = constraints
                .record("t1", stdout.as_bytes())
                .expect_err(stdout);
            assert_eq!(error.line, line, "{stdout:?}: {error}");
            assert!(error.what.contains(what), "{stdout:?}: {error}");
            assert!(error.to_string().starts_with("test t1: line "), "{error}");
        }
        // Bytes that are not UTF-8 at all.
        let error = Constraints::new()
            .record("t", b"case a yes\nvalue \xff 1 1 1\n")
            .unwrap_err();
        assert_eq!((error.line, error.what.as_str()), (2, "not UTF-8 text"));
    }

    #[test]
    fn blank_lines_and_line_endings_are_accepted() {
        let mut constraints = Constraints::new();
        for stdout in [
            "",
            "\n\n",
            "  \t\n",
            "value n 1 1 15\r\ncase a yes\r\n",
            "case a no",
        ] {
            constraints.record("t", stdout.as_bytes()).expect(stdout);
        }
        let summary = constraints.summary();
        assert_eq!(summary.tests, 5);
        assert_eq!(summary.values.len(), 1);
        assert_eq!(
            summary.cases,
            [CaseRow {
                name: "a".into(),
                holds: 1
            }]
        );
    }

    #[test]
    fn a_broken_test_is_not_counted() {
        let mut constraints = Constraints::new();
        constraints.record("good", b"value n 3 1 15\n").unwrap();
        constraints
            .record("bad", b"value n 15 1 15\ncase c yes\noops\n")
            .unwrap_err();
        let summary = constraints.summary();
        assert_eq!(summary.tests, 1);
        assert!(summary.cases.is_empty());
        assert!(!summary.values[0].high_reached);
    }

    /// A value row in one line: name, seen range, bounds, the ends reached, and in how many tests.
    fn describe(row: &ValueRow) -> String {
        let bounds: Vec<String> = row.bounds.iter().map(Bounds::to_string).collect();
        let ends = match (row.low_reached, row.high_reached) {
            (true, true) => "both",
            (true, false) => "low",
            (false, true) => "high",
            (false, false) => "neither",
        };
        format!(
            "{} {}..{} of {} reached {ends} in {}",
            row.name,
            row.smallest,
            row.largest,
            bounds.join(","),
            row.tests
        )
    }

    /// Each test's stdout, and what the summary says of every value name.
    #[test]
    fn values_are_gathered_over_tests() {
        let cases: [(&[&str], &[&str]); 6] = [
            (
                &["value n 3 1 15"],
                &["n 3..3 of 1..15 reached neither in 1"],
            ),
            (
                &["value n 1 1 15", "value n 15 1 15\nvalue n 7 1 15"],
                &["n 1..15 of 1..15 reached both in 2"],
            ),
            // A name repeated within one test counts that test once.
            (
                &[
                    "value x 0 0 49\nvalue x 48 0 49\nvalue x 3 0 49",
                    "",
                    "value x 5 0 49",
                ],
                &["x 0..48 of 0..49 reached low in 2"],
            ),
            // Bounds that depend on the input: each line is held to its own.
            (
                &[
                    "value x 3 1 3",
                    "value x 2 1 5",
                    "value x 9 1 9",
                    "value x 4 1 5",
                ],
                &["x 2..9 of 1..3,1..5,1..9 reached high in 4"],
            ),
            (
                &[
                    "value p 0.5 0.5 1.0\nvalue q -3 -3 3",
                    "value p 0.75 0.50 1\nvalue q 3 -3 3",
                ],
                &[
                    "p 0.5..0.75 of 0.5..1.0 reached low in 2",
                    "q -3..3 of -3..3 reached both in 2",
                ],
            ),
            // First-seen order, not alphabetical.
            (
                &[
                    "value n 2 1 9\nvalue b 2 1 9",
                    "value a 2 1 9\nvalue n 2 1 9",
                ],
                &[
                    "n 2..2 of 1..9 reached neither in 2",
                    "b 2..2 of 1..9 reached neither in 1",
                    "a 2..2 of 1..9 reached neither in 1",
                ],
            ),
        ];
        for (stdouts, want) in cases {
            let mut constraints = Constraints::new();
            for (i, stdout) in stdouts.iter().enumerate() {
                constraints
                    .record(&format!("t{i}"), stdout.as_bytes())
                    .unwrap();
            }
            let summary = constraints.summary();
            let got: Vec<String> = summary.values.iter().map(describe).collect();
            assert_eq!(got, want, "{stdouts:?}");
        }
    }

    /// Case names and how many tests hold each.
    type Counts = &'static [(&'static str, usize)];

    /// Each test's stdout, and per case name how many tests hold it.
    #[test]
    fn cases_count_the_tests_that_hold_them() {
        let cases: [(&[&str], Counts); 5] = [
            (&["case corner no", "case corner no"], &[("corner", 0)]),
            (
                &["case corner yes", "case corner no", "case corner yes"],
                &[("corner", 2)],
            ),
            // Said of several parts of one input: the test holds the case if any part does.
            (&["case one yes\ncase one no\ncase one yes"], &[("one", 1)]),
            // A test that does not mention a case does not hold it.
            (&["", "case late yes", ""], &[("late", 1)]),
            (
                &["case b no\ncase a yes", "case c yes\ncase a yes"],
                &[("b", 0), ("a", 2), ("c", 1)],
            ),
        ];
        for (stdouts, want) in cases {
            let mut constraints = Constraints::new();
            for stdout in stdouts {
                constraints.record("t", stdout.as_bytes()).unwrap();
            }
            let summary = constraints.summary();
            assert_eq!(summary.tests, stdouts.len());
            let got: Vec<(&str, usize)> = summary
                .cases
                .iter()
                .map(|c| (c.name.as_str(), c.holds))
                .collect();
            assert_eq!(got, want, "{stdouts:?}");
        }
    }
}
