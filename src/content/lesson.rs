//! Lesson prose: Markdown parsed into sections of simple blocks that a
//! terminal can draw, validated as it is read.
//!
//! The subset: `#` title on line 1, `##` sections (the reader jumps between
//! them), `###` sub-headings, paragraphs, bullet and numbered lists, block
//! quotes, inline code, bold, italic, and fenced code blocks with an info
//! string. A ```` ```json REVISION ```` block holds one or more JSON frames
//! of that MCP revision; ```` ```json REVISION wrong ```` marks frames that
//! break a rule on purpose; ```` ```text ```` (optionally with a revision,
//! for a transcript) and ```` ```rust ```` hold anything else.
//!
//! An aside is a block quote whose first line is `> [!kind] label`: a
//! `story` (`> [!story] owner/repo#N`, then an optional label), `wild` or
//! `deeper` ([`AsideKind`]). It holds any blocks a section can, and the
//! workbook draws it folded. Lessons keep asides apart from rules, and the
//! course tells each story once (see [`super::Course::load`]).

use std::path::Path;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::REVISIONS;
use super::aside::opens_aside;
pub use super::aside::{Aside, AsideKind, STORY_MARKER, is_story_reference};
use super::error::{ContentError, LineIndex, line_of};

/// A lesson: a title and its sections in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// The `#` title on line 1.
    pub title: String,
    /// The `##` sections, in order. Text before the first `##` forms an
    /// untitled introduction section.
    pub sections: Vec<Section>,
}

/// One `##` section.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The heading text (empty for the introduction).
    pub title: String,
    /// The section's blocks, in order.
    pub blocks: Vec<Block>,
}

/// Styling of a run of inline text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InlineStyle {
    /// Inside `backticks`.
    pub code: bool,
    /// Inside `**…**`.
    pub strong: bool,
    /// Inside `*…*`.
    pub emphasis: bool,
}

/// A run of text with one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// The text, with soft line breaks turned into spaces.
    pub text: String,
    /// How it is styled.
    pub style: InlineStyle,
}

/// A block of a section.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A `###` (level 3) or deeper heading.
    Heading(Vec<Inline>),
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// One list item; `marker` is `-` or `3.`; `depth` counts from 0.
    ListItem {
        /// Nesting depth, 0 for a top-level item.
        depth: usize,
        /// The bullet or number to draw.
        marker: String,
        /// The item's text.
        content: Vec<Inline>,
    },
    /// A block quote's text.
    Quote(Vec<Inline>),
    /// An aside (`> [!kind] label`) and its blocks.
    Aside(Aside),
    /// A fenced code block.
    Code(CodeBlock),
}

/// A fenced code block.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeBlock {
    /// The language: `json`, `text`, `rust`…
    pub lang: String,
    /// For `json` blocks: the MCP revision the frames belong to.
    pub revision: Option<String>,
    /// For `json` blocks: the frames break a rule on purpose.
    pub wrong: bool,
    /// The block's text, without the fences.
    pub text: String,
    /// 1-based line of the opening fence in the lesson file.
    pub line: usize,
}

impl CodeBlock {
    /// Each JSON value in a `json` block, with its 1-based line in the
    /// lesson file. Errors carry the same line arithmetic.
    pub fn json_values(&self) -> Result<Vec<(usize, serde_json::Value)>, (usize, String)> {
        let mut out = Vec::new();
        let mut stream = serde_json::Deserializer::from_str(&self.text).into_iter::<serde_json::Value>();
        loop {
            let start = stream.byte_offset();
            match stream.next() {
                None => return Ok(out),
                Some(Ok(v)) => {
                    let skipped = self.text[start..].len() - self.text[start..].trim_start().len();
                    out.push((self.line + line_of(&self.text, start + skipped), v));
                }
                Some(Err(e)) => return Err((self.line + e.line(), e.to_string())),
            }
        }
    }
}

const LANGS: &[&str] = &["json", "text", "rust", "toml", "sh"];

