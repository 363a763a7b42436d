//! The start-up probe's answer kept between commands (see [`crate::memo`]): probing forks children and makes a
//! trial run, tens of milliseconds at every start, for an answer that changes only with the machine.
//!
//! The answer is kept under a key naming everything the layers' own checks and the trial run depend on (the boot,
//! the kernel and its settings, the user, the cgroups and namespaces the judge is in, the executable) and is used
//! only while that key holds. Each executable has a memo of its own for each set of wanted layers, so that two
//! builds used in turn (one installed, one being worked on) do not each find the other's answer and probe again. A probe in which a layer failed its
//! trial run is not kept: judging stops then, and the next start tries again. A kept answer, stale or planted (a run
//! without layers may write where the user can), never weakens isolation: a layer it calls off is checked again
//! (see `ready`), and a layer it calls active is asked of every worker, which fails loudly without it; the command
//! that meets such a failure forgets the answer (see [`forget_after`]).

use super::cgroup;
use super::isolation::{Isolation, Layer, Layers};
use crate::error::Error;
use crate::memo::{self, Memo};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where the isolation a command uses came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Probe {
    /// Whether it was kept from an earlier command rather than probed now.
    pub cached: bool,
    /// When it was probed (RFC 3339, to the second).
    pub probed_at: String,
    /// The file it is kept in; none where the user has no cache folder.
    pub memo: Option<PathBuf>,
}

/// What a memo holds.
#[derive(Serialize, Deserialize)]
struct Kept {
    probed_at: String,
    isolation: Isolation,
}

/// The probe [`probe_ahead`] made, for the layers wanted and the executable: the command's first sandbox takes it.
static AHEAD: Mutex<Option<(Layers, PathBuf, Isolation)>> = Mutex::new(None);

/// Probes, as [`probe_once`] does, for the sandbox a command is about to make, and keeps the result for it (see
/// [`probe_for_sandbox`]): the command's first worker can then be told its layers before the command knows its
/// problem. Call it before starting any thread.
pub fn probe_ahead(wanted: &Layers, supervisor: &Path) -> Isolation {
    let (isolation, _) = probe_once(wanted, supervisor, false);
    *AHEAD.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((wanted.clone(), supervisor.to_owned(), isolation.clone()));
    isolation
}

/// The layers this machine gives among `wanted` for a sandbox of `supervisor`: the probe [`probe_ahead`] made for
/// them, taken once, or else [`probe_once`]'s. A later sandbox of the same command (`--watch` judges again) probes
/// again, and so sees what changed meanwhile. Call it before starting any thread.
pub fn probe_for_sandbox(wanted: &Layers, supervisor: &Path) -> Isolation {
    let ahead = AHEAD.lock().unwrap_or_else(|e| e.into_inner()).take();
    match ahead {
        Some((layers, executable, isolation)) if layers == *wanted && executable == supervisor => {
            isolation
        }
        _ => probe_once(wanted, supervisor, false).0,
    }
}

/// The layers this machine gives among `wanted` (see [`Isolation::probe`]), as kept from an earlier command under
/// the same key, or probed now and kept; `fresh` probes in any case. Call it before starting any thread, as
/// [`Isolation::probe`].
pub fn probe_once(wanted: &Layers, supervisor: &Path, fresh: bool) -> (Isolation, Probe) {
    let now = || humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    if *wanted == Layers::none() {
        let probe = Probe {
            cached: false,
            probed_at: now(),
            memo: None,
        };
        return (Isolation::off(), probe);
    }
    let memo = memo_of(wanted, supervisor);
    let key = key(&facts(wanted, supervisor));
    if !fresh
        && let Some(memo) = &memo
        && let Some(kept) = memo.get::<Kept>(&key)
        && ready(&kept.isolation, wanted)
    {
        let probe = Probe {
            cached: true,
            probed_at: kept.probed_at,
            memo: Some(memo.path().to_owned()),
        };
        return (kept.isolation, probe);
    }
    let isolation = Isolation::probe(wanted, supervisor);
    let probed_at = now();
    if let Some(memo) = &memo {
        if isolation.trial_failures.is_empty() {
            memo.put(
                &key,
                &Kept {
                    probed_at: probed_at.clone(),
                    isolation: isolation.clone(),
                },
            );
        } else {
            memo.forget();
        }
    }
    let probe = Probe {
        cached: false,
        probed_at,
        memo: memo.map(|m| m.path().to_owned()),
    };
    (isolation, probe)
}

