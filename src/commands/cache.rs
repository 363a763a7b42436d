//! `cpjudge cache`: where the cache is and what it holds; with `--clear`, everything in it no judge is using goes.

use crate::cache::{self, Cache};
use crate::cli::CacheArgs;
use crate::error::{Error, Result};
use crate::report;

pub fn cache(cache: &Cache, args: &CacheArgs) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if !args.clear {
        let contents = cache::survey(cache)?;
        return if args.json {
            report::write_cache_json(cache, &contents, &mut out)
        } else {
            report::write_cache(cache, &contents, &mut out)
        }
        .map_err(|e| Error::io("write", "standard output", e));
    }
    let cleared = cache::clear(cache);
    if args.json {
        report::write_cleared_json(cache, &cleared, &mut out)
    } else {
        report::write_cleared(cache, &cleared, &mut out)
    }
    .map_err(|e| Error::io("write", "standard output", e))?;
    // Said after what was done, which the reader needs all the same.
    cleared.failure.map_or(Ok(()), Err)
}
