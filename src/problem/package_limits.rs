//! A package's limits: problem.yaml's `limits` and the `.timelimit` file, validated into a time rule and byte
//! limits. A value no limit can be (not a number, negative, zero, absurdly large) is an error at its line and
//! column, as in `problem.toml`.

use super::config::TimeRule;
use crate::error::{Error, Result};
use crate::units::{self, Bytes};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::path::Path;
use std::time::Duration;

/// The legacy format's defaults (problemtools): memory 2048 MiB, output 8 MiB; a derived time limit is the slowest
/// accepted submission times 5, rounded up to whole seconds, at least 1 s; TLE submissions run on to twice the
/// limit, where one that would pass is told apart.
const LEGACY_TIME_MULTIPLIER: f64 = 5.0;
const LEGACY_SAFETY_MARGIN: f64 = 2.0;
/// 2023-07's defaults: the limit is the slowest accepted times 2, rounded up to the time resolution (1 s); TLE
/// submissions run on to 1.5 times the limit.
const AC_TO_TIME_LIMIT: f64 = 2.0;
const TIME_LIMIT_TO_TLE: f64 = 1.5;
const DEFAULT_MEMORY: Bytes = Bytes::mib(2048);
const DEFAULT_OUTPUT: Bytes = Bytes::mib(8);
/// The format's default for a multi-pass problem, and its least: a second pass is the point.
pub(super) const DEFAULT_PASSES: u32 = 2;
/// The most passes taken: every pass runs the submission again, so past this (DOMjudge's hangman, the most seen,
/// has 26) a limit is a typo.
const MAX_PASSES: u32 = 1000;

/// The largest time multiplier of either kind: past it, a limit or the time the TLE submissions run is a typo.
const MAX_MULTIPLIER: f64 = 100.0;
/// The finest step a derived limit is rounded up to.
const MIN_RESOLUTION: Duration = Duration::from_millis(1);

