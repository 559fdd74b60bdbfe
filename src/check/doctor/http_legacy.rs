//! `mcplings doctor --url URL` on a legacy (2025-11-25, session-based)
//! Streamable HTTP server (2025-11-25 basic/transports › Streamable
//! HTTP): each check opens its own session (POST `initialize`, the
//! `Mcp-Session-Id` the server assigns echoed on every later request with
//! `MCP-Protocol-Version`, POST `notifications/initialized`), reads each
//! reply as JSON or as the SSE event that carries the response, and ends
//! the session with DELETE. The checks: the session id, version
//! negotiation, `ping`, a notification (202), requests without the
//! session or in an ended one, an unsupported version header, a foreign
//! Origin, ids echoed, an unknown method, and the feature checks of
//! `features.rs` over the session.

use serde_json::{Value, json};

use super::features::Caller;
use super::http::{HttpConn, message, shown};
use super::{Checked, Ctx, Finding, Outcome, rules};
use crate::check::http::Reply;
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::{initialize_request, request_line};
use crate::check::toolkit::ids;
use crate::mcp;

/// A legacy session over one check's connection.
pub(super) struct Legacy<'a> {
    pub conn: &'a mut HttpConn,
    /// The `Mcp-Session-Id` the server assigned, if any.
    pub session: Option<String>,
    /// The version `initialize` settled.
    pub version: String,
    next_id: u64,
}

/// The headers of a legacy request: JSON, both media types accepted, and
/// once a session is open, its id and version.
fn headers(session: Option<&str>, version: Option<&str>) -> Vec<(String, String)> {
    let mut headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("Accept".to_string(), "application/json, text/event-stream".to_string()),
    ];
    if let Some(version) = version {
        headers.push(("MCP-Protocol-Version".into(), version.into()));
    }
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".into(), session.into()));
    }
    headers
}

/// POSTs `initialize` at `version` (with `extra` headers) and returns the
/// reply and the response it carries.
pub(super) fn initialize(
    conn: &mut HttpConn,
    version: &str,
    extra: &[(&str, &str)],
) -> Result<(Reply, Option<Value>), Failure> {
    let frame = initialize_request("doctor-init", version);
    let mut h = headers(None, None);
    h.extend(extra.iter().map(|(n, v)| (n.to_string(), v.to_string())));
    let reply = conn.post_text(h, &frame.to_string())?;
    let response = message(&reply);
    Ok((reply, response))
}

impl<'a> Legacy<'a> {
    /// Opens a session: `initialize` at 2025-11-25, then
    /// `notifications/initialized`. Errors: no result, or a session id
    /// that is not visible ASCII.
    pub fn open(conn: &'a mut HttpConn) -> Result<Legacy<'a>, Finding> {
        let (reply, response) = initialize(conn, mcp::LEGACY, &[])?;
        let Some(result) = response.as_ref().and_then(|r| r.get("result")) else {
            return Err(Finding::under(
                &rules::INITIALIZE,
                Failure::showing("initialize got no result", shown(&reply)),
            ));
        };
        let version = result["protocolVersion"].as_str().unwrap_or(mcp::LEGACY).to_string();
        let session = reply.header("mcp-session-id").map(str::to_string);
        if let Some(id) = &session
            && (id.is_empty() || !id.bytes().all(|b| (0x21..=0x7e).contains(&b)))
        {
            return Err(Finding::under(
                &rules::SESSION_ID,
                Failure::new(format!("the Mcp-Session-Id {id:?} is not all visible ASCII")),
            ));
        }
        let mut legacy = Legacy {
            conn,
            session,
            version,
            next_id: 1,
        };
        legacy.notify("notifications/initialized")?;
        Ok(legacy)
    }

    /// POSTs `body` in the session.
    pub fn post(&mut self, body: &str) -> Result<Reply, Failure> {
        let h = headers(self.session.as_deref(), Some(&self.version));
        self.conn.post_text(h, body)
    }

    /// POSTs the notification `method`; anything but 202 with no body is
    /// a finding (an error status included: doctor's are ones a server
    /// accepts).
    pub fn notify(&mut self, method: &str) -> Result<(), Finding> {
        let reply = self.post(&json!({"jsonrpc": "2.0", "method": method}).to_string())?;
        if reply.status == 202 && reply.body.is_empty() {
            return Ok(());
        }
        Err(Finding::under(
            &rules::NOTIFICATION_202,
            Failure::mismatch(
                format!("the notification {method} must get 202 Accepted with no body"),
                json!({"status": 202, "body": ""}),
                shown(&reply),
            ),
        ))
    }

    /// Ends the session with DELETE; the status (405: the server keeps it).
    pub fn end(&mut self) -> Result<u16, Failure> {
        let h = headers(self.session.as_deref(), Some(&self.version));
        Ok(self.conn.send("DELETE", h)?.status)
    }
}

impl Caller for Legacy<'_> {
    fn call(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let reply = self.post(&frame.to_string())?;
        match message(&reply) {
            Some(response) if response.get("id") == Some(&json!(id)) => Ok(response),
            _ => Err(Failure::showing(
                format!("the reply to `{method}` (id {id}) carries no JSON-RPC response to it"),
                shown(&reply),
            )),
        }
    }
}

