//! The build cache through the command line: kept within `--cache-size`, shown and cleared by `cpjudge cache`.

use crate::harness::{Judge, solution};
use std::path::Path;

/// Judges one C solution of the basic fixture expecting `verdict`; returns whether its build came from the cache.
fn judge(project: &mut Judge, file: &str, verdict: &str) -> bool {
    let path = format!("problems/sum/solutions/{file}");
    let report = project
        .then(
            &[
                "judge",
                "sum",
                "--submission",
                &path,
                "--expect",
                verdict,
                "--json",
            ],
            b"",
        )
        .expect_code(0)
        .json();
    let judged = solution(&report, file);
    assert_eq!(judged["verdict"], verdict, "{judged:#}");
    judged["compile"]["cached"].as_bool().unwrap()
}

/// What `cpjudge cache --json` says: the builds' number and bytes.
fn contents(project: &mut Judge) -> (u64, u64) {
    let survey = project
        .then(&["cache", "--json"], b"")
        .expect_code(0)
        .json();
    (
        survey["builds"].as_u64().unwrap(),
        survey["build_bytes"].as_u64().unwrap(),
    )
}

/// The bytes of the files in the cache's builds, measured here rather than taken from the judge's account.
fn bytes_in(builds: &Path) -> u64 {
    walkdir::WalkDir::new(builds)
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().is_file() && entry.file_name() != ".trim")
        .map(|entry| entry.metadata().unwrap().len())
        .sum()
}

#[test]
fn a_small_cache_keeps_the_builds_used_last_and_judges_as_ever() {
    let mut project = Judge::fixture("basic").private_cache();
    let builds = project.root().join("target").join("cache").join("build");
    // One build's size, to choose a bound with room for two builds, not three.
    project = project.env("CPJUDGE_CACHE_SIZE", "1GiB");
    assert!(!judge(&mut project, "ac.c", "AC"));
    let (count, one) = contents(&mut project);
    assert_eq!(count, 1);
    let bound = one * 5 / 2;
    let mut project = project.env("CPJUDGE_CACHE_SIZE", &format!("{bound}B"));
    let within_bound = |project: &mut Judge, builds_left: u64| {
        let (count, bytes) = contents(project);
        assert_eq!(count, builds_left);
        assert!(
            bytes <= bound,
            "the builds take {bytes} bytes, over {bound}"
        );
        assert!(bytes_in(&builds) <= bound);
    };
    assert!(!judge(&mut project, "re_segfault.c", "RE"));
    within_bound(&mut project, 2);
    // Taken from the cache, and so used more recently than the other.
    assert!(judge(&mut project, "ac.c", "AC"));
    assert!(!judge(&mut project, "ole_forever.c", "OLE"));
    within_bound(&mut project, 2);
    // The build used least recently went; the other stayed.
    assert!(judge(&mut project, "ac.c", "AC"));
    assert!(!judge(&mut project, "re_segfault.c", "RE"));
    within_bound(&mut project, 2);

    let cleared = project.then(&["cache", "--clear"], b"").expect_code(0);
    assert!(
        cleared.stdout().contains("removed 2 builds"),
        "{}",
        cleared.stdout()
    );
    assert_eq!(contents(&mut project), (0, 0));
    assert_eq!(bytes_in(&builds), 0);
    let shown = project.then(&["cache"], b"").expect_code(0).stdout();
    assert!(shown.contains("0 builds"), "{shown}");
    assert!(
        shown.contains(
            &project
                .root()
                .join("target")
                .join("cache")
                .display()
                .to_string()
        ),
        "{shown}"
    );
}

#[test]
fn the_size_is_read_as_sizes_are_elsewhere() {
    let mut project = Judge::fixture("basic").private_cache();
    let survey = project
        .then(&["--cache-size", "3MiB", "cache", "--json"], b"")
        .expect_code(0)
        .json();
    assert_eq!(survey["size_bound_bytes"], 3 << 20);
    let refused = project
        .then(&["--cache-size", "500", "cache"], b"")
        .expect_code(2);
    assert!(refused.stderr().contains("no unit"), "{}", refused.stderr());
}
