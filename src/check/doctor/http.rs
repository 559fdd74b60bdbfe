//! `mcplings doctor --url URL`: the checks that hold for every modern
//! (2026-07-28) Streamable HTTP server, against one already running at
//! `URL` (http or https; the client is `check::http::fetch_trusting`,
//! trusting `--cacert FILE` when given). Each check sends real
//! POSTs with the headers a conforming client sends (`http::headers_for`)
//! and records them as a transcript: the request and status lines, and
//! each JSON-RPC message (a JSON body, or each event of an SSE stream) as
//! a frame, so the schema check of `check::schema` holds them to the
//! official types as over stdio. The feature checks are the stdio ones
//! (`features.rs`), over this transport.
//!
//! A server that answers `server/discover` with a 4xx and no modern error
//! is a legacy (session-based) HTTP server: `http_legacy.rs` checks it.

use std::time::Instant;

use serde_json::{Value, json};

use super::features::FEATURES;
pub(super) use super::http_conn::{HttpConn, message, shown};
use super::{Checked, Ctx, DoctorCase, DoctorReport, Era, Finding, Options, Outcome, finish_case, rules};
use crate::check::http::{self as wire, Reply, Trust};
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::request_line;
use crate::check::toolkit::ids;
use crate::mcp;

/// A discover request frame with `_meta` at `version`, id `id`.
pub(super) fn discover(id: &str, meta: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "server/discover", "params": {"_meta": meta}})
}

/// Fails unless `reply` has `status` and carries an error with `code`.
fn error_reply(reply: &Reply, status: u16, code: i64, what: &str) -> Checked {
    let got = message(reply);
    if reply.status == status && got.as_ref().and_then(|m| m.pointer("/error/code")) == Some(&json!(code)) {
        return Ok(Outcome::Pass);
    }
    Err(Failure::mismatch(
        format!("{what} must get {status} and a JSON-RPC error {code}"),
        json!({"status": status, "body": {"error": {"code": code}}}),
        shown(reply),
    )
    .into())
}

fn discovered(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = discover("doctor-discover", mcp::request_meta(mcp::MODERN));
    let reply = c.post(&frame)?;
    if !matches!(
        reply.media_type().as_deref(),
        Some("application/json" | "text/event-stream")
    ) {
        return Err(Finding::under(
            &rules::REQUEST_CONTENT_TYPE,
            Failure::showing(
                "server/discover was answered without a JSON or SSE content type",
                shown(&reply),
            ),
        ));
    }
    let result = message(&reply).and_then(|m| m.get("result").cloned());
    let Some(result) = result else {
        return Err(Failure::showing("server/discover got no result", shown(&reply)).into());
    };
    if result.get("resultType").is_none() {
        return Err(Finding::under(
            &rules::RESULT_TYPE,
            Failure::showing("the server/discover result has no resultType", result),
        ));
    }
    Ok(Outcome::Note(format!(
        "supportedVersions {}, capabilities {}",
        result["supportedVersions"], result["capabilities"]
    )))
}

fn meta_required(c: &mut HttpConn, _: &Ctx) -> Checked {
    let meta = json!({mcp::meta::PROTOCOL_VERSION: mcp::MODERN, mcp::meta::CLIENT_INFO: mcp::checker_info()});
    let reply = c.post(&discover("doctor-no-caps", meta))?;
    error_reply(
        &reply,
        400,
        -32602,
        "server/discover without clientCapabilities in its _meta",
    )
}

fn unsupported_version(c: &mut HttpConn, _: &Ctx) -> Checked {
    let reply = c.post(&discover("doctor-future", mcp::request_meta(mcp::FUTURE)))?;
    error_reply(&reply, 400, -32022, &format!("a request at {}", mcp::FUTURE))
}

fn unknown_method(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = json!({"jsonrpc": "2.0", "id": "doctor-unknown", "method": "doctor/no-such-method", "params": {"_meta": mcp::request_meta(mcp::MODERN)}});
    let reply = c.post(&frame)?;
    error_reply(&reply, 404, -32601, "a method the server does not implement")
}

