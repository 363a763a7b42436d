//! The numbers of the constraint protocol: integers compared exactly, decimals as `f64`, shown as written.

use std::cmp::Ordering;
use std::fmt;

/// A number a validator printed. Integers that fit 64 bits compare exactly; other numbers (decimals, or an
/// integer beyond 64 bits) compare as `f64`, which is exact for equal spellings, all a bound check needs.
#[derive(Debug, Clone)]
pub struct Number {
    exact: Exact,
    /// As the validator wrote it, so that "0.50" is shown as "0.50".
    text: String,
}

#[derive(Debug, Clone, Copy)]
enum Exact {
    Integer(i64),
    Decimal(f64),
}

impl Number {
    /// Reads `[+-]digits[.digits][(e|E)[+-]digits]`; `None` for anything else, infinities and NaN included.
    pub fn parse(text: &str) -> Option<Number> {
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            Some((mantissa, exponent)) => (mantissa, Some(exponent)),
            None => (unsigned, None),
        };
        let (whole, fraction) = match mantissa.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (mantissa, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let well_formed = digits(whole)
            && fraction.is_none_or(digits)
            && exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
        if !well_formed {
            return None;
        }
        let integer = (fraction.is_none() && exponent.is_none())
            .then(|| text.parse::<i64>().ok())
            .flatten();
        let exact = match integer {
            Some(i) => Exact::Integer(i),
            None => Exact::Decimal(text.parse::<f64>().ok().filter(|d| d.is_finite())?),
        };
        Some(Number {
            exact,
            text: text.to_owned(),
        })
    }

    fn as_f64(&self) -> f64 {
        match self.exact {
            Exact::Integer(i) => i as f64,
            Exact::Decimal(d) => d,
        }
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.exact, other.exact) {
            (Exact::Integer(a), Exact::Integer(b)) => a.cmp(&b),
            // Never NaN (parse refuses it), so every pair is ordered; -0.0 and 0.0 compare equal.
            _ => self
                .as_f64()
                .partial_cmp(&other.as_f64())
                .unwrap_or(Ordering::Equal),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.text)
    }
}

/// The allowed range `min..=max` a validator gave for a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    pub min: Number,
    pub max: Number,
}

impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("{}..{}", self.min, self.max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Number {
        Number::parse(text).unwrap_or_else(|| panic!("{text} is a number"))
    }

    #[test]
    fn numbers_parse_and_compare() {
        use Ordering::*;
        let cases = [
            ("0", "0", Equal),
            ("-5", "3", Less),
            ("49", "49.0", Equal),
            ("0.5", "0.50", Equal),
            ("1e3", "1000", Equal),
            ("-0.0", "0", Equal),
            ("+7", "7", Equal),
            ("9223372036854775807", "9223372036854775806", Greater),
            ("99999999999999999999", "9223372036854775807", Greater),
            ("0.1", "0.2", Less),
        ];
        for (a, b, want) in cases {
            assert_eq!(number(a).cmp(&number(b)), want, "{a} vs {b}");
        }
        for bad in [
            "", "-", "x", "1.", ".5", "1e", "nan", "inf", "1e999", "0x10", "1_000", "--1", "1,5",
        ] {
            assert!(Number::parse(bad).is_none(), "{bad:?} parsed");
        }
        assert_eq!(number("0.50").to_string(), "0.50");
    }
}
