//! The checker's harness for exercise 02. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! `mcplings` runs the exercise's program and plays the server: it talks to
//! it over stdin and stdout, one JSON value per line, the way an MCP server
//! talks to its client over stdio. Lines with a `"harness"` member are
//! commands to this crate or values it reports back from your router;
//! everything else is a frame.
//!
//! - `{"harness":"call","tag":"c1","method":…,"params":…}` calls
//!   `Router::call` and prints the request line it returned.
//! - `{"harness":"in_flight"}` prints the calls in flight.
//! - Any other line is a frame from the server: it goes to
//!   `Router::receive`, and this crate prints where it went
//!   (`{"harness":"reply",…}`, `{"harness":"notification",…}`, …), or, for
//!   `Routed::Answer`, the answer line itself.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your router to [`Learner`]
//! (ids and outcomes travel as JSON values, the types of `src/lib.rs` being
//! yours).

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::{Value, json};

/// The learner's router, as `src/main.rs` hands it over. An id is its JSON
/// value (`1` or `"c1"`).
pub trait Learner {
    /// `Router::new()`: the router the other methods use. Called once,
    /// after the panic hook is set, before the first line is read.
    fn new_router(&mut self);
    /// `Router::call(tag, method, params)`: the request line it returned.
    fn call(&mut self, tag: &str, method: &str, params: Option<Value>) -> String;
    /// `Router::in_flight()`: (id, tag) pairs, in the order it gave them.
    fn in_flight(&mut self) -> Vec<(Value, String)>;
    /// `Router::receive(line)`: where the line went, as the object the
    /// harness prints (`{"harness":"reply",…}`, …), or, for
    /// `Routed::Answer`, the answer line as a JSON string, printed as is.
    fn receive(&mut self, line: &str) -> Value;
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the harness on stdin and stdout until stdin ends.
pub fn run(learner: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 02's harness: its checker drives it. Run `mcplings check 02`.");
    }
    std::panic::set_hook(Box::new(|info| {
        let message = match (
            info.payload().downcast_ref::<&str>(),
            info.payload().downcast_ref::<String>(),
        ) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic".to_string(),
        };
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        eprintln!("panicked at {location}: {message}");
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, location));
    }));
    learner.new_router();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
        let command = serde_json::from_str::<Value>(&line)
            .ok()
            .filter(|v| v.get("harness").is_some());
        let reply = match command {
            Some(cmd) if cmd["harness"] == "call" => {
                let tag = cmd["tag"].as_str().unwrap_or_default().to_string();
                let method = cmd["method"].as_str().unwrap_or_default().to_string();
                let params = cmd.get("params").cloned();
                guarded("Router::call", || learner.call(&tag, &method, params))
            }
            Some(cmd) if cmd["harness"] == "in_flight" => {
                let mut calls: Vec<Value> = learner
                    .in_flight()
                    .into_iter()
                    .map(|(id, tag)| json!([id, tag]))
                    .collect();
                calls.sort_by_key(|c| c[1].to_string());
                json!({"harness": "in_flight", "calls": calls}).to_string()
            }
            Some(cmd) => json!({"harness": "error", "message": format!("unknown command {cmd}")}).to_string(),
            None => guarded("Router::receive", || match learner.receive(&line) {
                Value::String(answer) => answer,
                report => report.to_string(),
            }),
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
            let (message, location) = LAST_PANIC
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_default();
            json!({"harness": "panic", "function": function, "message": message, "location": location}).to_string()
        }
    }
}
