//! Doctor's checks of the base protocol, in either era: stdout carries
//! only messages, ids come back exactly and forbidden ones are never
//! served (`toolkit::ids`), notifications get no answer, an unknown
//! method, an unparsable line and an invalid request are answered with
//! errors and the server lives on, and end of input ends the server.

use std::time::Duration;

use serde_json::{Value, json};

use super::lifecycle::open;
use super::{BOTH, Check, Checked, Ctx, Era, Finding, Outcome, rules};
use crate::check::session::Session;
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::{exchange, ids_echoed_these, ids_refused, next, request, request_line};
use crate::check::toolkit::ids;
use crate::mcp;

/// The base-protocol checks, in report order.
pub(super) static CHECKS: &[Check] = &[
    Check {
        id: "stdout-messages",
        name: "stdout carries only messages",
        about: "nothing but JSON-RPC messages on stdout, one per line: before the first request, around the handshake and after it",
        rule: &rules::STDOUT_MESSAGES,
        eras: BOTH,
        schema: true,
        run: hygiene,
    },
    Check {
        id: "ids-echoed",
        name: "ids echoed",
        about: crate::check::toolkit::ids::ABOUT,
        rule: &rules::IDS_ECHOED,
        eras: BOTH,
        schema: true,
        run: ids,
    },
    Check {
        id: "ids-forbidden",
        name: "forbidden ids",
        about: "a request whose id is null, a fraction, an object, an array or a boolean is refused with -32600 and no id, or dropped, never served",
        rule: &rules::IDS_FORBIDDEN,
        eras: BOTH,
        schema: false,
        run: forbidden_ids,
    },
    Check {
        id: "notifications-unanswered",
        name: "notifications unanswered",
        about: "notifications (cancelled for a request never sent, one of a method the server does not know) get no response: the next frame answers the next request",
        rule: &rules::NOTIFICATIONS,
        eras: BOTH,
        schema: true,
        run: notifications,
    },
    Check {
        id: "unknown-method",
        name: "unknown method",
        about: "a request for a method that does not exist gets an error response, -32601 Method not found",
        rule: &rules::REPLY,
        eras: BOTH,
        schema: true,
        run: unknown_method,
    },
    Check {
        id: "unparsable-line",
        name: "unparsable line",
        about: "a line that is not JSON gets -32700 Parse error, and the server goes on serving",
        rule: &rules::PARSE_ERROR,
        eras: BOTH,
        schema: false,
        run: unparsable,
    },
    Check {
        id: "invalid-request",
        name: "invalid request",
        about: "a JSON object that is no request (no method) gets -32600 Invalid Request, and the server goes on serving",
        rule: &rules::INVALID_REQUEST,
        eras: BOTH,
        schema: false,
        run: invalid_request,
    },
    Check {
        id: "shutdown-on-eof",
        name: "shutdown on EOF",
        about: "once its stdin is closed, the server exits within 2 s",
        rule: &rules::SHUTDOWN,
        eras: BOTH,
        schema: true,
        run: shutdown,
    },
];

/// The params of a modern request from doctor.
fn modern_params() -> Value {
    json!({"_meta": mcp::request_meta(mcp::MODERN)})
}

/// A request line around the id text `id` that the server serves with a
/// result in `era`: `ping` after the handshake, `server/discover` modern.
fn served(era: Era, id: &str) -> String {
    match era {
        Era::Legacy => request_line(id, "ping", None),
        Era::Modern => request_line(id, "server/discover", Some(&modern_params())),
    }
}

/// A served request frame with id `id` in `era`.
fn served_frame(era: Era, id: &str) -> Value {
    serde_json::from_str(&served(era, &Value::from(id).to_string())).expect("a request line is JSON")
}

/// Opens the conversation and waits until the server has answered one
/// served request (it has started).
fn ready(s: &mut Session, ctx: &Ctx) -> Result<(), Failure> {
    open(s, ctx)?;
    if ctx.era == Era::Modern {
        crate::check::toolkit::as_client::exchange_within(s, &served_frame(Era::Modern, "doctor-warm"), ctx.startup)?;
    }
    Ok(())
}

fn hygiene(s: &mut Session, ctx: &Ctx) -> Checked {
    // A banner before any request is junk as much as one after.
    s.recv_within(Duration::from_millis(300))?;
    ready(s, ctx).map_err(super::setup)?;
    exchange(s, &served_frame(ctx.era, "doctor-hygiene"))?;
    // What it writes while idle must be messages too.
    s.recv_within(Duration::from_millis(300))?;
    Ok(Outcome::Pass)
}