/// `error`, having forgotten this executable's kept probe of `wanted` where it is a run the sandbox could not carry
/// out: a layer kept as working may have stopped working, and the next command probes again.
pub fn forget_after(error: Error, wanted: &Layers) -> Error {
    match error {
        Error::Sandbox(why) if *wanted != Layers::none() => {
            if let Some(memo) = std::env::current_exe()
                .ok()
                .and_then(|exe| memo_of(wanted, &exe))
            {
                memo.forget();
            }
            Error::Sandbox(format!(
                "{why}\n(what was kept of the isolation layers' probe is forgotten: the next command probes them \
                 again)"
            ))
        }
        other => other,
    }
}

fn memo_of(wanted: &Layers, supervisor: &Path) -> Option<Memo> {
    Memo::of("isolation", &format!("{wanted}\n{}", supervisor.display()))
}

/// Whether a kept answer may be used: each wanted layer it says is off is checked again (the kernel's check alone,
/// quick where it fails), so that no memo, planted or stale, turns off a layer that works; and what the probe did
/// besides finding the answer is done again: a judge on cgroup v2 moves into a leaf cgroup of its own, so that its
/// workers' cgroups can have controllers. False where either fails, and the layers are probed again.
fn ready(isolation: &Isolation, wanted: &Layers) -> bool {
    let off_and_still_off = isolation
        .unavailable(wanted)
        .into_iter()
        .all(|layer| layer.probe().is_err());
    off_and_still_off
        && (!isolation.status(Layer::Cgroup).active || cgroup::Hierarchy::find().is_ok())
}

/// The key of a kept probe: each fact on a line of its own.
fn key(facts: &[(&str, String)]) -> String {
    facts
        .iter()
        .map(|(name, value)| format!("{name}={}\n", value.escape_debug()))
        .collect()
}

/// Everything the probe's answer depends on that is cheap to learn: files of /proc, metadata and one system call,
/// no process started.
fn facts(wanted: &Layers, supervisor: &Path) -> Vec<(&'static str, String)> {
    let read = |path: &str| {
        std::fs::read_to_string(path).map_or_else(|_| "absent".to_owned(), |s| s.trim().to_owned())
    };
    // SAFETY: these calls have no preconditions.
    let (uid, euid, gid, egid) = unsafe {
        (
            libc::getuid(),
            libc::geteuid(),
            libc::getgid(),
            libc::getegid(),
        )
    };
    let status = read("/proc/self/status");
    let status: Vec<&str> = status
        .lines()
        .filter(|line| {
            [
                "Groups:",
                "NoNewPrivs:",
                "Seccomp:",
                "Seccomp_filters:",
                "Cap",
            ]
            .iter()
            .any(|field| line.starts_with(field))
        })
        .collect();
    let mountinfo = read("/proc/self/mountinfo");
    let cgroup_mounts: Vec<&str> = mountinfo
        .lines()
        .filter(|line| line.contains(" - cgroup"))
        .collect();
    let namespaces: Vec<String> = ["user", "pid", "mnt", "cgroup", "ipc", "uts", "net"]
        .iter()
        .map(|ns| {
            std::fs::read_link(format!("/proc/self/ns/{ns}"))
                .map_or_else(|_| format!("{ns}:absent"), |l| l.display().to_string())
        })
        .collect();
    let temp = std::env::temp_dir();
    let mut facts = vec![
        ("cpjudge", env!("CARGO_PKG_VERSION").to_owned()),
        (
            "executable",
            format!("{} {}", supervisor.display(), memo::identity(supervisor)),
        ),
        ("layers", wanted.to_string()),
        ("boot", read("/proc/sys/kernel/random/boot_id")),
        (
            "kernel",
            format!(
                "{} {}",
                read("/proc/sys/kernel/osrelease"),
                read("/proc/sys/kernel/version")
            ),
        ),
        ("ids", format!("{uid} {euid} {gid} {egid}")),
        ("status", status.join("; ")),
        ("security", read("/proc/self/attr/current")),
        ("landlock", super::filesystem::kernel_abi().to_string()),
        ("cgroup", read("/proc/self/cgroup")),
        ("cgroup mounts", cgroup_mounts.join("\n")),
        ("namespaces", namespaces.join(" ")),
        (
            "temporary folder",
            format!("{} {}", temp.display(), owner_and_mode(&temp)),
        ),
    ];
    for setting in SETTINGS {
        facts.push((setting, read(&format!("/proc/sys/{setting}"))));
    }
    facts
}

