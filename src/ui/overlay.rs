//! Overlays: the help sheet and confirmation dialogs.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use unicode_width::UnicodeWidthStr;

use crate::app::{Confirm, Screen, keys};
use crate::text::{Piece, Tone};

/// `rect` and a margin of one cell around it, within `area`: what an
/// overlay clears, so nothing of the screen behind it shows at its edges.
/// A side strip of 3 columns or fewer is cleared whole (the cut-off
/// letters of the text behind would be noise there).
fn with_margin(rect: Rect, area: Rect) -> Rect {
    const NARROW: u16 = 3;
    let x = if rect.x - area.x <= NARROW { area.x } else { rect.x - 1 };
    let y = rect.y.saturating_sub(1).max(area.y);
    let right_strip = (area.x + area.width).saturating_sub(rect.x + rect.width);
    let right = if right_strip <= NARROW {
        area.x + area.width
    } else {
        rect.x + rect.width + 1
    };
    let bottom = (rect.y + rect.height + 1).min(area.y + area.height);
    Rect {
        x,
        y,
        width: right - x,
        height: bottom - y,
    }
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width.saturating_sub(2));
    let h = height.min(area.height.saturating_sub(2));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Draws the help sheet for `screen`: its key table, then the keys that
/// work everywhere ([`keys::GLOBAL`]); on the exercise screen, the
/// transcript's legend too (it means nothing elsewhere). A `notice` the
/// key that opened the sheet cleared comes first, whole: the footer may
/// have cut it.
pub fn help(frame: &mut Frame, area: Rect, screen: Screen, notice: Option<&str>, theme: &Theme) {
    let mut lines = Vec::new();
    let rows: Vec<(String, &str)> = keys::table(screen)
        .iter()
        .chain(keys::GLOBAL)
        .map(|b| (keys::names(b).join(" "), b.what))
        .collect();
    let key_width = rows.iter().map(|(k, _)| k.width()).max().unwrap_or(0).min(20);
    let inner = usize::from(area.width.saturating_sub(4)).min(74);
    if let Some(notice) = notice {
        let wrapped = crate::text::wrap(
            &[Piece::new(notice, Tone::Plain)],
            inner.saturating_sub(1),
            Piece::new(" ", Tone::Plain),
            Piece::new(" ", Tone::Plain),
        );
        lines.extend(
            wrapped
                .iter()
                .map(|l| Line::from(Span::styled(crate::text::plain(l), theme.notice))),
        );
        lines.push(Line::default());
    }
    for (key, what) in &rows {
        // A long key list takes a line of its own.
        if key.width() > key_width {
            lines.push(Line::from(Span::styled(format!(" {key}"), theme.title)));
            lines.push(Line::from(vec![Span::raw(" ".repeat(key_width + 2)), Span::raw(*what)]));
            continue;
        }
        let pad = " ".repeat(key_width - key.width());
        let room = inner.saturating_sub(key_width + 2).max(10);
        let wrapped = crate::text::wrap(
            &[Piece::new(*what, Tone::Plain)],
            room,
            Piece::new("", Tone::Plain),
            Piece::new("", Tone::Plain),
        );
        for (i, part) in wrapped.iter().map(crate::text::plain).enumerate() {
            let left = if i == 0 {
                format!(" {key}{pad} ")
            } else {
                " ".repeat(key_width + 2)
            };
            lines.push(Line::from(vec![Span::styled(left, theme.title), Span::raw(part)]));
        }
    }
    if screen == Screen::Exercise {
        lines.push(Line::from(Span::styled(
            " ▶ ◀ lines to, from your program · ▷ ◁ the same, harness lines",
            theme.dim,
        )));
    }
    let rect = centered(area, inner as u16 + 2, lines.len() as u16 + 2);
    let visible = usize::from(rect.height.saturating_sub(2));
    if lines.len() > visible {
        // Cut, say so on the last line rather than lose it silently.
        lines.truncate(visible.saturating_sub(1));
        lines.push(Line::from(Span::styled(" … (docs/keys.md lists every key)", theme.dim)));
    }
    frame.render_widget(Clear, with_margin(rect, area));
    frame.render_widget(
        Paragraph::new(lines).block(Block::new().borders(Borders::ALL).title(" Keys ")),
        rect,
    );
}

/// Draws a confirmation dialog.
pub fn confirm(frame: &mut Frame, area: Rect, confirm: &Confirm, theme: &Theme) {
    let text = match confirm {
        Confirm::ResetExercise(id) => {
            format!("Restore exercises/{id} to the shipped stub? Your edits to it will be lost.")
        }
        Confirm::ResetProgress => {
            "Reset all progress: exercises done, hints, quiz answers, lessons read? Your exercise files are kept."
                .to_string()
        }
        Confirm::RetakeQuiz(part) => {
            format!("Take the quiz of Part {part} again? Your answers and score so far are cleared.")
        }
    };
    let rect = centered(area, 56, 7);
    // Word-wrapped by the course's one rule, inside the box's borders.
    let width = usize::from(rect.width.saturating_sub(2)).max(10);
    let plain = ratatui::style::Style::new();
    let mut lines = super::paragraphs(&text, width, "", "", crate::text::Tone::Plain, plain, theme);
    lines.push(Line::default());
    lines.push(Line::from(Span::styled("y yes · any other key no", theme.dim)));
    frame.render_widget(Clear, with_margin(rect, area));
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::ALL)
                .title(" Confirm ")
                .border_style(theme.warn),
        ),
        rect,
    );
}
