//! Checker for exercise 05-stdio-codec: the learner's newline-delimited
//! decoder and encoder, driven through the harness with bytes as hex.
//!
//! Expected behaviour comes from MCP 2025-11-25 basic/transports › stdio
//! (and the same rules in 2026-07-28 basic/transports/stdio): one UTF-8
//! JSON-RPC message per line, delimited by newlines, no embedded newlines;
//! and 2025-06-18's removal of JSON-RPC batches. Mistakes it catches: C17
//! (a read taken for one message; large messages), C16 (CRLF), C18
//! (pretty-printing, a raw newline inside a frame), C15 (a junk line ends
//! decoding), C21 (a batch accepted after 2025-06-18).
//!
//! Rules (2025-11-25 basic/transports) → case:
//! - "JSON-RPC messages MUST be UTF-8 encoded" → bad line, then on (a line
//!   that is not UTF-8 is reported, not decoded).
//! - "Messages are delimited by newlines, and MUST NOT contain embedded
//!   newlines" → two frames in one read, a line split across reads, split at
//!   every byte, large frame (decoding by line, not by read); encode: one
//!   line (writing).
//! - The newline is the delimiter, a `\r` before it is not part of the
//!   message (CRLF from Windows peers, C16) → CRLF accepted.
//! - "The server MUST NOT write anything to its stdout that is not a valid
//!   MCP message" (so a line that is not one is the peer's fault, not the end
//!   of the stream) → bad line, then on.
//! - 2025-06-18 changelog: JSON-RPC batching removed → batch rejected.
//! - Ids of every legal shape (basic/index › Requests): a codec passes
//!   messages through as JSON values and never reads an id, so the one
//!   member here is that both shapes survive a decode: the integer 1 (a
//!   ping) and the string "c-7" (a call) in two frames in one read, a line
//!   split across reads and every case that feeds them. No mutant of its
//!   own: `feed` and `encode` take and give `serde_json::Value`, so the
//!   codec has no place where an id could change its type.
//!
//! Not tested here, with the reason: "The client MUST NOT write anything to
//! the server's stdin that is not a valid MCP message" and the server's
//! stdout rule bind whole programs, and this exercise is a codec with no
//! process of its own (the server exercises, 03, 07 and 11, are held to
//! them: every line they write is parsed as a frame); "The server MAY write
//! UTF-8 strings to its stderr" is a permission.

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::compare;
use crate::check::toolkit::harness::{ask, harness_kind};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};

