//! Deserialising a value into a revision's generated types, and saying in
//! plain words where and why it does not fit (the path of the first
//! failure, a closer look at the untagged enums learners meet often).

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

/// A deserialisation failure: the path to it and what went wrong.
pub struct Problem {
    /// The path to the member that does not fit, dotted with `[index]`
    /// for arrays (`content[0]`); empty for the value itself.
    pub path: String,
    /// What is wrong there, in plain words: ``missing `type` ``, `is an
    /// array, expected an object`.
    pub message: String,
}

/// The lookup of one revision's types by definition name.
pub(crate) type Lookup = fn(&str, &Value) -> Option<Result<(), Problem>>;

/// Deserialises `value` as `T`, keeping the path of the first failure;
/// `types` are the revision's types, for a closer look at untagged enums.
pub(crate) fn typed<T: DeserializeOwned>(value: &Value, types: Lookup) -> Result<(), Problem> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(_) => Ok(()),
        Err(error) => {
            let segments: Vec<Segment> = error.path().iter().cloned().collect();
            let path = segments.iter().fold(String::new(), |path, segment| match segment {
                Segment::Seq { index } => format!("{path}[{index}]"),
                Segment::Map { key } | Segment::Enum { variant: key } => join(&path, key),
                Segment::Unknown => path,
            });
            let message = plain(&error.inner().to_string());
            // serde's word for an untagged enum that matched no variant says
            // nothing of why; content blocks and ids are worth a closer look.
            let at = segments.iter().try_fold(value, |v, s| match s {
                Segment::Seq { index } => v.get(*index),
                Segment::Map { key } => v.get(key.as_str()),
                _ => None,
            });
            match (message.contains("untagged enum"), at) {
                (true, Some(at)) => Err(closer_look(&message, at, types).map_or(
                    Problem {
                        path: path.clone(),
                        message,
                    },
                    |p| Problem {
                        path: join(&path, &p.path),
                        message: p.message,
                    },
                )),
                _ => Err(Problem { path, message }),
            }
        }
    }
}

/// A better account of an untagged-enum failure at `value`, when the enum
/// is one learners meet often.
fn closer_look(message: &str, value: &Value, types: Lookup) -> Option<Problem> {
    let here = |message: String| {
        Some(Problem {
            path: String::new(),
            message,
        })
    };
    if message.contains("enum RequestId") || message.contains("enum ProgressToken") {
        return here(format!("is {}, expected a string or an integer", kind_of(value)));
    }
    if !message.contains("enum ContentBlock") {
        return None;
    }
    let Some(object) = value.as_object() else {
        return here(format!(
            "is {}, expected a content block (an object with `type`)",
            kind_of(value)
        ));
    };
    let Some(kind) = object.get("type") else {
        return here("missing `type`".into());
    };
    const KINDS: &str = "`text`, `image`, `audio`, `resource_link` or `resource`";
    let definition = match kind.as_str() {
        Some("text") => "TextContent",
        Some("image") => "ImageContent",
        Some("audio") => "AudioContent",
        Some("resource_link") => "ResourceLink",
        Some("resource") => "EmbeddedResource",
        _ => return here(format!("`type` is {kind}, expected {KINDS}")),
    };
    types(definition, value)?.err()
}

/// `a.b` from `a` and `b`, without a dot when either is empty; `a[0]`
/// from `a` and `[0]`.
pub fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty() || path == ".") {
        (_, true) => prefix.to_string(),
        (true, false) => path.to_string(),
        (false, false) if path.starts_with('[') => format!("{prefix}{path}"),
        (false, false) => format!("{prefix}.{path}"),
    }
}

/// serde's messages in plainer words: ``missing field `x` `` → ``missing `x` ``,
/// `invalid type: sequence, expected a map` → `is an array, expected an object`.
fn plain(message: &str) -> String {
    let message = message.replace("missing field ", "missing ");
    let Some(rest) = message.strip_prefix("invalid type: ") else {
        return message;
    };
    let got = |s: &str| match s {
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        "unit value" => "null".to_string(),
        _ => ["string ", "integer ", "floating point ", "boolean "]
            .iter()
            .find(|p| s.starts_with(*p))
            .map_or(s.to_string(), |p| {
                let value = s[p.len()..].trim_matches('`');
                format!(
                    "{} {value}",
                    if *p == "floating point " {
                        "the number"
                    } else if *p == "integer " {
                        "the integer"
                    } else if *p == "boolean " {
                        "the boolean"
                    } else {
                        "a string"
                    }
                )
            }),
    };
    let expected = |s: &str| match s {
        "a sequence" => "an array".to_string(),
        "a map" => "an object".to_string(),
        "i64" | "u64" | "i32" | "u32" | "i16" | "u16" | "i8" | "u8" => "an integer".to_string(),
        "f64" | "f32" => "a number".to_string(),
        _ => s
            .strip_prefix("struct ")
            .map_or(s.to_string(), |name| format!("an object ({name})")),
    };
    match rest.split_once(", expected ") {
        Some((found, wanted)) => format!("is {}, expected {}", got(found), expected(wanted)),
        None => format!("is {}", got(rest)),
    }
}

/// `an object`, `an array`, `a string` … for a JSON value.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
