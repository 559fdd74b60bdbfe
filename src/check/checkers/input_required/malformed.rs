//! Malformed responses are skipped: a response with the call's id that
//! breaks the response rules (both `result` and `error`, neither, a wrong
//! or missing `jsonrpc`, an id of a forbidden type, an error object without
//! an integer `code` and a string `message`) is no answer. The client logs
//! it, skips it and keeps waiting; and a second response to the first call
//! is not the retry's answer. Rules: JSON-RPC 2.0 §5 and 2026-07-28
//! basic/index › Responses (see
//! [`crate::check::toolkit::as_server::malformed`]).

use serde_json::json;

use super::{elicitation, final_result, greet_call, hello};
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed::{self, Malformed, marker, shows};
use crate::check::toolkit::as_server::respond;
use crate::check::toolkit::{CaseResult, Failure, compare};

const DUPLICATE: &str = "a second response to the first call";

pub(super) fn skipped(s: &mut Session) -> CaseResult {
    let mut sent: Vec<Malformed> = Vec::new();
    converse(s, &mut sent).map_err(|f| {
        let shown = malformed::shown(s, &f);
        if shows(&shown, &marker(DUPLICATE)) {
            return Failure {
                reason: format!(
                    "call_tool returned {DUPLICATE} as the retry's answer: a response answers the request whose id it carries, and the first call was already answered. Match the id exactly"
                ),
                ..f
            };
        }
        match malformed::taken(&sent, &shown) {
            Some(m) => Failure {
                reason: format!(
                    "the client took the response with {} for its call's answer, but {}. A malformed response is no answer at all: log it, skip it and keep waiting for a well-formed response with the call's id",
                    m.label, m.rule
                ),
                ..f
            },
            None => f,
        }
    })
}

fn text(t: &str) -> serde_json::Value {
    json!({"resultType": "complete", "content": [{"type": "text", "text": t}]})
}

fn converse(s: &mut Session, sent: &mut Vec<Malformed>) -> CaseResult {
    let first = greet_call(s, "the tools/call for greet")?;
    let id = first["id"].clone();
    *sent = malformed::responses(
        &id,
        |label| text(&marker(label)),
        |label| json!({"code": -32603, "message": marker(label)}),
    );
    for m in sent.iter() {
        s.send_json(&m.frame)?;
    }
    respond(
        s,
        &id,
        json!({"resultType": "input_required", "inputRequests": {"user_name": elicitation()}}),
    )?;
    let retry = greet_call(s, "the retry of greet with the answer")?;
    respond(s, &id, text(&marker(DUPLICATE)))?;
    respond(s, &retry["id"], hello())?;
    compare::same(
        hello(),
        &final_result(s)?,
        "after the malformed responses, the input_required answer and its retry, the complete result is what call_tool returns",
    )
}
