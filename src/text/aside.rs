//! How an aside is laid out open: a box of its own, apart from the rules.

use super::{Line, Piece, Tone};
use crate::content::lesson::Aside;

/// The head line of an aside: its kind and what it holds, such as
/// `In the wild · how five SDKs answer a second initialize` or
/// `Story · modelcontextprotocol/python-sdk#2057`.
pub fn aside_title(aside: &Aside) -> String {
    let summary = aside.summary();
    if summary.is_empty() {
        aside.kind.name().to_string()
    } else {
        format!("{} · {summary}", aside.kind.name())
    }
}

/// An open aside is drawn as a box of its own: a rounded corner with its
/// title, a bar down its blocks (laid out two columns narrower), a
/// closing corner.
pub(super) fn lay_out_aside(aside: &Aside, width: usize, lines: &mut Vec<Line>) {
    lines.push(vec![Piece::new(format!("╭─ {}", aside_title(aside)), Tone::Label)]);
    let mut inner = Vec::new();
    super::lay_out_blocks(&aside.blocks, width.saturating_sub(2), &mut inner);
    for line in inner {
        let mut boxed = vec![Piece::new(if line.is_empty() { "│" } else { "│ " }, Tone::Label)];
        boxed.extend(line);
        lines.push(boxed);
    }
    lines.push(vec![Piece::new("╰─", Tone::Label)]);
}