fn ids(s: &mut Session, ctx: &Ctx) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    let era = ctx.era;
    // Ids a double holds first (a MUST); then the integers past 2^53, which
    // JSON lets an implementation lose (a warn).
    let (exact, big): (Vec<_>, Vec<_>) = ids::legal().into_iter().partition(|(_, t)| !ids::beyond_double(t));
    ids_echoed_these(s, &|id| served(era, id), exact)?;
    ids_echoed_these(s, &|id| served(era, id), big).map_err(|f| Finding::under(&rules::BIG_IDS, ids::as_advice(f)))?;
    Ok(Outcome::Pass)
}

fn forbidden_ids(s: &mut Session, ctx: &Ctx) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    let era = ctx.era;
    ids_refused(s, &|id| served(era, id))?;
    Ok(Outcome::Pass)
}

fn notifications(s: &mut Session, ctx: &Ctx) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    let meta = (ctx.era == Era::Modern).then(modern_params);
    let mut cancelled = json!({"requestId": "doctor-never-sent", "reason": "doctor"});
    let mut unknown = json!({});
    if let Some(meta) = &meta {
        cancelled["_meta"] = meta["_meta"].clone();
        unknown["_meta"] = meta["_meta"].clone();
    }
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancelled}))?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/doctor/unknown", "params": unknown}))?;
    // A response to a notification breaks the rule; silence after them is
    // a hang (robustness), not a response.
    exchange(s, &served_frame(ctx.era, "doctor-after-notifications")).map_err(super::setup)?;
    Ok(Outcome::Pass)
}

fn unknown_method(s: &mut Session, ctx: &Ctx) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    let params = (ctx.era == Era::Modern).then(modern_params);
    let frame = request("doctor-unknown", "doctor/no-such-method", params);
    let response = exchange(s, &frame)?;
    let code = response.pointer("/error/code");
    if code != Some(&json!(-32601)) {
        let got = match (code, response.get("result")) {
            (Some(code), _) => format!("error {code}"),
            (None, Some(_)) => "a result".to_string(),
            _ => "something else".to_string(),
        };
        return Err(Finding::under(
            &rules::METHOD_NOT_FOUND,
            Failure::partial(
                format!("a request for a method that does not exist got {got}, not -32601 Method not found"),
                json!({"jsonrpc": "2.0", "id": "doctor-unknown", "error": {"code": -32601}}),
                response,
            ),
        ));
    }
    Ok(Outcome::Pass)
}

/// Sends `line` (a frame that is no request) and judges the answer: an
/// error with `code` and no id other than `id` is right; silence and
/// other answers are findings; then the server must still serve.
fn malformed(s: &mut Session, ctx: &Ctx, line: &str, code: i64, what: &str, id: Value) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    s.send(line)?;
    // A notification the server sends meanwhile (list_changed after the
    // handshake) is no answer: read past it.
    let answer = loop {
        match next(s)? {
            Some(got) if got.value.get("method").is_some() && got.value.get("id").is_none() => continue,
            other => break other,
        }
    };
    let expected = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "…"}});
    let verdict: Result<(), Finding> = match answer {
        None => Err(Finding {
            shared: true,
            ..Failure::new(format!(
                "{what} got no answer: a client is left without a diagnostic (an error {code} tells it what went wrong)"
            ))
            .into()
        }),
        Some(got) if got.value.pointer("/error/code") == Some(&json!(code)) => Ok(()),
        Some(got) => Err(Failure::partial(
            format!("{what} got an answer that is not error {code}"),
            expected,
            got.value,
        )
        .into()),
    };
    // Whatever it answered, it must go on serving.
    exchange(s, &served_frame(ctx.era, "doctor-still-there")).map_err(|f| {
        Finding::under(
            &rules::ROBUST,
            Failure {
                reason: format!("after {what}, the server no longer serves: {}", f.reason),
                ..f
            },
        )
    })?;
    verdict?;
    Ok(Outcome::Pass)
}

fn unparsable(s: &mut Session, ctx: &Ctx) -> Checked {
    let line = "{\"jsonrpc\": \"2.0\", \"id\": \"doctor-cut\", \"method\": \"ping\"";
    malformed(s, ctx, line, -32700, "a line that is not JSON (cut short)", Value::Null)
}

fn invalid_request(s: &mut Session, ctx: &Ctx) -> Checked {
    let line = "{\"jsonrpc\":\"2.0\",\"id\":\"doctor-no-method\"}";
    malformed(
        s,
        ctx,
        line,
        -32600,
        "a JSON object with an id but no method",
        json!("doctor-no-method"),
    )
}

fn shutdown(s: &mut Session, ctx: &Ctx) -> Checked {
    ready(s, ctx).map_err(super::setup)?;
    s.close_stdin();
    match s.exited_within(Duration::from_secs(2)) {
        Some(_) => Ok(Outcome::Pass),
        None => Err(Failure::new("the server was still running 2 s after its stdin was closed").into()),
    }
}
