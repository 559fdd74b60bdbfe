//! The disk the checks use: the `--path` target dirs are bounded (the most
//! recently used few are kept, [`claim_path_target_dir`]), and
//! [`clean`] removes the build output the course made (`mcplings clean`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How many `--path` target dirs are kept, the most recently used ones.
///
/// Each holds its crate's dependencies compiled once more (53 MB for a
/// copy of exercise 01, 65 MB for 06: docs/performance.md), and each
/// one removed costs its crate that compile again (about a minute on a
/// loaded 2-core machine) the next time it is checked. A learner checks a
/// copy or two of their own work this way; four covers switching between
/// them without that wait, and bounds the folder at about 250 MB where
/// nothing bounded it before (39 dirs, 1.8 GB, on one machine).
pub const PATH_DIRS_KEPT: usize = 4;

/// A `--path` target dir used this recently is never removed, however
/// many others there are: a check may be building in it right now (the
/// first build of a copy compiles its dependencies, a minute or more on a
/// loaded machine).
pub const PATH_DIR_IN_USE: Duration = Duration::from_secs(10 * 60);

/// The file whose modification time says when a `--path` target dir was
/// last used.
const USED_STAMP: &str = "mcplings-used";

/// Where the exercise and solution crates build, under the shared target
/// dir: a target dir of their own (`check::course_target_dir`).
pub const COURSE_BUILDS: &str = "exercises";
/// Where `verify` checks a shipped stub when the learner's copy is edited.
pub const VERIFY_BUILDS: &str = "mcplings-verify";
/// Where the `--path` target dirs live, under a target dir.
pub const PATH_BUILDS: &str = "mcplings-path";

/// Marks `dir`, a `--path` target dir (`check::path_target_dir`), as used
/// now, making it if it is new; a new one first removes the least recently
/// used of the others, so that at most [`PATH_DIRS_KEPT`] remain (fewer
/// only for dirs in use, see [`PATH_DIR_IN_USE`]). Never fails: a dir that
/// cannot be stamped or removed is left for cargo to report on, or for the
/// next check.
pub fn claim_path_target_dir(dir: &Path) {
    let new = !dir.exists();
    if new && let Some(parent) = dir.parent() {
        prune_path_dirs(parent, PATH_DIRS_KEPT - 1, SystemTime::now());
    }
    let _ = fs::create_dir_all(dir);
    let _ = fs::write(dir.join(USED_STAMP), b"");
}

/// Removes the target dirs in `parent` beyond the `keep` most recently
/// used ones, except those used within [`PATH_DIR_IN_USE`] of `now`;
/// returns the dirs removed. A dir without a stamp (made before stamps
/// existed) counts as last used when it was last modified.
pub fn prune_path_dirs(parent: &Path, keep: usize, now: SystemTime) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut dirs: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| {
            let path = e.path();
            let used = fs::metadata(path.join(USED_STAMP))
                .or_else(|_| e.metadata())
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            (used, path)
        })
        .collect();
    // Most recently used first.
    dirs.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    dirs.into_iter()
        .skip(keep)
        .filter(|(used, _)| now.duration_since(*used).is_ok_and(|age| age >= PATH_DIR_IN_USE))
        .filter_map(|(_, path)| fs::remove_dir_all(&path).is_ok().then_some(path))
        .collect()
}

/// What [`clean`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Cleaned {
    /// The folders removed, and the bytes each held.
    pub removed: Vec<(PathBuf, u64)>,
    /// Folders left in place, each with the reason.
    pub kept: Vec<(PathBuf, String)>,
}

impl Cleaned {
    /// The bytes freed, all folders together.
    pub fn bytes(&self) -> u64 {
        self.removed.iter().map(|(_, b)| b).sum()
    }
}

/// Removes the build output checks made under `target_dir` (the shared
/// target dir, `check::target_dir`): the builds of the exercise and
/// solution crates and their dependencies (`exercises/`), the
/// `--path` target dirs (`mcplings-path/`) and `verify`'s scratch stubs
/// (`mcplings-verify/`). Keeps everything else: the release build of the
/// app, rust-analyzer's folder, your files and progress. A folder that
/// holds `running` (the mcplings binary itself, as with `cargo run`
/// without `--release`) is kept, with the reason. The next check builds
/// again what it needs (the workbook does so in the background when it
/// opens).
pub fn clean(target_dir: &Path, running: Option<&Path>) -> Cleaned {
    let mut cleaned = Cleaned::default();
    let running = running.and_then(|r| r.canonicalize().ok());
    for name in [COURSE_BUILDS, PATH_BUILDS, VERIFY_BUILDS] {
        let dir = target_dir.join(name);
        if !dir.is_dir() {
            continue;
        }
        if let (Some(running), Ok(canonical)) = (&running, dir.canonicalize())
            && running.starts_with(&canonical)
        {
            cleaned.kept.push((
                dir,
                "mcplings itself runs from it: remove it with `cargo clean` once it has quit".to_string(),
            ));
            continue;
        }
        let bytes = size(&dir);
        match fs::remove_dir_all(&dir) {
            Ok(()) => cleaned.removed.push((dir, bytes)),
            Err(e) => cleaned.kept.push((dir, format!("cannot remove it: {e}"))),
        }
    }
    cleaned
}

