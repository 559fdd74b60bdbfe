//! Mutants of 06-http-front-door: Streamable HTTP, 2026-07-28.
//! Each solution's unmutated control is in `controls`.

use crate::common::summary;
use crate::helpers::{HTTP, assert_caught, assert_failed, check_mutant, check_mutant_on};

/// A notification answered with 200 and a JSON body (C04).
#[test]
fn m06_notification_answered_with_200() {
    let find = "        return HttpResponse::empty(202);\n";
    let replace = "        return HttpResponse::json(200, &json!({\"jsonrpc\": \"2.0\", \"result\": {}}));\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-notification-200",
        &[("src/lib.rs", find, replace)],
        &["notification: 202"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notification: 202",
        &["answered with 200", "202 Accepted with no body"],
    );
}

/// GET served like POST (a legacy GET stream that 2026-07-28 removed).
#[test]
fn m06_get_allowed() {
    let report = check_mutant_on(
        HTTP,
        "mutant-06-get",
        &[(
            "src/lib.rs",
            "    if request.method != \"POST\" {\n",
            "    if request.method == \"DELETE\" {\n",
        )],
        &["only POST /mcp"],
    );
    assert_caught(&report);
    assert_failed(&report, "only POST /mcp", &["GET /mcp should get 405"]);
}

