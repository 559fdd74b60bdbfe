//! Structural JSON differences, named by JSON pointer (RFC 6901), e.g.
//! `/result/content/0/type`. Object member order never matters; array
//! order does.
//!
//! An expected value may leave parts open, so that only what a case checks
//! is ever reported: the string `"…"`, or a string in parentheses such as
//! `"(the request's id)"`, matches any value that is present; and an
//! expected object with a `"…"` member allows members it does not list.
//!
//! A member whose value is only an example (a server's name, an error's
//! message) is written as a placeholder between `‹` and `›`, which a
//! learner reads as "any such value" with or without colour: `‹any
//! string›`, `‹any integer›`, `‹an integer ≥ 0›` and `‹any object›` match
//! a value of that type ([`ANY_STRING`] and its siblings); one that lists
//! strings, `‹"public" or "private"›`, one of them; any other `‹…›` any
//! value that is present. A difference names it bare
//! (`expected ‹any string›, got 5`).
//!
//! Numbers compare by value (`3` equals `3.0`), except in the members that
//! hold a JSON-RPC id, `id`, `requestId` and `progressToken`: an id comes
//! back exactly, in type and in value (2025-11-25 basic/index › Result
//! Responses), so there `1` and `1.0` differ.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One place where two JSON values differ.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Difference {
    /// JSON pointer to the place, `""` for the whole value.
    pub pointer: String,
    /// The expected value there; absent when the program added a member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The actual value there; absent when the program left a member out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
}

impl Difference {
    /// One line for a learner: "/id: expected 11, got \"11\"".
    pub fn describe(&self) -> String {
        let at = if self.pointer.is_empty() {
            "the whole value"
        } else {
            &self.pointer
        };
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => format!("{at}: expected {}, got {}", short(e), short(a)),
            (Some(e), None) => format!("{at}: missing (expected {})", short(e)),
            (None, Some(a)) => format!("{at}: unexpected member (got {})", short(a)),
            (None, None) => at.to_string(),
        }
    }
}

fn short(v: &Value) -> String {
    match v.as_str().filter(|s| placeholder(s)) {
        Some(text) => text.to_string(),
        None => crate::text::shorten(&v.to_string(), 50),
    }
}

/// A placeholder for any string.
pub const ANY_STRING: &str = "‹any string›";
/// A placeholder for any integer.
pub const ANY_INTEGER: &str = "‹any integer›";
/// A placeholder for any integer from 0 up.
pub const ANY_COUNT: &str = "‹an integer ≥ 0›";
/// A placeholder for any object.
pub const ANY_OBJECT: &str = "‹any object›";

/// Whether `text` is a `‹…›` placeholder.
fn placeholder(text: &str) -> bool {
    text.chars().count() > 2 && text.starts_with('‹') && text.ends_with('›')
}

/// The members that hold a JSON-RPC id (or a token of the same type),
/// compared exactly.
const ID_MEMBERS: [&str; 3] = ["id", "requestId", "progressToken"];

/// Every difference between `expected` and `actual`, depth first. Numbers
/// compare by value (`3` equals `3.0`) except in an id (see the module
/// documentation).
pub fn diff(expected: &Value, actual: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    walk(expected, actual, &mut String::new(), &mut out);
    out
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Whether `v` is a placeholder that matches any present value.
fn is_wildcard(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s == "…" || (s.len() > 2 && s.starts_with('(') && s.ends_with(')')))
}

/// Whether `actual` fits the placeholder `text`: a value of its type, or
/// any value for a placeholder that names none.
fn fits(text: &str, actual: &Value) -> bool {
    match text {
        ANY_STRING => actual.is_string(),
        ANY_INTEGER => actual.is_i64() || actual.is_u64(),
        ANY_COUNT => actual.is_u64(),
        ANY_OBJECT => actual.is_object(),
        _ => match alternatives(text) {
            Some(strings) => actual.as_str().is_some_and(|a| strings.contains(&a)),
            None => true,
        },
    }
}

/// The strings a placeholder such as `‹"public" or "private"›` lists.
fn alternatives(text: &str) -> Option<Vec<&str>> {
    let inner = text.strip_prefix('‹')?.strip_suffix('›')?;
    inner
        .split(" or ")
        .map(|s| s.strip_prefix('"')?.strip_suffix('"'))
        .collect()
}

/// Whether the pointer ends in a member that holds an id.
fn at_id(pointer: &str) -> bool {
    pointer
        .rsplit('/')
        .next()
        .is_some_and(|last| ID_MEMBERS.contains(&last))
}

const OPEN: &str = "…";

