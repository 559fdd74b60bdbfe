//! The exercise view: the case list on the left; on the right the pane
//! that [`crate::app`] laid out (the task, the selected case, the build
//! output, the hints, or the reference solution), sliced at its scroll
//! offset and styled.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use crate::app::keys::When;
use crate::app::{App, CheckState, Pane, PaneLine};
use crate::check::Status;

const SPINNER: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

pub(super) fn header(app: &App) -> (String, String) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return (String::new(), String::new());
    };
    let title = format!("{} {} · Part {}", ex.number(), ex.slug(), ex.part);
    // Several files: the folder and how many (the task lists them).
    let file = match ex.files.as_slice() {
        [one] => format!("exercises/{}/{one}", ex.id),
        files => format!("exercises/{}/ ({} files)", ex.id, files.len()),
    };
    let right = match &app.watch_error {
        None => format!("watching {file}"),
        Some(_) => format!("edit {file} · c checks (watching off)"),
    };
    // On a narrow terminal the part number goes first (the map and the
    // lesson say it), then "watching": the path stays whole.
    use unicode_width::UnicodeWidthStr;
    let fits = |title: &str, right: &str| title.width() + right.width() + 4 <= usize::from(app.size().0);
    let short = format!("{} {}", ex.number(), ex.slug());
    match () {
        _ if fits(&title, &right) => (title, right),
        _ if fits(&short, &right) || app.watch_error.is_some() => (short, right),
        _ => (title, file),
    }
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let pane = if !app.shows_case_list() {
        area
    } else {
        let [list, pane] = Layout::horizontal([Constraint::Length(app.list_width()), Constraint::Min(1)]).areas(area);
        draw_cases(frame, list, app, theme);
        pane
    };
    let lines = &app.exercise.lines;
    let rows = pane.height as usize;
    let scroll = app.exercise.scroll.min(lines.len().saturating_sub(rows));
    let (shown, hidden) = super::visible_rows(lines, scroll, rows);
    let mut visible: Vec<Line> = shown.iter().map(|l| styled(l, theme)).collect();
    if hidden > 0 {
        let key = super::key_for(crate::app::Screen::Exercise, crate::app::keys::Action::PageDown);
        visible.push(super::more_line(hidden, &key, theme));
    }
    let inner = pane.inner(ratatui::layout::Margin {
        horizontal: 1,
        vertical: 0,
    });
    frame.render_widget(Paragraph::new(visible), inner);
    if app.links {
        file_links(frame, inner, shown.iter());
    }
}

/// Makes each source location the pane shows (a compiler message's, a
/// panic's: `exercises/03-handshake-gate/src/lib.rs:135:37`) a `file://`
/// link (OSC 8) to its file, where the file exists as seen from where
/// mcplings started.
fn file_links<'a>(frame: &mut Frame, area: Rect, lines: impl Iterator<Item = &'a PaneLine>) {
    use unicode_width::UnicodeWidthStr;
    let Some(from) = crate::paths::start_dir() else {
        return;
    };
    for (row, line) in lines.enumerate() {
        let text: String = line.runs.iter().map(|r| r.text.as_str()).collect();
        for (range, path) in crate::paths::locations(&text, &from) {
            let col = |byte: usize| area.x + u16::try_from(text[..byte].width()).unwrap_or(u16::MAX);
            let y = area.y + u16::try_from(row).unwrap_or(u16::MAX);
            let url = format!("file://{}", path.display()).replace(' ', "%20");
            super::hyperlink(frame.buffer_mut(), area, (col(range.start), col(range.end)), y, &url);
        }
    }
}

fn mark(status: Option<Status>, running: bool, app: &App, theme: &Theme) -> Span<'static> {
    match (status, running) {
        (_, true) => Span::styled(SPINNER[(app.ticks as usize) % SPINNER.len()].to_string(), theme.warn),
        (Some(Status::Passed), _) => Span::styled("✓", theme.ok),
        (Some(Status::Failed), _) => Span::styled("✗", theme.fail),
        _ => Span::styled("·", theme.dim),
    }
}