/// The headers never compared with the body.
#[test]
fn m06_headers_trusted() {
    let find = "    if let Err(reason) = check_headers(request, &message) {\n";
    let replace = "    if let Err(reason) = Ok::<(), String>(()) {\n";
    let report = check_mutant(HTTP, "mutant-06-headers-trusted", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    for name in [
        "Mcp-Method must match",
        "Mcp-Name must match",
        "version header must match",
    ] {
        assert_failed(&report, name, &["400 with error code -32020"]);
    }
}

/// `_meta` never checked: a request that says nothing of the client's
/// capabilities is served (the 06 solution had this bug until the
/// conformance suite's server-stateless scenario caught it).
#[test]
fn m06_meta_not_required() {
    let find = "    if let Err(reason) = check_meta(&message) {\n";
    let replace = "    if let Err(reason) = Ok::<(), String>(()) {\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-meta-trusted",
        &[("src/lib.rs", find, replace)],
        &["_meta fields required"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "_meta fields required",
        &[
            "io.modelcontextprotocol/clientCapabilities in params._meta",
            "400 with error code -32602",
        ],
    );
}

/// Mcp-Name checked for presence only.
#[test]
fn m06_name_not_compared() {
    let report = check_mutant_on(
        HTTP,
        "mutant-06-name",
        &[(
            "src/lib.rs",
            "        if name != body_name {\n",
            "        if name.is_empty() {\n",
        )],
        &["Mcp-Name must match"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "Mcp-Name must match",
        &["A gateway may route or authorize by the header"],
    );
}

/// The base64 sentinel compared undecoded.
#[test]
fn m06_base64_not_decoded() {
    let report = check_mutant_on(
        HTTP,
        "mutant-06-no-base64",
        &[(
            "src/lib.rs",
            "let Some(name) = decode_header_value(header) else",
            "let Some(name) = Some(header.to_string()) else",
        )],
        &["base64 Mcp-Name decoded"],
    );
    assert_caught(&report);
    assert_failed(&report, "base64 Mcp-Name decoded", &["is \"echo\" once decoded"]);
}

/// The Origin header ignored (DNS rebinding).
#[test]
fn m06_origin_ignored() {
    let report = check_mutant_on(
        HTTP,
        "mutant-06-origin",
        &[(
            "src/lib.rs",
            "        && !is_local_origin(origin)\n",
            "        && origin.is_empty()\n",
        )],
        &["foreign Origin: 403"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "foreign Origin: 403",
        &["must get 403 Forbidden", "DNS rebinding"],
    );
}

/// The right error code with the wrong HTTP status.
#[test]
fn m06_unsupported_version_with_status_200() {
    let find = "        return HttpResponse::json(400, &error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION,";
    let replace = "        return HttpResponse::json(200, &error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION,";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-status-200",
        &[("src/lib.rs", find, replace)],
        &["unsupported version"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "unsupported version",
        &["the error code is right, but the HTTP status is 200, not 400"],
    );
}

/// An unknown method answered 200 with a JSON-RPC error.
#[test]
fn m06_unknown_method_with_status_200() {
    let report = check_mutant_on(
        HTTP,
        "mutant-06-unknown-200",
        &[(
            "src/lib.rs",
            "        _ => HttpResponse::json(404,",
            "        _ => HttpResponse::json(200,",
        )],
        &["unknown method: 404"],
    );
    assert_caught(&report);
    assert_failed(&report, "unknown method: 404", &["HTTP status is 200, not 404"]);
}

/// The response sent first on the SSE stream, the progress after it.
#[test]
fn m06_response_before_progress() {
    let find = "            let mut stream = String::new();\n";
    let replace = "            let mut stream = sse_event(&response);\n";
    let drop_last = (
        "src/lib.rs",
        "            stream.push_str(&sse_event(&response));\n",
        "",
    );
    let report = check_mutant_on(
        HTTP,
        "mutant-06-response-first",
        &[("src/lib.rs", find, replace), drop_last],
        &["progress as an SSE stream"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress as an SSE stream",
        &["something came after the response"],
    );
}

/// A request whose id is null served (no id check at all).
#[test]
fn m06_null_id_served() {
    let find = "    if !(id.is_string() || id.is_i64() || id.is_u64()) {\n";
    let replace = "    if !(id.is_string() || id.is_i64() || id.is_u64() || id.is_null()) {\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-null-id-served",
        &[("src/lib.rs", find, replace)],
        &["request ids"],
    );
    assert_caught(&report);
    assert_failed(&report, "request ids", &["whose id is null", "was served"]);
}

/// Ids kept as f64.
#[test]
fn m06_ids_through_f64() {
    let find = "    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result})\n";
    let replace = "    json!({\"jsonrpc\": \"2.0\", \"id\": id.as_f64().map(|f| json!(f)).unwrap_or(id.clone()), \"result\": result})\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-ids-f64",
        &[("src/lib.rs", find, replace)],
        &["request ids"],
    );
    assert_caught(&report);
    assert_failed(&report, "request ids", &["zero", "floating-point"]);
}

/// An Origin accepted when it equals the request's Host: a DNS-rebinding
/// request passes, since it names the attacker's site in both.
#[test]
fn m06_origin_matching_host_accepted() {
    let find = "        && !is_local_origin(origin)\n";
    let replace = "        && !is_local_origin(origin)\n        && request.header(\"Host\").is_none_or(|host| origin.split_once(\"://\").map(|(_, h)| h) != Some(host))\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-origin-equals-host",
        &[("src/lib.rs", find, replace)],
        &["foreign Origin: 403"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "foreign Origin: 403",
        &[
            "and Host evil.example:",
            "an Origin that matches the Host proves nothing",
        ],
    );
    // The Host the reason names is in the transcript, as sent.
    let case = report.cases.iter().find(|c| c.name == "foreign Origin: 403").unwrap();
    assert!(
        case.transcript.iter().any(|e| e.line.starts_with("POST /mcp · ")
            && e.line.contains("Origin: http://evil.example:")
            && e.line.contains("Host: evil.example:")),
        "{}",
        summary(&report)
    );
}

/// Only `http://localhost` and `http://127.0.0.1` trusted: an https page
/// or one on [::1] of this machine is refused.
#[test]
fn m06_loopback_origin_refused() {
    let find = "    let Some(rest) = origin.strip_prefix(\"http://\").or_else(|| origin.strip_prefix(\"https://\")) else { return false };\n";
    let replace = "    let Some(rest) = origin.strip_prefix(\"http://\") else { return false };\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-https-origin-refused",
        &[("src/lib.rs", find, replace)],
        &["loopback Origin served"],
    );
    assert_caught(&report);
    assert_failed(&report, "loopback Origin served", &["Origin https://localhost:8443"]);
}

/// `[::1]` not recognised as loopback.
#[test]
fn m06_ipv6_loopback_origin_refused() {
    let find = "    matches!(host, \"localhost\" | \"127.0.0.1\" | \"[::1]\") && port_ok\n";
    let replace = "    matches!(host, \"localhost\" | \"127.0.0.1\") && port_ok\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-ipv6-origin-refused",
        &[("src/lib.rs", find, replace)],
        &["loopback Origin served"],
    );
    assert_caught(&report);
    assert_failed(&report, "loopback Origin served", &["Origin http://[::1]:"]);
}

