//! A package's configuration, as one of our problems makes it: `problem.yaml`, and for 2025-09 the group file of
//! `data/` that carries the output validator's arguments (that version has no `validator_flags`).

use super::Format;
use crate::problem::{Comparison, Problem};
use crate::units::Bytes;
use sha2::{Digest, Sha256};

/// The files written: problem.yaml's text, and data/test_group.yaml's when there is one.
pub(super) struct Config {
    pub problem_yaml: String,
    pub test_group_yaml: Option<String>,
}

pub(super) fn config(problem: &Problem, format: Format) -> Config {
    let quoted = |text: &str| serde_json::to_string(text).expect("a string");
    let (custom, interactive, flags): (bool, bool, &[&str]) = match &problem.comparison {
        Comparison::Tokens => (false, false, &["case_sensitive"]),
        Comparison::Exact => (false, false, &["case_sensitive", "space_change_sensitive"]),
        Comparison::Float { .. } => (false, false, &["case_sensitive", "float_tolerance"]),
        Comparison::PackageDefault | Comparison::Shown => (false, false, &[]),
        Comparison::Checker(_) | Comparison::OutputValidator(_) => (true, false, &[]),
        Comparison::Interactive { .. } => (true, true, &[]),
    };
    let mut flags: Vec<String> = flags.iter().map(|f| (*f).to_owned()).collect();
    if let Comparison::Float { tolerance } = &problem.comparison {
        flags.push(tolerance.to_string());
    }
    let mib = |bytes: Bytes| bytes.0.div_ceil(Bytes::MIB);
    let mut yaml = String::new();
    if format == Format::V2025_09 {
        yaml.push_str("problem_format_version: 2025-09\n");
        yaml.push_str(match (interactive, problem.groups.is_some()) {
            (true, false) => "type: interactive\n",
            (true, true) => "type: [interactive, scoring]\n",
            (false, true) => "type: scoring\n",
            (false, false) => "type: pass-fail\n",
        });
    } else if problem.groups.is_some() {
        yaml.push_str("type: scoring\n");
    }
    yaml.push_str(&format!("name: {}\n", quoted(&problem.title)));
    yaml.push_str(&format!("uuid: {}\n", uuid(&problem.name)));
    if format == Format::Legacy {
        let validation = match (custom, interactive) {
            (false, _) => "default",
            (true, false) => "custom",
            (true, true) => "custom interactive",
        };
        yaml.push_str(&format!("validation: {validation}\n"));
        if !flags.is_empty() {
            yaml.push_str(&format!("validator_flags: {}\n", flags.join(" ")));
        }
    }
    // The limit was set by our rule (see `cpjudge timelimit`), which the multipliers state in the format's terms.
    yaml.push_str(&format!(
        "limits:\n  memory: {}\n  output: {}\n",
        mib(problem.limits.memory),
        mib(problem.limits.output)
    ));
    let (ac, tle) = (
        crate::calibrate::REFERENCE_MULTIPLIER,
        crate::calibrate::TLE_MARGIN,
    );
    match format {
        Format::Legacy => yaml.push_str(&format!(
            "  time_multiplier: {ac}\n  time_safety_margin: {tle}\n"
        )),
        Format::V2025_09 => {
            let seconds = problem.limits.time.as_secs_f64();
            yaml.push_str(&format!(
                "  time_limit: {seconds}\n  time_multipliers:\n    ac_to_time_limit: {ac}\n    \
                 time_limit_to_tle: {tle}\n"
            ));
            // A fixed limit must be a multiple of the resolution, 1 s unless given.
            if problem.limits.time.subsec_nanos() != 0 {
                yaml.push_str("  time_resolution: 0.001\n");
            }
        }
    }
    let test_group_yaml = (format == Format::V2025_09 && !flags.is_empty()).then(|| {
        format!(
            "output_validator_args: [{}]\n",
            flags
                .iter()
                .map(|f| quoted(f))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    Config {
        problem_yaml: yaml,
        test_group_yaml,
    }
}

/// A UUID for the problem, the same at every export, so that a system that tracks problems by it sees one problem:
/// made from the hash of its name, in the form of RFC 9562's version 8 (a UUID of one's own making).
fn uuid(name: &str) -> String {
    let hash = Sha256::digest(format!("cpjudge problem {name}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&hash[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uuid_is_one_per_name() {
        let one = uuid("knight-pawns");
        assert_eq!(one, uuid("knight-pawns"));
        assert_ne!(one, uuid("knight-tour"));
        assert_eq!(one.len(), 36);
        assert_eq!(&one[14..15], "8");
        assert!("89ab".contains(&one[19..20]), "{one}");
    }
}
