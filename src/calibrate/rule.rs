//! The rules of a calibration, in one place so that the help, the manual and the code say the same: the limits
//! solutions run under, which runs are borderline, and the suggested limit.
//!
//! The suggestion is one limit for every language, as the judge has one. Each language the references are
//! written in gets its own suggestion from its slowest reference ([`suggest`]), and the largest of those is the
//! problem's: a limit must let pass every reference the setters accept, and the slowest language's own margin
//! (x 2 over its reference) is what keeps its solutions safe from a noisy machine. A Python reference 40 x slower
//! than the C++ one thus sets a limit 40 x what C++ alone needs: that is the price of accepting Python, and the
//! report says so ([`SPREAD_NOTE`]) so that the setters check the slow C++ solutions expected TLE still fail,
//! or decide that the Python reference is not one (expect it TLE, or drop it).

use crate::verdict::Verdict;
use std::time::Duration;

/// What a solution is timed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Expected AC: its slowest run sets the suggested limit.
    Reference,
    /// Expected TLE (and not AC): the limit should leave it far behind.
    ExpectedTle,
}

impl Role {
    /// The role of a solution expected to get `expected`, if it is timed at all (one expected WA is not).
    pub fn of(expected: &[Verdict]) -> Option<Role> {
        if expected.contains(&Verdict::Accepted) {
            Some(Role::Reference)
        } else if expected.contains(&Verdict::TimeLimit) {
            Some(Role::ExpectedTle)
        } else {
            None
        }
    }

    /// The limit solutions of this role run under, for a problem whose limit is `limit`.
    pub fn limit(self, limit: Duration) -> Duration {
        match self {
            Role::Reference => reference_limit(limit),
            Role::ExpectedTle => tle_limit(limit),
        }
    }
}

/// References run under 3 x the problem's limit, at least 2s: a slow one is timed rather than cut off.
pub fn reference_limit(limit: Duration) -> Duration {
    (limit * 3).max(Duration::from_secs(2))
}

/// The suggested limit is the slowest reference's CPU time times this (rounded up).
pub const REFERENCE_MULTIPLIER: u32 = 2;

/// Solutions expected TLE run under the problem's limit times this.
pub const TLE_MARGIN: f64 = 1.5;

/// Solutions expected TLE run under 1.5 x the problem's limit: one that finishes within it is too close.
pub fn tle_limit(limit: Duration) -> Duration {
    limit.mul_f64(TLE_MARGIN)
}

/// A run that finishes within this fraction of the limit it ran under (90% or more of it) is borderline: it is
/// run again before its time counts.
pub const BORDERLINE: f64 = 0.9;

/// Whether a run is borderline: it finished (was not killed for time) within 10% of the limit it ran under.
pub fn is_borderline(cpu: Duration, verdict: Verdict, limit: Duration) -> bool {
    verdict != Verdict::TimeLimit && cpu >= limit.mul_f64(BORDERLINE)
}

/// The least limit suggested unless problem.toml's `time_limit_floor` says otherwise, as Kattis' rule has: a
/// reference of 2 ms says little about a machine's noise, the start of a process, or a slower language, and a
/// limit of 100 ms would fail solutions for them.
pub const DEFAULT_FLOOR: Duration = Duration::from_secs(1);

/// The suggestion of one language is at least this many times that of another before the report says the
/// slowest one sets the limit far above what the others need.
pub const SPREAD_NOTE: u32 = 3;

/// The suggested limit for references whose slowest run is `slowest_reference`: its CPU time x 2, rounded up to
/// the next 100 ms (at least 100 ms), in the spirit of Kattis' time multipliers; and at least `floor`.
pub fn suggest(slowest_reference: Duration, floor: Duration) -> Duration {
    const STEP: u128 = 100;
    let doubled = (slowest_reference * REFERENCE_MULTIPLIER).as_micros();
    let step = STEP * 1000;
    let steps = doubled.div_ceil(step).max(1);
    Duration::from_millis((steps * STEP) as u64).max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn suggestions_double_and_round_up() {
        for (slowest, suggested) in [
            (ms(0), ms(100)),
            (ms(1), ms(100)),
            (ms(50), ms(100)),
            (Duration::from_micros(50_001), ms(200)),
            (ms(212), ms(500)),
            (ms(250), ms(500)),
            (ms(700), ms(1400)),
            (ms(1234), ms(2500)),
        ] {
            assert_eq!(suggest(slowest, Duration::ZERO), suggested, "{slowest:?}");
        }
    }

    #[test]
    fn suggestions_keep_to_the_floor() {
        assert_eq!(suggest(ms(2), DEFAULT_FLOOR), ms(1000));
        assert_eq!(suggest(ms(499), DEFAULT_FLOOR), ms(1000));
        assert_eq!(suggest(ms(501), DEFAULT_FLOOR), ms(1100));
        assert_eq!(suggest(ms(2), ms(250)), ms(250));
        assert_eq!(suggest(ms(2), ms(3000)), ms(3000));
    }

    #[test]
    fn raised_limits() {
        assert_eq!(reference_limit(ms(1000)), ms(3000));
        assert_eq!(reference_limit(ms(200)), ms(2000));
        assert_eq!(tle_limit(ms(1000)), ms(1500));
        assert_eq!(tle_limit(ms(300)), ms(450));
    }

    #[test]
    fn borderline_runs_finished_near_the_limit() {
        let limit = ms(1500);
        assert!(!is_borderline(ms(1349), Verdict::Accepted, limit));
        assert!(is_borderline(ms(1350), Verdict::Accepted, limit));
        assert!(is_borderline(ms(1500), Verdict::WrongAnswer, limit));
        // Killed for time: over the limit, not near it.
        assert!(!is_borderline(ms(1510), Verdict::TimeLimit, limit));
    }

    #[test]
    fn roles_from_expected_verdicts() {
        use Verdict::*;
        assert_eq!(Role::of(&[Accepted]), Some(Role::Reference));
        assert_eq!(Role::of(&[TimeLimit]), Some(Role::ExpectedTle));
        assert_eq!(
            Role::of(&[TimeLimit, RuntimeError]),
            Some(Role::ExpectedTle)
        );
        assert_eq!(Role::of(&[Accepted, TimeLimit]), Some(Role::Reference));
        assert_eq!(Role::of(&[WrongAnswer]), None);
    }
}
