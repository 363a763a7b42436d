//! Quantities with units: byte counts, and parsing of the human forms ("256MiB", "1s") used in problem.toml.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// A number of bytes. Memory and output sizes travel as this type so that units are converted only at the edges.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Bytes(pub u64);

impl Bytes {
    pub const KIB: u64 = 1 << 10;
    pub const MIB: u64 = 1 << 20;
    pub const GIB: u64 = 1 << 30;

    pub const fn mib(n: u64) -> Self {
        Bytes(n * Self::MIB)
    }

    pub fn kib(self) -> u64 {
        self.0 / Self::KIB
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= Self::GIB && b.is_multiple_of(Self::GIB) {
            write!(f, "{}GiB", b / Self::GIB)
        } else if b >= Self::MIB && b.is_multiple_of(Self::MIB) {
            write!(f, "{}MiB", b / Self::MIB)
        } else if b >= Self::MIB {
            write!(f, "{:.1}MiB", b as f64 / Self::MIB as f64)
        } else if b >= Self::KIB {
            write!(f, "{}KiB", b / Self::KIB)
        } else {
            write!(f, "{b}B")
        }
    }
}

/// Parses "256MiB", "64 MB", "1GiB", "512KiB", "1000" (bytes). Binary and decimal prefixes are both accepted,
/// since problem setters write either.
pub fn parse_bytes(text: &str) -> Result<Bytes, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = (&text[..split], text[split..].trim());
    let value: f64 = number
        .parse()
        .map_err(|_| format!("\"{text}\" does not start with a number"))?;
    let scale: u64 = match unit {
        "" | "B" => 1,
        "KiB" | "K" => Bytes::KIB,
        "MiB" | "M" => Bytes::MIB,
        "GiB" | "G" => Bytes::GIB,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        other => {
            return Err(format!(
                "unknown size unit \"{other}\" (use B, KiB, MiB, GiB, KB, MB or GB)"
            ));
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("\"{text}\" is not a usable size"));
    }
    Ok(Bytes(bytes as u64))
}

/// Parses "1s", "500ms", "2.5s", "1m". A bare number is refused: "1" could mean seconds or milliseconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let duration = if let Some(seconds) = text.strip_suffix('s').filter(|s| is_decimal(s)) {
        seconds
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite())
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("\"{text}\" is not a duration"))?
    } else {
        humantime::parse_duration(text)
            .map_err(|e| format!("\"{text}\" is not a duration like \"1s\" or \"500ms\": {e}"))?
    };
    if duration.is_zero() {
        return Err(format!("\"{text}\" must be longer than zero"));
    }
    Ok(duration)
}

fn is_decimal(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A duration for people: "7ms", "1.02s", "2s".
pub fn format_time(d: Duration) -> String {
    if d >= Duration::from_secs(1) && d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else if d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{:.2}s", d.as_secs_f64())
    }
}

/// Milliseconds for reports, rounded down.
pub fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let cases = [
            ("256MiB", Some(256 * Bytes::MIB)),
            ("64 MiB", Some(64 * Bytes::MIB)),
            ("1GiB", Some(Bytes::GIB)),
            ("512KiB", Some(512 * Bytes::KIB)),
            ("1000", Some(1000)),
            ("2MB", Some(2_000_000)),
            ("0.5GiB", Some(Bytes::GIB / 2)),
            ("0MiB", None),
            ("MiB", None),
            ("12 parsecs", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_bytes(text).ok().map(|b| b.0), want, "{text}");
        }
    }

    #[test]
    fn durations() {
        let cases = [
            ("1s", Some(Duration::from_secs(1))),
            ("500ms", Some(Duration::from_millis(500))),
            ("2.5s", Some(Duration::from_millis(2500))),
            ("1m", Some(Duration::from_secs(60))),
            ("0s", None),
            ("1", None),
            ("fast", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration(text).ok(), want, "{text}");
        }
    }

    #[test]
    fn times() {
        assert_eq!(format_time(Duration::from_millis(7)), "7ms");
        assert_eq!(format_time(Duration::from_millis(1016)), "1.02s");
        assert_eq!(format_time(Duration::from_secs(2)), "2s");
        assert_eq!(format_time(Duration::ZERO), "0ms");
    }

    #[test]
    fn display() {
        assert_eq!(Bytes(256 * Bytes::MIB).to_string(), "256MiB");
        assert_eq!(Bytes(3 * Bytes::MIB / 2).to_string(), "1.5MiB");
        assert_eq!(Bytes(Bytes::GIB).to_string(), "1GiB");
        assert_eq!(Bytes(2048).to_string(), "2KiB");
        assert_eq!(Bytes(12).to_string(), "12B");
    }
}
