//! Colours and styles, with a monochrome variant for `NO_COLOR`
//! (<https://no-color.org>): the same information through bold, italic,
//! underline and reverse video only.
//!
//! Readable on dark and light backgrounds alike: text keeps the terminal's
//! own foreground, emphasis is bold, italic, underline or faint, and colour
//! only carries a meaning (green passed, red failed or wrong, JSON strings
//! and literals). No blue, dark grey or yellow foreground: blue and dark
//! grey vanish on common dark themes, yellow on light ones.

use ratatui::style::{Color, Modifier, Style};

use crate::app::Look;
use crate::check::Status;
use crate::text::Tone;

/// The styles the views use.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Colours are off.
    pub mono: bool,
    /// Header and footer text.
    pub bar: Style,
    /// Secondary text and rules.
    pub dim: Style,
    /// A passed case, a done exercise.
    pub ok: Style,
    /// A failed case, an error.
    pub fail: Style,
    /// Warnings and "too small".
    pub warn: Style,
    /// The selected row.
    pub selected: Style,
    /// The footer notice.
    pub notice: Style,
    /// Section titles inside panes.
    pub title: Style,
}

impl Theme {
    /// The theme; `mono` when `NO_COLOR` is set.
    pub fn new(mono: bool) -> Theme {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if mono {
            return Theme {
                mono,
                bar: bold,
                dim: Style::new(),
                ok: bold,
                fail: bold,
                warn: bold,
                selected: Style::new().add_modifier(Modifier::REVERSED),
                notice: bold,
                title: bold.add_modifier(Modifier::UNDERLINED),
            };
        }
        Theme {
            mono,
            bar: bold,
            dim: Style::new().add_modifier(Modifier::DIM),
            ok: Style::new().fg(Color::Green),
            fail: Style::new().fg(Color::Red),
            warn: Style::new().fg(Color::Magenta),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            notice: bold,
            title: bold,
        }
    }

    /// The style of a laid-out text tone.
    pub fn tone(&self, tone: Tone) -> Style {
        let s = Style::new();
        if self.mono {
            return match tone {
                Tone::Title | Tone::Heading => s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                Tone::Subheading | Tone::Strong | Tone::Wrong => s.add_modifier(Modifier::BOLD),
                Tone::Emphasis | Tone::Label => s.add_modifier(Modifier::ITALIC),
                // Without colour, code is underlined so it still stands out.
                Tone::Code => s.add_modifier(Modifier::UNDERLINED),
                _ => s,
            };
        }
        match tone {
            Tone::Plain | Tone::Verbatim => s,
            Tone::Strong => s.add_modifier(Modifier::BOLD),
            Tone::Emphasis => s.add_modifier(Modifier::ITALIC),
            Tone::Code => s.fg(Color::Cyan),
            Tone::Title | Tone::Heading => s.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Tone::Subheading => s.add_modifier(Modifier::BOLD),
            Tone::Marker => s.add_modifier(Modifier::DIM),
            Tone::Label => s.add_modifier(Modifier::ITALIC),
            Tone::Wrong => s.fg(Color::Red).add_modifier(Modifier::BOLD),
            Tone::JsonKey => s,
            Tone::JsonString => s.fg(Color::Green),
            Tone::JsonLiteral => s.fg(Color::Magenta),
            Tone::JsonPunct => s.add_modifier(Modifier::DIM),
        }
    }

    /// The style of a look of the exercise's pane.
    pub fn look(&self, look: Look) -> Style {
        match look {
            Look::Plain => Style::new(),
            Look::Tone(tone) => self.tone(tone),
            Look::Title => self.title,
            Look::Dim => self.dim,
            Look::Ok => self.ok,
            Look::Fail => self.fail,
            Look::CaseName(status) => match status {
                Some(Status::Passed) => self.ok,
                Some(Status::Failed) => self.fail,
                _ => self.dim,
            }
            .patch(self.bar),
            Look::Compiler(style) => style,
            Look::Continued => Style::new().add_modifier(Modifier::DIM),
        }
    }
}
