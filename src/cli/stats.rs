//! `mcplings verify --stats`: each part's prose words (words outside fenced
//! code blocks, stories included) against the part's limit (issue 19: the
//! opening 700, Part 1 2,500, every other part 4,000; Part 3's
//! Authorization section counted apart against 1,500).

use super::EXIT_FAILED;
use crate::content::Course;

/// Most prose words in the opening, the first section of Part 1.
pub const OPENING_LIMIT: usize = 700;
/// Most prose words in Part 1, the opening not counted.
pub const PART1_LIMIT: usize = 2500;
/// Most prose words in any other part.
pub const PART_LIMIT: usize = 4000;
/// A section with this title (Part 3's) is counted apart, against
/// [`APART_LIMIT`]: the authorization material has a budget of its own.
pub const APART_SECTION: &str = "Authorization";
/// Most prose words in the section counted apart.
pub const APART_LIMIT: usize = 1500;

/// One row of `verify --stats`: what was counted, its words, its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordCount {
    /// `Part 1 · JSON-RPC messages`, `Part 1 · opening`, …
    pub what: String,
    /// Prose words.
    pub words: usize,
    /// Most words allowed.
    pub limit: usize,
}

/// The prose words of every written part against its limit: Part 1's
/// opening apart, every `## Authorization` section apart with a limit of its own.
pub fn word_counts(course: &Course) -> Vec<WordCount> {
    let mut rows = Vec::new();
    for part in &course.parts {
        let Some(lesson) = &part.lesson else { continue };
        let mut sections: Vec<_> = lesson.sections.iter().collect();
        let mut limit = PART_LIMIT;
        if part.number == 1
            && let Some(i) = sections.iter().position(|s| !s.title.is_empty())
        {
            let opening = sections.remove(i);
            rows.push(WordCount {
                what: format!("Part 1 · opening ({})", opening.title),
                words: opening.prose_words(),
                limit: OPENING_LIMIT,
            });
            limit = PART1_LIMIT;
        }
        let (apart, counted): (Vec<_>, Vec<_>) = sections.into_iter().partition(|s| s.title == APART_SECTION);
        rows.push(WordCount {
            what: format!("Part {} · {}", part.number, part.title),
            words: lesson.title.split_whitespace().count() + counted.iter().map(|s| s.prose_words()).sum::<usize>(),
            limit,
        });
        for section in apart {
            rows.push(WordCount {
                what: format!("Part {} · {} (counted apart)", part.number, section.title),
                words: section.prose_words(),
                limit: APART_LIMIT,
            });
        }
    }
    rows
}

/// Prints [`word_counts`]; returns 1 when a part is over its limit.
pub fn run(course: &Course) -> u8 {
    println!("prose words per part (outside fenced blocks, stories included):");
    let rows = word_counts(course);
    let width = rows.iter().map(|r| r.what.chars().count()).max().unwrap_or(0);
    let mut over = 0;
    for row in &rows {
        let limit = row.limit;
        let verdict = if row.words > limit {
            over += 1;
            format!("/ {limit:>5}  over by {}", row.words - limit)
        } else {
            format!("/ {limit:>5}  ok")
        };
        println!("  {:<width$}  {:>5} {verdict}", row.what, row.words);
    }
    if over > 0 {
        println!("verify --stats: {over} over the limit");
        EXIT_FAILED
    } else {
        println!("verify --stats: every part within its limit");
        0
    }
}
