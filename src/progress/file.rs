//! The progress file on disk: `.mcplings/progress.json`.
//!
//! - Writes are atomic: a temporary file in the same folder, synced, then
//!   renamed over the old one. A process killed mid-write leaves the old
//!   file whole, so it loses at most the update it was writing.
//! - Two mcplings at once (the workbook and a `mcplings check` in another
//!   terminal, say) take an advisory lock on `.mcplings/progress.lock`
//!   around every read-modify-write, and [`save`] merges this process's
//!   changes into what is on disk instead of overwriting it.
//! - A file that cannot be read (cut off, not JSON, the wrong shape, or from
//!   a newer mcplings) is never wiped: it is renamed to a backup next to it,
//!   reported, and whatever parts of it still parse are recovered and
//!   written back.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::recovery::{Problem, parse_current, recover, repair};
use super::{PROGRESS_FORMAT_VERSION, Progress, merge};

/// Prefix and suffix of the temporary files a write goes through.
const TMP_PREFIX: &str = ".progress.";
const TMP_SUFFIX: &str = ".tmp";

/// The progress file of the checkout at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join(".mcplings").join("progress.json")
}

/// Reads `file` without side effects and without the lock (writes are
/// atomic, so a reader sees a whole file): `None` when it is missing or not
/// a valid progress file of this version (then [`load`] deals with it).
pub fn read(file: &Path) -> Option<Progress> {
    parse_current(&fs::read(file).ok()?).ok()
}

/// What loading or saving found.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The progress (fresh, read, recovered, or merged and saved).
    pub progress: Progress,
    /// Set when the file could not be read as it was: what happened and
    /// where the original was kept.
    pub warning: Option<String>,
}

/// Loads progress from `file`. A missing file is a fresh start. A file that
/// cannot be read as it is (cut off, corrupt, or from a newer mcplings) is
/// moved to a backup next to it, and what still parses is recovered and
/// written back, so the next load finds it without a warning.
pub fn load(file: &Path) -> Loaded {
    if !file.exists() {
        // A fresh start; no need to make the folder and the lock file yet.
        return Loaded {
            progress: Progress::default(),
            warning: None,
        };
    }
    let _lock = match Lock::take(file) {
        Ok(lock) => lock,
        Err(e) => {
            return Loaded {
                progress: Progress::default(),
                warning: Some(format!(
                    "cannot lock the progress file {}: {e}; starting without it (the file is untouched)",
                    file.display()
                )),
            };
        }
    };
    load_locked(file)
}

/// Saves the changes this process made, from `base` (what it last loaded
/// or saved) to `ours`, into whatever the file holds now: under the lock,
/// the file is read, [`merge`]d with them, and written atomically. Changes
/// another mcplings saved meanwhile to other entries are kept.
///
/// Returns what was written (hold it as the next `base`), with a warning if
/// the file on disk had to be backed up first.
///
/// Errors: the folder cannot be created, the lock taken, or the file
/// written or renamed.
pub fn save(file: &Path, base: &Progress, ours: &Progress) -> io::Result<Loaded> {
    let _lock = Lock::take(file)?;
    let on_disk = load_locked(file);
    let merged = merge(base, ours, &on_disk.progress);
    write(file, &merged)?;
    Ok(Loaded {
        progress: merged,
        warning: on_disk.warning,
    })
}

/// Applies `change` to the progress on disk and writes the result, all
/// under the lock, so that no other mcplings can write in between. For a
/// one-off update (a command line run); a process that holds progress for
/// long uses [`save`].
///
/// Returns what was written, with a warning if the file on disk had to be
/// backed up first.
///
/// Errors: as for [`save`].
pub fn update(file: &Path, change: impl FnOnce(&mut Progress)) -> io::Result<Loaded> {
    let _lock = Lock::take(file)?;
    let Loaded { mut progress, warning } = load_locked(file);
    change(&mut progress);
    write(file, &progress)?;
    Ok(Loaded {
        progress: read(file).unwrap_or(progress),
        warning,
    })
}

/// An exclusive advisory lock on `progress.lock` next to the file, held
/// until dropped. (Not on the file itself: each write replaces it.)
struct Lock {
    /// Held open for the lock; closing it releases the lock.
    _file: File,
}

impl Lock {
    fn take(file: &Path) -> io::Result<Lock> {
        let dir = file.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("progress.lock"))?;
        match lock.lock() {
            // A file system without locks: go on unlocked, as one mcplings
            // at a time is still safe.
            Err(e) if e.kind() == io::ErrorKind::Unsupported => {}
            result => result?,
        }
        Ok(Lock { _file: lock })
    }
}

