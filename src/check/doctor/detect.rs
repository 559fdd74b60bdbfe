//! Finding a server's era as a host does (2026-07-28
//! basic/transports/stdio › Backward Compatibility): probe with
//! `server/discover` at 2026-07-28; a `DiscoverResult` (or a recognized
//! modern error, -32022) means modern; any other error, or silence,
//! means legacy, and the host falls back to `initialize`. Doctor then also
//! tries `initialize` on a modern server, in a fresh process, to see
//! whether it is dual-era; what each probe settled (the legacy version,
//! the capabilities) is what the checks start from.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Check, Checked, DoctorCase, Era, EraChoice, Finding, Options, Outcome, STARTUP, Target};
use super::{check_timeout, finish_case, rules};
use crate::check::session::{Session, Stop};
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::{exchange_within, initialize_request, request};

use crate::mcp;

/// Whether an HTTP error answer to a modern request is a recognized
/// modern JSON-RPC error, so the server speaks the modern era: any code of
/// the range the modern spec reserves for itself, -32020…-32099 (2026-07-28
/// basic/index › Error Codes; -32020 header mismatch, -32021 missing client
/// capability, -32022 unsupported version) but 2025-11-25's -32042, or
/// -32601 on a `404`: "If the
/// server does not implement the requested RPC method, it MUST respond with
/// `404 Not Found` and a JSON-RPC error with code `-32601` … The JSON-RPC
/// error body distinguishes this case from a `404` returned by a legacy
/// HTTP+SSE server" (basic/transports/streamable-http › Protocol Version
/// Header). Anything else, an empty body included, means legacy (›
/// Backward Compatibility).
pub(super) fn is_modern_http_error(status: u16, code: i64) -> bool {
    let defined_by_modern = (-32099..=-32020).contains(&code) && code != URL_ELICITATION_REQUIRED;
    defined_by_modern || (status == 404 && code == -32601)
}

/// -32042, URL elicitation required: inside the modern range but defined
/// by 2025-11-25 only, and still reserved ("Codes defined by earlier
/// protocol versions remain reserved", 2026-07-28 basic/index › Error
/// Codes), so a legacy server may send it: no evidence of the modern era.
const URL_ELICITATION_REQUIRED: i64 = -32042;

/// An era the server speaks, with what its probe settled.
pub(super) struct Found {
    pub era: Era,
    pub legacy_version: String,
    pub capabilities: Value,
}

/// What detection found.
pub(super) struct Detected {
    pub cases: Vec<DoctorCase>,
    pub eras: Vec<Found>,
    pub era: String,
    pub how: String,
    pub error: Option<String>,
    /// The probes' processes of the eras found, still running, handshake
    /// done: the shared processes' (`shared.rs`).
    pub kept: Vec<(Era, Session)>,
}

/// The modern probe, as a check.
pub(super) static PROBE: Check = Check {
    id: "era-detection",
    name: "era detection",
    about: "server/discover at 2026-07-28 first, as a dual-era host probes; any error but a modern one, or silence, means legacy and initialize follows",
    rule: &rules::DISCOVER,
    eras: &[Era::Modern],
    schema: true,
    run: |_, _| Ok(Outcome::Pass),
};

/// The legacy probe, as a check.
pub(super) static HANDSHAKE: Check = Check {
    id: "initialize",
    name: "initialize",
    about: "initialize at 2025-11-25 gets a result with protocolVersion, capabilities and serverInfo",
    rule: &rules::INITIALIZE,
    eras: &[Era::Legacy],
    schema: true,
    run: |_, _| Ok(Outcome::Pass),
};

/// A modern `server/discover` request frame at `version`.
pub(super) fn discover(id: &str, version: &str) -> Value {
    request(
        id,
        "server/discover",
        Some(json!({"_meta": mcp::request_meta(version)})),
    )
}

/// What one probe saw of the server besides its verdict.
struct Heard {
    /// Whether the server wrote anything at all on stdout.
    spoke: bool,
    /// The server's stderr in that process.
    stderr: String,
}

/// The last lines of a server's stderr, for a report that it could not run.
fn stderr_tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = &lines[lines.len().saturating_sub(12)..];
    if tail.is_empty() {
        "its stderr was empty".into()
    } else {
        format!("its stderr ended:\n    {}", tail.join("\n    "))
    }
}

