//! A part's quiz (`quiz.toml`): multiple-choice questions in which every
//! option explains why it is right or wrong.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::error::{ContentError, parse_toml};
use super::needs::Need;

/// The quiz format this build reads. Version 2 added, to every question,
/// its teaching `section` and its `frames`, and to every wrong option its
/// `misconception`.
pub const QUIZ_FORMAT_VERSION: u32 = 2;

/// A validated quiz.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    /// The file it was read from, relative to the course root.
    pub path: PathBuf,
    /// The questions, asked one at a time in this order.
    pub questions: Vec<Question>,
}

/// One question with exactly one correct option.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Stable kebab-case id, used to store answers in progress.
    pub id: String,
    /// What the question tests, in kebab-case: unique in the whole course,
    /// so no two questions (in one part or two) ask the same thing.
    pub concept: String,
    /// The words that give the answer away: no wrong option's explanation
    /// may use them (`verify` checks).
    pub answer_tokens: Vec<String>,
    /// The question text (may span lines).
    pub prompt: String,
    /// The frames or transcript the question shows under its prompt, if any.
    pub frames: Option<Frames>,
    /// The section that teaches what it tests, as written (`"1 › Three
    /// shapes, one id"`), resolved in [`Question::section`] on load.
    pub section_name: Option<String>,
    /// That section, resolved in its part's lesson like an exercise's
    /// `needs` (`None` until loaded with the lessons, or when not named).
    pub section: Option<Need>,
    /// The options in file order (shown shuffled: see [`shuffled_order`]);
    /// progress stores picks as indexes into this list.
    pub options: Vec<Choice>,
    /// 1-based line of its `[[questions]]` header in the quiz file.
    pub line: usize,
    /// 1-based line of its `section` (its header's when it names none).
    pub section_line: usize,
}

/// The frames a question shows: one JSON frame a line, each optionally
/// after a direction arrow (`▶` the client sends it, `◀` the server does),
/// or other transcript lines (an HTTP request line) after an arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Frames {
    /// The revision the frames speak, `YYYY-MM-DD` (their schema).
    pub revision: String,
    /// The frames break a rule on purpose (shown as a mistake, never held
    /// to the schema), as a lesson's `wrong` block.
    pub wrong: bool,
    /// The lines, as written (trimmed, none empty).
    pub lines: Vec<String>,
}

/// The arrow of a line the client sends.
pub const SENT: char = '▶';
/// The arrow of a line the server sends.
pub const RECEIVED: char = '◀';

impl Frames {
    /// Each line split into its arrow (if any) and the rest.
    pub fn split_lines(&self) -> Vec<(Option<char>, &str)> {
        self.lines.iter().map(|l| split_arrow(l)).collect()
    }
}

/// A line's leading arrow (`▶`/`◀`) and the text after it.
pub fn split_arrow(line: &str) -> (Option<char>, &str) {
    let line = line.trim();
    match line.chars().next() {
        Some(c @ (SENT | RECEIVED)) => (Some(c), line[c.len_utf8()..].trim_start()),
        _ => (None, line),
    }
}

/// The letters options are shown and answered with: a) b) c)… (a question
/// has at most six options).
pub const LETTERS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'f'];

/// The option a letter stands for: `'a'` is 0.
pub fn option_of(letter: char) -> Option<usize> {
    LETTERS.iter().position(|l| *l == letter)
}

impl Question {
    /// Index of the correct option.
    pub fn correct(&self) -> usize {
        self.options.iter().position(|o| o.correct).unwrap_or(0)
    }

    /// What a saved answer was given to: FNV-1a 64 of each option's text
    /// and key, in file order, in hex. Progress records it with the first
    /// pick, so a pick is never scored against options it was not given
    /// (`progress::Progress::migrate` drops an answer whose options changed).
    pub fn fingerprint(&self) -> String {
        let mut h = 0xcbf2_9ce4_8422_2325_u64;
        for o in &self.options {
            for b in o.text.bytes().chain([u8::from(o.correct), 0]) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{h:016x}")
    }
}

/// One option of a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The option text.
    pub text: String,
    /// Whether this is the right answer.
    pub correct: bool,
    /// Why it is right or wrong, shown after it is picked.
    pub explanation: String,
    /// For a wrong option: the rule it breaks (a citation, `REVISION page ›
    /// Heading`, or `course rule: ID`) or the real bug that shipped it
    /// (`owner/repo#N`); shown under the explanation. `verify` requires a
    /// valid one on every wrong option of the quizzes it enforces.
    pub misconception: Option<String>,
    /// 1-based line of its `[[questions.options]]` header.
    pub line: usize,
}