/// problem.yaml's `limits`: each number with where it is written.
#[derive(Deserialize, Default)]
pub(super) struct RawLimits {
    time_limit: Option<Spanned<f64>>,
    time_multiplier: Option<Spanned<f64>>,
    time_safety_margin: Option<Spanned<f64>>,
    time_multipliers: Option<RawMultipliers>,
    time_resolution: Option<Spanned<f64>>,
    memory: Option<Spanned<u64>>,
    output: Option<Spanned<u64>>,
    validation_passes: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
struct RawMultipliers {
    ac_to_time_limit: Option<Spanned<f64>>,
    time_limit_to_tle: Option<Spanned<f64>>,
}

/// A package's limits, each one a limit the sandbox can take.
pub(super) struct PackageLimits {
    pub time_rule: TimeRule,
    pub memory: Bytes,
    pub output: Bytes,
    /// `validation_passes`, if given: the most passes of a multi-pass problem.
    pub passes: Option<u32>,
}

impl RawLimits {
    /// Validates every limit given (those of the other format too), and finds how the time limit is set: by the
    /// package's version's keys, or the other's where its own are not given.
    pub(super) fn validate(&self, dir: &Path, modern: bool) -> Result<PackageLimits> {
        let yaml = Yaml {
            path: &dir.join("problem.yaml"),
        };
        let fixed = self
            .time_limit
            .as_ref()
            .map(|s| yaml.time_limit(s))
            .transpose()?;
        let multiplier = |value: &Option<Spanned<f64>>, key| {
            value.as_ref().map(|s| yaml.multiplier(s, key)).transpose()
        };
        let legacy_ac = multiplier(&self.time_multiplier, "time_multiplier")?;
        let legacy_tle = multiplier(&self.time_safety_margin, "time_safety_margin")?;
        let multipliers = self.time_multipliers.as_ref();
        let modern_ac = multiplier(
            &multipliers.and_then(|m| m.ac_to_time_limit.clone()),
            "time_multipliers.ac_to_time_limit",
        )?;
        let modern_tle = multiplier(
            &multipliers.and_then(|m| m.time_limit_to_tle.clone()),
            "time_multipliers.time_limit_to_tle",
        )?;
        let resolution = self
            .time_resolution
            .as_ref()
            .map(|s| yaml.resolution(s))
            .transpose()?;
        let memory = self
            .memory
            .as_ref()
            .map(|s| yaml.size(s, "memory", "a memory limit"))
            .transpose()?;
        let output = self
            .output
            .as_ref()
            .map(|s| yaml.size(s, "output", "an output limit"))
            .transpose()?;
        let passes = self
            .validation_passes
            .as_ref()
            .map(|s| yaml.passes(s))
            .transpose()?;
        let from_file = timelimit_file(dir)?;

        // A key of the other version is taken as it means there where the package's own is not given: real
        // packages mix them (a warning says so, see `package_keys`).
        let pick = |own: Option<f64>, own_key, other: Option<f64>, other_key, default| match (
            own, other,
        ) {
            (Some(v), _) => (v, own_key),
            (None, Some(v)) => (v, other_key),
            (None, None) => (default, own_key),
        };
        let (ac_multiplier, tle_multiplier, resolution, minimum, rules) = if modern {
            let (ac, ac_key) = pick(
                modern_ac,
                "ac_to_time_limit",
                legacy_ac,
                "time_multiplier",
                AC_TO_TIME_LIMIT,
            );
            let (tle, tle_key) = pick(
                modern_tle,
                "time_limit_to_tle",
                legacy_tle,
                "time_safety_margin",
                TIME_LIMIT_TO_TLE,
            );
            let resolution = resolution.unwrap_or(Duration::from_secs(1));
            (
                ac,
                tle,
                resolution,
                Duration::ZERO,
                format!(
                    "2023-07 rules, the slowest accepted submission x {ac} ({ac_key}) rounded up to \
                     {}, TLE submissions run on to the limit x {tle} ({tle_key})",
                    units::format_time(resolution)
                ),
            )
        } else {
            let (ac, ac_key) = pick(
                legacy_ac,
                "time_multiplier",
                modern_ac,
                "ac_to_time_limit",
                LEGACY_TIME_MULTIPLIER,
            );
            let (tle, tle_key) = pick(
                legacy_tle,
                "time_safety_margin",
                modern_tle,
                "time_limit_to_tle",
                LEGACY_SAFETY_MARGIN,
            );
            let step = match resolution {
                Some(given) => format!("{} (time_resolution)", units::format_time(given)),
                None => "whole seconds".to_owned(),
            };
            (
                ac,
                tle,
                resolution.unwrap_or(Duration::from_secs(1)),
                Duration::from_secs(1),
                format!(
                    "legacy rules, the slowest accepted submission x {ac} ({ac_key}) rounded up to {step}, \
                     at least 1s, TLE submissions run on to the limit x {tle} ({tle_key})"
                ),
            )
        };
        let origin = match (fixed, from_file) {
            (Some(_), _) => {
                format!("fixed by problem.yaml's limits.time_limit, compared with {rules}")
            }
            (None, Some(_)) => format!("fixed by .timelimit, compared with {rules}"),
            (None, None) => format!("derived by {rules}"),
        };
        Ok(PackageLimits {
            time_rule: TimeRule {
                fixed: fixed.or(from_file),
                ac_multiplier,
                tle_multiplier,
                resolution,
                minimum,
                origin,
            },
            memory: memory.unwrap_or(DEFAULT_MEMORY),
            output: output.unwrap_or(DEFAULT_OUTPUT),
            passes,
        })
    }
}

/// The limit `.timelimit` fixes, if the package has the file.
fn timelimit_file(dir: &Path) -> Result<Option<Duration>> {
    let path = dir.join(".timelimit");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io("read", &path, e))?;
    let number = text.trim();
    number
        .parse::<f64>()
        .ok()
        .and_then(seconds_limit)
        .map(Some)
        .ok_or_else(|| {
            let at = text.len() - text.trim_start().len();
            Error::config_at(
                &path,
                &text,
                at,
                format!("\"{number}\" is not a time limit: {TIME_LIMIT_RANGE}"),
            )
        })
}

/// What a time limit in seconds may be.
const TIME_LIMIT_RANGE: &str = "give seconds, more than 0 and at most 3600";