/// Parses and validates a lesson. Every problem found is returned, each with
/// its line in `file`.
pub fn parse(file: &Path, source: &str) -> Result<Lesson, Vec<ContentError>> {
    let mut b = Builder::default();
    let mut errors = Vec::new();
    let lines = LineIndex::new(source);
    let err = |offset: usize, reason: String| ContentError::at(file, lines.line(offset), reason);

    if !source.starts_with("# ") {
        errors.push(ContentError::at(
            file,
            1,
            "a lesson starts with its title: `# Part N · Title` on line 1",
        ));
    }
    let parser = Parser::new_ext(source, Options::empty()).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                b.flush();
                b.heading = Some(level);
            }
            Event::End(TagEnd::Heading(level)) => {
                let inlines = std::mem::take(&mut b.inlines);
                let text: String = inlines.iter().map(|i| i.text.as_str()).collect();
                match level {
                    HeadingLevel::H1 if b.title.is_none() && range.start == 0 => b.title = Some(text),
                    HeadingLevel::H1 => errors.push(err(
                        range.start,
                        "only line 1 may be a `#` title; use `##` for sections".into(),
                    )),
                    HeadingLevel::H2 if b.quote > 0 => errors.push(err(
                        range.start,
                        "a `##` section heading cannot stand inside an aside or a quote".into(),
                    )),
                    HeadingLevel::H2 => b.sections.push(Section {
                        title: text,
                        blocks: Vec::new(),
                    }),
                    _ => b.push(Block::Heading(inlines)),
                }
                b.heading = None;
            }
            Event::Start(Tag::Paragraph) => {}
            Event::End(TagEnd::Paragraph) => {
                if b.marker_pending {
                    // The marker line was the whole first paragraph.
                    b.finish_marker(lines.line(b.quote_start))
                        .unwrap_or_else(|r| errors.push(err(b.quote_start, r)));
                } else if b.item_depth() == 0 {
                    let inlines = std::mem::take(&mut b.inlines);
                    // A paragraph of an aside is a paragraph; any other quoted one a quote.
                    if b.quote > usize::from(b.aside.is_some()) {
                        b.push(Block::Quote(inlines));
                    } else {
                        b.push(Block::Paragraph(inlines));
                    }
                } else {
                    b.add_text(" ");
                }
            }
            Event::Start(Tag::BlockQuote(_)) => {
                if b.quote == 0 {
                    b.quote_start = range.start;
                    let first_line = source[range.clone()].lines().next().unwrap_or("");
                    b.marker_pending = opens_aside(first_line);
                }
                b.quote += 1;
            }
            Event::End(TagEnd::BlockQuote(_)) => {
                b.quote -= 1;
                if b.quote == 0 {
                    b.marker_pending = false;
                    b.flush();
                    if let Some(mut aside) = b.aside.take() {
                        aside.end_line = lines.line(range.end.saturating_sub(1));
                        if aside.blocks.is_empty() {
                            errors.push(err(
                                b.quote_start,
                                "an aside holds at least one paragraph after its marker line".into(),
                            ));
                        }
                        b.push(Block::Aside(aside));
                    }
                }
            }
            Event::Start(Tag::List(start)) => {
                b.flush_item();
                b.lists.push(ListState { start, items: 0 });
            }
            Event::End(TagEnd::List(_)) => {
                b.flush_item();
                b.lists.pop();
            }
            Event::Start(Tag::Item) => {
                b.flush_item();
                b.in_item = true;
            }
            Event::End(TagEnd::Item) => b.flush_item(),
            Event::Start(Tag::Emphasis) => b.style.emphasis = true,
            Event::End(TagEnd::Emphasis) => b.style.emphasis = false,
            Event::Start(Tag::Strong) => b.style.strong = true,
            Event::End(TagEnd::Strong) => b.style.strong = false,
            Event::Start(Tag::CodeBlock(kind)) => {
                b.flush_item();
                let line = lines.line(range.start);
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => {
                        errors.push(err(
                            range.start,
                            "indented code block: use a fenced block with a language (```json 2025-11-25, ```text)"
                                .into(),
                        ));
                        String::new()
                    }
                };
                let raw = source[range.clone()].trim_end();
                // Inside a quote (an aside) each line starts with `>`.
                let unquoted = |l: &str| {
                    l.trim_start_matches(|c: char| c == '>' || c.is_whitespace())
                        .to_string()
                };
                let fence = unquoted(raw).chars().next().unwrap_or('`');
                let closed =
                    raw.lines().count() > 1 && raw.lines().last().is_some_and(|l| unquoted(l).starts_with(fence));
                if !closed {
                    errors.push(err(
                        range.start,
                        "this code block is never closed: add the closing ``` fence".into(),
                    ));
                }
                b.code = Some(
                    code_header(&info, line)
                        .map_err(|reason| errors.push(ContentError::at(file, line, reason)))
                        .ok()
                        .unwrap_or(CodeBlock {
                            lang: "text".into(),
                            revision: None,
                            wrong: false,
                            text: String::new(),
                            line,
                        }),
                );
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(code) = b.code.take() {
                    if code.lang == "json" {
                        match code.json_values() {
                            Ok(values) if values.is_empty() => {
                                errors.push(ContentError::at(file, code.line, "empty json block"))
                            }
                            Ok(_) => {}
                            Err((line, e)) => errors.push(ContentError::at(
                                file,
                                line,
                                format!("invalid JSON in a json block: {e}"),
                            )),
                        }
                    }
                    b.push(Block::Code(code));
                }
            }
            Event::Text(text) => {
                if let Some(code) = b.code.as_mut() {
                    code.text.push_str(&text);
                } else {
                    b.add_text(&text);
                }
            }
            Event::Code(text) => {
                let saved = b.style;
                b.style.code = true;
                b.add_text(&text);
                b.style = saved;
            }
            Event::SoftBreak | Event::HardBreak if b.marker_pending => {
                // The end of an aside's marker line: the label is complete.
                b.finish_marker(lines.line(b.quote_start))
                    .unwrap_or_else(|r| errors.push(err(b.quote_start, r)));
            }
            Event::SoftBreak | Event::HardBreak => b.add_text(" "),
            Event::Rule => {}
            Event::Html(_) | Event::InlineHtml(_) => errors.push(err(
                range.start,
                "HTML is not supported in lessons: the terminal cannot draw it".into(),
            )),
            Event::Start(Tag::Image { .. }) => errors.push(err(
                range.start,
                "images are not supported in lessons: the terminal cannot draw them".into(),
            )),
            Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link) => {}
            _ => {}
        }
    }
    b.flush();
    if b.sections.iter().all(|s| s.title.is_empty()) {
        errors.push(ContentError::at(file, 1, "a lesson needs at least one `##` section"));
    }
    errors.dedup();
    if errors.is_empty() {
        Ok(Lesson {
            title: b.title.unwrap_or_default(),
            sections: b.sections,
        })
    } else {
        Err(errors)
    }
}

