//! The key table of each screen: every binding, what it does, its
//! footer forms and whether the screen needs it there.

use ratatui::crossterm::event::KeyCode;

use super::{Action, Binding, When, b};

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

pub(super) const MAP: &[Binding] = &[
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

pub(super) const LESSON: &[Binding] = &[
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

pub(super) const EXERCISE: &[Binding] = &[
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
        "the case full-width, or beside the case list",
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

pub(super) const QUIZ: &[Binding] = &[
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
        &[
            (K::Char(' '), A::PageDown),
            (K::PageDown, A::PageDown),
            (K::PageUp, A::PageUp),
        ],
        "page down, page up (a question taller than the screen)",
        "",
        W::Never,
    ),
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

pub(super) const GLOSSARY: &[Binding] = &[
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
