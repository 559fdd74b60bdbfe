//! The reference JSON-RPC 2.0 classifier, with MCP's extra rules.
//!
//! Checkers use it to describe what a learner's program sent, and the
//! transcript uses it to pull out each frame's id. It is the answer key for
//! exercise 01 too, so every rule here cites its source.
//!
//! Sources: JSON-RPC 2.0 §4–§5; MCP 2025-11-25 basic/index › Requests,
//! Responses, Notifications ("Unlike base JSON-RPC, the ID MUST NOT be null");
//! 2025-06-18 changelog (batching removed).

use std::fmt;

use serde_json::Value;

/// A JSON-RPC request id as MCP allows it: a string or an integer, never null
/// (2025-11-25 basic/index › Requests).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// An integer id, e.g. `11`.
    Int(i64),
    /// A string id, e.g. `"c1"`.
    Str(String),
}

impl Id {
    /// Reads an id from a JSON value: strings and integers (also `3.0`, which
    /// JSON Schema counts as an integer). Anything else is `None`.
    pub fn from_value(value: &Value) -> Option<Id> {
        match value {
            Value::String(s) => Some(Id::Str(s.clone())),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Some(Id::Int(i))
                } else {
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                        .map(|f| Id::Int(f as i64))
                }
            }
            _ => None,
        }
    }

    /// The id as JSON, exactly as it would be written on the wire.
    pub fn to_value(&self) -> Value {
        match self {
            Id::Int(i) => Value::from(*i),
            Id::Str(s) => Value::from(s.as_str()),
        }
    }
}

impl fmt::Display for Id {
    /// Writes the id as JSON: `11` or `"c1"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// What one line on the wire is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A JSON-RPC request: `method` and a string or integer `id`.
    Request {
        /// The request id.
        id: Id,
        /// The MCP method, e.g. `tools/call`.
        method: String,
    },
    /// A notification: `method` and no `id` member at all.
    Notification {
        /// The MCP method, e.g. `notifications/progress`.
        method: String,
    },
    /// A response carrying `result`.
    Success {
        /// The id of the request it answers.
        id: Id,
    },
    /// A response carrying an error object. `id` is `None` when the member is
    /// absent or `null` (allowed for parse errors, answering no request).
    Error {
        /// The id of the request it answers, if any.
        id: Option<Id>,
        /// The error object's `code`.
        code: i64,
    },
    /// Not a valid JSON-RPC message; the reason says which rule it breaks.
    Invalid {
        /// One sentence naming the broken rule.
        reason: String,
    },
}

impl Kind {
    /// The kind's name as used in reports: `request`, `notification`,
    /// `success`, `error` or `invalid`.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Request { .. } => "request",
            Kind::Notification { .. } => "notification",
            Kind::Success { .. } => "success",
            Kind::Error { .. } => "error",
            Kind::Invalid { .. } => "invalid",
        }
    }
}

fn invalid(reason: &str) -> Kind {
    Kind::Invalid {
        reason: reason.to_string(),
    }
}

/// Classifies one line as read from the wire (without its line ending).
pub fn classify_line(line: &str) -> Kind {
    match serde_json::from_str::<Value>(line) {
        Ok(value) => classify(&value),
        Err(e) => Kind::Invalid {
            reason: format!("not JSON ({e}): a peer answers with a parse error (-32700)"),
        },
    }
}

