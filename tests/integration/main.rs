//! End-to-end tests of the cpjudge binary on small fixture projects under tests/fixtures.

mod harness;
mod judging;
mod mistakes;
mod reports;
