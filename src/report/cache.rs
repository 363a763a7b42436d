//! What `cache` shows: where the cache is and what it holds, or what clearing it removed and kept.

use crate::cache::{Cache, Cleared, Tally};
use crate::units::{Bytes, plural};
use serde::Serialize;
use std::io::{self, Write};

pub fn write_cache(cache: &Cache, contents: &Tally, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "cache: {}", cache.dir.display())?;
    writeln!(
        out,
        "  {}, {} of at most {}",
        plural(contents.builds, "build"),
        Bytes(contents.build_bytes).measured(),
        cache.size_bound
    )?;
    writeln!(
        out,
        "  {}",
        plural(contents.validation_memos, "validation memo")
    )?;
    writeln!(
        out,
        "  {}",
        plural(contents.time_limit_suggestions, "time-limit suggestion")
    )?;
    writeln!(
        out,
        "  {} of test files (runs are kept with their builds)",
        plural(contents.digest_lists, "digest list")
    )?;
    writeln!(
        out,
        "  {} (the bounds tests reach, for `list`)",
        plural(contents.constraint_findings, "constraint finding")
    )
}

pub fn write_cache_json(cache: &Cache, contents: &Tally, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Json<'a> {
        cache: &'a std::path::Path,
        size_bound_bytes: u64,
        #[serde(flatten)]
        contents: &'a Tally,
    }
    let json = Json {
        cache: &cache.dir,
        size_bound_bytes: cache.size_bound.0,
        contents,
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

pub fn write_cleared(cache: &Cache, cleared: &Cleared, out: &mut dyn Write) -> io::Result<()> {
    let removed = &cleared.removed;
    writeln!(
        out,
        "cleared {}: removed {} ({}), {}, {}, {}, {}",
        cache.dir.display(),
        plural(removed.builds, "build"),
        Bytes(removed.build_bytes).measured(),
        plural(removed.validation_memos, "validation memo"),
        plural(removed.time_limit_suggestions, "time-limit suggestion"),
        plural(removed.digest_lists, "digest list"),
        plural(removed.constraint_findings, "constraint finding")
    )?;
    let kept = &cleared.kept;
    if kept.builds > 0 {
        writeln!(
            out,
            "kept {} ({}) in use by another judge",
            plural(kept.builds, "build"),
            Bytes(kept.build_bytes).measured()
        )?;
    }
    Ok(())
}

pub fn write_cleared_json(cache: &Cache, cleared: &Cleared, out: &mut dyn Write) -> io::Result<()> {
    #[derive(Serialize)]
    struct Json<'a> {
        cache: &'a std::path::Path,
        removed: &'a Tally,
        /// In use by another judge.
        kept: &'a Tally,
    }
    let json = Json {
        cache: &cache.dir,
        removed: &cleared.removed,
        kept: &cleared.kept,
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> Cache {
        Cache::new("/home/u/contest/target/cpjudge".into())
    }

    fn text(write: impl Fn(&mut Vec<u8>) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_the_cache_holds() {
        let contents = Tally {
            builds: 12,
            build_bytes: 37 * Bytes::MIB + Bytes::MIB / 2,
            validation_memos: 1,
            time_limit_suggestions: 0,
            digest_lists: 2,
            constraint_findings: 3,
        };
        insta::assert_snapshot!(text(|out| write_cache(&cache(), &contents, out)));
        insta::assert_snapshot!(text(|out| write_cache_json(&cache(), &contents, out)));
    }

    #[test]
    fn what_clearing_did() {
        let cleared = Cleared {
            removed: Tally {
                builds: 11,
                build_bytes: 30 * Bytes::MIB,
                validation_memos: 40,
                time_limit_suggestions: 1,
                digest_lists: 1,
                constraint_findings: 2,
            },
            kept: Tally {
                builds: 1,
                build_bytes: 7 * Bytes::MIB + Bytes::MIB / 2,
                ..Tally::default()
            },
            failure: None,
        };
        insta::assert_snapshot!(text(|out| write_cleared(&cache(), &cleared, out)));
        insta::assert_snapshot!(text(|out| write_cleared_json(&cache(), &cleared, out)));
        // Nothing kept, nothing said of it.
        let all = Cleared {
            kept: Tally::default(),
            ..cleared
        };
        assert!(!text(|out| write_cleared(&cache(), &all, out)).contains("kept"));
    }
}
