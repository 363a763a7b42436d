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

impl Bytes {
    /// An amount measured (not a limit), always in the same form: "2.0MiB", "0.4MiB", "1.5GiB".
    pub fn measured(self) -> String {
        if self.0 >= Self::GIB {
            format!("{:.1}GiB", self.0 as f64 / Self::GIB as f64)
        } else {
            format!("{:.1}MiB", self.0 as f64 / Self::MIB as f64)
        }
    }
}

/// `count` and the noun, in the plural unless there is one: "1 test", "3 tests".
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Parses "256MiB", "64 MB", "1GiB", "512KiB". Units are read whatever their case, and `KB`, `MB`, `GB` are
/// binary like `KiB`, `MiB`, `GiB`: a problem's "256 MB" is 256 MiB wherever contests are judged. A bare number
/// is refused: "256" would be 256 bytes, never what was meant.
pub fn parse_bytes(text: &str) -> Result<Bytes, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = (&text[..split], text[split..].trim());
    let value: f64 = number
        .parse()
        .map_err(|_| format!("\"{text}\" does not start with a number"))?;
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" => {
            return Err(format!(
                "\"{text}\" has no unit (write it like \"{text}MiB\")"
            ));
        }
        "b" => 1,
        "k" | "kb" | "kib" => Bytes::KIB,
        "m" | "mb" | "mib" => Bytes::MIB,
        "g" | "gb" | "gib" => Bytes::GIB,
        _ => {
            return Err(format!(
                "unknown size unit \"{unit}\" (use B, KiB, MiB or GiB)"
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
    let lower = text.to_ascii_lowercase();
    let duration = if let Some(seconds) = lower.strip_suffix('s').filter(|s| is_decimal(s)) {
        seconds
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite())
            .map(Duration::from_secs_f64)
            .ok_or_else(|| format!("\"{text}\" is not a duration"))?
    } else {
        humantime::parse_duration(&lower)
            .map_err(|e| format!("\"{text}\" is not a duration like \"1s\" or \"500ms\": {e}"))?
    };
    if duration.is_zero() {
        return Err(format!("\"{text}\" must be longer than zero"));
    }
    Ok(duration)
}

/// The longest time limit: more is a typo, and would hold the judge for hours.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(3600);

/// The largest memory or output limit, 1 TiB: more than any machine judges with, and so far below `u64::MAX`
/// bytes that no sum or multiple of a limit the sandbox takes can overflow.
pub const MAX_SIZE_LIMIT: Bytes = Bytes(1 << 40);

/// The least memory limit, under which no runtime even starts.
pub const MIN_MEMORY_LIMIT: Bytes = Bytes::mib(1);

/// The least output limit.
pub const MIN_OUTPUT_LIMIT: Bytes = Bytes(Bytes::KIB);

/// A time limit: a duration of at most [`MAX_TIME_LIMIT`].
pub fn parse_time_limit(text: &str) -> Result<Duration, String> {
    let limit = parse_duration(text)?;
    if limit > MAX_TIME_LIMIT {
        return Err(format!("time limit \"{}\" is over an hour", text.trim()));
    }
    Ok(limit)
}

/// A memory limit: at least [`MIN_MEMORY_LIMIT`], at most [`MAX_SIZE_LIMIT`].
pub fn parse_memory_limit(text: &str) -> Result<Bytes, String> {
    within(parse_bytes(text)?, MIN_MEMORY_LIMIT, "memory limit", text)
}

/// An output limit: at least [`MIN_OUTPUT_LIMIT`], at most [`MAX_SIZE_LIMIT`].
pub fn parse_output_limit(text: &str) -> Result<Bytes, String> {
    within(parse_bytes(text)?, MIN_OUTPUT_LIMIT, "output limit", text)
}

fn within(size: Bytes, least: Bytes, what: &str, text: &str) -> Result<Bytes, String> {
    if size < least {
        return Err(format!(
            "{what} \"{}\" is under {least}: is a unit missing or wrong?",
            text.trim()
        ));
    }
    if size > MAX_SIZE_LIMIT {
        return Err(format!(
            "{what} \"{}\" is over {MAX_SIZE_LIMIT}",
            text.trim()
        ));
    }
    Ok(size)
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
            ("1000", None),
            ("2MB", Some(2 * Bytes::MIB)),
            ("64mb", Some(64 * Bytes::MIB)),
            ("64MB", Some(64 * Bytes::MIB)),
            ("64mib", Some(64 * Bytes::MIB)),
            ("64 MIB", Some(64 * Bytes::MIB)),
            ("3kb", Some(3 * Bytes::KIB)),
            ("1000B", Some(1000)),
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
            ("1S", Some(Duration::from_secs(1))),
            ("500MS", Some(Duration::from_millis(500))),
            ("0s", None),
            ("1", None),
            ("fast", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration(text).ok(), want, "{text}");
        }
    }

    #[test]
    fn absurd_limits_are_refused() {
        assert!(parse_time_limit("1h").is_ok());
        assert!(
            parse_time_limit("61m")
                .unwrap_err()
                .contains("over an hour")
        );
        assert!(parse_memory_limit("1MiB").is_ok());
        assert!(
            parse_memory_limit("256KiB")
                .unwrap_err()
                .contains("under 1MiB")
        );
        assert!(parse_memory_limit("256").unwrap_err().contains("no unit"));
        assert!(parse_memory_limit("1024GiB").is_ok());
        assert!(
            parse_memory_limit("1025GiB")
                .unwrap_err()
                .contains("over 1024GiB")
        );
        assert!(
            parse_output_limit("2000000GiB")
                .unwrap_err()
                .contains("over 1024GiB")
        );
        assert!(parse_output_limit("1KiB").is_ok());
        assert!(
            parse_output_limit("100B")
                .unwrap_err()
                .contains("under 1KiB")
        );
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
