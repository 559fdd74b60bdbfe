//! The one rule for a line of code or evidence wider than its pane, used by
//! the lessons, the exercise pane (transcripts, expected and actual
//! frames, hints and reasons), `wire --view` and the CLI's reports:
//!
//! - a line that fits is shown as it is;
//! - a JSON line wider than its pane is pretty-printed: each object or
//!   array that fits stays on one line, the others put one member per line.
//!   Only whitespace changes, every token keeps its exact text (the keys'
//!   order, a number's spelling, a string's escapes);
//! - a line that is not JSON, or whose exact bytes matter (the raw view of
//!   a transcript), is wrapped: at a space or comma outside quotes where it
//!   can be for code ([`Show::Code`]), at character boundaries for evidence;
//! - every line after a wire line's first starts with the continuation
//!   lead (`┆`), so a frame that is one line on the wire never looks like
//!   two; and characters a terminal would not show are made visible
//!   ([`super::visible`]).
//!
//! Nothing is ever cut inside a token without a `┆` saying so.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Line, Piece, Tone, push, visible, wrap};

/// How a line is shown when it is wider than its pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// A line of a lesson's code block: JSON (when `json`) is
    /// pretty-printed; other text breaks at a space or comma outside
    /// quotes where it can.
    Code {
        /// The block is JSON: highlight it, pretty-print a line that parses.
        json: bool,
    },
    /// Evidence (a transcript entry, a frame a check compared): JSON is
    /// pretty-printed, anything else breaks at character boundaries.
    Evidence,
    /// The exact text (a transcript's raw view): always broken at
    /// character boundaries, never reflowed.
    Raw,
}

/// Lays out one line `text` in `width` columns (the leads included): the
/// first output line starts with `first`, every other with `rest` (the
/// continuation mark, such as `┆ `). Returns at least one line.
pub fn lay_out(text: &str, width: usize, show: Show, first: Piece, rest: Piece) -> Vec<Line> {
    let lead = first.text.width().max(rest.text.width());
    let room = width.saturating_sub(lead).max(8);
    let json = !matches!(show, Show::Code { json: false });
    let shown = visible(text);
    let highlight = |s: &str| {
        if json {
            highlight_json(s)
        } else {
            vec![Piece::new(s, Tone::Verbatim)]
        }
    };
    if shown.width() <= room || show == Show::Raw {
        return hard_wrap(highlight(&shown), lead + room, first, rest);
    }
    if json && let Some(lines) = pretty(text, room) {
        return lines
            .into_iter()
            .enumerate()
            .flat_map(|(i, (indent, line))| {
                let mark = if i == 0 { first.clone() } else { rest.clone() };
                let mut lead_line = vec![mark];
                if indent > 0 {
                    lead_line.push(Piece::new(" ".repeat(indent), Tone::Plain));
                }
                let pad = Piece::new(format!("{}{}", rest.text, " ".repeat(indent + 2)), rest.tone);
                break_line(lead_line, line, lead + room, pad, Breaks::Tokens)
            })
            .collect();
    }
    match show {
        Show::Code { .. } => {
            // A continued line of code hangs under its own indent.
            let indent = shown.len() - shown.trim_start_matches(' ').len();
            let hang = (indent + 2).min(room / 2);
            let rest = Piece::new(format!("{}{}", rest.text, " ".repeat(hang)), rest.tone);
            break_line(vec![first], highlight(&shown), lead + room, rest, Breaks::Spaces)
        }
        _ => hard_wrap(highlight(&shown), lead + room, first, rest),
    }
}

