//! Calibrating a problem's time limit: the references and the solutions expected TLE, run several times under
//! raised limits; their timings, the warnings they call for, and a suggested limit. It never prints: it reports
//! progress as events and returns the whole outcome as data.

mod calibrator;
pub mod kept;
mod rule;
mod timing;

pub use calibrator::{
    Calibration, CalibrationEvent, Calibrator, LanguageSuggestion, Skipped, Suggestion, margin,
};
pub use rule::{
    BORDERLINE, DEFAULT_FLOOR, REFERENCE_MULTIPLIER, Role, SPREAD_NOTE, TLE_MARGIN,
    reference_limit, suggest, tle_limit,
};
pub use timing::{Run, SolutionTiming, Spread, Warning};
