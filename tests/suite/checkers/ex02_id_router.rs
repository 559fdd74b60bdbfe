//! Mutants of 02-id-router.
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{ROUTER, assert_caught, assert_failed, check_mutant, check_mutant_on};

#[test]
fn m02_router_drops_orphans_silently() {
    let find = "                eprintln!(\"dropping a response for id {}: no call with that id is in flight\", id.to_json());\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-silent-orphan",
        &[("src/lib.rs", find, "")],
        &["orphan logged and dropped"],
    );
    assert_failed(&report, "orphan logged and dropped", &["dropped without a word"]);
}

const ROUTER_LOOKUP: &str = "        match self.in_flight.remove(&id) {\n";

/// Responses delivered by arrival order (FIFO) instead of by id.
#[test]
fn m02_delivers_by_arrival_order() {
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-fifo",
        &[
            (
                "src/lib.rs",
                "    in_flight: HashMap<Id, String>,\n}",
                "    in_flight: HashMap<Id, String>,\n    order: Vec<Id>,\n}",
            ),
            (
                "src/lib.rs",
                "        self.in_flight.insert(id.clone(), tag.to_string());\n",
                "        self.in_flight.insert(id.clone(), tag.to_string());\n        self.order.push(id.clone());\n",
            ),
            (
                "src/lib.rs",
                ROUTER_LOOKUP,
                "        let oldest = if self.order.is_empty() { None } else { Some(self.order.remove(0)) };\n        match oldest.and_then(|o| self.in_flight.remove(&o)) {\n",
            ),
        ],
        &["out-of-order responses"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "out-of-order responses",
        &[
            "reached call",
            "c1",
            "not c2",
            "by the response's id, not by arrival order",
        ],
    );
}

/// A notification answered (C04-style `{"id":null,"result":{}}`).
#[test]
fn m02_answers_notifications() {
    let find = "                None => Routed::Notification { method: method.to_string(), params: frame.get(\"params\").cloned() },\n";
    let replace = "                None => Routed::Answer(json!({\"jsonrpc\": \"2.0\", \"id\": null, \"result\": {}}).to_string()),\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-answers-notifications",
        &[("src/lib.rs", find, replace)],
        &["notification not answered"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notification not answered",
        &["the router answered the notification", "MUST NOT reply"],
    );
}

/// A server's `ping` with the same id as a call in flight taken for that
/// call's response (ids looked up before the shape is decided).
#[test]
fn m02_server_ping_taken_for_a_response() {
    let find = "        if let Some(method) = frame.get(\"method\").and_then(Value::as_str) {\n";
    let replace = format!(
        "        if let Some(id) = frame.get(\"id\").and_then(Id::from_json)\n            && let Some(tag) = self.in_flight.remove(&id)\n        {{\n            let outcome = match frame.get(\"error\") {{ Some(e) => Err(e.clone()), None => Ok(frame.get(\"result\").cloned().unwrap_or(Value::Null)) }};\n            return Routed::Reply {{ tag, id, outcome }};\n        }}\n{find}"
    );
    let report = check_mutant(ROUTER, "mutant-02-ping-as-response", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "server request is not a response",
        &[
            "the server's ping was taken for the response to c1",
            "same id",
            "own id space",
        ],
    );
    for other in [
        "out-of-order responses",
        "error reaches its call",
        "orphan logged and dropped",
    ] {
        assert_eq!(
            report.cases.iter().find(|c| c.name == other).unwrap().status,
            Status::Passed,
            "{}",
            summary(&report)
        );
    }
}

const NEXT_ID: &str = "        self.next_id += 1;\n        let id = Id::Int(self.next_id);\n";

/// Ids made from the number of calls in flight: a new call takes the id of
/// one still in flight.
#[test]
fn m02_id_from_the_number_of_calls_in_flight() {
    let replace = "        let id = Id::Int(self.in_flight.len() as i64 + 1);\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-id-in-flight-count",
        &[("src/lib.rs", NEXT_ID, replace)],
        &["ids never reused"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids never reused",
        &["which an earlier call already used", "never reused within a session"],
    );
}

