//! The learner's progress for one checkout, in `.mcplings/progress.json`
//! (gitignored): exercises done, hints revealed, quiz answers, lessons read
//! and where the learner was.
//!
//! Writes are atomic (a temporary file, flushed, then renamed over the old
//! one), so a killed process loses at most the update it was writing. A file
//! that cannot be read is never wiped: it is kept as a backup next to it,
//! reported, and whatever parts of it still parse are recovered.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the progress file's shape.
pub const PROGRESS_FORMAT_VERSION: u32 = 1;

/// Everything remembered about the learner.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Progress {
    /// Always [`PROGRESS_FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// Per exercise id.
    #[serde(default)]
    pub exercises: BTreeMap<String, ExerciseProgress>,
    /// Per part number (as a string key).
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
    /// Per part number (as a string key).
    #[serde(default)]
    pub quizzes: BTreeMap<String, QuizProgress>,
    /// Where the learner was when they left.
    #[serde(default)]
    pub position: Position,
}

/// One exercise.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct ExerciseProgress {
    /// Every case passed at least once.
    #[serde(default)]
    pub done: bool,
    /// Hints revealed so far.
    #[serde(default)]
    pub hints_shown: usize,
    /// Cases passed at the last check, and how many there were.
    #[serde(default)]
    pub last_check: Option<(usize, usize)>,
}

/// One lesson.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct LessonProgress {
    /// The learner reached the last section.
    #[serde(default)]
    pub read: bool,
    /// The section last shown.
    #[serde(default)]
    pub section: usize,
}

/// One quiz.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct QuizProgress {
    /// Per question id.
    #[serde(default)]
    pub answers: BTreeMap<String, Answer>,
}

/// The learner's record on one question.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Answer {
    /// Options picked, in order (0 = a).
    #[serde(default)]
    pub picks: Vec<usize>,
    /// The right option was picked at some point.
    #[serde(default)]
    pub solved: bool,
    /// The first pick was right.
    #[serde(default)]
    pub first_try: bool,
}

/// Where the learner was.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Position {
    /// The part last opened.
    #[serde(default)]
    pub part: Option<u8>,
    /// The exercise last opened.
    #[serde(default)]
    pub exercise: Option<String>,
}

impl Progress {
    /// Whether exercise `id` is done.
    pub fn is_done(&self, id: &str) -> bool {
        self.exercises.get(id).is_some_and(|e| e.done)
    }

    /// The entry for exercise `id`, created if missing.
    pub fn exercise_mut(&mut self, id: &str) -> &mut ExerciseProgress {
        self.exercises.entry(id.to_string()).or_default()
    }

    /// Hints revealed for exercise `id`.
    pub fn hints_shown(&self, id: &str) -> usize {
        self.exercises.get(id).map_or(0, |e| e.hints_shown)
    }

    /// The quiz record of part `part`.
    pub fn quiz(&self, part: u8) -> Option<&QuizProgress> {
        self.quizzes.get(&part.to_string())
    }

    /// Records a pick on question `question` of part `part`'s quiz.
    pub fn record_pick(&mut self, part: u8, question: &str, pick: usize, correct: bool) {
        let answer = self.quizzes.entry(part.to_string()).or_default().answers.entry(question.to_string()).or_default();
        if answer.solved {
            return;
        }
        if answer.picks.is_empty() {
            answer.first_try = correct;
        }
        answer.picks.push(pick);
        answer.solved = correct;
    }

    /// (right at the first try, answered) for part `part`'s quiz.
    pub fn quiz_score(&self, part: u8) -> (usize, usize) {
        self.quiz(part).map_or((0, 0), |q| {
            let solved = q.answers.values().filter(|a| a.solved).count();
            let first = q.answers.values().filter(|a| a.first_try).count();
            (first, solved)
        })
    }

    /// The lesson record of part `part`.
    pub fn lesson(&self, part: u8) -> LessonProgress {
        self.lessons.get(&part.to_string()).cloned().unwrap_or_default()
    }

    /// The lesson record of part `part`, created if missing.
    pub fn lesson_mut(&mut self, part: u8) -> &mut LessonProgress {
        self.lessons.entry(part.to_string()).or_default()
    }
}

/// The progress file of the checkout at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join(".mcplings").join("progress.json")
}

