//! Text layout shared by the CLI and the TUI: styled word wrapping, a
//! lesson laid out as lines ([`lesson`]: asides folded or open), and JSON
//! highlighting. Each line is a list of
//! [`Piece`]s with a [`Tone`]; the TUI maps tones to colours, the CLI
//! prints the bare text.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::content::lesson::{Inline, InlineStyle};

mod aside;
pub mod breaks;
pub mod cite;
mod frame;
mod lesson;

pub use aside::{FOLDED, OPEN, aside_title};
pub use lesson::{
    AsideAt, LaidOut, Note, SectionAt, code_label, lay_out_lesson, lay_out_lesson_with, lesson_plain, lesson_text,
};

pub use frame::{Leads, Show, highlight_json, lay_out as lay_out_frame, wrap_with_frames};

/// What a piece of text is, for styling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Body text.
    Plain,
    /// `**bold**`.
    Strong,
    /// `*italic*`.
    Emphasis,
    /// `inline code`.
    Code,
    /// The lesson title.
    Title,
    /// A `##` section heading.
    Heading,
    /// A `###` heading.
    Subheading,
    /// A list marker or quote bar.
    Marker,
    /// The label above a code block (`json · 2025-11-25`).
    Label,
    /// The label of a deliberately wrong frame.
    Wrong,
    /// Code that is not JSON.
    Verbatim,
    /// A JSON object key.
    JsonKey,
    /// A JSON string value.
    JsonString,
    /// A JSON number, `true`, `false` or `null`.
    JsonLiteral,
    /// JSON punctuation.
    JsonPunct,
}

/// A run of text with one tone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The text (no newlines).
    pub text: String,
    /// How it is styled.
    pub tone: Tone,
}

impl Piece {
    /// A piece.
    pub fn new(text: impl Into<String>, tone: Tone) -> Piece {
        Piece {
            text: text.into(),
            tone,
        }
    }
}

/// One laid-out line.
pub type Line = Vec<Piece>;

/// The plain text of a line.
pub fn plain(line: &Line) -> String {
    line.iter().map(|p| p.text.as_str()).collect()
}

fn tone_of(style: InlineStyle) -> Tone {
    if style.code {
        Tone::Code
    } else if style.strong {
        Tone::Strong
    } else if style.emphasis {
        Tone::Emphasis
    } else {
        Tone::Plain
    }
}

/// Word-wraps plain text with `` `code` `` spans, one paragraph per `\n`
/// line, control characters made visible: the first line of each paragraph
/// starts with `first`, the others with `rest` (see [`wrap`]). A code span
/// that is a JSON value too wide for a line is set on lines of its own by
/// the wide-frame rule ([`frame`]), so a frame in a quiz question or a hint
/// is pretty-printed, not broken mid-token.
pub fn paragraphs(text: &str, width: usize, tone: Tone, first: &str, rest: &str) -> Vec<Line> {
    text.split('\n')
        .flat_map(|paragraph| {
            let pieces = inline_code(&visible(paragraph), tone);
            frame::wrap_with_frames(&pieces, width, first, rest)
        })
        .collect()
}

/// Word-wraps styled text to `width` columns. The first line starts with
/// `first` and the others with `rest` (both count towards the width). A
/// word is what lies between spaces, even across styles, so `` `id`. ``
/// never loses its full stop to the next line; a word longer than a line
/// continues by the one rule of [`breaks`] (after a `,` `:` `/` near the
/// end of the line, else at its edge).
pub fn wrap(pieces: &[Piece], width: usize, first: Piece, rest: Piece) -> Vec<Line> {
    // Words as runs of styled segments, each with whether a space precedes it.
    let mut words: Vec<(Vec<Piece>, bool)> = Vec::new();
    let mut word: Vec<Piece> = Vec::new();
    let mut word_space = false;
    let mut space = false;
    for piece in pieces {
        for c in piece.text.chars() {
            if c == ' ' || c == '\n' {
                if !word.is_empty() {
                    words.push((std::mem::take(&mut word), word_space));
                }
                space = true;
                continue;
            }
            if word.is_empty() {
                word_space = space;
                space = false;
            }
            let mut buf = [0u8; 4];
            push(&mut word, c.encode_utf8(&mut buf), piece.tone);
        }
    }
    if !word.is_empty() {
        words.push((word, word_space));
    }
    let mut lines = Vec::new();
    let mut line: Line = vec![first.clone()];
    let indent = rest.text.width();
    let mut used = first.text.width();
    let width = width.max(indent + 8);
    let mut has_content = false;
    for (segments, space_before) in words {
        let w: usize = segments.iter().map(|p| p.text.width()).sum();
        let gap = usize::from(space_before && has_content);
        let fits = used + gap + w <= width;
        // A word too wide for what is left moves to a new line, unless it
        // is wider than a line too and the space before it lies outside
        // the last columns: then it starts here and continues by the rule.
        let fresh = width.saturating_sub(indent);
        let starts_here = fits || (w > fresh && width.saturating_sub(used + gap) >= breaks::WINDOW);
        if has_content && !starts_here {
            lines.push(std::mem::replace(&mut line, vec![rest.clone()]));
            used = indent;
        } else if gap == 1 {
            let space_tone = tone_for_space(&line, segments[0].tone);
            push(&mut line, " ", space_tone);
            used += 1;
        }
        let chars: Vec<(char, Tone)> = segments
            .iter()
            .flat_map(|p| p.text.chars().map(move |c| (c, p.tone)))
            .collect();
        let bare: Vec<char> = chars.iter().map(|(c, _)| *c).collect();
        let mut at = 0;
        while at < chars.len() {
            let n = breaks::take(&bare[at..], width.saturating_sub(used), breaks::Rule::Boundary);
            for &(c, tone) in &chars[at..at + n] {
                let mut buf = [0u8; 4];
                push(&mut line, c.encode_utf8(&mut buf), tone);
                used += c.width().unwrap_or(0);
            }
            at += n;
            if at < chars.len() {
                lines.push(std::mem::replace(&mut line, vec![rest.clone()]));
                used = indent;
            }
        }
        has_content = true;
    }
    lines.push(line);
    lines
}

