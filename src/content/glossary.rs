//! The glossary (`lessons/glossary.toml`): each term of the course with its
//! variants, a one-sentence definition, the lesson section that teaches it
//! and the spec page. Read by `mcplings glossary`, the workbook's glossary
//! screen, and `verify`, which fails when a term is used before the section
//! that teaches it ([`order_problems`]).
//!
//! Reading order: Part N's lesson, then its tasks and hints
//! (`exercises.toml`), then its quiz, then Part N+1. A term matches as a
//! case-insensitive whole word (or any of its variants) in prose, tasks,
//! hints and quiz text; inline code and fenced blocks count only for a
//! code-named term (`code = true`, such as `_meta`).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::error::{ContentError, line_of, parse_toml};
use super::manifest::FORMAT_VERSION;
use super::{Course, Part};

/// The glossary's path, relative to the course root.
pub const GLOSSARY: &str = "lessons/glossary.toml";

/// A temporary allow-list of known term-order problems in `lesson.md`
/// files (each `file`, `line`, `term`): while the lesson prose is being
/// rewritten, `verify` passes over exactly these. An entry that matches no
/// problem is itself a problem, so the list only shrinks. Delete the file
/// once the lessons are fixed.
pub const PENDING: &str = "lessons/glossary-pending.toml";

/// The loaded glossary, terms in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Glossary {
    /// The terms.
    pub terms: Vec<Term>,
}

/// One glossary entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// The term as the course writes it: `progress token`, `_meta`.
    pub term: String,
    /// Other forms that count as the term: plurals, spellings.
    pub variants: Vec<String>,
    /// One sentence.
    pub definition: String,
    /// The part whose lesson teaches it.
    pub part: u8,
    /// The `##` heading of the section that teaches it.
    pub section: String,
    /// The spec page: `<revision> <page>`, e.g. `2025-11-25 basic/lifecycle`.
    pub spec: String,
    /// A code name: also matched inside inline code and fenced blocks.
    pub code: bool,
    /// 1-based line of its `[[terms]]` header.
    pub line: usize,
}

impl Term {
    /// The term and its variants.
    pub fn forms(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.term.as_str()).chain(self.variants.iter().map(String::as_str))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GlossaryFile {
    format_version: Spanned<u32>,
    terms: Vec<Spanned<TermEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TermEntry {
    term: String,
    #[serde(default)]
    variants: Vec<String>,
    definition: String,
    part: u8,
    section: String,
    spec: String,
    #[serde(default)]
    code: bool,
}

/// Parses and validates the glossary; every problem comes with its line.
pub fn parse(file: &Path, source: &str) -> Result<Glossary, Vec<ContentError>> {
    let raw: GlossaryFile = parse_toml(file, source).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let at = |offset: usize, reason: String| ContentError::at_offset(file, source, offset, reason);
    if *raw.format_version.get_ref() != FORMAT_VERSION {
        errors.push(at(
            raw.format_version.span().start,
            format!(
                "format_version {} is not supported; this mcplings reads {FORMAT_VERSION}",
                raw.format_version.get_ref()
            ),
        ));
    }
    let mut terms: Vec<Term> = Vec::new();
    for entry in raw.terms {
        let line = line_of(source, entry.span().start);
        let e = entry.into_inner();
        let term = e.term.trim().to_string();
        let mut problem = |reason: String| errors.push(ContentError::at(file, line, reason));
        if term.is_empty() {
            problem("a term needs its `term`".into());
        }
        for (name, value) in [
            ("definition", &e.definition),
            ("section", &e.section),
            ("spec", &e.spec),
        ] {
            if value.trim().is_empty() {
                problem(format!("term `{term}` needs a `{name}`"));
            }
        }
        let sentence = e.definition.trim();
        if !sentence.is_empty() && (!sentence.ends_with('.') || sentence.trim_end_matches('.').contains(". ")) {
            problem(format!(
                "term `{term}`: the definition is one sentence, ending with a full stop"
            ));
        }
        if !e
            .spec
            .split_whitespace()
            .next()
            .is_some_and(|r| super::REVISIONS.contains(&r))
        {
            problem(format!(
                "term `{term}`: spec `{}` must start with a revision ({}), then the page",
                e.spec,
                super::REVISIONS.join(", ")
            ));
        }
        let new = Term {
            term,
            variants: e.variants.iter().map(|v| v.trim().to_string()).collect(),
            definition: sentence.to_string(),
            part: e.part,
            section: e.section.trim().to_string(),
            spec: e.spec.trim().to_string(),
            code: e.code,
            line,
        };
        for form in new.forms() {
            if let Some(other) = terms.iter().find(|t| t.forms().any(|f| f.eq_ignore_ascii_case(form))) {
                problem(format!(
                    "`{form}` is already a form of the term `{}` (line {}); each form names one term",
                    other.term, other.line
                ));
            }
        }
        terms.push(new);
    }
    if errors.is_empty() {
        Ok(Glossary { terms })
    } else {
        Err(errors)
    }
}

impl Glossary {
    /// The term `query` names (the term or a variant, any case).
    pub fn find(&self, query: &str) -> Option<&Term> {
        let q = query.trim();
        self.terms.iter().find(|t| t.forms().any(|f| f.eq_ignore_ascii_case(q)))
    }

    /// The terms closest to `query`, best first (at most `n`): those that
    /// contain it or that it contains, then the fewest edits away.
    pub fn closest(&self, query: &str, n: usize) -> Vec<&Term> {
        let q = query.trim().to_lowercase();
        let mut scored: Vec<(usize, &Term)> = self
            .terms
            .iter()
            .map(|t| {
                let score = t
                    .forms()
                    .map(|f| {
                        let f = f.to_lowercase();
                        if f.contains(&q) || q.contains(&f) {
                            0
                        } else {
                            edits(&f, &q)
                        }
                    })
                    .min()
                    .unwrap_or(usize::MAX);
                (score, t)
            })
            .collect();
        scored.sort_by_key(|(score, _)| *score);
        scored.into_iter().take(n).map(|(_, t)| t).collect()
    }
}

/// Levenshtein distance.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// One use of a term found in the course text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    /// The file, relative to the course root.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// The glossary term (not the variant found).
    pub term: String,
}

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

#[derive(Deserialize)]
struct PendingFile {
    #[serde(default)]
    pending: Vec<Spanned<PendingEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingEntry {
    file: String,
    line: usize,
    term: String,
}

/// Every use of a term before the section that teaches it, as
/// `file:line` errors in reading order, less the entries of the pending
/// allow-list ([`PENDING`]); a glossary section that does not exist is an
/// error at the glossary's line, and so is a stale pending entry.
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
                format!("term `{}`: Part {} has no section `## {}`", t.term, t.part, t.section),
            ));
        }
        taught.push(place);
    }
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
    let (mut pending, pending_errors) = read_pending(course);
    errors.extend(pending_errors);
    for (file, line, i) in uses {
        let t = &glossary.terms[i];
        let key = (file.to_string_lossy().replace('\\', "/"), line, t.term.to_lowercase());
        if let Some(found) = pending.iter().position(|(k, _)| *k == key) {
            pending.remove(found);
            continue;
        }
        errors.push(ContentError::at(
            &file,
            line,
            format!(
                "`{}` is used before Part {} § {} teaches it; say it another way here, or teach it earlier (lessons/glossary.toml)",
                t.term, t.part, t.section
            ),
        ));
    }
    for ((file, line, term), at) in pending {
        errors.push(ContentError::at(
            Path::new(PENDING),
            at,
            format!("{file}:{line} no longer uses `{term}` early; remove this entry"),
        ));
    }
    errors
}

