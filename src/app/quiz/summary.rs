//! The quiz's summary, after the last question: each question with its
//! mark, then each question missed at the first try with the keyed answer,
//! its explanation and its section, which `o` opens in the lesson.

use super::QuizLook;
use crate::app::{App, Effect, Screen};
use crate::content::Course;
use crate::progress::Progress;

/// The line under a wrong pick's explanation: the rule it breaks (a
/// citation or a course rule) or the real bug that shipped it.
pub fn misconception_line(m: &str) -> String {
    if crate::content::quiz::is_issue_ref(m) {
        format!("The mistake {m} shipped.")
    } else {
        format!("The rule it breaks: {m}.")
    }
}

/// The questions of part `part`'s quiz missed at the first try (answered
/// wrong first, or not answered), as indexes, in quiz order.
pub fn missed(course: &Course, progress: &Progress, part: u8) -> Vec<usize> {
    let Some(quiz) = course.part(part).and_then(|p| p.quiz.as_ref()) else {
        return Vec::new();
    };
    let record = progress.quiz(part);
    (0..quiz.questions.len())
        .filter(|&i| {
            !record
                .and_then(|r| r.answers.get(&quiz.questions[i].id))
                .is_some_and(|a| a.first_try)
        })
        .collect()
}

impl App {
    /// The summary's list, below its title and legend, laid out to the
    /// body's width: each question with its mark; then each question
    /// missed at the first try with the keyed answer, its explanation and
    /// its section (the chosen one marked `▸`: enter opens its section);
    /// then what next. Returns the lines and, per missed question, the
    /// index of its first line.
    pub fn summary_lines(&self) -> (Vec<(QuizLook, crate::text::Line)>, Vec<usize>) {
        use crate::text::{Piece, Tone, paragraphs};
        let width = usize::from(self.size.0).saturating_sub(2);
        // A question's one-line row runs to the last column but one (one
        // column of margin each side), its mark included.
        let row = usize::from(self.size.0).saturating_sub(1);
        let part = self.quiz.part;
        let Some(quiz) = self.course.part(part).and_then(|p| p.quiz.as_ref()) else {
            return (Vec::new(), Vec::new());
        };
        let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut out: Vec<(QuizLook, crate::text::Line)> = Vec::new();
        let push = |out: &mut Vec<(QuizLook, crate::text::Line)>, look, lines: Vec<crate::text::Line>| {
            out.extend(lines.into_iter().map(|l| (look, l)));
        };
        let missed = missed(&self.course, &self.progress, part);
        for (i, q) in quiz.questions.iter().enumerate() {
            let first_try = !missed.contains(&i);
            let mark = if first_try { " ✓ " } else { " ↻ " };
            // Cut as shown: code spans without their backticks.
            let text = crate::text::inline_code(&format!("{}. {}", i + 1, one_line(&q.prompt)), Tone::Plain);
            let mut line = vec![Piece::new(mark, Tone::Plain)];
            line.extend(fit_pieces(text, row.saturating_sub(3)));
            push(&mut out, QuizLook::Mark(first_try), vec![line]);
        }
        let mut starts = Vec::new();
        if !missed.is_empty() {
            push(&mut out, QuizLook::Blank, vec![Vec::new()]);
            let head = "Missed at the first try (o reads the chosen one's section):";
            push(
                &mut out,
                QuizLook::Dim,
                paragraphs(head, width, Tone::Plain, " ", "   "),
            );
            for (n, &i) in missed.iter().enumerate() {
                let q = &quiz.questions[i];
                let chosen = n == self.quiz.missed;
                starts.push(out.len());
                let lead = if chosen { " ▸ " } else { "   " };
                let title = format!("{}. {}", i + 1, one_line(&q.prompt));
                push(
                    &mut out,
                    QuizLook::Missed(chosen),
                    paragraphs(&title, width, Tone::Strong, lead, "   "),
                );
                let keyed = &q.options[q.correct()];
                push(
                    &mut out,
                    QuizLook::Keyed,
                    paragraphs(&format!("Answer: {}", keyed.text), width, Tone::Plain, "   ", "   "),
                );
                push(
                    &mut out,
                    QuizLook::Explanation(true),
                    paragraphs(&keyed.explanation, width, Tone::Plain, "   ", "   "),
                );
                if let Some(section) = &q.section {
                    push(
                        &mut out,
                        QuizLook::Section,
                        paragraphs(
                            &format!("Read: Part {}", section.name()),
                            width,
                            Tone::Plain,
                            "   ",
                            "   ",
                        ),
                    );
                }
                push(&mut out, QuizLook::Blank, vec![Vec::new()]);
            }
        } else {
            push(&mut out, QuizLook::Blank, vec![Vec::new()]);
        }
        push(
            &mut out,
            QuizLook::Dim,
            paragraphs(
                "p reviews the questions; r takes the quiz again.",
                width,
                Tone::Plain,
                " ",
                " ",
            ),
        );
        (out, starts)
    }

    /// Opens the lesson at the section that teaches the chosen missed
    /// question; esc comes back to the summary.
    pub(in crate::app) fn read_missed_section(&mut self) -> Vec<Effect> {
        let part = self.quiz.part;
        let missed = missed(&self.course, &self.progress, part);
        let Some(need) = missed.get(self.quiz.missed).and_then(|&i| {
            self.course
                .part(part)
                .and_then(|p| p.quiz.as_ref())
                .and_then(|q| q.questions.get(i))
                .and_then(|q| q.section.clone())
        }) else {
            self.notice = Some("This question names no section yet.".into());
            return Vec::new();
        };
        // The jump keeps the way back: esc returns to the summary, and from
        // there to the lesson place the quiz was opened from, if any (not
        // to the section read last).
        let back = self.back.clone();
        let behind = match self.lesson_behind.take() {
            None if back.last() == Some(&Screen::Lesson) => Some((self.lesson.part, self.lesson.place())),
            kept => kept,
        };
        let effects = self.open_lesson(need.part);
        if self.screen == Screen::Lesson {
            self.back = back;
            self.back.push(Screen::Quiz);
            self.lesson_behind = behind;
            self.lesson.jump_to_section(need.section);
        }
        effects
    }
}

/// `pieces` cut to `width` columns, ending with `…` when cut.
fn fit_pieces(pieces: Vec<crate::text::Piece>, width: usize) -> Vec<crate::text::Piece> {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    if pieces.iter().map(|p| p.text.width()).sum::<usize>() <= width {
        return pieces;
    }
    let mut out: Vec<crate::text::Piece> = Vec::new();
    let mut used = 0;
    'pieces: for piece in pieces {
        let mut text = String::new();
        for c in piece.text.chars() {
            let w = c.width().unwrap_or(0);
            if used + w + 1 > width {
                out.push(crate::text::Piece::new(text, piece.tone));
                break 'pieces;
            }
            text.push(c);
            used += w;
        }
        out.push(crate::text::Piece::new(text, piece.tone));
    }
    out.push(crate::text::Piece::new("…", crate::text::Tone::Plain));
    out
}
