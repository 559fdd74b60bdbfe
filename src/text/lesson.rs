//! A lesson laid out as lines: its title, each `##` section's heading and
//! blocks, each aside folded to one line or open in its box, and notes set
//! after chosen blocks (the workbook's "Exercise 01 is ready"). The layout
//! records where each section, block, aside head and note starts, so a
//! reader can keep its place by block ([`LaidOut::sections`]) whichever
//! asides are open and whatever the width.

use std::ops::Range;

use unicode_width::UnicodeWidthStr;

use super::{Line, Piece, Tone, aside, cite, frame, pieces, plain, wrap};
use crate::content::lesson::{Block, CodeBlock, Lesson};

/// A section as laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionAt {
    /// Its first line: its heading's (the lesson's title above the first
    /// section counts as its first block's too: see [`LaidOut::section_at`]).
    pub start: usize,
    /// Its title as shown: the heading, or `Introduction` for the text
    /// before the first `##`.
    pub title: String,
    /// Its title as written (empty for the untitled introduction): the key
    /// progress keeps a section by.
    pub key: String,
    /// The first line of each of its blocks ([`crate::content::lesson::Section::blocks`]),
    /// in order.
    pub blocks: Vec<usize>,
}

impl SectionAt {
    /// The lines of block `index` (clamped to the section's blocks): from
    /// its first line to the next block's, the first block from the
    /// section's start (its heading is part of it). `end` is the first line
    /// after the section.
    pub fn block_span(&self, index: usize, end: usize) -> Range<usize> {
        if self.blocks.is_empty() {
            return self.start..end.max(self.start);
        }
        let index = index.min(self.blocks.len() - 1);
        let start = if index == 0 { self.start } else { self.blocks[index] };
        let stop = self.blocks.get(index + 1).copied().unwrap_or(end);
        start..stop.max(start)
    }
}

/// An aside of a section (not one inside another block) as laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct AsideAt {
    /// Index of its section in the lesson.
    pub section: usize,
    /// Index of its block in the section.
    pub block: usize,
    /// The lines of its head: the folded line `▸ …`, or the open head `▾ …`
    /// (more than one when the label wraps).
    pub head: Range<usize>,
    /// Whether it is drawn open.
    pub open: bool,
}

/// A line of text set after a block of a section (asides and all), apart
/// from the lesson's own text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Index of the section in the lesson.
    pub section: usize,
    /// Index of the block it follows in the section.
    pub after: usize,
    /// What it says (drawn strong, word-wrapped).
    pub text: String,
}

/// A lesson laid out for a given width.
#[derive(Debug, Clone, PartialEq)]
pub struct LaidOut {
    /// The lines, top to bottom.
    pub lines: Vec<Line>,
    /// Each section: where it and its blocks start, its title.
    pub sections: Vec<SectionAt>,
    /// Each aside of a section, in lesson order.
    pub asides: Vec<AsideAt>,
    /// The first line of each note, in the order they were given (a note
    /// after a block the lesson does not have is left out: `None`).
    pub notes: Vec<Option<usize>>,
}

impl LaidOut {
    /// The first line after section `index` (the next section's start, or
    /// the end of the lines).
    pub fn section_end(&self, index: usize) -> usize {
        self.sections.get(index + 1).map_or(self.lines.len(), |s| s.start)
    }

    /// The index of the section line `line` is in (the first for the
    /// lesson's title).
    pub fn section_at(&self, line: usize) -> usize {
        self.sections.iter().rposition(|s| s.start <= line).unwrap_or(0)
    }
}

/// Lays a lesson out in lines of at most `width` columns, every aside open.
pub fn lay_out_lesson(lesson: &Lesson, width: usize) -> LaidOut {
    lay_out_lesson_with(lesson, width, &|_, _| true, &[])
}

/// Lays a lesson out in lines of at most `width` columns: the aside that
/// is block `b` of section `s` open when `open(s, b)`, folded to its one
/// line otherwise, and each of `notes` after its block.
pub fn lay_out_lesson_with(
    lesson: &Lesson,
    width: usize,
    open: &dyn Fn(usize, usize) -> bool,
    notes: &[Note],
) -> LaidOut {
    let mut out = LaidOut {
        lines: vec![vec![Piece::new(lesson.title.clone(), Tone::Title)], Vec::new()],
        sections: Vec::new(),
        asides: Vec::new(),
        notes: vec![None; notes.len()],
    };
    for (s, section) in lesson.sections.iter().enumerate() {
        let title = if section.title.is_empty() {
            "Introduction".to_string()
        } else {
            section.title.clone()
        };
        out.sections.push(SectionAt {
            start: out.lines.len(),
            title,
            key: section.title.clone(),
            blocks: Vec::new(),
        });
        if !section.title.is_empty() {
            out.lines.push(vec![Piece::new(section.title.clone(), Tone::Heading)]);
            out.lines.push(Vec::new());
        }
        for (b, block) in section.blocks.iter().enumerate() {
            if b > 0 {
                let in_list =
                    matches!(block, Block::ListItem { .. }) && matches!(section.blocks[b - 1], Block::ListItem { .. });
                if !in_list {
                    out.lines.push(Vec::new());
                }
            }
            out.sections[s].blocks.push(out.lines.len());
            match block {
                Block::Aside(a) => {
                    let open = open(s, b);
                    let start = out.lines.len();
                    let head = aside::lay_out_aside(a, width, open, &mut out.lines);
                    out.asides.push(AsideAt {
                        section: s,
                        block: b,
                        head: start..start + head,
                        open,
                    });
                }
                block => lay_out_block(block, width, &mut out.lines),
            }
            for (n, note) in notes.iter().enumerate().filter(|(_, n)| n.section == s && n.after == b) {
                out.lines.push(Vec::new());
                out.notes[n] = Some(out.lines.len());
                let none = || Piece::new("", Tone::Plain);
                out.lines.extend(wrap(
                    &[Piece::new(note.text.clone(), Tone::Strong)],
                    width,
                    none(),
                    none(),
                ));
            }
        }
        out.lines.push(Vec::new());
    }
    while out.lines.last().is_some_and(Vec::is_empty) {
        out.lines.pop();
    }
    out
}

