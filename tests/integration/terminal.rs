//! A judge started on a terminal: its runs have none. The judge runs on a pseudo-terminal (util-linux `script`), and
//! a submission that could open the terminal, or finds one among its streams, answers wrongly on purpose.

use crate::harness::{copy_dir, fixtures};
use std::process::{Command, Stdio};

/// Judges `open_tty.c` with `layers` on a pseudo-terminal; returns the judge's exit code and what it printed.
fn judge_on_a_terminal(layers: &str) -> (i32, String) {
    let project = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join("basic"), project.path());
    std::fs::copy(
        fixtures().join("submissions/open_tty.c"),
        project.path().join("open_tty.c"),
    )
    .unwrap();
    let judge = format!(
        "exec {} --cache-dir {} judge sum --submission open_tty.c --layers {layers} --color never",
        env!("CARGO_BIN_EXE_cpjudge"),
        cache.path().display()
    );
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &judge, "/dev/null"])
        .current_dir(project.path())
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .expect("util-linux `script` runs the judge on a pseudo-terminal");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Without namespaces or Landlock nothing but the run's place in the process tree keeps it from the terminal: the
/// worker's session has none, and so neither have its runs.
#[test]
fn a_run_cannot_reach_the_terminal_the_judge_runs_on() {
    for layers in ["none", "all"] {
        let (code, shown) = judge_on_a_terminal(layers);
        assert_eq!(code, 0, "with --layers {layers}:\n{shown}");
        assert!(shown.contains("AC"), "with --layers {layers}:\n{shown}");
    }
}
