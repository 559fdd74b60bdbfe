//! The lesson reader: scroll, jump between sections, fold and open asides,
//! remember the place by block.

mod asides;
mod needs;

use std::collections::BTreeSet;

use ratatui::crossterm::event::KeyEvent;

use super::keys::{self, Action};
use super::{App, Effect, Screen};
use crate::content::Lesson;
use crate::progress::LessonPlace;
use crate::text::{AsideAt, LaidOut, Note, Piece, Tone, lay_out_lesson_with};

/// Lesson reader state.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    /// The part whose lesson is open.
    pub part: u8,
    /// First line shown.
    pub scroll: usize,
    /// The lesson laid out for the current width and open asides.
    pub laid: Option<LaidOut>,
    /// Rows on screen.
    pub rows: usize,
    /// The asides drawn open, as (section index, block index). Every
    /// opening of a lesson starts with none: it is not stored.
    pub open: BTreeSet<(usize, usize)>,
    /// For each note of the layout ([`LaidOut::notes`]), the exercise it
    /// says is ready (its index in course order).
    pub ready: Vec<usize>,
    width: usize,
    /// The open asides changed since the layout.
    stale: bool,
}

impl LessonView {
    /// A reader for part `part`, not yet laid out, every aside folded.
    pub fn new(part: u8) -> LessonView {
        LessonView {
            part,
            scroll: 0,
            laid: None,
            rows: 20,
            open: BTreeSet::new(),
            ready: Vec::new(),
            width: 0,
            stale: false,
        }
    }

    /// Lays the lesson out for `width` columns with its open asides and
    /// `ready` notes (each with the exercise it names), keeping the reader
    /// at the same place ([`LessonView::place`]), with `end` (what comes
    /// next) under its last line. Does nothing when neither the width nor
    /// the open asides changed.
    pub fn lay_out(&mut self, lesson: &Lesson, width: usize, end: &str, ready: Vec<(Note, usize)>) {
        if self.laid.is_some() && self.width == width && !self.stale {
            return;
        }
        let place = self.laid.as_ref().map(|_| self.place());
        self.width = width;
        self.stale = false;
        let (notes, exercises): (Vec<Note>, Vec<usize>) = ready.into_iter().unzip();
        let open = |s: usize, b: usize| self.open.contains(&(s, b));
        let mut laid = lay_out_lesson_with(lesson, width, &open, &notes);
        laid.lines.push(Vec::new());
        let none = || Piece::new("", Tone::Plain);
        laid.lines.extend(crate::text::wrap(
            &[Piece::new(end, Tone::Strong)],
            width,
            none(),
            none(),
        ));
        self.laid = Some(laid);
        self.ready = exercises;
        if let Some(place) = place {
            self.go_to_place(&place);
        }
    }

    /// Marks the layout out of date (the open asides changed): the next
    /// [`LessonView::lay_out`] lays it out again.
    pub(super) fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Where the top line of the screen is, whatever the width and the
    /// asides open: the section's title, the block of it the line is in
    /// (the first block holds the section's heading; a line inside an open
    /// aside is in the aside's block), and the line within that block.
    pub fn place(&self) -> LessonPlace {
        let Some(laid) = &self.laid else {
            return LessonPlace::default();
        };
        let s = laid.section_at(self.scroll);
        let Some(at) = laid.sections.get(s) else {
            return LessonPlace::default();
        };
        let block = at.blocks.iter().rposition(|&start| start <= self.scroll).unwrap_or(0);
        let span = at.block_span(block, laid.section_end(s));
        LessonPlace {
            section: at.key.clone(),
            block,
            line: self.scroll.saturating_sub(span.start),
        }
    }

    /// Scrolls to a place [`LessonView::place`] gave: its section (by
    /// title; the lesson's top if it has none of that title), its block
    /// (clamped), its line (clamped to the block; the head of a folded
    /// aside), and no further than the last screen.
    pub fn go_to_place(&mut self, place: &LessonPlace) {
        let Some(laid) = &self.laid else { return };
        let Some(s) = laid.sections.iter().position(|at| at.key == place.section) else {
            self.scroll = 0;
            return;
        };
        let at = &laid.sections[s];
        let block = place.block.min(at.blocks.len().saturating_sub(1));
        let span = at.block_span(block, laid.section_end(s));
        let last = match laid.asides.iter().find(|a| (a.section, a.block) == (s, block)) {
            Some(a) if !a.open => a.head.end.saturating_sub(1),
            _ => span.end.saturating_sub(1),
        };
        self.scroll = (span.start + place.line).min(last.max(span.start));
        self.clamp();
    }

    /// Keeps the scroll within the lesson: the last screen at most.
    pub(super) fn clamp(&mut self) {
        self.scroll = self.scroll.min(self.len().saturating_sub(self.rows.max(1)));
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
        laid.section_at(line)
    }

    /// Scrolls to the start of section `index` (clamped).
    pub fn jump_to_section(&mut self, index: usize) {
        if let Some(laid) = &self.laid
            && let Some(at) = laid.sections.get(index.min(laid.sections.len().saturating_sub(1)))
        {
            self.scroll = at.start;
        }
    }

    /// Scrolls to block `block` of section `section`: its first line (the
    /// section's heading for the first block), no further than the last
    /// screen.
    pub fn jump_to_block(&mut self, section: usize, block: usize) {
        if let Some(laid) = &self.laid
            && let Some(at) = laid.sections.get(section)
        {
            self.scroll = at.block_span(block, laid.section_end(section)).start;
            self.clamp();
        }
    }

