//! Drawing the workbook from an immutable [`App`]: a header, the screen's
//! body, a footer with the keys that work here, and overlays (help,
//! confirmations). Nothing here changes state, reads files or lays out
//! long text: the lesson and the exercise's right pane come laid out from
//! [`crate::app`], and are only sliced and styled here.

mod exercise;
mod glossary;
mod lesson;
mod map;
mod overlay;
mod quiz;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::keys::{self, When};
use crate::app::{App, MIN_SIZE, Screen};

/// The footer of the screen in front in state `when`: its keys and, of
/// `statuses` (the status's forms, longest first), the one shown, fitted
/// together to the terminal's width ([`keys::footer`]).
fn footer_keys(app: &App, when: When, hints: &str, statuses: &[String]) -> (String, String) {
    keys::footer(app.screen, when, hints, statuses, usize::from(app.size.0))
}
use theme::Theme;

/// Draws the whole workbook.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let theme = Theme::new(app.no_color);
    if app.too_small() || area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!(
            "Terminal too small: mcplings needs {}×{}, this is {}×{}. Enlarge it, or press q to quit.",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        let width = usize::from(area.width).max(10);
        let lines = paragraphs(&text, width, "", "", crate::text::Tone::Plain, theme.warn, &theme);
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let [header, rule1, body, rule2, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (title, right) = match app.screen {
        Screen::Map => (format!("mcplings · {}", app.course.title), "? help  q quit".to_string()),
        Screen::Lesson => lesson::header(app),
        Screen::Exercise => exercise::header(app),
        Screen::Quiz => quiz::header(app),
        Screen::Glossary => glossary::header(app),
    };
    draw_bar(frame, header, &title, &right, &theme);
    let rule = "─".repeat(area.width as usize);
    frame.render_widget(Paragraph::new(rule.clone()).style(theme.dim), rule1);
    match &app.notice {
        Some(notice) => draw_notice(frame, rule2, notice, &theme),
        None => frame.render_widget(Paragraph::new(rule).style(theme.dim), rule2),
    }
    match app.screen {
        Screen::Map => map::draw(frame, body, app, &theme),
        Screen::Lesson => lesson::draw(frame, body, app, &theme),
        Screen::Exercise => exercise::draw(frame, body, app, &theme),
        Screen::Quiz => quiz::draw(frame, body, app, &theme),
        Screen::Glossary => glossary::draw(frame, body, app, &theme),
    }
    let (keys, status) = match app.screen {
        Screen::Map => map::footer(app),
        Screen::Lesson => lesson::footer(app),
        Screen::Exercise => exercise::footer(app),
        Screen::Quiz => quiz::footer(app),
        Screen::Glossary => glossary::footer(app),
    };
    draw_bar(frame, footer, &keys, &status, &theme);
    if let Some(confirm) = &app.confirm {
        overlay::confirm(frame, area, confirm, &theme);
    } else if app.help {
        overlay::help(frame, area, app.screen, app.last_notice.as_deref(), &theme);
    }
}

/// The text [`draw_notice`] shows on a row `width` columns wide: the
/// notice whole if it fits, else cut with a pointer to the help sheet,
/// which shows the last notice whole.
pub fn notice_line(notice: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    const MORE: &str = " (? shows it all)";
    let text = format!(" {notice}");
    if text.width() < width {
        return text;
    }
    fit(&text, width.saturating_sub(MORE.width() + 1)) + MORE
}

/// A notice on the row above the key bar (in place of the rule), on one
/// line: the key bar stays, whatever the notice's length.
fn draw_notice(frame: &mut Frame, row: Rect, notice: &str, theme: &Theme) {
    let text = notice_line(notice, usize::from(row.width));
    frame.render_widget(ratatui::widgets::Clear, row);
    frame.render_widget(Paragraph::new(text).style(theme.notice), row);
}

/// A one-line bar: `left` from the left edge, `right` against the right;
/// `right` keeps its full width and `left` is cut to fit.
fn draw_bar(frame: &mut Frame, area: Rect, left: &str, right: &str, theme: &Theme) {
    let right_width = (right.chars().count() as u16 + 1).min(area.width.saturating_sub(20));
    let [l, r] = Layout::horizontal([Constraint::Min(1), Constraint::Length(right_width)]).areas(area);
    let left = fit(&format!(" {left}"), l.width.saturating_sub(1) as usize);
    frame.render_widget(Paragraph::new(Line::from(Span::styled(left, theme.bar))), l);
    frame.render_widget(
        Paragraph::new(fit(right, r.width as usize))
            .alignment(Alignment::Right)
            .style(theme.dim),
        r,
    );
}

/// The part of `lines` a pane `rows` high shows from `scroll` (clamped by
/// the caller), and how many lines lie below it. While some do, the last
/// row is kept for the marker ([`more_line`]): nothing is cut silently.
pub fn visible_rows<T>(lines: &[T], scroll: usize, rows: usize) -> (&[T], usize) {
    let start = scroll.min(lines.len());
    let rest = &lines[start..];
    if rest.len() <= rows {
        return (rest, 0);
    }
    let shown = rows.saturating_sub(1);
    (&rest[..shown], rest.len() - shown)
}

/// The marker on the last row of a pane cut at its bottom: how many lines
/// lie below, and `key`, the key that scrolls to them.
pub fn more_line(hidden: usize, key: &str, theme: &Theme) -> Line<'static> {
    more_of(hidden, ("line", "lines"), key, theme)
}

