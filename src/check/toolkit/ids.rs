//! Request ids: every id a client may send a server, the ids it must not
//! send, and judging what a server answered each. Used by the server
//! checkers over stdio ([`super::as_client::ids_echoed`]) and over HTTP
//! (06-http-front-door).
//!
//! The rules, the same in 2025-06-18, 2025-11-25 and 2026-07-28
//! basic/index › Requests: "Requests MUST include a string or integer ID"
//! and "Unlike base JSON-RPC, the ID MUST NOT be `null`"; › Result
//! Responses: "Result responses MUST include the same ID as the request
//! they correspond to". So every string and every integer comes back
//! exactly, in type and in value, and a request whose id is anything else
//! is not a valid request: JSON-RPC 2.0 § 5.1 names -32600 Invalid Request
//! for it, and 2025-11-25 and 2026-07-28 › Error Responses leave the id out
//! of the error ("except in error cases where the ID could not be read due
//! a malformed request"; their schema types it `id?: RequestId`, so not
//! `null` either). 2025-06-18's schema requires an id on every error, so
//! under it no error fits and silence is the only answer; the checkers
//! accept either, never a result.
//!
//! Out of scope, and said so in Part 1's lesson: integers beyond 64 bits
//! and integral floats (`1.0`, `1e2`), which JSON Schema's `integer`
//! admits but many JSON libraries read as floats.

use serde_json::{Value, json};

use super::case::Failure;
use super::compare::quoted_error;

/// What a stdio case that holds a server to these rules proves.
pub(crate) const ABOUT: &str = "every string and integer id comes back exactly (empty, 1 KiB, non-ASCII, escaped, 64-bit extremes); a null, fractional, object, array or boolean id gets -32600 without an id, or nothing, never a result";

/// The legal ids, as (what it is, its JSON text on the wire). The text is
/// sent as it is, so an escaped string arrives escaped.
pub(crate) fn legal() -> Vec<(&'static str, String)> {
    let long = format!("long-{}-end", "0123456789abcdef".repeat(64));
    vec![
        ("zero", "0".into()),
        ("a negative integer", "-7".into()),
        ("the largest 64-bit integer", i64::MAX.to_string()),
        ("the smallest 64-bit integer", i64::MIN.to_string()),
        (
            "2^53 + 1, the first integer a double cannot hold",
            "9007199254740993".into(),
        ),
        ("the empty string", "\"\"".into()),
        ("a string of digits", "\"42\"".into()),
        ("a string that reads like JSON", "\"null\"".into()),
        ("a string with spaces around it", "\" padded \"".into()),
        ("a non-ASCII string", "\"é✓日本語😀\"".into()),
        (
            "a string sent with escapes (\\u00e9, \\/, a surrogate pair)",
            "\"\\u00e9\\/\\ud83d\\ude00\"".into(),
        ),
        (
            "a string with a quote, a backslash and control characters",
            "\"q\\\"b\\\\n\\n\\t\\u0001\"".into(),
        ),
        ("a 1 KiB string", format!("\"{long}\"")),
    ]
}

/// Whether the id `text` is an integer no IEEE double holds exactly (its
/// magnitude past 2^53 − 1): RFC 8259 § 6 allows a JSON implementation to
/// limit numbers, and calls only those within ±(2^53 − 1) interoperable.
pub(crate) fn beyond_double(text: &str) -> bool {
    text.parse::<i128>().is_ok_and(|n| n.unsigned_abs() > (1u128 << 53) - 1)
}

/// The id of request number `n` (from 0) of a varied client
/// ([`super::as_client::Client::varied`]):
/// the legal shapes in turn, an integer (0 first), a plain string, a
/// string of digits and a negative integer (0, "req-1", "2", -3, 4, …),
/// so a server that keeps ids of one shape only, anywhere an id travels
/// (the response, a running call's table, a cancellation's lookup), fails
/// the case that sends the other (2025-11-25 basic/index › Requests: "a
/// string or integer ID").
pub(crate) fn varied(n: u64) -> Value {
    match n % 4 {
        0 => json!(n),
        1 => json!(format!("req-{n}")),
        2 => json!(n.to_string()),
        _ => json!(-(n as i64)),
    }
}

/// The ids no client may send, as (what it is, its JSON text).
pub(crate) const FORBIDDEN: [(&str, &str); 5] = [
    ("null", "null"),
    ("a fraction", "1.5"),
    ("an object", "{\"n\":1}"),
    ("an array", "[1]"),
    ("a boolean", "true"),
];

