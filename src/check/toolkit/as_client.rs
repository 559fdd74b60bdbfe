//! The checker as the client of a learner's stdio server, in either era:
//! legacy after the `initialize` handshake (2025-11-25 basic/lifecycle),
//! or modern with the per-request `_meta` (2026-07-28 basic/index). One
//! client, at two levels:
//!
//! - frame by frame ([`exchange`]): the case writes each request itself
//!   (ids, versions, frames a client should not send) and gets the
//!   response within [`ANSWER_WITHIN`], with every way a server can fail to
//!   answer named (silence, a wrong id, a reply to a notification, a
//!   request instead). Used by 03-handshake-gate, whose cases are about
//!   exactly that.
//! - as a [`Client`] of one era, which numbers its requests, runs the
//!   legacy handshake or adds the modern `_meta`, and takes the next
//!   response as the answer. Used by 07-tool-server and 11-capstone-server.
//!
//! Judging what a server answered (a result, an error code, the modern
//! fields, tool results) is [`answers`].

mod answers;

use std::time::Duration;

use serde_json::{Value, json};

pub(crate) use answers::{
    as_result, call_tool, content_list, expect_error, modern_fields, structured_with_mirror, unknown_tool,
};

use super::case::{CaseResult, Failure};
use super::harness::panic_failure;
use crate::check::report::Direction;
use crate::check::session::{Received, Session, Stop};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// How long a server may take to answer one request in an [`exchange`].
/// The exercises' servers answer at once; this only bounds waiting for an
/// answer that never comes.
pub(crate) const ANSWER_WITHIN: Duration = Duration::from_millis(1000);

/// `initialize` params offering `version`.
pub(crate) fn initialize_params(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": mcp::checker_info()})
}

/// A request frame; `params` left out when `None`.
pub(crate) fn request(id: impl Into<Value>, method: &str, params: Option<Value>) -> Value {
    let mut frame = json!({"jsonrpc": "2.0", "id": id.into(), "method": method});
    if let Some(params) = params {
        frame["params"] = params;
    }
    frame
}

/// An `initialize` request frame offering `version`.
pub(crate) fn initialize_request(id: impl Into<Value>, version: &str) -> Value {
    request(id, "initialize", Some(initialize_params(version)))
}

/// The next line within [`ANSWER_WITHIN`], or `None` when the server is
/// quietly waiting. A server that has exited is a stop, not silence.
pub(crate) fn next(s: &mut Session) -> Result<Option<Received>, Failure> {
    match s.recv_within(s.slack(ANSWER_WITHIN))? {
        Some(got) => Ok(Some(got)),
        None => match s.exited_within(Duration::ZERO) {
            Some(status)
                if status.success()
                    && s.transcript()
                        .iter()
                        .any(|e| e.dir == Direction::ToLearner && e.line.trim().is_empty()) =>
            {
                Err(Failure {
                    stop: Some(Stop::Exited(Some(status))),
                    ..Failure::new(
                        "the server exited after a blank line. A blank line carries no message: skip it and read on; only end of input (read_line returning Ok(0)) ends the loop",
                    )
                })
            }
            Some(status) => Err(Stop::Exited(Some(status)).into()),
            None => Ok(None),
        },
    }
}

/// Sends `frame` and returns the response to it. Notifications from the
/// server are skipped; silence, a wrong id and a request are failures.
pub(crate) fn exchange(s: &mut Session, frame: &Value) -> Result<Value, Failure> {
    s.send_json(frame)?;
    let id = frame["id"].clone();
    let method = frame["method"].as_str().unwrap_or("?");
    loop {
        let Some(got) = next(s)? else {
            return Err(Failure::new(format!(
                "no response to `{method}` (id {id}) within {:.1} s. Every request gets exactly one response, an error if nothing else (JSON-RPC 2.0 § 4); a client left without one waits forever",
                ANSWER_WITHIN.as_secs_f64()
            )));
        };
        let is_response = got.value.get("result").is_some() || got.value.get("error").is_some();
        let got_id = got.value.get("id");
        if is_response && got_id != Some(&id) && got_id.is_none_or(|g| !earlier(s, g)) {
            return Err(Failure::showing(
                format!(
                    "while the checker waited for the response to `{method}` (id {id}), a response arrived that answers no request it sent. Is it a reply to a notification sent just before? A notification gets no reply at all, not even with a null id; a response to `{method}` carries its id ({id})"
                ),
                got.value,
            ));
        }
        match classify(&got.value) {
            Kind::Notification { .. } => continue,
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } if got_id.to_value() == id => {
                return Ok(got.value);
            }
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } => {
                return Err(Failure::mismatch(
                    format!(
                        "the response to `{method}` carries id {}, but the request's id is {id}: echo the request's id exactly, type included",
                        got_id.to_value()
                    ),
                    json!({"jsonrpc": "2.0", "id": id, "result": "…"}),
                    got.value,
                ));
            }
            Kind::Error { id: None, .. } => {
                return Err(Failure::mismatch(
                    format!(
                        "the error response to `{method}` has no id. The request's id ({id}) could be read, so the response carries it"
                    ),
                    json!({"jsonrpc": "2.0", "id": id, "error": "…"}),
                    got.value,
                ));
            }
            Kind::Request { method: sent, .. } => {
                return Err(Failure::new(format!(
                    "the server sent a `{sent}` request while the client waited for its `{method}` response. This server sends no requests; answer the client's request"
                )));
            }
            Kind::Invalid { reason } => {
                return Err(Failure::new(format!(
                    "the answer to `{method}` is not a valid JSON-RPC message: {reason}: {}",
                    got.line
                )));
            }
        }
    }
}