/// A time limit given in seconds, if it is one: more than nothing, at most [`units::MAX_TIME_LIMIT`].
fn seconds_limit(seconds: f64) -> Option<Duration> {
    let limit = Duration::try_from_secs_f64(seconds).ok()?;
    (!limit.is_zero() && limit <= units::MAX_TIME_LIMIT).then_some(limit)
}

/// problem.yaml, for errors at the position of a value.
struct Yaml<'a> {
    path: &'a Path,
}

impl Yaml<'_> {
    fn error<T>(&self, at: &Spanned<T>, message: String) -> Error {
        Error::Config {
            path: self.path.to_owned(),
            // A position serde-saphyr could not keep (line 0) is shown as the file's start.
            line: (at.referenced.line() as usize).max(1),
            column: (at.referenced.column() as usize).max(1),
            message,
        }
    }

    fn time_limit(&self, value: &Spanned<f64>) -> Result<Duration> {
        seconds_limit(value.value).ok_or_else(|| {
            self.error(
                value,
                format!(
                    "limits.time_limit: {:?} is not a time limit: {TIME_LIMIT_RANGE}",
                    value.value
                ),
            )
        })
    }

    fn multiplier(&self, value: &Spanned<f64>, key: &str) -> Result<f64> {
        let v = value.value;
        if v.is_finite() && v > 0.0 && v <= MAX_MULTIPLIER {
            return Ok(v);
        }
        Err(self.error(
            value,
            format!(
                "limits.{key}: {v:?} is not a time multiplier: give a number more than 0 and at most \
                 {MAX_MULTIPLIER}"
            ),
        ))
    }

    fn resolution(&self, value: &Spanned<f64>) -> Result<Duration> {
        Duration::try_from_secs_f64(value.value)
            .ok()
            .filter(|r| (MIN_RESOLUTION..=units::MAX_TIME_LIMIT).contains(r))
            .ok_or_else(|| {
                self.error(
                    value,
                    format!(
                        "limits.time_resolution: {:?} is not a time resolution: give seconds, at least 0.001 \
                         and at most 3600",
                        value.value
                    ),
                )
            })
    }

    /// `validation_passes`: a whole number of passes, at least 2 as the format says.
    fn passes(&self, value: &Spanned<i64>) -> Result<u32> {
        u32::try_from(value.value)
            .ok()
            .filter(|n| (DEFAULT_PASSES..=MAX_PASSES).contains(n))
            .ok_or_else(|| {
                self.error(
                    value,
                    format!(
                        "limits.validation_passes: {} is not a number of passes: give at least \
                         {DEFAULT_PASSES} and at most {MAX_PASSES}",
                        value.value
                    ),
                )
            })
    }

    /// A memory or output limit, in MiB: the format's unit, and ours at least 1 (no runtime starts in less, and
    /// 0 would refuse every byte) and at most [`units::MAX_SIZE_LIMIT`], where no byte count overflows.
    fn size(&self, value: &Spanned<u64>, key: &str, what: &str) -> Result<Bytes> {
        let most = units::MAX_SIZE_LIMIT.0 / Bytes::MIB;
        if (1..=most).contains(&value.value) {
            return Ok(Bytes::mib(value.value));
        }
        Err(self.error(
            value,
            format!(
                "limits.{key}: {} is not {what}: give MiB, at least 1 and at most {most} ({})",
                value.value,
                units::MAX_SIZE_LIMIT
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error problem.yaml's `limits` give, if any.
    fn refused(limits: &str, timelimit: Option<&str>) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        if let Some(text) = timelimit {
            std::fs::write(dir.path().join(".timelimit"), text).unwrap();
        }
        let raw: RawLimits = if limits.is_empty() {
            RawLimits::default()
        } else {
            serde_saphyr::from_str(limits).unwrap()
        };
        let message = raw.validate(dir.path(), false).err()?.to_string();
        let shown = dir.path().display().to_string();
        Some(message.replace(&shown, "P"))
    }

    #[test]
    fn limits_no_sandbox_can_take_are_refused_where_written() {
        let cases = [
            (
                "time_limit: .nan",
                "P/problem.yaml:1:13: limits.time_limit: NaN is not",
            ),
            (
                "time_limit: -1",
                "P/problem.yaml:1:13: limits.time_limit: -1.0 is not",
            ),
            ("time_limit: 0", "limits.time_limit: 0.0 is not"),
            ("time_limit: 1e-12", "limits.time_limit: 1e-12 is not"),
            ("time_limit: 1e300", "limits.time_limit: 1e300 is not"),
            ("time_limit: 3601", "at most 3600"),
            (
                "time_multiplier: .inf",
                "limits.time_multiplier: inf is not",
            ),
            (
                "time_safety_margin: 0",
                "limits.time_safety_margin: 0.0 is not",
            ),
            (
                "time_safety_margin: 1e300",
                "limits.time_safety_margin: 1e300 is not",
            ),
            (
                "time_multipliers:\n  ac_to_time_limit: -2",
                "P/problem.yaml:2:21: limits.time_multipliers.ac_to_time_limit: -2.0",
            ),
            (
                "time_resolution: 1e-300",
                "limits.time_resolution: 1e-300 is not",
            ),
            (
                "memory: 0",
                "P/problem.yaml:1:9: limits.memory: 0 is not a memory limit",
            ),
            ("memory: 1048577", "at most 1048576 (1024GiB)"),
            (
                "output: 100000000000000",
                "limits.output: 100000000000000 is not an output limit",
            ),
            (
                "output: 17592186044416",
                "limits.output: 17592186044416 is not",
            ),
            (
                "validation_passes: 1",
                "P/problem.yaml:1:20: limits.validation_passes: 1 is not a number of passes",
            ),
            ("validation_passes: -3", "-3 is not a number of passes"),
            ("validation_passes: 1001", "at least 2 and at most 1000"),
        ];
        for (limits, said) in cases {
            let message = refused(limits, None).unwrap_or_else(|| panic!("{limits}: accepted"));
            assert!(message.contains(said), "{limits}: {message}");
        }
        for timelimit in ["nan", "-1", "0", "1e300", "inf", "fast"] {
            let message = refused("", Some(&format!("\n  {timelimit}\n")))
                .unwrap_or_else(|| panic!("{timelimit}: accepted"));
            assert!(
                message.starts_with(&format!(
                    "P/.timelimit:2:3: \"{timelimit}\" is not a time limit"
                )),
                "{message}"
            );
        }
    }

    #[test]
    fn a_key_of_the_other_version_is_taken_where_the_own_is_not_given() {
        let dir = tempfile::tempdir().unwrap();
        let rule = |limits: &str, modern| {
            let raw: RawLimits = serde_saphyr::from_str(limits).unwrap();
            raw.validate(dir.path(), modern).unwrap().time_rule
        };
        let legacy = rule(
            "time_multipliers:\n  time_limit_to_tle: 4\ntime_resolution: 0.5",
            false,
        );
        assert_eq!(
            (legacy.ac_multiplier, legacy.tle_multiplier),
            (LEGACY_TIME_MULTIPLIER, 4.0)
        );
        assert_eq!(legacy.resolution, Duration::from_millis(500));
        assert!(
            legacy.origin.contains("x 4 (time_limit_to_tle)")
                && legacy
                    .origin
                    .contains("rounded up to 500ms (time_resolution)"),
            "{}",
            legacy.origin
        );
        let modern = rule("time_multiplier: 3\ntime_safety_margin: 2.5", true);
        assert_eq!((modern.ac_multiplier, modern.tle_multiplier), (3.0, 2.5));
        assert!(
            modern.origin.contains("x 3 (time_multiplier)"),
            "{}",
            modern.origin
        );
        // The package's own key wins.
        let both = rule(
            "time_multiplier: 3\ntime_multipliers:\n  ac_to_time_limit: 1.5",
            true,
        );
        assert_eq!(both.ac_multiplier, 1.5);
    }

    #[test]
    fn limits_at_the_edges_are_taken() {
        for limits in [
            "time_limit: 3600",
            "time_limit: 0.001",
            "time_multiplier: 100",
            "time_resolution: 0.001",
            "memory: 1\noutput: 1",
            "memory: 1048576\noutput: 1048576",
            "validation_passes: 2",
            "validation_passes: 1000",
        ] {
            assert_eq!(refused(limits, None), None, "{limits}");
        }
        assert_eq!(refused("", Some("2.5\n")), None);
    }
}