/// Reports a probe that ran in `session` since `started` as `check`, with
/// what was heard; `keep` leaves the session running for the checks that
/// share a process (`shared.rs`), else it ends here.
fn conclude(
    mut session: Session,
    check: &Check,
    era: Era,
    result: Checked,
    started: Instant,
    keep: bool,
) -> (DoctorCase, Heard, Option<Session>) {
    let (finished, kept) = if keep {
        (session.split(), Some(session))
    } else {
        (session.finish(), None)
    };
    let heard = Heard {
        spoke: finished
            .transcript
            .iter()
            .any(|e| e.dir == crate::check::report::Direction::FromLearner),
        stderr: finished.stderr.clone(),
    };
    let result = match result {
        Ok(outcome) => super::schema_finding(&finished.transcript).map_or(Ok(outcome), Err),
        other => other,
    };
    let (mut case, _) = finish_case(
        check.id,
        check.name.into(),
        check.about,
        check.rule,
        era,
        result,
        finished,
        started,
    );
    // Detection decides the era rather than speaking one; `initialize`
    // is the legacy handshake.
    if check.id == PROBE.id {
        case.era = None;
    }
    (case, heard, kept)
}

/// Starts a probe's process of the server (on the calling thread: see
/// `shared.rs`), bounded as a check with `startup` to answer first.
fn start(target: &Target, startup: Duration) -> Result<Session, String> {
    let args: Vec<&str> = target.args.iter().map(String::as_str).collect();
    let mut session =
        Session::spawn(&target.program, &args, check_timeout(startup), None).map_err(|stop| match stop {
            Stop::Io(e) => e,
            other => other.reason(),
        })?;
    // Detection (and the checks that share its process) read past a
    // banner, as a lenient host does: the stdout check judges it.
    session.skip_junk();
    Ok(session)
}

/// Sends `frame` in `session` and waits up to `within` for its answer, on
/// a thread of its own, so the two probes wait side by side: a server
/// silent on `server/discover` costs its window once, beside the
/// handshake's, not before it.
fn ask<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    mut session: Session,
    frame: Value,
    within: std::time::Duration,
) -> std::thread::ScopedJoinHandle<'s, (Session, Result<Value, Failure>, Instant)> {
    scope.spawn(move || {
        let started = Instant::now();
        let answer = exchange_within(&mut session, &frame, within);
        (session, answer, started)
    })
}

/// Why `target` could not be started, from the spawn error `e` ("cannot
/// start PROGRAM: …"): for a program not found, where to look.
fn cannot_start(target: &Target, e: &str) -> String {
    if !e.contains("os error 2") {
        return e.to_string();
    }
    let program = target.program.display();
    let lookup = if target.program.components().count() > 1 {
        "no such file: check the path"
    } else {
        "no such program on PATH: is it installed? Give its path (./server), or its launcher (npx, uvx, python -m)"
    };
    format!("cannot start `{program}`: {lookup}")
}

/// What the modern probe got.
enum Modern {
    /// A `DiscoverResult`: its capabilities.
    Yes(Value),
    /// A modern error: the versions it supports instead.
    OtherVersions(Value),
    /// Another error answer: not a modern server, and why.
    Refused(String),
    /// No answer at all, and what came instead (silence, an exit).
    Silent(String),
    /// Not probed (`--era legacy`).
    NotProbed,
}

/// The probe's note on a server that did not answer it for `cause`.
fn silent_note(cause: &str) -> String {
    format!("server/discover got no answer ({cause}): not a modern server")
}