    /// The aside in focus: the first whose head is on screen (`a` opens
    /// or folds it).
    pub fn focused(&self) -> Option<&AsideAt> {
        let laid = self.laid.as_ref()?;
        // The last row shows the "more" marker while lines lie below it.
        let rows = self.rows.max(1);
        let shown = if self.scroll + rows < laid.lines.len() {
            rows - 1
        } else {
            rows
        };
        let bottom = self.scroll + shown.max(1);
        laid.asides
            .iter()
            .find(|a| a.head.start < bottom && a.head.end > self.scroll)
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
    /// Lays the open lesson out for the terminal's width (one column of
    /// margin each side; prose no wider than 100), with what comes next
    /// under it and the exercises it readies.
    pub(super) fn lay_out_lesson(&mut self) {
        let width = (self.size.0.saturating_sub(2) as usize).min(100);
        self.lesson.rows = self.body_rows();
        let part = self.lesson.part;
        // Next by progress: the part's first exercise not done, else its
        // quiz, else what comes after the part.
        let quiz_done = self
            .course
            .part(part)
            .and_then(|p| p.quiz.as_ref())
            .is_none_or(|q| self.progress.quiz_score(part).1 >= q.questions.len());
        let next = super::map::next_exercise_of(&self.course, &self.progress, part);
        let end = match next.and_then(|i| self.course.exercises.get(i)) {
            Some(ex) => format!(
                "End of the lesson. Next: exercise {} {}: press e (z takes the quiz).",
                ex.number(),
                ex.slug()
            ),
            None if !quiz_done => "End of the lesson. Next: the part's quiz: press z.".to_string(),
            None => "End of the lesson. This part is done: esc, then n goes on.".to_string(),
        };
        let ready = self.ready_notes(part);
        if let Some(lesson) = self.course.part(part).and_then(|p| p.lesson.as_ref()) {
            self.lesson.lay_out(lesson, width, &end, ready);
        }
    }

    /// Records the sections whose last line is on screen now as seen; the
    /// lesson is read once every section has been.
    pub(super) fn mark_seen(&mut self) {
        let Some(laid) = &self.lesson.laid else { return };
        let (top, rows) = (self.lesson.scroll, self.lesson.rows.max(1));
        let shown: Vec<String> = (0..laid.sections.len())
            .filter(|&i| (top..top + rows).contains(&laid.section_end(i).saturating_sub(1)))
            .map(|i| laid.sections[i].key.clone())
            .collect();
        let keys: Vec<String> = laid.sections.iter().map(|s| s.key.clone()).collect();
        let record = self.progress.lesson_mut(self.lesson.part);
        for key in &shown {
            record.see(key);
        }
        record.read |= !keys.is_empty() && keys.iter().all(|k| record.seen.contains(k));
    }

    pub(super) fn lesson_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if let Some(effects) = self.quit_or_back(key) {
            return effects;
        }
        let rows = self.body_rows().max(1);
        let page = self.page_rows();
        let max = self.lesson.len().saturating_sub(rows);
        let before = self.progress.lesson(self.lesson.part).read;
        let part = self.lesson.part;
        let v = &mut self.lesson;
        match keys::action(Screen::Lesson, key) {
            Some(Action::Down) => v.scroll += 1,
            Some(Action::Up) => v.scroll = v.scroll.saturating_sub(1),
            Some(Action::PageDown) => v.scroll += page,
            Some(Action::PageUp) => v.scroll = v.scroll.saturating_sub(page),
            Some(Action::Top) => v.scroll = 0,
            Some(Action::Bottom) => v.scroll = max,
            Some(Action::Next) => {
                let (top, count) = v
                    .laid
                    .as_ref()
                    .map_or((0, 0), |l| (l.section_at(v.scroll), l.sections.len()));
                match top + 1 {
                    next if next < count => v.jump_to_section(next),
                    _ => v.scroll = max,
                }
            }
            Some(Action::Previous) => {
                let current = v.section();
                let start = v
                    .laid
                    .as_ref()
                    .and_then(|l| l.sections.get(current))
                    .map_or(0, |s| s.start);
                // Go to the start of this section first, then to the one before.
                v.jump_to_section(if v.scroll > start {
                    current
                } else {
                    current.saturating_sub(1)
                });
            }
            Some(Action::Aside) => self.toggle_focused_aside(),
            Some(Action::Asides) => self.toggle_section_asides(),
            Some(Action::Ready) => return self.open_ready_exercise(),
            Some(Action::Exercise) => {
                // The exercise the lesson's end names: the first not done.
                let first = self.course.part(part).and_then(|p| p.exercises.first().cloned());
                let pick = super::map::next_exercise_of(&self.course, &self.progress, part)
                    .or_else(|| first.and_then(|id| self.course.exercise_index(&id)));
                return match pick {
                    Some(index) => self.open_exercise(index),
                    None => Vec::new(),
                };
            }
            Some(Action::Quiz) => return self.open_quiz(part),
            Some(Action::Glossary) => return self.open_glossary(),
            _ => {}
        }
        let max = self.lesson.len().saturating_sub(rows);
        self.lesson.scroll = self.lesson.scroll.min(max);
        // The place (section, block, line) is remembered with the position.
        self.mark_seen();
        if self.progress.lesson(part).read != before {
            vec![Effect::SaveProgress]
        } else {
            Vec::new()
        }
    }
}