fn walk(expected: &Value, actual: &Value, pointer: &mut String, out: &mut Vec<Difference>) {
    let len = pointer.len();
    match (expected, actual) {
        (e, _) if is_wildcard(e) => {}
        (Value::String(text), a) if placeholder(text) && fits(text, a) => {}
        (Value::Object(e), Value::Object(a)) => {
            let open = e.contains_key(OPEN);
            for (key, ev) in e.iter().filter(|(k, _)| *k != OPEN) {
                pointer.push('/');
                pointer.push_str(&escape(key));
                match a.get(key) {
                    Some(av) => walk(ev, av, pointer, out),
                    None => out.push(Difference {
                        pointer: pointer.clone(),
                        expected: Some(ev.clone()),
                        actual: None,
                    }),
                }
                pointer.truncate(len);
            }
            for (key, av) in a {
                if !open && !e.contains_key(key) {
                    out.push(Difference {
                        pointer: format!("{pointer}/{}", escape(key)),
                        expected: None,
                        actual: Some(av.clone()),
                    });
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            for i in 0..e.len().max(a.len()) {
                pointer.push_str(&format!("/{i}"));
                match (e.get(i), a.get(i)) {
                    (Some(ev), Some(av)) => walk(ev, av, pointer, out),
                    (ev, av) => out.push(Difference {
                        pointer: pointer.clone(),
                        expected: ev.cloned(),
                        actual: av.cloned(),
                    }),
                }
                pointer.truncate(len);
            }
        }
        (Value::Number(e), Value::Number(a))
            if e.as_f64() == a.as_f64() && e.is_f64() != a.is_f64() && !at_id(pointer) => {}
        (e, a) if e == a => {}
        (e, a) => out.push(Difference {
            pointer: pointer.clone(),
            expected: Some(e.clone()),
            actual: Some(a.clone()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_each_difference_by_pointer() {
        let e = json!({"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"5"}]}});
        let a = json!({"id":"11","jsonrpc":"2.0","result":{"content":[{"type":"txt","text":"5"}]},"extra/x":1});
        let d = diff(&e, &a);
        let pointers: Vec<_> = d.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(pointers, ["/id", "/result/content/0/type", "/extra~1x"]);
        assert_eq!(d[0].describe(), "/id: expected 11, got \"11\"");
        assert_eq!(d[2].describe(), "/extra~1x: unexpected member (got 1)");
    }

    #[test]
    fn member_order_is_irrelevant_and_missing_members_are_named() {
        assert!(diff(&json!({"a":1,"b":[1,2]}), &json!({"b":[1,2],"a":1})).is_empty());
        let d = diff(&json!({"a":1,"b":[1,2]}), &json!({"b":[1]}));
        assert_eq!(d[0].describe(), "/a: missing (expected 1)");
        assert_eq!(d[1].describe(), "/b/1: missing (expected 2)");
    }

    #[test]
    fn placeholders_match_what_is_present_and_open_objects_allow_more() {
        let e = json!({"id": "(the request's id)", "error": {"code": -32020, "message": "…", "…": "…"}});
        assert!(
            diff(
                &e,
                &json!({"id": 7, "error": {"code": -32020, "message": "bad", "data": {}}})
            )
            .is_empty()
        );
        let d = diff(&e, &json!({"error": {"code": -32022, "message": "bad"}, "extra": 1}));
        let described: Vec<_> = d.iter().map(Difference::describe).collect();
        assert_eq!(
            described,
            [
                "/id: missing (expected \"(the request's id)\")",
                "/error/code: expected -32020, got -32022",
                "/extra: unexpected member (got 1)"
            ]
        );
        // A string that is only text in parentheses by chance is still exact
        // when it is too short to be a placeholder.
        assert_eq!(diff(&json!("()"), &json!("x")).len(), 1);
    }

    #[test]
    fn an_integer_is_not_a_string() {
        assert_eq!(diff(&json!(1), &json!("1")).len(), 1);
        assert!(diff(&json!(1), &json!(1.0)).is_empty());
    }

    #[test]
    fn an_id_is_compared_in_type_and_value() {
        let d = diff(
            &json!({"id": 1, "result": {"n": 2}}),
            &json!({"id": 1.0, "result": {"n": 2.0}}),
        );
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].describe(), "/id: expected 1, got 1.0");
        let d = diff(
            &json!({"params": {"requestId": 3, "progressToken": 4}}),
            &json!({"params": {"requestId": 3.0, "progressToken": 4.0}}),
        );
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn a_placeholder_matches_its_type_and_is_named_bare() {
        let e =
            json!({"name": ANY_STRING, "n": ANY_INTEGER, "ttl": ANY_COUNT, "caps": ANY_OBJECT, "why": "‹anything›"});
        assert!(diff(&e, &json!({"name": "mine", "n": -3, "ttl": 0, "caps": {}, "why": [1]})).is_empty());
        let d = diff(&e, &json!({"name": 5, "n": 1.5, "ttl": -1, "caps": [], "why": null}));
        let described: Vec<_> = d.iter().map(Difference::describe).collect();
        assert_eq!(
            described,
            [
                "/name: expected ‹any string›, got 5",
                "/n: expected ‹any integer›, got 1.5",
                "/ttl: expected ‹an integer ≥ 0›, got -1",
                "/caps: expected ‹any object›, got []",
            ]
        );
        let d = diff(&e, &json!({}));
        assert_eq!(d[0].describe(), "/name: missing (expected ‹any string›)");
        let scope = json!("‹\"public\" or \"private\"›");
        assert!(diff(&scope, &json!("private")).is_empty());
        assert_eq!(
            diff(&scope, &json!("shared"))[0].describe(),
            "the whole value: expected ‹\"public\" or \"private\"›, got \"shared\""
        );
    }
}