/// Finds the server's era; see the module doc. Both probes run at once,
/// each in a process of its own; the process of an era found is kept for
/// the checks that share one ([`Detected::kept`]).
pub(super) fn detect(target: &Target, options: &Options) -> Detected {
    let mut detected = Detected {
        cases: Vec::new(),
        eras: Vec::new(),
        era: String::new(),
        how: String::new(),
        error: None,
        kept: Vec::new(),
    };
    let startup = options.startup.unwrap_or(STARTUP);
    let mut started = |wanted: bool| -> Result<Option<Session>, ()> {
        if !wanted {
            return Ok(None);
        }
        start(target, startup).map(Some).map_err(|e| {
            detected.error.get_or_insert_with(|| cannot_start(target, &e));
        })
    };
    let (Ok(modern_session), Ok(legacy_session)) = (
        started(options.era != EraChoice::Legacy),
        started(options.era != EraChoice::Modern),
    ) else {
        return detected;
    };
    let (modern_asked, legacy_asked) = std::thread::scope(|scope| {
        let modern = modern_session.map(|s| ask(scope, s, discover("doctor-probe", mcp::MODERN), startup));
        let legacy = legacy_session.map(|s| ask(scope, s, initialize_request("doctor-init", mcp::LEGACY), startup));
        let joined =
            |h: std::thread::ScopedJoinHandle<'_, _>| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (modern.map(joined), legacy.map(joined))
    });
    let mut modern = Modern::NotProbed;
    let mut hearings: Vec<Heard> = Vec::new();
    let mut legacy_refused: Option<String> = None;
    if let Some((session, answer, since)) = modern_asked {
        let forced = options.era == EraChoice::Modern;
        let (result, found) = match answer {
            Ok(response) => match (response.get("result"), response.pointer("/error/code")) {
                (Some(result), _) => (
                    Ok(Outcome::Note("server/discover answered: a modern server".into())),
                    Modern::Yes(result["capabilities"].clone()),
                ),
                (None, Some(code)) if code == &json!(-32022) => {
                    let supported = response
                        .pointer("/error/data/supported")
                        .cloned()
                        .unwrap_or(Value::Null);
                    let how = format!(
                        "server/discover at {} got -32022 Unsupported protocol version (supported: {supported}): a modern server, but not of a revision mcplings speaks",
                        mcp::MODERN
                    );
                    (Ok(Outcome::Note(how)), Modern::OtherVersions(supported))
                }
                (None, code) => {
                    let why = format!(
                        "server/discover got error {}: not a modern server",
                        code.map_or("(no code)".to_string(), Value::to_string)
                    );
                    (Ok(Outcome::Note(why.clone())), Modern::Refused(why))
                }
            },
            Err(failure) => {
                let cause = crate::check::toolkit::as_client::without_reply_rule(&failure.reason);
                let why = silent_note(&cause);
                let framing = super::framing(&failure.stop);
                let result = if forced || framing {
                    Err(Finding::from(failure))
                } else {
                    Ok(Outcome::Note(why.clone()))
                };
                (result, Modern::Silent(cause))
            }
        };
        let keep = matches!(found, Modern::Yes(_)) && result.is_ok();
        let (case, heard, kept) = conclude(session, &PROBE, Era::Modern, result, since, keep);
        // A frame of the probe that broke the types fails it: its process
        // is not kept (`conclude` judges the frames after keeping it).
        if let Some(kept) = kept
            && case.verdict != super::Verdict::Fail
        {
            detected.kept.push((Era::Modern, kept));
        }
        detected.cases.push(case);
        hearings.push(heard);
        modern = found;
    }
    if let Modern::Yes(capabilities) = &modern {
        detected.eras.push(Found {
            era: Era::Modern,
            legacy_version: String::new(),
            capabilities: capabilities.clone(),
        });
    }
    let mut legacy_how = String::from("initialize not tried (--era modern)");
    if let Some((session, answer, since)) = legacy_asked {
        let must = detected.eras.is_empty();
        let (result, found): (Checked, Result<(String, Value), String>) = match answer {
            Ok(response) => match response.get("result") {
                Some(result) => {
                    let version = result["protocolVersion"].as_str().unwrap_or("").to_string();
                    let note = format!("initialize at {} settled {version}", mcp::LEGACY);
                    (Ok(Outcome::Note(note)), Ok((version, result["capabilities"].clone())))
                }
                None if options.era == EraChoice::Legacy => {
                    let code = response.pointer("/error/code").map_or("(no code)".to_string(), Value::to_string);
                    let why = format!("initialize got error {code}");
                    (Ok(Outcome::Note(why.clone())), Err(why))
                }
                None if must => (
                    Err(Failure::partial(
                        "initialize got an error: the server must answer it with its capabilities and information",
                        json!({"jsonrpc": "2.0", "id": "doctor-init", "result": {"protocolVersion": mcp::LEGACY, "capabilities": {}, "serverInfo": {}}}),
                        response,
                    )
                    .into()),
                    Err(String::new()),
                ),
                None => (
                    Ok(Outcome::Note("initialize got an error: a modern-only server".into())),
                    Err(String::new()),
                ),
            },
            Err(failure) if must || super::framing(&failure.stop) => (Err(failure.into()), Err(String::new())),
            Err(failure) => (
                Ok(Outcome::Note(format!("initialize: {}", failure.reason))),
                Err(String::new()),
            ),
        };
        let keep = found.is_ok() && result.is_ok();
        let (case, heard, kept) = conclude(session, &HANDSHAKE, Era::Legacy, result, since, keep);
        legacy_how = match &found {
            Ok((version, _)) => format!("initialize settled {version}"),
            Err(_) => "initialize failed".into(),
        };
        if let Some(kept) = kept
            && case.verdict != super::Verdict::Fail
        {
            detected.kept.push((Era::Legacy, kept));
        }
        detected.cases.push(case);
        hearings.push(heard);
        if let Err(why) = &found
            && !why.is_empty()
        {
            legacy_refused = Some(why.clone());
        }
        if let Ok((version, capabilities)) = found {
            detected.eras.push(Found {
                era: Era::Legacy,
                legacy_version: version,
                capabilities,
            });
        }
    }
    let modern_how = match &modern {
        Modern::Yes(_) => "server/discover answered".to_string(),
        Modern::OtherVersions(v) => format!("server/discover answered -32022 (supports {v})"),
        Modern::Refused(why) => why.clone(),
        Modern::Silent(cause) => silent_note(cause),
        Modern::NotProbed => "not probed (--era legacy)".to_string(),
    };
    let eras: Vec<Era> = detected.eras.iter().map(|f| f.era).collect();
    detected.era = match eras.as_slice() {
        [Era::Modern, Era::Legacy] => "dual-era",
        [Era::Modern] => "modern",
        [Era::Legacy] => "legacy",
        _ => "unknown",
    }
    .to_string();
    detected.how = format!("{modern_how}; {legacy_how}");
    if detected.eras.is_empty() {
        detected.how.push_str(": no era to check further");
    }
    if let Some(error) = could_not_run(
        options.era,
        &modern,
        legacy_refused.as_deref(),
        &detected.eras,
        &hearings,
    ) {
        // Nothing is judged beside a server that could not be run.
        detected.cases.clear();
        detected.error = Some(error);
    }
    detected
}

