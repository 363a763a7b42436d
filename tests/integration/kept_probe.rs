//! The isolation probe, kept between commands: a second start with nothing changed uses what the first found, a
//! kept answer is used only under its own key, and judges started at once with nothing kept both judge.

use crate::harness::{Judge, Run, solution};
use std::path::{Path, PathBuf};

/// A judge of the fixture's right C solution, keeping machine facts in `cache` (as `XDG_CACHE_HOME`), with every
/// layer asked for whatever the suite's environment says.
fn judge(cache: &Path, submission: &str) -> Run {
    Judge::fixture("basic")
        .env("XDG_CACHE_HOME", cache.to_str().unwrap())
        .env_remove("CPJUDGE_LAYERS")
        .args(&[
            "judge",
            "sum",
            "--submission",
            &format!("problems/sum/solutions/{submission}"),
            "--json",
        ])
        .run()
}

fn doctor(cache: &Path) -> serde_json::Value {
    Judge::fixture("basic")
        .env("XDG_CACHE_HOME", cache.to_str().unwrap())
        .env_remove("CPJUDGE_LAYERS")
        .args(&["doctor", "--json"])
        .run()
        .expect_code(0)
        .json()
}

/// The one memo of the isolation probe in `cache`.
fn memo(cache: &Path) -> PathBuf {
    let dir = cache.join("cpjudge/memo");
    let found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no memo folder {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("isolation")
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap()
}

/// What tells one writing of a file from another: its inode (a memo is replaced whole) and modification time.
fn written(path: &Path) -> (u64, std::time::SystemTime, Vec<u8>) {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).unwrap();
    (
        meta.ino(),
        meta.modified().unwrap(),
        std::fs::read(path).unwrap(),
    )
}

fn memo_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

#[test]
fn a_second_judge_uses_the_probe_the_first_kept() {
    let cache = tempfile::tempdir().unwrap();
    let first = judge(cache.path(), "ac.c").expect_code(0);
    assert_eq!(solution(&first.json(), "ac.c")["verdict"], "AC");
    let memo = memo(cache.path());
    let kept = written(&memo);
    let second = judge(cache.path(), "ac.c").expect_code(0);
    assert_eq!(solution(&second.json(), "ac.c")["verdict"], "AC");
    assert_eq!(written(&memo), kept, "the second judge probed again");
    assert_eq!(
        second.json()["isolation"],
        first.json()["isolation"],
        "the kept answer is the one found"
    );
    let doctor = doctor(cache.path());
    assert_eq!(doctor["probe"]["cached"], true, "{doctor:#}");
    assert_eq!(
        doctor["probe"]["probed_at"],
        memo_json(&memo)["value"]["probed_at"]
    );
    assert_eq!(doctor["probe"]["memo"], memo.to_str().unwrap());
}

#[test]
fn doctor_probe_probes_again() {
    let cache = tempfile::tempdir().unwrap();
    assert_eq!(doctor(cache.path())["probe"]["cached"], false);
    let memo = memo(cache.path());
    let kept = written(&memo);
    let again = Judge::fixture("basic")
        .env("XDG_CACHE_HOME", cache.path().to_str().unwrap())
        .env_remove("CPJUDGE_LAYERS")
        .args(&["doctor", "--json", "--probe"])
        .run()
        .expect_code(0)
        .json();
    assert_eq!(again["probe"]["cached"], false, "{again:#}");
    assert_ne!(written(&memo), kept, "the memo is the new probe's");
}

/// A memo is believed under its own key, and only there: one planted under another key (a kept answer from another
/// boot, say) is not used, and the layers are probed again.
#[test]
fn a_kept_probe_is_used_only_under_its_own_key() {
    let cache = tempfile::tempdir().unwrap();
    let probed = doctor(cache.path());
    if probed["isolation"]["seccomp"]["active"] != true {
        crate::harness::skip("the planted memo speaks of the seccomp layer, which is off here");
        return;
    }
    let memo = memo(cache.path());
    let mut planted = memo_json(&memo);
    planted["value"]["isolation"]["seccomp"]["detail"] = "planted".into();
    std::fs::write(&memo, planted.to_string()).unwrap();
    // Under its own key, it is what the judge believes: the checks below could see a memo used.
    let believed = doctor(cache.path());
    assert_eq!(believed["probe"]["cached"], true);
    assert_eq!(believed["isolation"]["seccomp"]["detail"], "planted");

    let key = planted["key"].as_str().unwrap().to_owned();
    assert!(key.contains("boot="), "{key}");
    planted["key"] = key.replace("boot=", "boot=another ").into();
    std::fs::write(&memo, planted.to_string()).unwrap();
    let judged = judge(cache.path(), "ac.c").expect_code(0);
    let report = judged.json();
    assert_eq!(solution(&report, "ac.c")["verdict"], "AC");
    assert_eq!(
        report["isolation"]["seccomp"], probed["isolation"]["seccomp"],
        "{report:#}"
    );
    let kept = memo_json(&memo);
    assert_eq!(kept["key"], key.as_str(), "the memo is the new probe's");
    assert_eq!(
        kept["value"]["isolation"]["seccomp"],
        probed["isolation"]["seccomp"]
    );
}

/// No memo turns off a layer that works, even under its own key (a run judged without layers may write one): a
/// layer it calls off is checked again, and the layers are probed again when it works.
#[test]
fn a_kept_probe_cannot_turn_off_a_layer_that_works() {
    let cache = tempfile::tempdir().unwrap();
    let probed = doctor(cache.path());
    if probed["isolation"]["seccomp"]["active"] != true {
        crate::harness::skip(
            "the planted memo turns off the seccomp layer, which is off here already",
        );
        return;
    }
    let memo = memo(cache.path());
    let mut planted = memo_json(&memo);
    planted["value"]["isolation"]["seccomp"] = serde_json::json!({
        "active": false,
        "detail": "unavailable: planted",
    });
    std::fs::write(&memo, planted.to_string()).unwrap();
    let judged = judge(cache.path(), "ac.c").expect_code(0);
    let report = judged.json();
    assert_eq!(report["isolation"]["seccomp"]["active"], true, "{report:#}");
    assert!(!judged.stderr().contains("planted"), "{}", judged.stderr());
    assert_eq!(
        memo_json(&memo)["value"]["isolation"]["seccomp"],
        probed["isolation"]["seccomp"],
        "the memo is the new probe's"
    );
}

/// Two judges started at once, with nothing kept, both probe and judge; what is kept after is whole.
#[test]
fn judges_started_at_once_both_judge() {
    let cache = tempfile::tempdir().unwrap();
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| judge(cache.path(), "ac.c"));
        let b = scope.spawn(|| judge(cache.path(), "ac.cpp"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(solution(&a.expect_code(0).json(), "ac.c")["verdict"], "AC");
    assert_eq!(
        solution(&b.expect_code(0).json(), "ac.cpp")["verdict"],
        "AC"
    );
    let kept = memo_json(&memo(cache.path()));
    assert!(
        kept["key"].as_str().unwrap().contains("layers="),
        "{kept:#}"
    );
    assert_eq!(doctor(cache.path())["probe"]["cached"], true);
}
