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

mod order;

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

pub use order::{order_problems, scan_line};

use super::error::{ContentError, LineIndex, parse_toml};
use super::manifest::FORMAT_VERSION;

/// The glossary's path, relative to the course root.
pub const GLOSSARY: &str = "lessons/glossary.toml";

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
    /// The `##` heading of the section that teaches it; empty for the
    /// part's introduction (the text under its `#` title, before the first
    /// `##`).
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

    /// Where in its part it is taught, for people: the section's heading,
    /// or `introduction`.
    pub fn place(&self) -> &str {
        if self.section.is_empty() {
            "introduction"
        } else {
            &self.section
        }
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
    #[serde(default)]
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
    let lines = LineIndex::new(source);
    for entry in raw.terms {
        let line = lines.line(entry.span().start);
        let e = entry.into_inner();
        let term = e.term.trim().to_string();
        let mut problem = |reason: String| errors.push(ContentError::at(file, line, reason));
        if term.is_empty() {
            problem("a term needs its `term`".into());
        }
        for (name, value) in [("definition", &e.definition), ("spec", &e.spec)] {
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
