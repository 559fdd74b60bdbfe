//! Schema fidelity: frames that every hand-written case accepts but that
//! break the official types of their revision (`check::schema`).

use crate::common::summary;
use crate::helpers::{GATE, SUPERVISOR, TOOLS, assert_caught, assert_failed, check_mutant};

/// serverInfo without its required `version` (Implementation, 2025-11-25).
#[test]
fn schema_03_server_info_without_version() {
    let find = "            \"serverInfo\": {\"name\": \"handshake-gate\", \"version\": \"0.1.0\"},\n";
    let replace = "            \"serverInfo\": {\"name\": \"handshake-gate\"},\n";
    let report = check_mutant(GATE, "mutant-03-schema-server-info", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    // The first case checks serverInfo by hand; every later case meets the
    // same frame through the schema check.
    assert_failed(
        &report,
        "older supported: echoed",
        &["breaks the official MCP schema at result.serverInfo: missing `version` (InitializeResult, 2025-11-25)"],
    );
}

/// A listed resource without its required `name`: no hand-written case
/// looks at resource names, the schema does (Resource, 2025-11-25).
#[test]
fn schema_07_resource_without_name() {
    let find =
        "        json!({\"uri\": \"file:///images/pixel.png\", \"name\": \"pixel\", \"mimeType\": \"image/png\"}),\n";
    let replace = "        json!({\"uri\": \"file:///images/pixel.png\", \"mimeType\": \"image/png\"}),\n";
    let report = check_mutant(
        TOOLS,
        "mutant-07-schema-resource-name",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    let reasons: Vec<&str> = report.cases.iter().filter_map(|c| c.reason.as_deref()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("result.resources[1]: missing `name` (ListResourcesResult, 2025-11-25)")),
        "{}",
        summary(&report)
    );
}

/// A cancellation whose reason is a number, not a string.
#[test]
fn schema_09_cancel_reason_not_a_string() {
    let find = "\"params\": {\"requestId\": id, \"reason\": \"timed out\"}";
    let replace = "\"params\": {\"requestId\": id, \"reason\": 408}";
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-schema-cancel-reason",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    let reasons: Vec<&str> = report.cases.iter().filter_map(|c| c.reason.as_deref()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r
                .contains("params.reason: is the integer 408, expected a string (CancelledNotification, 2025-11-25)")),
        "{}",
        summary(&report)
    );
}
