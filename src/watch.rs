//! Watching the learner's files: a change under `exercises/<id>/` becomes
//! [`Change::Exercise`] with that id, once per save (editors often write a
//! file in several steps). A progress file written by another mcplings (the
//! CLI, a second workbook) becomes [`Change::ProgressFile`]. The runtime
//! ([`crate::tui`]) turns these into messages.
//!
//! A save is seen as soon as it is complete: the file closed after writing,
//! or renamed into place (an editor's atomic save), is reported at once.
//! Other changes (a write still open, a file removed, a platform without
//! close events) are reported after [`DEBOUNCE`] of quiet.

use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind, RenameMode};
use notify_debouncer_full::notify::{self, Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

/// A change on disk that the workbook reacts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A learner's file in `exercises/<id>` changed; this is the id.
    Exercise(String),
    /// The progress file changed (maybe written by another mcplings).
    ProgressFile,
}

/// How long changes that do not end a save (a write to a file still open,
/// a file created or removed) must be quiet before they are reported.
/// Editors that save in steps finish within a few milliseconds; a save
/// that ends with the file closed or renamed into place is reported at
/// once, without this wait.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// A running watcher; dropping it stops watching (and its thread).
pub struct Watcher {
    _watcher: RecommendedWatcher,
}

/// How soon a file event is worth reporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Urgency {
    /// The file is complete: closed after writing, or renamed into place.
    Now,
    /// More events may follow: report after [`DEBOUNCE`] of quiet.
    Settled,
    /// Not a change of content (a read, a permission change).
    Ignored,
}

fn urgency(kind: &EventKind) -> Urgency {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => Urgency::Now,
        EventKind::Access(_) => Urgency::Ignored,
        EventKind::Modify(ModifyKind::Name(RenameMode::To | RenameMode::Both)) => Urgency::Now,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::Any | MetadataKind::WriteTime)) => Urgency::Settled,
        EventKind::Modify(ModifyKind::Metadata(_)) => Urgency::Ignored,
        _ => Urgency::Settled,
    }
}

/// The exercise id for a changed path under `exercises_dir`: the first
/// component below it, when the file is one a learner would edit.
pub fn exercise_of(exercises_dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(exercises_dir).ok()?;
    let mut parts = rel.components();
    let Some(Component::Normal(id)) = parts.next() else {
        return None;
    };
    // A file of `exercises/` itself (the crates' workspace manifest) is
    // no exercise's.
    parts.next()?;
    let file = path.file_name()?.to_string_lossy();
    let relevant = file.ends_with(".rs") || file == "Cargo.toml";
    let hidden = rel
        .components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.') || c.as_os_str() == "target");
    (relevant && !hidden).then(|| id.to_string_lossy().into_owned())
}