/// The checker named `stdio-codec`.
pub static CHECKER: Checker = Checker {
    name: "stdio-codec",
    shape: Shape::Program,
    schema: false,
    cases: &[
        Case {
            name: "two frames in one read",
            about: "a read holding two whole lines yields both messages, in order, and leaves nothing buffered",
            rules: &["2025-11-25 basic/transports › stdio"],
            args: &[],
            run: two_in_one,
        },
        Case {
            name: "a line split across reads",
            about: "a read that ends mid-line yields nothing yet; the rest of the line completes the message",
            rules: &["2025-11-25 basic/transports › stdio"],
            args: &[],
            run: partial,
        },
        Case {
            name: "split at every byte",
            about: "two frames cut into two reads at every possible byte offset, and fed one byte at a time, always yield the same two messages",
            rules: &["2025-11-25 basic/transports › stdio"],
            args: &[],
            run: every_offset,
        },
        Case {
            name: "CRLF accepted",
            about: "lines ending in \\r\\n, as Windows peers write them, decode like lines ending in \\n; a bad one is reported without its \\r",
            rules: &["2025-11-25 basic/transports › stdio", "course rule: crlf-in-lf-out"],
            args: &[],
            run: crlf,
        },
        Case {
            name: "bad line, then on",
            about: "a line that is not JSON, not UTF-8, or not a JSON object is reported as invalid and decoding goes on with the next line",
            rules: &["2025-11-25 basic/transports › stdio", "course rule: bad-line-survived"],
            args: &[],
            run: bad_lines,
        },
        Case {
            name: "batch rejected",
            about: "a JSON array (a batch, removed in 2025-06-18) is reported as a batch, not decoded as a message",
            rules: &["2025-06-18 changelog › Major changes"],
            args: &[],
            run: batch,
        },
        Case {
            name: "large frame",
            about: "a 1.5 MiB message arriving in 64 KiB reads decodes as one message",
            rules: &["2025-11-25 basic/transports › stdio"],
            args: &[],
            run: large,
        },
        Case {
            name: "encode: one line",
            about: "encode writes compact JSON and exactly one \\n, even for strings that hold newlines",
            rules: &["2025-11-25 basic/transports › stdio", "course rule: crlf-in-lf-out"],
            args: &[],
            run: encode_one_line,
        },
    ],
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// What one `feed` call yielded.
struct Fed {
    items: Vec<Value>,
    buffered: u64,
    /// The harness's whole reply, for failures.
    reply: Value,
}

/// Feeds `bytes` to the learner's decoder.
fn feed(s: &mut Session, bytes: &[u8]) -> Result<Fed, Failure> {
    // `text` is for the learner reading the transcript; the harness
    // decodes `hex`, which carries every byte exactly.
    let reply = ask(
        s,
        json!({"harness": "feed", "text": String::from_utf8_lossy(bytes), "hex": hex(bytes)}),
    )?
    .value;
    if harness_kind(&reply) != Some("decoded") {
        return Err(Failure::showing(
            "the harness did not report what Decoder::feed returned",
            reply,
        ));
    }
    let items = reply["items"].as_array().cloned().unwrap_or_default();
    let buffered = reply["buffered"].as_u64().unwrap_or(0);
    Ok(Fed { items, buffered, reply })
}

fn reset(s: &mut Session) -> CaseResult {
    ask(s, json!({"harness": "reset"}))?;
    Ok(())
}

fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

fn call() -> Value {
    json!({"jsonrpc": "2.0", "id": "c-7", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "héllo, wörld ✓"}}})
}

fn lines(messages: &[Value], ending: &str) -> Vec<u8> {
    messages
        .iter()
        .flat_map(|m| format!("{m}{ending}").into_bytes())
        .collect()
}

fn messages(values: &[Value]) -> Value {
    Value::Array(values.iter().map(|m| json!({"message": m})).collect())
}

fn two_in_one(s: &mut Session) -> CaseResult {
    let sent = [ping(1), call()];
    let fed = feed(s, &lines(&sent, "\n"))?;
    if fed.items.len() == 1 {
        return Err(Failure::mismatch(
            "one read held two lines, and one result came out. A read is not a message: split what you have at every \\n and decode each line",
            messages(&sent),
            Value::Array(fed.items),
        ));
    }
    compare::same(
        messages(&sent),
        &Value::Array(fed.items),
        "a read holding two whole lines yields both messages, in order",
    )?;
    if fed.buffered != 0 {
        return Err(Failure::new(format!(
            "both lines ended, yet {} bytes are still buffered: drop each line from the buffer once it is decoded",
            fed.buffered
        )));
    }
    Ok(())
}

fn partial(s: &mut Session) -> CaseResult {
    let whole = lines(&[call()], "\n");
    let cut = whole.len() / 2;
    let first = feed(s, &whole[..cut])?;
    if !first.items.is_empty() {
        return Err(Failure::mismatch(
            format!(
                "the first {cut} bytes of a line are not a message yet: nothing should come out until its \\n arrives. Keep the bytes and wait for the rest"
            ),
            json!([]),
            Value::Array(first.items),
        ));
    }
    if first.buffered != cut as u64 {
        return Err(Failure::new(format!(
            "after half a line, buffered() says {} but {cut} bytes are waiting for their \\n",
            first.buffered
        )));
    }
    let second = feed(s, &whole[cut..])?;
    compare::same(
        messages(&[call()]),
        &Value::Array(second.items),
        "the rest of the line completes the message: join it to the bytes kept from the first read",
    )
}