fn notification(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "doctor-never-sent", "reason": "doctor"}});
    let reply = c.post(&frame)?;
    if reply.status == 202 && reply.body.is_empty() || (400..500).contains(&reply.status) {
        return Ok(Outcome::Pass);
    }
    Err(Failure::mismatch(
        "a notification the server accepts gets 202 Accepted with no body (one it cannot accept, an error status)",
        json!({"status": 202, "body": ""}),
        shown(&reply),
    )
    .into())
}

fn origin(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = discover("doctor-origin", mcp::request_meta(mcp::MODERN));
    let mut headers = wire::headers_for(&frame);
    headers.push(("Origin".into(), "http://evil.example".into()));
    let reply = c.post_text(headers, &frame.to_string())?;
    if reply.status == 403 {
        return Ok(Outcome::Pass);
    }
    Err(Failure::mismatch(
        "a request with Origin http://evil.example, an origin doctor takes as invalid for a local server, must get 403 Forbidden (DNS rebinding: any web page can make a browser POST to a local server)",
        json!({"status": 403}),
        shown(&reply),
    )
    .into())
}

fn ids_echoed(c: &mut HttpConn, _: &Ctx) -> Checked {
    let params = json!({"_meta": mcp::request_meta(mcp::MODERN)});
    // Ids a double holds first (a MUST); then the integers past 2^53 (a warn).
    let (exact, big): (Vec<_>, Vec<_>) = ids::legal().into_iter().partition(|(_, t)| !ids::beyond_double(t));
    echoed_these(c, &params, exact)?;
    echoed_these(c, &params, big).map_err(|f| Finding::under(&rules::BIG_IDS, ids::as_advice(f.failure)))?;
    Ok(Outcome::Pass)
}

