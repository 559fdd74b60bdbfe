//! Folding and opening asides: `a` the one in focus (the first whose head
//! is on screen), `A` every aside of the section at the top of the screen.
//! The top line keeps its place ([`super::LessonView::place`]): what the
//! reader was looking at does not move.

use super::App;

impl App {
    /// Opens the aside in focus, or folds it.
    pub(in crate::app) fn toggle_focused_aside(&mut self) {
        let Some(aside) = self.lesson.focused() else {
            self.notice = Some("No aside on screen: a opens or folds the first ▸ line shown.".into());
            return;
        };
        let key = (aside.section, aside.block);
        if !self.lesson.open.remove(&key) {
            self.lesson.open.insert(key);
        }
        self.refold();
    }

    /// Opens every aside of the section at the top of the screen when any
    /// of them is folded; folds them all otherwise.
    pub(in crate::app) fn toggle_section_asides(&mut self) {
        let Some(laid) = &self.lesson.laid else { return };
        let section = laid.section_at(self.lesson.scroll);
        let keys: Vec<(usize, usize)> = laid
            .asides
            .iter()
            .filter(|a| a.section == section)
            .map(|a| (a.section, a.block))
            .collect();
        if keys.is_empty() {
            let title = &laid.sections[section].title;
            self.notice = Some(format!("{title} has no asides."));
            return;
        }
        if keys.iter().any(|k| !self.lesson.open.contains(k)) {
            self.lesson.open.extend(keys);
        } else {
            keys.iter().for_each(|k| {
                self.lesson.open.remove(k);
            });
        }
        self.refold();
    }

    /// Lays the lesson out again after the open asides changed, the top
    /// line at the same place.
    fn refold(&mut self) {
        self.lesson.invalidate();
        self.lay_out_lesson();
    }
}
