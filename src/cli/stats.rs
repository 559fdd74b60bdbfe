//! `mcplings verify --stats`: how much there is to read (issue 29).
//!
//! Per part, its core words (outside asides and fenced blocks) and its
//! aside words (inside asides, fenced blocks left out). Part 1 is written
//! in layers and held to core limits: its opening (the first `##`
//! section) 700, the rest 1,800. Every other part in layers
//! ([`LAYERED_PARTS`]) is held to 2,200 core words, or 3,000 when it holds
//! a `## Authorization` section (Part 3), that section counted in (issue
//! 32). A part not in layers yet keeps the prose limits of issue 19 (core
//! and asides together): 4,000, its `## Authorization` counted apart
//! against 1,500.
//!
//! Per exercise, its required reading: the core words of the sections it
//! needs ([`Need`]) that no earlier exercise (in course order) needed. It
//! is counted by core block: a `##` need covers its heading and every
//! block of the section, a `###` need its sub-section (its heading to the
//! next `###`); blocks are a union, so a block two needs cover, or an
//! earlier exercise needed, counts once. Exercises of a layered part
//! ([`LAYERED_PARTS`]) are held to [`READING_LIMIT`]; the others' figures
//! are printed, not enforced.

use std::collections::BTreeSet;

use super::EXIT_FAILED;
use super::verify::rules::{LAYERED_PARTS, parts_phrase};
use crate::content::aside::words;
use crate::content::lesson::{Block, Lesson};
use crate::content::needs::Need;
use crate::content::{Course, Part};

/// Most core words in the opening, the first `##` section of Part 1.
pub const OPENING_LIMIT: usize = 700;
/// Most core words in Part 1, the opening not counted.
pub const PART1_LIMIT: usize = 1800;
/// Most core words in any other part written in layers.
pub const LAYERED_PART_LIMIT: usize = 2200;
/// Most core words in a part in layers that holds the [`APART_SECTION`]
/// (Part 3), that section included.
pub const LAYERED_APART_PART_LIMIT: usize = 3000;
/// Most prose words (core and asides) in a part not in layers yet.
pub const PART_LIMIT: usize = 4000;
/// A section with this title (Part 3's) is counted apart, against
/// [`APART_LIMIT`], while its part is not in layers; in layers it counts
/// with its part, against [`LAYERED_APART_PART_LIMIT`].
pub const APART_SECTION: &str = "Authorization";
/// Most prose words in the section counted apart.
pub const APART_LIMIT: usize = 1500;
/// Most words of new required reading for an exercise of a layered part.
pub const READING_LIMIT: usize = 1500;

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Core words only.
    Core,
    /// Core and aside words together.
    Prose,
}

/// One row of the parts' table: what was counted, its words, its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordCount {
    /// `Part 1 · JSON-RPC messages`, `Part 1 · opening (What MCP is for)`, …
    pub what: String,
    /// Core words (headings included).
    pub core: usize,
    /// Words inside asides (labels and story references included).
    pub aside: usize,
    /// Most words allowed.
    pub limit: usize,
    /// What the limit counts.
    pub of: Measure,
}

impl WordCount {
    /// The words the limit is held against.
    pub fn counted(&self) -> usize {
        match self.of {
            Measure::Core => self.core,
            Measure::Prose => self.core + self.aside,
        }
    }

    /// How far over its limit the row is, if it is.
    pub fn over(&self) -> Option<usize> {
        self.counted().checked_sub(self.limit).filter(|&n| n > 0)
    }
}

/// The words of every written part against its limit: Part 1's opening
/// apart (core), the rest of Part 1 (core, the lesson's `#` title
/// included), every other part in layers (core, its `## Authorization`
/// included), every part not in layers yet (prose) with each
/// `## Authorization` section apart.
pub fn word_counts(parts: &[Part], layered: &[u8]) -> Vec<WordCount> {
    let mut rows = Vec::new();
    for part in parts {
        let Some(lesson) = &part.lesson else { continue };
        let mut sections: Vec<_> = lesson.sections.iter().collect();
        let (mut limit, mut of) = (PART_LIMIT, Measure::Prose);
        if part.number == 1
            && let Some(i) = sections.iter().position(|s| !s.title.is_empty())
        {
            let opening = sections.remove(i);
            rows.push(WordCount {
                what: format!("Part 1 · opening ({})", opening.title),
                core: opening.core_words(),
                aside: opening.aside_words(),
                limit: OPENING_LIMIT,
                of: Measure::Core,
            });
            (limit, of) = (PART1_LIMIT, Measure::Core);
        } else if layered.contains(&part.number) {
            let holds_apart = sections.iter().any(|s| s.title == APART_SECTION);
            let core = if holds_apart {
                LAYERED_APART_PART_LIMIT
            } else {
                LAYERED_PART_LIMIT
            };
            (limit, of) = (core, Measure::Core);
        }
        let in_layers = layered.contains(&part.number);
        let (apart, counted): (Vec<_>, Vec<_>) = sections
            .into_iter()
            .partition(|s| !in_layers && s.title == APART_SECTION);
        rows.push(WordCount {
            what: format!("Part {} · {}", part.number, part.title),
            core: lesson.title.split_whitespace().count() + counted.iter().map(|s| s.core_words()).sum::<usize>(),
            aside: counted.iter().map(|s| s.aside_words()).sum(),
            limit,
            of,
        });
        for section in apart {
            rows.push(WordCount {
                what: format!("Part {} · {} (counted apart)", part.number, section.title),
                core: section.core_words(),
                aside: section.aside_words(),
                limit: APART_LIMIT,
                of: Measure::Prose,
            });
        }
    }
    rows
}

