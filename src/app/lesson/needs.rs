//! What exercises need read, in the workbook: the lesson says, after the
//! last section an exercise of its part needs, that the exercise is ready
//! (`x` opens it); the exercise's task pane names the sections to read
//! first, the unread marked (`L` opens the lesson at the first unread).

use super::App;
use crate::app::{Effect, Screen};
use crate::content::needs::Need;
use crate::text::Note;

impl App {
    /// The "ready" notes of part `part`'s lesson: for each exercise of the
    /// part that needs sections of this lesson, a note after the last
    /// block it needs here, with the exercise's index in course order.
    pub(in crate::app) fn ready_notes(&self, part: u8) -> Vec<(Note, usize)> {
        let Some(lesson) = self.course.part(part).and_then(|p| p.lesson.as_ref()) else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        for (index, ex) in self.course.exercises.iter().enumerate().filter(|(_, e)| e.part == part) {
            let last = ex
                .needs
                .iter()
                .filter(|n| n.part == part)
                .filter_map(|n| {
                    let section = lesson.sections.get(n.section)?;
                    let end = match n.sub {
                        Some(sub) => sub + n.blocks(section).len(),
                        None => section.blocks.len(),
                    };
                    Some((n.section, end.checked_sub(1)?))
                })
                .max();
            if let Some((section, after)) = last {
                let text = format!("Exercise {} is ready · x opens it", ex.number());
                notes.push((Note { section, after, text }, index));
            }
        }
        notes
    }

    /// `x` on the lesson: opens the exercise whose ready note is on screen
    /// (the first shown), else the last one above the screen.
    pub(in crate::app) fn open_ready_exercise(&mut self) -> Vec<Effect> {
        let v = &self.lesson;
        let Some(laid) = &v.laid else { return Vec::new() };
        let bottom = v.scroll + v.rows.max(1);
        let at: Vec<(usize, usize)> = laid
            .notes
            .iter()
            .zip(&v.ready)
            .filter_map(|(line, ex)| Some(((*line)?, *ex)))
            .collect();
        let shown = at.iter().find(|(line, _)| (v.scroll..bottom).contains(line));
        let above = at
            .iter()
            .filter(|(line, _)| *line < v.scroll)
            .max_by_key(|(line, _)| *line);
        match shown.or(above) {
            Some(&(_, index)) => self.open_exercise(index),
            None => {
                self.notice = Some("No exercise is ready this far in: e opens the part's first.".into());
                Vec::new()
            }
        }
    }

    /// Whether `need` counts as read: its `##` section (for a `###` one,
    /// the section that holds it) has been seen.
    pub(crate) fn need_is_read(&self, need: &Need) -> bool {
        need.section_title(&self.course)
            .is_some_and(|title| self.progress.lesson(need.part).has_seen(title))
    }

    /// `L` on an exercise: opens the lesson at the first section it needs
    /// that is unread (all read: the first), scrolled to its heading.
    pub(in crate::app) fn read_first(&mut self) -> Vec<Effect> {
        let Some(ex) = self.course.exercises.get(self.exercise.index) else {
            return Vec::new();
        };
        let needs = ex.needs.clone();
        let Some(need) = needs.iter().find(|n| !self.need_is_read(n)).or(needs.first()).cloned() else {
            self.notice = Some("This exercise names nothing to read first: l opens the lesson.".into());
            return Vec::new();
        };
        let effects = self.open_lesson(need.part);
        if self.screen == Screen::Lesson && self.lesson.part == need.part {
            self.lesson.jump_to_block(need.section, need.sub.unwrap_or(0));
            self.mark_seen();
        }
        effects
    }
}
