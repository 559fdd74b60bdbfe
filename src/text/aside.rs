//! How an aside is laid out: folded, one line that says what it holds
//! (`▸ In the wild · how five SDKs answer a second initialize`); open, the
//! same head with `▾` and its blocks in a box of their own, apart from the
//! rules.

use super::{Line, Piece, Tone};
use crate::content::lesson::Aside;

/// The head line of an aside: its kind and what it holds, such as
/// `In the wild · how five SDKs answer a second initialize` or
/// `Story · Null id as a notification (modelcontextprotocol/python-sdk#2057)`.
pub fn aside_title(aside: &Aside) -> String {
    let summary = aside.summary();
    if summary.is_empty() {
        aside.kind.name().to_string()
    } else {
        format!("{} · {summary}", aside.kind.name())
    }
}

/// The marker of a folded aside's line.
pub const FOLDED: &str = "▸";
/// The marker of an open aside's head.
pub const OPEN: &str = "▾";

/// Lays out an aside at `width` columns: folded, its head `▸ title` only;
/// open, the head `▾ title`, a bar down its blocks (laid out two columns
/// narrower) and a closing corner. A head too wide wraps under its title.
/// Returns how many lines the head took.
pub(super) fn lay_out_aside(aside: &Aside, width: usize, open: bool, lines: &mut Vec<Line>) -> usize {
    let marker = if open { OPEN } else { FOLDED };
    let head = super::wrap(
        &[Piece::new(aside_title(aside), Tone::Label)],
        width,
        Piece::new(format!("{marker} "), Tone::Label),
        Piece::new("  ", Tone::Label),
    );
    let count = head.len();
    lines.extend(head);
    if !open {
        return count;
    }
    let mut inner = Vec::new();
    super::lesson::lay_out_blocks(&aside.blocks, width.saturating_sub(2), &mut inner);
    for line in inner {
        let mut boxed = vec![Piece::new(if line.is_empty() { "│" } else { "│ " }, Tone::Label)];
        boxed.extend(line);
        lines.push(boxed);
    }
    lines.push(vec![Piece::new("╰─", Tone::Label)]);
    count
}
