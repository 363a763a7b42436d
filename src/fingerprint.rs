//! What a verdict depends on besides the bytes judged: the machine (its CPU, its kernel, how its cgroups are
//! mounted) and the cpjudge that judged (its version, and a digest of its executable, since two builds of one
//! version may judge differently). Reports carry both, runs are kept under them (see `judge::records`), and
//! `merge` refuses shares whose machines differ unless told otherwise.

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The machine a judge ran on, as far as it can change a verdict or a time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The CPU's model name, as /proc/cpuinfo gives it.
    pub cpu: String,
    /// The kernel's release.
    pub kernel: String,
    /// How cgroups are mounted: `v1`, `v2`, `hybrid`, or `none`.
    pub cgroup: String,
}

impl Fingerprint {
    /// This machine's.
    pub fn here() -> Fingerprint {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
        Fingerprint {
            cpu: cpu_model(&cpuinfo),
            kernel: kernel.trim().to_owned(),
            cgroup: cgroup_mode(&mounts).to_owned(),
        }
    }

    /// The fields in which `other` differs from this one, each with both values: empty when they are the same.
    pub fn differences(&self, other: &Fingerprint) -> Vec<String> {
        [
            ("CPU", &self.cpu, &other.cpu),
            ("kernel", &self.kernel, &other.kernel),
            ("cgroups", &self.cgroup, &other.cgroup),
        ]
        .into_iter()
        .filter(|(_, a, b)| a != b)
        .map(|(what, a, b)| format!("{what} {a:?} against {b:?}"))
        .collect()
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; kernel {}; cgroup {}",
            self.cpu, self.kernel, self.cgroup
        )
    }
}

/// The first model name in /proc/cpuinfo (every core of a machine has the same), or the architecture's
/// equivalent where there is none.
fn cpu_model(cpuinfo: &str) -> String {
    for wanted in ["model name", "Processor", "cpu model", "uarch"] {
        let found = cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == wanted).then(|| value.trim().to_owned())
        });
        if let Some(model) = found {
            return model;
        }
    }
    std::env::consts::ARCH.to_owned()
}

/// How the machine's cgroups are mounted, from a mount table.
fn cgroup_mode(mounts: &str) -> &'static str {
    let types: Vec<&str> = mounts
        .lines()
        .filter_map(|line| line.split_whitespace().nth(2))
        .collect();
    match (types.contains(&"cgroup"), types.contains(&"cgroup2")) {
        (true, true) => "hybrid",
        (true, false) => "v1",
        (false, true) => "v2",
        (false, false) => "none",
    }
}

/// This cpjudge: its version and a digest of its executable, so that two builds of one version are told apart.
/// The digest is kept by the executable's identity (see [`crate::memo`]): it is read once per build.
pub fn this_build() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let Ok(exe) = std::env::current_exe() else {
        return version.to_owned();
    };
    format!("{version} ({})", executable_digest(&exe))
}

fn executable_digest(exe: &Path) -> String {
    let identity = crate::memo::identity(exe);
    let memo = crate::memo::Memo::of("executable", &exe.to_string_lossy());
    if let Some(digest) = memo.as_ref().and_then(|m| m.get::<String>(&identity)) {
        return digest;
    }
    let mut key = crate::compile::CacheKey::default();
    if key.part_file(exe).is_err() {
        return "unreadable".to_owned();
    }
    let digest: String = key.finish().chars().take(16).collect();
    if let Some(memo) = memo {
        memo.put(&identity, &digest);
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_model_is_the_first_named() {
        let info = "processor\t: 0\nvendor_id\t: X\nmodel name\t: Fast CPU @ 3GHz\n\nprocessor\t: 1\nmodel name\t: Fast CPU @ 3GHz\n";
        assert_eq!(cpu_model(info), "Fast CPU @ 3GHz");
        assert_eq!(cpu_model("Processor\t: ARMv7\n"), "ARMv7");
        assert_eq!(cpu_model(""), std::env::consts::ARCH);
    }

    #[test]
    fn cgroup_modes() {
        let v1 = "cgroup /sys/fs/cgroup/memory cgroup rw 0 0\n";
        let v2 = "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n";
        assert_eq!(cgroup_mode(v1), "v1");
        assert_eq!(cgroup_mode(v2), "v2");
        assert_eq!(cgroup_mode(&format!("{v1}{v2}")), "hybrid");
        assert_eq!(cgroup_mode("proc /proc proc rw 0 0\n"), "none");
    }

    #[test]
    fn differences_name_each_field_that_differs() {
        let a = Fingerprint {
            cpu: "A".into(),
            kernel: "6.1".into(),
            cgroup: "v2".into(),
        };
        assert!(a.differences(&a).is_empty());
        let b = Fingerprint {
            kernel: "6.8".into(),
            ..a.clone()
        };
        assert_eq!(a.differences(&b), [r#"kernel "6.1" against "6.8""#]);
    }
}