/// Reads `file` without side effects: `None` when it is missing or not a
/// valid progress file of this version (then [`load`] is what deals with it).
pub fn read(file: &Path) -> Option<Progress> {
    let value: Value = serde_json::from_slice(&fs::read(file).ok()?).ok()?;
    if value.get("format_version") != Some(&Value::from(PROGRESS_FORMAT_VERSION)) {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// What loading found.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The progress (fresh, read, or recovered).
    pub progress: Progress,
    /// Set when the file could not be read as it was: what happened and
    /// where the original was kept.
    pub warning: Option<String>,
}

/// Loads progress from `file`. A missing file is a fresh start. A file that
/// is corrupt, or from a newer mcplings, is moved to a backup next to it,
/// and what still parses is recovered.
pub fn load(file: &Path) -> Loaded {
    let text = match fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded { progress: Progress::default(), warning: None },
        Err(e) => {
            return Loaded { progress: Progress::default(), warning: Some(format!("cannot read {}: {e}; starting without it (the file is untouched)", file.display())) };
        }
    };
    let value = serde_json::from_slice::<Value>(&text);
    if let Ok(value) = &value
        && value.get("format_version") == Some(&Value::from(PROGRESS_FORMAT_VERSION))
        && let Ok(progress) = serde_json::from_value::<Progress>(value.clone())
    {
        return Loaded { progress, warning: None };
    }
    let problem = match &value {
        Err(e) => format!("is not valid JSON ({e})"),
        Ok(v) => match v.get("format_version").and_then(Value::as_u64) {
            Some(n) if n > u64::from(PROGRESS_FORMAT_VERSION) => format!("was written by a newer mcplings (format {n})"),
            _ => "has an unexpected shape".to_string(),
        },
    };
    let backup = backup_path(file);
    let kept = match fs::rename(file, &backup) {
        Ok(()) => format!("kept as {}", backup.display()),
        Err(e) => format!("could not be backed up ({e}) and was left in place"),
    };
    let progress = value.map(|v| recover(&v)).unwrap_or_default();
    Loaded { progress, warning: Some(format!("progress file {} {problem}: it was {kept}; recovered what could be read", file.display())) }
}

fn backup_path(file: &Path) -> PathBuf {
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "progress.json".into());
    file.with_file_name(format!("{name}.corrupt-{stamp}"))
}

/// Keeps every entry of `value` that still has the right shape.
fn recover(value: &Value) -> Progress {
    fn entries<T: DeserializeOwned>(value: &Value, key: &str) -> BTreeMap<String, T> {
        value
            .get(key)
            .and_then(Value::as_object)
            .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), serde_json::from_value(v.clone()).ok()?))).collect())
            .unwrap_or_default()
    }
    Progress {
        format_version: PROGRESS_FORMAT_VERSION,
        exercises: entries(value, "exercises"),
        lessons: entries(value, "lessons"),
        quizzes: entries(value, "quizzes"),
        position: value.get("position").and_then(|p| serde_json::from_value(p.clone()).ok()).unwrap_or_default(),
    }
}

/// Writes `progress` to `file` atomically.
///
/// Errors: the directory cannot be created, or the file written or renamed.
pub fn save(file: &Path, progress: &Progress) -> std::io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut progress = progress.clone();
    progress.format_version = PROGRESS_FORMAT_VERSION;
    let json = serde_json::to_string_pretty(&progress).map_err(std::io::Error::other)?;
    let tmp = dir.join(format!(".progress.{}.tmp", std::process::id()));
    let mut f = fs::File::create(&tmp)?;
    f.write_all(json.as_bytes())?;
    f.write_all(b"\n")?;
    f.sync_all()?;
    drop(f);
    fs::rename(&tmp, file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        assert_eq!(load(&file), Loaded { progress: Progress::default(), warning: None });
        let mut p = Progress::default();
        p.exercise_mut("01-encode-frames").done = true;
        p.record_pick(1, "q", 2, false);
        p.record_pick(1, "q", 1, true);
        save(&file, &p).unwrap();
        let loaded = load(&file);
        assert_eq!(loaded.warning, None);
        assert!(loaded.progress.is_done("01-encode-frames"));
        assert_eq!(loaded.progress.quiz_score(1), (0, 1));
    }

    #[test]
    fn corrupt_file_is_backed_up_and_partly_recovered() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let text = r#"{"format_version":1,"exercises":{"01-a":{"done":true},"02-b":{"done":"yes"}},"lessons":7}"#;
        fs::write(&file, text).unwrap();
        let loaded = load(&file);
        assert!(loaded.warning.as_deref().unwrap().contains("unexpected shape"), "{loaded:?}");
        assert!(loaded.progress.is_done("01-a"));
        assert!(!loaded.progress.exercises.contains_key("02-b"));
        let backups: Vec<_> = fs::read_dir(file.parent().unwrap()).unwrap().filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().contains(".corrupt-")).collect();
        assert_eq!(backups.len(), 1);
        assert_eq!(fs::read_to_string(backups[0].path()).unwrap(), text);
    }

    #[test]
    fn truncated_and_future_files_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(dir.path());
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, r#"{"format_version":1,"exerc"#).unwrap();
        assert!(load(&file).warning.unwrap().contains("is not valid JSON"));
        fs::write(&file, r#"{"format_version":9}"#).unwrap();
        assert!(load(&file).warning.unwrap().contains("newer mcplings (format 9)"));
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
