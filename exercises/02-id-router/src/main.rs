//! The checker's harness. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! `mcplings` runs this program and plays the server: it talks to it over
//! stdin and stdout, one JSON value per line, the way an MCP server talks to
//! its client over stdio. Lines with a `"harness"` member are commands to
//! this file or values it reports back from your router; everything else is
//! a frame.
//!
//! - `{"harness":"call","tag":"c1","method":…,"params":…}` calls
//!   `Router::call` and prints the request line it returned.
//! - `{"harness":"in_flight"}` prints the calls in flight.
//! - Any other line is a frame from the server: it goes to
//!   `Router::receive`, and this file prints where it went
//!   (`{"harness":"reply",…}`, `{"harness":"notification",…}`, …), or, for
//!   `Routed::Answer`, the answer line itself.

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
use learner::{Routed, Router};

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

fn main() {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 02's harness: its checker drives it. Run `mcplings check 02`.");
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
    let mut router = Router::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
        let command = serde_json::from_str::<Value>(&line).ok().filter(|v| v.get("harness").is_some());
        let reply = match command {
            Some(cmd) if cmd["harness"] == "call" => {
                let tag = cmd["tag"].as_str().unwrap_or_default().to_string();
                let method = cmd["method"].as_str().unwrap_or_default().to_string();
                let params = cmd.get("params").cloned();
                guarded("Router::call", || router.call(&tag, &method, params))
            }
            Some(cmd) if cmd["harness"] == "in_flight" => {
                let mut calls: Vec<Value> = router.in_flight().into_iter().map(|(id, tag)| json!([id.to_json(), tag])).collect();
                calls.sort_by_key(|c| c[1].to_string());
                json!({"harness": "in_flight", "calls": calls}).to_string()
            }
            Some(cmd) => json!({"harness": "error", "message": format!("unknown command {cmd}")}).to_string(),
            None => guarded("Router::receive", || routed(router.receive(&line))),
        };
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

/// Runs the learner's code; a panic becomes a report line.
fn guarded(function: &str, f: impl FnOnce() -> String) -> String {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(line) => line,
        Err(_) => {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            json!({"harness": "panic", "function": function, "message": message, "location": location}).to_string()
        }
    }
}

fn routed(r: Routed) -> String {
    let v = match r {
        Routed::Reply { tag, id, outcome: Ok(result) } => json!({"harness": "reply", "tag": tag, "id": id.to_json(), "result": result}),
        Routed::Reply { tag, id, outcome: Err(error) } => json!({"harness": "reply", "tag": tag, "id": id.to_json(), "error": error}),
        Routed::Notification { method, params } => {
            let mut v = json!({"harness": "notification", "method": method});
            if let Some(params) = params {
                v["params"] = params;
            }
            v
        }
        Routed::Answer(line) => return line,
        Routed::Orphan { id } => json!({"harness": "orphan", "id": id.map(|i| i.to_json())}),
        Routed::Invalid { reason } => json!({"harness": "invalid", "reason": reason}),
    };
    v.to_string()
}