/// Lays out a run of blocks (an aside's), a blank line between blocks; the
/// items of one list stay together.
pub(super) fn lay_out_blocks(blocks: &[Block], width: usize, lines: &mut Vec<Line>) {
    for (i, block) in blocks.iter().enumerate() {
        if i > 0 {
            let in_list = matches!(block, Block::ListItem { .. }) && matches!(blocks[i - 1], Block::ListItem { .. });
            if !in_list {
                lines.push(Vec::new());
            }
        }
        lay_out_block(block, width, lines);
    }
}

fn lay_out_block(block: &Block, width: usize, lines: &mut Vec<Line>) {
    let none = || Piece::new("", Tone::Plain);
    match block {
        Block::Heading(inlines) => {
            let text: String = inlines.iter().map(|i| i.text.as_str()).collect();
            lines.extend(wrap(&[Piece::new(text, Tone::Subheading)], width, none(), none()));
        }
        Block::Paragraph(inlines) => lines.extend(wrap(&pieces(inlines), width, none(), none())),
        Block::Quote(inlines) => lines.extend(wrap(
            &pieces(inlines),
            width,
            Piece::new("│ ", Tone::Marker),
            Piece::new("│ ", Tone::Marker),
        )),
        Block::ListItem { depth, marker, content } => {
            let pad = "  ".repeat(*depth);
            let first = Piece::new(format!("{pad}{marker} "), Tone::Marker);
            let rest = Piece::new(" ".repeat(first.text.width()), Tone::Plain);
            lines.extend(wrap(&pieces(content), width, first, rest));
        }
        Block::Code(code) => lay_out_code(code, width, lines),
        // An aside inside an aside cannot be written (a quote in a quote
        // is not one); drawn open if it ever is.
        Block::Aside(a) => {
            aside::lay_out_aside(a, width, true, lines);
        }
    }
}

/// The label drawn above a code block: `json · 2025-11-25`, or with `· wrong`.
pub fn code_label(code: &CodeBlock) -> (String, Tone) {
    match (&code.revision, code.wrong) {
        (Some(rev), true) => (format!("✗ wrong · {rev}"), Tone::Wrong),
        (Some(rev), false) => (format!("{} · {rev}", code.lang), Tone::Label),
        (None, _) => (code.lang.clone(), Tone::Label),
    }
}

fn lay_out_code(code: &CodeBlock, width: usize, lines: &mut Vec<Line>) {
    let (label, tone) = code_label(code);
    lines.push(vec![Piece::new(format!("┌ {label}"), tone)]);
    // A line too wide for the screen follows the wide-frame rule
    // ([`frame`]): its continuation lines start with a dotted bar, so a
    // one-line frame never looks like two.
    let show = frame::Show::Code {
        json: code.lang == "json",
    };
    for text in code.text.trim_end_matches('\n').lines() {
        // Every line of the block behind its bar, a continuation behind
        // the dotted one.
        let leads = frame::Leads::new(Piece::new("│ ", tone), Piece::new("┆ ", tone)).with_body(Piece::new("│ ", tone));
        lines.extend(frame::lay_out(text, width, show, &leads));
    }
}

/// A lesson as plain text, `width` columns wide, every aside open (for
/// `mcplings lesson --full`); see [`lesson_text`].
pub fn lesson_plain(lesson: &Lesson, width: usize) -> String {
    lesson_text(lesson, width, true)
}

