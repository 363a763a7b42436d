//! Paths, arguments and the environment cross the pipe as text where they are UTF-8 (as nearly all are: short,
//! and quick to read) and as their bytes otherwise: serde writes a `Path` only as text, which a path that is not
//! UTF-8 (a test or submission named in another encoding) cannot be, and an `OsString` always as a list of
//! numbers.

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

pub fn serialize<S: Serializer>(text: &std::ffi::OsStr, s: S) -> Result<S::Ok, S::Error> {
    match text.to_str() {
        Some(text) => s.serialize_str(text),
        None => s.serialize_bytes(text.as_bytes()),
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OsString, D::Error> {
    d.deserialize_any(OsVisitor)
}

struct OsVisitor;

impl<'de> Visitor<'de> for OsVisitor {
    type Value = OsString;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("text, or its bytes")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<OsString, E> {
        Ok(text.into())
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<OsString, E> {
        Ok(OsString::from_vec(bytes.to_vec()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OsString, A::Error> {
        let mut bytes = Vec::new();
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte);
        }
        Ok(OsString::from_vec(bytes))
    }
}

/// One string in this form, for the lists below.
struct Out<'a>(&'a std::ffi::OsStr);

impl Serialize for Out<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize(self.0, s)
    }
}

struct In(OsString);

impl<'de> Deserialize<'de> for In {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d).map(In)
    }
}

/// A path.
pub mod path {
    use super::*;

    pub fn serialize<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        super::serialize(path.as_os_str(), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        super::deserialize(d).map(PathBuf::from)
    }
}

/// A path that may be absent.
pub mod option {
    use super::*;

    pub fn serialize<S: Serializer>(path: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
        path.as_ref().map(|p| Out(p.as_os_str())).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PathBuf>, D::Error> {
        Option::<In>::deserialize(d).map(|text| text.map(|t| t.0.into()))
    }
}

/// A list of paths.
pub mod paths {
    use super::*;

    pub fn serialize<S: Serializer>(paths: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(paths.iter().map(|p| Out(p.as_os_str())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
        Vec::<In>::deserialize(d).map(|list| list.into_iter().map(|t| t.0.into()).collect())
    }
}

/// A command line.
pub mod args {
    use super::*;

    pub fn serialize<S: Serializer>(args: &[OsString], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(args.iter().map(|a| Out(a)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<OsString>, D::Error> {
        Vec::<In>::deserialize(d).map(|list| list.into_iter().map(|t| t.0).collect())
    }
}

/// An environment.
pub mod env {
    use super::*;

    pub fn serialize<S: Serializer>(env: &[(OsString, OsString)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(env.iter().map(|(k, v)| (Out(k), Out(v))))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(OsString, OsString)>, D::Error> {
        Vec::<(In, In)>::deserialize(d)
            .map(|list| list.into_iter().map(|(k, v)| (k.0, v.0)).collect())
    }
}
