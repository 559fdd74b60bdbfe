//! The glossary screen: every term of the course, one chosen at a time
//! with its definition, where it is taught and its spec page. Opened with
//! `t` from the map or a lesson; esc goes back there, enter reads the
//! section that teaches the chosen term.

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, Effect, Screen};

/// Glossary state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlossaryView {
    /// Index of the chosen term.
    pub selected: usize,
}

impl App {
    /// Opens the glossary; esc comes back to the screen in front now.
    pub(super) fn open_glossary(&mut self) -> Vec<Effect> {
        if self.course.glossary.as_ref().is_none_or(|g| g.terms.is_empty()) {
            self.notice = Some("This course has no glossary yet.".into());
            return Vec::new();
        }
        self.go_to(Screen::Glossary);
        Vec::new()
    }

    pub(super) fn glossary_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let count = self.course.glossary.as_ref().map_or(0, |g| g.terms.len());
        let v = &mut self.glossary;
        match keys::action(Screen::Glossary, key) {
            Some(Action::Back) => return self.go_back(),
            Some(Action::Down) => v.selected = (v.selected + 1).min(count.saturating_sub(1)),
            Some(Action::Up) => v.selected = v.selected.saturating_sub(1),
            Some(Action::Top) => v.selected = 0,
            Some(Action::Bottom) => v.selected = count.saturating_sub(1),
            Some(Action::Open) => return self.read_term_section(),
            _ => {}
        }
        Vec::new()
    }

    /// Opens the lesson at the section that teaches the chosen term.
    fn read_term_section(&mut self) -> Vec<Effect> {
        let Some(term) = self
            .course
            .glossary
            .as_ref()
            .and_then(|g| g.terms.get(self.glossary.selected))
            .cloned()
        else {
            return Vec::new();
        };
        // The jump keeps the way back: esc returns to the glossary, and from
        // there to the lesson place it was opened from, if any.
        let back = self.back.clone();
        let behind = match self.lesson_behind.take() {
            None if back.last() == Some(&Screen::Lesson) => Some((self.lesson.part, self.lesson.place())),
            kept => kept,
        };
        let effects = self.open_lesson(term.part);
        if self.screen == Screen::Lesson {
            self.back = back;
            self.back.push(Screen::Glossary);
            self.lesson_behind = behind;
        }
        if self.screen == Screen::Lesson
            && let Some(index) = self
                .course
                .part(term.part)
                .and_then(|p| p.lesson.as_ref())
                .and_then(|l| l.sections.iter().position(|s| s.title == term.section))
        {
            self.lesson.jump_to_section(index);
        }
        effects
    }
}
