//! The one rule for where a line wider than its room continues, shared by
//! every wrapper of the course (lesson code and prose, transcripts, the
//! exercise pane's compiler output and stderr, the CLI's reports, the
//! quiz):
//!
//! - a line continues after a `,` `:` `/` or space ([`is_boundary`]) when
//!   one lies within the last [`WINDOW`] columns of the room;
//! - inside a token (at the last character that fits) only when none does.
//!
//! So `"io.modelcontextprotocol/protocolVersion"` continues after its `/`,
//! `"text/event-stream"` after `text/`, and a token with no boundary near
//! the end of the line (`"mcplings-checker"` in a narrow pane) at the edge.
//! [`Rule::Exact`] (a transcript's raw view) always breaks at the last
//! character that fits. The text itself never changes: a break only says
//! where the next line starts.

use unicode_width::UnicodeWidthChar;

/// How many columns from the end of a line a boundary may lie and still be
/// where the line breaks; further back, the line breaks inside its token
/// (a break that early wastes the line).
pub const WINDOW: usize = 12;

/// Where a line may continue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// After a boundary within the last [`WINDOW`] columns, else inside
    /// the token.
    Boundary,
    /// At the last character that fits (the exact text, as sent).
    Exact,
}

/// Whether a line may continue after `c`: a `,` `:` `/` or space.
pub fn is_boundary(c: char) -> bool {
    matches!(c, ',' | ':' | '/' | ' ')
}

/// How many of `chars` go on a line that has `room` columns left, by
/// `rule`: all of them when they fit, else at least one (a line always
/// makes progress), and never more than fit unless the first alone is
/// wider than `room`.
pub fn take(chars: &[char], room: usize, rule: Rule) -> usize {
    let mut cols = 0;
    let mut fit = 0;
    // The last boundary among the characters that fit, as (count, column).
    let mut boundary = None;
    for &c in chars {
        let w = c.width().unwrap_or(0);
        if cols + w > room {
            break;
        }
        cols += w;
        fit += 1;
        if is_boundary(c) {
            boundary = Some((fit, cols));
        }
    }
    if fit == chars.len() {
        return fit;
    }
    if fit == 0 {
        return 1.min(chars.len());
    }
    if rule == Rule::Exact {
        return fit;
    }
    // (With none in the window, a break right before a space is at a
    // boundary too: the continuation starts with it.)
    match boundary {
        Some((count, col)) if room.saturating_sub(col) < WINDOW => count,
        _ => fit,
    }
}

/// `chars` broken into lines by `rule`: the first `first` columns wide,
/// the others `rest` columns wide. Returns each line's range of `chars`.
pub fn split(chars: &[char], first: usize, rest: usize, rule: Rule) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut room = first;
    while at < chars.len() {
        let n = take(&chars[at..], room, rule);
        out.push(at..at + n);
        at += n;
        room = rest;
    }
    if out.is_empty() {
        out.push(0..0);
    }
    out
}

/// Whether the break between line `before` and its continuation `after`
/// (their text without leads) keeps [`Rule::Boundary`], for a line whose
/// room was `room` columns: it lies at a boundary (after a boundary
/// character, or before a space), or `before` did not fill its room (so
/// it broke early, which only a boundary allows), or no boundary lay
/// within the last [`WINDOW`] columns of `before`. The views' and the
/// CLI's tests hold every continuation they draw to it.
pub fn break_is_kept(before: &str, after: &str, room: usize) -> bool {
    use unicode_width::UnicodeWidthStr;
    let last = before.chars().last();
    if last.is_none_or(is_boundary) || after.starts_with(' ') || before.width() < room {
        return true;
    }
    // Inside a token: only when no boundary lay in the window.
    let mut cols = 0;
    for c in before.chars().rev() {
        cols += c.width().unwrap_or(0);
        if cols > WINDOW {
            break;
        }
        if is_boundary(c) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, width: usize, rule: Rule) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        split(&chars, width, width, rule)
            .into_iter()
            .map(|r| chars[r].iter().collect())
            .collect()
    }

    #[test]
    fn a_boundary_in_the_last_twelve_columns_takes_the_break() {
        // Widths worked out by hand: the `/` is column 25 of 30, so 5
        // columns from the end; the line ends after it.
        let text = r#""io.modelcontextprotocol/protocolVersion":"2025-11-25""#;
        assert_eq!(
            lines(text, 30, Rule::Boundary),
            [r#""io.modelcontextprotocol/"#, r#"protocolVersion":"2025-11-25""#]
        );
        assert_eq!(
            lines(r#""text/event-stream""#, 12, Rule::Boundary),
            [r#""text/"#, r#"event-stream"#, r#"""#]
        );
    }

    #[test]
    fn without_a_boundary_in_the_window_the_token_is_broken_at_the_edge() {
        // The space is column 3 of 20: 17 columns back, outside the window.
        assert_eq!(
            lines("ab mcplings-checker-of-things", 20, Rule::Boundary),
            ["ab mcplings-checker-", "of-things"]
        );
        // A comma at column 7 of 19 lies 13 columns from the end, outside
        // the window; at column 8 it is within the last 12.
        assert_eq!(
            lines("aaaaaa,bbbbbbbbbbbbbX", 19, Rule::Boundary)[0],
            "aaaaaa,bbbbbbbbbbbb"
        );
        assert_eq!(lines("aaaaaaa,bbbbbbbbbbbbX", 19, Rule::Boundary)[0], "aaaaaaa,");
    }

    #[test]
    fn exact_breaks_at_the_last_character_that_fits() {
        let text = r#""io.modelcontextprotocol/protocolVersion""#;
        assert_eq!(
            lines(text, 30, Rule::Exact),
            [r#""io.modelcontextprotocol/proto"#, r#"colVersion""#]
        );
    }

    #[test]
    fn a_break_before_a_space_is_a_boundary_and_nothing_is_lost() {
        assert_eq!(lines("abcdef ghi", 6, Rule::Boundary), ["abcdef", " ghi"]);
        let text = "a line, of words: and/paths that goes on for a while";
        for width in 8..40 {
            let got = lines(text, width, Rule::Boundary);
            assert_eq!(got.concat(), text);
            for pair in got.windows(2) {
                assert!(break_is_kept(&pair[0], &pair[1], width), "{width}: {got:?}");
            }
        }
    }

    #[test]
    fn the_check_flags_a_break_inside_a_token_with_a_boundary_in_reach() {
        assert!(!break_is_kept("abc, defghijk", "lm", 13));
        assert!(break_is_kept("abc, defghijk", "lm", 14), "did not fill its room");
        assert!(break_is_kept("abcdefghijklmnop", "q", 16), "no boundary at all");
        assert!(break_is_kept("abc,", "defg", 4));
    }
}