/// Ids reused once answered: the smallest id no call in flight uses.
#[test]
fn m02_id_reused_after_its_call_was_answered() {
    let replace = "        let id = Id::Int((1..).find(|n| !self.in_flight.contains_key(&Id::Int(*n))).unwrap());\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-id-smallest-free",
        &[("src/lib.rs", NEXT_ID, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids never reused",
        &["c3 got id 1, which an earlier call already used"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "two calls, two ids")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// C24: a response kept in the table, so a late duplicate is delivered
/// again.
#[test]
fn m02_delivers_a_duplicate_response_again() {
    let replace = "        match self.in_flight.get(&id).cloned() {\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-no-remove",
        &[("src/lib.rs", ROUTER_LOOKUP, replace)],
        &["orphan logged and dropped"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &["c1 was already answered", "is an orphan"],
    );
}

/// C02: a request with `"id": null` taken for a notification.
#[test]
fn m02_null_id_request_taken_for_a_notification() {
    let find = "            return match frame.get(\"id\") {\n";
    let replace = "            return match frame.get(\"id\").filter(|id| !id.is_null()) {\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-null-id-notification",
        &[("src/lib.rs", find, replace)],
        &["invalid lines dropped"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines dropped",
        &["a request with a null id is invalid"],
    );
}

/// `params: None` written as `"params": null`.
#[test]
fn m02_call_writes_null_params() {
    let find =
        "        if let Some(params) = params {\n            frame.insert(\"params\".into(), params);\n        }\n";
    let replace = "        frame.insert(\"params\".into(), json!(params));\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-null-params",
        &[("src/lib.rs", find, replace)],
        &["two calls, two ids"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "two calls, two ids",
        &["call(\"c3\", …)", "not a valid request", "\"params\" must be an object"],
    );
}

/// 02 has no case where a response carries the right id with the wrong
/// type, so a router that compares ids as text (as a `HashMap<String, _>`
/// keyed by the id's text would) passes every case. 01 catches the same
/// mistake in `accept_response` ("ids match exactly").
#[test]
fn m02_router_compares_ids_as_strings() {
    let replace = "        let text = |i: &Id| match i { Id::Int(n) => n.to_string(), Id::Str(s) => s.clone() };\n        let id = self.in_flight.keys().find(|k| text(k) == text(&id)).cloned().unwrap_or(id);\n        match self.in_flight.remove(&id) {\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-ids-as-strings",
        &[("src/lib.rs", ROUTER_LOOKUP, replace)],
    );
    assert_caught(&report);
}

const OUTCOME: &str = "            (Some(result), None) => Ok(result.clone()),\n";
const MALFORMED: &[&str] = &["malformed responses invalid"];

/// A router that looks for `result` first: a response with both members
/// is taken as a success.
#[test]
fn m02_result_checked_first() {
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-result-first",
        &[(
            "src/lib.rs",
            OUTCOME,
            "            (Some(result), _) => Ok(result.clone()),\n",
        )],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with both result and error was routed to c1 as its result",
            "both members MUST NOT be included",
        ],
    );
}

/// A router that never looks at `jsonrpc`.
#[test]
fn m02_jsonrpc_ignored() {
    let find = "        if frame.get(\"jsonrpc\") != Some(&json!(\"2.0\")) {\n            return invalid(line, \"jsonrpc must be \\\"2.0\\\"\");\n        }\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-jsonrpc-ignored",
        &[("src/lib.rs", find, "")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with jsonrpc \"1.0\" was routed to c1 as its result",
            "MUST be exactly 2.0",
        ],
    );
}

/// A router that takes any `error` member for an error object.
#[test]
fn m02_any_error_member_is_an_error() {
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-error-unchecked",
        &[("src/lib.rs", " if error_object(error) => Err", " => Err")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with error without code was routed to c1 as its error",
            "Error codes MUST be integers",
        ],
    );
}

/// A router that takes a frame with neither member for an empty success.
#[test]
fn m02_neither_member_is_a_success() {
    let find =
        "            (None, None) => return invalid(line, \"neither a request, a notification nor a response\"),\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-neither-success",
        &[("src/lib.rs", find, "            (None, None) => Ok(Value::Null),\n")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &["with neither result nor error was routed to c1"],
    );
}

/// A router that drops a result with a forbidden id as an orphan instead
/// of reporting it as invalid.
#[test]
fn m02_forbidden_id_taken_for_an_orphan() {
    let find = "                None => return invalid(line, \"a response id must be a string or an integer\"),\n";
    let replace = "                None => return Routed::Orphan { id: None },\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-forbidden-id-orphan",
        &[("src/lib.rs", find, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &["with id null was dropped as an orphan", "MUST include the same ID"],
    );
}
