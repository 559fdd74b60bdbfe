//! Comparing what a program produced with what a correct one produces,
//! into a [`Failure`] that shows the differences.

use serde_json::Value;

use super::case::{CaseResult, Failure};
use crate::check::diff::diff;

/// `value` with every object in it marked open (a `"…"` member): a
/// difference is then reported only for what the value lists.
pub(crate) fn open(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut map: serde_json::Map<String, Value> = map.into_iter().map(|(k, v)| (k, open(v))).collect();
            map.insert("…".into(), Value::String("…".into()));
            Value::Object(map)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(open).collect()),
        other => other,
    }
}

/// Passes when `actual` equals `expected` structurally; otherwise fails with
/// `reason` and the differences.
pub(crate) fn same(expected: Value, actual: &Value, reason: &str) -> CaseResult {
    if diff(&expected, actual).is_empty() {
        Ok(())
    } else {
        Err(Failure::mismatch(reason, expected, actual.clone()))
    }
}

/// Like [`same`], for a reason that speaks about particular members only:
/// `reason` is used when a difference lies at or under one of `pointers`.
/// When every difference lies elsewhere, the failure names the first one
/// instead (`call` says what produced `actual`), so a learner is never told
/// to fix a member that is right.
pub(crate) fn same_at(expected: Value, actual: &Value, pointers: &[&str], reason: &str, call: &str) -> CaseResult {
    let differences = diff(&expected, actual);
    let Some(first) = differences.first() else {
        return Ok(());
    };
    let about = |pointer: &str| {
        pointers
            .iter()
            .any(|p| pointer == *p || pointer.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')))
    };
    if differences.iter().any(|d| about(&d.pointer)) {
        return Err(Failure::mismatch(reason, expected, actual.clone()));
    }
    let reason = match (&first.expected, &first.actual) {
        (None, Some(Value::Null)) => {
            let member = first
                .pointer
                .rsplit('/')
                .next()
                .unwrap_or("")
                .replace("~1", "/")
                .replace("~0", "~");
            format!(
                "{call} wrote \"{member}\": null. A member that is absent is left out of the object, not written as null"
            )
        }
        _ => format!("{call} gave a different frame: {}", first.describe()),
    };
    Err(Failure::mismatch(reason, expected, actual.clone()))
}

/// An error response's code and message for a reason, `error -32020
/// ("Header mismatch: …")`; `None` when `response` carries no error object.
pub(crate) fn quoted_error(response: &Value) -> Option<String> {
    let error = response.get("error")?;
    let code = error
        .get("code")
        .map_or_else(|| "without a code".to_string(), Value::to_string);
    Some(match error.get("message").and_then(Value::as_str) {
        Some(message) => format!("error {code} ({:?})", crate::text::shorten(message, 120)),
        None => format!("error {code}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_quoted_with_its_code_and_message() {
        let response =
            serde_json::json!({"id": 0, "error": {"code": -32020, "message": "Header mismatch: no Mcp-Name"}});
        assert_eq!(
            quoted_error(&response).unwrap(),
            "error -32020 (\"Header mismatch: no Mcp-Name\")"
        );
        assert_eq!(
            quoted_error(&serde_json::json!({"error": {}})).unwrap(),
            "error without a code"
        );
        assert!(quoted_error(&serde_json::json!({"result": {}})).is_none());
    }

    #[test]
    fn a_reason_about_one_member_is_kept_for_that_member_only() {
        let expected = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {}});
        let wrong_id = serde_json::json!({"jsonrpc": "2.0", "id": "0", "result": {}});
        assert_eq!(
            same_at(expected.clone(), &wrong_id, &["/id"], "echo the id", "f()")
                .unwrap_err()
                .reason,
            "echo the id"
        );
        let null_error = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {}, "error": null});
        let f = same_at(expected.clone(), &null_error, &["/id"], "echo the id", "f()").unwrap_err();
        assert_eq!(
            f.reason,
            "f() wrote \"error\": null. A member that is absent is left out of the object, not written as null"
        );
        let other = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": []});
        let f = same_at(expected.clone(), &other, &["/id"], "echo the id", "f()").unwrap_err();
        assert_eq!(f.reason, "f() gave a different frame: /result: expected {}, got []");
        assert!(same_at(expected.clone(), &expected, &["/id"], "echo the id", "f()").is_ok());
    }
}
