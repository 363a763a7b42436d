//! A test's name, held in the test itself where it is short, as most are ("07", "secret/group1/12"), else in a
//! string of its own: a judge keeps a test of every test, and a short name's own allocation would take more room
//! than the rest of its test.

use std::fmt;

/// The longest name held in the test itself: with its length, as large as a string's own fields.
const INLINE: usize = 22;

#[derive(Clone, PartialEq, Eq)]
pub struct TestName(Held);

#[derive(Clone, PartialEq, Eq)]
enum Held {
    Inline { len: u8, bytes: [u8; INLINE] },
    Apart(Box<str>),
}

impl TestName {
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Held::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).expect("made of a whole str")
            }
            Held::Apart(name) => name,
        }
    }
}

impl From<&str> for TestName {
    fn from(name: &str) -> TestName {
        if name.len() > INLINE {
            return TestName(Held::Apart(name.into()));
        }
        let mut bytes = [0; INLINE];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        TestName(Held::Inline {
            len: name.len() as u8,
            bytes,
        })
    }
}

impl From<String> for TestName {
    fn from(name: String) -> TestName {
        TestName::from(name.as_str())
    }
}

impl Default for TestName {
    fn default() -> TestName {
        TestName::from("")
    }
}

impl std::ops::Deref for TestName {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for TestName {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<std::path::Path> for TestName {
    fn as_ref(&self) -> &std::path::Path {
        self.as_str().as_ref()
    }
}

impl PartialEq<&str> for TestName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for TestName {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<TestName> for String {
    fn eq(&self, other: &TestName) -> bool {
        self == other.as_str()
    }
}

impl fmt::Debug for TestName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TestName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl From<TestName> for String {
    fn from(name: TestName) -> String {
        name.as_str().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_name_is_held_in_place_and_a_long_one_apart() {
        for name in [
            "",
            "07",
            "secret/group1/1234567",
            "secret/group1/12345678",
            "é/ü",
        ] {
            let held = TestName::from(name);
            assert_eq!(held, name);
            assert_eq!(held.to_string(), name);
            assert_eq!(format!("{held:?}"), format!("{name:?}"));
            let inline = matches!(held.0, Held::Inline { .. });
            assert_eq!(inline, name.len() <= INLINE, "{name}");
        }
    }
}
