//! Exercise 05 · The stdio codec
//!
//! On stdio every MCP message is one line of UTF-8 JSON ending in `\n`,
//! with no newline inside it (2025-11-25 basic/transports › stdio; the same
//! in 2026-07-28 basic/transports/stdio). Bytes arrive in reads of any
//! size: a read may hold half a message, or three and a half. The decoder
//! keeps what it has not seen the end of, and yields each complete line.
//!
//! Write `Decoder::feed` and `encode`. Save: mcplings rebuilds and checks,
//! and each failing case tells you what to change.

use serde_json::Value;

/// Why one line could not be decoded. Decoding goes on with the next line.
#[derive(Debug, Clone, PartialEq)]
pub enum FrameError {
    /// The line is not a JSON object: not JSON at all, not UTF-8, or a JSON
    /// value of another kind. `line` is the line (lossy UTF-8, without its
    /// line ending); `reason` says what is wrong with it.
    Invalid { line: String, reason: String },
    /// A JSON array: a JSON-RPC batch. MCP allowed batches only in
    /// 2025-03-26; 2025-06-18 removed them.
    Batch,
}

/// A newline-delimited JSON decoder.
#[derive(Debug, Default)]
pub struct Decoder {
    /// Bytes of a line whose `\n` has not arrived yet.
    pending: Vec<u8>,
}

impl Decoder {
    /// A decoder with nothing buffered.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Bytes held back because their line has not ended yet.
    pub fn buffered(&self) -> usize {
        self.pending.len()
    }

    /// Takes the next `bytes` read from the stream and returns every line
    /// they complete, in order: a message, or why the line is not one.
    /// Empty lines are skipped; a `\r` before the `\n` is dropped.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Value, FrameError>> {
        // Keep the bytes in self.pending; every `\n` in there ends a line.
        let _ = bytes;
        todo!("buffer the bytes and decode every complete line")
    }
}

/// Encodes `message` for stdio: compact JSON, then exactly one `\n`.
/// Newlines inside strings are escaped (`\n`), never written raw.
pub fn encode(message: &Value) -> Vec<u8> {
    let _ = message;
    todo!("one compact line of JSON and a newline")
}