pub(super) fn negotiation(c: &mut HttpConn, _: &Ctx) -> Checked {
    let (reply, response) = initialize(c, mcp::FUTURE, &[])?;
    let version = response.as_ref().and_then(|r| r.pointer("/result/protocolVersion"));
    match version.and_then(Value::as_str) {
        Some(v) if v != mcp::FUTURE => Ok(Outcome::Note(format!(
            "offered {}, the server answered {v}",
            mcp::FUTURE
        ))),
        _ => Err(Failure::showing(
            format!(
                "initialize offering {} must get a result naming a version the server supports",
                mcp::FUTURE
            ),
            shown(&reply),
        )
        .into()),
    }
}

pub(super) fn ping(c: &mut HttpConn, _: &Ctx) -> Checked {
    let mut s = Legacy::open(c)?;
    let reply = s.post(&json!({"jsonrpc": "2.0", "id": "doctor-ping", "method": "ping"}).to_string())?;
    if !matches!(
        reply.media_type().as_deref(),
        Some("application/json" | "text/event-stream")
    ) {
        return Err(Finding::under(
            &rules::REQUEST_CONTENT_TYPE,
            Failure::showing("ping was answered without a JSON or SSE content type", shown(&reply)),
        ));
    }
    match message(&reply) {
        Some(r) if r.get("result") == Some(&json!({})) && r.get("id") == Some(&json!("doctor-ping")) => {
            Ok(Outcome::Pass)
        }
        _ => Err(Failure::mismatch(
            "ping must get an empty result",
            json!({"jsonrpc": "2.0", "id": "doctor-ping", "result": {}}),
            shown(&reply),
        )
        .into()),
    }
}

pub(super) fn notification(c: &mut HttpConn, _: &Ctx) -> Checked {
    // Opening the session POSTs notifications/initialized; one more.
    let mut s = Legacy::open(c)?;
    s.notify("notifications/roots/list_changed")?;
    Ok(Outcome::Pass)
}

pub(super) fn without_session(c: &mut HttpConn, _: &Ctx) -> Checked {
    let s = Legacy::open(c)?;
    if s.session.is_none() {
        return Ok(Outcome::Skip("the server assigned no Mcp-Session-Id".into()));
    }
    let frame = json!({"jsonrpc": "2.0", "id": "doctor-no-session", "method": "ping"});
    let h = headers(None, Some(&s.version));
    let reply = s.conn.post_text(h, &frame.to_string())?;
    status_is(&reply, 400, "a request without the Mcp-Session-Id the server assigned")
}

pub(super) fn ended_session(c: &mut HttpConn, _: &Ctx) -> Checked {
    let mut s = Legacy::open(c)?;
    if s.session.is_none() {
        return Ok(Outcome::Skip("the server assigned no Mcp-Session-Id".into()));
    }
    match s.end()? {
        405 => return Ok(Outcome::Skip("DELETE got 405: the server keeps its sessions".into())),
        status if !(200..300).contains(&status) => {
            return Ok(Outcome::Unverified(format!(
                "DELETE got {status}: the session was not ended, so nothing shows what a request in an ended one gets"
            )));
        }
        _ => {}
    }
    let reply = s.post(&json!({"jsonrpc": "2.0", "id": "doctor-ended", "method": "ping"}).to_string())?;
    status_is(&reply, 404, "a request in a session ended with DELETE")
}

pub(super) fn version_header(c: &mut HttpConn, _: &Ctx) -> Checked {
    let s = Legacy::open(c)?;
    let frame = json!({"jsonrpc": "2.0", "id": "doctor-version", "method": "ping"});
    let h = headers(s.session.as_deref(), Some(mcp::FUTURE));
    let reply = s.conn.post_text(h, &frame.to_string())?;
    status_is(
        &reply,
        400,
        &format!("a request with MCP-Protocol-Version: {}", mcp::FUTURE),
    )
}

