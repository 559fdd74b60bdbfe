//! The term-order check of `verify`: every use of a glossary term before
//! the section that teaches it, in reading order (Part N's lesson, then
//! its tasks and hints, then its quiz), as a `file:line` error.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::super::error::{ContentError, LineIndex};
use super::super::{Course, Part};
use super::{GLOSSARY, Glossary};

#[derive(Deserialize)]
struct ExercisesText {
    #[serde(default)]
    exercises: Vec<ExerciseText>,
}

#[derive(Deserialize)]
struct ExerciseText {
    task: Spanned<String>,
    hints: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
struct QuizText {
    questions: Vec<QuestionText>,
}

#[derive(Deserialize)]
struct QuestionText {
    prompt: Spanned<String>,
    options: Vec<OptionText>,
}

#[derive(Deserialize)]
struct OptionText {
    text: Spanned<String>,
    explanation: Spanned<String>,
}

/// Every use of a term before the section that teaches it, as
/// `file:line` errors in reading order; a glossary section that does not
/// exist is an error at the glossary's line.
pub fn order_problems(course: &Course, glossary: &Glossary) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let glossary_file = Path::new(GLOSSARY);
    // Each term's teaching place: (part, line of its heading in lesson.md).
    let mut taught: Vec<Option<(u8, usize)>> = Vec::new();
    for t in &glossary.terms {
        let place = course
            .part(t.part)
            .and_then(|p| lesson_source(course, p))
            .and_then(|(_, src)| heading_line(&src, &t.section))
            .map(|line| (t.part, line));
        if place.is_none() {
            errors.push(ContentError::at(
                glossary_file,
                t.line,
                format!("term `{}`: Part {} has no section `## {}`", t.term, t.part, t.place()),
            ));
        }
        taught.push(place);
    }
    errors.extend(taught_in_core(course, glossary));
    let mut uses = Vec::new();
    for part in course.parts.iter().filter(|p| p.is_written()) {
        for (file, line, term_index) in part_uses(course, part, glossary) {
            let Some((tpart, tline)) = taught[term_index] else {
                continue;
            };
            let in_lesson = file.ends_with("lesson.md");
            let early = part.number < tpart || (part.number == tpart && in_lesson && line < tline);
            if early {
                uses.push((file, line, term_index));
            }
        }
    }
    for (file, line, i) in uses {
        let t = &glossary.terms[i];
        errors.push(ContentError::at(
            &file,
            line,
            format!(
                "`{}` is used before Part {} § {} teaches it; say it another way here, or teach it earlier (lessons/glossary.toml)",
                t.term,
                t.part,
                t.place()
            ),
        ));
    }
    errors
}

fn part_dir(course: &Course, part: &Part) -> Option<PathBuf> {
    part.quiz
        .as_ref()
        .and_then(|q| q.path.parent().map(Path::to_path_buf))
        .or_else(|| {
            // A part without a quiz: find its folder by its exercises' stubs.
            let ex = course.exercise(part.exercises.first()?)?;
            let stubs = ex.stub_dir(Path::new(""));
            stubs.parent()?.parent().map(Path::to_path_buf)
        })
}

fn lesson_source(course: &Course, part: &Part) -> Option<(PathBuf, String)> {
    let rel = part_dir(course, part)?.join("lesson.md");
    let src = std::fs::read_to_string(course.root.join(&rel)).ok()?;
    Some((rel, src))
}

/// The 1-based line of `## heading` in a lesson.
/// The 1-based line of `## heading`; line 1 (the part's `#` title) for an
/// empty heading, the part's introduction.
fn heading_line(source: &str, heading: &str) -> Option<usize> {
    if heading.is_empty() {
        return Some(1);
    }
    source
        .lines()
        .position(|l| l.strip_prefix("## ").is_some_and(|h| h.trim() == heading))
        .map(|i| i + 1)
}