/// server/discover not served: "Servers MUST implement" it.
#[test]
fn m06_discover_missing() {
    let find = "        \"server/discover\" => HttpResponse::json(200, &result(id, discover())),\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-no-discover",
        &[("src/lib.rs", find, "")],
        &["discover and cache hints"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "discover and cache hints",
        &[
            "server/discover is served: 200 with Content-Type application/json",
            "Here it got 404",
            "with error -32601",
        ],
    );
}

/// tools/list without its caching hints.
#[test]
fn m06_tools_list_without_cache_hints() {
    let find = "json!({\"tools\": tools(), \"ttlMs\": 0, \"cacheScope\": \"public\"})";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-no-cache-hints",
        &[("src/lib.rs", find, "json!({\"tools\": tools()})")],
        &["discover and cache hints"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "discover and cache hints",
        &["the tools/list result needs", "Servers MUST include caching hints"],
    );
}

/// Errors without a message.
#[test]
fn m06_error_without_message() {
    let find = "    let mut error = json!({\"code\": code, \"message\": message});\n";
    let replace = "    let _ = message;\n    let mut error = json!({\"code\": code});\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-error-no-message",
        &[("src/lib.rs", find, replace)],
        &["Mcp-Method must match"],
    );
    assert_caught(&report);
    assert_failed(&report, "Mcp-Method must match", &["the error has no message"]);
}

/// MCP-Protocol-Version compared only when present.
#[test]
fn m06_version_header_optional() {
    let find = "        None => return Err(\"the MCP-Protocol-Version header is missing\".into()),\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-version-header-optional",
        &[("src/lib.rs", find, "        None => {}\n")],
        &["version header must match"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "version header must match",
        &["MUST reject a request without the header"],
    );
}

/// Mcp-Name compared only when present.
#[test]
fn m06_name_header_optional() {
    let find = "else { return Err(\"the Mcp-Name header is missing\".into()) };";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-name-header-optional",
        &[("src/lib.rs", find, "else { return Ok(()) };")],
        &["Mcp-Name must match"],
    );
    assert_caught(&report);
    assert_failed(&report, "Mcp-Name must match", &["one without it is rejected"]);
}

/// Ids kept as f64 (1 comes back as 1.0), in the cases that look for a
/// response by its id: each names the change, with the difference at
/// `/id`, rather than "no response" or a wording about something else.
/// The transcript shows every request header, Host included.
#[test]
fn m06_ids_through_f64_named_in_every_case() {
    let find = "    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result})\n";
    let replace = "    json!({\"jsonrpc\": \"2.0\", \"id\": id.as_f64().map(|f| json!(f)).unwrap_or(id.clone()), \"result\": result})\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-ids-f64",
        &[("src/lib.rs", find, replace)],
        &["POST answered with JSON", "progress as an SSE stream"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "POST answered with JSON",
        &[
            "a well-formed tools/call is served, and the body is the JSON-RPC response to request 1",
            "the response's id is 1.0, not 1: echo the id exactly, in type and value",
        ],
    );
    let post = &report.cases[0];
    let differences: Vec<String> = post.differences.iter().map(|d| d.describe()).collect();
    assert_eq!(differences, ["/id: expected 1, got 1.0"], "{}", summary(&report));
    let request = &post.transcript[0].line;
    for header in [
        "POST /mcp · Host: 127.0.0.1:",
        "· Mcp-Method: tools/call",
        "· Mcp-Name: echo",
        "· Accept: ",
    ] {
        assert!(request.contains(header), "{header:?} not in {request}");
    }
    assert_failed(
        &report,
        "progress as an SSE stream",
        &["the response's id is 11.0, not 11"],
    );
}

