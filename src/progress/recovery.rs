//! Reading what a progress file holds, and what can be saved of one that
//! is damaged: the check that it is a progress file of this version, the
//! repair of cut-off JSON, and the recovery of every entry that still has
//! the right shape. No file I/O: `file` does that.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{PROGRESS_FORMAT_VERSION, Progress};

/// A cut-off file is repaired only up to this size (bytes): a progress file
/// is a few kilobytes, and repair tries many cuts.
const REPAIR_MAX_BYTES: usize = 1 << 20;
/// How many cut points repair tries, from the end back.
const REPAIR_MAX_TRIES: usize = 256;

/// Why a file is not a progress file of this version.
pub(super) enum Problem {
    /// Not JSON at all, or cut off.
    NotJson(serde_json::Error),
    /// A newer mcplings's format, of this number.
    Newer(u64),
    /// JSON, but not shaped like progress.
    Shape,
}

/// The progress in `bytes`, if they hold a progress file of this version.
pub(super) fn parse_current(bytes: &[u8]) -> Result<Progress, Problem> {
    let value: Value = serde_json::from_slice(bytes).map_err(Problem::NotJson)?;
    match value.get("format_version").and_then(Value::as_u64) {
        Some(n) if n == u64::from(PROGRESS_FORMAT_VERSION) => serde_json::from_value(value).map_err(|_| Problem::Shape),
        Some(n) if n > u64::from(PROGRESS_FORMAT_VERSION) => Err(Problem::Newer(n)),
        _ => Err(Problem::Shape),
    }
}

/// Keeps every entry of `value` that still has the right shape.
pub(super) fn recover(value: &Value) -> Progress {
    fn entries<T: DeserializeOwned>(value: &Value, key: &str) -> BTreeMap<String, T> {
        value
            .get(key)
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), serde_json::from_value(v.clone()).ok()?)))
                    .collect()
            })
            .unwrap_or_default()
    }
    Progress {
        format_version: PROGRESS_FORMAT_VERSION,
        exercises: entries(value, "exercises"),
        lessons: entries(value, "lessons"),
        quizzes: entries(value, "quizzes"),
        position: value
            .get("position")
            .and_then(|p| serde_json::from_value(p.clone()).ok())
            .unwrap_or_default(),
        course_version: value.get("course_version").and_then(Value::as_str).map(str::to_string),
    }
}

/// The longest prefix of cut-off JSON that closes into a value: cut just
/// before a `,` or just after a `}` or `]`, then close every object and
/// array still open. `None` when no cut parses.
pub(super) fn repair(text: &str) -> Option<Value> {
    if text.len() > REPAIR_MAX_BYTES {
        return None;
    }
    // (cut, the closers still open there), in text order.
    let mut cuts: Vec<(usize, String)> = Vec::new();
    let mut open = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => open.push('}'),
            b'[' => open.push(']'),
            b'}' | b']' => {
                open.pop();
                cuts.push((i + 1, open.clone()));
            }
            b',' => cuts.push((i, open.clone())),
            _ => {}
        }
    }
    cuts.iter().rev().take(REPAIR_MAX_TRIES).find_map(|(cut, open)| {
        let closed: String = text[..*cut].chars().chain(open.chars().rev()).collect();
        serde_json::from_str(&closed).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repair_closes_what_is_open_and_ignores_brackets_in_strings() {
        assert_eq!(repair(r#"{"a":[1,2,"x],{"#), Some(serde_json::json!({"a":[1,2]})));
        assert_eq!(
            repair(r#"{"a":{"b":"}\"," , "c":1},"d"#),
            Some(serde_json::json!({"a":{"b":"}\",","c":1}}))
        );
        assert_eq!(
            repair(r#"{"format_version":1,"exerc"#),
            Some(serde_json::json!({"format_version":1}))
        );
        assert_eq!(repair("{\"a\""), None);
        assert_eq!(repair("not json"), None);
    }
}
