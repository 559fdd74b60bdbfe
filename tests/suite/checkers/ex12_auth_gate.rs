//! Mutants of 12-auth-gate: an MCP server as an OAuth resource server
//! (2026-07-28 basic/authorization). One mutant per rule, each run on the
//! cases it targets; the unmutated control is in `controls`.

use crate::helpers::{AUTH, assert_caught, assert_failed, check_mutant_on};

/// Checks a mutant of the 12 solution on `case` alone, and that the case
/// fails with every fragment in its reason.
fn caught(package: &str, patches: &[(&str, &str, &str)], case: &str, fragments: &[&str]) {
    let report = check_mutant_on(AUTH, package, patches, &[case]);
    assert_caught(&report);
    assert_failed(&report, case, fragments);
}

/// The metadata served at the root well-known path only, not with the
/// endpoint's path after it.
#[test]
fn m12_metadata_at_the_root() {
    caught(
        "mutant-12-metadata-root",
        &[(
            "src/lib.rs",
            "pub const METADATA_PATH: &str = \"/.well-known/oauth-protected-resource/mcp\";",
            "pub const METADATA_PATH: &str = \"/.well-known/oauth-protected-resource\";",
        )],
        "Protected Resource Metadata",
        &[
            "/.well-known/oauth-protected-resource followed by the endpoint's path",
            "got 404",
        ],
    );
}

/// A 401 whose challenge does not say where the metadata is.
#[test]
fn m12_401_without_resource_metadata() {
    caught(
        "mutant-12-no-resource-metadata",
        &[(
            "src/lib.rs",
            "format!(\"Bearer {metadata}, scope=\\\"notes:read\\\"\")",
            "\"Bearer realm=\\\"notes\\\"\".to_string()",
        )],
        "no token: 401",
        &["resource_metadata=", "RFC 9728"],
    );
}

/// A token taken from the query string when the header has none.
#[test]
fn m12_query_token_accepted() {
    caught(
        "mutant-12-query-token",
        &[(
            "src/lib.rs",
            "let Some(value) = request.header(\"Authorization\") else { return Ok(None) };",
            "let Some(value) = request.header(\"Authorization\") else { return Ok(request.query(\"access_token\").map(String::from)) };",
        )],
        "token in the query string",
        &["MUST NOT be included in the URI query string", "It was served"],
    );
}

/// `Authorization: Bearer` with no token taken as no header (401, not 400).
#[test]
fn m12_malformed_header_as_none() {
    caught(
        "mutant-12-malformed-none",
        &[(
            "src/lib.rs",
            "return if value.eq_ignore_ascii_case(\"Bearer\") { Err(\"Bearer without a token\") } else { Ok(None) };",
            "return Ok(None);",
        )],
        "malformed Authorization: 400",
        &[
            "Authorization: Bearer (and no token)",
            "Malformed authorization request",
            "got 401",
        ],
    );
}

/// A token in the header and the query string: the header's is used.
#[test]
fn m12_two_places_accepted() {
    caught(
        "mutant-12-two-places",
        &[(
            "src/lib.rs",
            "    if request.query(\"access_token\").is_some() {\n        return Err(\"the token was sent in two places\");\n    }\n",
            "",
        )],
        "token in two places: 400",
        &["more than one method", "got 200"],
    );
}

/// `active` never read: a revoked token that still names this server passes.
#[test]
fn m12_active_ignored() {
    caught(
        "mutant-12-active-ignored",
        &[(
            "src/lib.rs",
            "if claims[\"active\"] != json!(true) {",
            "if claims[\"active\"].is_null() && claims[\"aud\"].is_null() {",
        )],
        "inactive token: 401",
        &["a revoked token", "Invalid or expired tokens MUST receive a HTTP 401"],
    );
}

/// The audience never compared with the canonical URI.
#[test]
fn m12_audience_ignored() {
    caught(
        "mutant-12-audience-ignored",
        &[(
            "src/lib.rs",
            "    if !for_us {\n        return Err(\"the token was not issued for this server\");\n    }\n",
            "    let _ = for_us;\n",
        )],
        "token for another resource: 401",
        &["intended audience", "another resource"],
    );
}

