//! `--watch`: judge, then judge again on each change to what the judge depends on, until Ctrl-C.
//!
//! Each judge is made as without `--watch`, from the files as they are then: the problem is read again (a
//! problem.toml made invalid is reported, and the watch goes on), and the whole problem is judged, the build and
//! run caches sparing what did not change.

use super::session::{self, Session};
use crate::Outcome;
use crate::cache::Cache;
use crate::cli::RunArgs;
use crate::error::{Error, Result};
use crate::report::{self, ColorChoice};
use crate::sandbox::Layers;
use crate::watch::{Places, Wait, Watch};
use std::path::{Path, PathBuf};

/// Judges the session `prepare` makes, then again each time a file it depends on changes; returns once the user
/// stops it. An error before the first report ends the watch, as it ends a judge; a later one is reported, and the
/// next change is judged again.
pub(super) fn watch(
    mut prepare: impl FnMut() -> Result<Session>,
    cache: Cache,
    layers: &Layers,
    color: ColorChoice,
    args: &RunArgs,
) -> Result<Outcome> {
    // Changed files are named from here.
    let cwd = std::env::current_dir().map_err(|e| Error::io("find", "the current folder", e))?;
    // The judge's own writes are no change: its cache, and the report files it rewrites after each judge.
    let mut own = vec![cache.dir.clone()];
    own.extend(
        [&args.html, &args.junit]
            .into_iter()
            .flatten()
            .map(|path| absolute(&cwd.join(path))),
    );
    let mut watch = Watch::new(own)?;
    let first = prepare()?;
    // Watched before judging, so that a change made during the judge is judged next.
    watch.set(places(&first))?;
    if session::run(first, cache.clone(), layers, color, args)? == Outcome::Interrupted {
        return Ok(Outcome::Interrupted);
    }
    loop {
        report::write_waiting();
        let changed = match watch.next()? {
            Wait::Interrupted => return Ok(Outcome::Interrupted),
            Wait::Changed(changed) => changed,
        };
        report::write_changed(&changed, &cwd, args.json)
            .map_err(|e| Error::io("write", "standard output", e))?;
        let judged = prepare().and_then(|session| {
            watch.set(places(&session))?;
            session::run(session, cache.clone(), layers, color, args)
        });
        match judged {
            Ok(Outcome::Interrupted) => return Ok(Outcome::Interrupted),
            Ok(_) => {}
            Err(e) if e.is_broken_pipe() || matches!(e, Error::Interrupted) => return Err(e),
            Err(e) => {
                report::write_watch_error(&e);
                // Stopped while it failed: the user's request ends the watch, as it would have ended the judge.
                if crate::interrupt::requested() {
                    return Ok(Outcome::Interrupted);
                }
            }
        }
    }
}

/// What decides the outcome of `session`: the problem's folder (its configuration, solutions, checker,
/// validators and interactor; a package's tests), its tests folder, and the files judged and the programs that
/// judge them wherever they are. A contestant's file stands alone: the folder it is in is not watched, only it.
fn places(session: &Session) -> Places {
    let mut places = Places::default();
    let problem = &session.problem;
    if !session.contestant {
        places.add_folder(absolute(&problem.dir));
    }
    places.add_folder(absolute(&session.tests_dir));
    let judging = problem.comparison.program().map(|(_, source, _, _)| source);
    let files = session
        .solutions
        .iter()
        .flat_map(|s| std::iter::once(&s.path).chain(&s.others))
        .chain(&problem.validator)
        .chain(
            judging
                .iter()
                .flat_map(|s| std::iter::once(&s.main).chain(&s.others)),
        );
    for file in files {
        // A command judged as it is names no file.
        if file.is_file() {
            places.add_file(absolute(file));
        }
    }
    places
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}