/// Classifies a parsed JSON value.
///
/// Classification goes by which members are *present*, never by their
/// values alone: `"id": null` does not make a notification (implementer
/// mistake C02 in our reference log).
pub fn classify(value: &Value) -> Kind {
    let obj = match value {
        Value::Object(obj) => obj,
        Value::Array(_) => {
            return invalid("a JSON array is a batch, and batches were removed in 2025-06-18");
        }
        _ => return invalid("a message must be a JSON object"),
    };
    if obj.get("jsonrpc") != Some(&Value::from("2.0")) {
        return invalid("\"jsonrpc\" must be exactly \"2.0\"");
    }
    let has_result = obj.contains_key("result");
    let has_error = obj.contains_key("error");
    if let Some(method) = obj.get("method") {
        let Some(method) = method.as_str() else {
            return invalid("\"method\" must be a string");
        };
        if has_result || has_error {
            return invalid("a message with \"method\" must not carry \"result\" or \"error\"");
        }
        if let Some(params) = obj.get("params")
            && !params.is_object()
        {
            return invalid("\"params\" must be an object in MCP");
        }
        return match obj.get("id") {
            None => Kind::Notification {
                method: method.to_string(),
            },
            Some(Value::Null) => {
                invalid("\"id\" is null: MCP forbids null ids; a notification has no \"id\" member at all")
            }
            Some(id) => match Id::from_value(id) {
                Some(id) => Kind::Request {
                    id,
                    method: method.to_string(),
                },
                None => invalid("\"id\" must be a string or an integer"),
            },
        };
    }
    match (has_result, has_error) {
        (true, true) => invalid("a response carries exactly one of \"result\" and \"error\", not both"),
        (true, false) => match obj.get("id") {
            None | Some(Value::Null) => invalid("a success response must carry the id of the request it answers"),
            Some(id) => match Id::from_value(id) {
                Some(id) => Kind::Success { id },
                None => invalid("\"id\" must be a string or an integer"),
            },
        },
        (false, true) => {
            let error = &obj["error"];
            let code = error.get("code").and_then(Value::as_i64);
            let message_ok = error.get("message").is_some_and(Value::is_string);
            let Some(code) = code.filter(|_| error.is_object() && message_ok) else {
                return invalid("an error object needs an integer \"code\" and a string \"message\"");
            };
            match obj.get("id") {
                None | Some(Value::Null) => Kind::Error { id: None, code },
                Some(id) => match Id::from_value(id) {
                    Some(id) => Kind::Error { id: Some(id), code },
                    None => invalid("\"id\" must be a string or an integer"),
                },
            }
        }
        (false, false) => {
            invalid("no \"method\", \"result\" or \"error\": neither a request, a notification nor a response")
        }
    }
}

/// The id member of a frame, if it has one that is a string or an integer.
pub fn frame_id(value: &Value) -> Option<Value> {
    value.get("id").filter(|id| Id::from_value(id).is_some()).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(v: Value) -> Kind {
        classify(&v)
    }

    #[test]
    fn the_four_frames_of_part_one() {
        assert_eq!(
            kind(json!({"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add"}})),
            Kind::Request {
                id: Id::Int(11),
                method: "tools/call".into()
            }
        );
        assert_eq!(
            kind(json!({"jsonrpc":"2.0","id":11,"result":{"content":[]}})),
            Kind::Success { id: Id::Int(11) }
        );
        assert_eq!(
            kind(json!({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found"}})),
            Kind::Error {
                id: Some(Id::Str("x".into())),
                code: -32601
            }
        );
        assert_eq!(
            kind(
                json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}})
            ),
            Kind::Notification {
                method: "notifications/progress".into()
            }
        );
    }

    #[test]
    fn null_id_with_a_method_is_invalid_not_a_notification() {
        // Implementer mistake C02.
        assert_eq!(
            kind(json!({"jsonrpc":"2.0","id":null,"method":"tools/list"})).name(),
            "invalid"
        );
    }

    #[test]
    fn parse_error_response_with_null_id_answers_no_request() {
        assert_eq!(
            kind(json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})),
            Kind::Error { id: None, code: -32700 }
        );
    }

    #[test]
    fn rejects_batches_wrong_version_both_members_and_bad_ids() {
        for bad in [
            json!([{"jsonrpc":"2.0","id":1,"method":"ping"}]),
            json!({"jsonrpc":"1.0","id":1,"method":"ping"}),
            json!({"id":1,"method":"ping"}),
            json!({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}),
            json!({"jsonrpc":"2.0","id":1.5,"method":"ping"}),
            json!({"jsonrpc":"2.0","id":{"n":1},"method":"ping"}),
            json!({"jsonrpc":"2.0","result":{}}),
            json!({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}),
            json!({"jsonrpc":"2.0","id":1}),
            json!("hello"),
        ] {
            assert_eq!(kind(bad.clone()).name(), "invalid", "{bad}");
        }
        assert_eq!(classify_line("{\"jsonrpc\":").name(), "invalid");
    }

    #[test]
    fn integral_float_ids_count_as_integers() {
        assert_eq!(Id::from_value(&json!(3.0)), Some(Id::Int(3)));
        assert_eq!(Id::from_value(&json!(true)), None);
    }
}