pub(super) fn origin(c: &mut HttpConn, _: &Ctx) -> Checked {
    let (reply, _) = initialize(c, mcp::LEGACY, &[("Origin", "http://evil.example")])?;
    status_is(
        &reply,
        403,
        "initialize with Origin http://evil.example, an origin doctor takes as invalid for a local server (DNS rebinding: any web page can make a browser POST to a local server)",
    )
}

pub(super) fn ids_echoed(c: &mut HttpConn, _: &Ctx) -> Checked {
    let mut s = Legacy::open(c)?;
    let (exact, big): (Vec<_>, Vec<_>) = ids::legal().into_iter().partition(|(_, t)| !ids::beyond_double(t));
    echoed(&mut s, exact)?;
    echoed(&mut s, big).map_err(|f| Finding::under(&rules::BIG_IDS, ids::as_advice(f)))?;
    Ok(Outcome::Pass)
}

fn echoed(s: &mut Legacy, these: Vec<(&'static str, String)>) -> Result<(), Failure> {
    for (what, text) in these {
        let reply = s.post(&request_line(&text, "ping", None))?;
        let Some(response) = message(&reply) else {
            return Err(Failure::showing(
                format!("the request whose id is {what} got no JSON-RPC response"),
                shown(&reply),
            ));
        };
        ids::served(what, &ids::value_of(&text), &response)?;
    }
    Ok(())
}

pub(super) fn unknown_method(c: &mut HttpConn, _: &Ctx) -> Checked {
    let mut s = Legacy::open(c)?;
    let reply =
        s.post(&json!({"jsonrpc": "2.0", "id": "doctor-unknown", "method": "doctor/no-such-method"}).to_string())?;
    let Some(response) = message(&reply) else {
        return Err(Failure::showing(
            "a request for a method that does not exist got no response",
            shown(&reply),
        )
        .into());
    };
    if response.pointer("/error/code") == Some(&json!(-32601)) {
        return Ok(Outcome::Pass);
    }
    Err(Finding::under(
        &rules::METHOD_NOT_FOUND,
        Failure::partial(
            "a request for a method that does not exist got no -32601 Method not found",
            json!({"jsonrpc": "2.0", "id": "doctor-unknown", "error": {"code": -32601}}),
            response,
        ),
    ))
}

/// Fails unless `reply` has `status`.
fn status_is(reply: &Reply, status: u16, what: &str) -> Checked {
    if reply.status == status {
        return Ok(Outcome::Pass);
    }
    Err(Failure::partial(
        format!("{what} must get {status}"),
        json!({"status": status}),
        shown(reply),
    )
    .into())
}

/// One legacy HTTP check: (id, name, what it proves, its rule, the run).
pub(super) type LegacyCheck = (
    &'static str,
    &'static str,
    &'static str,
    &'static rules::Rule,
    fn(&mut HttpConn, &Ctx) -> Checked,
);

pub(super) const CHECKS: &[LegacyCheck] = &[
    (
        "version-negotiation",
        "version negotiation",
        "initialize offering 2099-01-01 gets a result naming a version the server supports",
        &rules::NEGOTIATION,
        negotiation,
    ),
    (
        "ping",
        "ping",
        "ping in a session gets an empty result, as JSON or SSE",
        &rules::PING,
        ping,
    ),
    (
        "http-notification-202",
        "notification: 202",
        "a POSTed notification gets 202 Accepted and no body",
        &rules::NOTIFICATION_202_LEGACY,
        notification,
    ),
    (
        "http-session-required",
        "no session id: 400",
        "a request without the Mcp-Session-Id the server assigned gets 400",
        &rules::SESSION_REQUIRED,
        without_session,
    ),
    (
        "http-session-ended-404",
        "ended session: 404",
        "after DELETE ends the session, a request in it gets 404 Not Found",
        &rules::SESSION_ENDED,
        ended_session,
    ),
    (
        "http-version-header-400",
        "version header: 400",
        "a request with MCP-Protocol-Version: 2099-01-01 gets 400 Bad Request",
        &rules::VERSION_HEADER,
        version_header,
    ),
    (
        "http-origin-403",
        "foreign Origin: 403",
        "a request with a foreign Origin gets 403 Forbidden",
        &rules::ORIGIN_LEGACY,
        origin,
    ),
    ("ids-echoed", "ids echoed", ids::ABOUT, &rules::IDS_ECHOED, ids_echoed),
    (
        "unknown-method",
        "unknown method",
        "a method that does not exist gets an error response, -32601",
        &rules::REPLY,
        unknown_method,
    ),
    (
        "http-body-not-json",
        "body not JSON",
        "a body that is not JSON, in a session, gets an HTTP error status or -32700",
        &rules::NOT_JSON_HTTP,
        super::http_checks::legacy_not_json,
    ),
];

/// Runs every legacy check and the feature checks, each on its own
/// session; `ctx` carries what `initialize` declared.
pub(super) fn run(url: &str, options: &super::Options, ctx: &Ctx, cases: &mut Vec<super::DoctorCase>) {
    for (id, name, about, rule, check) in CHECKS {
        cases.push(super::http::run_one(
            url,
            &options.trust,
            id,
            name,
            about,
            rule,
            ctx,
            check,
        ));
    }
    for feature in super::features::FEATURES {
        let body = |c: &mut HttpConn, ctx: &Ctx| {
            if let Some(skip) = feature.capability.and_then(|cap| super::features::declared(ctx, cap)) {
                return Ok(skip);
            }
            let mut s = Legacy::open(c)?;
            let result = (feature.body)(&mut s, ctx);
            let _ = s.end();
            result
        };
        cases.push(super::http::run_one(
            url,
            &options.trust,
            feature.id,
            feature.name,
            feature.about,
            feature.rule,
            ctx,
            &body,
        ));
    }
}

/// `doctor --url` on a server whose `server/discover` got `status` (a 4xx
/// without a modern error): a legacy server when `initialize` is answered.
/// With `status` `None` (`--era legacy`), no probe came first.
pub(super) fn doctor_url(url: &str, options: &super::Options, report: &mut super::DoctorReport, status: Option<u16>) {
    let probed = status.map_or("--era legacy".to_string(), |s| format!("server/discover got {s}"));
    let Some((ctx, settled)) = found(url, options) else {
        // A 404 to both often means a wrong path, not a wrong server.
        let path = if status == Some(404) {
            "; check the URL's path (servers commonly serve /mcp)"
        } else {
            ""
        };
        report.error = Some(format!(
            "{url}: {probed}, and initialize got no result: not an MCP server at this URL{path}"
        ));
        return;
    };
    report.era = "legacy".into();
    report.detection = format!("{probed}; {settled}");
    run_found(url, options, &ctx, &mut report.cases);
}

/// The legacy era at `url`, when `initialize` gets a result: the context
/// its checks start from and what it settled, in words.
pub(super) fn found(url: &str, options: &super::Options) -> Option<(Ctx, String)> {
    let mut probe = HttpConn::new(url, &options.trust);
    let answered = initialize(&mut probe, mcp::LEGACY, &[]);
    let Ok((reply, Some(result))) = answered.map(|(r, m)| (r, m.and_then(|m| m.get("result").cloned()))) else {
        return None;
    };
    let capabilities = result.get("capabilities").cloned().unwrap_or(json!({}));
    let version = result["protocolVersion"].as_str().unwrap_or(mcp::LEGACY).to_string();
    let session = reply.header("mcp-session-id").map(str::to_string);
    let settled = format!(
        "initialize settled {version}, {}",
        session.map_or("no session id".to_string(), |_| "with an Mcp-Session-Id".to_string())
    );
    let ctx = Ctx {
        era: super::Era::Legacy,
        legacy_version: version,
        capabilities,
        calls: options.calls.clone(),
        call_readonly: options.call_readonly,
        startup: options.startup.unwrap_or(super::STARTUP),
        opened: None,
    };
    Some((ctx, settled))
}

/// The legacy checks on the era [`found`]: the handshake, then [`run`].
pub(super) fn run_found(url: &str, options: &super::Options, ctx: &Ctx, cases: &mut Vec<super::DoctorCase>) {
    let open = |c: &mut HttpConn, _: &Ctx| -> Checked {
        let mut s = Legacy::open(c)?;
        let _ = s.end();
        Ok(Outcome::Pass)
    };
    cases.push(super::http::run_one(
        url,
        &options.trust,
        "initialize",
        "initialize",
        "initialize at 2025-11-25 gets a result; the Mcp-Session-Id, if any, is visible ASCII; notifications/initialized gets 202",
        &rules::INITIALIZE,
        ctx,
        &open,
    ));
    run(url, options, ctx, cases);
}
