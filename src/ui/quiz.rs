//! The quiz: one question, its options (in the run's shuffled order), and
//! the explanation of the last pick.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;
use crate::app::keys::When;

pub(super) fn header(app: &App) -> (String, String) {
    let part = app.course.part(app.quiz.part);
    let title = part.map_or(String::new(), |p| format!("Quiz · Part {} · {}", p.number, p.title));
    let count = part.and_then(|p| p.quiz.as_ref()).map_or(0, |q| q.questions.len());
    let right = if app.quiz.finished {
        "complete".to_string()
    } else {
        format!("question {} of {count}", app.quiz.question + 1)
    };
    (title, right)
}

pub(super) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(quiz) = app.course.part(app.quiz.part).and_then(|p| p.quiz.as_ref()) else {
        return;
    };
    let record = app.progress.quiz(app.quiz.part);
    let mut lines: Vec<Line> = Vec::new();
    if app.quiz.finished {
        let (first, _) = app.progress.quiz_score(app.quiz.part);
        lines.push(Line::from(Span::styled(
            format!(
                " Quiz complete: {first} of {} right at the first try.",
                quiz.questions.len()
            ),
            theme.title,
        )));
        // The legend above the list, so that scrolling never hides it; ↻
        // only when a question took more than one try.
        let retried = quiz
            .questions
            .iter()
            .any(|q| !record.and_then(|r| r.answers.get(&q.id)).is_some_and(|a| a.first_try));
        let legend = if retried {
            " ✓ right at the first try · ↻ took more than one"
        } else {
            " ✓ right at the first try"
        };
        lines.push(Line::from(Span::styled(legend, theme.dim)));
        lines.push(Line::default());
        let (list, _) = app.summary_lines();
        lines.extend(list.iter().map(|(look, line)| styled_line(*look, line, theme)));
        // The title and the legend stay; the list below them scrolls.
        let list = lines.split_off(3.min(lines.len()));
        let [top, rest] = ratatui::layout::Layout::vertical([
            ratatui::layout::Constraint::Length(3),
            ratatui::layout::Constraint::Min(1),
        ])
        .areas(area);
        let max = list.len().saturating_sub(usize::from(rest.height));
        frame.render_widget(Paragraph::new(lines), top);
        frame.render_widget(Paragraph::new(cut(list, app.quiz.scroll.min(max), rest, theme)), rest);
        return;
    }
    // Laid out by the app (it scrolls by the same lines), styled here.
    let shown: Vec<Line> = app
        .question_lines()
        .iter()
        .map(|(look, line)| styled_line(*look, line, theme))
        .collect();
    let max = shown.len().saturating_sub(usize::from(area.height));
    frame.render_widget(Paragraph::new(cut(shown, app.quiz.scroll.min(max), area, theme)), area);
}

/// The lines `area` shows from `scroll`, the last row a marker naming the
/// scroll key while lines lie below it.
fn cut(lines: Vec<Line<'static>>, scroll: usize, area: Rect, theme: &Theme) -> Vec<Line<'static>> {
    let (shown, hidden) = super::visible_rows(&lines, scroll, usize::from(area.height));
    let mut out = shown.to_vec();
    if hidden > 0 {
        let key = super::key_for(crate::app::Screen::Quiz, crate::app::keys::Action::Down);
        let mut more = super::more_line(hidden, &key, theme);
        more.spans.insert(0, Span::raw(" "));
        out.push(more);
    }
    out
}

/// A laid-out quiz line, styled by its look.
fn styled_line(look: crate::app::QuizLook, line: &crate::text::Line, theme: &Theme) -> Line<'static> {
    use crate::app::QuizLook;
    let style = match look {
        QuizLook::Option(Some(true)) | QuizLook::Explanation(true) | QuizLook::Mark(true) => theme.ok,
        QuizLook::Option(Some(false)) | QuizLook::Explanation(false) => theme.fail,
        QuizLook::Mark(false) => theme.warn,
        QuizLook::Misconception | QuizLook::Dim | QuizLook::Section => theme.dim,
        QuizLook::Missed(true) => theme.title,
        QuizLook::Prompt
        | QuizLook::Option(None)
        | QuizLook::Blank
        | QuizLook::Frame
        | QuizLook::FrameLabel
        | QuizLook::Missed(false)
        | QuizLook::Keyed => ratatui::style::Style::new(),
    };
    super::styled(line, theme).patch_style(style)
}

pub(super) fn footer(app: &App) -> (String, String) {
    let count = app
        .course
        .part(app.quiz.part)
        .and_then(|p| p.quiz.as_ref())
        .map_or(0, |q| q.questions.len());
    let (first, solved) = app.progress.quiz_score(app.quiz.part);
    if app.quiz.finished {
        let statuses = [
            format!("{first} right at the first try"),
            format!("{first}/{count} first try"),
        ];
        return super::footer_keys(app, When::Summary, "", &statuses);
    }
    let statuses = [
        format!("{first} first try · {solved}/{count} done"),
        format!("{solved}/{count} done"),
    ];
    super::footer_keys(app, When::Question, "", &statuses)
}
