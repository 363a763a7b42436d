//! Runs kept from one judge to the next: each (solution, test) outcome is stored under a key of everything that
//! decides it, and a judge that finds its key again takes the outcome instead of running the program.
//!
//! The key ([`RunKey`]) is a digest of: this cpjudge's build, the machine's fingerprint, the isolation layers in
//! force, the problem's folder (a copy of a problem elsewhere keeps runs of its own), the program's build key and a digest of its executable (the build key covers its sources, its language,
//! the compile command and the compiler's version), the checker's or interactor's build and how it is run, the
//! limits but time, the TLE margin, and the test's input, answer and flags. The time limit is not in the key: an
//! outcome is reused only while it is still decided under the limit of now ([`decided`]), as rbx reclassifies runs
//! against a changed limit.
//!
//! The records of a build live in its cache entry (`runs.json` beside `box/`): they share the build cache's size
//! bound and its clean-up, and go when the build goes. A judge reads them when it starts judging the build, and
//! writes what it adds when it is done with it, merged with what another judge added meanwhile, in one atomic
//! rename; two judges at once may each run a test the other ran, never read half a record. Records are read through
//! [`crate::untrusted::read_regular`]: a run judged without isolation layers may write where the user can.
//!
//! Programs run as they are (`--command`) have no build entry, and static validation test cases run no program:
//! neither is kept.

use super::outcome::TestResult;
use crate::compile::CacheKey;
use crate::fingerprint::Fingerprint;
use crate::problem::Test;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Of the time limit: an outcome whose CPU time came within this share of the limit is run again, since another
/// run may land on the other side of it.
pub const MARGIN_PERCENT: u32 = 10;

/// The file of a build's records, in its cache entry.
pub(crate) const RUNS_FILE: &str = "runs.json";

/// The digest of a build's files, kept in its cache entry under their identities.
const EXECUTABLE_FILE: &str = "executable.json";

/// The most a build's records may take: far more than the records of thousands of tests.
const RECORDS_LIMIT: u64 = 256 << 20;

/// The digests of the files a judge's runs read, kept in `digests/` of the cache by the file's identity (see
/// [`crate::memo::identity`]): a test unchanged since the last judge is not read again to be hashed.
#[derive(Debug, Default)]
pub(crate) struct Digests {
    /// Where they are kept; none: not kept.
    file: Option<PathBuf>,
    known: Mutex<Known>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Known {
    /// By path: the file's identity when it was hashed, and its digest.
    files: HashMap<PathBuf, (String, String)>,
    #[serde(skip)]
    changed: bool,
}

impl Digests {
    /// The digests kept in `folder` for the files of `problem_dir`'s problem.
    pub fn kept_in(folder: &Path, problem_dir: &Path) -> Digests {
        let name = crate::compile::cache_key(&[problem_dir.as_os_str().as_encoded_bytes()]);
        let file = folder.join(format!("{name}.json"));
        let known = crate::untrusted::read_regular(&file, RECORDS_LIMIT)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Digests {
            file: Some(file),
            known: Mutex::new(known),
        }
    }

    /// The digest of the file at `path`, hashed now unless it is known under its identity of now.
    pub fn of(&self, path: &Path) -> std::io::Result<String> {
        // Taken before the file is read: a file changed meanwhile has another identity by then.
        let identity = crate::memo::identity(path);
        if let Some((known, digest)) = self.lock().files.get(path)
            && *known == identity
        {
            return Ok(digest.clone());
        }
        let mut key = CacheKey::default();
        key.part_file(path)?;
        let digest = key.finish();
        let mut known = self.lock();
        known
            .files
            .insert(path.to_owned(), (identity, digest.clone()));
        known.changed = true;
        Ok(digest)
    }