/// The value of an id's wire text.
pub(crate) fn value_of(wire: &str) -> Value {
    serde_json::from_str(wire).expect("the checker's ids are JSON")
}

/// An id for reasons: long ones cut short.
fn shown(id: &Value) -> String {
    let text = id.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}… ({} characters)", &text[..at], text.chars().count()),
        None => text,
    }
}

/// What [`echoed`] says between the id and how it changed.
const ECHO_RULE: &str = ", must get that id back exactly, in type and in value (basic/index › Result Responses: the same ID as the request); here ";

/// A failure of [`echoed`] or [`served`], or of no response at all,
/// worded as advice, for an id no sentence obliges the server to keep
/// (an integer past 2^53 - 1, which RFC 8259 § 6 lets a JSON
/// implementation round): "is best echoed digit for digit" where the
/// rule's "must" stood, and no quoted MUST.
pub(crate) fn as_advice(failure: Failure) -> Failure {
    let advice = "JSON lets a library lose an integer past 2^53 - 1 (RFC 8259 § 6), and a client then waits for ever: keep the id as the JSON value it was";
    Failure {
        reason: failure
            .reason
            .replacen(ECHO_RULE, ", is best echoed digit for digit; here ", 1)
            .replacen(super::as_client::REPLY_RULE, advice, 1),
        ..failure
    }
}

/// Fails unless `response` carries `sent` (an id of kind `what`) as its
/// id, exactly: the same type and the same value.
pub(crate) fn echoed(what: &str, sent: &Value, response: &Value) -> Result<(), Failure> {
    let got = response.get("id");
    if got == Some(sent) {
        return Ok(());
    }
    let how = match (sent, got) {
        (_, None) => "the response has no id".to_string(),
        (Value::Number(_), Some(Value::String(_))) => "the integer came back as a string".to_string(),
        (Value::String(_), Some(Value::Number(_))) => "the string came back as a number".to_string(),
        (Value::Number(_), Some(Value::Number(n))) => format!(
            "it came back as {n}: the id went through a floating-point number (as_f64, or a JS-style number), which holds integers exactly only up to 2^53 and writes them back as floats or rounded. Keep the id as the JSON value it was (serde_json::Value) and echo that"
        ),
        (Value::String(s), Some(Value::String(g))) if s.starts_with(g.as_str()) => format!(
            "the string was cut short, from {} to {} characters: an id has no length limit",
            s.chars().count(),
            g.chars().count()
        ),
        (Value::String(_), Some(Value::String(_))) => {
            "the string changed on the way: decode it as JSON and write it back with serde_json, which escapes what must be escaped".to_string()
        }
        (_, Some(g)) => format!("it came back as {}", shown(g)),
    };
    Err(Failure::mismatch(
        format!("a request whose id is {what}, {}{ECHO_RULE}{how}", shown(sent)),
        json!({"jsonrpc": "2.0", "id": sent, "…": "…"}),
        response.clone(),
    ))
}