/// The kernel's settings (under /proc/sys) that open or close a layer to this user.
const SETTINGS: [&str; 13] = [
    "kernel/unprivileged_userns_clone",
    "kernel/apparmor_restrict_unprivileged_userns",
    "kernel/unprivileged_bpf_disabled",
    "kernel/yama/ptrace_scope",
    "kernel/seccomp/actions_avail",
    "user/max_user_namespaces",
    "user/max_pid_namespaces",
    "user/max_net_namespaces",
    "user/max_mnt_namespaces",
    "user/max_ipc_namespaces",
    "user/max_uts_namespaces",
    "user/max_cgroup_namespaces",
    "fs/mount-max",
];

/// Who owns `path`, and its mode: what decides whether a run's folder can be made there.
fn owner_and_mode(path: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).map_or_else(
        |_| "missing".to_owned(),
        |m| format!("{}:{} {:o}", m.uid(), m.gid(), m.mode()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fact_changes_the_key() {
        let exe = std::env::current_exe().unwrap();
        let facts = facts(&Layers::all(), &exe);
        let mut keys = std::collections::HashSet::from([key(&facts)]);
        for i in 0..facts.len() {
            let mut changed = facts.clone();
            changed[i].1.push('x');
            assert!(
                keys.insert(key(&changed)),
                "{} does not change the key",
                facts[i].0
            );
        }
        // A value that spans lines cannot pass for another fact.
        let mut forged = facts.clone();
        forged[0].1.push_str("\nboot=x");
        assert!(keys.insert(key(&forged)));
    }

    #[test]
    fn the_key_names_the_machine_the_user_and_the_executable() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("cpjudge");
        std::fs::write(&exe, b"1").unwrap();
        let before = facts(&Layers::all(), &exe);
        let find = |facts: &[(&str, String)], name: &str| {
            facts
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no fact {name}"))
                .1
                .clone()
        };
        for name in ["boot", "kernel", "cgroup", "namespaces", "status"] {
            assert_ne!(find(&before, name), "absent", "{name} is read");
        }
        std::fs::write(&exe, b"22").unwrap();
        assert_ne!(
            key(&facts(&Layers::all(), &exe)),
            key(&before),
            "a rebuilt executable is another key"
        );
        assert_ne!(
            key(&facts(&"seccomp".parse().unwrap(), &exe)),
            key(&facts(&Layers::all(), &exe)),
            "so are other layers"
        );
    }

    #[test]
    fn each_executable_keeps_its_own_probe() {
        let memo = |layers: &Layers, exe: &str| {
            memo_of(layers, Path::new(exe)).map(|m| m.path().to_owned())
        };
        let all = Layers::all();
        if memo(&all, "/a/cpjudge").is_none() {
            eprintln!("skipped: no home folder to keep memos in");
            return;
        }
        assert_ne!(memo(&all, "/a/cpjudge"), memo(&all, "/b/cpjudge"));
        assert_ne!(
            memo(&all, "/a/cpjudge"),
            memo(&Layers::none(), "/a/cpjudge")
        );
        assert_eq!(memo(&all, "/a/cpjudge"), memo(&all, "/a/cpjudge"));
    }
}
