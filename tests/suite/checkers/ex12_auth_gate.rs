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
        "malformed auth header: 400",
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
        "other resource's token: 401",
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
            "    let claims = match introspect(config, &token) {\n        Ok(claims) => claims,\n        Err(why) => return HttpResponse::json(503, &json!({\"error\": format!(\"cannot validate the token: {why}\")})),\n    };\n",
            "    let claims = json!({\"active\": true, \"aud\": config.resource, \"scope\": \"notes:read notes:write\"});\n",
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

/// The anchor the verdict-order mutants put a moved check after: the end
/// of the scope check.
const AFTER_SCOPE: &str = "        return refuse(403, challenge, \"insufficient scope\");\n    }\n";
/// Where the token has been found, before it is introspected.
const AFTER_TOKEN: &str = "        Ok(Some(token)) => token,\n    };\n";

/// `AFTER_SCOPE` followed by `check`.
fn after_scope(check: &str) -> String {
    format!("{AFTER_SCOPE}{check}")
}

/// The expiry checked after the scope: an expired token without the scope
/// gets 403.
#[test]
fn m12_scope_before_expiry() {
    let moved = after_scope(
        "    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());\n    if claims[\"exp\"].as_u64().is_some_and(|exp| exp <= now) {\n        return refuse(401, format!(\"Bearer error=\\\"invalid_token\\\", {metadata}\"), \"expired\");\n    }\n",
    );
    caught(
        "mutant-12-scope-before-expiry",
        &[
            (
                "src/lib.rs",
                "    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());\n    if claims[\"exp\"].as_u64().is_some_and(|exp| exp <= now) {\n        return Err(\"the token has expired\");\n    }\n",
                "",
            ),
            ("src/lib.rs", AFTER_SCOPE, &moved),
        ],
        "invalid token: 401 first",
        &["expired (exp two minutes ago)", "got 403"],
    );
}

/// The audience checked after the scope: a foreign token without the
/// scope gets 403.
#[test]
fn m12_scope_before_audience() {
    let moved = after_scope(
        "    if claims[\"aud\"] != json!(config.resource) && !claims[\"aud\"].as_array().is_some_and(|a| a.contains(&json!(config.resource))) {\n        return refuse(401, format!(\"Bearer error=\\\"invalid_token\\\", {metadata}\"), \"foreign\");\n    }\n",
    );
    caught(
        "mutant-12-scope-before-audience",
        &[
            (
                "src/lib.rs",
                "    if !for_us {\n        return Err(\"the token was not issued for this server\");\n    }\n",
                "    let _ = for_us;\n",
            ),
            ("src/lib.rs", AFTER_SCOPE, &moved),
        ],
        "invalid token: 401 first",
        &["issued for another resource", "got 403"],
    );
}

/// `active` checked after the scope: a revoked token without the scope
/// gets 403.
#[test]
fn m12_scope_before_active() {
    let moved = after_scope(
        "    if claims[\"active\"] != json!(true) {\n        return refuse(401, format!(\"Bearer error=\\\"invalid_token\\\", {metadata}\"), \"inactive\");\n    }\n",
    );
    caught(
        "mutant-12-scope-before-active",
        &[
            (
                "src/lib.rs",
                "    if claims[\"active\"] != json!(true) {\n        return Err(\"the token is not active\");\n    }\n",
                "",
            ),
            ("src/lib.rs", AFTER_SCOPE, &moved),
        ],
        "invalid token: 401 first",
        &["revoked", "got 403"],
    );
}

/// The MCP headers checked once a token is present, before it is
/// validated: an expired token on a request without Mcp-Method gets 400.
#[test]
fn m12_headers_before_validation() {
    caught(
        "mutant-12-headers-before-validation",
        &[(
            "src/lib.rs",
            AFTER_TOKEN,
            &format!(
                "{AFTER_TOKEN}    if request.header(\"Mcp-Method\").is_none() {{\n        return HttpResponse::json(400, &error_response(None, HEADER_MISMATCH, \"Header mismatch: Mcp-Method is missing\"));\n    }}\n"
            ),
        )],
        "invalid token: 401 first",
        &["MUST validate access tokens before processing the request", "got 400"],
    );
}

/// The body judged before the token is validated: an expired token with a
/// body that is not JSON gets 400.
#[test]
fn m12_body_before_validation() {
    caught(
        "mutant-12-body-before-validation",
        &[(
            "src/lib.rs",
            AFTER_TOKEN,
            &format!(
                "{AFTER_TOKEN}    if serde_json::from_slice::<Value>(&request.body).is_err() {{\n        return HttpResponse::json(400, &error_response(None, PARSE_ERROR, \"Parse error\"));\n    }}\n"
            ),
        )],
        "invalid token: 401 first",
        &["a body that is not JSON", "got 400"],
    );
}

