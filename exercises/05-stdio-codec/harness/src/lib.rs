//! The checker's harness for exercise 05. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! `mcplings` runs the exercise's program and sends it commands, one JSON
//! object per line. Bytes travel as hex, so that any byte, a lone `\r` or
//! half of a UTF-8 character included, reaches your decoder exactly.
//!
//! - `{"harness":"feed","text":"{}\n","hex":"7b7d0a"}` calls `Decoder::feed`
//!   with the bytes in `hex` (`text` shows them for reading) and
//!   prints `{"harness":"decoded","items":[…],"buffered":N}`.
//!   Each item is `{"message":…}`, `{"invalid":LINE,"reason":…}` or
//!   `{"batch":true}`. A message over 64 KiB is summarised as
//!   `{"large_message":{"bytes":N,"id":…}}`.
//! - `{"harness":"encode","message":…}` calls `encode` and prints
//!   `{"harness":"encoded","text":…,"hex":…}` (the bytes, readable and exact).
//! - `{"harness":"reset"}` starts a new decoder.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your decoder and `encode` to
//! [`Learner`] (a `FrameError` travels as the item the harness prints, the
//! types of `src/lib.rs` being yours).

use std::io::{BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use serde_json::{Value, json};

/// The learner's decoder and `encode`, as `src/main.rs` hands them over.
pub trait Learner {
    /// `Decoder::new()`: the decoder the other methods use, replacing any
    /// before it. Called after the panic hook is set, before the first line
    /// is read, and on each `reset`.
    fn new_decoder(&mut self);
    /// `Decoder::feed(bytes)`: per line, the message, or the item that
    /// reports its `FrameError` (`{"invalid":LINE,"reason":…}` with LINE cut
    /// to 200 characters, or `{"batch":true}`).
    fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Value, Value>>;
    /// `Decoder::buffered()`.
    fn buffered(&mut self) -> usize;
    /// `encode(message)`.
    fn encode(&mut self, message: &Value) -> Vec<u8>;
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the harness on stdin and stdout until stdin ends.
pub fn run(learner: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 05's harness: its checker drives it. Run `mcplings check 05`.");
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
    learner.new_decoder();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let command: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let reply = match command["harness"].as_str() {
            Some("feed") => match from_hex(command["hex"].as_str().unwrap_or("")) {
                Some(bytes) => guarded("Decoder::feed", || {
                    let items: Vec<Value> = learner.feed(&bytes).into_iter().map(item).collect();
                    json!({"harness": "decoded", "items": items, "buffered": learner.buffered()})
                }),
                None => json!({"harness": "error", "message": "feed needs hex"}),
            },
            Some("encode") => guarded("encode", || {
                let bytes = learner.encode(&command["message"]);
                json!({"harness": "encoded", "text": String::from_utf8_lossy(&bytes), "hex": to_hex(&bytes)})
            }),
            Some("reset") => {
                learner.new_decoder();
                json!({"harness": "ok"})
            }
            _ => json!({"harness": "error", "message": format!("unknown command {line}")}),
        };
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

/// Reports one decoded line.
fn item(decoded: Result<Value, Value>) -> Value {
    match decoded {
        Ok(message) => {
            let bytes = message.to_string().len();
            if bytes > 64 << 10 {
                json!({"large_message": {"bytes": bytes, "id": message.get("id")}})
            } else {
                json!({"message": message})
            }
        }
        Err(item) => item,
    }
}

/// Runs the learner's code; a panic becomes a report line.
fn guarded(function: &str, f: impl FnOnce() -> Value) -> Value {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => value,
        Err(_) => {
            let (message, location) = LAST_PANIC
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_default();
            json!({"harness": "panic", "function": function, "message": message, "location": location})
        }
    }
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}
