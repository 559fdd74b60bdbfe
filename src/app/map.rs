//! The course map: choose a part, see progress, go to what's next.

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, Confirm, Effect, Screen};
use crate::content::Course;
use crate::progress::Progress;

/// Course map state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapView {
    /// Index of the selected part.
    pub selected: usize,
    /// The part in progress the cursor was last put on ([`part_in_progress`]):
    /// when progress moves on to another part, the cursor follows it the
    /// next time the map shows; a part the learner picked stays until then.
    pub followed: Option<u8>,
}

/// The first unread lesson, unfinished exercise or unfinished quiz of
/// `course` in course order, by `progress`: what "Next" names on the map,
/// at a lesson's end and in `mcplings list`.
pub fn next_step(course: &Course, progress: &Progress) -> NextStep {
    for part in course.parts.iter().filter(|p| p.is_written()) {
        if !progress.lesson(part.number).read {
            return NextStep::Lesson(part.number);
        }
        if let Some(index) = next_exercise_of(course, progress, part.number) {
            return NextStep::Exercise(index);
        }
        if let Some(quiz) = &part.quiz {
            let (_, solved) = progress.quiz_score(part.number);
            if solved < quiz.questions.len() {
                return NextStep::Quiz(part.number);
            }
        }
    }
    NextStep::Done
}

/// The first exercise of part `part` not done yet, by its index in course
/// order.
pub fn next_exercise_of(course: &Course, progress: &Progress, part: u8) -> Option<usize> {
    let part = course.part(part)?;
    let id = part.exercises.iter().find(|id| !progress.is_done(id))?;
    course.exercise_index(id)
}

/// The part in progress: the part of the next step, the last part when
/// everything written is done.
pub fn part_in_progress(course: &Course, progress: &Progress) -> u8 {
    match next_step(course, progress) {
        NextStep::Lesson(p) | NextStep::Quiz(p) => p,
        NextStep::Exercise(i) => course.exercises.get(i).map_or(1, |e| e.part),
        NextStep::Done => course
            .parts
            .iter()
            .filter(|p| p.is_written())
            .map(|p| p.number)
            .max()
            .unwrap_or(1),
    }
}

/// What the learner should do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextStep {
    /// Read this part's lesson.
    Lesson(u8),
    /// Do the exercise at this index.
    Exercise(usize),
    /// Take this part's quiz.
    Quiz(u8),
    /// Everything written so far is done.
    Done,
}

impl App {
    /// The first unread lesson, unfinished exercise or unfinished quiz, in
    /// course order.
    pub fn next_step(&self) -> NextStep {
        next_step(&self.course, &self.progress)
    }

    /// Puts the map's cursor on the part in progress when progress has
    /// moved on to another part since it was last put there.
    pub(super) fn follow_progress(&mut self) {
        let part = part_in_progress(&self.course, &self.progress);
        if self.map.followed != Some(part) {
            self.map.followed = Some(part);
            if let Some(i) = self.course.parts.iter().position(|p| p.number == part) {
                self.map.selected = i;
            }
        }
    }

    /// Whether the whole course is done: every part written, and every
    /// lesson, exercise and quiz finished.
    pub fn course_complete(&self) -> bool {
        self.course.parts.iter().all(|p| p.is_written()) && self.next_step() == NextStep::Done
    }

    fn selected_part(&self) -> u8 {
        self.course.parts.get(self.map.selected).map_or(1, |p| p.number)
    }

    pub(super) fn map_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(effects) = self.quit_or_back(key) {
            return effects;
        }
        let part = self.selected_part();
        match keys::action(Screen::Map, key) {
            Some(Action::Up) => self.map.selected = self.map.selected.saturating_sub(1),
            Some(Action::Down) => {
                self.map.selected = (self.map.selected + 1).min(self.course.parts.len().saturating_sub(1))
            }
            Some(Action::Lesson) => return self.open_lesson(part),
            Some(Action::Exercise) => {
                let first = self.course.part(part).and_then(|p| p.exercises.first());
                let pick = next_exercise_of(&self.course, &self.progress, part)
                    .or_else(|| first.and_then(|id| self.course.exercise_index(id)));
                match pick {
                    Some(index) => return self.open_exercise(index),
                    None => self.notice = Some(format!("Part {part} has no exercises yet.")),
                }
            }
            Some(Action::Quiz) => return self.open_quiz(part),
            Some(Action::Glossary) => return self.open_glossary(),
            Some(Action::NextStep) => {
                return match self.next_step() {
                    NextStep::Lesson(p) => self.open_lesson(p),
                    NextStep::Exercise(i) => self.open_exercise(i),
                    NextStep::Quiz(p) => self.open_quiz(p),
                    NextStep::Done if self.course_complete() => {
                        self.notice = Some("Course complete: your results are on the map.".into());
                        Vec::new()
                    }
                    NextStep::Done => {
                        self.notice = Some("You have done everything written so far.".into());
                        Vec::new()
                    }
                };
            }
            Some(Action::ResetAll) => self.confirm = Some(Confirm::ResetProgress),
            _ => {}
        }
        Vec::new()
    }
}
