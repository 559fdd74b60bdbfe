//! One key table per screen: the single source for what a key does (the
//! handlers look keys up here), for the footer, for the `?` help and for
//! docs/keys.md's table (a test compares them).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::Screen;

mod show;

pub use show::{docs_table, footer, key_name, names};

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

use Action as A;
use KeyCode as K;
use When as W;

/// Keys that work on every screen (after the screen's own). ctrl-c is
/// handled before any table: it quits even when the terminal is too small.
pub const GLOBAL: &[Binding] = &[
    b(
        &[(K::Char('?'), A::Help)],
        "this help (any key closes it)",
        "",
        W::Never,
    ),
    b(
        &[(K::Esc, A::Back), (K::Char('q'), A::Back)],
        "back where you came from (q on the map quits)",
        "",
        W::Never,
    ),
    b(&[], "quit from anywhere", "", W::Never),
];

const MAP: &[Binding] = &[
    b(
        &[
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
        ],
        "choose a part",
        "",
        W::Never,
    ),
    // First of the footer's: the map's body says "Press n", so the
    // footer keeps it at any width.
    b(
        &[(K::Char('n'), A::NextStep)],
        "whatever comes next",
        "n next",
        W::Always,
    )
    .needed(),
    b(
        &[(K::Enter, A::Lesson), (K::Char('l'), A::Lesson)],
        "read the part's lesson",
        "enter lesson",
        W::Always,
    )
    .tight("l lesson")
    .needed(),
    b(
        &[(K::Char('e'), A::Exercise)],
        "the part's next unfinished exercise",
        "e exercise",
        W::Always,
    )
    .needed(),
    b(&[(K::Char('z'), A::Quiz)], "the part's quiz", "z quiz", W::Always).needed(),
    b(
        &[(K::Char('t'), A::Glossary)],
        "the glossary of terms",
        "t glossary",
        W::Always,
    )
    .tight("t terms")
    .needed(),
    b(
        &[(K::Char('R'), A::ResetAll)],
        "reset all progress (asks first; your files are kept)",
        "",
        W::Never,
    ),
    b(&[(K::Char('q'), A::Quit)], "quit", "", W::Never),
];

const LESSON: &[Binding] = &[
    b(
        &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
        ],
        "scroll a line",
        "",
        W::Never,
    ),
    b(
        &[
            (K::Char(' '), A::PageDown),
            (K::Char('f'), A::PageDown),
            (K::PageDown, A::PageDown),
            (K::Char('b'), A::PageUp),
            (K::PageUp, A::PageUp),
        ],
        "page down, page up",
        "space page",
        W::Always,
    )
    .needed(),
    b(
        &[
            (K::Char('n'), A::Next),
            (K::Char(']'), A::Next),
            (K::Tab, A::Next),
            (K::Right, A::Next),
        ],
        "next section",
        "n/p section",
        W::Always,
    )
    .needed(),
    b(
        &[
            (K::Char('p'), A::Previous),
            (K::Char('['), A::Previous),
            (K::BackTab, A::Previous),
            (K::Left, A::Previous),
        ],
        "previous section (its start first)",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('a'), A::Aside), (K::Char('A'), A::Asides)],
        "open or fold the aside in focus, all in the section",
        "a/A aside",
        W::Aside,
    )
    .needed(),
    b(
        &[(K::Char('g'), A::Top), (K::Char('G'), A::Bottom)],
        "top, bottom",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('e'), A::Exercise), (K::Char('z'), A::Quiz)],
        "the part's first exercise, its quiz",
        "e exercise",
        W::Always,
    )
    .needed(),
    b(
        &[(K::Char('x'), A::Ready)],
        "open the exercise a ready line names",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('t'), A::Glossary)],
        "the glossary of terms",
        "t glossary",
        W::Always,
    )
    .tight("t terms"),
];