fn every_offset(s: &mut Session) -> CaseResult {
    let sent = [ping(1), call()];
    let buffer = lines(&sent, "\n");
    let expected = messages(&sent);
    for cut in 1..buffer.len() {
        reset(s)?;
        let mut items = feed(s, &buffer[..cut])?.items;
        items.extend(feed(s, &buffer[cut..])?.items);
        if crate::check::diff::diff(&expected, &Value::Array(items.clone())).is_empty() {
            continue;
        }
        let before = String::from_utf8_lossy(&buffer[cut.saturating_sub(12)..cut]).into_owned();
        let after = String::from_utf8_lossy(&buffer[cut..(cut + 12).min(buffer.len())]).into_owned();
        return Err(Failure::mismatch(
            format!(
                "two frames cut into two reads after byte {cut} (…{before}| {after}…) gave other messages. Wherever a read ends, keep the unfinished line and finish it with the next read; a cut can even fall inside a UTF-8 character, so join bytes, not strings"
            ),
            expected,
            Value::Array(items),
        ));
    }
    reset(s)?;
    let mut items = Vec::new();
    for byte in &buffer {
        items.extend(feed(s, std::slice::from_ref(byte))?.items);
    }
    compare::same(
        expected,
        &Value::Array(items),
        "fed one byte at a time, the two frames must still come out whole",
    )
}

fn crlf(s: &mut Session) -> CaseResult {
    let mut bytes = lines(&[ping(1)], "\r\n");
    bytes.extend_from_slice(b"Starting server v1.2\r\n\r\n");
    bytes.extend(lines(&[call()], "\r\n"));
    let fed = feed(s, &bytes)?;
    let expected =
        json!([{"message": ping(1)}, {"invalid": "Starting server v1.2", "reason": "…"}, {"message": call()}]);
    let shape_ok = fed.items.len() == 3 && fed.items[0] == expected[0] && fed.items[2] == expected[2];
    if shape_ok && fed.items[1].get("invalid") == Some(&json!("Starting server v1.2")) {
        return Ok(());
    }
    if shape_ok
        && fed.items[1]
            .get("invalid")
            .and_then(Value::as_str)
            .is_some_and(|l| l.ends_with('\r'))
    {
        return Err(Failure::mismatch(
            "the invalid line was reported with its \\r still on: the line ending is \\r\\n, so drop the \\r with the \\n before you look at the line (serde_json forgives a trailing \\r; your logs and comparisons won't)",
            expected,
            Value::Array(fed.items),
        ));
    }
    Err(Failure::mismatch(
        "lines ending in \\r\\n (Windows peers write them) decode like lines ending in \\n: drop the \\r before parsing; a blank line is skipped, and a bad one reported without its line ending",
        expected,
        Value::Array(fed.items),
    ))
}

fn bad_lines(s: &mut Session) -> CaseResult {
    let mut bytes = lines(&[ping(1)], "\n");
    bytes.extend_from_slice(b"Starting server v1.2 on stdio...\n");
    bytes.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"meth\n");
    bytes.extend_from_slice(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"\xff\xfe\"}}\n",
    );
    bytes.extend_from_slice(b"42\n");
    bytes.extend_from_slice(&lines(&[call()], "\n"));
    let fed = feed(s, &bytes)?;
    let kinds: Vec<&str> = fed
        .items
        .iter()
        .map(|i| {
            if i.get("message").is_some() {
                "message"
            } else if i.get("invalid").is_some() {
                "invalid"
            } else {
                "other"
            }
        })
        .collect();
    if kinds == ["message", "invalid", "invalid", "invalid", "invalid", "message"]
        && fed.items[0]["message"] == ping(1)
        && fed.items[5]["message"] == call()
    {
        return Ok(());
    }
    if kinds.len() < 6 && kinds.first() == Some(&"message") {
        return Err(Failure::showing(
            format!(
                "six lines went in (a message, a startup banner, a cut-off frame, a line that is not UTF-8, the number 42, a message) and {} results came out. A bad line is reported as FrameError::Invalid and decoding goes on: one stray line must not cost the messages after it",
                kinds.len()
            ),
            fed.reply,
        ));
    }
    let why = match fed.items.get(4) {
        Some(item) if item.get("message").is_some() => {
            "the line 42 came out as a message: it is JSON, but a JSON-RPC message is always an object, so it is FrameError::Invalid"
        }
        _ => {
            "expected: the message, four invalid lines (a banner, a cut-off frame, bytes that are not UTF-8, the number 42), the message"
        }
    };
    Err(Failure::mismatch(
        why,
        json!([{"message": ping(1)}, {"invalid": "Starting server v1.2 on stdio...", "reason": "…"}, {"invalid": "…", "reason": "…"}, {"invalid": "…", "reason": "…"}, {"invalid": "42", "reason": "…"}, {"message": call()}]),
        Value::Array(fed.items),
    ))
}

