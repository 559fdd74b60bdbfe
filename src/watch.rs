//! Watching the learner's files: a change under `exercises/<id>/` becomes
//! [`Change::Exercise`] with that id, once per burst of events (editors
//! often write a file in several steps). A progress file written by another
//! mcplings (the CLI, a second workbook) becomes [`Change::ProgressFile`].
//! The runtime ([`crate::tui`]) turns these into messages.

use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// A change on disk that the workbook reacts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A learner's file in `exercises/<id>` changed; this is the id.
    Exercise(String),
    /// The progress file changed (maybe written by another mcplings).
    ProgressFile,
}

/// How long a burst of file events must be quiet before a check starts.
/// Editors that save in steps (write a temporary file, rename it over the
/// old one) finish within a few milliseconds; a check started too early is
/// cancelled and started again by the next event anyway. The debouncer
/// also wakes at this rate (not its default of a quarter of it), so a
/// check starts 50 to 100 ms after the last event, and an idle workbook
/// wakes 20 times a second for it, not 80.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// A running watcher; dropping it stops watching.
pub struct Watcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
}

/// The exercise id for a changed path under `exercises_dir`: the first
/// component below it, when the file is one a learner would edit.
pub fn exercise_of(exercises_dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(exercises_dir).ok()?;
    let mut parts = rel.components();
    let Some(Component::Normal(id)) = parts.next() else {
        return None;
    };
    let file = path.file_name()?.to_string_lossy();
    let relevant = file.ends_with(".rs") || file == "Cargo.toml";
    let hidden = rel
        .components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.') || c.as_os_str() == "target");
    (relevant && !hidden).then(|| id.to_string_lossy().into_owned())
}

/// Starts watching `root/exercises` and the progress file; each change is
/// handed to `on_change` (on the watcher's thread).
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
    let handler = move |result: DebounceEventResult| {
        let Ok(events) = result else { return };
        let mut ids: Vec<String> = Vec::new();
        let mut progress_changed = false;
        for event in events {
            if matches!(event.kind, EventKind::Access(_)) {
                continue;
            }
            progress_changed |= event.paths.iter().any(|p| {
                p.file_name() == progress_name.as_deref() && p.parent().is_some_and(|d| d.ends_with(".mcplings"))
            });
            for path in &event.paths {
                let path = path.canonicalize().unwrap_or_else(|_| path.clone());
                if let Some(id) = exercise_of(&base, &path).filter(|id| !ids.contains(id)) {
                    ids.push(id);
                }
            }
        }
        for id in ids {
            on_change(Change::Exercise(id));
        }
        if progress_changed {
            on_change(Change::ProgressFile);
        }
    };
    let mut debouncer =
        new_debouncer(DEBOUNCE, Some(DEBOUNCE), handler).map_err(|e| format!("cannot start watching files: {e}"))?;
    debouncer
        .watch(&dir, RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    // Not fatal: without it, only changes made by other mcplings go unseen.
    let _ = debouncer.watch(&progress_dir, RecursiveMode::NonRecursive);
    Ok(Watcher { _debouncer: debouncer })
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
    }
}
