//! The course map: choose a part, see progress, go to what's next.

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, Confirm, Effect, Screen};

/// Course map state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapView {
    /// Index of the selected part.
    pub selected: usize,
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
        for part in self.course.parts.iter().filter(|p| p.is_written()) {
            if !self.progress.lesson(part.number).read {
                return NextStep::Lesson(part.number);
            }
            for id in &part.exercises {
                if !self.progress.is_done(id)
                    && let Some(index) = self.course.exercise_index(id)
                {
                    return NextStep::Exercise(index);
                }
            }
            if let Some(quiz) = &part.quiz {
                let (_, solved) = self.progress.quiz_score(part.number);
                if solved < quiz.questions.len() {
                    return NextStep::Quiz(part.number);
                }
            }
        }
        NextStep::Done
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
                let ids = self.course.part(part).map(|p| p.exercises.clone()).unwrap_or_default();
                let pick = ids.iter().find(|id| !self.progress.is_done(id)).or(ids.first());
                match pick.and_then(|id| self.course.exercise_index(id)) {
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
