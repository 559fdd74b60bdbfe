//! The checker's harness for exercise 01. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! `mcplings` runs the exercise's program and talks to it over stdin and
//! stdout, one JSON value per line, the way an MCP host talks to a stdio
//! server. Lines with a `"harness"` member are commands to this crate or
//! values it reports back from your functions; everything else is a frame.
//! If one of your functions panics, the harness reports the panic and keeps
//! going, so the checker can tell you which function and where.
//!
//! Modes (the program's first argument):
//! - `encode`: commands such as `{"harness":"encode_request","id":11,…}`;
//!   prints the line your encoder returned, exactly as returned.
//! - `classify`: every input line is a frame a peer sent; prints
//!   `{"harness":"classified","kind":…}` with what `classify` said.
//! - `accept`: first `{"harness":"in_flight","calls":[[id,method],…]}`,
//!   then response lines; prints what `accept_response` decided.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your functions to
//! [`Learner`] (ids and answers travel as JSON values, the types of
//! `src/lib.rs` being yours).

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::{Value, json};

/// The learner's functions, as `src/main.rs` hands them over. An id is its
/// JSON value (`11` or `"11"`); an answer of `classify` or
/// `accept_response` is the JSON object the harness prints.
pub trait Learner {
    /// `encode_request(id, method, params)`.
    fn encode_request(&mut self, id: &Value, method: &str, params: Option<Value>) -> String;
    /// `encode_result(id, result)`.
    fn encode_result(&mut self, id: &Value, result: Value) -> String;
    /// `encode_error(id, code, message, data)`.
    fn encode_error(&mut self, id: &Value, code: i64, message: &str, data: Option<Value>) -> String;
    /// `encode_notification(method, params)`.
    fn encode_notification(&mut self, method: &str, params: Option<Value>) -> String;
    /// `classify(line)`, as `{"kind": …, …}`.
    fn classify(&mut self, line: &str) -> Value;
    /// Replaces the calls in flight: (id, method) pairs.
    fn set_in_flight(&mut self, calls: Vec<(Value, String)>);
    /// `accept_response(in_flight, line)`, as `{"harness": "matched" |
    /// "orphan" | "not_a_response", …}`, and the ids still in flight after it.
    fn accept_response(&mut self, line: &str) -> (Value, Vec<Value>);
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the harness on stdin and stdout until stdin ends.
pub fn run(learner: &mut dyn Learner) {
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
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
        let reply = match mode.as_str() {
            "encode" => encode(learner, &line),
            "classify" => guarded("classify", || classified(learner.classify(&line))),
            "accept" => accept(learner, &line),
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

fn encode(learner: &mut dyn Learner, line: &str) -> String {
    let Ok(cmd) = serde_json::from_str::<Value>(line) else {
        return json!({"harness": "error", "message": "expected a harness command"}).to_string();
    };
    let id = &cmd["id"];
    let text = |key: &str| cmd[key].as_str().unwrap_or_default().to_string();
    let opt = |key: &str| cmd.get(key).cloned();
    match cmd["harness"].as_str().unwrap_or_default() {
        "encode_request" => guarded("encode_request", || learner.encode_request(id, &text("method"), opt("params"))),
        "encode_result" => guarded("encode_result", || learner.encode_result(id, cmd["result"].clone())),
        "encode_error" => {
            let code = cmd["code"].as_i64().unwrap_or_default();
            guarded("encode_error", || learner.encode_error(id, code, &text("message"), opt("data")))
        }
        "encode_notification" => guarded("encode_notification", || learner.encode_notification(&text("method"), opt("params"))),
        other => json!({"harness": "error", "message": format!("unknown command `{other}`")}).to_string(),
    }
}

fn classified(kind: Value) -> String {
    let mut out = json!({"harness": "classified"});
    if let (Some(o), Value::Object(kind)) = (out.as_object_mut(), kind) {
        o.extend(kind);
    }
    out.to_string()
}

fn accept(learner: &mut dyn Learner, line: &str) -> String {
    if let Ok(cmd) = serde_json::from_str::<Value>(line)
        && cmd["harness"] == "in_flight"
    {
        let calls = cmd["calls"].as_array().into_iter().flatten();
        learner.set_in_flight(calls.map(|call| (call[0].clone(), call[1].as_str().unwrap_or_default().to_string())).collect());
        return json!({"harness": "ok"}).to_string();
    }
    guarded("accept_response", || {
        let (mut out, mut remaining) = learner.accept_response(line);
        remaining.sort_by_key(|v| (v.is_string(), v.to_string()));
        out["in_flight"] = Value::Array(remaining);
        out.to_string()
    })
}
