//! Moving between screens: opening the lesson, an exercise, a quiz or the
//! glossary pushes the screen in front on a back stack, esc pops it; the
//! screen in front (and the exercise, case, quiz question and lesson place)
//! is remembered in the progress file, so the workbook reopens there.

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, CheckState, Effect, ExerciseView, LessonView, Screen};
use crate::progress::Place;

impl App {
    /// Puts `screen` in front. The screen left is pushed on the back stack,
    /// unless `screen` is already on it: then the stack is cut back to
    /// below it, as if the learner had gone back there (no cycles: exercise
    /// → lesson → its exercise → esc lands where the first exercise came
    /// from).
    pub(super) fn go_to(&mut self, screen: Screen) {
        if screen == self.screen {
            return;
        }
        match self.back.iter().position(|&s| s == screen) {
            Some(at) => self.back.truncate(at),
            None => self.back.push(self.screen),
        }
        self.screen = screen;
    }

    /// Back to the screen the learner came from (the map at the bottom).
    pub(super) fn go_back(&mut self) -> Vec<Effect> {
        let from = self.screen;
        self.screen = self.back.pop().unwrap_or(Screen::Map);
        if self.screen == Screen::Map {
            self.follow_progress();
        }
        // Back from a jump to a section (the glossary's, the quiz
        // summary's): the lesson where the learner was before it.
        if matches!(from, Screen::Glossary | Screen::Quiz)
            && self.screen == Screen::Lesson
            && let Some((part, place)) = self.lesson_behind.take()
        {
            self.lesson = LessonView::new(part);
            self.relayout();
            self.lesson.go_to_place(&place);
            self.progress.position.part = Some(part);
        }
        if self.screen == Screen::Exercise && std::mem::take(&mut self.stale) {
            return self.start_check();
        }
        Vec::new()
    }

    /// Closes the workbook: stops a running check and saves where the
    /// learner was.
    pub(super) fn quit(&mut self) -> Vec<Effect> {
        self.quitting = true;
        self.remember_position();
        let mut effects = self.exercise.cancel_effects();
        effects.push(Effect::SaveProgress);
        effects
    }

    /// The keys that quit or go back on this screen ([`keys::GLOBAL`], the
    /// map's `q`).
    pub(super) fn quit_or_back(&mut self, key: KeyEvent) -> Option<Vec<Effect>> {
        match keys::action(self.screen, key) {
            Some(Action::Quit) => Some(self.quit()),
            Some(Action::Back) => Some(self.go_back()),
            _ => None,
        }
    }

    /// Opens part `number`'s lesson where the learner left it.
    pub(super) fn open_lesson(&mut self, number: u8) -> Vec<Effect> {
        if self.course.part(number).is_none_or(|p| !p.is_written()) {
            self.notice = Some(format!("Part {number} is not written yet."));
            return Vec::new();
        }
        self.lesson_behind = None;
        self.lesson = LessonView::new(number);
        self.relayout();
        // A record kept by section index (a file from before titles, not yet
        // migrated) is read with this lesson's sections.
        if self.progress.lesson(number).is_legacy()
            && let Some(lesson) = self.course.part(number).and_then(|p| p.lesson.as_ref())
        {
            let sections: Vec<(String, usize)> = lesson
                .sections
                .iter()
                .map(|s| (s.title.clone(), s.blocks.len()))
                .collect();
            self.progress.lesson_mut(number).upgrade(&sections);
        }
        match self.progress.lesson(number).place {
            Some(place) => self.lesson.go_to_place(&place),
            None => self.lesson.jump_to_section(0),
        }
        self.go_to(Screen::Lesson);
        self.mark_seen();
        self.progress.position.part = Some(number);
        vec![Effect::SaveProgress]
    }

    /// Opens the exercise at `index` in course order.
    pub(super) fn open_exercise(&mut self, index: usize) -> Vec<Effect> {
        let Some(ex) = self.course.exercises.get(index) else {
            return Vec::new();
        };
        let mut effects = self.exercise.cancel_effects();
        let id = ex.id.clone();
        self.progress.position.exercise = Some(id.clone());
        self.progress.position.part = Some(ex.part);
        if self.exercise.index != index || matches!(self.exercise.check, CheckState::Idle) {
            self.exercise = ExerciseView::new(index);
        }
        self.go_to(Screen::Exercise);
        self.stale = false;
        effects.push(Effect::SaveProgress);
        effects.extend(self.start_check());
        effects
    }

