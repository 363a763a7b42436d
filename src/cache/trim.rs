//! Keeping the builds within their size bound: once a new build is published and the builds take more than the
//! bound, the least recently used are removed first, never one a judge holds, never the new one.

use super::builds::{self, Entry};
use super::entry::{self, Removal};
use crate::units::Bytes;
use std::path::Path;

/// Removes builds from `builds` until they take at most `bound`, the least recently used first, sparing the entry
/// named `made` (the one just published) and every entry a judge holds; returns whether they fit now. A cache
/// whose builds are in use stays over its bound until they are not. Trimming is a courtesy to the disk: what it
/// cannot do it leaves.
pub(super) fn trim(builds: &Path, bound: Bytes, made: Option<&str>) -> bool {
    let Ok(turn) = builds::take_turn(builds) else {
        return false;
    };
    builds::sweep(builds, &turn);
    let Ok(entries) = builds::entries(builds) else {
        return false;
    };
    let mut total: u64 = entries.iter().map(|e| e.size).sum();
    for entry in oldest_first(entries, made) {
        if total <= bound.0 {
            break;
        }
        if let Ok(Removal::Removed | Removal::Gone) = entry::remove(&builds.join(&entry.name)) {
            total = total.saturating_sub(entry.size);
        }
    }
    turn.record(total > bound.0);
    total <= bound.0
}

/// The entries that may go, in the order they go: least recently used first, `made` never.
fn oldest_first(mut entries: Vec<Entry>, made: Option<&str>) -> Vec<Entry> {
    entries.retain(|e| made.is_none_or(|made| e.name != made));
    // By name among entries used at the same moment, so that the order never depends on the listing's.
    entries.sort_by(|a, b| a.used.cmp(&b.used).then_with(|| a.name.cmp(&b.name)));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::entry::{Held, STATUS_FILE, hold};
    use std::time::{Duration, SystemTime};

    /// A published entry of `size` bytes as its status records them, last used `age` ago.
    fn entry(builds: &Path, name: &str, size: u64, age: u64) {
        let entry = builds.join(name);
        std::fs::create_dir_all(entry.join("box")).unwrap();
        let status = entry.join(STATUS_FILE);
        std::fs::write(&status, format!(r#"{{"size":{size}}}"#)).unwrap();
        let used = SystemTime::now() - Duration::from_secs(age);
        std::fs::File::options()
            .write(true)
            .open(&status)
            .unwrap()
            .set_modified(used)
            .unwrap();
    }

    fn left(builds: &Path) -> Vec<String> {
        builds::names(builds)
    }

    #[test]
    fn the_least_recently_used_go_first_until_the_rest_fit() {
        let builds = tempfile::tempdir().unwrap();
        let b = builds.path();
        // Used 40, 30, 20 and 10 minutes ago, and the newest just made.
        entry(b, "d", 100, 2400);
        entry(b, "a", 100, 1800);
        entry(b, "c", 100, 1200);
        entry(b, "b", 100, 600);
        entry(b, "new", 100, 0);
        assert!(trim(b, Bytes(300), Some("new")));
        assert_eq!(left(b), ["b", "c", "new"]);
        // Within the bound already: nothing goes.
        assert!(trim(b, Bytes(300), Some("new")));
        assert_eq!(left(b), ["b", "c", "new"]);
    }

    #[test]
    fn an_entry_in_use_or_just_made_stays_whatever_its_age() {
        let builds = tempfile::tempdir().unwrap();
        let b = builds.path();
        entry(b, "made", 100, 9000);
        entry(b, "held", 100, 8000);
        entry(b, "old", 100, 7000);
        entry(b, "young", 100, 10);
        let held = hold(&b.join("held")).unwrap();
        assert!(!trim(b, Bytes(150), Some("made")));
        assert_eq!(left(b), ["held", "made"]);
        // Left over the bound: the judge that lets go last is asked to trim again (see `over_bound`).
        assert!(builds::over_bound(b));
        // Once its judge is done with it, it goes like any other.
        drop(held);
        assert!(trim(b, Bytes(150), Some("made")));
        assert_eq!(left(b), ["made"]);
        assert!(
            !builds::over_bound(b),
            "within the bound, no judge trims as it ends"
        );
        // And so does the one made, once nothing is spared.
        assert!(trim(b, Bytes(50), None));
        assert_eq!(left(b), Vec::<String>::new());
    }

    #[test]
    fn an_entry_without_a_recorded_size_is_measured() {
        let builds = tempfile::tempdir().unwrap();
        let b = builds.path();
        entry(b, "old", 1, 600);
        entry(b, "new", 1, 0);
        // An entry made before sizes were recorded, holding 64 KiB.
        let entry = b.join("old");
        std::fs::write(entry.join(STATUS_FILE), "{}").unwrap();
        std::fs::write(entry.join("box").join("main"), vec![1u8; 64 << 10]).unwrap();
        assert!(
            builds::entries(b)
                .unwrap()
                .iter()
                .any(|e| e.size >= 64 << 10)
        );
        trim(b, Bytes(32 << 10), Some("new"));
        assert_eq!(left(b), ["new"]);
    }

    #[test]
    fn a_build_under_way_is_neither_counted_nor_removed() {
        let builds = tempfile::tempdir().unwrap();
        let b = builds.path();
        let under_way = b.join(".build-x");
        std::fs::create_dir(&under_way).unwrap();
        let held = Held::create(&under_way).unwrap();
        std::fs::write(under_way.join("main"), vec![1u8; 64 << 10]).unwrap();
        entry(b, "old", 100, 600);
        entry(b, "new", 100, 0);
        assert!(trim(b, Bytes(250), Some("new")));
        assert_eq!(left(b), ["new", "old"]);
        trim(b, Bytes(1), Some("new"));
        assert!(under_way.join("main").is_file());
        drop(held);
    }

    #[test]
    fn order() {
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        let entry = |name: &str, used| Entry {
            name: name.into(),
            size: 1,
            used: at(used),
        };
        let entries = vec![
            entry("b", 5),
            entry("made", 1),
            entry("c", 9),
            entry("a", 5),
        ];
        let names: Vec<_> = oldest_first(entries, Some("made"))
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["a", "b", "c"]);
    }
}
