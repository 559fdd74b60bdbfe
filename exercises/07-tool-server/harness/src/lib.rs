//! The checker's harness for exercise 07: the server's stdio loop. YOU DO
//! NOT NEED TO EDIT THIS CRATE: your work is in `src/lib.rs`.
//!
//! One JSON-RPC message per line on stdin, one per line on stdout, logs on
//! stderr (2025-11-25 basic/transports › stdio); the server runs until its
//! client closes stdin. A panic in your code is answered with a -32603
//! error whose `data` is `{"harness":"panic",…}`, so the checker can tell
//! you where, and the server goes on.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `Server` to
//! [`Learner`] (messages travel as JSON values, as your `Server::handle`
//! takes and returns them).

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::{Value, json};

/// The learner's server, as `src/main.rs` hands it over.
pub trait Learner {
    /// `Server::handle(message)`: the response to write, if any.
    fn handle(&mut self, message: &Value) -> Option<Value>;
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the server on stdin and stdout until stdin ends.
pub fn run(server: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 07's harness: its checker drives it. Run `mcplings check 07`.");
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
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let text = line.trim_end_matches('\r');
        if text.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(text) {
            Ok(message) => catch_unwind(AssertUnwindSafe(|| server.handle(&message))).unwrap_or_else(|_| {
                let (message_text, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
                let function = format!("Server::handle ({})", message.get("method").and_then(Value::as_str).unwrap_or("?"));
                let report = json!({"harness": "panic", "function": function, "message": message_text, "location": location});
                Some(json!({"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32603, "message": "Internal error", "data": report}}))
            }),
            Err(e) => {
                eprintln!("not JSON ({e}): {text}");
                Some(json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}))
            }
        };
        if let Some(reply) = reply
            && writeln!(stdout, "{reply}").and_then(|_| stdout.flush()).is_err()
        {
            break;
        }
    }
}