/// Whether `id` is the id of a request the checker sent earlier in this
/// session (a response to it is late or repeated, not unrequested).
fn earlier(s: &Session, id: &Value) -> bool {
    s.transcript()
        .iter()
        .any(|e| e.dir == Direction::ToLearner && e.id.as_ref() == Some(id))
}

/// Like [`exchange`], and the response must be a result; returns it.
pub(crate) fn exchange_ok(s: &mut Session, frame: &Value) -> Result<Value, Failure> {
    let response = exchange(s, frame)?;
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(Failure::mismatch(
            format!(
                "`{}` failed, but it should succeed here",
                frame["method"].as_str().unwrap_or("?")
            ),
            json!({"jsonrpc": "2.0", "id": frame["id"], "result": "…"}),
            response,
        )),
    }
}

/// Like [`exchange`], and the response must be an error object; returns it.
pub(crate) fn exchange_err(s: &mut Session, frame: &Value, why: &str) -> Result<Value, Failure> {
    let response = exchange(s, frame)?;
    match response.get("error") {
        Some(error) => Ok(error.clone()),
        None => Err(Failure::mismatch(
            why,
            json!({"jsonrpc": "2.0", "id": frame["id"], "error": {"code": "…", "message": "…"}}),
            response,
        )),
    }
}

/// The checker as a client of one era.
pub(crate) struct Client {
    /// Whether requests carry the modern `_meta`.
    pub modern: bool,
    next_id: u64,
}

impl Client {
    /// A legacy client, after the handshake at 2025-11-25.
    pub fn legacy(s: &mut Session) -> Result<Client, Failure> {
        let mut c = Client {
            modern: false,
            next_id: 1,
        };
        c.result(s, "initialize", initialize_params(mcp::LEGACY))?;
        s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(c)
    }

    /// A legacy client that has not sent `initialize` yet.
    pub fn before_initialize() -> Client {
        Client {
            modern: false,
            next_id: 1,
        }
    }

    /// A modern client: no handshake.
    pub fn modern() -> Client {
        Client {
            modern: true,
            next_id: 1,
        }
    }

    /// The revision this client speaks, for reasons.
    pub fn era(&self) -> &'static str {
        if self.modern { mcp::MODERN } else { mcp::LEGACY }
    }

    /// Sends a request without waiting; returns its id. In the modern era
    /// `params._meta` gets the modern fields, beside any `_meta` members
    /// `params` already has (a progress token).
    pub fn send(&mut self, s: &mut Session, method: &str, mut params: Value) -> Result<Value, Failure> {
        if self.modern {
            let mut meta = mcp::request_meta(mcp::MODERN);
            if let Some(extra) = params.get("_meta").and_then(Value::as_object) {
                for (k, v) in extra {
                    meta[k] = v.clone();
                }
            }
            params["_meta"] = meta;
        }
        let id = json!(self.next_id);
        self.next_id += 1;
        s.send_json(&request(id.clone(), method, Some(params)))?;
        Ok(id)
    }

    /// Sends a request and returns the whole response frame, skipping
    /// notifications.
    pub fn call(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let id = self.send(s, method, params)?;
        loop {
            let got = s.recv()?.value;
            if matches!(classify(&got), Kind::Notification { .. }) {
                continue;
            }
            return response_to(got, &id, method);
        }
    }

    /// Like [`Client::call`], and the response must be a result; returns it.
    pub fn result(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let response = self.call(s, method, params.clone())?;
        as_result(response, method, &params, self.era())
    }

    /// Like [`Client::call`], and the response must be an error with
    /// `code`; `why` explains the rule.
    pub fn error(&mut self, s: &mut Session, method: &str, params: Value, code: i64, why: &str) -> CaseResult {
        let response = self.call(s, method, params)?;
        expect_error(response, code, why)
    }
}

/// `got` when it is the response to request `id` (for `method`); a
/// reported panic or any other frame fails.
pub(crate) fn response_to(got: Value, id: &Value, method: &str) -> Result<Value, Failure> {
    match classify(&got) {
        Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } if got_id.to_value() == *id => {
            if let Some(report) = got
                .pointer("/error/data")
                .filter(|d| d.get("harness").and_then(Value::as_str) == Some("panic"))
            {
                return Err(panic_failure(report));
            }
            Ok(got)
        }
        _ => Err(Failure::showing(
            format!("the answer to `{method}` is not its response (id {id})"),
            got,
        )),
    }
}
