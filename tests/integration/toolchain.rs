//! What the judge learns of its compilers (their paths, versions, the standard they take) is kept between
//! commands: judging a submission already built starts no compiler, until the compiler changes.

use crate::harness::{Judge, fixtures, solution};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The lines the wrapping `g++` has logged: one for each time the judge asked it something.
fn asked(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |text| text.lines().count())
}

/// Judges the basic fixture's C++ solution; returns whether its build came from the cache.
fn judge(project: &mut Judge) -> bool {
    let report = project
        .then(
            &[
                "judge",
                "sum",
                "--submission",
                "problems/sum/solutions/ac.cpp",
                "--json",
            ],
            b"",
        )
        .expect_code(0)
        .json();
    let judged = solution(&report, "ac.cpp");
    assert_eq!(judged["verdict"], "AC", "{judged:#}");
    judged["compile"]["cached"].as_bool().unwrap()
}

#[test]
fn a_built_submission_is_judged_again_without_asking_its_compiler_until_it_changes() {
    if !Path::new("/usr/bin/g++").exists() {
        crate::harness::skip("the wrapping g++ starts /usr/bin/g++, which is not installed");
        return;
    }
    let project = Judge::fixture("basic").private_cache();
    let root = project.root().to_owned();
    // A folder every user may enter: a root judge compiles as a user of its own.
    let bin = tempfile::tempdir().unwrap();
    std::fs::set_permissions(bin.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let wrapper = bin.path().join("g++");
    std::fs::copy(fixtures().join("wrappers").join("g++"), &wrapper).unwrap();
    let log = root.join("asked.log");
    let path = crate::harness::path_with_first(bin.path());
    let mut project = project
        .env("PATH", &path)
        .env("XDG_CACHE_HOME", root.join("user-cache").to_str().unwrap())
        .env("CPJUDGE_TEST_ASKED_LOG", log.to_str().unwrap());

    assert!(!judge(&mut project));
    let first = asked(&log);
    assert!(first > 0, "the first judge asks g++ its version");
    assert!(judge(&mut project));
    assert_eq!(
        asked(&log),
        first,
        "the second judge asked g++:\n{}",
        std::fs::read_to_string(&log).unwrap()
    );
    // Another g++ in its place, which may answer otherwise: asked again, though the build is the same.
    let mut text = std::fs::read_to_string(&wrapper).unwrap();
    text.push_str("# another\n");
    std::fs::write(&wrapper, text).unwrap();
    assert!(judge(&mut project));
    assert!(asked(&log) > first, "the changed g++ was not asked");
}
