//! How a story block is laid out: a box of its own, apart from the rules.

use super::{Line, Piece, Tone, pieces, wrap};
use crate::content::lesson::Story;

/// A story is drawn as a box of its own, apart from the rules around it:
/// a rounded corner with what it tells, a bar down its text, a closing corner.
pub(super) fn lay_out_story(story: &Story, width: usize, lines: &mut Vec<Line>) {
    lines.push(vec![Piece::new(format!("╭─ story · {}", story.reference), Tone::Label)]);
    for (i, paragraph) in story.paragraphs.iter().enumerate() {
        if i > 0 {
            lines.push(vec![Piece::new("│", Tone::Label)]);
        }
        lines.extend(wrap(
            &pieces(paragraph),
            width,
            Piece::new("│ ", Tone::Label),
            Piece::new("│ ", Tone::Label),
        ));
    }
    lines.push(vec![Piece::new("╰─", Tone::Label)]);
}
