//! The exercise's right pane laid out for its width, as the lesson is: the
//! task, the selected case (reason, differences, transcript, stderr), the
//! build output, the hints, or the reference solution, as lines of text
//! runs that each carry a [`Look`]. The view (`ui`) only slices
//! these lines and turns each look into a style; it lays nothing out.

mod ansi;
mod case;

pub use case::{entry_lines, transcript_title};

use ratatui::style::Style;

use super::{App, Pane};
use crate::check::Status;
use crate::text::Tone;

/// Width of the exercise screen's case list, borders included.
pub const LIST_WIDTH: u16 = 31;

/// How a run of the pane's text looks; the view picks the style.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Look {
    /// No style of its own.
    Plain,
    /// A laid-out text tone (code, JSON, labels).
    Tone(Tone),
    /// A title inside the pane.
    Title,
    /// Secondary text.
    Dim,
    /// Something that passed.
    Ok,
    /// A failure, an error.
    Fail,
    /// The selected case's name, in the look of its status (none yet: not
    /// checked), as strong as the bars.
    CaseName(Option<Status>),
    /// The compiler's own colours, as its output asked for them.
    Compiler(Style),
    /// The mark at the start of a line continued by wrapping.
    Continued,
}

/// A run of text with one look.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The text (no newlines).
    pub text: String,
    /// How it looks.
    pub look: Look,
}

impl Run {
    /// A run of `text` that looks like `look`.
    pub fn new(text: impl Into<String>, look: Look) -> Run {
        Run {
            text: text.into(),
            look,
        }
    }
}

/// One line of the pane: its runs, and a look laid over all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct PaneLine {
    /// The runs, left to right.
    pub runs: Vec<Run>,
    /// The look of the whole line, under its runs' own.
    pub look: Look,
}

impl PaneLine {
    /// An empty line.
    pub fn blank() -> PaneLine {
        PaneLine::of(Vec::new())
    }

    /// A line of `runs`.
    pub fn of(runs: Vec<Run>) -> PaneLine {
        PaneLine {
            runs,
            look: Look::Plain,
        }
    }

    /// A line of one run.
    pub fn one(text: impl Into<String>, look: Look) -> PaneLine {
        PaneLine::of(vec![Run::new(text, look)])
    }

    /// The line's text, without looks.
    pub fn text(&self) -> String {
        self.runs.iter().map(|r| r.text.as_str()).collect()
    }
}

/// The reference solution of an exercise, as the runtime read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The exercise's id.
    pub exercise: String,
    /// Each file, relative to the solution's crate, and its text (or why it
    /// could not be read).
    pub files: Vec<(String, Result<String, String>)>,
}