/// The id as a number, when it is one or a string that reads as one.
fn as_number(id: &Value) -> Option<f64> {
    match id {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// When `got` is not the id `sent` but the same number or the same text
/// (`1` and `1.0`, `1` and `"1"`, `"7"` and `7`): a sentence saying so,
/// "the response's id is 1.0, not 1: echo the id exactly, in type and
/// value", with how it likely changed. `None` when the two are equal or
/// unrelated. Used wherever a checker looks for the response to a request
/// by its id, so a response that is there with its id changed is named as
/// such, never as missing.
pub(crate) fn changed(sent: &Value, got: &Value) -> Option<String> {
    if sent == got || as_number(sent).is_none() || as_number(sent) != as_number(got) {
        return None;
    }
    let how = match (sent, got) {
        (Value::Number(_), Value::Number(_)) => {
            ". It went through a floating-point number (as_f64): keep the id as the serde_json::Value it was"
        }
        (Value::Number(_), Value::String(_)) => ". The integer came back as a string",
        (Value::String(_), Value::Number(_)) => ". The string came back as a number",
        _ => "",
    };
    Some(format!(
        "the response's id is {}, not {}: echo the id exactly, in type and value (basic/index › Result Responses){how}",
        shown(got),
        shown(sent)
    ))
}

/// Fails when `frame` is a response whose id is `sent` changed on the way
/// ([`changed`]): `what` names the request it answers ("`tools/call`"),
/// and the differences show the id.
pub(crate) fn unchanged(sent: &Value, frame: &Value, what: &str) -> Result<(), Failure> {
    let answers = frame.get("result").is_some() || frame.get("error").is_some();
    match frame.get("id").filter(|_| answers).and_then(|got| changed(sent, got)) {
        Some(why) => Err(Failure::mismatch(
            format!("the response to {what} came back, but {why}"),
            json!({"jsonrpc": "2.0", "id": sent, "…": "…"}),
            frame.clone(),
        )),
        None => Ok(()),
    }
}

/// Fails unless `response`, to a request whose id is `what` (`sent`), a
/// legal id, is a result carrying that id exactly ([`echoed`]). An error
/// is quoted, code and message: a -32600 or one without an id says the
/// server took the id for invalid; any other error is about something else
/// in the request, and the reason says so rather than blame the id.
pub(crate) fn served(what: &str, sent: &Value, response: &Value) -> Result<(), Failure> {
    // The harness's report of a panic in the learner's handler (a -32603
    // carrying it as `data`) names the panic, not the id.
    if let Some(panic) = super::harness::panic_in_response(response) {
        return Err(panic);
    }
    if let Some(error) = quoted_error(response).filter(|_| response.get("result").is_none()) {
        let about_the_id =
            response.pointer("/error/code") == Some(&json!(-32600)) || response.get("id").is_none_or(Value::is_null);
        let why = if about_the_id {
            format!(
                "a request whose id is {what}, {}, was refused with {error}{}, as if the id were invalid. Any string and any integer is a legal id (basic/index › Requests: \"a string or integer ID\"); serve the request",
                shown(sent),
                if response.get("id").is_none() { " and no id" } else { "" }
            )
        } else {
            format!(
                "a request whose id is {what}, {}, got {error}: the id is legal, so the refusal is about something else in the request (see it in the transcript); serve it",
                shown(sent)
            )
        };
        return Err(Failure::mismatch(
            why,
            json!({"jsonrpc": "2.0", "id": sent, "result": "…"}),
            response.clone(),
        ));
    }
    echoed(what, sent, response)?;
    if response.get("result").is_none() {
        return Err(Failure::mismatch(
            format!(
                "a request whose id is {what}, {}, got no result: any string and any integer is a legal id (basic/index › Requests: \"a string or integer ID\"); serve the request",
                shown(sent)
            ),
            json!({"jsonrpc": "2.0", "id": sent, "result": "…"}),
            response.clone(),
        ));
    }
    Ok(())
}

/// Fails unless `answer`, which arrived for a request whose id was `what`
/// (`sent`), is a refusal: an error -32600 Invalid Request without an id.
pub(crate) fn refused(what: &str, sent: &Value, answer: &Value) -> Result<(), Failure> {
    let expected = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "…"}});
    let why = if answer.get("result").is_some() {
        format!(
            "a request whose id is {what} ({}) was served. MCP ids are strings or integers: \"Requests MUST include a string or integer ID\" and \"the ID MUST NOT be null\" (2025-11-25 basic/index › Requests). Such a request is invalid: refuse it with -32600 Invalid Request and no id, or drop it, but never run it",
            shown(sent)
        )
    } else if answer.get("error").is_none() {
        format!("a request whose id is {what} got a frame that is no error response")
    } else if answer.get("id").is_some() {
        format!(
            "the error to a request whose id is {what} carries an id ({}). The id could not be used, so the error leaves it out: no `id` member at all, not null (2025-11-25 basic/index › Error Responses; its schema types the id `id?: RequestId`)",
            shown(&answer["id"])
        )
    } else if answer.pointer("/error/code") != Some(&json!(-32600)) {
        format!(
            "a request whose id is {what} is not a valid request: its error code is -32600 Invalid Request (JSON-RPC 2.0 § 5.1), got {}",
            answer
                .pointer("/error/code")
                .map(shown)
                .unwrap_or_else(|| "none".into())
        )
    } else {
        return Ok(());
    };
    Err(Failure::mismatch(why, expected, answer.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_id_is_json_and_distinct() {
        let ids: Vec<Value> = legal().iter().map(|(_, w)| value_of(w)).collect();
        assert!(ids.iter().all(|id| id.is_string() || id.is_i64()));
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(id), "{id} twice");
        }
        assert_eq!(value_of(&legal()[11].1), json!("q\"b\\n\n\t\u{1}"));
    }

    #[test]
    fn varied_ids_turn_through_the_shapes_and_never_repeat() {
        let first: Vec<Value> = (0..5).map(varied).collect();
        assert_eq!(first, [json!(0), json!("req-1"), json!("2"), json!(-3), json!(4)]);
        let many: Vec<Value> = (0..400).map(varied).collect();
        for (i, id) in many.iter().enumerate() {
            assert!(id.is_string() || id.is_i64(), "{id}");
            assert!(!many[..i].contains(id), "{id} twice");
        }
    }

    #[test]
    fn advice_quotes_no_must() {
        let big = json!(9_223_372_036_854_775_807_i64);
        let rounded = json!({"jsonrpc": "2.0", "id": 9.223372036854776e18, "result": {}});
        let changed = as_advice(echoed("the largest 64-bit integer", &big, &rounded).unwrap_err());
        let silent = as_advice(Failure::new(format!(
            "no response to the request whose id is big within 1.0 s. {}",
            crate::check::toolkit::as_client::REPLY_RULE
        )));
        for failure in [changed, silent] {
            assert!(!failure.reason.to_lowercase().contains("must"), "{}", failure.reason);
        }
    }

    #[test]
    fn an_id_through_an_f64_is_named() {
        let sent = json!(i64::MAX);
        let f = echoed(
            "the largest 64-bit integer",
            &sent,
            &json!({"id": 9.223372036854776e18}),
        )
        .unwrap_err();
        assert!(
            f.reason.contains("went through a floating-point number"),
            "{}",
            f.reason
        );
        let f = echoed("zero", &json!(0), &json!({"id": "0"})).unwrap_err();
        assert!(f.reason.contains("came back as a string"), "{}", f.reason);
        assert!(echoed("zero", &json!(0), &json!({"id": 0})).is_ok());
    }

    #[test]
    fn an_id_changed_on_the_way_is_named() {
        let why = changed(&json!(11), &json!(11.0)).unwrap();
        assert!(
            why.starts_with("the response's id is 11.0, not 11: echo the id exactly, in type and value"),
            "{why}"
        );
        assert!(
            changed(&json!(1), &json!("1"))
                .unwrap()
                .contains("came back as a string")
        );
        assert!(
            changed(&json!("7"), &json!(7))
                .unwrap()
                .contains("came back as a number")
        );
        assert!(changed(&json!(1), &json!(1)).is_none());
        assert!(changed(&json!(1), &json!(2)).is_none());
        assert!(changed(&json!("a"), &json!("a ")).is_none());
        assert!(unchanged(&json!(1), &json!({"method": "x", "id": 1.0}), "x").is_ok());
        let f = unchanged(&json!(1), &json!({"jsonrpc": "2.0", "id": 1.0, "result": {}}), "`x`").unwrap_err();
        assert!(
            f.reason
                .starts_with("the response to `x` came back, but the response's id is 1.0, not 1")
        );
        assert_eq!(
            crate::check::diff::diff(f.expected.as_ref().unwrap(), f.actual.as_ref().unwrap()).len(),
            1
        );
    }

    #[test]
    fn a_legal_id_refused_for_another_reason_is_not_blamed() {
        let other =
            json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32020, "message": "Header mismatch: no Mcp-Name"}});
        let f = served("zero", &json!(0), &other).unwrap_err();
        assert!(
            f.reason.starts_with(
                "a request whose id is zero, 0, got error -32020 (\"Header mismatch: no Mcp-Name\"): the id is legal, so the refusal is about something else in the request"
            ),
            "{}",
            f.reason
        );
        let invalid = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}});
        let f = served("zero", &json!(0), &invalid).unwrap_err();
        assert!(f.reason.contains("as if the id were invalid"), "{}", f.reason);
        assert!(served("zero", &json!(0), &json!({"jsonrpc": "2.0", "id": 0, "result": {}})).is_ok());
        assert!(served("zero", &json!(0), &json!({"jsonrpc": "2.0", "id": 0.0, "result": {}})).is_err());
    }

    #[test]
    fn a_refusal_leaves_the_id_out() {
        let ok = json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "x"}});
        assert!(refused("null", &Value::Null, &ok).is_ok());
        let with_null = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "x"}});
        assert!(refused("null", &Value::Null, &with_null).is_err());
        let served = json!({"jsonrpc": "2.0", "id": null, "result": {}});
        assert!(
            refused("null", &Value::Null, &served)
                .unwrap_err()
                .reason
                .contains("was served")
        );
    }
}
