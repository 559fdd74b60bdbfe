//! The course map: each part's lesson, exercises and quiz at a glance, and
//! the next step.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;
use crate::app::keys::When;
use crate::app::map::NextStep;
use crate::progress::{FAILING_NOW, Standing};

/// Lessons read + exercises done + quizzes finished, out of the total
/// written so far.
pub fn completion(app: &App) -> (usize, usize) {
    let mut done = 0;
    let mut total = 0;
    for part in app.course.parts.iter().filter(|p| p.is_written()) {
        total += 1;
        done += usize::from(app.progress.lesson(part.number).read);
        for id in &part.exercises {
            total += 1;
            done += usize::from(app.progress.is_done(id));
        }
        if let Some(quiz) = &part.quiz {
            total += 1;
            done += usize::from(app.progress.quiz_score(part.number).1 == quiz.questions.len());
        }
    }
    (done, total)
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    // The title column takes what the fixed columns leave.
    // Fixed: cursor and number 5, lesson 8, exercises 15, quiz 15 ("13/13
    // first try"); at 70 columns the longest part title (26) fits.
    let title_width = (area.width as usize).saturating_sub(43).clamp(12, 32);
    let header = format!(
        "   {:<w$}{:<8}{:<15}{}",
        "Part",
        "Lesson",
        "Exercises",
        "Quiz",
        w = title_width + 2
    );
    let mut lines = vec![Line::from(Span::styled(header, theme.dim))];
    for (i, part) in app.course.parts.iter().enumerate() {
        let cursor = if i == app.map.selected { "▸" } else { " " };
        let title = super::fit(&part.title, title_width - 1);
        let row_style = if i == app.map.selected {
            theme.selected
        } else {
            ratatui::style::Style::new()
        };
        let mut spans = vec![Span::styled(
            format!(" {cursor} {} {title:<title_width$}", part.number),
            row_style,
        )];
        if !part.is_written() {
            spans.push(Span::styled("coming later", theme.dim));
            lines.push(Line::from(spans));
            continue;
        }
        let (mark, style) = match app.progress.lesson_standing(part.number) {
            Standing::Done => ("read", theme.ok),
            Standing::Tried => ("reading", theme.warn),
            Standing::NotStarted => ("·", theme.dim),
        };
        spans.push(Span::styled(format!("{mark:<8}"), style));
        let mut width = 0;
        for id in &part.exercises {
            let Some(ex) = app.course.exercise(id) else { continue };
            let (mark, style) = match app.progress.exercise_standing(id) {
                // Changed since its last check: what that check said may
                // no longer hold.
                Standing::Done | Standing::Tried if app.edited.contains(id) => (crate::app::CHANGED_MARK, theme.warn),
                // Passed before, failing now: apart from a pass.
                Standing::Done if app.progress.failing_now(id) => (FAILING_NOW, theme.warn),
                Standing::Done => ("✓", theme.ok),
                Standing::Tried => ("✗", theme.fail),
                Standing::NotStarted => ("·", theme.dim),
            };
            spans.push(Span::styled(format!("{mark}{}  ", ex.number()), style));
            width += 5;
        }
        spans.push(Span::raw(" ".repeat(15usize.saturating_sub(width))));
        if let Some(quiz) = &part.quiz {
            let (first, solved) = app.progress.quiz_score(part.number);
            let style = if solved == quiz.questions.len() {
                theme.ok
            } else {
                theme.dim
            };
            let total = quiz.questions.len();
            let text = match solved {
                0 => format!("–/{total}"),
                s if s == total => format!("{first}/{total} first try"),
                s => format!("{s}/{total} answered"),
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    let failing: Vec<&str> = app
        .course
        .exercises
        .iter()
        .filter(|e| app.progress.failing_now(&e.id))
        .map(|e| e.number())
        .collect();
    if !failing.is_empty() {
        // What the mark means, under the table while one shows.
        let which = failing.join(", ");
        lines.push(Line::from(Span::styled(
            super::fit(
                &format!(" {FAILING_NOW} passed before, failing now: {which} (its last check failed)"),
                area.width as usize,
            ),
            theme.warn,
        )));
    }
    let edited: Vec<&str> = app
        .course
        .exercises
        .iter()
        .filter(|e| app.edited.contains(&e.id) && app.progress.exercise_standing(&e.id) != Standing::NotStarted)
        .map(|e| e.number())
        .collect();
    if !edited.is_empty() {
        lines.push(Line::from(Span::styled(
            super::fit(
                &format!(
                    " {} changed since its last check: {} (open it to check it again)",
                    crate::app::CHANGED_MARK,
                    edited.join(", ")
                ),
                area.width as usize,
            ),
            theme.warn,
        )));
    }
    lines.push(Line::default());
    if app.course_complete() {
        let width = (area.width as usize).max(20);
        let (summary, next) = complete_text(app);
        lines.extend(super::paragraphs(
            &summary,
            width,
            " ",
            " ",
            crate::text::Tone::Plain,
            theme.ok,
            theme,
        ));
        lines.push(Line::default());
        lines.extend(super::paragraphs(
            &next,
            width,
            " ",
            " ",
            crate::text::Tone::Plain,
            ratatui::style::Style::new(),
            theme,
        ));
    } else {
        // Word-wrapped by the course's one rule, under its label.
        use crate::text::{Piece, Tone};
        let pieces = [
            Piece::new("Next:", Tone::Strong),
            Piece::new(format!(" {}", next_text(app)), Tone::Plain),
        ];
        let width = usize::from(area.width).saturating_sub(1).max(20);
        let blank = Piece::new(" ", Tone::Plain);
        for line in crate::text::wrap(&pieces, width, blank.clone(), blank) {
            let spans: Vec<Span> = line
                .into_iter()
                .map(|p| {
                    let style = if p.tone == Tone::Strong {
                        theme.title
                    } else {
                        ratatui::style::Style::new()
                    };
                    Span::styled(p.text, style)
                })
                .collect();
            lines.push(Line::from(spans));
        }
    }
    if let Some(reason) = &app.watch_error {
        lines.push(Line::default());
        lines.extend(super::paragraphs(
            &format!("File watching is off ({reason}): press c in an exercise to check it."),
            usize::from(area.width).saturating_sub(1).max(20),
            " ",
            " ",
            crate::text::Tone::Plain,
            theme.warn,
            theme,
        ));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn next_text(app: &App) -> String {
    match app.next_step() {
        NextStep::Lesson(p) => {
            let title = app.course.part(p).map_or("", |p| p.title.as_str());
            format!("read the lesson of Part {p}, {title}. Press n.")
        }
        NextStep::Exercise(i) => {
            let ex = &app.course.exercises[i];
            let last = app.progress.exercises.get(&ex.id).and_then(|e| e.last_check);
            match last {
                Some((passed, total)) => format!(
                    "{} {}: {passed} of {total} cases pass. Press n to continue.",
                    ex.number(),
                    ex.slug()
                ),
                None => format!("exercise {} {}. Press n to start.", ex.number(), ex.slug()),
            }
        }
        NextStep::Quiz(p) => format!("the quiz of Part {p}. Press n."),
        NextStep::Done => {
            let coming: Vec<String> = app
                .course
                .parts
                .iter()
                .filter(|p| !p.is_written())
                .map(|p| p.number.to_string())
                .collect();
            format!(
                "you have done everything written so far. Part {} is coming.",
                coming.join(", ")
            )
        }
    }
}

/// The course-complete panel's two paragraphs: the learner's results, and
/// where to go next.
fn complete_text(app: &App) -> (String, String) {
    let exercises = app.course.exercises.len();
    let (mut questions, mut first) = (0, 0);
    for part in &app.course.parts {
        if let Some(quiz) = &part.quiz {
            questions += quiz.questions.len();
            first += app.progress.quiz_score(part.number).0;
        }
    }
    let hints: usize = app
        .course
        .exercises
        .iter()
        .map(|e| app.progress.hints_shown(&e.id))
        .sum();
    let percent = (first * 100).checked_div(questions).unwrap_or(0);
    let summary = format!(
        "Course complete. Every lesson read, all {exercises} exercises pass their checkers ({hints} hints used), and {first} of {questions} quiz questions were right at the first try ({percent}%)."
    );
    let next = "Where next: the specification itself (modelcontextprotocol.io/specification, both revisions), the conformance suite (npm @modelcontextprotocol/conformance) against a server of your own, and a real peer to talk to (pip install mcp). Every frame you meet there now has a name.";
    (summary, next.to_string())
}

pub(super) fn footer(app: &App) -> (String, String) {
    if app.prebuilding {
        let statuses = ["preparing exercises…".to_string(), "preparing…".to_string()];
        return super::footer_keys(app, When::Always, "", &statuses);
    }
    let (done, total) = completion(app);
    // Steps: lessons read, exercises done, quizzes finished. A narrow
    // terminal gets a shorter gauge, then none, so the footer keeps its keys.
    let gauge = |cells: usize| {
        let filled = (done * cells).checked_div(total).unwrap_or(0);
        format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
    };
    let cells = if app.size().0 < 80 { 10 } else { 16 };
    let statuses = [
        format!("{} {done}/{total} steps done", gauge(cells)),
        format!("{} {done}/{total}", gauge(cells)),
        format!("{} {done}/{total}", gauge(6)),
        format!("{done}/{total} steps"),
    ];
    super::footer_keys(app, When::Always, "", &statuses)
}
