//! Malformed pages: a response with a `tools/list` request's id that breaks
//! the response rules (both `result` and `error`, neither, a wrong or
//! missing `jsonrpc`, an id of a forbidden type, an error object without
//! an integer `code` and a string `message`) is no page and no error. The
//! walker skips it (logged) and keeps waiting for the real page; and a
//! second response to a page already answered is not the next page's.
//! Rules: JSON-RPC 2.0 §5 and 2026-07-28 basic/index › Responses (see
//! [`crate::check::toolkit::as_server::malformed`]).

use serde_json::json;

use super::{CURSOR, NAMES, all_listed, list_request, page};
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed::{self, Malformed, marker, shows};
use crate::check::toolkit::as_server::respond;
use crate::check::toolkit::{CaseResult, Failure};

const DUPLICATE: &str = "a second response to page 1";

pub(super) fn skipped(s: &mut Session) -> CaseResult {
    let mut sent: Vec<Malformed> = Vec::new();
    walk(s, &mut sent).map_err(|f| {
        let shown = malformed::shown(s, &f);
        taken(f, &sent, &shown)
    })
}

fn walk(s: &mut Session, sent: &mut Vec<Malformed>) -> CaseResult {
    let first = list_request(s, None)?;
    *sent = malformed::responses(
        &first,
        |label| page(&[marker(label).as_str()], None, Some(60_000)),
        |label| json!({"code": -32603, "message": marker(label)}),
    );
    for m in sent.iter() {
        s.send_json(&m.frame)?;
    }
    respond(s, &first, page(&NAMES[..3], Some(""), Some(60_000)))?;
    let second = list_request(s, Some(""))?;
    respond(s, &first, page(&[marker(DUPLICATE).as_str()], None, Some(60_000)))?;
    respond(s, &second, page(&NAMES[3..5], Some(CURSOR), Some(60_000)))?;
    let third = list_request(s, Some(CURSOR))?;
    respond(s, &third, page(&NAMES[5..], None, Some(60_000)))?;
    all_listed(s, 1)
}

/// A failure that shows a marker: the walker took that response.
fn taken(f: Failure, sent: &[Malformed], shown: &[String]) -> Failure {
    let skip = "A malformed response is no answer at all: skip it (on_message logs it) and keep waiting for a well-formed response with the request's id";
    if shows(shown, &marker(DUPLICATE)) {
        return Failure {
            reason: format!(
                "the walker took {DUPLICATE} (id {}) for page 2's: a response answers the request whose id it carries, and page 1 was already answered. Match the id exactly",
                sent.first()
                    .and_then(|m| m.frame.get("id"))
                    .cloned()
                    .unwrap_or_default()
            ),
            ..f
        };
    }
    match malformed::taken(sent, shown) {
        Some(m) => Failure {
            reason: format!(
                "the walker took the response with {} for page 1, but {}. {skip}",
                m.label, m.rule
            ),
            ..f
        },
        None => f,
    }
}
