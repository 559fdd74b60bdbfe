//! Tests of the wide-frame rule.

use super::*;
use crate::text::plain;

fn lead(text: &str) -> Piece {
    Piece::new(text, Tone::Label)
}

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(plain).collect()
}

/// As a lesson's code block: every line behind `│ `, a continuation
/// behind `┆ `.
fn show(text: &str, width: usize, how: Show) -> Vec<String> {
    let leads = Leads::new(lead("│ "), lead("┆ ")).with_body(lead("│ "));
    texts(&lay_out(text, width, how, &leads))
}

const FRAME: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"gate","version":"0.1.0"}}}"#;

#[test]
fn a_line_that_fits_is_left_alone() {
    let short = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    for how in [Show::Code { json: true }, Show::Evidence, Show::Raw] {
        assert_eq!(show(short, 70, how), [format!("│ {short}")]);
    }
}

#[test]
fn json_wider_than_the_pane_is_pretty_printed_as_serde_does_when_nothing_fits() {
    // With no room, every container breaks: exactly serde_json's pretty
    // printer (two-space indent, `"key": value`), behind the leads.
    let frame = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"a-longer-server-name","version":"0.1.0"}}}"#;
    let lines = show(frame, 44, Show::Evidence);
    let value: serde_json::Value = serde_json::from_str(frame).unwrap();
    let expected: Vec<String> = serde_json::to_string_pretty(&value)
        .unwrap()
        .lines()
        .map(|l| format!("│ {l}"))
        .collect();
    assert_eq!(lines, expected);
    // Not one of them is a continuation: no `┆`.
    assert!(lines.iter().all(|l| !l.contains('┆')), "{lines:#?}");
}

#[test]
fn what_fits_stays_on_one_line_and_every_token_keeps_its_text() {
    let frame = r#"{"jsonrpc":"2.0","id":7,"result":{"n":1.50e0,"s":"a\u00e9\"b","list":[1,2,3]},"extra":{"deep":{"deeper":true}}}"#;
    let lines = show(frame, 44, Show::Evidence);
    assert_eq!(
        lines,
        [
            "│ {",
            r#"│   "jsonrpc": "2.0","#,
            r#"│   "id": 7,"#,
            r#"│   "result": {"#,
            r#"│     "n": 1.50e0,"#,
            r#"│     "s": "a\u00e9\"b","#,
            r#"│     "list": [1, 2, 3]"#,
            "│   },",
            r#"│   "extra": {"deep": {"deeper": true}}"#,
            "│ }",
        ]
    );
    // Only whitespace changed: the same value, the same number spelling.
    let joined: String = lines.iter().map(|l| &l[l.char_indices().nth(2).unwrap().0..]).collect();
    let back: serde_json::Value = serde_json::from_str(&joined).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(frame).unwrap());
    assert!(joined.contains("1.50e0") && joined.contains(r#""a\u00e9\"b""#));
    assert!(lines.iter().all(|l| l.chars().count() <= 44), "{lines:#?}");
}

#[test]
fn a_pretty_line_still_too_wide_breaks_between_tokens_and_says_so() {
    let frame = r#"{"message":"this string alone is much wider than the pane it is drawn in","code":-32603}"#;
    let lines = show(frame, 30, Show::Evidence);
    assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:#?}");
    // The string's line goes on behind `┆` (three continuations, each
    // after a space); the frame's own lines stay behind `│`.
    let marks: Vec<char> = lines.iter().map(|l| l.chars().next().unwrap()).collect();
    assert_eq!(marks, ['│', '│', '┆', '┆', '┆', '│', '│'], "{lines:#?}");
    assert!(lines[1..4].iter().all(|l| l.ends_with(' ')), "{lines:#?}");
    // Nothing is lost: without the leads and the padding, the tokens are all there.
    let joined: String = lines
        .iter()
        .map(|l| l[l.char_indices().nth(2).unwrap().0..].trim_start())
        .collect();
    assert!(
        joined.contains("this string alone is much wider than the pane it is drawn in"),
        "{joined}"
    );
}

#[test]
fn a_line_that_is_not_json_breaks_at_characters_with_a_dotted_bar_and_visible_controls() {
    let junk = "hello\u{1b}[31m world, this line is not JSON at all and it goes on";
    let lines = show(junk, 24, Show::Evidence);
    assert_eq!(lines[0], "│ hello\\u001b[31m world,");
    assert!(
        lines[1..]
            .iter()
            .all(|l| l.starts_with("┆ ") && l.chars().count() <= 24)
    );
    let joined: String = lines.iter().map(|l| &l[l.char_indices().nth(2).unwrap().0..]).collect();
    assert_eq!(joined, crate::text::visible(junk));
}

#[test]
fn the_raw_view_keeps_the_exact_text_even_for_json() {
    let lines = show(FRAME, 40, Show::Raw);
    let joined: String = lines.iter().map(|l| &l[l.char_indices().nth(2).unwrap().0..]).collect();
    assert_eq!(joined, FRAME);
    assert!(lines.len() > 3 && lines[1..].iter().all(|l| l.starts_with("┆ ")));
    assert!(lines.iter().all(|l| l.chars().count() <= 40));
}

#[test]
fn code_breaks_at_a_boundary_near_the_end_and_hangs_under_its_indent() {
    // 66 columns of room: the space after `odd:` lies 1 column from the
    // end, within the window; the space after `=>` 15 columns back does not.
    let rust = r#"    Frame::Error { id: None } | Frame::Invalid => eprintln!("odd: {raw}"),"#;
    let lines = show(rust, 68, Show::Code { json: false });
    assert_eq!(
        lines,
        [
            r#"│     Frame::Error { id: None } | Frame::Invalid => eprintln!("odd: "#,
            r#"┆       {raw}"),"#
        ]
    );
}

#[test]
fn json_that_is_not_one_value_breaks_at_a_boundary_near_the_end() {
    let line = r#"    "content": [{"type": "text", "text": "a must be an integer"}],"#;
    let lines = show(line, 50, Show::Code { json: true });
    assert_eq!(
        lines,
        [
            r#"│     "content": [{"type": "text", "text": "a "#,
            r#"┆       must be an integer"}],"#
        ]
    );
}

#[test]
fn a_path_wider_than_a_line_wraps_between_its_folders() {
    let text = "encode_request panicked at exercises/01-encode-frames/src/lib.rs:59:5: not yet implemented";
    let lines = crate::text::paragraphs(text, 36, Tone::Plain, "", "");
    assert_eq!(
        texts(&lines),
        [
            "encode_request panicked at",
            "exercises/01-encode-frames/src/",
            "lib.rs:59:5: not yet implemented"
        ]
    );
}