/// Word-wraps `pieces` as [`wrap`] does, except that a code piece that is
/// a JSON value wider than a line is laid out on lines of its own by
/// [`lay_out`] (its continuations behind `┆`), with the punctuation right
/// after it kept on its last line.
pub fn wrap_with_frames(pieces: &[Piece], width: usize, first: &str, rest: &str) -> Vec<Line> {
    let room = width.saturating_sub(rest.width());
    // Wider than a line together with the punctuation glued to its end.
    let wide_json = |p: &Piece, next: Option<&&Piece>| {
        let glued = next
            .filter(|n| n.tone != Tone::Code)
            .map_or(0, |n| n.text.split(' ').next().unwrap_or("").width());
        p.tone == Tone::Code
            && p.text.width() + glued > room
            && serde_json::from_str::<serde::de::IgnoredAny>(&p.text).is_ok()
    };
    let mut out: Vec<Line> = Vec::new();
    let mut pending: Vec<Piece> = Vec::new();
    let lead = |out: &Vec<Line>| if out.is_empty() { first } else { rest };
    let mut iter = pieces.iter().peekable();
    while let Some(piece) = iter.next() {
        if !wide_json(piece, iter.peek()) {
            pending.push(piece.clone());
            continue;
        }
        if pending.iter().any(|p| !p.text.trim().is_empty()) {
            let l = Piece::new(lead(&out), Tone::Plain);
            out.extend(wrap(&pending, width, l, Piece::new(rest, Tone::Plain)));
        }
        pending.clear();
        let frame_first = Piece::new(format!("{}│ ", lead(&out)), Tone::Marker);
        let frame_rest = Piece::new(format!("{rest}┆ "), Tone::Marker);
        out.extend(lay_out(
            &piece.text,
            width,
            Show::Code { json: true },
            frame_first,
            frame_rest,
        ));
        // The punctuation that follows the frame ends its last line.
        if let Some(next) = iter.next_if(|p| p.tone != Tone::Code) {
            let cut = next.text.find(' ').unwrap_or(next.text.len());
            if let Some(last) = out.last_mut() {
                push(last, &next.text[..cut], next.tone);
            }
            let after = next.text[cut..].trim_start();
            if !after.is_empty() {
                pending.push(Piece::new(after, next.tone));
            }
        }
    }
    if !pending.is_empty() || out.is_empty() {
        let l = Piece::new(lead(&out), Tone::Plain);
        out.extend(wrap(&pending, width, l, Piece::new(rest, Tone::Plain)));
    }
    out
}

/// `words` (each its styled segments and whether a space precedes it)
/// with every word wider than `room` split after each `/`, the parts
/// joined without a space, so a long path wraps between its folders.
pub(super) fn split_long_words(words: Vec<(Vec<Piece>, bool)>, room: usize) -> Vec<(Vec<Piece>, bool)> {
    let mut out = Vec::new();
    for (segments, space) in words {
        let w: usize = segments.iter().map(|p| p.text.width()).sum();
        if w <= room || !segments.iter().any(|p| p.text.contains('/')) {
            out.push((segments, space));
            continue;
        }
        let mut part: Vec<Piece> = Vec::new();
        let mut first = true;
        for segment in segments {
            for c in segment.text.chars() {
                let mut buf = [0u8; 4];
                push(&mut part, c.encode_utf8(&mut buf), segment.tone);
                if c == '/' {
                    out.push((std::mem::take(&mut part), first && space));
                    first = false;
                }
            }
        }
        if !part.is_empty() {
            out.push((part, first && space));
        }
    }
    out
}

/// Breaks a line of code at `width` columns: the first piece starts with
/// `first`, each continuation with `rest`.
pub fn hard_wrap(line: Line, width: usize, first: Piece, rest: Piece) -> Vec<Line> {
    break_line(vec![first], line, width, rest, Breaks::Characters)
}

/// Where [`break_line`] may break a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Breaks {
    /// At any character.
    Characters,
    /// After a space or comma outside quotes in the line's second half,
    /// else at a character (code: a break too early wastes the line).
    Spaces,
    /// After any space or comma outside quotes, else at a character (a
    /// pretty-printed line: its tokens are short, a lone `,` is not).
    Tokens,
}

