//! Mutants of 05-stdio-codec: the decoder and the encoder.
//! Each solution's unmutated control is in `controls`.

use crate::helpers::{CODEC, assert_caught, assert_failed, check_mutant_on};

const FEED_START: &str = "        self.pending.extend_from_slice(bytes);\n";

/// Every read decoded on its own, as if it held whole lines: the end of a
/// line cut by the previous read is lost (C17).
#[test]
fn m05_each_read_starts_afresh() {
    let replace = "        self.pending.clear();\n        self.pending.extend_from_slice(bytes);\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-read-afresh",
        &[("src/lib.rs", FEED_START, replace)],
        &["a line split across reads"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "a line split across reads",
        &["the rest of the line completes the message"],
    );
}

/// Each read turned into a String before it is buffered: a read that ends
/// inside a UTF-8 character mangles it.
#[test]
fn m05_reads_decoded_as_text() {
    let replace = "        self.pending.extend_from_slice(String::from_utf8_lossy(bytes).as_bytes());\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-text-reads",
        &[("src/lib.rs", FEED_START, replace)],
        &["split at every byte"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "split at every byte",
        &["a cut can even fall inside a UTF-8 character, so join bytes, not strings"],
    );
}

/// The `\r` of a CRLF line ending kept on the line (C16).
#[test]
fn m05_carriage_return_kept() {
    let find = "            if let Some(stripped) = line.strip_suffix(b\"\\r\") {\n                line = stripped;\n            }\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-cr-kept",
        &[("src/lib.rs", find, "")],
        &["CRLF accepted"],
    );
    assert_caught(&report);
    assert_failed(&report, "CRLF accepted", &["reported with its \\r still on"]);
}

/// Decoding stops at the first bad line; the lines after it wait forever.
#[test]
fn m05_stops_at_a_bad_line() {
    let find = "            out.push(decode_line(line));\n";
    let replace = "            let decoded = decode_line(line);\n            let bad = decoded.is_err();\n            out.push(decoded);\n            if bad {\n                break;\n            }\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-stop-at-bad",
        &[("src/lib.rs", find, replace)],
        &["bad line, then on"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "bad line, then on",
        &["decoding goes on", "must not cost the messages after it"],
    );
}

/// A JSON array passed on as a message, as if batches still existed (C21).
#[test]
fn m05_batch_accepted() {
    let find = "        Ok(Value::Array(_)) => Err(FrameError::Batch),\n";
    let replace = "        Ok(batch @ Value::Array(_)) => Ok(batch),\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-batch",
        &[("src/lib.rs", find, replace)],
        &["batch rejected"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "batch rejected",
        &["a JSON array came out as a message", "removed in 2025-06-18"],
    );
}

/// A buffer capped at 1 MiB: a larger message never completes (C17).
#[test]
fn m05_buffer_capped() {
    let replace =
        "        if self.pending.len() < 1 << 20 {\n            self.pending.extend_from_slice(bytes);\n        }\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-capped",
        &[("src/lib.rs", FEED_START, replace)],
        &["large frame"],
    );
    assert_caught(&report);
    assert_failed(&report, "large frame", &["Don't cap the buffer"]);
}

const ENCODE_BODY: &str =
    "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    bytes.push(b'\\n');\n";

/// Pretty-printed frames (C18).
#[test]
fn m05_pretty_printed() {
    let replace = "    let mut bytes = serde_json::to_vec_pretty(message).expect(\"a Value always serializes\");\n    bytes.push(b'\\n');\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-pretty",
        &[("src/lib.rs", ENCODE_BODY, replace)],
        &["encode: one line"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "encode: one line",
        &["pretty-printed", "MUST NOT contain embedded newlines"],
    );
}

/// No newline after the frame: the reader waits for it forever.
#[test]
fn m05_no_newline() {
    let replace = "    let bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-no-newline",
        &[("src/lib.rs", ENCODE_BODY, replace)],
        &["encode: one line"],
    );
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["does not end with \\n"]);
}

/// CRLF written on output (C16).
#[test]
fn m05_crlf_written() {
    let replace = "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    bytes.extend_from_slice(b\"\\r\\n\");\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-crlf-out",
        &[("src/lib.rs", ENCODE_BODY, replace)],
        &["encode: one line"],
    );
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["ends in \\r\\n"]);
}

/// Strings written out by hand, their newlines raw (C18).
#[test]
fn m05_raw_newline_in_a_string() {
    let replace = "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    let text = String::from_utf8(bytes).unwrap().replace(\"\\\\n\", \"\\n\");\n    let mut bytes = text.into_bytes();\n    bytes.push(b'\\n');\n";
    let report = check_mutant_on(
        CODEC,
        "mutant-05-raw-newline",
        &[("src/lib.rs", ENCODE_BODY, replace)],
        &["encode: one line"],
    );
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["holds a raw newline"]);
}