/// [`more_line`] for a list of `what` (singular, plural): how many lie
/// below, and the key.
fn more_of(hidden: usize, what: (&str, &str), key: &str, theme: &Theme) -> Line<'static> {
    let what = if hidden == 1 { what.0 } else { what.1 };
    Line::from(Span::styled(format!("▼ {hidden} more {what} · {key}"), theme.dim))
}

/// The name of the key that does `action` on `screen`, for a marker.
fn key_for(screen: Screen, action: keys::Action) -> String {
    keys::table(screen)
        .iter()
        .flat_map(|b| b.keys.iter())
        .find(|(_, a)| *a == action)
        .map_or_else(String::new, |(k, _)| keys::key_name(*k))
}

/// Converts a laid-out line of [`crate::text`] into a styled ratatui line.
pub fn styled(line: &crate::text::Line, theme: &Theme) -> Line<'static> {
    Line::from(
        line.iter()
            .map(|p| Span::styled(p.text.clone(), theme.tone(p.tone)))
            .collect::<Vec<_>>(),
    )
}

/// A laid-out pane line ([`crate::app::PaneLine`]) in the theme's styles,
/// as the exercise pane draws it.
pub fn pane_line(line: &crate::app::PaneLine, theme: &Theme) -> Line<'static> {
    exercise::styled(line, theme)
}

/// The course map's footer: key help on the left; progress, or that the
/// exercises are being prepared, on the right.
pub fn map_footer(app: &App) -> (String, String) {
    map::footer(app)
}

/// Makes columns `cols.0..cols.1` of row `y` a hyperlink to `url` (OSC 8),
/// within `area`. A cell holds one grapheme, so the sequences ride in the
/// symbols of the first and last cell, each forced to the one column it
/// shows (`CellDiffOption::ForcedWidth`): the buffer's width accounting,
/// and so the diff, stay those of the plain text.
pub fn hyperlink(buf: &mut ratatui::buffer::Buffer, area: Rect, cols: (u16, u16), y: u16, url: &str) {
    use ratatui::buffer::CellDiffOption;
    let end = cols.1.min(area.right());
    if cols.0 >= end || y >= area.bottom() {
        return;
    }
    // A URL with control characters could end the sequence early.
    if url.chars().any(char::is_control) {
        return;
    }
    let one = CellDiffOption::ForcedWidth(std::num::NonZeroU16::MIN);
    let open = format!("\x1b]8;;{url}\x1b\\");
    let close = "\x1b]8;;\x1b\\";
    let first = &mut buf[(cols.0, y)];
    let symbol = format!("{open}{}", first.symbol());
    first.set_symbol(&symbol).set_diff_option(one);
    let last = &mut buf[(end - 1, y)];
    let symbol = format!("{}{close}", last.symbol());
    last.set_symbol(&symbol).set_diff_option(one);
}

/// Cuts `s` to `width` columns, ending with `…` when cut.
pub fn fit(s: &str, width: usize) -> String {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    if s.width() <= width {
        return s.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Plain text (paragraphs split at `\n`, `backtick` spans as code) wrapped
/// to `width`: the first line starts with `first`, the others with `rest`,
/// and `style` is laid over it all. Characters a terminal would not show
/// are escaped ([`crate::text::visible`]): some of this text is learners'.
pub fn paragraphs(
    text: &str,
    width: usize,
    first: &str,
    rest: &str,
    tone: crate::text::Tone,
    style: ratatui::style::Style,
    theme: &Theme,
) -> Vec<Line<'static>> {
    crate::text::paragraphs(text, width, tone, first, rest)
        .iter()
        .map(|l| styled(l, theme).patch_style(style))
        .collect()
}