/// Every line of the open exercise's right pane, for a pane `width`
/// columns wide (its margins included), before scrolling.
pub(super) fn lay_out(app: &App, width: usize) -> Vec<PaneLine> {
    let width = width.saturating_sub(2).max(10);
    let Some(ex) = app.course.exercises.get(app.exercise.index) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    match app.exercise.pane {
        Pane::Task => {
            lines.push(PaneLine::one(ex.title.clone(), Look::Title));
            lines.push(PaneLine::blank());
            lines.extend(read_first(app, ex, width));
            for paragraph in ex.task.split("\n\n") {
                lines.extend(paragraphs(paragraph.trim(), width, Tone::Plain, Look::Plain));
                lines.push(PaneLine::blank());
            }
            // One path per line: a path cut by wrapping is hard to read.
            let path = |file: &String| Run::new(format!("exercises/{}/{file}", ex.id), Look::Tone(Tone::Code));
            match ex.files.as_slice() {
                [one] => lines.extend(wrap_runs(vec![Run::new("Edit ", Look::Plain), path(one)], width)),
                files => {
                    lines.push(PaneLine::one("Edit", Look::Plain));
                    for file in files {
                        lines.extend(wrap_runs(vec![Run::new("  ", Look::Plain), path(file)], width));
                    }
                }
            }
            let how = if app.watch_error.is_some() {
                "then press c to check."
            } else {
                "and save: the check runs by itself (c checks now)."
            };
            lines.extend(paragraphs(
                &format!("in your editor (o opens $EDITOR), {how} ↑↓ pick a case, H reveals a hint, h rereads them."),
                width,
                Tone::Plain,
                Look::Dim,
            ));
        }
        Pane::Build => match app.exercise.report() {
            Some(r) if !r.build.output.trim().is_empty() => {
                let (title, look) = if r.build.ok {
                    ("Compiler output (the build succeeded)", Look::Title)
                } else {
                    ("The build failed: fix the first error and save", Look::Fail)
                };
                lines.push(PaneLine::one(title, look));
                lines.push(PaneLine::blank());
                lines.extend(
                    build_output(&r.build.output, app.no_color)
                        .into_iter()
                        .flat_map(|l| wrap_runs(l, width)),
                );
                if let Some(e) = &r.error {
                    lines.extend(paragraphs(e, width, Tone::Plain, Look::Fail));
                }
            }
            Some(r) if r.error.is_some() => lines.extend(paragraphs(
                r.error.as_deref().unwrap_or(""),
                width,
                Tone::Plain,
                Look::Fail,
            )),
            _ => lines.push(PaneLine::one(
                "No compiler output: the last build was clean.",
                Look::Dim,
            )),
        },
        Pane::Hints => {
            let shown = app.progress.hints_shown(&ex.id);
            for (i, hint) in ex.hints.iter().take(shown).enumerate() {
                lines.push(PaneLine::one(hint_title(i + 1, ex.hints.len()), Look::Title));
                lines.extend(paragraphs(hint, width, Tone::Plain, Look::Plain));
                lines.push(PaneLine::blank());
            }
            let more = match (shown, app.hint_for_failing(ex)) {
                (_, Some((n, case))) if n > shown => {
                    format!(
                        "Hint {n} of {} is about the failing case “{case}”: H reveals up to it.",
                        ex.hints.len()
                    )
                }
                (0, _) => format!("No hint revealed yet. H reveals the first of {}.", ex.hints.len()),
                (n, _) if n < ex.hints.len() => format!(
                    "H reveals hint {} of {}. ↑↓ scroll, enter goes back to the cases.",
                    n + 1,
                    ex.hints.len()
                ),
                (_, _) => "That is every hint. ↑↓ scroll, enter goes back to the cases.".to_string(),
            };
            lines.extend(paragraphs(&more, width, Tone::Plain, Look::Dim));
        }
        Pane::Solution => match app.exercise.solution.as_ref().filter(|s| s.exercise == ex.id) {
            Some(solution) => {
                for (file, text) in &solution.files {
                    lines.extend(paragraphs(
                        &format!("Reference solution: solutions/{}/{file}", ex.id),
                        width,
                        Tone::Plain,
                        Look::Title,
                    ));
                    lines.push(PaneLine::blank());
                    let text = match text {
                        Ok(text) | Err(text) => text,
                    };
                    lines.extend(
                        text.lines()
                            .flat_map(|l| wrap_runs(vec![Run::new(l, Look::Plain)], width)),
                    );
                    lines.push(PaneLine::blank());
                }
            }
            // Not read yet: the runtime is reading it.
            None => lines.push(PaneLine::one("Reading the reference solution…", Look::Dim)),
        },
        Pane::Case => lines.extend(case::lines(app, width)),
    }
    lines
}