    /// Writes the digests learnt, if any.
    pub fn save(&self) {
        let known = self.lock();
        let Some(file) = self.file.as_ref().filter(|_| known.changed) else {
            return;
        };
        if let (Some(folder), Ok(bytes)) = (file.parent(), serde_json::to_vec(&*known))
            && std::fs::create_dir_all(folder).is_ok()
        {
            let _ = crate::atomic::write(file, &bytes);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a judge's runs share whatever the program and test: the parts of every key that do not change within it.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// This cpjudge's version and build (see [`crate::fingerprint::this_build`]).
    pub build: String,
    pub fingerprint: Fingerprint,
    /// The isolation layers in force.
    pub layers: String,
    /// Whether kept outcomes are ignored (`--fresh`): every run is made, and kept for the next judge.
    pub fresh: bool,
}

/// The key of a program's runs on one problem, before the test is added: see the module's documentation. A digest,
/// so that each run's key hashes only it and the test's own parts.
#[derive(Debug, Clone)]
pub(crate) struct RunKey(String);

impl RunKey {
    /// The key of runs of the build `build` (its key and its executable's digest) judged as `judging` says (the
    /// checker, the limits but time, the margin).
    pub fn new(provenance: &Provenance, build: &[&str], judging: &str) -> RunKey {
        let mut key = CacheKey::default();
        for part in [
            "run record 1",
            &provenance.build,
            &provenance.fingerprint.to_string(),
            &provenance.layers,
            judging,
        ]
        .into_iter()
        .chain(build.iter().copied())
        {
            key.part(part.as_bytes());
        }
        RunKey(key.finish())
    }

    /// The key of the run on `test`, whose input and answer have the digests given.
    pub fn of(&self, test: &Test, input: &str, answer: &str) -> String {
        let mut key = CacheKey::default();
        key.part(self.0.as_bytes());
        key.part(input.as_bytes());
        key.part(answer.as_bytes());
        key.part(format!("{:?}", test.flags()).as_bytes());
        key.finish()
    }
}

/// One kept outcome: the result, and the time limit it was judged under.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    limit: Duration,
    result: TestResult,
}

/// The records of one build, as a judge reads them and adds to them.
#[derive(Debug)]
pub(crate) struct RunBook {
    file: PathBuf,
    kept: HashMap<String, Record>,
    added: Mutex<HashMap<String, Record>>,
}

impl RunBook {
    /// The records of the build whose folder is `build_dir` (its `box`).
    pub fn of_build(build_dir: &Path) -> Option<RunBook> {
        let file = build_dir.parent()?.join(RUNS_FILE);
        Some(RunBook {
            kept: read(&file),
            file,
            added: Mutex::default(),
        })
    }

    /// The outcome kept under `key`, if it is still decided under the time limit `limit`.
    pub fn find(&self, key: &str, limit: Duration) -> Option<TestResult> {
        let record = self.kept.get(key)?;
        decided(&record.result, record.limit, limit).then(|| record.result.clone())
    }

    /// Keeps `result`, judged under the time limit `limit`, under `key`.
    pub fn keep(&self, key: String, limit: Duration, result: &TestResult) {
        let mut result = result.clone();
        result.trace = None;
        self.added
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Record { limit, result });
    }

    /// Writes the records added, with those kept now (another judge's may have come meanwhile).
    pub fn save(self) {
        let added = self.added.into_inner().unwrap_or_else(|e| e.into_inner());
        if added.is_empty() {
            return;
        }
        let mut kept = read(&self.file);
        kept.extend(added);
        if let Ok(bytes) = serde_json::to_vec(&kept) {
            let _ = crate::atomic::write(&self.file, &bytes);
        }
    }
}

/// A digest of the files a build made in `dir` (its `box`), by name, never following a link. It is kept beside the
/// build under the files' identities (see [`crate::memo::identity`]): a build unchanged since is not read again.
pub(crate) fn executable_digest(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    let mut identity = String::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry?;
        identity.push_str(&crate::memo::identity(entry.path()));
        identity.push('\n');
        files.push(entry);
    }
    let kept = dir.parent().map(|entry| entry.join(EXECUTABLE_FILE));
    if let Some(kept) = &kept
        && let Ok(bytes) = crate::untrusted::read_regular(kept, 1 << 20)
        && let Ok((known, digest)) = serde_json::from_slice::<(String, String)>(&bytes)
        && known == identity
    {
        return Ok(digest);
    }
    let mut key = CacheKey::default();
    for entry in files {
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        key.part(relative.as_os_str().as_encoded_bytes());
        if entry.file_type().is_file() {
            key.part_file(entry.path())?;
        } else if entry.file_type().is_symlink() {
            key.part(
                std::fs::read_link(entry.path())?
                    .as_os_str()
                    .as_encoded_bytes(),
            );
        }
    }
    let digest = key.finish();
    if let (Some(kept), Ok(bytes)) = (kept, serde_json::to_vec(&(identity, &digest))) {
        let _ = crate::atomic::write(&kept, &bytes);
    }
    Ok(digest)
}

