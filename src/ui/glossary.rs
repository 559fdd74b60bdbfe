//! The glossary screen: the terms on the left, the chosen one on the
//! right (definition, other spellings, where it is taught, spec page).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;
use crate::app::keys::When;
use crate::text::Tone;

/// Width of the term list.
const LIST: u16 = 22;

pub(super) fn header(app: &App) -> (String, String) {
    let count = app.course.glossary.as_ref().map_or(0, |g| g.terms.len());
    (
        "Glossary".into(),
        format!("term {} of {count}", (app.glossary.selected + 1).min(count)),
    )
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(glossary) = &app.course.glossary else { return };
    let [list, gap, detail] =
        Layout::horizontal([Constraint::Length(LIST), Constraint::Length(1), Constraint::Min(1)]).areas(area);
    let rows = usize::from(list.height.max(1));
    let total = glossary.terms.len();
    let selected = app.glossary.selected.min(total.saturating_sub(1));
    // The chosen term in view; while terms lie below the last row, that
    // row says how many, and the key.
    let (start, shown) = match selected.saturating_sub(rows - 1) {
        start if total <= rows || start + rows >= total => (start, rows),
        _ => {
            let shown = rows.saturating_sub(1).max(1);
            (selected.saturating_sub(shown - 1), shown)
        }
    };
    let mut lines: Vec<Line> = glossary
        .terms
        .iter()
        .enumerate()
        .skip(start)
        .take(shown)
        .map(|(i, t)| {
            let text = super::fit(&format!(" {}", t.term), usize::from(LIST) - 1);
            if i == selected {
                Line::from(Span::styled(
                    format!("{text:<width$}", width = usize::from(LIST)),
                    theme.selected,
                ))
            } else {
                Line::from(Span::raw(text))
            }
        })
        .collect();
    let hidden = total.saturating_sub(start + shown);
    if hidden > 0 {
        let key = super::key_for(crate::app::Screen::Glossary, crate::app::keys::Action::Down);
        let mut more = super::more_of(hidden, ("term", "terms"), &key, theme);
        more.spans.insert(0, Span::raw(" "));
        lines.push(more);
    }
    frame.render_widget(Paragraph::new(lines), list);
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(Span::styled("│", theme.dim));
            usize::from(gap.height)
        ]),
        gap,
    );
    let Some(term) = glossary.terms.get(selected) else {
        return;
    };
    let width = usize::from(detail.width.saturating_sub(2)).max(10);
    let plain = ratatui::style::Style::new();
    let mut lines = vec![
        Line::from(Span::styled(format!(" {}", term.term), theme.title)),
        Line::default(),
    ];
    lines.extend(super::paragraphs(
        &term.definition,
        width,
        " ",
        " ",
        Tone::Plain,
        plain,
        theme,
    ));
    lines.push(Line::default());
    if !term.variants.is_empty() {
        lines.push(Line::from(Span::styled(" Also written", theme.dim)));
        lines.extend(super::paragraphs(
            &term.variants.join(", "),
            width,
            "   ",
            "   ",
            Tone::Plain,
            plain,
            theme,
        ));
    }
    let part = app
        .course
        .part(term.part)
        .map_or(String::new(), |p| format!(" · {}", p.title));
    lines.push(Line::from(Span::styled(" Taught in", theme.dim)));
    lines.extend(super::paragraphs(
        &format!("Part {}{part} › {}", term.part, term.place()),
        width,
        "   ",
        "   ",
        Tone::Plain,
        plain,
        theme,
    ));
    lines.push(Line::from(Span::styled(" Spec", theme.dim)));
    lines.extend(super::paragraphs(
        &term.spec,
        width,
        "   ",
        "   ",
        Tone::Plain,
        plain,
        theme,
    ));
    frame.render_widget(Paragraph::new(lines), detail);
}

pub(super) fn footer(app: &App) -> (String, String) {
    super::footer_keys(app, When::Always, "", &[])
}
