//! 12's side of the HTTP exchange: modern requests with the headers a
//! conforming client sends and a token where the case puts it, the
//! `WWW-Authenticate` challenge read back (RFC 9110 § 11.6.1 syntax), and a
//! refusal judged by its status and challenge.

use serde_json::{Value, json};

use crate::check::http::{self, Reply, Request};
use crate::check::session::Session;
use crate::check::toolkit::Failure;
use crate::check::toolkit::harness::http_panic;
use crate::mcp;

/// A modern request: `method` with `params` and the `_meta` every request carries.
pub(super) fn request(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = mcp::request_meta(mcp::MODERN);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A modern `tools/call` of `tool`.
pub(super) fn call(id: u64, tool: &str, arguments: Value) -> Value {
    request(id, "tools/call", json!({"name": tool, "arguments": arguments}))
}

/// The headers a conforming client sends with `body`, and
/// `Authorization: Bearer <token>` when there is a token.
pub(super) fn headers(body: &Value, token: Option<&str>) -> Vec<(String, String)> {
    let mut headers = http::headers_for(body);
    if let Some(token) = token {
        headers.push(("Authorization".to_string(), format!("Bearer {token}")));
    }
    headers
}

/// Sends `method path` with `headers` and `body`; the harness's panic
/// report becomes a failure naming the panic.
pub(super) fn send(
    s: &mut Session,
    method: &'static str,
    path: &'static str,
    headers: Vec<(String, String)>,
    body: Option<&Value>,
) -> Result<Reply, Failure> {
    let request = Request {
        method,
        path,
        headers,
        body: body.map(|b| b.to_string().into_bytes()),
    };
    http_panic(http::send(s, &request)?)
}

/// POSTs `body` to `/mcp` with its headers and `token` in `Authorization`.
pub(super) fn post(s: &mut Session, body: &Value, token: Option<&str>) -> Result<Reply, Failure> {
    send(s, "POST", "/mcp", headers(body, token), Some(body))
}

/// What a failure shows as the actual reply.
pub(super) fn shown(reply: &Reply) -> Value {
    json!({
        "status": reply.status,
        "www-authenticate": reply.header("www-authenticate"),
        "body": reply.json().unwrap_or_else(|| json!(reply.text())),
    })
}

/// A `WWW-Authenticate` challenge: its scheme and its parameters.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Challenge {
    /// `Bearer`, as sent.
    pub(super) scheme: String,
    /// Each `name=value`, quotes removed.
    pub(super) params: Vec<(String, String)>,
}

impl Challenge {
    /// Parameter `name` (names are case-insensitive).
    pub(super) fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Parses one challenge: `Scheme name="value", name=token, …`.
pub(super) fn parse_challenge(value: &str) -> Option<Challenge> {
    let value = value.trim();
    let (scheme, mut rest) = value.split_once(' ').unwrap_or((value, ""));
    let mut params = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', ',']);
        if rest.is_empty() {
            break;
        }
        let (name, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let (text, left) = match after.strip_prefix('"') {
            Some(quoted) => {
                let mut text = String::new();
                let mut chars = quoted.char_indices();
                let end = loop {
                    match chars.next()? {
                        (_, '\\') => text.push(chars.next()?.1),
                        (at, '"') => break at + 1,
                        (_, c) => text.push(c),
                    }
                };
                (text, &quoted[end..])
            }
            None => {
                let end = after.find(',').unwrap_or(after.len());
                (after[..end].trim().to_string(), &after[end..])
            }
        };
        params.push((name.trim().to_string(), text));
        rest = left;
    }
    Some(Challenge {
        scheme: scheme.to_string(),
        params,
    })
}

/// What a refusal must carry.
pub(super) struct Refusal<'a> {
    /// The HTTP status.
    pub(super) status: u16,
    /// The `error` parameter, when the refusal names one.
    pub(super) error: Option<&'a str>,
    /// The `resource_metadata` parameter, when it must be there.
    pub(super) metadata: Option<&'a str>,
    /// What the expected reply looks like, for the failure.
    pub(super) shape: &'a str,
}

/// Checks that `reply` is `want`: the status, and a `Bearer` challenge with
/// the `error` and `resource_metadata` it needs; returns the challenge.
/// `why` leads every failure.
pub(super) fn refused(reply: &Reply, want: &Refusal, why: &str) -> Result<Challenge, Failure> {
    let header = want.shape.trim_start_matches("with WWW-Authenticate: ");
    let expected = json!({"status": want.status, "www-authenticate": header, "…": "…"});
    if reply.status != want.status {
        let served = if reply.status == 200 {
            " It was served: whatever the server checks, it let this one through."
        } else {
            ""
        };
        return Err(Failure::mismatch(
            format!("{why}: {} {}, got {}.{served}", want.status, want.shape, reply.status),
            expected,
            shown(reply),
        ));
    }
    let challenge = reply.header("www-authenticate").and_then(parse_challenge);
    let Some(challenge) = challenge.filter(|c| c.scheme.eq_ignore_ascii_case("Bearer")) else {
        return Err(Failure::mismatch(
            format!(
                "{why}: the status is right, but a {} must carry a WWW-Authenticate header with a Bearer challenge ({}), so the client knows what to do next (RFC 6750 § 3)",
                want.status, want.shape
            ),
            expected,
            shown(reply),
        ));
    };
    if let Some(error) = want.error
        && challenge.param("error") != Some(error)
    {
        return Err(Failure::mismatch(
            format!(
                "{why}: the status is right, but the challenge's error must be \"{error}\" (RFC 6750 § 3.1), got {}",
                challenge
                    .param("error")
                    .map_or("none".to_string(), |e| format!("\"{e}\""))
            ),
            expected,
            shown(reply),
        ));
    }
    if let Some(metadata) = want.metadata
        && challenge.param("resource_metadata") != Some(metadata)
    {
        return Err(Failure::mismatch(
            format!(
                "{why}: the challenge must name the Protected Resource Metadata, resource_metadata=\"{metadata}\": the well-known path, then the endpoint's path (RFC 9728 § 3.1, § 5.1), an absolute URL the client can fetch; got {}",
                challenge.param("resource_metadata").unwrap_or("none")
            ),
            expected,
            shown(reply),
        ));
    }
    Ok(challenge)
}

/// Checks that `reply` is 200 JSON carrying a result for `id`; returns it.
pub(super) fn served(reply: &Reply, id: u64, why: &str) -> Result<Value, Failure> {
    let body = reply.json().unwrap_or(Value::Null);
    match body.get("result") {
        Some(result) if reply.status == 200 && body.get("id") == Some(&json!(id)) => Ok(result.clone()),
        _ => Err(Failure::mismatch(
            format!("{why}: 200 and the result of request {id}; got {}", reply.status),
            json!({"status": 200, "body": {"jsonrpc": "2.0", "id": id, "result": "…"}}),
            shown(reply),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_parse_quoted_and_bare_values() {
        let c = parse_challenge(
            r#"Bearer error="insufficient_scope", scope="a b",resource_metadata="http://x/.well-known/y", realm=bare , e="q\"t""#,
        )
        .unwrap();
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.param("ERROR"), Some("insufficient_scope"));
        assert_eq!(c.param("scope"), Some("a b"));
        assert_eq!(c.param("resource_metadata"), Some("http://x/.well-known/y"));
        assert_eq!(c.param("realm"), Some("bare"));
        assert_eq!(c.param("e"), Some("q\"t"));
        assert_eq!(parse_challenge("Bearer").unwrap().params, vec![]);
        assert_eq!(parse_challenge(r#"Bearer error="unterminated"#), None);
    }
}