fn read(file: &Path) -> HashMap<String, Record> {
    crate::untrusted::read_regular(file, RECORDS_LIMIT)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Whether `result`, judged under the time limit `then`, would be judged the same under `now`. A run stopped at its
/// limit (TLE) needed more than it: it is TLE under any limit up to that one. A run that ended by itself is judged
/// the same under any limit its CPU time is clearly below: not within [`MARGIN_PERCENT`] of it.
pub(crate) fn decided(result: &TestResult, then: Duration, now: Duration) -> bool {
    match result.verdict {
        crate::verdict::Verdict::TimeLimit => now <= then,
        _ => result.cpu * 100 < now * (100 - MARGIN_PERCENT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    fn test() -> Test {
        Test {
            name: "1".into(),
            files: crate::problem::Files::at(
                std::path::Path::new("1.in"),
                std::path::PathBuf::from("1.ans"),
            ),
            judging: crate::problem::Judging::new(Default::default(), Default::default()),
        }
    }

    fn result(verdict: Verdict, cpu_ms: u64) -> TestResult {
        let mut result = TestResult::without_run(&test());
        result.verdict = verdict;
        result.cpu = Duration::from_millis(cpu_ms);
        result
    }

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn a_run_clearly_under_the_limit_is_decided() {
        let ac = result(Verdict::Accepted, 500);
        assert!(decided(&ac, S, S));
        assert!(decided(&ac, S, S * 2));
        // Within 10 % of a lowered limit, or over it: run again.
        assert!(!decided(&ac, S, Duration::from_millis(540)));
        assert!(!decided(&ac, S, Duration::from_millis(400)));
        assert!(decided(&result(Verdict::WrongAnswer, 80), S, S / 2));
    }

    #[test]
    fn a_run_stopped_at_its_limit_is_decided_up_to_that_limit() {
        let tle = result(Verdict::TimeLimit, 1010);
        assert!(decided(&tle, S, S));
        assert!(decided(&tle, S, S / 2));
        assert!(!decided(&tle, S, S * 2));
    }

    #[test]
    fn the_key_changes_with_each_part() {
        let provenance = Provenance {
            build: "0.1.0 (abc)".into(),
            fingerprint: Fingerprint::default(),
            layers: "all".into(),
            fresh: false,
        };
        let test = test();
        let base = RunKey::new(&provenance, &["build", "exe"], "tokens").of(&test, "i", "a");
        let mut keys = vec![base.clone()];
        let other = |p: Provenance| RunKey::new(&p, &["build", "exe"], "tokens");
        keys.push(
            other(Provenance {
                build: "0.1.1 (abc)".into(),
                ..provenance.clone()
            })
            .of(&test, "i", "a"),
        );
        keys.push(
            other(Provenance {
                fingerprint: Fingerprint {
                    kernel: "6.1".into(),
                    ..Default::default()
                },
                ..provenance.clone()
            })
            .of(&test, "i", "a"),
        );
        keys.push(
            other(Provenance {
                layers: "none".into(),
                ..provenance.clone()
            })
            .of(&test, "i", "a"),
        );
        keys.push(RunKey::new(&provenance, &["build2", "exe"], "tokens").of(&test, "i", "a"));
        keys.push(RunKey::new(&provenance, &["build", "exe2"], "tokens").of(&test, "i", "a"));
        keys.push(RunKey::new(&provenance, &["build", "exe"], "exact").of(&test, "i", "a"));
        let same = RunKey::new(&provenance, &["build", "exe"], "tokens");
        keys.push(same.of(&test, "i2", "a"));
        keys.push(same.of(&test, "i", "a2"));
        let mut flagged = test.clone();
        flagged.set_flags(crate::problem::TestFlags::new(
            Vec::new(),
            vec!["case_sensitive".into()],
        ));
        keys.push(same.of(&flagged, "i", "a"));
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "{keys:?}");
        assert_eq!(
            same.of(&test, "i", "a"),
            base,
            "the same parts, the same key"
        );
    }

    #[test]
    fn records_added_by_two_judges_are_both_kept() {
        let entry = tempfile::tempdir().unwrap();
        let build = entry.path().join("box");
        let first = RunBook::of_build(&build).unwrap();
        let second = RunBook::of_build(&build).unwrap();
        first.keep("a".into(), S, &result(Verdict::Accepted, 1));
        second.keep("b".into(), S, &result(Verdict::WrongAnswer, 1));
        first.save();
        second.save();
        let book = RunBook::of_build(&build).unwrap();
        assert_eq!(book.find("a", S).unwrap().verdict, Verdict::Accepted);
        assert_eq!(book.find("b", S).unwrap().verdict, Verdict::WrongAnswer);
        assert!(book.find("c", S).is_none());
    }

    #[test]
    fn an_executable_digest_is_kept_while_its_files_are_the_same() {
        let entry = tempfile::tempdir().unwrap();
        let build = entry.path().join("box");
        std::fs::create_dir(&build).unwrap();
        std::fs::write(build.join("main"), "one").unwrap();
        let first = executable_digest(&build).unwrap();
        assert!(entry.path().join(EXECUTABLE_FILE).is_file());
        assert_eq!(executable_digest(&build).unwrap(), first);
        // Rewritten, the file has another identity: read again.
        std::fs::write(build.join("main"), "two").unwrap();
        let second = executable_digest(&build).unwrap();
        assert_ne!(second, first);
        // A file added beside it counts too.
        std::fs::write(build.join("data"), "").unwrap();
        assert_ne!(executable_digest(&build).unwrap(), second);
    }

    #[test]
    fn digests_follow_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("1.in");
        std::fs::write(&input, "1 2\n").unwrap();
        let digests = Digests::kept_in(&dir.path().join("digests"), dir.path());
        let first = digests.of(&input).unwrap();
        assert_eq!(digests.of(&input).unwrap(), first);
        std::fs::write(&input, "1 3\n").unwrap();
        assert_ne!(digests.of(&input).unwrap(), first);
        digests.save();
        let again = Digests::kept_in(&dir.path().join("digests"), dir.path());
        assert_eq!(again.of(&input).unwrap(), digests.of(&input).unwrap());
    }
}
