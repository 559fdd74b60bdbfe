//! Mutants of 06-http-front-door: Streamable HTTP, 2026-07-28.
//! Each solution's unmutated control is in `controls`.

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
