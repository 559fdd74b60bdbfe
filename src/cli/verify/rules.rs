//! Rules against sections (issue 29), a content rule of `mcplings verify`:
//! every case of an exercise's checker carries the rule keys it tests
//! (`Case.rules`: a citation `REVISION page › Heading`, or `course rule:
//! ID`), and each key is stated by the core text of at least one of the
//! sections the exercise names in `needs`. A section states a key when its
//! core blocks (asides and fenced blocks left out) carry the citation, or a
//! visible `(course rule: ID)` marker, as `text::cite::rule_keys` reads them.
//!
//! The check lives in the CLI because content may not import `check` (where
//! the cases are). It is enforced for the parts in [`LAYERED_PARTS`]; for
//! the others `verify` prints one line of how far they are.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::content::error::line_of;
use crate::content::lesson::{Block, Inline, Section};
use crate::content::needs::Need;
use crate::content::{ContentError, Course, Exercise};
use crate::text::cite;

/// The parts written in layers (the rule first, the wild in asides): their
/// exercises' rules are held to the sections they need, and `verify
/// --stats` holds their exercises' required reading to its limit. The
/// other parts keep the prose limits until they are converted; widening
/// this list is how a part joins.
pub const LAYERED_PARTS: &[u8] = &[1, 2, 3, 4, 5];

/// One case as this check sees it: its name and the rule keys it tests.
pub type CaseRules = (&'static str, &'static [&'static str]);

/// What the check found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The problems in the layered parts, each at the exercise's `id` line
    /// in its `exercises.toml`, in course order.
    pub problems: Vec<ContentError>,
    /// The same measure over the parts not enforced yet.
    pub pending: Pending,
}

/// How far the parts not enforced yet are from passing.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// Their part numbers, in order (written parts only).
    pub parts: Vec<u8>,
    /// Their exercises that name no sections.
    pub without_needs: usize,
    /// Their cases.
    pub cases: usize,
    /// Cases that carry no rule key.
    pub bare_cases: usize,
    /// Rule keys their cases carry.
    pub keys: usize,
    /// Rule keys no named section of the exercise states.
    pub unstated: usize,
}

impl Pending {
    /// The one line `verify` prints for the parts not enforced yet: how
    /// many rule keys their cases carry and how many no named section
    /// states (`None` when every written part is enforced).
    pub fn line(&self) -> Option<String> {
        if self.parts.is_empty() {
            return None;
        }
        Some(format!(
            "rules against sections ... not enforced yet for {}: {} of {} rule keys unstated, {} of {} cases carry no key, {} exercises name no sections",
            parts_phrase(&self.parts),
            self.unstated,
            self.keys,
            self.bare_cases,
            self.cases,
            self.without_needs
        ))
    }
}

/// Checks every exercise of the course; `cases_of` gives an exercise's
/// cases (`check::checkers::of`).
pub fn check(course: &Course, cases_of: impl Fn(&Exercise) -> Vec<CaseRules>) -> Outcome {
    let mut outcome = Outcome::default();
    outcome.pending.parts = course
        .parts
        .iter()
        .filter(|p| p.is_written() && !LAYERED_PARTS.contains(&p.number))
        .map(|p| p.number)
        .collect();
    let mut lines = IdLines::default();
    for ex in &course.exercises {
        let cases = cases_of(ex);
        let stated = stated_keys(course, &ex.needs);
        let unstated: Vec<(&str, &str)> = cases
            .iter()
            .flat_map(|(name, keys)| keys.iter().map(move |k| (*name, *k)))
            .filter(|(_, key)| !stated.contains(&normalise(key)))
            .collect();
        let bare: Vec<&str> = cases
            .iter()
            .filter(|(_, keys)| keys.is_empty())
            .map(|(n, _)| *n)
            .collect();
        if !LAYERED_PARTS.contains(&ex.part) {
            let p = &mut outcome.pending;
            p.without_needs += usize::from(ex.needs.is_empty());
            p.cases += cases.len();
            p.bare_cases += bare.len();
            p.keys += cases.iter().map(|(_, keys)| keys.len()).sum::<usize>();
            p.unstated += unstated.len();
            continue;
        }
        let (file, line) = lines.of(course, ex);
        let mut problem = |reason: String| {
            outcome
                .problems
                .push(ContentError::at(&file, line, format!("exercise {}: {reason}", ex.id)))
        };
        if ex.needs.is_empty() {
            problem(format!(
                "names no sections it needs; add needs = [\"{} › Heading\", …] before its [exercises.hint_for] table: \
                 the sections whose core text states the rules its cases test",
                ex.part
            ));
        }
        for name in bare {
            problem(format!(
                "case \"{name}\" carries no rule key; list the rules it tests in its Case in \
                 src/check/checkers/{}.rs (rules: &[\"REVISION page › Heading\"] or &[\"course rule: ID\"])",
                ex.checker.replace('-', "_")
            ));
        }
        if ex.needs.is_empty() {
            continue;
        }
        let sections = ex.needs.iter().map(Need::name).collect::<Vec<_>>().join("; ");
        for (name, key) in unstated {
            problem(format!(
                "case \"{name}\" tests {key}, which none of its sections ({sections}) states in its core text"
            ));
        }
    }
    outcome
}