/// One exercise's required reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The exercise's id.
    pub id: String,
    /// How many sections it names (`needs`).
    pub sections: usize,
    /// Core words of the sections it names (each block once).
    pub words: usize,
    /// Of those, the words no earlier exercise needed.
    pub new: usize,
    /// Most new words allowed, for an exercise of a layered part.
    pub limit: Option<usize>,
}

impl Reading {
    /// How far over its limit the exercise is, if it is.
    pub fn over(&self) -> Option<usize> {
        self.new.checked_sub(self.limit?).filter(|&n| n > 0)
    }
}

/// A core block a need covers: (part, section index, `None` for the
/// section's `##` heading or `Some(block index)`).
type BlockId = (u8, usize, Option<usize>);

/// The core blocks `need` covers in `lesson`, each with its words: the
/// `##` heading for a whole section, then every block outside asides and
/// fenced blocks.
fn covered(need: &Need, lesson: &Lesson) -> Vec<(BlockId, usize)> {
    let Some(section) = lesson.sections.get(need.section) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if need.sub.is_none() {
        out.push((
            (need.part, need.section, None),
            section.title.split_whitespace().count(),
        ));
    }
    let first = need.sub.unwrap_or(0).min(section.blocks.len());
    for (i, block) in need.blocks(section).iter().enumerate() {
        let n = match block {
            Block::Heading(inlines) | Block::Paragraph(inlines) | Block::Quote(inlines) => words(inlines),
            Block::ListItem { content, .. } => words(content),
            Block::Aside(_) | Block::Code(_) => continue,
        };
        out.push(((need.part, need.section, Some(first + i)), n));
    }
    out
}

/// Each exercise's required reading, in the order given (course order):
/// `exercises` holds (id, part, needs); `lesson` finds a part's lesson.
pub fn required_reading<'a>(
    exercises: &[(&str, u8, &[Need])],
    lesson: impl Fn(u8) -> Option<&'a Lesson>,
) -> Vec<Reading> {
    let mut read: BTreeSet<BlockId> = BTreeSet::new();
    let mut out = Vec::new();
    for (id, part, needs) in exercises {
        let mut mine: BTreeSet<BlockId> = BTreeSet::new();
        let (mut all, mut new) = (0, 0);
        for need in needs.iter() {
            let Some(lesson) = lesson(need.part) else { continue };
            for (block, n) in covered(need, lesson) {
                if mine.insert(block) {
                    all += n;
                    if !read.contains(&block) {
                        new += n;
                    }
                }
            }
        }
        read.extend(mine);
        out.push(Reading {
            id: id.to_string(),
            sections: needs.len(),
            words: all,
            new,
            limit: LAYERED_PARTS.contains(part).then_some(READING_LIMIT),
        });
    }
    out
}

/// Prints both tables; returns 1 when a part or an exercise of a layered
/// part is over its limit.
pub fn run(course: &Course) -> u8 {
    let rows = word_counts(&course.parts, LAYERED_PARTS);
    let exercises: Vec<(&str, u8, &[Need])> = course
        .exercises
        .iter()
        .map(|e| (e.id.as_str(), e.part, e.needs.as_slice()))
        .collect();
    let readings = required_reading(&exercises, |n| course.part(n).and_then(|p| p.lesson.as_ref()));
    let verdict = |over: Option<usize>| over.map_or("ok".to_string(), |n| format!("over by {n}"));
    let mut over: Vec<String> = Vec::new();

    println!("words per part (core: outside asides and fenced blocks; asides: inside them; prose: both)");
    let width = rows.iter().map(|r| r.what.chars().count()).max().unwrap_or(0);
    println!(
        "  {:<width$}  {:>5}  {:>6}  {:>5}  {:>5}",
        "", "core", "asides", "prose", "limit"
    );
    for row in &rows {
        let on = match row.of {
            Measure::Core => "core ",
            Measure::Prose => "prose",
        };
        println!(
            "  {:<width$}  {:>5}  {:>6}  {:>5}  {:>5} {on}  {}",
            row.what,
            row.core,
            row.aside,
            row.core + row.aside,
            row.limit,
            verdict(row.over())
        );
        if row.over().is_some() {
            over.push(row.what.clone());
        }
    }

    let unenforced: Vec<u8> = course
        .parts
        .iter()
        .filter(|p| !LAYERED_PARTS.contains(&p.number) && !p.exercises.is_empty())
        .map(|p| p.number)
        .collect();
    println!("\nrequired reading per exercise (core words of the sections it needs; new: not needed before)");
    let width = readings.iter().map(|r| r.id.chars().count()).max().unwrap_or(0);
    println!(
        "  {:<width$}  {:>8}  {:>5}  {:>5}  {:>5}",
        "", "sections", "words", "new", "limit"
    );
    for r in &readings {
        let (limit, verdict) = match r.limit {
            Some(limit) => (limit.to_string(), verdict(r.over())),
            None => ("-".to_string(), "not enforced yet".to_string()),
        };
        // `verify` fails on a layered exercise without needs; here it is only named.
        let verdict = if r.sections == 0 {
            format!("{verdict} (names no sections)")
        } else {
            verdict
        };
        println!(
            "  {:<width$}  {:>8}  {:>5}  {:>5}  {limit:>5}  {verdict}",
            r.id, r.sections, r.words, r.new
        );
        if r.over().is_some() {
            over.push(r.id.clone());
        }
    }
    if !unenforced.is_empty() {
        println!(
            "  (the exercises of {} are printed, not held to the limit, until those parts are in layers)",
            parts_phrase(&unenforced)
        );
    }
    if over.is_empty() {
        println!("verify --stats: every part and exercise within its limit");
        0
    } else {
        println!("verify --stats: {} over the limit: {}", over.len(), over.join(", "));
        EXIT_FAILED
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