/// `exp` trusted to introspection: an expired token that the answer calls
/// active passes.
#[test]
fn m12_expiry_ignored() {
    caught(
        "mutant-12-expiry-ignored",
        &[(
            "src/lib.rs",
            "if claims[\"exp\"].as_u64().is_some_and(|exp| exp <= now) {",
            "if claims[\"exp\"].as_u64().is_some_and(|exp| exp == now) {",
        )],
        "expired token: 401",
        &["exp is two minutes ago", "RFC 7662 § 4"],
    );
}

/// A missing scope answered 401, as if the token were bad.
#[test]
fn m12_scope_as_401() {
    caught(
        "mutant-12-scope-401",
        &[(
            "src/lib.rs",
            "return refuse(403, challenge, \"insufficient scope\");",
            "return refuse(401, challenge, \"insufficient scope\");",
        )],
        "insufficient scope: 403",
        &["Runtime Insufficient Scope Errors", "got 401"],
    );
}

/// The 403 names only the scope the token lacks, not all the call needs.
#[test]
fn m12_scope_names_only_the_missing_one() {
    caught(
        "mutant-12-scope-partial",
        &[(
            "src/lib.rs",
            "let scope = needed.join(\" \");",
            "let scope = needed.iter().filter(|s| !granted.contains(*s)).copied().collect::<Vec<_>>().join(\" \");",
        )],
        "insufficient scope: 403",
        &["every scope add_note needs"],
    );
}

/// `aud` compared as a string only: a list holding the URI is refused.
#[test]
fn m12_audience_list_refused() {
    caught(
        "mutant-12-audience-list",
        &[(
            "src/lib.rs",
            "Value::Array(auds) => auds.iter().any(|aud| *aud == config.resource.as_str()),",
            "Value::Array(_) => false,",
        )],
        "a valid token is served",
        &["aud is a list holding this server's canonical URI", "got 401"],
    );
}

/// The introspection request sent without the server's client credentials.
#[test]
fn m12_introspection_unauthenticated() {
    caught(
        "mutant-12-introspection-anonymous",
        &[(
            "src/lib.rs",
            "http_post_form(endpoint, &basic, &[",
            "http_post_form(endpoint, \"\", &[",
        )],
        "introspection per RFC 7662",
        &["refused with 401", "client credentials", "RFC 7662 § 2.1"],
    );
}

/// Any token trusted, the authorization server never asked.
#[test]
fn m12_token_never_introspected() {
    caught(
        "mutant-12-never-introspected",
        &[(
            "src/lib.rs",
            "let claims = introspect(config, &token).unwrap_or_else(|_| json!({\"active\": false}));",
            "let claims = json!({\"active\": true, \"aud\": config.resource, \"scope\": \"notes:read notes:write\"});",
        )],
        "introspection per RFC 7662",
        &["never asked the introspection endpoint"],
    );
}

/// The client's token passed through to the upstream API.
#[test]
fn m12_token_passthrough() {
    caught(
        "mutant-12-passthrough",
        &[(
            "src/lib.rs",
            "    let _ = request;\n    format!(\"Bearer {}\", config.upstream_token)\n",
            "    let _ = config;\n    request.header(\"Authorization\").unwrap_or(\"\").to_string()\n",
        )],
        "no token passthrough",
        &["the client's token, passed through", "MUST NOT pass through"],
    );
}

/// The MCP headers checked before authorization: an unauthenticated
/// request learns about the server's headers.
#[test]
fn m12_headers_before_authorization() {
    caught(
        "mutant-12-headers-first",
        &[(
            "src/lib.rs",
            "    // Where the token is: the Authorization header, and nowhere else.\n",
            "    if request.header(\"Mcp-Method\").is_none() {\n        return HttpResponse::json(400, &error_response(None, HEADER_MISMATCH, \"Header mismatch\"));\n    }\n",
        )],
        "check order",
        &["MUST validate access tokens before processing the request", "got 400"],
    );
}
