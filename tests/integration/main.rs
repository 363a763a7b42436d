//! End-to-end tests of the cpjudge binary: small fixture projects under tests/fixtures, and the bundled problems.

mod authoring;
mod bundled;
mod cache;
mod corpus;
mod escapes;
mod harness;
mod hostile;
mod html;
mod huge_tests;
mod interactive;
mod java;
mod judging;
mod killed_judge;
mod languages;
mod mistakes;
mod names;
mod new_problem;
mod package_rules;
pub mod packages;
mod partition;
mod real_packages;
mod reports;
mod selecting;
mod timelimit;
mod tour_checker;
mod unprivileged;
mod workers;
