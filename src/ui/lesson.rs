//! The lesson reader.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;
use crate::app::keys::When;

pub(super) fn header(app: &App) -> (String, String) {
    let title = app
        .course
        .part(app.lesson.part)
        .map_or(String::new(), |p| format!("Part {} · {}", p.number, p.title));
    let Some(laid) = &app.lesson.laid else {
        return (title, String::new());
    };
    let section = app.lesson.section();
    let name = laid.sections.get(section).map_or("", |s| s.title.as_str());
    let rows = app.body_rows();
    let max = laid.lines.len().saturating_sub(rows).max(1);
    let percent = (app.lesson.scroll.min(max) * 100 / max).min(100);
    // The section's name whole when the title leaves room for it; else
    // the title goes short ("Part 1"), and only then is the name cut.
    use unicode_width::UnicodeWidthStr;
    let place = format!("§{}/{} ", section + 1, laid.sections.len());
    let tail = format!(" · {percent}%");
    let room = |title: &str| usize::from(app.size().0).saturating_sub(title.width() + place.width() + tail.width() + 5);
    let title = if name.width() <= room(&title) {
        title
    } else {
        format!("Part {}", app.lesson.part)
    };
    let right = format!("{place}{}{tail}", super::fit(name, room(&title)));
    (title, right)
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(laid) = &app.lesson.laid else { return };
    let rows = area.height as usize;
    let start = app.lesson.scroll.min(laid.lines.len());
    // The aside in focus: its head in reverse video (read under NO_COLOR too).
    let focus = app.lesson.focused().map_or(0..0, |a| a.head.clone());
    let (shown, hidden) = super::visible_rows(&laid.lines, start, rows);
    let mut lines: Vec<Line> = shown
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut line = super::styled(l, theme);
            if focus.contains(&(start + i)) {
                line = line.patch_style(theme.selected);
            }
            line.spans.insert(0, ratatui::text::Span::raw(" "));
            line
        })
        .collect();
    if hidden > 0 {
        let key = super::key_for(crate::app::Screen::Lesson, crate::app::keys::Action::PageDown);
        let mut more = super::more_line(hidden, &key, theme);
        more.spans.insert(0, ratatui::text::Span::raw(" "));
        lines.push(more);
    }
    frame.render_widget(Paragraph::new(lines), area);
    if app.links {
        let shown: Vec<String> = shown.iter().map(crate::text::plain).collect();
        for link in crate::text::cite::links(&shown) {
            // One column of margin, as drawn above.
            let y = area.y + u16::try_from(link.line).unwrap_or(u16::MAX);
            let x = |col: usize| area.x + 1 + u16::try_from(col).unwrap_or(u16::MAX);
            super::hyperlink(
                frame.buffer_mut(),
                area,
                (x(link.cols.start), x(link.cols.end)),
                y,
                &link.url,
            );
        }
    }
}

pub(super) fn footer(app: &App) -> (String, String) {
    let when = if app.lesson.focused().is_some() {
        When::Aside
    } else {
        When::Always
    };
    super::footer_keys(app, when, "", &[])
}