fn batch(s: &mut Session) -> CaseResult {
    let mut bytes = format!("[{},{}]\n", ping(1), ping(2)).into_bytes();
    bytes.extend(lines(&[ping(3)], "\n"));
    let fed = feed(s, &bytes)?;
    if fed
        .items
        .first()
        .is_some_and(|i| i.get("message").is_some_and(Value::is_array))
    {
        return Err(Failure::showing(
            "a JSON array came out as a message. An array is a JSON-RPC batch, which MCP allowed only in 2025-03-26 and removed in 2025-06-18: report it as FrameError::Batch",
            fed.reply,
        ));
    }
    compare::same(
        json!([{"batch": true}, {"message": ping(3)}]),
        &Value::Array(fed.items),
        "an array is reported as FrameError::Batch, and the next line still decodes",
    )
}

fn large(s: &mut Session) -> CaseResult {
    let text = "x".repeat(3 << 19);
    let message = json!({"jsonrpc": "2.0", "id": 42, "result": {"content": [{"type": "text", "text": text}]}});
    let bytes = lines(std::slice::from_ref(&message), "\n");
    let mut items = Vec::new();
    for chunk in bytes.chunks(64 << 10) {
        items.extend(feed(s, chunk)?.items);
    }
    let size = message.to_string().len();
    compare::same(
        json!([{"large_message": {"bytes": size, "id": 42}}]),
        &Value::Array(items),
        &format!(
            "a {} KiB message arriving in 64 KiB reads is one message. Don't cap the buffer below the largest message you accept",
            size >> 10
        ),
    )
}

fn encode_one_line(s: &mut Session) -> CaseResult {
    let message = json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "line one\nline two\r\nline three"}]}});
    let reply = ask(s, json!({"harness": "encode", "message": message}))?.value;
    let Some(bytes) = reply["hex"].as_str().and_then(unhex) else {
        return Err(Failure::showing(
            "the harness did not report what encode returned",
            reply,
        ));
    };
    let shown = String::from_utf8_lossy(&bytes).into_owned();
    let body = match bytes.strip_suffix(b"\n") {
        Some(body) if !body.ends_with(b"\r") => body,
        Some(_) => {
            return Err(Failure::showing(
                "the frame ends in \\r\\n: write LF only; a peer that splits on \\n would see a stray \\r",
                json!(shown),
            ));
        }
        None => {
            return Err(Failure::showing(
                "the frame does not end with \\n: the newline is what ends a message on stdio, and a reader waits for it forever",
                json!(shown),
            ));
        }
    };
    if body.iter().any(|&b| b == b'\n' || b == b'\r') {
        let reason = if body.windows(2).any(|w| w == b"\n ") {
            "the frame spans several lines: it is pretty-printed. Use serde_json::to_vec (compact), not to_vec_pretty; on stdio a message MUST NOT contain embedded newlines"
        } else {
            "the frame holds a raw newline: a string's newlines must stay escaped as \\n inside the JSON, which serde_json does for you if you don't write the string out by hand"
        };
        return Err(Failure::showing(reason, json!(shown)));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(decoded) => compare::same(
            message,
            &decoded,
            "the encoded line must decode back to the same message",
        ),
        Err(e) => Err(Failure::showing(
            format!("the encoded line is not JSON: {e}"),
            json!(shown),
        )),
    }
}