/// Mcp-Name required on every method, tools/list included: a request with
/// a legal id gets -32020, and `request ids` quotes that error instead of
/// blaming the id.
#[test]
fn m06_name_required_on_every_method() {
    let find = "        _ => None,\n    };\n    if let Some(field) = name_field {\n";
    let replace = "        _ => Some(\"name\"),\n    };\n    if let Some(field) = name_field {\n";
    let report = check_mutant_on(
        HTTP,
        "mutant-06-name-everywhere",
        &[("src/lib.rs", find, replace)],
        &["request ids", "discover and cache hints"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids",
        &[
            "a request whose id is zero, 0, got error -32020 (\"Header mismatch: the Mcp-Name header is missing\")",
            "the id is legal, so the refusal is about something else in the request",
        ],
    );
    assert_failed(
        &report,
        "discover and cache hints",
        &[
            "server/discover is served: 200 with Content-Type application/json. Here it got 400",
            "with error -32020",
        ],
    );
}

/// Checks a mutant of the 06 solution on "header names in any case" alone,
/// and that it fails with every fragment in its reason.
fn caught_by_any_case(package: &str, find: &str, replace: &str, fragments: &[&str]) {
    let report = check_mutant_on(
        HTTP,
        package,
        &[("src/lib.rs", find, replace)],
        &["header names in any case"],
    );
    assert_caught(&report);
    assert_failed(&report, "header names in any case", fragments);
}

/// The header helper compares names with the spelling the code uses
/// (`MCP-Protocol-Version`): a request in lower case misses them all.
#[test]
fn m06_header_names_exact() {
    caught_by_any_case(
        "mutant-06-names-exact",
        "self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))",
        "self.headers.iter().find(|(n, _)| n == name)",
        &["in lower case", "Case Sensitivity"],
    );
}

/// The header helper compares names in lower case only, the spelling the
/// checkers' HTTP client sends everywhere else.
#[test]
fn m06_header_names_lowercase() {
    caught_by_any_case(
        "mutant-06-names-lowercase",
        "self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))",
        "self.headers.iter().find(|(n, _)| *n == name.to_ascii_lowercase())",
        &["in UPPER case", "Case Sensitivity"],
    );
}

/// Origin looked up by one spelling: a foreign `ORIGIN` is served.
#[test]
fn m06_origin_one_spelling() {
    caught_by_any_case(
        "mutant-06-origin-spelling",
        "if let Some(origin) = request.header(\"Origin\")",
        "if let Some(origin) = request.headers.iter().find(|(n, _)| n == \"origin\").map(|(_, v)| v.as_str())",
        &["ORIGIN: http://evil.example", "MUST respond with HTTP 403"],
    );
}

/// Checks a mutant of the 06 solution on "Mcp-Name from params.uri" alone.
fn caught_by_uri_name(package: &str, find: &str, replace: &str, fragments: &[&str]) {
    let report = check_mutant_on(
        HTTP,
        package,
        &[("src/lib.rs", find, replace)],
        &["Mcp-Name from params.uri"],
    );
    assert_caught(&report);
    assert_failed(&report, "Mcp-Name from params.uri", fragments);
}

/// Mcp-Name compared with `params.name` on resources/read too (issue 34
/// item 1): the URI in the header never matches.
#[test]
fn m06_resource_name_from_params_name() {
    caught_by_uri_name(
        "mutant-06-uri-as-name",
        "        \"resources/read\" => Some(\"uri\"),\n",
        "        \"resources/read\" => Some(\"name\"),\n",
        &["Mcp-Name mirrors params.uri", "it got 400"],
    );
}

/// Mcp-Name checked on tools/call and prompts/get only: a resources/read
/// whose header names another URI goes through.
#[test]
fn m06_resource_name_unchecked() {
    caught_by_uri_name(
        "mutant-06-uri-unchecked",
        "        \"resources/read\" => Some(\"uri\"),\n",
        "",
        &["MUST reject a disagreement", "it got 404"],
    );
}
