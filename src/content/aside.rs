//! Asides: what a lesson section tells beside its rule, folded in the
//! workbook. A block quote whose first line is `> [!kind] label` is an
//! aside of one of three kinds ([`AsideKind`]): `story` (a real bug, its
//! first word `owner/repo#N`), `wild` (what SDKs and servers actually do,
//! with version and date) and `deeper` (an edge case, an older revision,
//! history). The rule, its frame and its reason stay in the core; an aside
//! holds any blocks a section can.
//!
//! The course tells each story once ([`told_once`]); quizzes and hints
//! cite it by number. Also the word counts of a section (`verify --stats`):
//! core words and aside words.

use std::collections::HashMap;
use std::path::Path;

use super::error::ContentError;
use super::lesson::{Block, Inline, Lesson, Section};

/// What an aside holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsideKind {
    /// A real-world bug, told apart from the rules (`[!story] owner/repo#N`).
    Story,
    /// What SDKs and servers actually do, with version and date.
    Wild,
    /// An edge case, an older revision, history.
    Deeper,
}

impl AsideKind {
    /// Every kind, in the order the writing guide lists them.
    pub const ALL: [AsideKind; 3] = [AsideKind::Story, AsideKind::Wild, AsideKind::Deeper];

    /// The word after `[!` in the marker: `story`, `wild`, `deeper`.
    pub fn marker(self) -> &'static str {
        match self {
            AsideKind::Story => "story",
            AsideKind::Wild => "wild",
            AsideKind::Deeper => "deeper",
        }
    }

    /// How the kind is named on screen: `Story`, `In the wild`, `Deeper`.
    pub fn name(self) -> &'static str {
        match self {
            AsideKind::Story => "Story",
            AsideKind::Wild => "In the wild",
            AsideKind::Deeper => "Deeper",
        }
    }

    fn from_marker(word: &str) -> Option<AsideKind> {
        AsideKind::ALL.into_iter().find(|k| k.marker() == word)
    }
}

/// An aside: a block quote opened by `> [!kind] label`.
#[derive(Debug, Clone, PartialEq)]
pub struct Aside {
    /// What it holds.
    pub kind: AsideKind,
    /// For a story: what it tells, `owner/repo#N` (an issue or pull
    /// request on GitHub); `None` for the other kinds.
    pub reference: Option<String>,
    /// The rest of the marker line: what the aside is about. Required for
    /// `wild` and `deeper`, optional for a story.
    pub label: Vec<Inline>,
    /// Its blocks, as a section's: paragraphs, lists, frames, text blocks.
    pub blocks: Vec<Block>,
    /// 1-based line of the `> [!kind]` line in the lesson file.
    pub line: usize,
    /// 1-based line of the aside's last line.
    pub end_line: usize,
}

impl Aside {
    /// The label as plain text (empty when there is none).
    pub fn label_text(&self) -> String {
        self.label.iter().map(|i| i.text.as_str()).collect()
    }

    /// What the folded aside says on its one line, after its kind: the
    /// label, then a story's reference in parentheses (the reference alone
    /// for a story without a label).
    pub fn summary(&self) -> String {
        let label = self.label_text();
        match (&self.reference, label.is_empty()) {
            (Some(r), true) => r.clone(),
            (Some(r), false) => format!("{label} ({r})"),
            (None, _) => label,
        }
    }
}

/// The marker that opens a story.
pub const STORY_MARKER: &str = "[!story]";

/// Whether `reference` has the form `owner/repo#N`.
pub fn is_story_reference(reference: &str) -> bool {
    let Some((repo, number)) = reference.split_once('#') else {
        return false;
    };
    let Some((owner, name)) = repo.split_once('/') else {
        return false;
    };
    let word = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    word(owner) && word(name) && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
}

/// Whether a block quote's first line (raw Markdown, `>` included) opens
/// an aside: it starts `> [!`.
pub(super) fn opens_aside(raw_first_line: &str) -> bool {
    raw_first_line
        .trim_start()
        .strip_prefix('>')
        .is_some_and(|rest| rest.trim_start().starts_with("[!"))
}

/// An aside from the inlines of its marker line (`[!kind] label`, styled
/// as written), with no blocks yet. Errors name what is wrong; the caller
/// adds the line.
pub(super) fn open(mut marker: Vec<Inline>, line: usize) -> Result<Aside, String> {
    let text: String = marker.iter().map(|i| i.text.as_str()).collect();
    let text = text.trim_start();
    let kinds = AsideKind::ALL.map(AsideKind::marker).join(", ");
    let Some(word) = text.strip_prefix("[!").and_then(|t| t.split_once(']')).map(|(w, _)| w) else {
        return Err(format!(
            "an aside opens with `> [!kind] label`, its kind one of {kinds}"
        ));
    };
    let Some(kind) = AsideKind::from_marker(word) else {
        return Err(format!("unknown aside kind `{word}`: use one of {kinds}"));
    };
    // Drop `[!kind]` from the styled inlines, then (for a story) the reference.
    drop_prefix(&mut marker, word.len() + 3);
    let mut reference = None;
    if kind == AsideKind::Story {
        let rest: String = marker.iter().map(|i| i.text.as_str()).collect();
        let first = rest.split_whitespace().next().unwrap_or("");
        if !is_story_reference(first) {
            return Err(format!(
                "a story opens with `> {STORY_MARKER} owner/repo#N` (the issue or pull request it tells), not `{first}`"
            ));
        }
        drop_prefix(&mut marker, first.len());
        reference = Some(first.to_string());
    }
    trim(&mut marker);
    if marker.is_empty() && kind != AsideKind::Story {
        return Err(format!(
            "a `{}` aside needs a label after its marker: `> [!{}] what it tells`",
            kind.marker(),
            kind.marker()
        ));
    }
    Ok(Aside {
        kind,
        reference,
        label: marker,
        blocks: Vec::new(),
        line,
        end_line: line,
    })
}