/// Appends `line` to `start`, breaking before `width` columns where
/// `breaks` allows.
fn break_line(start: Line, line: Line, width: usize, rest: Piece, breaks: Breaks) -> Vec<Line> {
    let limit = width.max(rest.text.width() + 8);
    let chars: Vec<(char, Tone)> = line
        .iter()
        .flat_map(|p| p.text.chars().map(move |c| (c, p.tone)))
        .collect();
    let mut out = Vec::new();
    let mut current = start;
    let mut used: usize = current.iter().map(|p| p.text.width()).sum();
    let mut i = 0;
    let mut quoted = false;
    while i < chars.len() {
        // How many characters fit, and the last place to break among them.
        let (mut end, mut cols, mut best) = (i, used, None);
        let mut q = quoted;
        while end < chars.len() {
            let (c, _) = chars[end];
            let cw = c.width().unwrap_or(0);
            if cols + cw > limit {
                break;
            }
            cols += cw;
            end += 1;
            if c == '"' && (end < 2 || chars[end - 2].0 != '\\') {
                q = !q;
            }
            if !q && (c == ' ' || c == ',') {
                best = Some(end);
            }
        }
        let fits = end == chars.len();
        let stop = match best {
            Some(b)
                if !fits
                    && (breaks == Breaks::Tokens
                        || breaks == Breaks::Spaces
                            && cols_between(&chars, i, b) * 2 >= limit.saturating_sub(used)) =>
            {
                b
            }
            _ => end.max(i + 1),
        };
        for &(c, tone) in &chars[i..stop] {
            if c == '"' {
                quoted = !quoted;
            }
            let mut buf = [0u8; 4];
            push(&mut current, c.encode_utf8(&mut buf), tone);
        }
        i = stop;
        if i < chars.len() {
            out.push(std::mem::replace(&mut current, vec![rest.clone()]));
            used = rest.text.width();
        }
    }
    out.push(current);
    out
}

fn cols_between(chars: &[(char, Tone)], from: usize, to: usize) -> usize {
    chars[from..to].iter().map(|(c, _)| c.width().unwrap_or(0)).sum()
}

/// A JSON token: its exact text and its tone.
#[derive(Debug, Clone)]
struct Token {
    text: String,
    tone: Tone,
}

/// A JSON value as tokens: a scalar, or a container with its members
/// (each with its key for an object).
#[derive(Debug)]
enum Node {
    Scalar(Token),
    Container {
        open: char,
        close: char,
        members: Vec<(Option<Token>, Node)>,
    },
}

/// `text` pretty-printed for `room` columns, as (indent, pieces) lines, or
/// `None` when it is not one JSON value.
fn pretty(text: &str, room: usize) -> Option<Vec<(usize, Line)>> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let tokens = tokens(text);
    let mut at = 0;
    let node = parse(&tokens, &mut at)?;
    let mut lines = vec![(0, Vec::new())];
    place(&node, 0, room, &mut lines, "");
    Some(lines)
}

fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            let text = visible(&chars[start..i].iter().collect::<String>()).into_owned();
            let key = chars[i..].iter().find(|c| !c.is_whitespace()) == Some(&':');
            let tone = if key { Tone::JsonKey } else { Tone::JsonString };
            out.push(Token { text, tone });
        } else if "{}[],:".contains(c) {
            i += 1;
            out.push(Token {
                text: c.to_string(),
                tone: Tone::JsonPunct,
            });
        } else if c.is_whitespace() {
            i += 1;
        } else {
            while i < chars.len() && !"{}[],:\"".contains(chars[i]) && !chars[i].is_whitespace() {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                tone: Tone::JsonLiteral,
            });
        }
    }
    out
}

