//! 08's opaque cursors: a walk whose cursors tempt a walker to read them
//! (a number, JSON, a repeat, a long and a non-ASCII one). The members of
//! the class, each with the mutant that fails it
//! (`tests/suite/checkers/ex08_pagination_walker.rs`), are listed in the
//! checker's module doc.

use serde_json::{Value, json};

use super::{list_request, list_request_or, listed, page};
use crate::check::session::Session;
use crate::check::toolkit::as_server::respond;
use crate::check::toolkit::{CaseResult, Failure};

/// The cursors of [`cursors`]' walk, as (what each looks like, the
/// value): page i + 1 ends with the i-th, and the last page has none.
fn opaque() -> [(&'static str, String); 6] {
    let object = r#"{"page":4,"size":1}"#.to_string();
    [
        ("looks like a number", "0".into()),
        ("looks like JSON null", "null".into()),
        ("is the text of a JSON object", object.clone()),
        ("repeats the cursor before it", object),
        ("is 4 KiB long", format!("long-{}-end", "0123456789abcdef".repeat(256))),
        ("is not ASCII", "é✓日本語😀".into()),
    ]
}

/// A cursor for reasons: a long one cut short.
fn shown(cursor: &str) -> String {
    match cursor.char_indices().nth(40) {
        Some((at, _)) => {
            let start = json!(&cursor[..at]).to_string();
            format!(
                "{}…\" ({} characters)",
                start.trim_end_matches('"'),
                cursor.chars().count()
            )
        }
        None => json!(cursor).to_string(),
    }
}

/// Seven pages of one tool each, chained by cursors a walker is tempted
/// to read ([`opaque`]); the listing must hold all seven. Each cursor must
/// go back exactly, and none may end the list: "Don't make any
/// determination based on cursor value other than whether a non-null value
/// was provided" (2026-07-28 server/utilities/pagination › Implementation
/// Guidelines). The spec says nothing of a repeated cursor, so that rule
/// covers it too: a stateful server may hand out the same one twice.
pub(super) fn cursors(s: &mut Session) -> CaseResult {
    const SEVEN: [&str; 7] = ["one", "two", "three", "four", "five", "six", "seven"];
    let cursors = opaque();
    let mut id = list_request(s, None)?;
    for (at, (what, cursor)) in cursors.iter().enumerate() {
        respond(s, &id, page(&SEVEN[at..=at], Some(cursor), Some(60_000)))?;
        let before = at.checked_sub(1).map(|b| cursors[b].1.as_str());
        id = list_request_shown(s, cursor, |_| {
            format!(
                "the walker stopped after page {}, whose nextCursor {what} ({}), but it was there: only an absent nextCursor ends the list. \"Don't make any determination based on cursor value other than whether a non-null value was provided\" (2026-07-28 server/utilities/pagination › Implementation Guidelines){}",
                at + 1,
                shown(cursor),
                if before == Some(cursor.as_str()) {
                    "; the spec gives no leave to stop on a repeat"
                } else {
                    ""
                }
            )
        })?;
    }
    respond(s, &id, page(&SEVEN[6..], None, Some(60_000)))?;
    let names = listed(s, 1)?;
    if names == SEVEN {
        return Ok(());
    }
    Err(Failure::mismatch(
        "list_tools should return the seven tools of the seven pages, in the server's order",
        json!(SEVEN),
        json!(names),
    ))
}

/// [`list_request_or`] for a cursor that may be long: the reason for one
/// sent back changed shows both cut short.
fn list_request_shown(
    s: &mut Session,
    cursor: &str,
    on_stall: impl FnOnce(String) -> String,
) -> Result<Value, Failure> {
    list_request_or(s, Some(cursor), on_stall).map_err(|f| match f.reason.starts_with("the cursor comes back as") {
        true => {
            let got = f.actual.as_ref().and_then(|r| r.pointer("/params/cursor")).cloned().unwrap_or(Value::Null);
            let got = match got.as_str() {
                Some(text) => shown(text),
                None => got.to_string(),
            };
            Failure {
                reason: format!(
                    "the cursor comes back as {got}, but the server handed out {}. A cursor is opaque: pass it back byte for byte, as the string it is, whatever it looks like (no parsing, trimming, cutting or re-encoding)",
                    shown(cursor)
                ),
                ..f
            }
        }
        false => f,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursors_hold_each_member_once() {
        let cursors: Vec<String> = opaque().into_iter().map(|(_, c)| c).collect();
        assert_eq!(cursors[0].parse::<i64>(), Ok(0));
        assert_eq!(serde_json::from_str::<Value>(&cursors[1]).unwrap(), Value::Null);
        assert!(serde_json::from_str::<Value>(&cursors[2]).unwrap().is_object());
        assert_eq!(cursors[3], cursors[2]);
        assert_eq!(cursors[4].chars().count(), 4105);
        assert!(!cursors[5].is_ascii());
        let repeats = (1..cursors.len())
            .filter(|&i| cursors[..i].contains(&cursors[i]))
            .count();
        assert_eq!(repeats, 1);
    }

    #[test]
    fn a_long_cursor_is_shown_cut() {
        assert_eq!(shown("0"), "\"0\"");
        let long = format!("long-{}", "x".repeat(100));
        assert_eq!(shown(&long), format!("\"long-{}…\" (105 characters)", "x".repeat(35)));
    }
}
