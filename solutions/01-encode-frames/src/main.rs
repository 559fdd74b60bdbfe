//! The checker's harness. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! `mcplings` runs this program and talks to it over stdin and stdout, one
//! JSON value per line, the way an MCP host talks to a stdio server. Lines
//! with a `"harness"` member are commands to this file or values it reports
//! back from your functions; everything else is a frame. If one of your
//! functions panics, this file reports the panic and keeps going, so the
//! checker can tell you which function and where.
//!
//! Modes (the first argument):
//! - `encode`: commands such as `{"harness":"encode_request","id":11,…}`;
//!   prints the line your encoder returned, exactly as returned.
//! - `classify`: every input line is a frame a peer sent; prints
//!   `{"harness":"classified","kind":…}` with what `classify` said.
//! - `accept`: first `{"harness":"in_flight","calls":[[id,method],…]}`,
//!   then response lines; prints what `accept_response` decided.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::{Value, json};

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own), so that a save rebuilds one crate, not two. What a stub
// leaves unused is not a mistake yet: no dead-code warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Accepted, Id, Kind};

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

fn main() {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 01's harness: its checker drives it. Run `mcplings check 01`.");
    }
    std::panic::set_hook(Box::new(|info| {
        let message = match (info.payload().downcast_ref::<&str>(), info.payload().downcast_ref::<String>()) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic".to_string(),
        };
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
        eprintln!("panicked at {location}: {message}");
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, location));
    }));
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut in_flight: HashMap<Id, String> = HashMap::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
        let reply = match mode.as_str() {
            "encode" => encode(&line),
            "classify" => guarded("classify", || classified(learner::classify(&line))),
            "accept" => accept(&mut in_flight, &line),
            other => json!({"harness": "error", "message": format!("unknown mode `{other}`")}).to_string(),
        };
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

/// Runs one of the learner's functions; a panic becomes a report line.
fn guarded(function: &str, f: impl FnOnce() -> String) -> String {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(line) => line,
        Err(_) => {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            json!({"harness": "panic", "function": function, "message": message, "location": location}).to_string()
        }
    }
}

fn id_of(v: &Value) -> Id {
    Id::from_json(v).unwrap_or(Id::Str(v.to_string()))
}

fn encode(line: &str) -> String {
    let Ok(cmd) = serde_json::from_str::<Value>(line) else {
        return json!({"harness": "error", "message": "expected a harness command"}).to_string();
    };
    let id = id_of(&cmd["id"]);
    let text = |key: &str| cmd[key].as_str().unwrap_or_default().to_string();
    let opt = |key: &str| cmd.get(key).cloned();
    match cmd["harness"].as_str().unwrap_or_default() {
        "encode_request" => guarded("encode_request", || learner::encode_request(&id, &text("method"), opt("params"))),
        "encode_result" => guarded("encode_result", || learner::encode_result(&id, cmd["result"].clone())),
        "encode_error" => {
            let code = cmd["code"].as_i64().unwrap_or_default();
            guarded("encode_error", || learner::encode_error(&id, code, &text("message"), opt("data")))
        }
        "encode_notification" => guarded("encode_notification", || learner::encode_notification(&text("method"), opt("params"))),
        other => json!({"harness": "error", "message": format!("unknown command `{other}`")}).to_string(),
    }
}

fn classified(kind: Kind) -> String {
    let v = match kind {
        Kind::Request { id, method } => json!({"kind": "request", "id": id.to_json(), "method": method}),
        Kind::Notification { method } => json!({"kind": "notification", "method": method}),
        Kind::Success { id } => json!({"kind": "success", "id": id.to_json()}),
        Kind::Error { id, code } => json!({"kind": "error", "id": id.map(|i| i.to_json()), "code": code}),
        Kind::Invalid { reason } => json!({"kind": "invalid", "reason": reason}),
    };
    let mut out = json!({"harness": "classified"});
    if let Some(o) = out.as_object_mut() { o.extend(v.as_object().cloned().unwrap_or_default()) }
    out.to_string()
}

fn accept(in_flight: &mut HashMap<Id, String>, line: &str) -> String {
    if let Ok(cmd) = serde_json::from_str::<Value>(line)
        && cmd["harness"] == "in_flight"
    {
        in_flight.clear();
        for call in cmd["calls"].as_array().into_iter().flatten() {
            in_flight.insert(id_of(&call[0]), call[1].as_str().unwrap_or_default().to_string());
        }
        return json!({"harness": "ok"}).to_string();
    }
    guarded("accept_response", || {
        let decision = learner::accept_response(in_flight, line);
        let mut remaining: Vec<Value> = in_flight.keys().map(Id::to_json).collect();
        remaining.sort_by_key(|v| (v.is_string(), v.to_string()));
        let out = match decision {
            Accepted::Matched { id, method } => json!({"harness": "matched", "id": id.to_json(), "method": method}),
            Accepted::Orphan { id } => json!({"harness": "orphan", "id": id.map(|i| i.to_json())}),
            Accepted::NotAResponse => json!({"harness": "not_a_response"}),
        };
        let mut out = out;
        out["in_flight"] = Value::Array(remaining);
        out.to_string()
    })
}
