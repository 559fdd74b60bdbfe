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
mod lesson;
mod merge;
mod migrate;
mod recovery;
mod standing;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use file::{Loaded, load, path, read, save, update};
pub use lesson::{LessonPlace, LessonProgress};
pub use merge::merge;
pub use migrate::Shape;
pub use standing::{FAILING_NOW, Standing};

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

/// One quiz.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct QuizProgress {
    /// Per question id.
    #[serde(default)]
    pub answers: BTreeMap<String, Answer>,
    /// The seed of the run under way: it fixes the order the options are
    /// shown in, so a quiz left and reopened shows each question's
    /// options under the same letters. Absent in files written before it
    /// was kept (the next opening starts a run and stores its seed); a
    /// retake clears it with the answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
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
    /// What the picks were given to: the question's options fingerprint
    /// (`content::quiz::Question::fingerprint`) when the first pick was
    /// made. Absent in files written before it was kept; `migrate` drops
    /// an answer whose question's options have changed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
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
    /// The screen in front when the learner left (none: the map).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<Place>,
    /// The case selected in that exercise, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// The quiz question shown, by id (none: the quiz's summary, or no
    /// quiz open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

/// A screen of the workbook, as the progress file names it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// The course map.
    Map,
    /// The lesson of [`Position::part`].
    Lesson,
    /// The exercise [`Position::exercise`].
    Exercise,
    /// The quiz of [`Position::part`].
    Quiz,
    /// The glossary.
    Glossary,
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
        self.record_pick_to(part, question, None, pick, correct);
    }

    /// Records a pick on question `question`, whose options have the
    /// fingerprint `to` (kept with the answer's first pick; see
    /// [`Answer::to`]).
    pub fn record_pick_to(&mut self, part: u8, question: &str, to: Option<&str>, pick: usize, correct: bool) {
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
            answer.to = to.map(str::to_string);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_from_before_the_place_fields_loads_and_new_ones_round_trip() {
        let old = r#"{"format_version":1,"lessons":{"1":{"read":false,"section":3}},
            "position":{"part":1,"exercise":"01-encode-frames"}}"#;
        let p: Progress = serde_json::from_str(old).expect("an old file loads");
        assert!(p.lesson(1).is_legacy(), "its section by index waits for the upgrade");
        assert_eq!(p.position.screen, None);
        let mut p = p;
        p.position.screen = Some(Place::Exercise);
        p.position.case = Some("null id".into());
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.contains(r#""screen":"exercise""#), "{json}");
        assert_eq!(serde_json::from_str::<Progress>(&json).unwrap(), p);
    }
}
