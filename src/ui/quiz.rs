//! The quiz: one question, its options (in the run's shuffled order), and
//! the explanation of the last pick.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::app::App;
use crate::app::keys::When;
use crate::text::{Tone, inline_code};

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
    let width = area.width.saturating_sub(2) as usize;
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
        for (i, q) in quiz.questions.iter().enumerate() {
            let first_try = record.and_then(|r| r.answers.get(&q.id)).is_some_and(|a| a.first_try);
            let (mark, style) = if first_try {
                ("✓", theme.ok)
            } else {
                ("↻", theme.warn)
            };
            let prompt = q.prompt.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = super::fit(&format!("{}. {prompt}", i + 1), width.saturating_sub(3));
            let mut spans = vec![Span::styled(format!(" {mark} "), style)];
            spans.extend(
                inline_code(&text, Tone::Plain)
                    .into_iter()
                    .map(|p| Span::styled(p.text, theme.tone(p.tone))),
            );
            lines.push(Line::from(spans));
        }
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            " p reviews the questions; r takes the quiz again.",
            theme.dim,
        )));
        // The title and the legend stay; the list below them scrolls.
        let list = lines.split_off(3.min(lines.len()));
        let [top, rest] = ratatui::layout::Layout::vertical([
            ratatui::layout::Constraint::Length(3),
            ratatui::layout::Constraint::Min(1),
        ])
        .areas(area);
        let max = list.len().saturating_sub(usize::from(rest.height));
        let scroll = app.quiz.scroll.min(max) as u16;
        frame.render_widget(Paragraph::new(lines), top);
        frame.render_widget(Paragraph::new(list).scroll((scroll, 0)), rest);
        return;
    }
    // Laid out by the app (it scrolls by the same lines), styled here.
    use crate::app::QuizLook;
    let shown: Vec<Line> = app
        .question_lines()
        .iter()
        .map(|(look, line)| {
            let style = match look {
                QuizLook::Option(Some(true)) | QuizLook::Explanation(true) => theme.ok,
                QuizLook::Option(Some(false)) | QuizLook::Explanation(false) => theme.fail,
                QuizLook::Prompt | QuizLook::Option(None) | QuizLook::Blank => ratatui::style::Style::new(),
            };
            super::styled(line, theme).patch_style(style)
        })
        .collect();
    let max = shown.len().saturating_sub(usize::from(area.height));
    let scroll = u16::try_from(app.quiz.scroll.min(max)).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(shown).scroll((scroll, 0)), area);
}

pub(super) fn footer(app: &App) -> (String, String) {
    if app.quiz.finished {
        let (first, _) = app.progress.quiz_score(app.quiz.part);
        let status = format!("{first} right at the first try");
        return (super::footer_keys(app, When::Summary, "", &status), status);
    }
    let count = app
        .course
        .part(app.quiz.part)
        .and_then(|p| p.quiz.as_ref())
        .map_or(0, |q| q.questions.len());

    let (first, solved) = app.progress.quiz_score(app.quiz.part);
    let status = format!("{first} first try · {solved}/{count} done");
    (super::footer_keys(app, When::Question, "", &status), status)
}
