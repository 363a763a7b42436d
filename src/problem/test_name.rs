//! A test's name: held in the test itself where it is short, as most are ("07", "secret/group1/12"), else on the
//! heap. A judge keeps a test of every test, and a short name's own allocation would take more room than the rest
//! of its test.

/// A string of 24 bytes that holds up to 24 bytes of text in place.
pub type TestName = compact_str::CompactString;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_name_is_held_in_place_and_a_long_one_apart() {
        for name in [
            "",
            "07",
            "secret/group1/1234567890",
            "secret/group1/12345678901",
            "é/ü",
        ] {
            let held = TestName::from(name);
            assert_eq!(held, name);
            assert_eq!(held.to_string(), name);
            assert_eq!(format!("{held:?}"), format!("{name:?}"));
            assert_eq!(held.is_heap_allocated(), name.len() > 24, "{name}");
        }
    }
}
