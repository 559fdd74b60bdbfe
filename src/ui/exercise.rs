//! The exercise view: the case list on the left; on the right the task,
//! the selected case (reason, differences, transcript, stderr), the build
//! output, the hints, or the reference solution.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use crate::app::{App, CheckState, Pane};
use crate::check::{CaseReport, Direction, EntryKind, Status};
use crate::text::{Piece, Tone, hard_wrap, highlight_json};

/// Width of the case list, borders included.
const LIST_WIDTH: u16 = 31;
const SPINNER: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// Columns and rows of the right pane. The reference solution takes the
/// whole width: code wrapped into a narrow pane is hard to read.
pub fn pane_size(app: &App) -> (usize, usize) {
    let rows = app.size.1.saturating_sub(4) as usize;
    if app.exercise.pane.is_wide() {
        return (app.size.0 as usize, rows);
    }
    (app.size.0.saturating_sub(LIST_WIDTH + 1) as usize, rows)
}

/// Most transcript entries the case pane shows (the last ones).
const TRANSCRIPT_ENTRIES: usize = 60;
/// Most characters of one transcript entry the case pane shows.
const ENTRY_CHARS: usize = 600;

/// The furthest the right pane can scroll.
pub fn max_scroll(app: &App) -> usize {
    let (width, rows) = pane_size(app);
    pane_lines(app, &Theme::new(app.no_color), width)
        .len()
        .saturating_sub(rows)
}

pub(super) fn header(app: &App) -> (String, String) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return (String::new(), String::new());
    };
    let title = format!("{} {} · Part {}", ex.number(), ex.slug(), ex.part);
    let more = match ex.files.len() {
        0 | 1 => String::new(),
        n => format!(" +{}", n - 1),
    };
    let file = format!(
        "exercises/{}/{}{more}",
        ex.id,
        ex.files.first().map_or("src/lib.rs", String::as_str)
    );
    let right = match &app.watch_error {
        None => format!("watching {file}"),
        Some(_) => format!("edit {file} · c checks (watching off)"),
    };
    (title, right)
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let pane = if app.exercise.pane.is_wide() {
        area
    } else {
        let [list, pane] = Layout::horizontal([Constraint::Length(LIST_WIDTH), Constraint::Min(1)]).areas(area);
        draw_cases(frame, list, app, theme);
        pane
    };
    let (width, _) = pane_size(app);
    let lines = pane_lines(app, theme, width);
    let scroll = app
        .exercise
        .scroll
        .min(lines.len().saturating_sub(pane.height as usize));
    let visible: Vec<Line> = lines.into_iter().skip(scroll).take(pane.height as usize).collect();
    frame.render_widget(
        Paragraph::new(visible),
        pane.inner(ratatui::layout::Margin {
            horizontal: 1,
            vertical: 0,
        }),
    );
}

fn mark(status: Option<Status>, running: bool, app: &App, theme: &Theme) -> Span<'static> {
    match (status, running) {
        (_, true) => Span::styled(SPINNER[(app.ticks as usize) % SPINNER.len()].to_string(), theme.warn),
        (Some(Status::Passed), _) => Span::styled("✓", theme.ok),
        (Some(Status::Failed), _) => Span::styled("✗", theme.fail),
        _ => Span::styled("·", theme.dim),
    }
}

fn draw_cases(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return;
    };
    let Some(checker) = crate::check::checkers::of(ex) else {
        return;
    };
    let width = area.width.saturating_sub(5) as usize;
    let mut lines = vec![Line::from(Span::styled("Cases", theme.title))];
    let (statuses, current): (Vec<Option<Status>>, Option<usize>) = match &app.exercise.check {
        CheckState::Idle => (vec![None; checker.cases.len()], None),
        CheckState::Running { cases, current, .. } => {
            (cases.iter().map(|c| c.as_ref().map(|c| c.status)).collect(), *current)
        }
        CheckState::Done(r) => (r.cases.iter().map(|c| Some(c.status)).collect(), None),
    };
    for (i, case) in checker.cases.iter().enumerate() {
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

fn text_lines(text: &str, width: usize, tone: Tone, theme: &Theme) -> Vec<Line<'static>> {
    super::paragraphs(text, width, "", "", tone, Style::new(), theme)
}

fn styled_text(text: &str, width: usize, style: Style, theme: &Theme) -> Vec<Line<'static>> {
    super::paragraphs(text, width, "", "", Tone::Plain, style, theme)
}

