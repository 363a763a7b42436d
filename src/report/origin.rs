//! Where and when a judge ran, as its reports say: the isolation layers in force, the machine, the date.

use crate::fingerprint::Fingerprint;
use crate::judge::Partition;
use crate::sandbox::{Isolation, Layer, LayerStatus};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub isolation: Isolation,
    pub host: String,
    /// RFC 3339, to the second.
    pub date: String,
    /// The machine, as far as it can change a verdict or a time.
    pub fingerprint: Fingerprint,
    /// The cpjudge that judged: its version and a digest of its executable.
    pub cpjudge: String,
}

impl Origin {
    /// This machine, now.
    pub fn here(isolation: Isolation) -> Origin {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_owned())
            .unwrap_or_default();
        Origin {
            isolation,
            host,
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            fingerprint: Fingerprint::here(),
            cpjudge: crate::fingerprint::this_build(),
        }
    }

    /// The origin of a judge spread over `shares`, each judged where and when its origin says: a layer counts as
    /// in force only where it was in every share (its detail then says which shares had it), the machines are
    /// named in turn, and the date is the last share's.
    pub fn of_shares(shares: &[(Partition, Origin)]) -> Origin {
        let Some((_, first)) = shares.first() else {
            return Origin::here(Isolation::off());
        };
        let mut isolation = first.isolation.clone();
        for layer in Layer::ALL {
            let statuses: Vec<(Partition, &LayerStatus)> = shares
                .iter()
                .map(|(partition, origin)| (*partition, origin.isolation.status(layer)))
                .collect();
            if statuses.iter().all(|(_, status)| *status == statuses[0].1) {
                continue;
            }
            let by_share: Vec<String> = statuses
                .iter()
                .map(|(partition, status)| {
                    let state = if status.active { "on" } else { "off" };
                    format!("{partition} {state}: {}", status.detail)
                })
                .collect();
            *isolation.status_mut(layer) = LayerStatus {
                active: statuses.iter().all(|(_, status)| status.active),
                detail: format!("differs by share; {}", by_share.join("; ")),
            };
        }
        let mut hosts: Vec<&str> = Vec::new();
        for (_, origin) in shares {
            if !hosts.contains(&origin.host.as_str()) {
                hosts.push(&origin.host);
            }
        }
        Origin {
            isolation,
            host: hosts.join(", "),
            date: shares
                .iter()
                .map(|(_, origin)| origin.date.clone())
                .max()
                .unwrap_or_default(),
            // Shares of other machines or builds are merged only when the user accepts them: the first's stand.
            fingerprint: first.fingerprint.clone(),
            cpjudge: first.cpjudge.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(detail: &str) -> LayerStatus {
        LayerStatus {
            active: true,
            detail: detail.into(),
        }
    }

    #[test]
    fn shares_under_different_layers_claim_only_what_all_had() {
        let mut full = Isolation::off();
        for layer in Layer::ALL {
            *full.status_mut(layer) = on("in force");
        }
        let mut without_seccomp = full.clone();
        *without_seccomp.status_mut(Layer::Seccomp) = LayerStatus {
            active: false,
            detail: "not in this kernel".into(),
        };
        let share = |index, host: &str, date: &str, isolation: &Isolation| {
            let partition = Partition { index, count: 3 };
            let origin = Origin {
                isolation: isolation.clone(),
                host: host.into(),
                date: date.into(),
                fingerprint: Default::default(),
                cpjudge: String::new(),
            };
            (partition, origin)
        };
        let merged = Origin::of_shares(&[
            share(1, "a", "2026-11-23T10:00:00Z", &full),
            share(2, "b", "2026-11-23T10:05:00Z", &without_seccomp),
            share(3, "a", "2026-11-23T10:01:00Z", &full),
        ]);
        assert_eq!(merged.host, "a, b");
        assert_eq!(merged.date, "2026-11-23T10:05:00Z");
        assert_eq!(merged.isolation.cgroup, on("in force"));
        let seccomp = merged.isolation.status(Layer::Seccomp);
        assert!(!seccomp.active);
        assert!(
            seccomp.detail.contains("2/3 off: not in this kernel")
                && seccomp.detail.contains("1/3 on: in force"),
            "{}",
            seccomp.detail
        );
    }
}
