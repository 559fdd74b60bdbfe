//! Header values a 2026-07-28 Streamable HTTP client derives from a
//! request body (basic/transports/streamable-http › Standard Request
//! Headers, › Value Encoding): which methods carry `Mcp-Name` and from
//! which field, and the Base64 sentinel `=?base64?…?=` that carries a value
//! no plain header can.

use serde_json::Value;

/// The methods whose requests carry `Mcp-Name`, each with the `params`
/// field it mirrors: "`params.name` or `params.uri`" for "`tools/call`,
/// `resources/read`, `prompts/get` requests" (› Standard Request Headers).
pub const NAMED_METHODS: &[(&str, &str)] = &[
    ("tools/call", "name"),
    ("resources/read", "uri"),
    ("prompts/get", "name"),
];

/// The `Mcp-Name` value for a request `body`: its `params.name` (or
/// `params.uri` for `resources/read`), encoded by [`encode`]; `None` for
/// another method or when the field is missing or not a string.
pub fn mcp_name(body: &Value) -> Option<String> {
    let method = body.get("method")?.as_str()?;
    let (_, field) = NAMED_METHODS.iter().find(|(m, _)| *m == method)?;
    body.get("params")?.get(*field)?.as_str().map(encode)
}

/// `value` as a header value: as it is when it is plain (visible ASCII
/// 0x21–0x7E, space and tab, no space or tab at either end, and not itself
/// of the sentinel's shape), else `=?base64?{Base64 of its UTF-8}?=`.
/// "clients MUST use Base64 encoding of the UTF-8 representation", and
/// "MUST also Base64-encode any plain-ASCII value that matches the
/// sentinel pattern" (› Value Encoding).
pub fn encode(value: &str) -> String {
    let safe = value.chars().all(|c| c == ' ' || c == '\t' || c.is_ascii_graphic());
    let padded = value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']);
    let sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
    let plain = safe && !padded && !sentinel;
    if plain {
        value.to_string()
    } else {
        format!("=?base64?{}?=", base64(value.as_bytes()))
    }
}

/// Standard Base64 (RFC 4648 § 4) with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_specs_encoding_examples() {
        // The table of 2026-07-28 streamable-http › Value Encoding.
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(encode("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    }

    #[test]
    fn plain_values_pass_as_they_are() {
        assert_eq!(
            encode("file:///projects/myapp/config.json"),
            "file:///projects/myapp/config.json"
        );
        assert_eq!(encode("a b\tc"), "a b\tc", "inner space and tab are header-safe");
        assert_eq!(
            encode("=?base64?x"),
            "=?base64?x",
            "only the whole sentinel shape is encoded"
        );
        assert_eq!(encode("trailing\t"), "=?base64?dHJhaWxpbmcJ?=");
        assert_eq!(encode("del\u{7f}"), "=?base64?ZGVsfw==?=");
    }

    #[test]
    fn base64_pads_like_rfc_4648() {
        // RFC 4648 § 10 test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn mcp_name_mirrors_name_or_uri_of_the_three_methods() {
        let call = json!({"method": "tools/call", "params": {"name": "get_weather"}});
        assert_eq!(mcp_name(&call).as_deref(), Some("get_weather"));
        let read = json!({"method": "resources/read", "params": {"uri": "file:///a b/météo.txt"}});
        assert_eq!(
            mcp_name(&read).as_deref(),
            Some("=?base64?ZmlsZTovLy9hIGIvbcOpdMOpby50eHQ=?=")
        );
        let prompt = json!({"method": "prompts/get", "params": {"name": "résumé"}});
        assert_eq!(mcp_name(&prompt).as_deref(), Some("=?base64?csOpc3Vtw6k=?="));
        for body in [
            json!({"method": "tools/list", "params": {"name": "x"}}),
            json!({"method": "resources/read", "params": {"name": "x"}}),
            json!({"method": "tools/call", "params": {"name": 7}}),
            json!({"method": "tools/call"}),
        ] {
            assert_eq!(mcp_name(&body), None, "{body}");
        }
    }
}
