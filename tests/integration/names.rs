//! Files and folders whose names are not UTF-8 (a byte such as 0xff, from another encoding): tests, groups,
//! submissions, packages and projects named so are judged, validated, added to, exported and reported like any
//! other, each name in a report shown with its odd bytes escaped (`\xff`) so that it still tells its file apart,
//! and nothing panics. The fixtures are made here, since such names cannot be committed portably.

use crate::harness::{Judge, copy_dir, fixtures, shared_cache, solution, test_names};
use crate::packages::{Judged, folder_verdict};
use assert_cmd::Command;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

/// A file name of these bytes.
fn odd(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

/// An argument that is plain text.
fn word(text: &str) -> &OsStr {
    OsStr::new(text)
}

/// Copies the file `from` to `to`, making `to`'s folder.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// Runs cpjudge in `cwd` with arguments that need not be UTF-8, and asserts that it did not panic.
fn cpjudge(cwd: &Path, args: &[&OsStr]) -> Judged {
    let output = Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(cwd)
        .arg("--cache-dir")
        .arg(shared_cache())
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    let judged = Judged::from(output);
    assert!(
        judged.code != Some(101) && !judged.stderr.contains("panicked"),
        "{args:?}: {}",
        judged.stderr
    );
    judged
}

/// The names of a JSON report's solutions, in its order.
fn solution_names(report: &serde_json::Value) -> Vec<&str> {
    report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect()
}

/// Whether some file under `dir` is named `name` in a folder named `folder`.
fn holds(dir: &Path, folder: &[u8], name: &[u8]) -> bool {
    walkdir::WalkDir::new(dir).into_iter().any(|entry| {
        let path = entry.unwrap().into_path();
        path.file_name().map(OsStr::as_bytes) == Some(name)
            && path.parent().and_then(Path::file_name).map(OsStr::as_bytes) == Some(folder)
    })
}

#[test]
fn a_project_with_names_that_are_not_utf8_is_judged() {
    // The project itself lies in such a folder, so that every path of every run holds an odd byte.
    let parent = tempfile::tempdir().unwrap();
    let odd_parent = parent.path().join(odd(b"projects\xff"));
    std::fs::create_dir(&odd_parent).unwrap();
    let project = Judge::fixture_in("basic", &odd_parent);
    let root = project.root();
    let tests = root.join("testdata/sum");
    copy(&tests.join("1.in"), &tests.join(odd(b"\xff.in")));
    copy(&tests.join("1.ans"), &tests.join(odd(b"\xff.ans")));
    let group = tests.join(odd(b"g\xfe"));
    copy(&tests.join("2.in"), &group.join(odd(b"x\xff.in")));
    copy(&tests.join("2.ans"), &group.join(odd(b"x\xff.ans")));
    let solutions = root.join("problems/sum/solutions");
    copy(&solutions.join("ac.py"), &root.join(odd(b"sol\xff.py")));
    copy(&solutions.join("ac.py"), &root.join(odd(b"sol\xfe.py")));
    copy(&solutions.join("ac.c"), &root.join(odd(b"c\xff/ac.c")));
    // A compiled source of such a name keeps its extension in the build folder, which tells gcc its language.
    copy(&solutions.join("ac.c"), &root.join(odd(b"s\xff.c")));
    copy(
        &solutions.join("re_exit3.py"),
        &root.join(odd(b"re\xff.py")),
    );

    let judged = cpjudge(
        root,
        &[
            word("judge"),
            word("sum"),
            word("--json"),
            word("--submission"),
            odd(b"sol\xff.py"),
            word("--submission"),
            odd(b"sol\xfe.py"),
            word("--submission"),
            odd(b"c\xff/ac.c"),
            word("--submission"),
            odd(b"s\xff.c"),
        ],
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    // Two names that differ only in a byte that is not UTF-8 stay apart.
    assert_eq!(
        solution_names(&report),
        ["sol\\xff.py", "sol\\xfe.py", "ac.c", "s\\xff.c"]
    );
    for name in solution_names(&report) {
        assert_eq!(solution(&report, name)["verdict"], "AC", "{name}");
    }
    let names = test_names(&report, "sol\\xff.py");
    for name in ["\\xff", "g\\xfe/x\\xff"] {
        assert!(names.contains(&name.to_owned()), "{names:?}");
    }
    let json = root.join(odd(b"report\xff.json"));
    std::fs::write(&json, &judged.stdout).unwrap();
    cpjudge(root, &[word("report"), json.as_os_str()]).expect(0, "sol\\xfe.py");

    cpjudge(
        root,
        &[
            word("judge"),
            word("sum"),
            word("--expect"),
            word("RE"),
            word("--submission"),
            odd(b"re\xff.py"),
        ],
    )
    .expect(0, "re\\xff.py");

    // A problem is named by its folder: one that is not UTF-8 is refused, saying why.
    copy_dir(
        &root.join("problems/sum"),
        &root.join("problems").join(odd(b"sum\xff")),
    );
    cpjudge(root, &[word("list")]).expect(1, "sum\\xff");
    cpjudge(
        root,
        &[
            word("judge"),
            root.join(odd(b"problems/sum\xff")).as_os_str(),
        ],
    )
    .expect(2, "folder name must be UTF-8");
    cpjudge(root, &[word("judge"), odd(b"sum\xff")]).expect(2, "unknown problem \"sum\\xff\"");
}

#[test]
fn a_lone_file_and_its_tests_named_so_are_judged() {
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join(odd(b"alone\xff"));
    let basic = fixtures().join("basic");
    copy(
        &basic.join("problems/sum/solutions/ac.py"),
        &alone.join(odd(b"s\xff.py")),
    );
    for (from, to) in [
        ("1.in", &b"tests/s\xff.in"[..]),
        ("1.ans", b"tests/s\xff.ans"),
        ("2.in", b"tests/g\xfe/sample\xfe.in"),
        ("2.ans", b"tests/g\xfe/sample\xfe.ans"),
    ] {
        copy(&basic.join("testdata/sum").join(from), &alone.join(odd(to)));
    }
    let judged = cpjudge(&alone, &[word("test"), odd(b"s\xff.py"), word("--json")]);
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    assert_eq!(report["problem"], "s\\xff.py");
    assert_eq!(solution(&report, "s\\xff.py")["verdict"], "AC");
    assert_eq!(
        test_names(&report, "s\\xff.py"),
        ["g\\xfe/sample\\xfe", "s\\xff"]
    );
}

#[test]
fn a_package_with_names_that_are_not_utf8_is_judged_validated_added_to_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(odd(b"sum\xff"));
    copy_dir(&fixtures().join("packages/float-sum"), &path);
    // Only what the names touch: the submissions that time out would add time and nothing else.
    std::fs::remove_dir_all(path.join("submissions/time_limit_exceeded")).unwrap();
    let data = path.join("data/secret");
    for (from, to) in [
        ("small/01.in", &b"grp\xfe/t\xff.in"[..]),
        ("small/01.ans", b"grp\xfe/t\xff.ans"),
        ("small/02.in", b"small/\xfe.in"),
        ("small/02.ans", b"small/\xfe.ans"),
    ] {
        copy(&data.join(from), &data.join(odd(to)));
    }
    let submissions = path.join("submissions");
    for (from, to) in [
        ("accepted/fewer_digits.py", &b"accepted/sol\xff.py"[..]),
        ("accepted/fewer_digits.py", b"accepted/sol\xfe.py"),
        ("wrong_answer/skip_last.py", b"wrong_answer/skip\xff.py"),
    ] {
        copy(&submissions.join(from), &submissions.join(odd(to)));
    }
    copy_dir(
        &submissions.join("accepted/multi"),
        &submissions.join(odd(b"accepted/multi\xff")),
    );
    let judged = cpjudge(
        dir.path(),
        &[word("judge"), path.as_os_str(), word("--json")],
    );
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{report:#}\n{}", judged.stderr);
    assert_eq!(report["problem"], "sum\\xff");
    for solution in report["solutions"].as_array().unwrap() {
        let path = solution["path"].as_str().unwrap();
        assert_eq!(solution["verdict"], folder_verdict(path), "{path}");
    }
    let names = solution_names(&report);
    for name in ["sol\\xff.py", "sol\\xfe.py", "multi\\xff", "skip\\xff.py"] {
        assert!(names.contains(&name), "{names:?}");
    }
    let tests = test_names(&report, "sol\\xff.py");
    for name in ["secret/grp\\xfe/t\\xff", "secret/small/\\xfe"] {
        assert!(tests.contains(&name.to_owned()), "{tests:?}");
    }

    cpjudge(dir.path(), &[word("validate"), path.as_os_str()]).expect(0, "12 of 12 tests valid");
    let input = dir.path().join(odd(b"new\xff.in"));
    std::fs::write(&input, "3\n1.5 2.25 -0.000001\n").unwrap();
    cpjudge(
        dir.path(),
        &[
            word("add"),
            path.as_os_str(),
            word("--input"),
            input.as_os_str(),
        ],
    )
    .expect(0, "added ");

    // The exported package names its files with the same bytes.
    let exported = dir.path().join(odd(b"out\xff"));
    cpjudge(
        dir.path(),
        &[word("export"), path.as_os_str(), exported.as_os_str()],
    )
    .expect(0, "exported sum\\xff");
    assert!(holds(&exported, b"grp\xfe", b"t\xff.in"));
    assert!(holds(&exported, b"small", b"\xfe.ans"));
    assert!(holds(&exported, b"accepted", b"sol\xfe.py"));
    assert!(holds(&exported, b"multi\xff", b"main.cpp"));
}
