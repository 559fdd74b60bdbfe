//! Where the learner stands on each item of the course, the one definition
//! the workbook's map and `mcplings list` share: an exercise is *not
//! started* until a check of the learner's own change has run (the check
//! the workbook runs on opening an exercise does not count), then *tried*,
//! then *done* once every case passed; a lesson is *read* once every
//! section has been shown; a quiz is *tried* after one answer and *done*
//! when every question is answered right.

use serde::{Deserialize, Serialize};

use super::Progress;

/// How far the learner is with one exercise, lesson or quiz.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Not begun.
    NotStarted,
    /// Begun: a check of a change ran, some sections were shown, a
    /// question was answered.
    Tried,
    /// Finished.
    Done,
}

/// The mark of an exercise that passed every case once and fails its last
/// check now ([`Progress::failing_now`]), on the map and in `mcplings list`.
pub const FAILING_NOW: &str = "!";

impl Progress {
    /// Exercise `id`: done once every case passed; tried once a check of
    /// the learner's change was recorded.
    pub fn exercise_standing(&self, id: &str) -> Standing {
        match self.exercises.get(id) {
            Some(e) if e.done => Standing::Done,
            Some(e) if e.last_check.is_some() => Standing::Tried,
            _ => Standing::NotStarted,
        }
    }

    /// Whether exercise `id` passed every case once but its last check
    /// did not (a later change broke it, or the build fails): done, and
    /// failing now. The map and `mcplings list` mark it apart from a pass
    /// (`!`, "failing now").
    pub fn failing_now(&self, id: &str) -> bool {
        self.exercises
            .get(id)
            .is_some_and(|e| e.done && e.last_check.is_some_and(|(passed, total)| passed < total))
    }

    /// Part `part`'s lesson: done once read to the end (every section
    /// shown in the workbook, or printed whole by `mcplings lesson`), tried
    /// once a section has been shown.
    pub fn lesson_standing(&self, part: u8) -> Standing {
        let lesson = self.lesson(part);
        if lesson.read {
            Standing::Done
        } else if lesson.begun() {
            Standing::Tried
        } else {
            Standing::NotStarted
        }
    }

    /// Part `part`'s quiz of `questions` questions: done when every one is
    /// answered right, tried after one answer.
    pub fn quiz_standing(&self, part: u8, questions: usize) -> Standing {
        let answered = self
            .quiz(part)
            .map_or(0, |q| q.answers.values().filter(|a| !a.picks.is_empty()).count());
        let (_, solved) = self.quiz_score(part);
        if questions > 0 && solved >= questions {
            Standing::Done
        } else if answered > 0 {
            Standing::Tried
        } else {
            Standing::NotStarted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_item_goes_not_started_tried_done() {
        let mut p = Progress::default();
        assert_eq!(p.exercise_standing("01"), Standing::NotStarted);
        p.exercise_mut("01").hints_shown = 1;
        assert_eq!(p.exercise_standing("01"), Standing::NotStarted, "a hint is no attempt");
        p.exercise_mut("01").last_check = Some((2, 8));
        assert_eq!(p.exercise_standing("01"), Standing::Tried);
        p.exercise_mut("01").done = true;
        assert_eq!(p.exercise_standing("01"), Standing::Done);
        // Done at a check that failed a case: passed before, failing now.
        assert!(p.failing_now("01"));
        p.exercise_mut("01").last_check = Some((8, 8));
        assert!(!p.failing_now("01"));
        p.exercise_mut("01").last_check = Some((0, 8));
        assert!(p.failing_now("01"), "a failed build runs no case");
        assert!(!p.failing_now("02"));

        assert_eq!(p.lesson_standing(1), Standing::NotStarted);
        p.lesson_mut(1).see("Requests");
        assert_eq!(p.lesson_standing(1), Standing::Tried);
        p.lesson_mut(1).read = true;
        assert_eq!(p.lesson_standing(1), Standing::Done);

        assert_eq!(p.quiz_standing(1, 2), Standing::NotStarted);
        p.record_pick(1, "a", 0, false);
        assert_eq!(p.quiz_standing(1, 2), Standing::Tried);
        p.record_pick(1, "a", 1, true);
        p.record_pick(1, "b", 1, true);
        assert_eq!(p.quiz_standing(1, 2), Standing::Done);
    }
}
