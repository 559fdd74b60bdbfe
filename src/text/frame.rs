//! The one rule for a line of code or evidence wider than its pane, used by
//! the lessons, the exercise pane (transcripts, expected and actual
//! frames, hints and reasons), `wire --view` and the CLI's reports:
//!
//! - a line that fits is shown as it is;
//! - a JSON line wider than its pane is pretty-printed: each object or
//!   array that fits stays on one line, the others put one member per line.
//!   Only whitespace changes, every token keeps its exact text (the keys'
//!   order, a number's spelling, a string's escapes);
//! - a line that is not JSON, a pretty-printed line still too wide, and a
//!   line shown as sent ([`Show::Wire`]) continue by the one rule of
//!   [`super::breaks`]: after a `,` `:` `/` or space near the end of the
//!   line, inside a token only when none is near; the raw view of a
//!   transcript ([`Show::Raw`]) at the last character that fits;
//! - a continuation starts with the continuation lead (`┆`), and only a
//!   continuation does: the lines of a pretty-printed frame after its first
//!   carry the body lead ([`Leads::body`]), so `┆` always means "the line
//!   above goes on here". Characters a terminal would not show are made
//!   visible ([`super::visible`]).

use unicode_width::UnicodeWidthStr;

use super::breaks::{self, Rule};
use super::{Line, Piece, Tone, push, visible, wrap};

/// How a line is shown when it is wider than its pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// A line of a lesson's code block: JSON (when `json`) is
    /// pretty-printed; other text continues by the rule, each continuation
    /// hanging under the line's own indent.
    Code {
        /// The block is JSON: highlight it, pretty-print a line that parses.
        json: bool,
    },
    /// Evidence (a transcript entry, a frame a check compared): JSON is
    /// pretty-printed, anything else continues by the rule.
    Evidence,
    /// A transcript line as sent, in the CLI's report: never reflowed,
    /// continued by the rule (at a boundary near the end of the line).
    Wire,
    /// The exact text (a transcript's raw view): always broken at the last
    /// character that fits, never reflowed.
    Raw,
}

/// The leads of the lines [`lay_out`] makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leads {
    /// The first line's (a transcript's `◀ `, a code block's `│ `).
    pub first: Piece,
    /// The other lines of a pretty-printed frame: not continuations, so no
    /// `┆` (blanks as wide as [`Leads::first`], or a code block's `│ `).
    pub body: Piece,
    /// A continuation's: the line above goes on here (`┆ `).
    pub rest: Piece,
}

impl Leads {
    /// `first` on the first line, `rest` on a continuation, and blanks as
    /// wide as `first` (in its tone) on a pretty-printed frame's other
    /// lines.
    pub fn new(first: Piece, rest: Piece) -> Leads {
        let body = Piece::new(" ".repeat(first.text.width()), first.tone);
        Leads { first, body, rest }
    }

    /// These leads with `body` on a pretty-printed frame's lines after the
    /// first.
    pub fn with_body(mut self, body: Piece) -> Leads {
        self.body = body;
        self
    }
}

/// Lays out one line `text` in `width` columns (the leads included), with
/// `leads`. Returns at least one line.
pub fn lay_out(text: &str, width: usize, show: Show, leads: &Leads) -> Vec<Line> {
    let Leads { first, body, rest } = leads;
    let lead = [first, body, rest].iter().map(|p| p.text.width()).max().unwrap_or(0);
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
    let rule = if show == Show::Raw { Rule::Exact } else { Rule::Boundary };
    if shown.width() <= room || matches!(show, Show::Raw | Show::Wire) {
        return break_line(vec![first.clone()], highlight(&shown), lead + room, rest.clone(), rule);
    }
    if json && let Some(lines) = pretty(text, room) {
        return lines
            .into_iter()
            .enumerate()
            .flat_map(|(i, (indent, line))| {
                let mark = if i == 0 { first.clone() } else { body.clone() };
                let mut lead_line = vec![mark];
                if indent > 0 {
                    lead_line.push(Piece::new(" ".repeat(indent), Tone::Plain));
                }
                let pad = Piece::new(format!("{}{}", rest.text, " ".repeat(indent + 2)), rest.tone);
                break_line(lead_line, line, lead + room, pad, Rule::Boundary)
            })
            .collect();
    }
    match show {
        Show::Code { .. } => {
            // A continued line of code hangs under its own indent.
            let indent = shown.len() - shown.trim_start_matches(' ').len();
            let hang = (indent + 2).min(room / 2);
            let rest = Piece::new(format!("{}{}", rest.text, " ".repeat(hang)), rest.tone);
            break_line(
                vec![first.clone()],
                highlight(&shown),
                lead + room,
                rest,
                Rule::Boundary,
            )
        }
        _ => break_line(
            vec![first.clone()],
            highlight(&shown),
            lead + room,
            rest.clone(),
            Rule::Boundary,
        ),
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
        let leads = Leads::new(
            Piece::new(format!("{}│ ", lead(&out)), Tone::Marker),
            Piece::new(format!("{rest}┆ "), Tone::Marker),
        )
        .with_body(Piece::new(format!("{rest}│ "), Tone::Marker));
        out.extend(lay_out(&piece.text, width, Show::Code { json: true }, &leads));
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

/// Appends `line` to `start`, breaking it into lines of `width` columns
/// by `rule` ([`breaks::take`]), each continuation starting with `rest`.
fn break_line(start: Line, line: Line, width: usize, rest: Piece, rule: Rule) -> Vec<Line> {
    let limit = width.max(rest.text.width() + 8);
    let chars: Vec<(char, Tone)> = line
        .iter()
        .flat_map(|p| p.text.chars().map(move |c| (c, p.tone)))
        .collect();
    let bare: Vec<char> = chars.iter().map(|(c, _)| *c).collect();
    let mut out = Vec::new();
    let mut current = start;
    let mut used: usize = current.iter().map(|p| p.text.width()).sum();
    let mut i = 0;
    while i < chars.len() {
        let n = breaks::take(&bare[i..], limit.saturating_sub(used), rule);
        for &(c, tone) in &chars[i..i + n] {
            let mut buf = [0u8; 4];
            push(&mut current, c.encode_utf8(&mut buf), tone);
        }
        i += n;
        if i < chars.len() {
            out.push(std::mem::replace(&mut current, vec![rest.clone()]));
            used = rest.text.width();
        }
    }
    out.push(current);
    out
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
