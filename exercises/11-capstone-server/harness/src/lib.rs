//! The server's stdio loop. YOU DO NOT NEED TO EDIT THIS CRATE: your work
//! is in `src/lib.rs` and `src/features.rs`.
//!
//! One JSON-RPC message per line on stdin, one per line on stdout, logs on
//! stderr (2025-11-25 basic/transports › stdio; the same framing in
//! 2026-07-28 basic/transports/stdio). Every frame goes through an
//! `Outbox`: one writer thread puts each on its own line, so frames sent
//! from several threads never interleave. The server runs until its client
//! closes stdin. A panic in `Server::handle` is answered with a -32603
//! error whose `data` is `{"harness":"panic",…}`, so the checker can tell
//! you where, and the server goes on.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your files and `src/main.rs`, which connects your `Server` and `Outbox`
//! to [`Learner`] (messages and frames travel as JSON values).

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{Sender, channel};

use serde_json::{Value, json};

/// Your server and its `Outbox`, as `src/main.rs` hands them over, made by
/// the function given to [`run`].
pub trait Learner {
    /// `Server::handle(message, out)`.
    fn handle(&mut self, message: &Value);
    /// `Outbox::send(frame)`: the harness's own frames go out the same way.
    fn send(&self, frame: Value);
}

/// What [`run`] needs to make your server: `Outbox::new(frames)`, then
/// `Server::new()`. Dropping what it returns drops the outbox first.
pub type NewServer = fn(frames: Sender<Value>) -> Box<dyn Learner>;

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the server made by `new_server` on stdin and stdout until stdin
/// ends, and until the last frame is out.
pub fn run(new_server: NewServer) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 11's harness: its checker drives it. Run `mcplings check 11`.");
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
    let (tx, rx) = channel::<Value>();
    let writer = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        for frame in rx {
            // Locked per frame, not for good: a println! elsewhere must not
            // wait forever (it still breaks the stream: stdout is for frames).
            let mut stdout = stdout.lock();
            if writeln!(stdout, "{frame}").and_then(|_| stdout.flush()).is_err() {
                break;
            }
        }
    });
    let mut server = new_server(tx);
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let text = line.trim_end_matches('\r');
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(message) => {
                if catch_unwind(AssertUnwindSafe(|| server.handle(&message))).is_err() {
                    let (message_text, location) = LAST_PANIC
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .take()
                        .unwrap_or_default();
                    let function = format!(
                        "Server::handle ({})",
                        message.get("method").and_then(Value::as_str).unwrap_or("?")
                    );
                    let report = json!({"harness": "panic", "function": function, "message": message_text, "location": location});
                    server.send(json!({"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32603, "message": "Internal error", "data": report}}));
                }
            }
            Err(e) => {
                eprintln!("not JSON ({e}): {text}");
                // The id can't be read, so the error response has none.
                server.send(json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}}));
            }
        }
    }
    // stdin closed: let calls still running finish, then the writer ends
    // when the last Outbox is dropped.
    drop(server);
    let _ = writer.join();
}