/// Every line of the right pane, before scrolling.
pub fn pane_lines(app: &App, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let width = width.saturating_sub(2).max(10);
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    match app.exercise.pane {
        Pane::Task => {
            lines.push(Line::from(Span::styled(ex.title.clone(), theme.title)));
            lines.push(Line::default());
            for paragraph in ex.task.split("\n\n") {
                lines.extend(text_lines(paragraph.trim(), width, Tone::Plain, theme));
                lines.push(Line::default());
            }
            // One path per line: a path cut by wrapping is hard to read.
            let path = |file: &String| Span::styled(format!("exercises/{}/{file}", ex.id), theme.tone(Tone::Code));
            match ex.files.as_slice() {
                [one] => lines.extend(super::wrap_styled(
                    Line::from(vec![Span::raw("Edit "), path(one)]),
                    width,
                )),
                files => {
                    lines.push(Line::from("Edit"));
                    for file in files {
                        lines.extend(super::wrap_styled(Line::from(vec![Span::raw("  "), path(file)]), width));
                    }
                }
            }
            let how = if app.watch_error.is_some() {
                "then press c to check."
            } else {
                "and save: the check runs by itself (c checks now)."
            };
            lines.extend(styled_text(
                &format!("in your editor (o opens $EDITOR), {how} ↑↓ pick a case, h reveals a hint."),
                width,
                theme.dim,
                theme,
            ));
        }
        Pane::Build => match app.exercise.report() {
            Some(r) if !r.build.output.trim().is_empty() => {
                let title = if r.build.ok {
                    "Compiler output (the build succeeded)"
                } else {
                    "The build failed: fix the first error and save"
                };
                lines.push(Line::from(Span::styled(
                    title,
                    if r.build.ok { theme.title } else { theme.fail },
                )));
                lines.push(Line::default());
                lines.extend(
                    build_output(&r.build.output, theme)
                        .into_iter()
                        .flat_map(|l| super::wrap_styled(l, width)),
                );
                if let Some(e) = &r.error {
                    lines.extend(styled_text(e, width, theme.fail, theme));
                }
            }
            Some(r) if r.error.is_some() => {
                lines.extend(styled_text(r.error.as_deref().unwrap_or(""), width, theme.fail, theme))
            }
            _ => lines.push(Line::from(Span::styled(
                "No compiler output: the last build was clean.",
                theme.dim,
            ))),
        },
        Pane::Hints => {
            let shown = app.progress.hints_shown(&ex.id);
            for (i, hint) in ex.hints.iter().take(shown).enumerate() {
                lines.push(Line::from(Span::styled(
                    format!("Hint {} of {}", i + 1, ex.hints.len()),
                    theme.title,
                )));
                lines.extend(text_lines(hint, width, Tone::Plain, theme));
                lines.push(Line::default());
            }
            let more = if shown < ex.hints.len() {
                "h reveals the next hint."
            } else {
                "That is every hint."
            };
            lines.push(Line::from(Span::styled(more, theme.dim)));
        }
        Pane::Solution => {
            for file in &ex.files {
                let path = ex.solution_dir(&app.course.root).join(file);
                lines.extend(styled_text(
                    &format!("Reference solution: solutions/{}/{file}", ex.id),
                    width,
                    theme.title,
                    theme,
                ));
                lines.push(Line::default());
                let text =
                    std::fs::read_to_string(&path).unwrap_or_else(|e| format!("cannot read {}: {e}", path.display()));
                lines.extend(
                    text.lines()
                        .flat_map(|l| super::wrap_styled(Line::from(l.to_string()), width)),
                );
                lines.push(Line::default());
            }
        }
        Pane::Case => lines.extend(case_lines(app, theme, width)),
    }
    lines
}

fn build_output(output: &str, theme: &Theme) -> Vec<Line<'static>> {
    use ansi_to_tui::IntoText;
    if theme.mono {
        let plain = output.replace('\x1b', "");
        return plain.lines().map(|l| Line::from(l.to_string())).collect();
    }
    match output.as_bytes().into_text() {
        Ok(text) => text.lines,
        Err(_) => output.lines().map(|l| Line::from(l.to_string())).collect(),
    }
}

fn case_lines(app: &App, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return lines;
    };
    let Some(case) = crate::check::checkers::of(ex).and_then(|c| c.cases.get(app.exercise.selected)) else {
        return lines;
    };
    let report = app.exercise.selected_case();
    let (mark, style) = match report.map(|r| r.status) {
        Some(Status::Passed) => ("✓", theme.ok),
        Some(Status::Failed) => ("✗", theme.fail),
        _ => ("·", theme.dim),
    };
    lines.push(Line::from(Span::styled(
        format!("{mark} {}", case.name),
        style.patch(theme.bar),
    )));
    lines.extend(styled_text(case.about, width, theme.dim, theme));
    let Some(report) = report else {
        lines.push(Line::default());
        let text = match &app.exercise.check {
            CheckState::Running { .. } => "running…",
            _ => "Not checked yet: c checks.",
        };
        lines.push(Line::from(Span::styled(text, theme.dim)));
        return lines;
    };
    lines.push(Line::default());
    if let Some(reason) = &report.reason {
        let style = if report.status == Status::Failed {
            theme.fail
        } else {
            theme.dim
        };
        lines.extend(styled_text(reason, width, style, theme));
        lines.push(Line::default());
    }
    case_details(report, theme, width, &mut lines);
    lines
}