/// The case list: each case with its mark (the chosen one highlighted),
/// scrolled to keep the chosen case in view with a marker where cases lie
/// beyond the rows; then the check's state.
fn draw_cases(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return;
    };
    let Some(checker) = crate::check::checkers::of(ex) else {
        return;
    };
    let width = app.case_name_room();
    let mut lines = vec![Line::from(Span::styled("Cases", theme.title))];
    let (statuses, current): (Vec<Option<Status>>, Option<usize>) = match &app.exercise.check {
        CheckState::Idle => (vec![None; checker.cases.len()], None),
        CheckState::Running { cases, current, .. } => {
            (cases.iter().map(|c| c.as_ref().map(|c| c.status)).collect(), *current)
        }
        CheckState::Done(r) => (r.cases.iter().map(|c| Some(c.status)).collect(), None),
    };
    // Below the cases: a blank, the check's state, and whether it is done.
    let trailer = 2 + usize::from(app.progress.is_done(&ex.id));
    let slots = usize::from(area.height).saturating_sub(1 + trailer).max(1);
    let (start, end) = case_window(checker.cases.len(), app.exercise.selected, slots);
    if start > 0 {
        lines.push(Line::from(Span::styled(format!("▲ {start} more"), theme.dim)));
    }
    for (i, case) in checker.cases.iter().enumerate().take(end).skip(start) {
        let running = current == Some(i) && statuses.get(i).copied().flatten().is_none();
        let style = if i == app.exercise.selected && app.exercise.pane == Pane::Case {
            theme.selected
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            mark(statuses.get(i).copied().flatten(), running, app, theme),
            Span::styled(format!(" {}", super::fit(case.name, width)), style),
        ]));
    }
    if end < checker.cases.len() {
        let key = super::key_for(crate::app::Screen::Exercise, crate::app::keys::Action::Down);
        let more = checker.cases.len() - end;
        lines.push(Line::from(Span::styled(format!("▼ {more} more · {key}"), theme.dim)));
    }
    lines.push(Line::default());
    match &app.exercise.check {
        CheckState::Running { built: None, .. } => lines.push(Line::from(Span::styled(
            format!("{} building…", SPINNER[(app.ticks as usize) % SPINNER.len()]),
            theme.warn,
        ))),
        CheckState::Running { .. } => lines.push(Line::from(Span::styled("running cases…", theme.warn))),
        CheckState::Done(r) if !r.build.ok => lines.push(Line::from(Span::styled("✗ the build failed", theme.fail))),
        CheckState::Done(r) if r.passed => lines.push(Line::from(Span::styled("✓ every case passes", theme.ok))),
        CheckState::Done(r) => lines.push(Line::from(Span::styled(
            format!("{}/{} pass", r.passed_cases(), r.cases.len()),
            theme.dim,
        ))),
        CheckState::Idle => lines.push(Line::from(Span::styled("c to check", theme.dim))),
    }
    let passing_now = app.exercise.report().is_some_and(|r| r.passed);
    if app.progress.is_done(&ex.id) {
        let label = if passing_now {
            "done · s solution"
        } else {
            "passed before · s solution"
        };
        lines.push(Line::from(Span::styled(label, theme.ok)));
    }
    let block = Block::new().borders(Borders::RIGHT).border_style(theme.dim);
    frame.render_widget(
        Paragraph::new(lines).block(block),
        area.inner(ratatui::layout::Margin {
            horizontal: 1,
            vertical: 0,
        }),
    );
}

/// The cases the list shows, `start..end`, of `len` in `slots` rows: all
/// when they fit; else the chosen one always among them, and a row kept
/// for a marker on each side where cases lie beyond it.
fn case_window(len: usize, selected: usize, slots: usize) -> (usize, usize) {
    if len <= slots {
        return (0, len);
    }
    let selected = selected.min(len - 1);
    // One marker (below, or above): slots - 1 cases.
    let one = slots.saturating_sub(1).max(1);
    if selected < one {
        return (0, one);
    }
    if selected >= len - one {
        return (len - one, len);
    }
    // Both: the chosen case last but one of what shows.
    let shown = slots.saturating_sub(2).max(1);
    let start = (selected + 2).saturating_sub(shown).clamp(1, len - shown - 1);
    (start, start + shown)
}

/// A laid-out line of the pane in the theme's styles.
pub(super) fn styled(line: &PaneLine, theme: &Theme) -> Line<'static> {
    Line::from(
        line.runs
            .iter()
            .map(|r| Span::styled(r.text.clone(), theme.look(r.look)))
            .collect::<Vec<_>>(),
    )
    .patch_style(theme.look(line.look))
}

pub(super) fn footer(app: &App) -> (String, String) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return (String::new(), String::new());
    };
    let shown = app.progress.hints_shown(&ex.id);
    let statuses = match &app.exercise.check {
        CheckState::Done(r) if !r.build.ok => vec![
            format!("build failed ({:.2} s)", r.build.duration_ms as f64 / 1000.0),
            "build failed".into(),
        ],
        CheckState::Done(r) => vec![
            format!(
                "{}/{} pass · build {:.2} s",
                r.passed_cases(),
                r.cases.len(),
                r.build.duration_ms as f64 / 1000.0
            ),
            format!("{}/{} pass", r.passed_cases(), r.cases.len()),
        ],
        CheckState::Running { .. } => vec!["checking… x cancels".into(), "x cancels".into()],
        CheckState::Idle => Vec::new(),
    };
    let when = if app.exercise.pane.scrolls() {
        When::Reading
    } else {
        When::Cases
    };
    super::footer_keys(app, when, &format!("{shown}/{}", ex.hints.len()), &statuses)
}
