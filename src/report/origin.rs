//! Where and when a judge ran, as its reports say: the isolation layers in force, the machine, the date.

use crate::sandbox::Isolation;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub isolation: Isolation,
    pub host: String,
    /// RFC 3339, to the second.
    pub date: String,
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
        }
    }
}