/// The rule keys the core text of `needs` states, white space normalised.
fn stated_keys(course: &Course, needs: &[Need]) -> BTreeSet<String> {
    needs
        .iter()
        .filter_map(|need| {
            let lesson = course.part(need.part)?.lesson.as_ref()?;
            Some(core_text(need, lesson.sections.get(need.section)?))
        })
        .flat_map(|text| cite::rule_keys(&text))
        .map(|key| normalise(&key))
        .collect()
}

/// The plain text of the core blocks a need covers: asides and fenced
/// blocks left out, each block's inline texts joined, blocks separated by
/// a newline.
pub fn core_text(need: &Need, section: &Section) -> String {
    let plain = |inlines: &[Inline]| inlines.iter().map(|i| i.text.as_str()).collect::<String>();
    need.blocks(section)
        .iter()
        .filter_map(|block| match block {
            Block::Heading(i) | Block::Paragraph(i) | Block::Quote(i) => Some(plain(i)),
            Block::ListItem { content, .. } => Some(plain(content)),
            Block::Aside(_) | Block::Code(_) => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs of white space as one space, ends trimmed: a key written over two
/// lines, or with two spaces, is the same key.
fn normalise(key: &str) -> String {
    key.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `Part 2`, `Parts 2–5`, `Parts 2, 4`.
pub fn parts_phrase(parts: &[u8]) -> String {
    match parts {
        [one] => format!("Part {one}"),
        [first, .., last] if usize::from(last - first) + 1 == parts.len() => format!("Parts {first}–{last}"),
        _ => format!(
            "Parts {}",
            parts.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The `id = "…"` line of each exercise in its part's `exercises.toml`,
/// read once per file.
#[derive(Default)]
struct IdLines {
    /// File (relative to the root) → id → 1-based line.
    files: HashMap<PathBuf, HashMap<String, usize>>,
}

#[derive(Deserialize)]
struct IdsFile {
    #[serde(default)]
    exercises: Vec<IdEntry>,
}

#[derive(Deserialize)]
struct IdEntry {
    id: Spanned<String>,
}

impl IdLines {
    /// `lessons/<part>/exercises.toml` (relative to the root) and the line
    /// of `ex`'s id in it (0, the whole file, if it cannot be read).
    fn of(&mut self, course: &Course, ex: &Exercise) -> (PathBuf, usize) {
        // The stubs live at lessons/<part>/stubs/<id>: the part's folder is two up.
        let stubs = ex.stub_dir(Path::new(""));
        let file = stubs
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("lessons"))
            .join("exercises.toml");
        let ids = self.files.entry(file.clone()).or_insert_with(|| {
            let source = std::fs::read_to_string(course.root.join(&file)).unwrap_or_default();
            toml::from_str::<IdsFile>(&source)
                .map(|f| {
                    f.exercises
                        .into_iter()
                        .map(|e| (e.id.get_ref().clone(), line_of(&source, e.id.span().start)))
                        .collect()
                })
                .unwrap_or_default()
        });
        let line = ids.get(&ex.id).copied().unwrap_or(0);
        (file, line)
    }
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