fn load_locked(file: &Path) -> Loaded {
    let bytes = match fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Loaded {
                progress: Progress::default(),
                warning: None,
            };
        }
        Err(e) => {
            return Loaded {
                progress: Progress::default(),
                warning: Some(format!(
                    "cannot read {}: {e}; starting without it (the file is untouched)",
                    file.display()
                )),
            };
        }
    };
    let problem = match parse_current(&bytes) {
        Ok(progress) => {
            return Loaded {
                progress,
                warning: None,
            };
        }
        Err(problem) => problem,
    };
    let (value, problem) = match problem {
        Problem::NotJson(e) => match std::str::from_utf8(&bytes).ok().and_then(repair) {
            Some(value) if e.is_eof() => (Some(value), format!("is cut off ({e})")),
            Some(value) => (Some(value), format!("is damaged ({e})")),
            None => (None, format!("is not valid JSON ({e})")),
        },
        Problem::Newer(n) => (
            serde_json::from_slice(&bytes).ok(),
            format!("was written by a newer mcplings (format {n})"),
        ),
        Problem::Shape => (
            serde_json::from_slice(&bytes).ok(),
            "has an unexpected shape".to_string(),
        ),
    };
    let backup = backup_path(file);
    let (kept, moved) = match fs::rename(file, &backup) {
        Ok(()) => (format!("a copy is kept as {}", short(&backup)), true),
        Err(e) => (format!("it could not be backed up ({e}) and is left in place"), false),
    };
    let progress = recover(&value.unwrap_or(Value::Null));
    let mut warning = format!(
        "Your progress file {} {problem}: {kept}, and what could be read is recovered.",
        short(file)
    );
    if moved && let Err(e) = write(file, &progress) {
        warning.push_str(&format!(" (but cannot write it back: {e})"));
    }
    Loaded {
        progress,
        warning: Some(warning),
    }
}

/// `.mcplings/progress.json`: a path by its folder and name, short enough
/// for a one-line notice.
fn short(path: &Path) -> String {
    let mut parts: Vec<String> = path
        .iter()
        .rev()
        .take(2)
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    parts.reverse();
    parts.join("/")
}

fn backup_path(file: &Path) -> PathBuf {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "progress.json".into());
    // Seconds for people, then nanoseconds so two backups never collide.
    file.with_file_name(format!("{name}.corrupt-{}-{:09}", now.as_secs(), now.subsec_nanos()))
}

/// Writes `progress` to `file` atomically; the caller holds the lock.
fn write(file: &Path, progress: &Progress) -> io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    remove_stale_temporaries(dir);
    let mut progress = progress.clone();
    progress.format_version = PROGRESS_FORMAT_VERSION;
    let json = serde_json::to_string_pretty(&progress).map_err(io::Error::other)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .suffix(TMP_SUFFIX)
        .tempfile_in(dir)?;
    tmp.write_all(json.as_bytes())?;
    tmp.write_all(b"\n")?;
    tmp.as_file().sync_all()?;
    tmp.persist(file).map_err(|e| e.error)?;
    // The rename itself survives a crash only once the folder is synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes temporaries left by a process killed mid-write. Only called