/// Starts watching `root/exercises` and the progress file; each change is
/// handed to `on_change` (on the watcher's own thread).
///
/// Errors: the platform's watcher could not start or watch the folder
/// (the message says why; checks then run on a key press only).
pub fn start(root: &Path, on_change: impl Fn(Change) + Send + 'static) -> Result<Watcher, String> {
    let dir: PathBuf = root.join("exercises");
    let base = dir.canonicalize().unwrap_or_else(|_| dir.clone());
    let progress_file = crate::progress::path(root);
    let progress_name = progress_file.file_name().map(|n| n.to_os_string());
    let progress_dir = progress_file.parent().map(Path::to_path_buf).unwrap_or_default();
    let _ = std::fs::create_dir_all(&progress_dir);
    let (tx, rx) = mpsc::channel::<notify::Result<Event>>();
    let mut watcher = notify::recommended_watcher(tx).map_err(|e| format!("cannot start watching files: {e}"))?;
    watcher
        .watch(&dir, RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    // Not fatal: without it, only changes made by other mcplings go unseen.
    let _ = watcher.watch(&progress_dir, RecursiveMode::NonRecursive);
    let changes = move |event: &Event| {
        let mut changes: Vec<Change> = Vec::new();
        for path in &event.paths {
            let is_progress =
                path.file_name() == progress_name.as_deref() && path.parent().is_some_and(|d| d.ends_with(".mcplings"));
            let path = path.canonicalize().unwrap_or_else(|_| path.clone());
            let change = match exercise_of(&base, &path) {
                Some(id) => Change::Exercise(id),
                None if is_progress => Change::ProgressFile,
                None => continue,
            };
            if !changes.contains(&change) {
                changes.push(change);
            }
        }
        changes
    };
    // Ends when the watcher is dropped: its sender goes with it.
    thread::spawn(move || relay(&rx, DEBOUNCE, changes, on_change));
    Ok(Watcher { _watcher: watcher })
}

/// Hands each change to `on_change`: at once when its event ends a save,
/// else once `debounce` ([`DEBOUNCE`]) has passed without another event
/// for it. A change reported at once drops what was waiting for the same
/// file set.
fn relay(
    rx: &mpsc::Receiver<notify::Result<Event>>,
    debounce: Duration,
    changes: impl Fn(&Event) -> Vec<Change>,
    on_change: impl Fn(Change),
) {
    // Changes waiting for quiet, with when they are due.
    let mut pending: Vec<(Change, Instant)> = Vec::new();
    loop {
        let due = pending.iter().map(|(_, at)| *at).min();
        let received = match due {
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Ok(event)) => {
                let urgency = urgency(&event.kind);
                for change in changes(&event) {
                    match urgency {
                        Urgency::Now => {
                            pending.retain(|(c, _)| *c != change);
                            on_change(change);
                        }
                        Urgency::Settled => {
                            pending.retain(|(c, _)| *c != change);
                            pending.push((change, Instant::now() + debounce));
                        }
                        Urgency::Ignored => {}
                    }
                }
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        let (ready, waiting): (Vec<_>, Vec<_>) = pending.into_iter().partition(|(_, at)| *at <= now);
        pending = waiting;
        ready.into_iter().for_each(|(change, _)| on_change(change));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_paths_to_exercises() {
        let base = Path::new("/c/exercises");
        assert_eq!(
            exercise_of(base, Path::new("/c/exercises/01-a/src/lib.rs")).as_deref(),
            Some("01-a")
        );
        assert_eq!(
            exercise_of(base, Path::new("/c/exercises/01-a/Cargo.toml")).as_deref(),
            Some("01-a")
        );
        assert_eq!(exercise_of(base, Path::new("/c/exercises/01-a/src/.lib.rs.swp")), None);
        assert_eq!(exercise_of(base, Path::new("/c/exercises/01-a/src/lib.rs~")), None);
        assert_eq!(exercise_of(base, Path::new("/c/lessons/x.rs")), None);
        assert_eq!(exercise_of(base, Path::new("/c/exercises/Cargo.toml")), None);
        assert_eq!(exercise_of(base, Path::new("/c/exercises/target/debug/x.rs")), None);
    }

    /// The quiet the tests wait for: longer than [`DEBOUNCE`] and stretched
    /// by the machine's load, so the test's own 20 ms pauses and a slow
    /// thread wake-up stay well inside it. (At 50 ms, a loaded machine
    /// overslept a 20 ms pause past the debounce and saw two changes.)
    fn debounce() -> Duration {
        use crate::check::session::slack;
        // Read once, so the relay and the assertions use the same value.
        static ONCE: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
        *ONCE.get_or_init(|| slack::stretch(Duration::from_millis(250), slack::scale()))
    }

    /// Events for `lib.rs` of exercise `01-a`, fed to [`relay`] as they
    /// come (a pause before each), and the changes it reported with when.
    fn relayed(events: &[(u64, EventKind)]) -> Vec<(Change, Duration)> {
        let debounce = debounce();
        let (tx, rx) = mpsc::channel();
        let started = Instant::now();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&seen);
        let relayer = thread::spawn(move || {
            let changes = |event: &Event| {
                let base = Path::new("/c/exercises");
                event
                    .paths
                    .iter()
                    .filter_map(|p| exercise_of(base, p))
                    .map(Change::Exercise)
                    .collect()
            };
            relay(&rx, debounce, changes, |change| {
                sink.lock().unwrap().push((change, started.elapsed()))
            });
        });
        for (pause, kind) in events {
            thread::sleep(Duration::from_millis(*pause));
            let _ = tx.send(Ok(
                Event::new(*kind).add_path(PathBuf::from("/c/exercises/01-a/src/lib.rs"))
            ));
        }
        thread::sleep(debounce * 3);
        drop(tx);
        relayer.join().unwrap();
        seen.lock().unwrap().clone()
    }

    #[test]
    fn a_save_is_reported_once_and_at_once() {
        let data = EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Any));
        let closed = EventKind::Access(AccessKind::Close(AccessMode::Write));
        let seen = relayed(&[(0, data), (0, data), (0, closed)]);
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].0, Change::Exercise("01-a".into()));
        assert!(seen[0].1 < debounce(), "{seen:?}");
        // An editor's atomic save: written elsewhere, renamed into place.
        let renamed = EventKind::Modify(ModifyKind::Name(RenameMode::To));
        let chmod = EventKind::Modify(ModifyKind::Metadata(MetadataKind::Permissions));
        let seen = relayed(&[(0, renamed), (0, chmod)]);
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].1 < debounce(), "{seen:?}");
    }

    #[test]
    fn other_changes_wait_for_quiet() {
        let data = EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Any));
        let removed = EventKind::Remove(notify::event::RemoveKind::File);
        let seen = relayed(&[(0, data), (20, removed)]);
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert!(seen[0].1 >= debounce() + Duration::from_millis(20), "{seen:?}");
        let read = EventKind::Access(AccessKind::Close(AccessMode::Read));
        assert_eq!(relayed(&[(0, read)]), Vec::new());
    }
}
