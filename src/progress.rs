//! The learner's progress for one checkout, in `.mcplings/progress.json`
//! (gitignored): exercises done, hints revealed, quiz answers, lessons read
//! and where the learner was.
//!
//! The model is here; [`file`] reads and writes it safely (atomic writes,
//! backups of unreadable files, a lock and a merge for two mcplings at
//! once), [`merge`] combines two processes' changes, `recovery` saves
//! what it can of a damaged file, `migrate` brings progress to a new
//! version of the course ([`Shape`]).

mod file;
mod merge;
mod migrate;
mod recovery;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use file::{Loaded, load, path, read, save, update};
pub use merge::merge;
pub use migrate::Shape;

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
    /// The version of the course this progress was last brought to
    /// ([`Shape::version`]); absent in files written before versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub course_version: Option<String>,
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
        let answer = self
            .quizzes
            .entry(part.to_string())
            .or_default()
            .answers
            .entry(question.to_string())
            .or_default();
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
