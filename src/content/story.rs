//! Real-world bug stories, told apart from the rules: a block quote whose
//! first line is `> [!story] owner/repo#N`. The course tells each story
//! once ([`told_once`]); quizzes and hints cite it by number. Also the prose
//! word count of a section (`verify --stats`), stories included.

use std::collections::HashMap;
use std::path::Path;

use super::error::ContentError;
use super::lesson::{Block, Inline, Lesson, Section};

/// A real-world bug story, told apart from the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    /// What it tells: `owner/repo#N`, an issue or pull request on GitHub.
    pub reference: String,
    /// The story's paragraphs.
    pub paragraphs: Vec<Vec<Inline>>,
    /// 1-based line of the `> [!story]` line in the lesson file.
    pub line: usize,
}

/// The marker that opens a story block.
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

/// Whether a block quote's first paragraph opens a story.
pub(super) fn starts_story(inlines: &[Inline]) -> bool {
    inlines
        .first()
        .is_some_and(|i| i.text.trim_start().starts_with(STORY_MARKER))
}

/// A story from the first paragraph of its quote, which starts with the
/// marker: the reference is the next word, the rest is the first paragraph.
pub(super) fn story(mut inlines: Vec<Inline>, line: usize) -> Result<Story, String> {
    let first = &mut inlines[0];
    let rest = first.text.trim_start()[STORY_MARKER.len()..].trim_start().to_string();
    let (reference, body) = rest.split_once(char::is_whitespace).unwrap_or((rest.as_str(), ""));
    if !is_story_reference(reference) {
        return Err(format!(
            "a story opens with `> {STORY_MARKER} owner/repo#N` (the issue or pull request it tells), not `{reference}`"
        ));
    }
    let reference = reference.to_string();
    first.text = body.trim_start().to_string();
    if first.text.is_empty() {
        inlines.remove(0);
    }
    Ok(Story {
        reference,
        paragraphs: if inlines.is_empty() { Vec::new() } else { vec![inlines] },
        line,
    })
}

/// A story is told in one story block in the whole course; elsewhere it is
/// cited by its number. `told` maps each reference to where it was first
/// told (`file:line`), across the lessons loaded so far; the result is one
/// error per story told again.
pub fn told_once(rel: &Path, lesson: &Lesson, told: &mut HashMap<String, String>) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let stories = lesson.sections.iter().flat_map(|s| &s.blocks).filter_map(|b| match b {
        Block::Story(story) => Some(story),
        _ => None,
    });
    for story in stories {
        match told.get(&story.reference) {
            Some(first) => errors.push(ContentError::at(
                rel,
                story.line,
                format!(
                    "story {} is told twice: {first} already tells it; tell a story once and cite it by number elsewhere",
                    story.reference
                ),
            )),
            None => {
                told.insert(story.reference.clone(), format!("{}:{}", rel.display(), story.line));
            }
        }
    }
    errors
}

impl Section {
    /// Prose words: the words of the heading and of every block outside
    /// fenced code blocks; a story counts, its reference included.
    pub fn prose_words(&self) -> usize {
        let words = |inlines: &[Inline]| {
            inlines
                .iter()
                .map(|i| i.text.as_str())
                .collect::<String>()
                .split_whitespace()
                .count()
        };
        let blocks: usize = self
            .blocks
            .iter()
            .map(|block| match block {
                Block::Heading(inlines) | Block::Paragraph(inlines) | Block::Quote(inlines) => words(inlines),
                Block::ListItem { content, .. } => words(content),
                Block::Story(story) => 1 + story.paragraphs.iter().map(|p| words(p)).sum::<usize>(),
                Block::Code(_) => 0,
            })
            .sum();
        self.title.split_whitespace().count() + blocks
    }
}

#[cfg(test)]
mod tests {
    use crate::content::lesson::parse;

    #[test]
    fn prose_words_leave_out_fenced_blocks_and_count_stories() {
        let l = parse(std::path::Path::new("l.md"), "# T\n\n## Two words\n\nOne `two` **three**.\n\n- four five\n\n```text\nnot counted at all\n```\n\n> [!story] a/b#1\n> six seven\n").unwrap();
        // heading 2 + paragraph 3 + item 2 + story (reference 1 + text 2)
        assert_eq!(l.sections[0].prose_words(), 10);
    }
}
