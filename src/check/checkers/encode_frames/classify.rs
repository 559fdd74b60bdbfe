//! The classify cases of 01-encode-frames: the four frames, a null id, and
//! the lines that are invalid (with the rule each breaks).

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness;
use crate::check::toolkit::{CaseResult, Failure};

/// Sends a raw line in classify mode and checks the reported kind. For
/// `invalid`, any non-empty reason is accepted.
fn classified_as(s: &mut Session, line: &str, expected: Value, why: &str) -> CaseResult {
    s.send(line)?;
    let got = harness::reply(s)?.value;
    let kind = got.get("kind").and_then(Value::as_str).unwrap_or("?");
    let wanted = expected["kind"].as_str().unwrap_or("?");
    let mut full = json!({"harness": "classified"});
    if let (Some(f), Some(e)) = (full.as_object_mut(), expected.as_object()) {
        f.extend(e.clone());
    }
    if wanted == "invalid" {
        let reason = got.get("reason").and_then(Value::as_str).unwrap_or("");
        if kind != "invalid" {
            full["reason"] = json!("‹any reason›");
            return Err(Failure::mismatch(
                format!("classify said `{kind}` for {line} but it is invalid: {why}"),
                full,
                got,
            ));
        }
        if reason.trim().is_empty() {
            return Err(Failure::new(format!(
                "classify said invalid for {line} but gave no reason: say which rule it breaks"
            )));
        }
        return Ok(());
    }
    same(full, &got, &format!("classify({line}) should say `{wanted}`: {why}")).map_err(|f| {
        if kind == wanted {
            Failure {
                reason: format!("classify got the kind right for {line} but not its details: {why}"),
                ..f
            }
        } else {
            f
        }
    })
}

pub(super) fn four(s: &mut Session) -> CaseResult {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
            json!({"kind":"request","id":11,"method":"tools/call"}),
            "method plus an id makes a request",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"11","method":"tools/list"}"#,
            json!({"kind":"request","id":"11","method":"tools/list"}),
            "the id \"11\" is a string, and stays one",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":3}}"#,
            json!({"kind":"notification","method":"notifications/progress"}),
            "method and no id member makes a notification",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            json!({"kind":"notification","method":"notifications/initialized"}),
            "params are optional",
        ),
        (
            r#"{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"5"}]}}"#,
            json!({"kind":"success","id":11}),
            "result plus an id makes a success response",
        ),
        (
            r#"{"jsonrpc":"2.0","id":12,"error":{"code":-32601,"message":"Method not found"}}"#,
            json!({"kind":"error","id":12,"code":-32601}),
            "error plus an id makes an error response",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            json!({"kind":"success","id":3}),
            "an empty result (a ping's answer) is still a success",
        ),
    ];
    for (line, expected, why) in cases {
        classified_as(s, line, expected, why)?;
    }
    Ok(())
}

pub(super) fn null_id(s: &mut Session) -> CaseResult {
    classified_as(
        s,
        r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
        json!({"kind":"invalid"}),
        "MCP forbids null ids (2025-11-25 basic/index › Requests), and a notification has no id member at all. classify should say invalid (a server would answer such a request with Invalid Request, -32600)",
    )?;
    classified_as(
        s,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        json!({"kind":"error","id":null,"code":-32700}),
        "JSON-RPC 2.0 §5 sends a parse error with \"id\": null when the id could not be read: an error response that answers no request",
    )
}

pub(super) fn invalid_lines(s: &mut Session) -> CaseResult {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list""#,
            "it is not JSON (cut off)",
        ),
        (
            r#"hello from my server"#,
            "it is not JSON: debug output belongs on stderr",
        ),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
            "an array is a JSON-RPC batch, and batches were removed in 2025-06-18",
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            "\"jsonrpc\" must be exactly \"2.0\"",
        ),
        (r#"{"id":1,"method":"ping"}"#, "\"jsonrpc\": \"2.0\" is required"),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32603,"message":"x"}}"#,
            "a response carries exactly one of result and error",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            "an id is a string or an integer, not 1.5",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}"#,
            "an id is a string or an integer, not an object",
        ),
        (
            r#"{"jsonrpc":"2.0","result":{}}"#,
            "a success response must carry the id it answers",
        ),
        (
            r#"{"jsonrpc":"2.0","id":4}"#,
            "no method, result or error: it fits no shape",
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"ping","result":{}}"#,
            "a message with a method carries no result: it is neither a request nor a response",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"error":{"code":-32603,"message":"x"}}"#,
            "an error response's id is a string or an integer (or absent), never 1.5",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"error":{"message":"x"}}"#,
            "\"Error responses MUST include an `error` field with a `code` and `message`\" (2025-11-25 basic/index › Responses): this one has no code",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32603}}"#,
            "\"Error responses MUST include an `error` field with a `code` and `message`\" (2025-11-25 basic/index › Responses): this one has no message",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":"-32603","message":"x"}}"#,
            "\"Error codes MUST be integers\" (2025-11-25 basic/index › Responses), not the string \"-32603\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32603.5,"message":"x"}}"#,
            "\"Error codes MUST be integers\" (2025-11-25 basic/index › Responses), not -32603.5",
        ),
    ];
    for (line, why) in cases {
        classified_as(s, line, json!({"kind":"invalid"}), why)?;
    }
    Ok(())
}