/// under the lock, when no other write is under way.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backups(file: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = fs::read_dir(file.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("progress.json.corrupt-")
            })
            .collect();
        found.sort();
        found
    }

    fn with_file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, text).unwrap();
        (dir, file)
    }

    #[test]
    fn round_trip_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        let fresh = load(&file);
        assert_eq!(
            fresh,
            Loaded {
                progress: Progress::default(),
                warning: None
            }
        );
        let mut p = Progress::default();
        p.exercise_mut("01-encode-frames").done = true;
        p.record_pick(1, "q", 2, false);
        p.record_pick(1, "q", 1, true);
        let saved = save(&file, &fresh.progress, &p).unwrap();
        assert_eq!(saved.warning, None);
        let loaded = load(&file);
        assert_eq!(loaded.warning, None);
        assert_eq!(loaded.progress, saved.progress);
        assert!(loaded.progress.is_done("01-encode-frames"));
        assert_eq!(loaded.progress.quiz_score(1), (0, 1));
        assert_eq!(read(&file), Some(loaded.progress));
    }

    #[test]
    fn corrupt_file_is_backed_up_and_partly_recovered_and_written_back() {
        let text = r#"{"format_version":1,"exercises":{"01-a":{"done":true},"02-b":{"done":"yes"}},"lessons":7}"#;
        let (_dir, file) = with_file(text);
        let loaded = load(&file);
        assert!(
            loaded.warning.as_deref().unwrap().contains("unexpected shape"),
            "{loaded:?}"
        );
        assert!(loaded.progress.is_done("01-a"));
        assert!(!loaded.progress.exercises.contains_key("02-b"));
        let kept = backups(&file);
        assert_eq!(kept.len(), 1);
        // Named by its folder and file name, short enough for the footer.
        assert!(
            loaded.warning.as_deref().unwrap().contains(&short(&kept[0])),
            "{loaded:?}"
        );
        assert!(short(&kept[0]).ends_with(&kept[0].file_name().unwrap().to_string_lossy().to_string()));
        assert_eq!(fs::read_to_string(&kept[0]).unwrap(), text);
        // What was recovered is on disk now: the next load is quiet.
        assert_eq!(
            load(&file),
            Loaded {
                progress: loaded.progress,
                warning: None
            }
        );
    }

    #[test]
    fn a_file_broken_in_the_middle_is_called_damaged_not_cut_off() {
        let (_dir, file) =
            with_file(r#"{"format_version":1,"exercises":{"01-a":{"done":true}},"lessons":{"1":{"read":true}}, oops}"#);
        let warning = load(&file).warning.unwrap();
        assert!(
            warning.contains("is damaged (") && !warning.contains("cut off"),
            "{warning}"
        );
    }

    #[test]
    fn a_cut_off_file_keeps_every_entry_before_the_cut() {
        let whole = r#"{"format_version":1,"exercises":{"01-a":{"done":true,"hints_shown":2},"02-b":{"done":true,"hints_shown":1}},"lessons":{"1":{"read":true,"section":3}}}"#;
        let cut = &whole[..whole.find("\"hints_shown\":1").unwrap()];
        let (_dir, file) = with_file(cut);
        let loaded = load(&file);
        assert!(loaded.warning.as_deref().unwrap().contains("is cut off"), "{loaded:?}");
        assert!(loaded.progress.is_done("01-a"));
        assert_eq!(loaded.progress.hints_shown("01-a"), 2);
        // "02-b" was cut inside its entry: {"done":true} is what was written of it.
        assert!(loaded.progress.is_done("02-b"));
        assert_eq!(loaded.progress.hints_shown("02-b"), 0);
        assert!(loaded.progress.lessons.is_empty());
        assert_eq!(fs::read_to_string(&backups(&file)[0]).unwrap(), cut);
    }

    #[test]
    fn a_file_from_a_newer_mcplings_is_kept_and_what_fits_recovered() {
        let text = r#"{"format_version":9,"exercises":{"01-a":{"done":true,"stars":3}},"badges":["x"]}"#;
        let (_dir, file) = with_file(text);
        let loaded = load(&file);
        assert!(
            loaded.warning.as_deref().unwrap().contains("newer mcplings (format 9)"),
            "{loaded:?}"
        );
        assert!(loaded.progress.is_done("01-a"));
        assert_eq!(fs::read_to_string(&backups(&file)[0]).unwrap(), text);
    }

    #[test]
    fn junk_is_kept_and_the_start_is_fresh() {
        let (_dir, file) = with_file("\u{0}\u{1}garbage");
        let loaded = load(&file);
        assert!(
            loaded.warning.as_deref().unwrap().contains("is not valid JSON"),
            "{loaded:?}"
        );
        assert_eq!(
            loaded.progress,
            Progress {
                format_version: PROGRESS_FORMAT_VERSION,
                ..Progress::default()
            }
        );
        assert_eq!(backups(&file).len(), 1);
    }

    #[test]
    fn a_save_over_a_corrupt_file_backs_it_up_first() {
        let (_dir, file) = with_file("{oops");
        let mut ours = Progress::default();
        ours.exercise_mut("01-a").hints_shown = 1;
        let saved = save(&file, &Progress::default(), &ours).unwrap();
        assert!(
            saved.warning.as_deref().unwrap().contains("is not valid JSON"),
            "{saved:?}"
        );
        assert_eq!(read(&file).unwrap().hints_shown("01-a"), 1);
        assert_eq!(fs::read_to_string(&backups(&file)[0]).unwrap(), "{oops");
    }

    #[test]
    fn temporaries_left_by_a_killed_write_are_removed() {
        let (_dir, file) = with_file("{}");
        let stale = file.with_file_name(format!("{TMP_PREFIX}abc{TMP_SUFFIX}"));
        fs::write(&stale, "{\"format_version\":1,").unwrap();
        save(&file, &Progress::default(), &Progress::default()).unwrap();
        assert!(!stale.exists());
    }

    #[test]
    fn only_the_first_pick_counts_for_the_score() {
        let mut p = Progress::default();
        p.record_pick(1, "a", 0, true);
        p.record_pick(1, "a", 1, false);
        p.record_pick(1, "b", 1, false);
        assert_eq!(p.quiz_score(1), (1, 1));
    }
}