fn parse(tokens: &[Token], at: &mut usize) -> Option<Node> {
    let token = tokens.get(*at)?.clone();
    *at += 1;
    let (open, close) = match token.text.as_str() {
        "{" => ('{', '}'),
        "[" => ('[', ']'),
        _ => return Some(Node::Scalar(token)),
    };
    let mut members = Vec::new();
    loop {
        let next = &tokens.get(*at)?.text;
        if next.starts_with(close) {
            *at += 1;
            break;
        }
        if next == "," {
            *at += 1;
            continue;
        }
        let key = if open == '{' {
            let key = tokens.get(*at)?.clone();
            *at += 2; // the key and its colon
            Some(key)
        } else {
            None
        };
        members.push((key, parse(tokens, at)?));
    }
    Some(Node::Container { open, close, members })
}

/// The width of `node` written on one line.
fn flat_width(node: &Node) -> usize {
    match node {
        Node::Scalar(t) => t.text.width(),
        Node::Container { members, .. } => {
            2 + members
                .iter()
                .map(|(k, v)| k.as_ref().map_or(0, |k| k.text.width() + 2) + flat_width(v))
                .sum::<usize>()
                + 2 * members.len().saturating_sub(1)
        }
    }
}

fn put(lines: &mut [(usize, Line)], text: &str, tone: Tone) {
    if let Some((_, line)) = lines.last_mut() {
        push(line, text, tone);
    }
}

fn used(lines: &[(usize, Line)]) -> usize {
    lines.last().map_or(0, |(indent, l)| {
        indent + l.iter().map(|p| p.text.width()).sum::<usize>()
    })
}

/// Writes `node` at the end of the last line, followed by `after` (a comma
/// or nothing): on that line when it fits in `room`, else one member per
/// line, indented by `indent + 2`.
fn place(node: &Node, indent: usize, room: usize, lines: &mut Vec<(usize, Line)>, after: &str) {
    let fits = used(lines) + flat_width(node) + after.width() <= room;
    match node {
        Node::Scalar(t) => put(lines, &t.text, t.tone),
        Node::Container { open, close, members } if fits || members.is_empty() => {
            put(lines, &open.to_string(), Tone::JsonPunct);
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    put(lines, ",", Tone::JsonPunct);
                    put(lines, " ", Tone::Plain);
                }
                if let Some(key) = key {
                    put(lines, &key.text, key.tone);
                    put(lines, ":", Tone::JsonPunct);
                    put(lines, " ", Tone::Plain);
                }
                place(value, indent + 2, room, lines, "");
            }
            put(lines, &close.to_string(), Tone::JsonPunct);
        }
        Node::Container { open, close, members } => {
            put(lines, &open.to_string(), Tone::JsonPunct);
            for (i, (key, value)) in members.iter().enumerate() {
                lines.push((indent + 2, Vec::new()));
                if let Some(key) = key {
                    put(lines, &key.text, key.tone);
                    put(lines, ":", Tone::JsonPunct);
                    put(lines, " ", Tone::Plain);
                }
                let comma = if i + 1 < members.len() { "," } else { "" };
                place(value, indent + 2, room, lines, comma);
                put(lines, comma, Tone::JsonPunct);
            }
            lines.push((indent, Vec::new()));
            put(lines, &close.to_string(), Tone::JsonPunct);
        }
    }
}

/// Splits one line of JSON text into highlighted pieces. It does not need
/// to be valid JSON (a frame may span lines).
pub fn highlight_json(text: &str) -> Line {
    let mut out: Line = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(chars.len());
            let s: String = chars[start..i].iter().collect();
            let next = chars[i..].iter().find(|c| !c.is_whitespace());
            let tone = if next == Some(&':') {
                Tone::JsonKey
            } else {
                Tone::JsonString
            };
            push(&mut out, &s, tone);
        } else if c.is_ascii_digit() || c == '-' || c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || "+-.".contains(chars[i])) {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            push(&mut out, &s, Tone::JsonLiteral);
        } else {
            let mut buf = [0u8; 4];
            let tone = if c.is_whitespace() {
                Tone::Plain
            } else {
                Tone::JsonPunct
            };
            push(&mut out, c.encode_utf8(&mut buf), tone);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
#[path = "frame_tests.rs"]
mod tests;
