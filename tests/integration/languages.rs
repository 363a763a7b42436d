//! The language table as a user meets it: a package in many languages judged in those installed here, the others
//! listed as not judged; Python on PyPy for a package; a project's and a user's own `languages.toml`.

use crate::harness::{Judge, skip, solution};
use crate::packages::{cpjudge, package};

/// Whether a program is on PATH here and works (a version manager's shim may stand for one not installed).
fn installed(program: &str) -> bool {
    let asked = if program == "go" {
        "version"
    } else {
        "--version"
    };
    std::process::Command::new(program)
        .arg(asked)
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Toolchains CI installs (`.ci/install-toolchains`): their tests must run there, not skip.
fn require(program: &str) -> bool {
    if installed(program) {
        return true;
    }
    assert!(
        std::env::var_os("CPJUDGE_TEST_REQUIRE_TOOLCHAINS").is_none(),
        "{program} is not on PATH, and CPJUDGE_TEST_REQUIRE_TOOLCHAINS says it must be"
    );
    skip(&format!("{program} is not installed"));
    false
}

#[test]
fn a_package_is_judged_in_the_languages_here_and_lists_the_others() {
    if !(require("node") && require("go") && require("javac")) {
        return;
    }
    let (_dir, path) = package("polyglot");
    let cache = tempfile::tempdir().unwrap();
    let judged = cpjudge(&["judge", path.to_str().unwrap(), "--json"], cache.path());
    let report = judged.json();
    assert_eq!(judged.code, Some(0), "{}\n{}", judged.stdout, judged.stderr);
    // Several files, in several packages (Java), modules (JavaScript, Python) or units (C++); C++ at the newest
    // standard; Go; a `.py3` file.
    for (name, language) in [
        ("multi-java", "Java"),
        ("multi-js", "JavaScript"),
        ("multi-py", "Python 3"),
        ("multi-cpp", "C++"),
        ("ranges.cpp", "C++"),
        ("sum.go", "Go"),
        ("sum.py3", "Python 3"),
        ("sum.c", "C"),
    ] {
        let judged = solution(&report, name);
        assert_eq!(judged["verdict"], "AC", "{name}: {judged}");
        let said = judged["language"].as_str().unwrap();
        assert!(said.starts_with(language), "{name}: {said}");
    }
    assert_eq!(solution(&report, "int_overflow.cc")["verdict"], "WA");
    let skipped = report["skipped"].as_array().unwrap();
    let find = |name: &str| {
        skipped
            .iter()
            .find(|s| s["name"].as_str().unwrap().ends_with(name))
    };
    let unknown = find("sum.zz").expect("a file of no known language is listed");
    assert!(unknown["language"].is_null(), "{unknown}");
    assert!(
        unknown["why"].as_str().unwrap().contains(".zz"),
        "{unknown}"
    );
    // Listed when its tools are missing, judged when they are there.
    for (name, tool, language) in [
        ("sum.kt", "kotlinc", "Kotlin"),
        ("old.py", "python2", "Python 2"),
    ] {
        let listed = find(name);
        let judged = report["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name);
        match (
            installed(tool) || (name == "old.py" && installed("pypy")),
            listed,
            judged,
        ) {
            (false, Some(listed), None) => {
                assert!(
                    listed["language"].as_str().unwrap().starts_with(language),
                    "{listed}"
                );
                assert!(listed["why"].as_str().unwrap().contains(tool), "{listed}");
            }
            (true, None, Some(judged)) => assert_eq!(judged["verdict"], "AC", "{judged}"),
            other => panic!("{name}: {other:?}"),
        }
    }

    // The table says what was not judged, and why; under --strict it counts.
    let table = cpjudge(&["judge", path.to_str().unwrap()], cache.path());
    table.expect(0, "not judged here:");
    assert!(
        table.stdout.contains("sum.zz (no known language)"),
        "{}",
        table.stdout
    );
    let strict = cpjudge(&["judge", path.to_str().unwrap(), "--strict"], cache.path());
    strict.expect(1, "not judged for want of their language here");
}

#[test]
fn a_package_runs_python_on_pypy_where_installed() {
    if !require("pypy3") {
        return;
    }
    // Its accepted Python takes seconds under CPython and a tenth of one under PyPy, against a fixed limit of 1s.
    let (_dir, path) = package("needs-pypy");
    let cache = tempfile::tempdir().unwrap();
    let judged = cpjudge(&["judge", path.to_str().unwrap(), "--json"], cache.path());
    let report = judged.json();
    let python = solution(&report, "hash.py");
    assert_eq!(python["language"], "Python 3 (PyPy)", "{python}");
    assert_eq!(python["verdict"], "AC", "{python}");
    assert_eq!(judged.code, Some(0));

    // CPython when asked for: too slow.
    let judged = cpjudge(
        &[
            "judge",
            path.to_str().unwrap(),
            "--json",
            "--prefer",
            "python3",
        ],
        cache.path(),
    );
    let report = judged.json();
    let python = solution(&report, "hash.py");
    assert_eq!(python["language"], "Python 3", "{python}");
    assert_eq!(python["verdict"], "TLE", "{python}");
    assert_eq!(judged.code, Some(1));
}

#[test]
fn a_project_file_adds_a_language_and_a_user_file_is_read_too() {
    // Run by bash, from /usr/bin: a project's file may not say how to find a tool behind a version manager's shim.
    let zed = "[zed]\nname = \"Zed\"\nfiles = [\"*.zed\"]\n\
               compile = [\"bash\", \"-n\", \"{main}\"]\nrun = [\"bash\", \"{dir}/{main}\"]\n";
    let sum = "read -r n\ns=0\nfor x in $(cat); do s=$((s + x)); done\necho \"$s\"\n";
    let judge = Judge::fixture("basic")
        .write("languages.toml", zed)
        .write("mine.zed", sum);
    let report = judge
        .args(&["judge", "sum", "--submission", "mine.zed", "--json"])
        .run()
        .expect_code(0)
        .json();
    let mine = solution(&report, "mine.zed");
    assert_eq!(mine["language"], "Zed");
    assert_eq!(mine["verdict"], "AC");

    // A user's file is read as well, and its mistakes are named by file and line.
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir(config.path().join("cpjudge")).unwrap();
    let user_file = config.path().join("cpjudge/languages.toml");
    std::fs::write(&user_file, "[cpp]\nname = \"C++\"\ncolour = \"blue\"\n").unwrap();
    let stderr = Judge::fixture("basic")
        .env("XDG_CONFIG_HOME", config.path().to_str().unwrap())
        .args(&["judge", "sum"])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains(&format!("{}:3:", user_file.display())) && stderr.contains("colour"),
        "{stderr}"
    );

    // A project's file may not give the commands that run outside the sandbox.
    let stderr = Judge::fixture("basic")
        .write(
            "languages.toml",
            "\n[python3]\nversion = [\"-c\", \"import os\"]\n",
        )
        .args(&["judge", "sum"])
        .run()
        .expect_code(2)
        .stderr();
    assert!(
        stderr.contains("languages.toml:2:") && stderr.contains("outside the sandbox"),
        "{stderr}"
    );
}

#[test]
fn a_toolchain_in_a_closed_home_runs_with_the_cache_beside_it() {
    // A root judge makes runs a user of their own, which reach a toolchain under a closed home (pyenv's Python in
    // /root) through a view of it; the cache, hidden from runs, may lie in that home too (~/.cache/cpjudge, the
    // default outside a project). Landlock must still let the run start the interpreter, also in a worker whose
    // first run (a C compile) needed no view of that home.
    let python = std::process::Command::new("python3")
        .args(["-I", "-c", "import sys; print(sys.executable)"])
        .output()
        .ok()
        .map(|o| std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    use std::os::unix::fs::PermissionsExt;
    let home = python.as_deref().and_then(|p| {
        p.ancestors()
            .skip(1)
            .find(|dir| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o005 == 0))
    });
    let (true, Some(home)) = (root, home) else {
        skip(
            "needs a root judge and a python3 under a folder closed to others (pyenv's under /root)",
        );
        return;
    };
    let cache = tempfile::Builder::new()
        .prefix(".cpjudge-test-cache-")
        .tempdir_in(home)
        .unwrap();
    let report = Judge::fixture("basic")
        .cache(cache.path())
        .args(&[
            "judge",
            "sum",
            "--submission",
            "problems/sum/solutions/ac.c",
            "--submission",
            "problems/sum/solutions/ac.py",
            "-j",
            "1",
            "--json",
        ])
        .run()
        .expect_code(0)
        .json();
    for name in ["ac.c", "ac.py"] {
        assert_eq!(solution(&report, name)["verdict"], "AC", "{name}");
    }
}