/// The task's "Read first" line: the lesson sections the exercise needs
/// and has not read yet (`○`, strong), on one line when they fit the pane,
/// else one per line under "Read first:", every one of them; then the
/// key that opens the first unread, and how many are read already. When every one is read, one line says so. Nothing for an
/// exercise that names none.
fn read_first(app: &App, ex: &crate::content::Exercise, width: usize) -> Vec<PaneLine> {
    use crate::text::Piece;
    use unicode_width::UnicodeWidthStr;
    if ex.needs.is_empty() {
        return Vec::new();
    }
    let unread: Vec<_> = ex.needs.iter().filter(|n| !app.need_is_read(n)).collect();
    let read = ex.needs.len() - unread.len();
    let mut lines = Vec::new();
    if unread.is_empty() {
        let all = if read == 1 {
            "Read first: done, you have read the section it needs. L opens it again."
        } else {
            "Read first: done, you have read every section it needs. L opens the first again."
        };
        lines.extend(paragraphs(all, width, Tone::Plain, Look::Dim));
        lines.push(PaneLine::blank());
        return lines;
    }
    let label = Piece::new("Read first:", Tone::Strong);
    let names: Vec<Piece> = unread
        .iter()
        .map(|need| Piece::new(format!("○ {}", need.name()), Tone::Strong))
        .collect();
    let one_line = names.iter().map(|p| p.text.width() + 3).sum::<usize>() + label.text.width() - 2;
    let none = || Piece::new("", Tone::Plain);
    if one_line <= width {
        let mut pieces = vec![label, Piece::new(" ", Tone::Plain)];
        for (i, name) in names.into_iter().enumerate() {
            if i > 0 {
                pieces.push(Piece::new(" · ", Tone::Plain));
            }
            pieces.push(name);
        }
        lines.push(PaneLine::of(toned(pieces)));
    } else {
        lines.push(PaneLine::of(toned(vec![label])));
        for name in names {
            let wrapped = crate::text::wrap(&[name], width, none(), Piece::new("  ", Tone::Plain));
            lines.extend(wrapped.into_iter().map(|l| PaneLine::of(toned(l))));
        }
    }
    let mut key = String::from("L opens the first.");
    if read > 0 {
        key.push_str(&format!(" ({read} read already.)"));
    }
    lines.extend(paragraphs(&key, width, Tone::Plain, Look::Dim));
    lines.push(PaneLine::blank());
    lines
}

/// The title line of hint `n` (from 1) of `of` in the hints pane.
pub(super) fn hint_title(n: usize, of: usize) -> String {
    format!("Hint {n} of {of}")
}

/// The compiler's output as runs: its own colours, or, without colour,
/// its text with the escape characters taken out.
fn build_output(output: &str, no_color: bool) -> Vec<Vec<Run>> {
    if no_color {
        let plain = output.replace('\x1b', "");
        return plain.lines().map(|l| vec![Run::new(l, Look::Plain)]).collect();
    }
    ansi::styled_lines(output)
        .into_iter()
        .map(|line| {
            line.into_iter()
                .map(|(text, style)| Run::new(text, Look::Compiler(style)))
                .collect()
        })
        .collect()
}

/// Plain text (paragraphs split at `\n`, `backtick` spans as code) wrapped
/// to `width`, with `look` laid over each line. Characters a terminal would
/// not show are escaped ([`visible`]): some of this text is learners'.
fn paragraphs(text: &str, width: usize, tone: Tone, look: Look) -> Vec<PaneLine> {
    crate::text::paragraphs(text, width, tone, "", "")
        .into_iter()
        .map(|l| PaneLine { runs: toned(l), look })
        .collect()
}

/// The pieces of a laid-out line as runs in their tones.
fn toned(line: crate::text::Line) -> Vec<Run> {
    line.into_iter().map(|p| Run::new(p.text, Look::Tone(p.tone))).collect()
}

/// Breaks a line of runs into lines of at most `width` columns, keeping
/// each character's look (for compiler output, stderr and code, which must
/// not lose their ends). Continued lines start with a dotted bar, as
/// wrapped frames do.
fn wrap_runs(runs: Vec<Run>, width: usize) -> Vec<PaneLine> {
    use unicode_width::UnicodeWidthChar;
    let width = width.max(8);
    let mut out = Vec::new();
    let mut current: Vec<Run> = Vec::new();
    let mut used = 0;
    for run in runs {
        let mut text = String::new();
        for c in run.text.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width {
                if !text.is_empty() {
                    current.push(Run::new(std::mem::take(&mut text), run.look));
                }
                out.push(PaneLine::of(std::mem::take(&mut current)));
                current.push(Run::new("┆ ", Look::Continued));
                used = 2;
            }
            text.push(c);
            used += w;
        }
        if !text.is_empty() {
            current.push(Run::new(text, run.look));
        }
    }
    out.push(PaneLine::of(current));
    out
}