/// The environment variable that fixes the order options are shown in
/// (for tests and reproducible runs): a number, used as the run's seed.
pub const SEED_VAR: &str = "MCPLINGS_QUIZ_SEED";

/// The seed of one quiz run: [`SEED_VAR`] when it holds a number, else
/// taken from the clock, so each run shows the options in a new order.
pub fn run_seed() -> u64 {
    std::env::var(SEED_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        })
}

/// The order `question`'s `count` options are shown in during the run with
/// `seed`: entry `i` is the file-order index of the option shown `i`-th
/// (with letter `LETTERS[i]`). The same seed and question always give the
/// same order; progress keeps file-order indexes, so an order never needs
/// storing.
pub fn shuffled_order(seed: u64, question: &str, count: usize) -> Vec<usize> {
    // FNV-1a over the id, mixed with the seed, drives a splitmix64 stream.
    let mut state = question.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..count).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizFile {
    format_version: Spanned<u32>,
    questions: Vec<Spanned<QuestionEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionEntry {
    id: Spanned<String>,
    concept: Spanned<String>,
    answer_tokens: Spanned<Vec<String>>,
    #[serde(default)]
    section: Option<Spanned<String>>,
    prompt: String,
    #[serde(default)]
    frames: Option<Spanned<FramesEntry>>,
    options: Vec<Spanned<ChoiceEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FramesEntry {
    revision: String,
    #[serde(default)]
    wrong: bool,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChoiceEntry {
    text: String,
    correct: bool,
    #[serde(default)]
    explanation: String,
    #[serde(default)]
    misconception: Option<String>,
}

/// Parses and validates a quiz; every problem is returned with its line.
pub fn parse(file: &Path, source: &str) -> Result<Quiz, Vec<ContentError>> {
    let raw: QuizFile = parse_toml(file, source).map_err(|e| vec![e])?;
    let lines = super::error::LineIndex::new(source);
    let at = |offset: usize, reason: String| ContentError::at(file, lines.line(offset), reason);
    let mut errors = Vec::new();
    if *raw.format_version.get_ref() != QUIZ_FORMAT_VERSION {
        errors.push(at(
            raw.format_version.span().start,
            format!(
                "format_version {} is not supported; this mcplings reads quizzes of version {QUIZ_FORMAT_VERSION}",
                raw.format_version.get_ref()
            ),
        ));
    }
    if raw.questions.is_empty() {
        errors.push(ContentError::at(
            file,
            1,
            "a quiz needs at least one [[questions]] entry",
        ));
    }
    let mut seen = HashSet::new();
    let mut questions = Vec::new();
    for q in raw.questions {
        let start = q.span().start;
        let q = q.into_inner();
        let id = q.id.get_ref().clone();
        if !is_kebab(&id) {
            errors.push(at(
                q.id.span().start,
                format!("question id `{id}` must be kebab-case (a-z, 0-9, -)"),
            ));
        }
        if !seen.insert(id.clone()) {
            errors.push(at(q.id.span().start, format!("duplicate question id `{id}`")));
        }
        let concept = q.concept.get_ref().clone();
        if !is_kebab(&concept) {
            errors.push(at(
                q.concept.span().start,
                format!("question `{id}`: concept `{concept}` must be kebab-case (a-z, 0-9, -)"),
            ));
        }
        if q.answer_tokens.get_ref().is_empty() || q.answer_tokens.get_ref().iter().any(|t| t.trim().is_empty()) {
            errors.push(at(
                q.answer_tokens.span().start,
                format!(
                    "question `{id}`: answer_tokens needs at least one word that gives the answer away, none empty"
                ),
            ));
        }
        if q.prompt.trim().is_empty() {
            errors.push(at(start, format!("question `{id}` has an empty prompt")));
        }
        if !(2..=6).contains(&q.options.len()) {
            errors.push(at(
                start,
                format!("question `{id}` has {} options; give 2 to 6", q.options.len()),
            ));
        }
        let correct = q.options.iter().filter(|o| o.get_ref().correct).count();
        if correct != 1 {
            errors.push(at(
                start,
                format!("question `{id}` has {correct} correct options; exactly one must have `correct = true`"),
            ));
        }
        let frames = q.frames.map(|f| {
            let offset = f.span().start;
            let f = f.into_inner();
            let lines: Vec<String> = f
                .text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            if lines.is_empty() {
                errors.push(at(offset, format!("question `{id}`: its frames hold no line")));
            }
            if !crate::mcp::REVISIONS.contains(&f.revision.as_str()) {
                errors.push(at(
                    offset,
                    format!(
                        "question `{id}`: frames of revision `{}`; name one of {}",
                        f.revision,
                        crate::mcp::REVISIONS.join(", ")
                    ),
                ));
            }
            Frames {
                revision: f.revision,
                wrong: f.wrong,
                lines,
            }
        });
        let section_line = q
            .section
            .as_ref()
            .map_or(lines.line(start), |s| lines.line(s.span().start));
        let section_name = q.section.map(|s| s.into_inner().trim().to_string());
        let mut options = Vec::new();
        for o in q.options {
            let offset = o.span().start;
            let o = o.into_inner();
            if o.text.trim().is_empty() {
                errors.push(at(offset, format!("an option of question `{id}` has empty text")));
            }
            if o.explanation.trim().is_empty() {
                errors.push(at(
                    offset,
                    format!(
                        "an option of question `{id}` has no explanation; every option says why it is right or wrong"
                    ),
                ));
            }
            options.push(Choice {
                text: o.text.trim().to_string(),
                correct: o.correct,
                explanation: o.explanation.trim().to_string(),
                misconception: o.misconception.map(|m| m.trim().to_string()).filter(|m| !m.is_empty()),
                line: lines.line(offset),
            });
        }
        questions.push(Question {
            id,
            concept,
            answer_tokens: q.answer_tokens.get_ref().iter().map(|t| t.trim().to_string()).collect(),
            prompt: q.prompt.trim().to_string(),
            frames,
            section_name,
            section: None,
            options,
            line: lines.line(start),
            section_line,
        });
    }
    if errors.is_empty() {
        Ok(Quiz {
            path: file.to_path_buf(),
            questions,
        })
    } else {
        Err(errors)
    }
}

/// `owner/repo#N` (the repository names GitHub allows, a number after `#`).
pub fn is_issue_ref(m: &str) -> bool {
    let Some((repo, number)) = m.split_once('#') else {
        return false;
    };
    let Some((owner, name)) = repo.split_once('/') else {
        return false;
    };
    let name_ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    name_ok(owner) && name_ok(name) && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
}

/// Resolves each question's `section` in the lessons, as an exercise's
/// `needs`: a `##` section or a unique `###` heading of the quiz's own part
/// or an earlier one. Returns a problem at the `section` line for each name
/// that does not resolve.
pub(super) fn resolve_sections(parts: &mut [super::Part]) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let mut resolved: Vec<(usize, usize, Need)> = Vec::new();
    for (pi, part) in parts.iter().enumerate() {
        let Some(quiz) = &part.quiz else { continue };
        for (qi, q) in quiz.questions.iter().enumerate() {
            let Some(name) = &q.section_name else { continue };
            let found = super::needs::split(name).and_then(|(number, heading)| {
                if number > part.number {
                    return Err(format!(
                        "`{name}`: the quiz of Part {} may name a section of its own part or an earlier one",
                        part.number
                    ));
                }
                let lesson = parts
                    .iter()
                    .find(|p| p.number == number)
                    .and_then(|p| p.lesson.as_ref())
                    .ok_or_else(|| format!("`{name}`: Part {number} has no lesson"))?;
                super::needs::resolve(number, heading, lesson)
            });
            match found {
                Ok(need) => resolved.push((pi, qi, need)),
                Err(reason) => errors.push(ContentError::at(
                    &quiz.path,
                    q.section_line,
                    format!("question `{}`: section {reason}", q.id),
                )),
            }
        }
    }
    for (pi, qi, need) in resolved {
        if let Some(q) = parts[pi].quiz.as_mut().and_then(|quiz| quiz.questions.get_mut(qi)) {
            q.section = Some(need);
        }
    }
    errors
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
#[path = "quiz_tests.rs"]
mod tests;