    /// Opens part `number`'s quiz.
    pub(super) fn open_quiz(&mut self, number: u8) -> Vec<Effect> {
        if self.course.part(number).and_then(|p| p.quiz.as_ref()).is_none() {
            self.notice = Some(format!("Part {number} has no quiz yet."));
            return Vec::new();
        }
        // The run under way keeps its order: its seed is in the progress.
        let stored = self.progress.quiz(number).and_then(|q| q.seed);
        if self.quiz.part != number || stored.is_some_and(|s| s != self.quiz.seed) {
            self.quiz = self.quiz_run(number);
        } else if stored.is_none() {
            self.progress.quizzes.entry(number.to_string()).or_default().seed = Some(self.quiz.seed);
        }
        self.quiz.resume(&self.course, &self.progress);
        self.go_to(Screen::Quiz);
        self.progress.position.part = Some(number);
        vec![Effect::SaveProgress]
    }

    /// Reopens the screen the progress file says the learner left, with
    /// the map under it on the back stack.
    pub(super) fn resume(&mut self) -> Vec<Effect> {
        let position = self.progress.position.clone();
        let part = position.part.unwrap_or(1);
        match position.screen {
            None | Some(Place::Map) => Vec::new(),
            Some(Place::Lesson) => self.open_lesson(part),
            Some(Place::Quiz) => {
                let effects = self.open_quiz(part);
                let questions = self
                    .course
                    .part(part)
                    .and_then(|p| p.quiz.as_ref())
                    .map(|q| &q.questions);
                if let Some(i) = position
                    .question
                    .and_then(|id| questions.and_then(|qs| qs.iter().position(|q| q.id == id)))
                {
                    self.quiz.question = i;
                    self.quiz.finished = false;
                }
                effects
            }
            Some(Place::Glossary) => self.open_glossary(),
            Some(Place::Exercise) => {
                let Some(index) = position
                    .exercise
                    .as_deref()
                    .and_then(|id| self.course.exercise_index(id))
                else {
                    return Vec::new();
                };
                let effects = self.open_exercise(index);
                let case = position.case.and_then(|name| {
                    let ex = self.course.exercises.get(index)?;
                    crate::check::checkers::of(ex)?
                        .cases
                        .iter()
                        .position(|c| c.name == name)
                });
                if let Some(case) = case {
                    self.exercise.selected = case;
                    self.exercise.restore_case = true;
                }
                effects
            }
        }
    }

    /// Writes where the learner is into the progress (screen, exercise,
    /// case, quiz question, lesson place). Returns whether something other
    /// than the place within a lesson section changed: those are saved at
    /// once, a scroll within a section on the next save (at the latest on
    /// quitting).
    pub(super) fn remember_position(&mut self) -> bool {
        let before = self.progress.position.clone();
        let section = |app: &App| app.progress.lesson(app.lesson.part).place.map(|p| p.section);
        let before_section = section(self);
        let p = &mut self.progress.position;
        p.screen = Some(match self.screen {
            Screen::Map => Place::Map,
            Screen::Lesson => Place::Lesson,
            Screen::Exercise => Place::Exercise,
            Screen::Quiz => Place::Quiz,
            Screen::Glossary => Place::Glossary,
        });
        if self.screen == Screen::Exercise
            && let Some(ex) = self.course.exercises.get(self.exercise.index)
        {
            p.case = crate::check::checkers::of(ex)
                .and_then(|c| c.cases.get(self.exercise.selected))
                .map(|c| c.name.to_string());
        }
        if self.screen == Screen::Quiz {
            p.question = match self.quiz.finished {
                true => None,
                false => self
                    .course
                    .part(self.quiz.part)
                    .and_then(|part| part.quiz.as_ref())
                    .and_then(|q| q.questions.get(self.quiz.question))
                    .map(|q| q.id.clone()),
            };
        }
        if self.screen == Screen::Lesson && self.lesson.laid.is_some() {
            let place = self.lesson.place();
            self.progress.lesson_mut(self.lesson.part).place = Some(place);
        }
        self.progress.position != before || section(self) != before_section
    }
}