/// The bytes the files under `path` hold (symbolic links not followed).
pub fn size(path: &Path) -> u64 {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| size(&e.path()))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamped(parent: &Path, name: &str, used: SystemTime) -> PathBuf {
        let dir = parent.join(name);
        fs::create_dir_all(dir.join("debug")).unwrap();
        fs::write(dir.join(USED_STAMP), b"").unwrap();
        fs::File::options()
            .write(true)
            .open(dir.join(USED_STAMP))
            .unwrap()
            .set_modified(used)
            .unwrap();
        dir
    }

    #[test]
    fn keeps_the_most_recently_used_and_those_in_use() {
        let scratch = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let hours = |h: u64| now - Duration::from_secs(h * 3600);
        for (name, age) in [("a", 5), ("b", 1), ("c", 9), ("d", 3), ("e", 2), ("f", 7)] {
            stamped(scratch.path(), name, hours(age));
        }
        // In use a minute ago: kept, though it is not among the newest.
        stamped(scratch.path(), "g", now - Duration::from_secs(60));
        let mut removed = prune_path_dirs(scratch.path(), 4, now);
        removed.sort();
        let names: Vec<_> = removed
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        // Newest first: g, b, e, d are kept; a, f, c go.
        assert_eq!(names, ["a", "c", "f"]);
        let mut left: Vec<_> = fs::read_dir(scratch.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["b", "d", "e", "g"]);
        // Dirs in use stay, even past the number kept.
        let recent = tempfile::tempdir().unwrap();
        for name in ["x", "y"] {
            stamped(recent.path(), name, now - Duration::from_secs(30));
        }
        assert!(prune_path_dirs(recent.path(), 0, now).is_empty());
    }

    #[test]
    fn a_new_path_dir_makes_room_and_a_used_one_is_stamped() {
        let scratch = tempfile::tempdir().unwrap();
        let old = SystemTime::now() - Duration::from_secs(3600);
        for name in ["a", "b", "c", "d"] {
            stamped(scratch.path(), name, old);
        }
        // Used again: stamped now, nothing removed.
        claim_path_target_dir(&scratch.path().join("a"));
        assert_eq!(fs::read_dir(scratch.path()).unwrap().count(), 4);
        // A new one: the least recently used of the others goes.
        claim_path_target_dir(&scratch.path().join("new"));
        let mut left: Vec<_> = fs::read_dir(scratch.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left.len(), PATH_DIRS_KEPT);
        assert!(
            left.contains(&"a".to_string()) && left.contains(&"new".to_string()),
            "{left:?}"
        );
        assert!(scratch.path().join("new").join(USED_STAMP).is_file());
    }

    #[test]
    fn clean_removes_check_builds_and_keeps_the_rest() {
        let scratch = tempfile::tempdir().unwrap();
        let target = scratch.path();
        for file in [
            "exercises/debug/deps/libserde_json.rlib",
            "mcplings-path/copy-1234/debug/copy",
            "mcplings-verify/debug/stub",
            "debug/mcplings",
            "release/mcplings",
            "rust-analyzer/debug/x",
        ] {
            fs::create_dir_all(target.join(file).parent().unwrap()).unwrap();
            fs::write(target.join(file), b"12345").unwrap();
        }
        let cleaned = clean(target, Some(&target.join("release/mcplings")));
        assert_eq!(cleaned.bytes(), 15);
        assert_eq!(cleaned.removed.len(), 3);
        assert!(cleaned.kept.is_empty());
        for gone in ["exercises", "mcplings-path", "mcplings-verify"] {
            assert!(!target.join(gone).exists(), "{gone}");
        }
        // The app's own builds (dev and release) and rust-analyzer's stay.
        for kept in ["debug/mcplings", "release/mcplings", "rust-analyzer/debug/x"] {
            assert!(target.join(kept).is_file(), "{kept}");
        }

        // mcplings running from a folder clean would remove: that one is kept.
        fs::create_dir_all(target.join("mcplings-verify")).unwrap();
        fs::write(target.join("mcplings-verify/mcplings"), b"12345").unwrap();
        let cleaned = clean(target, Some(&target.join("mcplings-verify/mcplings")));
        assert!(cleaned.removed.is_empty());
        assert_eq!(cleaned.kept.len(), 1);
        assert!(cleaned.kept[0].1.contains("mcplings itself runs from it"));
        assert!(target.join("mcplings-verify/mcplings").is_file());
    }
}
