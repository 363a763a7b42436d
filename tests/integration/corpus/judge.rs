//! Each package judged by cpjudge, one test per package.

use super::check::{check, reported, skipped};
use super::languages::present;
use super::table::{Outcome, corpus, table};
use crate::harness::shared_cache;
use crate::packages::cpjudge;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Copies a package, keeping its links as links: packages share tests and submissions through links.
pub(super) fn copy_package(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if kind.is_symlink() {
            let link = std::fs::read_link(entry.path()).unwrap();
            std::os::unix::fs::symlink(link, &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Judges one package of the corpus and checks every submission against the table; one failure lists every
/// submission that went wrong, with what cpjudge said.
fn judge(source: &str, name: &str) {
    let table = table();
    let package = &table[source][name];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    copy_package(&corpus().join(source).join(name), &path);
    let judged = cpjudge(
        &["judge", path.to_str().unwrap(), "--json"],
        &shared_cache(),
    );
    let at = format!("{source}/{name}");
    if package.outcome == Outcome::Refused {
        let refusal = package.refusal.as_deref().unwrap();
        // A report, if there is one, is summed up: its verdicts are the ones the authors never meant.
        let report = serde_json::from_str::<Value>(&judged.stdout).map(|r| {
            let verdicts: Vec<String> = r["solutions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| format!("{} {}", s["name"], s["verdict"]))
                .collect();
            format!("judged instead: {}", verdicts.join(", "))
        });
        assert!(
            judged.code == Some(2) && judged.stderr.contains(refusal),
            "{at} must be refused with a message naming {refusal:?}; exit code {:?}:\n{}\n{}",
            judged.code,
            judged.stderr,
            report.unwrap_or(judged.stdout)
        );
        return;
    }
    assert!(
        matches!(judged.code, Some(0 | 1)),
        "{at} was not judged: exit code {:?}\n{}",
        judged.code,
        judged.stderr
    );
    let report = judged.json();
    let mut found = reported(&report, &path);
    let memory_limit_kib = report["memory_limit_kib"].as_u64().unwrap();
    let mut problems = Vec::new();
    for (entry, submission) in &package.submissions {
        let mine =
            |(p, _): &(String, Option<&Value>)| p == entry || p.starts_with(&format!("{entry}/"));
        let position = found.iter().position(mine);
        let solution = position.map(|i| found.remove(i).1);
        problems.extend(check(
            entry,
            submission,
            solution,
            present(&submission.language),
            memory_limit_kib,
        ));
    }
    for (path, solution) in found {
        if !solution.is_none_or(skipped) {
            problems.push(format!("{path}: judged, and not in expected.toml"));
        }
    }
    assert!(
        problems.is_empty(),
        "{at}: {} of {} submissions not as their authors intend:\n  {}\n{}",
        problems.len(),
        package.submissions.len(),
        problems.join("\n  "),
        judged.stderr
    );
}

/// One test per package, so that each can be run alone (`cargo test --test main corpus_domjudge_hello`) and the
/// test runner judges several at once.
macro_rules! corpus {
    ($($test:ident: $source:literal / $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                judge($source, $name);
            }
        )*

        #[test]
        fn every_package_of_the_table_has_its_test() {
            let tested: BTreeSet<(&str, &str)> = [$(($source, $name)),*].into_iter().collect();
            let table = table();
            let listed: BTreeSet<(&str, &str)> = table
                .iter()
                .flat_map(|(s, ps)| ps.keys().map(move |p| (s.as_str(), p.as_str())))
                .collect();
            assert_eq!(tested, listed);
        }
    };
}

corpus! {
    corpus_problemtools_different: "problemtools" / "different",
    corpus_problemtools_guess: "problemtools" / "guess",
    corpus_problemtools_hello: "problemtools" / "hello",
    corpus_problemtools_oddecho: "problemtools" / "oddecho",
    corpus_domjudge_addone: "domjudge" / "addone",
    corpus_domjudge_boolfind: "domjudge" / "boolfind",
    corpus_domjudge_fibonacci: "domjudge" / "fibonacci",
    corpus_domjudge_fltcmp: "domjudge" / "fltcmp",
    corpus_domjudge_hangman: "domjudge" / "hangman",
    corpus_domjudge_hello: "domjudge" / "hello",
    corpus_domjudge_jumble: "domjudge" / "jumble",
    corpus_domjudge_knapsack: "domjudge" / "knapsack",
    corpus_domjudge_largestsum: "domjudge" / "largestsum",
    corpus_bapctools_alternativeencryption: "bapctools" / "alternativeencryption",
    corpus_bapctools_boolfind: "bapctools" / "boolfind",
    corpus_bapctools_constants: "bapctools" / "constants",
    corpus_bapctools_different: "bapctools" / "different",
    corpus_bapctools_fltcmp: "bapctools" / "fltcmp",
    corpus_bapctools_generatorincludes: "bapctools" / "generatorincludes",
    corpus_bapctools_guess: "bapctools" / "guess",
    corpus_bapctools_guessnoeofcheck: "bapctools" / "guessnoeofcheck",
    corpus_bapctools_hello: "bapctools" / "hello",
    corpus_bapctools_helloproblemtools: "bapctools" / "helloproblemtools",
    corpus_bapctools_hellounix: "bapctools" / "hellounix",
    corpus_bapctools_identity: "bapctools" / "identity",
    corpus_bapctools_interactivemultipass: "bapctools" / "interactivemultipass",
    corpus_bapctools_multipass: "bapctools" / "multipass",
    corpus_bapctools_pseudointeraction: "bapctools" / "pseudointeraction",
    corpus_bapctools_testexpectations: "bapctools" / "testexpectations",
    corpus_ppf_maximal: "problem-package-format" / "maximal",
    corpus_ppf_passfail: "problem-package-format" / "passfail",
    corpus_ppf_scoring: "problem-package-format" / "scoring",
}
