//! Escapes and resource holes that need more than one hostile submission to show (those are in `hostile`): build
//! scripts that plant links, FIFOs or gigabytes in their build folder, an input validator that plants links, a
//! judge started with descriptors of its caller's, crowded folders on the way to the project, a temporary folder
//! someone made first, tests linked in from elsewhere, and a compiler asked to include a file only root may read.
//! Each runs with every layer the machine offers and, where the layers are not what stops it, with none.

use crate::harness::{Judge, copy_dir, fixtures, skip, solution};
use crate::hostile::Bait;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::time::Duration;

/// The judge must have answered by then, however its programs' builds behaved.
const TIMEOUT: Duration = Duration::from_secs(240);

/// Its own peak resident memory, whatever a build left for it to read.
const HARNESS_MEMORY: u64 = 100 << 20;

/// The two ways every case here runs: `CPJUDGE_LAYERS` unset, and `none`.
const MODES: [Option<&str>; 2] = [None, Some("none")];

fn mode_name(layers: Option<&str>) -> &'static str {
    match layers {
        None => "layers on",
        Some(_) => "layers off",
    }
}

/// A copy of one of this module's fixture packages, with `@BAIT@` in its files replaced by the bait's path.
fn package(name: &str, bait: &Bait) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("cpjudge-escape-")
        .tempdir()
        .unwrap();
    copy_dir(&fixtures().join("escapes").join(name), dir.path());
    for entry in walkdir::WalkDir::new(dir.path()) {
        let path = entry.unwrap().into_path();
        if let Ok(text) = std::fs::read_to_string(&path)
            && text.contains("@BAIT@")
        {
            std::fs::write(
                &path,
                text.replace("@BAIT@", &bait.path().to_string_lossy()),
            )
            .unwrap();
        }
    }
    dir
}

/// The judge on `args`, in `cwd`, with `cache` and the layers of `mode`.
fn cpjudge(cwd: &Path, cache: &Path, layers: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut command = assert_cmd::Command::cargo_bin("cpjudge").unwrap();
    command
        .current_dir(cwd)
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .timeout(TIMEOUT);
    match layers {
        Some(layers) => command.env("CPJUDGE_LAYERS", layers),
        None => command.env_remove("CPJUDGE_LAYERS"),
    };
    command.output().unwrap()
}