/// Why doctor could not run its checks, when it could not: exit 2, not a
/// verdict (issue 34). A server that never wrote a line on stdout in any
/// probe (it exited at once, is misconfigured, or starts slower than the
/// startup window) could not be run; `--era` naming an era the server
/// refused to speak is a usage problem, with a hint. A server that spoke
/// and broke a rule is judged instead (`None`).
fn could_not_run(
    choice: EraChoice,
    modern: &Modern,
    legacy_refused: Option<&str>,
    eras: &[Found],
    hearings: &[Heard],
) -> Option<String> {
    if !eras.is_empty() || hearings.is_empty() {
        return None;
    }
    if hearings.iter().all(|h| !h.spoke) {
        let cause = match modern {
            Modern::Silent(cause) if choice != EraChoice::Legacy => cause.as_str(),
            _ => "it never answered",
        };
        let stderr = hearings.last().map_or_else(String::new, |h| stderr_tail(&h.stderr));
        let advice = if cause.contains("exited") {
            "check the command and what it needs (arguments, environment, files)"
        } else {
            "check the command, or give a slow starter more time with --startup-ms"
        };
        return Some(format!(
            "could not run the server: it wrote nothing on stdout ({cause}); {advice}; {stderr}"
        ));
    }
    match (choice, modern, legacy_refused) {
        (EraChoice::Modern, Modern::Refused(why), _) => Some(format!(
            "--era modern: the server does not speak the modern era ({why}); leave --era out to find its era, or use --era legacy"
        )),
        (EraChoice::Legacy, _, Some(why)) => Some(format!(
            "--era legacy: the server does not speak the legacy era ({why}); leave --era out to find its era, or use --era modern"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::is_modern_http_error;

    #[test]
    fn modern_http_errors_are_the_reserved_range_and_404_with_method_not_found() {
        for (status, code) in [
            (400, -32020),
            (400, -32021),
            (400, -32022),
            (400, -32099),
            (404, -32601),
        ] {
            assert!(is_modern_http_error(status, code), "{status} {code}");
        }
        // -32602 is what a legacy server may answer too; -32601 on a 400 is
        // not the unknown-method answer the modern spec fixes; -32000…-32019
        // are legacy implementation codes, -32042 a 2025-11-25 code kept
        // reserved (basic/index › Error Codes).
        for (status, code) in [
            (400, -32602),
            (400, -32601),
            (405, -32601),
            (400, -32000),
            (400, -32019),
            (400, -32042),
            (400, -32100),
            (400, -32600),
        ] {
            assert!(!is_modern_http_error(status, code), "{status} {code}");
        }
    }
}