/// The lines of a part's lesson source that are core text, in order:
/// (1-based line, text, inside a fenced block). Asides are left out: a term
/// is taught, and counts as used, only in the core (an aside may look
/// ahead).
fn core_lines<'a>(part: &Part, src: &'a str) -> Vec<(usize, &'a str, bool)> {
    let asides: Vec<(usize, usize)> = part
        .lesson
        .iter()
        .flat_map(|l| &l.sections)
        .flat_map(|s| s.asides())
        .map(|a| (a.line, a.end_line))
        .collect();
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in src.lines().enumerate() {
        let n = i + 1;
        if asides.iter().any(|&(from, to)| (from..=to).contains(&n)) {
            continue;
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        out.push((n, line, fenced));
    }
    out
}

/// A term is taught in the core: its section names it outside asides.
/// One error, at the glossary's line, per term whose section names it only
/// in an aside (or not at all).
fn taught_in_core(course: &Course, glossary: &Glossary) -> Vec<ContentError> {
    let mut errors = Vec::new();
    for (i, t) in glossary.terms.iter().enumerate() {
        let Some(part) = course.part(t.part) else { continue };
        let Some((_, src)) = lesson_source(course, part) else {
            continue;
        };
        let Some(start) = heading_line(&src, &t.section) else {
            continue;
        };
        let end = src
            .lines()
            .enumerate()
            .skip(start)
            .find(|(_, l)| l.starts_with("## "))
            .map_or(usize::MAX, |(k, _)| k + 1);
        // The section's core prose as one text: a term may wrap across lines.
        let (mut prose, mut code) = (String::new(), String::new());
        for (_, line, fenced) in core_lines(part, &src)
            .into_iter()
            .filter(|(n, _, _)| (start..end).contains(n))
        {
            let into = if fenced { &mut code } else { &mut prose };
            into.push_str(line);
            into.push(' ');
        }
        let named = scan_line(&prose, false, glossary).contains(&i) || scan_line(&code, true, glossary).contains(&i);
        if !named {
            errors.push(ContentError::at(
                Path::new(GLOSSARY),
                t.line,
                format!(
                    "term `{}`: Part {} § {} names it only in an aside, or not at all; teach it in the section's core text",
                    t.term,
                    t.part,
                    t.place()
                ),
            ));
        }
    }
    errors
}

/// Every use of a term in part `part`, in reading order: (file, line,
/// index of the term).
fn part_uses(course: &Course, part: &Part, glossary: &Glossary) -> Vec<(PathBuf, usize, usize)> {
    let mut out = Vec::new();
    let Some(dir) = part_dir(course, part) else { return out };
    if let Some((rel, src)) = lesson_source(course, part) {
        for (n, line, fenced) in core_lines(part, &src) {
            for t in scan_line(line, fenced, glossary) {
                out.push((rel.clone(), n, t));
            }
        }
    }
    let mut texts: Vec<(PathBuf, String, Vec<std::ops::Range<usize>>)> = Vec::new();
    let rel = dir.join("exercises.toml");
    if let Ok(src) = std::fs::read_to_string(course.root.join(&rel))
        && let Ok(f) = toml::from_str::<ExercisesText>(&src)
    {
        let spans = f
            .exercises
            .iter()
            .flat_map(|e| std::iter::once(e.task.span()).chain(e.hints.iter().map(Spanned::span)))
            .collect();
        texts.push((rel, src, spans));
    }
    let rel = dir.join("quiz.toml");
    if let Ok(src) = std::fs::read_to_string(course.root.join(&rel))
        && let Ok(f) = toml::from_str::<QuizText>(&src)
    {
        let spans = f
            .questions
            .iter()
            .flat_map(|q| {
                std::iter::once(q.prompt.span())
                    .chain(q.options.iter().flat_map(|o| [o.text.span(), o.explanation.span()]))
            })
            .collect();
        texts.push((rel, src, spans));
    }
    for (rel, src, spans) in texts {
        let lines = LineIndex::new(&src);
        for span in spans {
            let first = lines.line(span.start);
            for (k, line) in src[span].lines().enumerate() {
                for t in scan_line(line, false, glossary) {
                    out.push((rel.clone(), first + k, t));
                }
            }
        }
    }
    out
}

/// The terms used on one line (each once), inline code and, when `fenced`,
/// the whole line counting only for code-named terms.
pub fn scan_line(line: &str, fenced: bool, glossary: &Glossary) -> Vec<usize> {
    let mut prose = String::new();
    let mut code = String::new();
    if fenced {
        code.push_str(line);
    } else {
        for (i, piece) in line.split('`').enumerate() {
            let into = if i % 2 == 1 { &mut code } else { &mut prose };
            into.push_str(piece);
            into.push(' ');
        }
    }
    let prose = prose.to_lowercase();
    let code = code.to_lowercase();
    let mut found = Vec::new();
    for (i, t) in glossary.terms.iter().enumerate() {
        let hit = t.forms().any(|f| {
            let f = f.to_lowercase();
            has_word(&prose, &f) || (t.code && has_word(&code, &f))
        });
        if hit {
            found.push(i);
        }
    }
    found
}

/// Whether `word` occurs in `hay` with no letter, digit or `_` on either
/// side; spaces in `word` match any run of spaces.
fn has_word(hay: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = hay[from..].find(word) {
        let start = from + at;
        let end = start + word.len();
        let before = hay[..start].chars().next_back();
        let after = hay[end..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return true;
        }
        from = start + word.chars().next().map_or(1, char::len_utf8);
    }
    false
}