fn tone_for_space(line: &Line, next: Tone) -> Tone {
    match line.last() {
        Some(p) if p.tone == next => next,
        _ => Tone::Plain,
    }
}

fn push(line: &mut Line, text: &str, tone: Tone) {
    if text.is_empty() {
        return;
    }
    if let Some(last) = line.last_mut()
        && last.tone == tone
    {
        last.text.push_str(text);
        return;
    }
    line.push(Piece::new(text, tone));
}

/// `s` with the characters a terminal would not show as themselves
/// (controls, line and paragraph separators, zero-width and bidi marks)
/// written as JSON escapes such as `\u2028`. Learners' output can hold
/// anything; drawn raw, such characters move the cursor or hide text.
pub fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    if !s.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| {
                if hidden(c) {
                    format!("\\u{:04x}", c as u32)
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// Shortens `s` to about `max` characters, marking the cut with `…`.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Plain text whose `backtick` spans are code (quiz text, hints, checker
/// reasons), as pieces: the backticks go, the code gets [`Tone::Code`].
pub fn inline_code(text: &str, tone: Tone) -> Vec<Piece> {
    text.split('`')
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .map(|(i, t)| Piece::new(t, if i % 2 == 1 { Tone::Code } else { tone }))
        .collect()
}

fn pieces(inlines: &[Inline]) -> Vec<Piece> {
    inlines
        .iter()
        .map(|i| Piece::new(i.text.clone(), tone_of(i.style)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Piece {
        Piece::new(text, Tone::Plain)
    }

    #[test]
    fn wraps_words_and_keeps_styles() {
        let pieces = [
            p("A request has an "),
            Piece::new("id", Tone::Code),
            p(", a response carries it back."),
        ];
        let lines = wrap(&pieces, 20, p(""), p(""));
        let texts: Vec<String> = lines.iter().map(plain).collect();
        assert_eq!(texts, ["A request has an id,", "a response carries", "it back."]);
        assert!(
            lines[0]
                .iter()
                .any(|piece| piece.tone == Tone::Code && piece.text == "id")
        );
    }

    #[test]
    fn punctuation_stays_with_the_code_before_it() {
        let pieces = [
            p("It has a member called "),
            Piece::new("method", Tone::Code),
            p(". Next"),
        ];
        let lines = wrap(&pieces, 29, p(""), p(""));
        assert_eq!(
            lines.iter().map(plain).collect::<Vec<_>>(),
            ["It has a member called", "method. Next"]
        );
    }

    #[test]
    fn list_items_hang_under_their_marker() {
        let lines = wrap(
            &[p("one two three four five")],
            12,
            Piece::new("- ", Tone::Marker),
            p("  "),
        );
        let texts: Vec<String> = lines.iter().map(plain).collect();
        assert_eq!(texts, ["- one two", "  three four", "  five"]);
    }

    #[test]
    fn long_words_are_broken() {
        let lines = wrap(&[p("abcdefghijklmnopqrstuvwxyz")], 10, p(""), p(""));
        assert_eq!(
            lines.iter().map(plain).collect::<Vec<_>>(),
            ["abcdefghij", "klmnopqrst", "uvwxyz"]
        );
    }

    #[test]
    fn invisible_characters_are_escaped() {
        assert_eq!(visible("a\u{2028}b\tc\u{202e}"), "a\\u2028b\\u0009c\\u202e");
        assert!(matches!(visible("plain ✓ text"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn json_keys_strings_and_literals() {
        let line = highlight_json(r#"{"id": 11, "ok": true, "s": "a\"b"}"#);
        let tones: Vec<(String, Tone)> = line.into_iter().map(|p| (p.text, p.tone)).collect();
        assert!(tones.contains(&("\"id\"".into(), Tone::JsonKey)));
        assert!(tones.contains(&("11".into(), Tone::JsonLiteral)));
        assert!(tones.contains(&("\"a\\\"b\"".into(), Tone::JsonString)));
    }
}
