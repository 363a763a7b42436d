//! Real problem packages written by others (tests/fixtures/corpus), judged as they are: every submission must get a
//! verdict its authors allow, as tests/fixtures/corpus/expected.toml records them, read from the packages themselves
//! (folders, `@EXPECTED_RESULTS@:` tags, submissions.yaml) and not from cpjudge's reading of them.

mod check;
mod judge;
mod languages;
mod scores;
mod table;
mod validation_data;