/// Each id of `these` on a `server/discover` with `params`, echoed exactly.
fn echoed_these(c: &mut HttpConn, params: &Value, these: Vec<(&'static str, String)>) -> Result<(), Finding> {
    for (what, text) in these {
        let line = request_line(&text, "server/discover", Some(params));
        let frame: Value = serde_json::from_str(&line).expect("a request line is JSON");
        let reply = c.post_text(wire::headers_for(&frame), &line)?;
        let Some(response) = message(&reply) else {
            return Err(Failure::showing(
                format!("the request whose id is {what} got no JSON-RPC response"),
                shown(&reply),
            )
            .into());
        };
        ids::served(what, &ids::value_of(&text), &response)?;
    }
    Ok(())
}

fn not_json(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = discover("doctor-cut", mcp::request_meta(mcp::MODERN));
    let text = frame.to_string();
    let reply = c.post_text(wire::headers_for(&frame), &text[..text.len() - 1])?;
    // It cannot be accepted: any HTTP error status is the advice kept.
    if reply.status >= 400 {
        return Ok(Outcome::Pass);
    }
    Err(Failure::mismatch(
        format!(
            "a body that is not JSON (cut short) got HTTP {}: an error status (400 Bad Request, perhaps with -32700) tells the client why",
            reply.status
        ),
        json!({"status": 400, "body": {"error": {"code": -32700}}}),
        shown(&reply),
    )
    .into())
}

/// One HTTP check.
pub(super) struct HttpCheck {
    pub id: &'static str,
    name: &'static str,
    about: &'static str,
    pub rule: &'static rules::Rule,
    run: fn(&mut HttpConn, &Ctx) -> Checked,
}

pub(super) const CHECKS: &[HttpCheck] = &[
    HttpCheck {
        id: "server-discover",
        name: "server/discover",
        about: "server/discover gets 200 with JSON or SSE and a result with resultType",
        rule: &rules::DISCOVER,
        run: discovered,
    },
    HttpCheck {
        id: "meta-required",
        name: "_meta required",
        about: "a request without clientCapabilities in its _meta gets 400 and -32602",
        rule: &rules::META_REQUIRED_HTTP,
        run: meta_required,
    },
    HttpCheck {
        id: "unsupported-version",
        name: "unsupported version",
        about: "a request at 2099-01-01 gets 400 and -32022",
        rule: &rules::UNSUPPORTED_VERSION_HTTP,
        run: unsupported_version,
    },
    HttpCheck {
        id: "unknown-method",
        name: "unknown method",
        about: "a method the server does not implement gets 404 and -32601",
        rule: &rules::METHOD_NOT_FOUND_HTTP,
        run: unknown_method,
    },
    HttpCheck {
        id: "http-notification-202",
        name: "notification: 202",
        about: "a POSTed notification gets 202 Accepted and no body",
        rule: &rules::NOTIFICATION_202,
        run: notification,
    },
    HttpCheck {
        id: "http-origin-403",
        name: "foreign Origin: 403",
        about: "a request with a foreign Origin gets 403 Forbidden",
        rule: &rules::ORIGIN,
        run: origin,
    },
    HttpCheck {
        id: "ids-echoed",
        name: "ids echoed",
        about: ids::ABOUT,
        rule: &rules::IDS_ECHOED,
        run: ids_echoed,
    },
    HttpCheck {
        id: "http-body-not-json",
        name: "body not JSON",
        about: "a body that is not JSON gets an HTTP error status",
        rule: &rules::NOT_JSON_HTTP,
        run: not_json,
    },
    HttpCheck {
        id: "http-method-header-400",
        name: "Mcp-Method header: 400",
        about: "a request without Mcp-Method, or with one that is not its method, gets 400 and -32020",
        rule: &rules::HEADER_MISMATCH,
        run: super::http_checks::method_header,
    },
    HttpCheck {
        id: "http-name-header-400",
        name: "Mcp-Name header: 400",
        about: "a resources/read or prompts/get (else a tools/call of no tool) without Mcp-Name, or with another name, gets 400 and -32020",
        rule: &rules::HEADER_MISMATCH,
        run: super::http_checks::name_header,
    },
];

/// Runs one check (or feature) `id` on a fresh connection and reports it.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_one(
    url: &str,
    trust: &Trust,
    id: &'static str,
    name: &str,
    about: &str,
    rule: &'static rules::Rule,
    ctx: &Ctx,
    run: &dyn Fn(&mut HttpConn, &Ctx) -> Checked,
) -> DoctorCase {
    let started = Instant::now();
    let mut conn = HttpConn::new(url, trust);
    let result = run(&mut conn, ctx);
    let finished = conn.finished();
    let result = match result {
        Ok(outcome) => super::schema_finding(&finished.transcript).map_or(Ok(outcome), Err),
        other => other,
    };
    let (case, _) = finish_case(id, name.to_string(), about, rule, ctx.era, result, finished, started);
    case
}

