//! Exercise 05 · The stdio codec (reference solution)
//!
//! On stdio every MCP message is one line of UTF-8 JSON ending in `\n`,
//! with no newline inside it (2025-11-25 basic/transports › stdio; the same
//! in 2026-07-28 basic/transports/stdio). Bytes arrive in reads of any
//! size: a read may hold half a message, or three and a half. The decoder
//! keeps what it has not seen the end of, and yields each complete line.

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
        self.pending.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(end) = self.pending[start..].iter().position(|&b| b == b'\n') {
            let mut line = &self.pending[start..start + end];
            start += end + 1;
            if let Some(stripped) = line.strip_suffix(b"\r") {
                line = stripped;
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            out.push(decode_line(line));
        }
        self.pending.drain(..start);
        out
    }
}

fn decode_line(line: &[u8]) -> Result<Value, FrameError> {
    let invalid = |reason: String| FrameError::Invalid { line: String::from_utf8_lossy(line).into_owned(), reason };
    let text = std::str::from_utf8(line).map_err(|e| invalid(format!("not UTF-8: {e}")))?;
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Value::Object(map)),
        Ok(Value::Array(_)) => Err(FrameError::Batch),
        Ok(other) => Err(invalid(format!("a JSON-RPC message is an object, not {other}"))),
        Err(e) => Err(invalid(format!("not JSON: {e}"))),
    }
}

/// Encodes `message` for stdio: compact JSON, then exactly one `\n`.
/// Newlines inside strings are escaped (`\n`), never written raw.
pub fn encode(message: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(message).expect("a Value always serializes");
    bytes.push(b'\n');
    bytes
}
