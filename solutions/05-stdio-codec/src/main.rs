//! The checker's harness. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! `mcplings` runs this program and sends it commands, one JSON object per
//! line. Bytes travel as hex, so that any byte, a lone `\r` or half of a
//! UTF-8 character included, reaches your decoder exactly.
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
use learner::{Decoder, FrameError, encode};

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

fn main() {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 05's harness: its checker drives it. Run `mcplings check 05`.");
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
    let mut decoder = Decoder::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let command: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let reply = match command["harness"].as_str() {
            Some("feed") => match from_hex(command["hex"].as_str().unwrap_or("")) {
                Some(bytes) => guarded("Decoder::feed", || {
                    let items: Vec<Value> = decoder.feed(&bytes).into_iter().map(item).collect();
                    json!({"harness": "decoded", "items": items, "buffered": decoder.buffered()})
                }),
                None => json!({"harness": "error", "message": "feed needs hex"}),
            },
            Some("encode") => guarded("encode", || {
                let bytes = encode(&command["message"]);
                json!({"harness": "encoded", "text": String::from_utf8_lossy(&bytes), "hex": to_hex(&bytes)})
            }),
            Some("reset") => {
                decoder = Decoder::new();
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
fn item(decoded: Result<Value, FrameError>) -> Value {
    match decoded {
        Ok(message) => {
            let bytes = message.to_string().len();
            if bytes > 64 << 10 {
                json!({"large_message": {"bytes": bytes, "id": message.get("id")}})
            } else {
                json!({"message": message})
            }
        }
        Err(FrameError::Invalid { line, reason }) => json!({"invalid": line.chars().take(200).collect::<String>(), "reason": reason}),
        Err(FrameError::Batch) => json!({"batch": true}),
    }
}

/// Runs the learner's code; a panic becomes a report line.
fn guarded(function: &str, f: impl FnOnce() -> Value) -> Value {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => value,
        Err(_) => {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
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
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}