const EXERCISE: &[Binding] = &[
    b(
        &[(K::Char('c'), A::Check), (K::Char('x'), A::Cancel)],
        "check now (saving a file checks too), cancel",
        "c check",
        W::Always,
    )
    .needed(),
    b(
        &[(K::Char('h'), A::Hints), (K::Char('H'), A::RevealHint)],
        "the hints revealed so far, reveal the next",
        "h/H hints {hints}",
        W::Always,
    )
    .needed(),
    b(
        &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
        ],
        "choose a case, or scroll hints and output",
        "↑↓ scroll",
        W::Reading,
    )
    .needed(),
    b(
        &[(K::Enter, A::Open)],
        "show the chosen case",
        "enter cases",
        W::Reading,
    )
    .needed(),
    b(
        &[(K::Char('t'), A::Task), (K::Char('b'), A::Build)],
        "the task, the compiler output",
        "t task",
        W::Cases,
    )
    .needed(),
    b(
        &[(K::Char('o'), A::Edit)],
        "open the files in $VISUAL or $EDITOR",
        "o edit",
        W::Cases,
    )
    .needed(),
    b(
        &[
            (K::Char(' '), A::PageDown),
            (K::Char('J'), A::PageDown),
            (K::PageDown, A::PageDown),
            (K::Char('K'), A::PageUp),
            (K::PageUp, A::PageUp),
        ],
        "scroll the right pane a page down, up",
        "space page",
        W::Cases,
    )
    .needed(),
    b(
        &[(K::Char('w'), A::Wide)],
        "the case and its transcript full-width, the case list hidden (again: shown)",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('v'), A::Raw)],
        "the transcript raw (as sent), or laid out",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('s'), A::Solution)],
        "the reference solution (once passed)",
        "",
        W::Never,
    ),
    b(
        &[(K::Char('r'), A::Reset)],
        "restore the shipped stub (asks first)",
        "",
        W::Never,
    ),
    b(
        &[
            (K::Char('n'), A::Next),
            (K::Right, A::Next),
            (K::Char('p'), A::Previous),
            (K::Left, A::Previous),
        ],
        "next, previous exercise (skipping is fine)",
        "",
        W::Never,
    ),
    b(
        &[
            (K::Char('l'), A::Lesson),
            (K::Char('L'), A::ReadFirst),
            (K::Char('z'), A::Quiz),
        ],
        "the lesson, what to read first, the quiz",
        "",
        W::Never,
    ),
];

/// The quiz's answer keys: one per option. Every question of the course
/// has four options (the key-table test holds the course to it).
pub const ANSWER_KEYS: &[char] = &['a', 'b', 'c', 'd'];

const QUIZ: &[Binding] = &[
    b(
        &[
            (K::Char('a'), A::Answer),
            (K::Char('b'), A::Answer),
            (K::Char('c'), A::Answer),
            (K::Char('d'), A::Answer),
        ],
        "answer",
        "a–d answer",
        W::Question,
    )
    .needed(),
    b(
        &[(K::Enter, A::Next), (K::Char('n'), A::Next), (K::Right, A::Next)],
        "next question (once answered)",
        "enter next",
        W::Question,
    )
    .needed(),
    b(
        &[(K::Char('p'), A::Previous), (K::Left, A::Previous)],
        "previous question; on the summary, the last one again",
        "p review",
        W::Summary,
    )
    .needed(),
    b(
        &[
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
        ],
        "scroll; on the summary, choose a missed question",
        "↑↓ scroll",
        W::Always,
    )
    .needed(),
    b(
        &[(K::Char('o'), A::Open)],
        "read the chosen missed question's section",
        "o read its section",
        W::Summary,
    )
    .tight("o section")
    .needed(),
    b(
        &[(K::Char('r'), A::Retake)],
        "take the quiz again (on its summary; asks first)",
        "r retake",
        W::Summary,
    )
    .needed(),
];

const GLOSSARY: &[Binding] = &[
    b(
        &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
        ],
        "choose a term",
        "↑↓ choose",
        W::Always,
    )
    .needed(),
    b(
        &[(K::Char('g'), A::Top), (K::Char('G'), A::Bottom)],
        "first, last term",
        "",
        W::Never,
    ),
    b(
        &[(K::Enter, A::Open)],
        "read the lesson section that teaches it",
        "enter read its section",
        W::Always,
    )
    .tight("enter read")
    .needed(),
    b(&[(K::Char('t'), A::Back)], "back where you came from", "", W::Never),
];

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