/// Removes leading white space, then the first `bytes` bytes of text,
/// from a run of inlines.
fn drop_prefix(inlines: &mut Vec<Inline>, mut bytes: usize) {
    let mut leading = true;
    while let Some(first) = inlines.first_mut() {
        if leading {
            let lead = first.text.len() - first.text.trim_start().len();
            first.text.drain(..lead);
            if first.text.is_empty() {
                inlines.remove(0);
                continue;
            }
            leading = false;
        }
        if bytes == 0 {
            return;
        }
        let cut = bytes.min(first.text.len());
        first.text.drain(..cut);
        bytes -= cut;
        if first.text.is_empty() {
            inlines.remove(0);
        }
    }
}

/// Trims white space at both ends of a run of inlines, dropping empty ones.
fn trim(inlines: &mut Vec<Inline>) {
    if let Some(first) = inlines.first_mut() {
        first.text = first.text.trim_start().to_string();
    }
    if let Some(last) = inlines.last_mut() {
        last.text.truncate(last.text.trim_end().len());
    }
    inlines.retain(|i| !i.text.is_empty());
}

/// A story is told in one story aside in the whole course; elsewhere it is
/// cited by its number. `told` maps each reference to where it was first
/// told (`file:line`), across the lessons loaded so far; the result is one
/// error per story told again.
pub fn told_once(rel: &Path, lesson: &Lesson, told: &mut HashMap<String, String>) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let stories = lesson.sections.iter().flat_map(|s| &s.blocks).filter_map(|b| match b {
        Block::Aside(a) => a.reference.as_ref().map(|r| (r, a.line)),
        _ => None,
    });
    for (reference, line) in stories {
        match told.get(reference) {
            Some(first) => errors.push(ContentError::at(
                rel,
                line,
                format!(
                    "story {reference} is told twice: {first} already tells it; tell a story once and cite it by number elsewhere"
                ),
            )),
            None => {
                told.insert(reference.clone(), format!("{}:{line}", rel.display()));
            }
        }
    }
    errors
}

/// The words of a run of inlines.
pub fn words(inlines: &[Inline]) -> usize {
    inlines
        .iter()
        .map(|i| i.text.as_str())
        .collect::<String>()
        .split_whitespace()
        .count()
}

/// Prose words of blocks outside fenced code blocks; an aside counts in
/// `aside`, everything else in `core`. Returns (core, aside).
fn block_words(blocks: &[Block]) -> (usize, usize) {
    let mut core = 0;
    let mut aside = 0;
    for block in blocks {
        match block {
            Block::Heading(inlines) | Block::Paragraph(inlines) | Block::Quote(inlines) => core += words(inlines),
            Block::ListItem { content, .. } => core += words(content),
            Block::Aside(a) => {
                let (inner, nested) = block_words(&a.blocks);
                // The marker's reference counts as one word, as a story's always has.
                aside += usize::from(a.reference.is_some()) + words(&a.label) + inner + nested;
            }
            Block::Code(_) => {}
        }
    }
    (core, aside)
}

impl Section {
    /// Prose words: the heading and every block outside fenced code
    /// blocks, asides included (a story's reference counts as a word).
    pub fn prose_words(&self) -> usize {
        let (core, aside) = self.split_words();
        core + aside
    }

    /// Core words: the heading and every block outside fenced code blocks
    /// and outside asides.
    pub fn core_words(&self) -> usize {
        self.split_words().0
    }

    /// Aside words: every word inside the section's asides (fenced blocks
    /// left out), their labels and story references included.
    pub fn aside_words(&self) -> usize {
        self.split_words().1
    }

    fn split_words(&self) -> (usize, usize) {
        let (core, aside) = block_words(&self.blocks);
        (self.title.split_whitespace().count() + core, aside)
    }

    /// The section's asides, in order.
    pub fn asides(&self) -> impl Iterator<Item = &Aside> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Aside(a) => Some(a),
            _ => None,
        })
    }
}

/// Every block of `blocks`, asides' blocks included, each with whether it
/// stands inside an aside (an aside itself is yielded as standing in the
/// core, then its blocks).
pub fn walk(blocks: &[Block]) -> Vec<(&Block, bool)> {
    let mut out = Vec::new();
    for block in blocks {
        out.push((block, false));
        if let Block::Aside(a) = block {
            out.extend(walk(&a.blocks).into_iter().map(|(b, _)| (b, true)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::content::lesson::parse;

    #[test]
    fn words_split_into_core_and_asides() {
        let l = parse(std::path::Path::new("l.md"), "# T\n\n## Two words\n\nOne `two` **three**.\n\n- four five\n\n```text\nnot counted at all\n```\n\n> [!story] a/b#1\n> six seven\n\n> [!deeper] Old days\n>\n> eight\n>\n> ```json 2025-11-25\n> {\"not\": \"counted\"}\n> ```\n").unwrap();
        // heading 2 + paragraph 3 + item 2; story (reference 1 + text 2), deeper (label 2 + text 1)
        assert_eq!(l.sections[0].core_words(), 7);
        assert_eq!(l.sections[0].aside_words(), 6);
        assert_eq!(l.sections[0].prose_words(), 13);
    }
}
