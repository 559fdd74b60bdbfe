//! Malformed responses: what a server may send with a call's id that is no
//! answer at all. A client exercise's checker sends them and holds the
//! client to the one behaviour its task states (02: reported as invalid;
//! 04, 08, 10: skipped while the call keeps waiting; 09: reported as a
//! violation). None may be taken as the call's answer.
//!
//! The rules they break:
//! - JSON-RPC 2.0 §5 Response object: `jsonrpc` "MUST be exactly \"2.0\"";
//!   "Either the result member or error member MUST be included, but both
//!   members MUST NOT be included"; §5.1 Error object: `code` "MUST be an
//!   integer", `message` is a String.
//! - MCP 2025-11-25 (and 2026-07-28) basic/index › Responses: "Result
//!   responses MUST include the same ID as the request they correspond
//!   to"; "Error responses MUST include an `error` field with a `code` and
//!   `message`"; "Error codes MUST be integers"; and basic/index ›
//!   Requests: an id is a string or an integer, "the ID MUST NOT be null".
//!
//! A second response for an id already answered is well formed: each
//! checker sends that one itself, where its exercise can tell.

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::Failure;

/// How a careless client would read a malformed response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// It carries `result`: a client that looks for `result` takes it as a
    /// success.
    Result,
    /// It carries something error-ish: a client that looks for `error`
    /// (or for anything but `result`) takes it as a failure.
    Error,
    /// Both `result` and `error`: read as one or the other depending on
    /// which member the client looks at first.
    Both,
}

/// One malformed response.
#[derive(Debug, Clone)]
pub(crate) struct Malformed {
    /// What is wrong with it, for reasons: `both result and error`, …
    pub label: &'static str,
    /// How a careless client would read it.
    pub reading: Reading,
    /// The rule it breaks, quoted with its source, for reasons.
    pub rule: &'static str,
    /// The frame.
    pub frame: Value,
}

const ONE_OF_RULE: &str = "a response carries exactly one of `result` and `error`: \"Either the result member or error member MUST be included, but both members MUST NOT be included\" (JSON-RPC 2.0 §5)";
const VERSION_RULE: &str =
    "every message carries `\"jsonrpc\": \"2.0\"`: the member \"MUST be exactly 2.0\" (JSON-RPC 2.0 §5)";
const ID_RULE: &str = "a response carries the id of the request it answers, a string or an integer: \"Result responses MUST include the same ID as the request they correspond to\" (2025-11-25 basic/index › Responses)";
const ERROR_RULE: &str = "\"Error responses MUST include an `error` field with a `code` and `message`\" and \"Error codes MUST be integers\" (2025-11-25 basic/index › Responses)";