/// `mcplings doctor --url URL`.
pub(super) fn doctor_url(url: &str, options: &Options, report: &mut DoctorReport) {
    // Detection, as a host does it (2026-07-28 basic/transports/streamable-http
    // › Backward Compatibility): a modern request; a 4xx without a modern
    // JSON-RPC error body means a legacy server.
    if options.era == super::EraChoice::Legacy {
        super::http_legacy::doctor_url(url, options, report, None);
        return;
    }
    let started = Instant::now();
    let mut probe = HttpConn::new(url, &options.trust);
    let frame = discover("doctor-probe", mcp::request_meta(mcp::MODERN));
    let reply = match probe.post(&frame) {
        Ok(reply) => reply,
        Err(failure) => {
            report.error = Some(format!("cannot reach {url}: {}", failure.reason));
            return;
        }
    };
    let response = message(&reply);
    let modern_error = response
        .as_ref()
        .and_then(|m| m.pointer("/error/code"))
        .and_then(Value::as_i64)
        .is_some_and(|code| super::detect::is_modern_http_error(reply.status, code));
    // The probe, as the era-detection case (stdio reports it so too).
    let detection = |probe: HttpConn, how: String| {
        let (mut case, _) = finish_case(
            super::detect::PROBE.id,
            super::detect::PROBE.name.into(),
            super::detect::PROBE.about,
            super::detect::PROBE.rule,
            Era::Modern,
            Ok(Outcome::Note(how)),
            probe.finished(),
            started,
        );
        case.era = None;
        case
    };
    let capabilities = match response.as_ref().and_then(|m| m.get("result")) {
        Some(result) => {
            let capabilities = result["capabilities"].clone();
            report
                .cases
                .push(detection(probe, "server/discover answered: a modern server".into()));
            capabilities
        }
        None if (400..500).contains(&reply.status) && !modern_error => {
            if options.era == super::EraChoice::Modern {
                report.error = Some(format!(
                    "--era modern: {url} does not speak the modern era (server/discover got {} without a modern JSON-RPC error: a legacy HTTP server); leave --era out to find its era, or use --era legacy",
                    reply.status
                ));
                return;
            }
            report.cases.push(detection(
                probe,
                format!(
                    "server/discover got {} without a modern JSON-RPC error: not a modern server",
                    reply.status
                ),
            ));
            super::http_legacy::doctor_url(url, options, report, Some(reply.status));
            return;
        }
        None => {
            let failure = Failure::showing("server/discover got no result", shown(&reply));
            let (case, _) = finish_case(
                "server-discover",
                "server/discover".into(),
                CHECKS[0].about,
                &rules::DISCOVER,
                Era::Modern,
                Err(failure.into()),
                probe.finished(),
                started,
            );
            report.era = "unknown".into();
            report.detection = format!("server/discover got HTTP {} and no result", reply.status);
            report.cases.push(case);
            return;
        }
    };
    // A dual-era server answers initialize too (as over stdio, tried once
    // the modern era is found): its legacy sessions are checked as well.
    let legacy = (options.era == super::EraChoice::Auto)
        .then(|| super::http_legacy::found(url, options))
        .flatten();
    report.era = if legacy.is_some() { "dual-era" } else { "modern" }.into();
    report.detection = match &legacy {
        Some((_, settled)) => format!("server/discover answered over Streamable HTTP; {settled}"),
        None => "server/discover answered over Streamable HTTP".into(),
    };
    let ctx = Ctx {
        era: Era::Modern,
        legacy_version: String::new(),
        capabilities,
        calls: options.calls.clone(),
        call_readonly: options.call_readonly,
        startup: options.startup.unwrap_or(super::STARTUP),
        opened: None,
    };
    for check in CHECKS {
        report.cases.push(run_one(
            url,
            &options.trust,
            check.id,
            check.name,
            check.about,
            check.rule,
            &ctx,
            &check.run,
        ));
    }
    for feature in FEATURES.iter().chain([&super::features::CACHING]) {
        let body = |c: &mut HttpConn, ctx: &Ctx| match feature
            .capability
            .and_then(|cap| super::features::declared(ctx, cap))
        {
            Some(skip) => Ok(skip),
            None => (feature.body)(c, ctx),
        };
        report.cases.push(run_one(
            url,
            &options.trust,
            feature.id,
            feature.name,
            feature.about,
            feature.rule,
            &ctx,
            &body,
        ));
    }
    if let Some((legacy, _)) = legacy {
        super::http_legacy::run_found(url, options, &legacy, &mut report.cases);
        name_eras(&mut report.cases);
    }
}

/// On a dual-era server, a check run in both eras carries its era in its
/// name, as over stdio (`ids echoed (legacy)`).
fn name_eras(cases: &mut [DoctorCase]) {
    let in_era = |cases: &[DoctorCase], id: &str, era: &str| cases.iter().any(|c| c.id == id && c.era == Some(era));
    let both: Vec<&'static str> = cases
        .iter()
        .filter(|c| in_era(cases, c.id, "legacy") && in_era(cases, c.id, "modern"))
        .map(|c| c.id)
        .collect();
    for case in cases.iter_mut().filter(|c| both.contains(&c.id)) {
        if let Some(era) = case.era {
            case.case.name = format!("{} ({era})", case.case.name);
        }
    }
}