/// A lesson as plain text, `width` columns wide (for `mcplings lesson`):
/// each aside folded to its one line `▸ Kind · label`, or open when
/// `full`. Each section ends with the spec pages it cites, as paths under
/// [`cite::SPEC_BASE`] (a whole address can be wider than 80 columns).
pub fn lesson_text(lesson: &Lesson, width: usize, full: bool) -> String {
    let laid = lay_out_lesson_with(lesson, width, &|_, _| full, &[]);
    let mut out = String::new();
    let mut pages: Vec<String> = Vec::new();
    let starts: Vec<usize> = laid.sections.iter().map(|s| s.start).skip(1).collect();
    let texts: Vec<String> = laid.lines.iter().map(plain).collect();
    let page_list = |pages: &mut Vec<String>, out: &mut String| {
        if pages.is_empty() {
            return;
        }
        out.push_str(&format!("Spec pages cited, under {}/:\n", cite::SPEC_BASE));
        for page in pages.drain(..) {
            out.push_str(&format!("  {page}\n"));
        }
        out.push('\n');
    };
    let links = cite::links(&texts);
    for (n, line) in laid.lines.iter().enumerate() {
        if starts.contains(&n) {
            page_list(&mut pages, &mut out);
        }
        for link in links.iter().filter(|l| l.line == n) {
            let page = link.url.trim_start_matches(cite::SPEC_BASE).trim_start_matches('/');
            if !pages.iter().any(|p| p == page) {
                pages.push(page.to_string());
            }
        }
        let mut text = texts[n].clone();
        if line.first().is_some_and(|p| p.tone == Tone::Heading) {
            text = format!("## {text}");
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    page_list(&mut pages, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::lesson::parse;

    const LESSON: &str = "# Part 9 · Fixture

## First

One paragraph.

> [!wild] How two SDKs answer
>
> The first answers twice.
>
> The second never does.

After the aside.

## Second

- one
- two
";

    fn lesson() -> Lesson {
        parse(std::path::Path::new("fixture.md"), LESSON).expect("the fixture parses")
    }

    fn texts(laid: &LaidOut) -> Vec<String> {
        laid.lines.iter().map(plain).collect()
    }

    #[test]
    fn a_folded_aside_is_one_line_and_an_open_one_a_box_under_its_head() {
        let folded = lay_out_lesson_with(&lesson(), 60, &|_, _| false, &[]);
        let text = texts(&folded);
        assert_eq!(
            text,
            [
                "Part 9 · Fixture",
                "",
                "First",
                "",
                "One paragraph.",
                "",
                "▸ In the wild · How two SDKs answer",
                "",
                "After the aside.",
                "",
                "Second",
                "",
                "- one",
                "- two",
            ]
        );
        assert_eq!(
            folded.asides,
            [AsideAt {
                section: 0,
                block: 1,
                head: 6..7,
                open: false
            }]
        );
        assert_eq!(folded.sections[0].blocks, [4, 6, 8]);
        assert_eq!(folded.sections[1].start, 10);
        assert_eq!(folded.sections[1].blocks, [12, 13]);
        let open = lay_out_lesson_with(&lesson(), 60, &|s, b| (s, b) == (0, 1), &[]);
        assert_eq!(
            texts(&open)[6..13],
            [
                "▾ In the wild · How two SDKs answer",
                "│ The first answers twice.",
                "│",
                "│ The second never does.",
                "╰─",
                "",
                "After the aside."
            ]
        );
        assert!(open.asides[0].open);
        assert_eq!(open.sections[0].blocks, [4, 6, 12]);
    }

    #[test]
    fn a_block_spans_to_the_next_and_the_first_holds_the_heading() {
        let laid = lay_out_lesson_with(&lesson(), 60, &|_, _| false, &[]);
        let first = &laid.sections[0];
        assert_eq!(first.block_span(0, laid.section_end(0)), 2..6);
        assert_eq!(first.block_span(2, laid.section_end(0)), 8..10);
        assert_eq!(laid.sections[1].block_span(0, laid.section_end(1)), 10..13);
        assert_eq!(laid.section_at(9), 0);
        assert_eq!(laid.section_at(10), 1);
    }

    #[test]
    fn a_note_follows_its_block() {
        let note = Note {
            section: 0,
            after: 1,
            text: "Exercise 09 is ready · x opens it".into(),
        };
        let missing = Note {
            section: 5,
            after: 0,
            text: "never".into(),
        };
        let laid = lay_out_lesson_with(&lesson(), 60, &|_, _| false, &[note, missing]);
        let text = texts(&laid);
        assert_eq!(laid.notes, [Some(8), None]);
        assert_eq!(
            text[6..11],
            [
                "▸ In the wild · How two SDKs answer",
                "",
                "Exercise 09 is ready · x opens it",
                "",
                "After the aside."
            ]
        );
        assert!(
            laid.lines[8]
                .iter()
                .filter(|p| !p.text.is_empty())
                .all(|p| p.tone == Tone::Strong)
        );
    }

    #[test]
    fn the_plain_lesson_folds_its_asides_unless_full() {
        let short = lesson_text(&lesson(), 60, false);
        let full = lesson_text(&lesson(), 60, true);
        assert!(short.contains("▸ In the wild · How two SDKs answer"), "{short}");
        assert!(!short.contains("The first answers twice."), "{short}");
        assert!(full.contains("▾ In the wild · How two SDKs answer"), "{full}");
        assert!(full.contains("│ The first answers twice."), "{full}");
        assert_eq!(short.lines().count() + 4, full.lines().count(), "{short}\n{full}");
        assert!(short.contains("## Second"), "{short}");
    }
}