/// The malformed responses to a call with id `id`. `result(label)` and
/// `error(label)` give the result and the error object each carries
/// (`label` names the shape, so a report can show which one a client took);
/// every error object returned by `error` must hold an integer `code` and a
/// string `message`, which the shapes then break.
pub(crate) fn responses(id: &Value, result: impl Fn(&str) -> Value, error: impl Fn(&str) -> Value) -> Vec<Malformed> {
    let fraction = match id.as_i64() {
        Some(n) => json!(n as f64 + 0.5),
        None => json!(0.5),
    };
    let with_result = |label: &'static str, id: Option<Value>| {
        let mut frame = json!({"jsonrpc": "2.0", "result": result(label)});
        if let Some(id) = id {
            frame["id"] = id;
        }
        Malformed {
            label,
            reading: Reading::Result,
            rule: ID_RULE,
            frame,
        }
    };
    let with_error = |label: &'static str, broken: &dyn Fn(&mut Value)| {
        let mut e = error(label);
        broken(&mut e);
        Malformed {
            label,
            reading: Reading::Error,
            rule: ERROR_RULE,
            frame: json!({"jsonrpc": "2.0", "id": id, "error": e}),
        }
    };
    let both = json!({"jsonrpc": "2.0", "id": id, "result": result("both result and error"), "error": error("both result and error")});
    let neither = json!({"jsonrpc": "2.0", "id": id});
    let old = json!({"jsonrpc": "1.0", "id": id, "result": result("jsonrpc \"1.0\"")});
    let bare = json!({"id": id, "result": result("no jsonrpc member")});
    vec![
        Malformed {
            label: "both result and error",
            reading: Reading::Both,
            rule: ONE_OF_RULE,
            frame: both,
        },
        Malformed {
            label: "neither result nor error",
            reading: Reading::Error,
            rule: ONE_OF_RULE,
            frame: neither,
        },
        Malformed {
            label: "jsonrpc \"1.0\"",
            reading: Reading::Result,
            rule: VERSION_RULE,
            frame: old,
        },
        Malformed {
            label: "no jsonrpc member",
            reading: Reading::Result,
            rule: VERSION_RULE,
            frame: bare,
        },
        with_result("id null", Some(Value::Null)),
        with_result("no id", None),
        with_result("id an array", Some(json!([id]))),
        with_result("id an object", Some(json!({"id": id}))),
        with_result("id a boolean", Some(json!(true))),
        with_result("id a fraction", Some(fraction)),
        with_error("error without code", &|e| {
            e.as_object_mut().map(|o| o.remove("code"));
        }),
        with_error("error without message", &|e| {
            e.as_object_mut().map(|o| o.remove("message"));
        }),
        with_error("error code a string", &|e| {
            e["code"] = json!(e["code"].to_string());
        }),
        with_error("error code a fraction", &|e| {
            e["code"] = json!(e["code"].as_f64().unwrap_or(0.0) + 0.5);
        }),
        with_error("error a string", &|e| {
            *e = json!(e["message"].as_str().unwrap_or("failed"));
        }),
    ]
}

/// The text a shape labelled `label` carries in its result or error
/// message, so that what a client reports shows which one it took.
pub(crate) fn marker(label: &str) -> String {
    format!("malformed: {label}")
}

/// Every text a failed case can show: the failure's reason, the strings in
/// what it shows, and those of the reports the client still has to give
/// (it may have ended, and exited, while the shapes were being sent).
pub(crate) fn shown(s: &mut Session, f: &Failure) -> Vec<String> {
    let mut out = vec![f.reason.clone()];
    texts(f.actual.as_ref().unwrap_or(&Value::Null), &mut out);
    while let Ok(Some(r)) = s.recv_output(Duration::from_millis(200)) {
        texts(&r.value, &mut out);
    }
    out
}

/// Whether one of `shown` holds `text`.
pub(crate) fn shows(shown: &[String], text: &str) -> bool {
    shown.iter().any(|t| t.contains(text))
}

/// The shape of `sent` whose [`marker`] one of `shown` holds.
pub(crate) fn taken<'a>(sent: &'a [Malformed], shown: &[String]) -> Option<&'a Malformed> {
    sent.iter().find(|m| shows(shown, &marker(m.label)))
}

/// Every string in `value`, into `out`.
fn texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(t) => out.push(t.clone()),
        Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
        Value::Object(map) => map.values().for_each(|v| texts(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::{Kind, classify};

    #[test]
    fn every_shape_is_invalid() {
        let id = json!(7);
        let shapes = responses(
            &id,
            |l| json!({"content": [{"type": "text", "text": l}]}),
            |l| json!({"code": -32603, "message": l}),
        );
        assert_eq!(shapes.len(), 15);
        for m in &shapes {
            assert!(
                matches!(classify(&m.frame), Kind::Invalid { .. }),
                "{}: {}",
                m.label,
                m.frame
            );
        }
        assert_eq!(shapes[0].frame["error"]["message"], json!("both result and error"));
        assert_eq!(shapes[9].frame["id"], json!(7.5));
        assert_eq!(shapes[12].frame["error"]["code"], json!("-32603"));
    }
}