fn case_details(report: &CaseReport, theme: &Theme, width: usize, lines: &mut Vec<Line<'static>>) {
    if !report.differences.is_empty() {
        lines.push(Line::from(Span::styled("Differences", theme.title)));
        for d in &report.differences {
            lines.extend(styled_text(&format!("• {}", d.describe()), width, Style::new(), theme));
        }
        lines.push(Line::default());
    }
    if let (Some(e), Some(a)) = (&report.expected, &report.actual) {
        lines.extend(frame_lines("expected ", &e.to_string(), width, theme.dim, theme));
        lines.extend(frame_lines("actual   ", &a.to_string(), width, theme.dim, theme));
        lines.push(Line::default());
    }
    if !report.transcript.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("Transcript ", theme.title),
            Span::styled("▶ to your program · ◀ from it", theme.dim),
        ]));
        if report.transcript.iter().any(|e| e.kind == EntryKind::Harness) {
            lines.extend(styled_text(
                "▷ ◁ the harness calling your functions and reporting what they returned",
                width,
                theme.dim,
                theme,
            ));
        }
        // The last entries matter most (the failure is at the end), and a
        // long line is rarely read past its start: both are capped, so a
        // case that moved megabytes still shows in a few screens.
        let skip = report.transcript.len().saturating_sub(TRANSCRIPT_ENTRIES);
        if skip > 0 {
            lines.push(Line::from(Span::styled(format!("… {skip} earlier lines"), theme.dim)));
        }
        for entry in &report.transcript[skip..] {
            let style = match (entry.dir, entry.kind) {
                (_, EntryKind::Junk) => theme.fail,
                (_, EntryKind::Harness) => theme.dim,
                (Direction::ToLearner, _) => theme.tone(Tone::Label),
                (Direction::FromLearner, _) => theme.tone(Tone::JsonString),
            };
            let chars = entry.line.chars().count();
            let line = if chars > ENTRY_CHARS {
                format!(
                    "{} … ({} more characters)",
                    entry.line.chars().take(ENTRY_CHARS).collect::<String>(),
                    chars - ENTRY_CHARS
                )
            } else {
                entry.line.clone()
            };
            lines.extend(frame_lines(&format!("{} ", entry.glyph()), &line, width, style, theme));
        }
        lines.push(Line::default());
    }
    let stderr = report.stderr.trim_end();
    if !stderr.is_empty() {
        lines.push(Line::from(Span::styled("Your program's stderr", theme.title)));
        for l in stderr.lines() {
            lines.extend(super::wrap_styled(
                Line::from(Span::styled(crate::text::visible(l).into_owned(), theme.dim)),
                width,
            ));
        }
    }
}

/// A frame (or any line) behind a label, highlighted as JSON and wrapped
/// under itself.
fn frame_lines(label: &str, text: &str, width: usize, label_style: Style, theme: &Theme) -> Vec<Line<'static>> {
    let text = &crate::text::visible(text);
    let pad = " ".repeat(label.chars().count());
    let mut out = Vec::new();
    for (i, l) in hard_wrap(
        highlight_json(text),
        width,
        Piece::new(pad.clone(), Tone::Plain),
        Piece::new(pad, Tone::Plain),
    )
    .iter()
    .enumerate()
    {
        let mut line = super::styled(l, theme);
        if i == 0
            && let Some(first) = line.spans.first_mut()
        {
            *first = Span::styled(label.to_string(), label_style);
        }
        out.push(line);
    }
    out
}

pub(super) fn footer(app: &App) -> (String, String) {
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return (String::new(), String::new());
    };
    let shown = app.progress.hints_shown(&ex.id);
    let status = match &app.exercise.check {
        CheckState::Done(r) if !r.build.ok => format!("build failed ({:.2} s)", r.build.duration_ms as f64 / 1000.0),
        CheckState::Done(r) => format!(
            "{}/{} pass · build {:.2} s",
            r.passed_cases(),
            r.cases.len(),
            r.build.duration_ms as f64 / 1000.0
        ),
        CheckState::Running { .. } => "checking… x cancels".into(),
        CheckState::Idle => String::new(),
    };
    let keys = if app.exercise.pane.is_wide() {
        "↑↓ space scroll · t task · enter cases · c check · ?".to_string()
    } else {
        format!(
            "c check · h hint {shown}/{} · o edit · t task · n next · ?",
            ex.hints.len()
        )
    };
    (keys, status)
}