/// The MCP headers checked before the scope: a narrow token with a wrong
/// version header gets 400.
#[test]
fn m12_headers_before_scope() {
    caught(
        "mutant-12-headers-before-scope",
        &[(
            "src/lib.rs",
            "    // Whether it may do this.\n",
            "    if request.header(\"MCP-Protocol-Version\") != Some(\"2026-07-28\") {\n        return HttpResponse::json(400, &error_response(None, HEADER_MISMATCH, \"Header mismatch\"));\n    }\n",
        )],
        "too narrow: 403 first",
        &["Runtime Insufficient Scope Errors", "got 400"],
    );
}

/// The metadata route served before the Origin check.
#[test]
fn m12_metadata_before_origin() {
    caught(
        "mutant-12-metadata-before-origin",
        &[(
            "src/lib.rs",
            "    if let Some(origin) = request.header(\"Origin\")\n        && !is_local_origin(origin)\n    {\n        return HttpResponse::json(403, &json!({\"error\": format!(\"origin {origin} is not allowed\")}));\n    }\n    let path = request.path.split('?').next().unwrap_or(\"\");\n    if request.method == \"GET\" && path == METADATA_PATH {\n        return HttpResponse::json(200, &protected_resource_metadata(config));\n    }\n",
            "    let path = request.path.split('?').next().unwrap_or(\"\");\n    if request.method == \"GET\" && path == METADATA_PATH {\n        return HttpResponse::json(200, &protected_resource_metadata(config));\n    }\n    if let Some(origin) = request.header(\"Origin\")\n        && !is_local_origin(origin)\n    {\n        return HttpResponse::json(403, &json!({\"error\": format!(\"origin {origin} is not allowed\")}));\n    }\n",
        )],
        "check order",
        &["Origin header on all incoming connections", "got 200"],
    );
}

/// The auth scheme compared with `Bearer` exactly: `bearer <token>` is
/// taken for another scheme.
#[test]
fn m12_bearer_case_sensitive() {
    caught(
        "mutant-12-bearer-case",
        &[(
            "src/lib.rs",
            "if !scheme.eq_ignore_ascii_case(\"Bearer\") {",
            "if scheme != \"Bearer\" {",
        )],
        "Bearer in any case",
        &["authorization: bearer <token>", "RFC 9110 § 11.1", "got 401"],
    );
}

/// Header names compared with the spelling the code uses (`Authorization`).
#[test]
fn m12_header_names_exact() {
    caught(
        "mutant-12-names-exact",
        &[(
            "src/lib.rs",
            "self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))",
            "self.headers.iter().find(|(n, _)| n == name)",
        )],
        "Bearer in any case",
        &["authorization: bearer <token>", "Case Sensitivity", "got 401"],
    );
}

/// Header names compared in lower case only, the spelling the checkers'
/// HTTP client sends everywhere else.
#[test]
fn m12_header_names_lowercase() {
    caught(
        "mutant-12-names-lowercase",
        &[(
            "src/lib.rs",
            "self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))",
            "self.headers.iter().find(|(n, _)| *n == name.to_ascii_lowercase())",
        )],
        "Bearer in any case",
        &["Case Sensitivity", "got 400"],
    );
}

/// The Authorization headers counted by one spelling: `Authorization` and
/// `authorization` pass as one.
#[test]
fn m12_header_count_exact() {
    caught(
        "mutant-12-count-exact",
        &[(
            "src/lib.rs",
            "self.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).count()",
            "self.headers.iter().filter(|(n, _)| n == name).count()",
        )],
        "Bearer in any case",
        &["Authorization and authorization are one header name", "got 200"],
    );
}

/// A failed introspection taken for an inactive token: 401, and the client
/// re-authorizes for nothing (content audit A10).
#[test]
fn m12_introspection_failure_as_401() {
    caught(
        "mutant-12-introspection-401",
        &[(
            "src/lib.rs",
            "    let claims = match introspect(config, &token) {\n        Ok(claims) => claims,\n        Err(why) => return HttpResponse::json(503, &json!({\"error\": format!(\"cannot validate the token: {why}\")})),\n    };\n",
            "    let claims = introspect(config, &token).unwrap_or_else(|_| json!({\"active\": false}));\n",
        )],
        "introspection down: 503",
        &["course rule: introspection-down", "got 401", "re-authorize for nothing"],
    );
}
