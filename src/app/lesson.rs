//! The lesson reader: scroll, jump between sections, remember the place.

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, Effect, Screen};
use crate::content::Lesson;
use crate::text::{LaidOut, Piece, Tone, lay_out_lesson};

/// Lesson reader state.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    /// The part whose lesson is open.
    pub part: u8,
    /// First line shown.
    pub scroll: usize,
    /// The lesson laid out for the current width.
    pub laid: Option<LaidOut>,
    /// Rows on screen.
    pub rows: usize,
    width: usize,
}

impl LessonView {
    /// A reader for part `part`, not yet laid out.
    pub fn new(part: u8) -> LessonView {
        LessonView {
            part,
            scroll: 0,
            laid: None,
            rows: 20,
            width: 0,
        }
    }

    /// Lays the lesson out for `width` columns, keeping the reader at the
    /// same place ([`LessonView::place`]), with `end` (what comes next)
    /// under its last line.
    pub fn lay_out(&mut self, lesson: &Lesson, width: usize, end: &str) {
        if self.laid.is_some() && self.width == width {
            return;
        }
        let place = self.laid.as_ref().map(|_| self.place());
        self.width = width;
        let mut laid = lay_out_lesson(lesson, width);
        laid.lines.push(Vec::new());
        let none = || Piece::new("", Tone::Plain);
        laid.lines.extend(crate::text::wrap(
            &[Piece::new(end, Tone::Strong)],
            width,
            none(),
            none(),
        ));
        self.laid = Some(laid);
        if let Some((section, offset)) = place {
            self.go_to_place(section, offset);
        }
    }

    /// Where the top line of the screen is, independent of the width: the
    /// section it is in, and how far into that section, in thousandths of
    /// the section's length.
    pub fn place(&self) -> (usize, u16) {
        let Some(laid) = &self.laid else { return (0, 0) };
        let section = laid
            .sections
            .iter()
            .rposition(|(start, _)| *start <= self.scroll)
            .unwrap_or(0);
        let (start, end) = section_span(laid, section);
        // Rounded up, so that going back to it lands on the same line.
        let offset = (self.scroll.saturating_sub(start) * 1000).div_ceil((end - start).max(1));
        (section, offset.min(999) as u16)
    }

    /// Scrolls to a place [`LessonView::place`] gave (clamped to the
    /// lesson; the caller clamps to the last screen).
    pub fn go_to_place(&mut self, section: usize, offset: u16) {
        let Some(laid) = &self.laid else { return };
        if laid.sections.is_empty() {
            return;
        }
        let section = section.min(laid.sections.len() - 1);
        let (start, end) = section_span(laid, section);
        self.scroll = start + (end - start) * usize::from(offset.min(999)) / 1000;
    }

    /// Index of the section being read: the one at the top of the screen,
    /// or, once the end is on screen, the last one that starts on it.
    pub fn section(&self) -> usize {
        let Some(laid) = &self.laid else { return 0 };
        let at_end = self.scroll + self.rows >= laid.lines.len();
        let line = if at_end {
            laid.lines.len().saturating_sub(1)
        } else {
            self.scroll
        };
        laid.sections.iter().rposition(|(start, _)| *start <= line).unwrap_or(0)
    }

    /// Scrolls to the start of section `index` (clamped).
    pub fn jump_to_section(&mut self, index: usize) {
        if let Some(laid) = &self.laid
            && let Some((start, _)) = laid.sections.get(index.min(laid.sections.len().saturating_sub(1)))
        {
            self.scroll = *start;
        }
    }

    /// Total laid-out lines.
    pub fn len(&self) -> usize {
        self.laid.as_ref().map_or(0, |l| l.lines.len())
    }

    /// Whether nothing is laid out.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl App {
    /// Records the sections whose last line is on screen now as seen; the
    /// lesson is read once every section has been.
    pub(super) fn mark_seen(&mut self) {
        let Some(laid) = &self.lesson.laid else { return };
        let (top, rows) = (self.lesson.scroll, self.lesson.rows.max(1));
        let shown: Vec<usize> = (0..laid.sections.len())
            .filter(|&i| {
                let end = section_span(laid, i).1.saturating_sub(1);
                (top..top + rows).contains(&end)
            })
            .collect();
        let count = laid.sections.len();
        let record = self.progress.lesson_mut(self.lesson.part);
        for i in shown {
            if let Err(at) = record.seen.binary_search(&i) {
                record.seen.insert(at, i);
            }
        }
        record.read |= count > 0 && record.seen.len() >= count;
    }
}

/// First line of section `index` and the first line after it.
fn section_span(laid: &LaidOut, index: usize) -> (usize, usize) {
    let start = laid.sections.get(index).map_or(0, |s| s.0);
    let end = laid.sections.get(index + 1).map_or(laid.lines.len(), |s| s.0);
    (start, end.max(start))
}

impl App {
    pub(super) fn lesson_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(effects) = self.quit_or_back(key) {
            return effects;
        }
        let rows = self.body_rows().max(1);
        let max = self.lesson.len().saturating_sub(rows);
        let before = self.progress.lesson(self.lesson.part).read;
        let part = self.lesson.part;
        let v = &mut self.lesson;
        match keys::action(Screen::Lesson, key) {
            Some(Action::Down) => v.scroll += 1,
            Some(Action::Up) => v.scroll = v.scroll.saturating_sub(1),
            Some(Action::PageDown) => v.scroll += rows.saturating_sub(2).max(1),
            Some(Action::PageUp) => v.scroll = v.scroll.saturating_sub(rows.saturating_sub(2).max(1)),
            Some(Action::Top) => v.scroll = 0,
            Some(Action::Bottom) => v.scroll = max,
            Some(Action::Next) => {
                let top = v.laid.as_ref().map_or(0, |l| {
                    l.sections
                        .iter()
                        .rposition(|(start, _)| *start <= v.scroll)
                        .unwrap_or(0)
                });
                let next = top + 1;
                match v.laid.as_ref().map_or(0, |l| l.sections.len()) {
                    count if next < count => v.jump_to_section(next),
                    _ => v.scroll = max,
                }
            }
            Some(Action::Previous) => {
                let current = v.section();
                let start = v.laid.as_ref().and_then(|l| l.sections.get(current)).map_or(0, |s| s.0);
                // Go to the start of this section first, then to the one before.
                v.jump_to_section(if v.scroll > start {
                    current
                } else {
                    current.saturating_sub(1)
                });
            }
            Some(Action::Exercise) => {
                let first = self.course.part(part).and_then(|p| p.exercises.first().cloned());
                return match first.and_then(|id| self.course.exercise_index(&id)) {
                    Some(index) => self.open_exercise(index),
                    None => Vec::new(),
                };
            }
            Some(Action::Quiz) => return self.open_quiz(part),
            Some(Action::Glossary) => return self.open_glossary(),
            _ => {}
        }
        self.lesson.scroll = self.lesson.scroll.min(max);
        // The place (section, offset) is remembered with the position.
        self.mark_seen();
        if self.progress.lesson(part).read != before {
            vec![Effect::SaveProgress]
        } else {
            Vec::new()
        }
    }
}