type PendingKey = (String, usize, String);

fn read_pending(course: &Course) -> (Vec<(PendingKey, usize)>, Vec<ContentError>) {
    let rel = Path::new(PENDING);
    let Ok(source) = std::fs::read_to_string(course.root.join(rel)) else {
        return (Vec::new(), Vec::new());
    };
    match parse_toml::<PendingFile>(rel, &source) {
        Ok(f) => {
            let mut out = Vec::new();
            let mut errors = Vec::new();
            for e in f.pending {
                let at = line_of(&source, e.span().start);
                let e = e.into_inner();
                if !e.file.ends_with("lesson.md") {
                    errors.push(ContentError::at(
                        rel,
                        at,
                        "only lesson.md uses may wait here; fix quizzes, tasks and hints now",
                    ));
                }
                out.push(((e.file, e.line, e.term.to_lowercase()), at));
            }
            (out, errors)
        }
        Err(e) => (Vec::new(), vec![e]),
    }
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
fn heading_line(source: &str, heading: &str) -> Option<usize> {
    source
        .lines()
        .position(|l| l.strip_prefix("## ").is_some_and(|h| h.trim() == heading))
        .map(|i| i + 1)
}

/// Every use of a term in part `part`, in reading order: (file, line,
/// index of the term).
fn part_uses(course: &Course, part: &Part, glossary: &Glossary) -> Vec<(PathBuf, usize, usize)> {
    let mut out = Vec::new();
    let Some(dir) = part_dir(course, part) else { return out };
    if let Some((rel, src)) = lesson_source(course, part) {
        let mut fenced = false;
        for (i, line) in src.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            for t in scan_line(line, fenced, glossary) {
                out.push((rel.clone(), i + 1, t));
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
        for span in spans {
            let first = line_of(&src, span.start);
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

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"format_version = 1

[[terms]]
term = "tool"
variants = ["tools"]
definition = "A function the server offers and the model may call."
part = 4
section = "Tools"
spec = "2025-11-25 server/tools"

[[terms]]
term = "_meta"
definition = "The member for metadata."
part = 1
section = "Three shapes, one id"
spec = "2025-11-25 basic/index"
code = true
"#;

    fn glossary() -> Glossary {
        parse(Path::new("glossary.toml"), GOOD).unwrap()
    }

    #[test]
    fn terms_are_found_by_any_form_and_near_misses_suggested() {
        let g = glossary();
        assert_eq!(g.find("TOOLS").unwrap().term, "tool");
        assert!(g.find("tol").is_none());
        assert_eq!(g.closest("tol", 1)[0].term, "tool");
    }

    #[test]
    fn matching_is_whole_words_and_code_only_for_code_names() {
        let g = glossary();
        assert_eq!(scan_line("Call a Tool here.", false, &g), vec![0]);
        assert_eq!(scan_line("toolbox and `tools/list`", false, &g), Vec::<usize>::new());
        assert_eq!(scan_line("the `_meta` member", false, &g), vec![1]);
        assert_eq!(scan_line(r#"{"_meta":{}, "tools": []}"#, true, &g), vec![1]);
    }

    #[test]
    fn a_bad_entry_names_its_line() {
        let e = parse(
            Path::new("glossary.toml"),
            &GOOD.replace("spec = \"2025-11-25 server/tools\"", "spec = \"tools\""),
        )
        .unwrap_err();
        assert!(
            e[0].to_string().starts_with("glossary.toml:3: term `tool`: spec"),
            "{e:?}"
        );
        let e = parse(
            Path::new("glossary.toml"),
            &GOOD.replace("term = \"_meta\"", "term = \"Tools\""),
        )
        .unwrap_err();
        assert!(
            e[0].to_string()
                .starts_with("glossary.toml:11: `Tools` is already a form"),
            "{e:?}"
        );
    }
}
