//! One key table per screen: the single source for what a key does (the
//! handlers look keys up here), for the footer, for the `?` help and for
//! docs/keys.md's table (a test compares them).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::Screen;

mod show;
mod tables;

pub use show::{docs_table, footer, key_name, names};
pub use tables::{ANSWER_KEYS, GLOBAL};
use tables::{EXERCISE, GLOSSARY, LESSON, MAP, QUIZ};

/// What a key asks for. Each screen's handler matches on the actions of
/// its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Open the help sheet.
    Help,
    /// Back to the screen before.
    Back,
    /// Close the workbook.
    Quit,
    /// Down a line, a part, a case or a term.
    Down,
    /// Up a line, a part, a case or a term.
    Up,
    /// Down a page.
    PageDown,
    /// Up a page.
    PageUp,
    /// To the top, the first.
    Top,
    /// To the bottom, the last.
    Bottom,
    /// The next section, question or exercise.
    Next,
    /// The previous section, question or exercise.
    Previous,
    /// Enter: open or show what is chosen.
    Open,
    /// The part's lesson.
    Lesson,
    /// The part's (next) exercise.
    Exercise,
    /// The part's quiz.
    Quiz,
    /// The glossary.
    Glossary,
    /// Whatever comes next in the course.
    NextStep,
    /// Reset all progress (asks first).
    ResetAll,
    /// Check the exercise now.
    Check,
    /// Cancel a running check.
    Cancel,
    /// Show the task.
    Task,
    /// Show the compiler's output.
    Build,
    /// Show the hints revealed so far.
    Hints,
    /// Reveal the next hint.
    RevealHint,
    /// Open the exercise's files in the editor.
    Edit,
    /// Show the reference solution.
    Solution,
    /// Restore the exercise's stub (asks first).
    Reset,
    /// Answer with the option of this letter.
    Answer,
    /// Take the quiz again (asks first).
    Retake,
    /// Switch the transcript between its raw lines and wide frames laid out.
    Raw,
    /// Open or fold the aside in focus (the first whose head is on screen).
    Aside,
    /// Open or fold every aside of the section at the top of the screen.
    Asides,
    /// Open the exercise a lesson's "ready" line names.
    Ready,
    /// Open the lesson at the first unread section the exercise needs.
    ReadFirst,
    /// Show the exercise's pane full-width, the case list hidden, or
    /// bring the list back.
    Wide,
}

/// When a binding shows in the footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Never: the help lists it.
    Never,
    /// Always on its screen.
    Always,
    /// The exercise's right pane shows the task or a case (↑↓ pick cases).
    Cases,
    /// The exercise's right pane is read by scrolling (hints, build
    /// output, solution).
    Reading,
    /// A quiz question is shown.
    Question,
    /// The quiz's summary is shown.
    Summary,
    /// An aside's head is on the lesson's screen.
    Aside,
}

/// One line of a screen's key table: the keys, each with its action; what
/// they do (for the help and docs/keys.md); the footer's short form and
/// when it shows. `{hints}` in a footer stands for "shown/total".
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// The keys and what each asks for.
    pub keys: &'static [(KeyCode, Action)],
    /// What they do, for the help sheet and docs/keys.md.
    pub what: &'static str,
    /// The footer's short form (empty: not in the footer).
    pub footer: &'static str,
    /// The footer's form on a narrow terminal (shorter words, the same
    /// key); [`Binding::footer`] when there is none shorter.
    pub tight: &'static str,
    /// When the footer shows it.
    pub when: When,
    /// The screen needs it in its footer: a narrow footer shortens words
    /// and drops the keys not needed first, never this one (the footer
    /// test holds every screen to it at 70 columns).
    pub need: bool,
}

const fn b(keys: &'static [(KeyCode, Action)], what: &'static str, footer: &'static str, when: When) -> Binding {
    Binding {
        keys,
        what,
        footer,
        tight: footer,
        when,
        need: false,
    }
}

impl Binding {
    /// This binding, needed in its screen's footer ([`Binding::need`]).
    const fn needed(self) -> Binding {
        Binding { need: true, ..self }
    }

    /// This binding with `tight` as its footer's narrow form.
    const fn tight(self, tight: &'static str) -> Binding {
        Binding { tight, ..self }
    }
}

/// The key table of `screen` (without [`GLOBAL`]).
pub fn table(screen: Screen) -> &'static [Binding] {
    match screen {
        Screen::Map => MAP,
        Screen::Lesson => LESSON,
        Screen::Exercise => EXERCISE,
        Screen::Quiz => QUIZ,
        Screen::Glossary => GLOSSARY,
    }
}

/// What `key` does on `screen`: its table first, then [`GLOBAL`]. Shift is
/// part of the character (`H`, `K`), other modifiers are ignored.
pub fn action(screen: Screen, key: KeyEvent) -> Option<Action> {
    table(screen)
        .iter()
        .chain(GLOBAL)
        .flat_map(|b| b.keys.iter())
        .find(|(k, _)| *k == key.code)
        .map(|(_, a)| *a)
}
