//! `mcplings wire`'s log: one JSON object per line for each complete line
//! that crossed the tap, with its time, direction, JSON-RPC id and method,
//! and its schema verdict (`check::schema`: a request or notification
//! against its method's definition, a response against the result type of
//! the request it answers). Lines are cut from the byte stream exactly as
//! they went through; what is not UTF-8 or not JSON is logged as such.
//!
//! Frames of a legacy session that settled on a revision mcplings has no
//! types for (not 2025-11-25) are logged "not validated".

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::schema::{self, Revision};
use crate::mcp;

/// Which way a line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    /// From the host (client) to the server's stdin.
    ToServer,
    /// From the server's stdout to the host.
    FromServer,
}

/// One logged line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// UTC wall-clock time, `2026-12-01T03:04:05.678Z`.
    pub at: String,
    /// Milliseconds since the tap started.
    pub time_ms: u64,
    /// Which way it went.
    pub dir: Way,
    /// Its JSON-RPC id, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// Its method, when it is a request or notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// `valid`, `invalid: …`, `not validated …`, `not JSON`, `not UTF-8`.
    pub schema: String,
    /// The line (lossy UTF-8 when it was not UTF-8), without its `\n`.
    pub line: String,
    /// Set for the last bytes of a stream that ended without a newline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

/// The log being written: the file, the partial line of each direction,
/// and the requests seen (by their id's JSON text) to judge responses.
pub struct Log {
    file: Option<File>,
    started: Instant,
    pending: [Vec<u8>; 2],
    requests: HashMap<(Way, String), Value>,
    legacy_version: Option<String>,
}

impl Log {
    /// A log writing to `file` (none: lines are cut and judged, not kept).
    pub fn new(file: Option<File>) -> Log {
        Log {
            file,
            started: Instant::now(),
            pending: [Vec::new(), Vec::new()],
            requests: HashMap::new(),
            legacy_version: None,
        }
    }

    /// Takes `bytes` that went `way`; logs every line they complete.
    pub fn feed(&mut self, way: Way, bytes: &[u8]) {
        let slot = way as usize;
        self.pending[slot].extend_from_slice(bytes);
        while let Some(at) = self.pending[slot].iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending[slot].drain(..=at).collect();
            self.write(way, &line[..line.len() - 1], false);
        }
    }

    /// The stream going `way` ended: logs what is left, as a partial line.
    pub fn end(&mut self, way: Way) {
        let rest = std::mem::take(&mut self.pending[way as usize]);
        if !rest.is_empty() {
            self.write(way, &rest, true);
        }
    }

    fn write(&mut self, way: Way, bytes: &[u8], partial: bool) {
        let entry = self.entry(way, bytes, partial);
        if let Some(file) = &mut self.file
            && let Ok(text) = serde_json::to_string(&entry)
        {
            let _ = writeln!(file, "{text}");
            let _ = file.flush();
        }
    }

    /// Judges one line.
    pub fn entry(&mut self, way: Way, bytes: &[u8], partial: bool) -> Entry {
        let text = std::str::from_utf8(bytes);
        let line = String::from_utf8_lossy(bytes).into_owned();
        let mut entry = Entry {
            at: utc_now(),
            time_ms: self.started.elapsed().as_millis() as u64,
            dir: way,
            id: None,
            method: None,
            schema: String::new(),
            line,
            partial,
        };
        let frame = match text {
            Err(_) => {
                entry.schema = "not UTF-8".into();
                return entry;
            }
            Ok(text) => match serde_json::from_str::<Value>(text.trim_end_matches('\r')) {
                Ok(frame) => frame,
                Err(_) => {
                    entry.schema = "not JSON".into();
                    return entry;
                }
            },
        };
        entry.id = frame.get("id").cloned();
        entry.method = frame.get("method").and_then(Value::as_str).map(String::from);
        entry.schema = self.judge(way, &frame);
        entry
    }

    /// The schema verdict of `frame`, which went `way`.
    fn judge(&mut self, way: Way, frame: &Value) -> String {
        let verdict = match (frame.get("method").and_then(Value::as_str), frame.get("id")) {
            (Some(method), id) => {
                let revision = Revision::of_request(frame);
                if let Some(id) = id {
                    self.requests.insert((way, id.to_string()), frame.clone());
                }
                if revision == Revision::Legacy && !self.legacy_ok() {
                    return self.not_validated();
                }
                schema::check_message(revision, method, frame)
            }
            (None, Some(id)) => {
                let asked = match way {
                    Way::ToServer => Way::FromServer,
                    Way::FromServer => Way::ToServer,
                };
                let Some(request) = self.requests.remove(&(asked, id.to_string())) else {
                    return "not validated: it answers no request seen".into();
                };
                if request["method"] == "initialize" {
                    self.legacy_version = frame
                        .pointer("/result/protocolVersion")
                        .and_then(Value::as_str)
                        .map(String::from);
                }
                if Revision::of_request(&request) == Revision::Legacy && !self.legacy_ok() {
                    return self.not_validated();
                }
                schema::check_response(&request, frame)
            }
            (None, None) => return "invalid: neither a method nor an id".into(),
        };
        match verdict {
            None => "not validated: no type for this method".into(),
            Some(Ok(())) => "valid".into(),
            Some(Err(violation)) => format!("invalid: {violation}"),
        }
    }

    fn legacy_ok(&self) -> bool {
        self.legacy_version.as_deref().is_none_or(|v| v == mcp::LEGACY)
    }

    fn not_validated(&self) -> String {
        format!(
            "not validated: {} has no types in mcplings",
            self.legacy_version.as_deref().unwrap_or("?")
        )
    }
}

/// Now, in UTC, to the millisecond.
fn utc_now() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        now.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_and_judged() {
        let mut log = Log::new(None);
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(log.entry(Way::ToServer, request, false).schema, "valid");
        let bad = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":"none"}}"#;
        log.entry(
            Way::ToServer,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            false,
        );
        assert!(log.entry(Way::FromServer, bad, false).schema.starts_with("invalid: "));
        assert_eq!(log.entry(Way::FromServer, b"hello", false).schema, "not JSON");
        assert_eq!(log.entry(Way::FromServer, b"\xff", false).schema, "not UTF-8");
        assert!(utc_now().ends_with('Z') && utc_now().len() == 24, "{}", utc_now());
    }
}
