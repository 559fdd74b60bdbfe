//! Why a conversation with a learner's program stopped early ([`Stop`]),
//! and the plain reason a learner reads for each.

use std::process::ExitStatus;
use std::time::Duration;

use super::MAX_STDOUT;

/// Why a conversation with the program stopped early. Each variant becomes a
/// failed case with a plain reason (see [`Stop::reason`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// Nothing arrived before the case's deadline.
    Timeout(Duration),
    /// The program closed stdout or exited; `status` is its exit, if known.
    Exited(Option<ExitStatus>),
    /// A stdout line that is not JSON; `number` counts from 1.
    NotJson {
        /// 1-based stdout line number.
        number: usize,
        /// The line (lossy UTF-8, shortened).
        line: String,
    },
    /// A stdout line that is not UTF-8; `number` counts from 1.
    NotUtf8 {
        /// 1-based stdout line number.
        number: usize,
        /// The line (lossy UTF-8, shortened).
        line: String,
        /// Offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// A JSON stdout line that ended in `\r\n`; `number` counts from 1.
    Crlf {
        /// 1-based stdout line number.
        number: usize,
    },
    /// The program wrote more than [`MAX_STDOUT`] bytes; `newline` says
    /// whether any of it ended a line.
    Flood {
        /// Whether the flood held a newline at all.
        newline: bool,
    },
    /// A write to the program was still blocked at the deadline: it stopped
    /// reading its stdin and the pipe filled up.
    NotReading(Duration),
    /// The check was cancelled by the learner.
    Cancelled,
    /// The program could not be started or written to.
    Io(String),
}

impl Stop {
    /// One or two sentences a learner can act on.
    pub fn reason(&self) -> String {
        match self {
            Stop::Timeout(after) => format!(
                "no answer within {:.1} s: the program is stuck (an endless loop, or waiting for input that never comes?) and was stopped",
                after.as_secs_f64()
            ),
            Stop::Exited(status) => match status.and_then(|s| s.code()) {
                Some(101) => "the program panicked before answering; its stderr shows where".to_string(),
                Some(0) => {
                    "the program exited before answering: it must keep reading stdin until it closes".to_string()
                }
                Some(code) => format!("the program exited with code {code} before answering; see its stderr"),
                None if status.is_some() => "the program was killed by a signal before answering".to_string(),
                None => "the program closed stdout before answering".to_string(),
            },
            Stop::NotJson { number, line } => not_json_reason(*number, line),
            Stop::NotUtf8 { number, line, at } => format!(
                "stdout line {number} is not UTF-8 (from byte {at}; shown as �): `{line}`. A JSON-RPC message over stdio is UTF-8 text (2025-11-25 basic/transports › stdio): write it with serde_json, never raw bytes"
            ),
            Stop::Crlf { number } => format!(
                "stdout line {number} ends in \\r\\n (CRLF): end each message with \\n alone. A JSON-RPC message over stdio is one line delimited by a newline (2025-11-25 basic/transports › stdio); a peer that splits on \\n is left with a stray \\r (go-sdk#664)"
            ),
            Stop::Flood { newline: false } => format!(
                "the program printed more than {} MiB to stdout without a newline and was stopped: a JSON-RPC message over stdio is one line ending in \\n (2025-11-25 basic/transports › stdio). Is something printing in a loop?",
                MAX_STDOUT >> 20
            ),
            Stop::Flood { newline: true } => format!(
                "the program printed more than {} MiB to stdout and was stopped: is something printing in a loop?",
                MAX_STDOUT >> 20
            ),
            Stop::NotReading(after) => format!(
                "the program stopped reading its stdin: a message to it was still not delivered after {:.1} s (the pipe was full), so it was stopped. A stdio peer reads stdin line by line for as long as it runs",
                after.as_secs_f64()
            ),
            Stop::Cancelled => "the check was cancelled".to_string(),
            Stop::Io(e) => format!("could not talk to the program: {e}"),
        }
    }
}

/// The reason for a stdout line that is not JSON, naming the usual causes:
/// pretty-printing, LSP-style headers, a blank line, a banner or debug print.
/// Whether a stdout line that is not JSON looks like a piece of a message
/// spread over several lines (pretty-printed): a lone bracket, or an
/// indented member or bracket.
pub(crate) fn part_of_a_spread_message(line: &str) -> bool {
    let trimmed = line.trim();
    matches!(trimmed, "{" | "[" | "}" | "]" | "}," | "],")
        || line.starts_with([' ', '\t']) && trimmed.starts_with(['"', '{', '[', '}', ']'])
}

fn not_json_reason(number: usize, line: &str) -> String {
    const ONE_LINE: &str = "A JSON-RPC message over stdio is one line and MUST NOT contain embedded newlines (2025-11-25 basic/transports › stdio)";
    let trimmed = line.trim();
    if trimmed.is_empty() {
        format!(
            "stdout line {number} is empty: a message was followed by an extra newline (println! of text that already ends in \\n?). {ONE_LINE}"
        )
    } else if trimmed.to_ascii_lowercase().starts_with("content-length:") {
        format!(
            "stdout line {number} is `{line}`, an LSP-style header: MCP over stdio has no headers. {ONE_LINE}, ending in \\n"
        )
    } else if part_of_a_spread_message(line) {
        format!(
            "stdout line {number} is `{line}`, part of a message spread over several lines (pretty-printed?). {ONE_LINE}: write it with serde_json::to_string, not to_string_pretty"
        )
    } else {
        format!(
            "stdout line {number} is not JSON: `{line}`. stdout carries only JSON-RPC messages, one per line (2025-11-25 basic/transports › stdio): print banners and debug output to stderr (eprintln! in Rust, console.error in Node, sys.stderr in Python)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_name_the_framing_mistake() {
        assert!(not_json_reason(1, "{").contains("spread over several lines"));
        assert!(not_json_reason(2, "  \"jsonrpc\": \"2.0\",").contains("to_string_pretty"));
        assert!(not_json_reason(1, "Content-Length: 44").contains("LSP-style header"));
        assert!(not_json_reason(3, "").contains("is empty"));
        let banner = not_json_reason(1, "my-server v0.1 ready");
        assert!(
            banner.starts_with("stdout line 1 is not JSON: `my-server v0.1 ready`"),
            "{banner}"
        );
        assert!(banner.contains("eprintln!"));
    }
}