fn code_header(info: &str, line: usize) -> Result<CodeBlock, String> {
    let mut words = info.split_whitespace();
    let lang = words
        .next()
        .ok_or("a code block needs a language after the fence: ```json 2025-11-25, ```text or ```rust")?;
    if !LANGS.contains(&lang) {
        return Err(format!(
            "unknown code block language `{lang}`; use one of {}",
            LANGS.join(", ")
        ));
    }
    let mut block = CodeBlock {
        lang: lang.to_string(),
        revision: None,
        wrong: false,
        text: String::new(),
        line,
    };
    for word in words {
        match word {
            "wrong" if lang == "json" => block.wrong = true,
            // A text block may name a revision too (a transcript, say).
            rev if matches!(lang, "json" | "text") && REVISIONS.contains(&rev) => {
                block.revision = Some(rev.to_string())
            }
            other => {
                return Err(format!(
                    "unexpected `{other}` after ```{lang}; a json block takes a revision ({}) and optionally `wrong`; a text block may take a revision",
                    REVISIONS.join(", ")
                ));
            }
        }
    }
    if lang == "json" && block.revision.is_none() {
        return Err(format!(
            "a json block must name the revision its frames belong to, e.g. ```json 2025-11-25 (one of {})",
            REVISIONS.join(", ")
        ));
    }
    Ok(block)
}

/// An open list: where its numbering starts (`None` for bullets) and how
/// many items it has had.
struct ListState {
    start: Option<u64>,
    items: u64,
}

#[derive(Default)]
struct Builder {
    title: Option<String>,
    sections: Vec<Section>,
    inlines: Vec<Inline>,
    style: InlineStyle,
    heading: Option<HeadingLevel>,
    lists: Vec<ListState>,
    in_item: bool,
    quote: usize,
    /// Where the outermost open block quote starts (a byte offset).
    quote_start: usize,
    /// The open block quote is an aside whose marker line is being read.
    marker_pending: bool,
    /// The open aside: blocks go into it until its quote ends.
    aside: Option<Aside>,
    code: Option<CodeBlock>,
}

impl Builder {
    fn item_depth(&self) -> usize {
        self.lists.len()
    }

    fn add_text(&mut self, text: &str) {
        if let Some(last) = self.inlines.last_mut()
            && last.style == self.style
        {
            last.text.push_str(text);
            return;
        }
        if text == " " && self.inlines.is_empty() {
            return;
        }
        self.inlines.push(Inline {
            text: text.to_string(),
            style: self.style,
        });
    }

    /// Opens the aside whose marker line's inlines have been read (the
    /// quote started on 1-based `line`).
    fn finish_marker(&mut self, line: usize) -> Result<(), String> {
        self.marker_pending = false;
        let marker = std::mem::take(&mut self.inlines);
        self.aside = Some(super::aside::open(marker, line)?);
        Ok(())
    }

    fn push(&mut self, block: Block) {
        if let Some(aside) = self.aside.as_mut() {
            aside.blocks.push(block);
            return;
        }
        if self.sections.is_empty() {
            self.sections.push(Section {
                title: String::new(),
                blocks: Vec::new(),
            });
        }
        if let Some(section) = self.sections.last_mut() {
            section.blocks.push(block);
        }
    }

    fn flush_item(&mut self) {
        if !self.in_item {
            return;
        }
        self.in_item = false;
        let mut content = std::mem::take(&mut self.inlines);
        if let Some(last) = content.last_mut() {
            last.text.truncate(last.text.trim_end().len());
        }
        let depth = self.lists.len().saturating_sub(1);
        let Some(list) = self.lists.last_mut() else { return };
        let marker = match list.start {
            Some(start) => format!("{}.", start + list.items),
            None => "-".to_string(),
        };
        list.items += 1;
        if !content.is_empty() {
            self.push(Block::ListItem { depth, marker, content });
        }
    }

    fn flush(&mut self) {
        self.flush_item();
        if !self.inlines.is_empty() {
            let inlines = std::mem::take(&mut self.inlines);
            self.push(Block::Paragraph(inlines));
        }
    }
}

#[cfg(test)]
mod tests;