fn json(output: &std::process::Output, what: &str) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: no JSON ({e}, {}):\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The size of everything in a folder, by what its files hold.
fn size_of(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Build scripts that plant links where the judge writes and reads, turn the program into a FIFO or a link to
/// /dev/zero, write more than a compile may keep, or start a child larger than a compile may be: each is a compile
/// error saying why, the judge neither writes outside nor hangs nor grows, and the cache keeps nothing large.
#[test]
fn build_scripts_can_neither_redirect_hang_nor_fill_the_judge() {
    let expected = [
        ("honest", None),
        ("open_box", None),
        ("links", Some("symbolic link")),
        ("fifo", Some("FIFO")),
        ("dev_zero", Some("symbolic link to /dev/zero")),
        ("disk", Some("disk limit")),
        ("unlinked_disk", Some("disk limit")),
        ("child_memory", Some("memory limit")),
    ];
    for layers in MODES {
        let mode = mode_name(layers);
        let bait = Bait::new();
        let package = package("build-scripts", &bait);
        let cache = tempfile::tempdir().unwrap();
        let output = cpjudge(
            package.path(),
            cache.path(),
            layers,
            &["judge", ".", "--json"],
        );
        let report = json(&output, mode);
        for (name, error) in expected {
            let submission = solution(&report, name);
            let compile = &submission["compile"];
            match error {
                None => assert_eq!(submission["verdict"], "AC", "{mode}: {submission:#}"),
                Some(said) => {
                    assert_eq!(submission["verdict"], "CE", "{mode}: {submission:#}");
                    let message = compile["message"].as_str().unwrap();
                    assert!(message.contains(said), "{mode}, {name}: {message}");
                }
            }
        }
        bait.assert_untouched(mode);
        let peak = report["harness"]["peak_memory"].as_u64().unwrap();
        assert!(
            peak < HARNESS_MEMORY,
            "{mode}: the judge took {} MiB",
            peak >> 20
        );
        let kept = size_of(cache.path());
        assert!(
            kept < 64 << 20,
            "{mode}: the cache keeps {} MiB",
            kept >> 20
        );
        // What the cache keeps is its owner's alone to change.
        for entry in walkdir::WalkDir::new(cache.path()) {
            let entry = entry.unwrap();
            let bits =
                std::os::unix::fs::PermissionsExt::mode(&entry.metadata().unwrap().permissions());
            assert_eq!(
                bits & 0o7022,
                0,
                "{mode}: {} is open to others ({bits:o})",
                entry.path().display()
            );
        }
    }
}

/// An input validator given as a folder whose build script plants links: it does not build, which stops the judge
/// with a message naming it, and nothing is written outside.
#[test]
fn a_validators_build_cannot_redirect_the_judge() {
    for layers in MODES {
        let mode = mode_name(layers);
        let bait = Bait::new();
        let package = package("validator-links", &bait);
        let cache = tempfile::tempdir().unwrap();
        let output = cpjudge(package.path(), cache.path(), layers, &["judge", "."]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{mode}: {stderr}");
        assert!(
            stderr.contains("links") && stderr.contains("does not compile"),
            "{mode}: {stderr}"
        );
        assert!(stderr.contains("symbolic link"), "{mode}: {stderr}");
        bait.assert_untouched(mode);
    }
}

/// A judge started with descriptors its caller left open (a file open for writing, a jobserver's pipe holding its
/// tokens) passes none of them to its runs: the program finds none, the file stays empty, the tokens stay put.
#[test]
fn descriptors_of_the_judges_caller_reach_no_run() {
    for layers in MODES {
        let mode = mode_name(layers);
        let project = Judge::fixture("hostile");
        let log = tempfile::NamedTempFile::new().unwrap();
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(log.path())
            .unwrap();
        let (tokens, token_writer) = std::io::pipe().unwrap();
        use std::io::Write;
        (&token_writer).write_all(b"++++").unwrap();
        let program = fixtures().join("escapes/programs/inherited_fds.c");
        let cache = tempfile::tempdir().unwrap();
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cpjudge"));
        command
            .current_dir(project.root())
            .arg("--cache-dir")
            .arg(cache.path())
            .args(["judge", "hostile", "--json", "--submission"])
            .arg(&program);
        match layers {
            Some(layers) => command.env("CPJUDGE_LAYERS", layers),
            None => command.env_remove("CPJUDGE_LAYERS"),
        };
        use std::os::fd::AsRawFd;
        let inherited = [
            file.as_raw_fd(),
            tokens.as_raw_fd(),
            token_writer.as_raw_fd(),
        ];
        // SAFETY: the closure only makes system calls, between fork and exec.
        unsafe {
            command.pre_exec(move || {
                for (to, from) in (7..).zip(inherited) {
                    if libc::dup2(from, to) == -1 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let output = assert_cmd::Command::from_std(command)
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        let report = json(&output, mode);
        let submission = solution(&report, "inherited_fds.c");
        assert_eq!(submission["verdict"], "AC", "{mode}: {submission:#}");
        assert_eq!(
            std::fs::read_to_string(log.path()).unwrap(),
            "",
            "{mode}: a run wrote into the caller's file"
        );
        drop(token_writer);
        let mut left = String::new();
        std::io::Read::read_to_string(&mut &tokens, &mut left).unwrap();
        assert_eq!(left, "++++", "{mode}: a run took the caller's tokens");
    }
}

/// A folder of its own made in a folder holding many entries, for the temporary folder or for the project.
fn crowded(entries: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..entries {
        std::fs::write(dir.path().join(format!("entry-{i}")), "").unwrap();
    }
    dir
}

/// Hundreds of entries in the temporary folder, or on the way to the project, neither switch Landlock off nor make
/// the runs fail: the search for the answers still finds nothing, and the reference is still accepted.
#[test]
fn crowded_folders_leave_landlock_on() {
    if !crate::harness::layer_works("landlock", "Landlock beside crowded folders") {
        return;
    }
    let tmp = crowded(400);
    let parent = crowded(400);
    let run = Judge::fixture_in("hostile", parent.path())
        .env("TMPDIR", &tmp.path().to_string_lossy())
        .env_remove("CPJUDGE_LAYERS")
        .args(&[
            "judge",
            "hostile",
            "--json",
            "--submission",
            "programs/answers_via_relative.py",
            "--submission",
            "problems/hostile/solutions/ac.c",
        ])
        .run();
    let report = run.json();
    assert_eq!(
        report["isolation"]["landlock"]["active"], true,
        "{report:#}"
    );
    assert_eq!(
        solution(&report, "answers_via_relative.py")["verdict"],
        "WA"
    );
    assert_eq!(solution(&report, "ac.c")["verdict"], "AC");
}

/// The PID namespace's number, as the judge of the same namespace names it.
fn pid_namespace() -> String {
    let link = std::fs::read_link("/proc/self/ns/pid").unwrap();
    let link = link.to_string_lossy();
    link.trim_start_matches("pid:[")
        .trim_end_matches(']')
        .to_owned()
}

/// A folder someone else made in the temporary folder, under the name a judge of this PID would once have used,
/// is never used: nothing is made in it while the judge runs. (The judge's own folder has a random name, and mode
/// 0700: see `scratch`'s unit tests.)
#[test]
fn a_temporary_folder_made_by_another_is_never_used() {
    let project = Judge::fixture("hostile");
    let tmp = tempfile::tempdir().unwrap();
    for attempt in 0..3 {
        let mut judge = std::process::Command::new(env!("CARGO_BIN_EXE_cpjudge"))
            .current_dir(project.root())
            .env("TMPDIR", tmp.path())
            .args(["judge", "hostile"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Made before the judge's first run needs a folder: the judge is still probing its layers.
        let planted = tmp
            .path()
            .join(format!("cpjudge-{}-{}", pid_namespace(), judge.id()));
        let made = std::fs::create_dir(&planted).is_ok();
        if made {
            std::fs::set_permissions(
                &planted,
                std::os::unix::fs::PermissionsExt::from_mode(0o777),
            )
            .unwrap();
            std::fs::write(planted.join("planted"), "").unwrap();
        }
        let before = std::fs::metadata(&planted).unwrap().modified().unwrap();
        let status = judge.wait().unwrap();
        assert_eq!(status.code(), Some(0));
        if !made {
            // The judge made a folder of that name first: nothing was shown either way; try again.
            skip(&format!(
                "attempt {attempt}: the judge made its folder first"
            ));
            continue;
        }
        let inside: Vec<_> = std::fs::read_dir(&planted)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            inside,
            ["planted"],
            "the judge used a folder it did not make"
        );
        let after = std::fs::metadata(&planted).unwrap().modified().unwrap();
        assert_eq!(
            before, after,
            "the judge made and removed things in a folder it did not make"
        );
        // And its own folder is gone with it.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|name| *name != planted.file_name().unwrap())
            .collect();
        assert!(left.is_empty(), "left in the temporary folder: {left:?}");
        return;
    }
    panic!(
        "the judge made its folder first three times: the planted folder was never in place in time"
    );
}

/// A place outside the project and the temporary folder, where the search for the answers looks.
fn elsewhere() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("cpjudge-linked-")
        .tempdir_in("/var/tmp")
        .unwrap()
}

/// Tests that are links to files elsewhere, and a package whose data folders are links to folders elsewhere: the
/// real files are hidden as the tests are, and the search for the answers finds nothing.
#[test]
fn tests_linked_from_elsewhere_stay_hidden() {
    if !crate::harness::layer_works("landlock", "hiding linked tests") {
        return;
    }
    let search = fixtures().join("hostile/programs/answers_via_scan.py");
    // Test files linked one by one.
    let project = Judge::fixture("hostile")
        .env_remove("CPJUDGE_LAYERS")
        .args(&["judge", "hostile", "--json", "--submission"])
        .args(&[search.to_str().unwrap()]);
    let real = elsewhere();
    let real_tests = real.path().join("testdata/hostile");
    std::fs::create_dir_all(&real_tests).unwrap();
    let tests = project.root().join("testdata/hostile");
    // Inputs of this test alone: another test's search for the answers must find nothing here.
    let (a, b) = (std::process::id() as i64, 1_000_003);
    std::fs::write(tests.join("1.in"), format!("{a} {b}\n")).unwrap();
    std::fs::write(tests.join("1.ans"), format!("{}\n", a + b)).unwrap();
    std::fs::remove_file(tests.join("2.in")).unwrap();
    std::fs::remove_file(tests.join("2.ans")).unwrap();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let target = real_tests.join(path.file_name().unwrap());
        std::fs::rename(&path, &target).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
    }
    let report = project.run().json();
    assert_eq!(
        solution(&report, "answers_via_scan.py")["verdict"],
        "WA",
        "{report:#}"
    );

    // A package whose data folders are links.
    let bait = Bait::new();
    let package = package("linked-package", &bait);
    let real = elsewhere();
    for group in ["sample", "secret"] {
        let data = package.path().join("data").join(group);
        let target = real.path().join("testdata").join(group);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::rename(&data, &target).unwrap();
        std::os::unix::fs::symlink(&target, &data).unwrap();
    }
    let cache = tempfile::tempdir().unwrap();
    let output = cpjudge(
        package.path(),
        cache.path(),
        None,
        &[
            "judge",
            ".",
            "--json",
            "--submission",
            search.to_str().unwrap(),
        ],
    );
    let report = json(&output, "linked package");
    assert_eq!(
        solution(&report, "answers_via_scan.py")["verdict"],
        "WA",
        "{report:#}"
    );
}

/// The first lines of /etc/shadow that a message quoting the file would show.
fn shadow_lines() -> Vec<String> {
    std::fs::read_to_string("/etc/shadow")
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|line| line.len() > 8)
        .take(5)
        .map(str::to_owned)
        .collect()
}

/// A judge run as root: a compiler asked to include /etc/shadow cannot read it, so the compile error quotes none
/// of it. (Its solutions are covered by the hostile suite's `read_secrets`.)
#[test]
fn a_root_judges_compiler_reads_no_secret() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        skip("a root judge's compiler: these tests do not run as root");
        return;
    }
    if !crate::harness::layer_works("namespaces", "a root judge's compiler") {
        return;
    }
    let program = fixtures().join("escapes/programs/include_shadow.cpp");
    let report = Judge::fixture("hostile")
        .private_cache()
        .env_remove("CPJUDGE_LAYERS")
        .args(&["judge", "hostile", "--json", "--submission"])
        .args(&[program.to_str().unwrap()])
        .run()
        .json();
    let submission = solution(&report, "include_shadow.cpp");
    assert_eq!(submission["verdict"], "CE", "{submission:#}");
    let message = submission["compile"]["message"].as_str().unwrap();
    for line in shadow_lines() {
        assert!(
            !message.contains(&line),
            "the compiler quoted /etc/shadow:\n{message}"
        );
    }
    assert!(message.contains("Permission denied"), "{message}");
}

/// A program folder of a package holding a link out of the package (to /etc/shadow, to /proc/kmsg, whose read
/// never ends): the judge, which copies the folder's files itself, refuses it, naming the link, and ends.
#[test]
fn a_program_folder_cannot_link_out_of_its_package() {
    for target in ["/etc/shadow", "/proc/kmsg"] {
        let bait = Bait::new();
        let package = package("path-search", &bait);
        let folder = package.path().join("submissions/accepted/path_search");
        std::os::unix::fs::symlink(target, folder.join("notes.txt")).unwrap();
        let cache = tempfile::tempdir().unwrap();
        let output = cpjudge(package.path(), cache.path(), None, &["judge", "."]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{target}: {stderr}");
        assert!(
            stderr.contains("notes.txt") && stderr.contains("link out of the package"),
            "{target}: {stderr}"
        );
    }
}

/// A folder on PATH that holds the package (a build script may start anything on PATH, so it may read PATH's
/// folders) does not open the package to a build script looking for its answers.
#[test]
fn a_folder_of_path_above_the_package_does_not_open_it() {
    if !crate::harness::layer_works("landlock", "PATH above the package") {
        return;
    }
    let bait = Bait::new();
    let package = package("path-search", &bait);
    let cache = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        package.path().parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let output = assert_cmd::Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(package.path())
        .env("PATH", path)
        .env_remove("CPJUDGE_LAYERS")
        .arg("--cache-dir")
        .arg(cache.path())
        .args(["judge", ".", "--json"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let report = json(&output, "PATH above the package");
    let submission = solution(&report, "path_search");
    assert_eq!(submission["verdict"], "AC", "{submission:#}");
}

/// A Java source whose public class is named like a path: a compile error, with nothing written outside the build
/// folder, and the other submissions of the same judge judged as ever.
#[test]
fn a_class_named_like_a_path_stays_in_its_build_folder() {
    let slash = fixtures().join("escapes/programs/slash_class.java");
    let written = Path::new("/.java");
    let before = written.exists();
    let report = Judge::fixture("hostile")
        .private_cache()
        .args(&["judge", "hostile", "--json", "--submission"])
        .args(&[slash.to_str().unwrap()])
        .args(&["--submission", "problems/hostile/solutions/ac.c"])
        .run()
        .json();
    assert_eq!(
        solution(&report, "slash_class.java")["verdict"],
        "CE",
        "{report:#}"
    );
    assert_eq!(solution(&report, "ac.c")["verdict"], "AC", "{report:#}");
    assert_eq!(written.exists(), before, "a source was written at /.java");
}

/// A layer the kernel offers that then fails its trial run (here because the temporary folder is missing, which
/// every layer's trial needs) stops the judge, naming the layer and the cause: it never judges on with less.
#[test]
fn a_layer_that_fails_its_trial_stops_the_judge() {
    let output = assert_cmd::Command::cargo_bin("cpjudge")
        .unwrap()
        .current_dir(Judge::fixture("hostile").root())
        .env("TMPDIR", "/nonexistent-cpjudge-tmp")
        .env_remove("CPJUDGE_LAYERS")
        .args(["judge", "hostile"])
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("layer passes the kernel's own check, but a trial run with it failed")
            && stderr.contains("/nonexistent-cpjudge-tmp")
            && stderr.contains("judging stops"),
        "{stderr}"
    );
}
