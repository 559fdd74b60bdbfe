//! Mutants of 02-id-router.
//! Each solution's unmutated control is in `controls`.
//!
//! The exercise gives the learner the classifier (`src/frame.rs`,
//! `classify(line) -> Kind`): every mutant plants its mistake in the
//! learner's file, `src/lib.rs` (the table of calls in flight, fresh ids,
//! matching a response to its call, orphans, answering the peer's requests,
//! handing notifications on), never in the given classifier.

use mcplings::check::{CheckReport, Status};

use crate::common::summary;
use crate::helpers::{ROUTER, assert_caught, assert_failed, check_mutant, check_mutant_on};

/// The cases of `report` that did not pass, in course order.
fn failed_cases(report: &CheckReport) -> Vec<&str> {
    report
        .cases
        .iter()
        .filter(|c| c.status != Status::Passed)
        .map(|c| c.name.as_str())
        .collect()
}

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

/// Responses matched by arrival order behind an id check: the router sees
/// that the response's id is in flight, then answers the oldest call in
/// flight (a queue beside the table). Only responses that overtake each
/// other show it: an unknown id is still an orphan.
#[test]
fn m02_oldest_call_answered_after_an_id_check() {
    let report = check_mutant(
        ROUTER,
        "mutant-02-oldest-after-check",
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
                "        let id = if self.in_flight.contains_key(&id) {\n            self.order.retain(|o| self.in_flight.contains_key(o));\n            self.order.remove(0)\n        } else {\n            id\n        };\n        match self.in_flight.remove(&id) {\n",
            ),
        ],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "out-of-order responses",
        &["reached call c1, not c2", "by the response's id, not by arrival order"],
    );
    assert_eq!(
        failed_cases(&report),
        ["out-of-order responses"],
        "{}",
        summary(&report)
    );
}

/// A notification answered (C04-style `{"id":null,"result":{}}`).
#[test]
fn m02_answers_notifications() {
    let find = "            Kind::Notification { method, params } => Routed::Notification { method, params },\n";
    let replace = "            Kind::Notification { .. } => Routed::Answer(json!({\"jsonrpc\": \"2.0\", \"id\": null, \"result\": {}}).to_string()),\n";
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

/// A notification without `params` handed on with empty params: the
/// handler can no longer tell `{}` from nothing.
#[test]
fn m02_notification_gets_params_it_did_not_have() {
    let find = "            Kind::Notification { method, params } => Routed::Notification { method, params },\n";
    let replace = "            Kind::Notification { method, params } => Routed::Notification { method, params: Some(params.unwrap_or_else(|| json!({}))) },\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-notification-empty-params",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notification not answered",
        &["params stay absent when it has none"],
    );
    assert_eq!(
        failed_cases(&report),
        ["notification not answered"],
        "{}",
        summary(&report)
    );
}

/// Every request from the server answered with an empty result, as `ping`
/// is: a method this client does not know gets no -32601.
#[test]
fn m02_every_server_request_answered_like_ping() {
    let find = "fn answer(id: &Id, method: &str) -> String {\n    let frame = if method == \"ping\" {\n";
    let replace = "fn answer(id: &Id, _method: &str) -> String {\n    let frame = if true {\n";
    let report = check_mutant(ROUTER, "mutant-02-every-request-ping", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "server ping is not a reply",
        &["code -32601 (Method not found)"],
    );
    assert_eq!(
        failed_cases(&report),
        ["server ping is not a reply"],
        "{}",
        summary(&report)
    );
}

/// Where `receive` starts: the mutants that go around the classifier put
/// their code before it.
const CLASSIFY: &str = "        match classify(line) {\n";

/// A server's `ping` with the same id as a call in flight taken for that
/// call's response: `receive` looks any frame's id up in the table before
/// it classifies the line.
#[test]
fn m02_server_ping_taken_for_a_response() {
    let replace = format!(
        "        if let Ok(frame) = serde_json::from_str::<Value>(line)\n            && let Some(id) = frame.get(\"id\").and_then(Id::from_json)\n            && let Some(tag) = self.in_flight.remove(&id)\n        {{\n            let outcome = match frame.get(\"error\") {{ Some(e) => Err(e.clone()), None => Ok(frame.get(\"result\").cloned().unwrap_or(Value::Null)) }};\n            return Routed::Reply {{ tag, id, outcome }};\n        }}\n{CLASSIFY}"
    );
    let report = check_mutant(
        ROUTER,
        "mutant-02-ping-as-response",
        &[("src/lib.rs", CLASSIFY, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "server ping is not a reply",
        &[
            "the server's ping was taken for the response to c1",
            "same id",
            "own id space",
            "Classify before you look an id up",
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

/// An error response with a null id (a parse error the server could not
/// tie to a request) taken for the answer to the call in flight when there
/// is just one: it answers no request.
#[test]
fn m02_idless_error_fails_the_lone_call() {
    let find = "            Kind::Error { id: None, .. } => {\n";
    let replace = "            Kind::Error { id: None, error } if self.in_flight.len() == 1 => {\n                let id = self.in_flight.keys().next().cloned().unwrap();\n                self.complete(id, Err(error))\n            }\n            Kind::Error { id: None, .. } => {\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-idless-error-lone-call",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines dropped",
        &[
            "null id",
            "answers no request, not even the only call in flight",
            "orphan",
        ],
    );
    assert_eq!(failed_cases(&report), ["invalid lines dropped"], "{}", summary(&report));
}

/// Ids counted per method, as if an id had only to be unique among calls
/// of the same method: the first `tools/list` takes the id of the first
/// `tools/call`, still in flight.
#[test]
fn m02_ids_counted_per_method() {
    let replace = "        let n = self.per_method.entry(method.to_string()).or_insert(0);\n        *n += 1;\n        let id = Id::Int(*n);\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-ids-per-method",
        &[
            (
                "src/lib.rs",
                "    in_flight: HashMap<Id, String>,\n}",
                "    in_flight: HashMap<Id, String>,\n    per_method: HashMap<String, i64>,\n}",
            ),
            ("src/lib.rs", NEXT_ID, replace),
        ],
    );
    assert_caught(&report);
    assert_failed(&report, "two calls, two ids", &["the third call reused id 1"]);
    assert_eq!(failed_cases(&report), ["two calls, two ids"], "{}", summary(&report));
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

/// A router that compares ids as text (as a `HashMap<String, _>` keyed by
/// the id's text would): a response with c1's id retyped (`"1"` for `1`)
/// reaches c1.
#[test]
fn m02_router_compares_ids_as_strings() {
    let replace = "        let text = |i: &Id| match i { Id::Int(n) => n.to_string(), Id::Str(s) => s.clone() };\n        let id = self.in_flight.keys().find(|k| text(k) == text(&id)).cloned().unwrap_or(id);\n        match self.in_flight.remove(&id) {\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-ids-as-strings",
        &[("src/lib.rs", ROUTER_LOOKUP, replace)],
        &["orphan logged and dropped"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &["ids match exactly, type included"],
    );
}

/// An error response delivered to its call as the call's result: the
/// caller takes a failure for a success.
#[test]
fn m02_error_delivered_as_a_result() {
    let find = "            Kind::Error { id: Some(id), error } => self.complete(id, Err(error)),\n";
    let replace = "            Kind::Error { id: Some(id), error } => self.complete(id, Ok(error)),\n";
    let report = check_mutant(ROUTER, "mutant-02-error-as-result", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "error reaches its call", &["deliver the error object to c1"]);
    assert_eq!(
        failed_cases(&report),
        ["error reaches its call"],
        "{}",
        summary(&report)
    );
}

const MALFORMED: &[&str] = &["malformed responses invalid"];

/// The arm of `receive` for a line the classifier calls invalid.
const INVALID_ARM: &str = "            Kind::Invalid { reason } => {\n                eprintln!(\"dropping an invalid line ({reason}): {line}\");\n                Routed::Invalid { reason }\n            }\n";

/// The id an invalid line carries, read by the learner from the raw JSON
/// (what the mutants that route an invalid line by its id do).
const RAW_ID: &str = "serde_json::from_str::<Value>(line).ok().and_then(|f| f.get(\"id\").and_then(Id::from_json))";

/// A router that takes any frame with `result` or `error` for a response
/// and looks its id up before classifying it: a response with both members
/// reaches the call.
#[test]
fn m02_response_looked_up_before_classifying() {
    let replace = format!(
        "        if let Ok(frame) = serde_json::from_str::<Value>(line)\n            && (frame.get(\"result\").is_some() || frame.get(\"error\").is_some())\n            && let Some(id) = frame.get(\"id\").and_then(Id::from_json)\n            && let Some(tag) = self.in_flight.remove(&id)\n        {{\n            let outcome = match frame.get(\"result\") {{ Some(r) => Ok(r.clone()), None => Err(frame[\"error\"].clone()) }};\n            return Routed::Reply {{ tag, id, outcome }};\n        }}\n{CLASSIFY}"
    );
    let report = check_mutant(
        ROUTER,
        "mutant-02-lookup-before-classify",
        &[("src/lib.rs", CLASSIFY, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with both result and error was routed to c1 as its result",
            "both members MUST NOT be included",
            "without looking its id up",
        ],
    );
    assert_eq!(
        failed_cases(&report),
        ["malformed responses invalid"],
        "{}",
        summary(&report)
    );
}

/// A router that ends the call an invalid line names with an error, as if
/// the server had answered it: a broken response fails the call instead of
/// leaving it in flight for its real response.
#[test]
fn m02_invalid_response_fails_its_call() {
    let replace = format!(
        "            Kind::Invalid {{ reason }} => match {RAW_ID}.and_then(|id| self.in_flight.remove(&id).map(|tag| (id, tag))) {{\n                Some((id, tag)) => Routed::Reply {{ tag, id, outcome: Err(json!({{\"code\": -32603, \"message\": reason}})) }},\n                None => Routed::Invalid {{ reason }},\n            }},\n"
    );
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-invalid-fails-call",
        &[("src/lib.rs", INVALID_ARM, &replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with both result and error was routed to c1 as its error",
            "keep c1 in flight",
        ],
    );
}

/// A router that reports an invalid line as invalid but gives up the call
/// it names: the call is gone from the table and its real response becomes
/// an orphan.
#[test]
fn m02_invalid_response_gives_up_its_call() {
    let replace = format!(
        "            Kind::Invalid {{ reason }} => {{\n                if let Some(id) = {RAW_ID} {{\n                    self.in_flight.remove(&id);\n                }}\n                Routed::Invalid {{ reason }}\n            }}\n"
    );
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-invalid-gives-up-call",
        &[("src/lib.rs", INVALID_ARM, &replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &["c1 should still be in flight", "none of them answered it"],
    );
}

/// A router that drops everything it cannot route as an orphan, invalid
/// lines included.
#[test]
fn m02_invalid_taken_for_an_orphan() {
    let replace = "            Kind::Invalid { .. } => Routed::Orphan { id: None },\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-invalid-orphan",
        &[("src/lib.rs", INVALID_ARM, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &["with both result and error was dropped as an orphan", "Routed::Invalid"],
    );
}

/// A router that answers an invalid line with an Invalid Request error, as
/// a server answers an invalid request: a broken response is answered
/// instead of dropped.
#[test]
fn m02_invalid_answered_with_an_error() {
    let replace = "            Kind::Invalid { reason } => Routed::Answer(json!({\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32600, \"message\": reason}}).to_string()),\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-invalid-answered",
        &[("src/lib.rs", INVALID_ARM, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses invalid",
        &[
            "with both result and error was not reported as invalid",
            "no response at all",
        ],
    );
}

/// A ping answered with its id read as a number where it reads as one:
/// the ping with id "1" gets id 1 back.
#[test]
fn m02_ping_answered_with_the_id_as_a_number() {
    let find = "        json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": {}})\n";
    let replace = "        json!({\"jsonrpc\": \"2.0\", \"id\": match id { Id::Str(t) => t.parse::<i64>().map_or_else(|_| id.to_json(), Value::from), Id::Int(_) => id.to_json() }, \"result\": {}})\n";
    let report = check_mutant_on(
        ROUTER,
        "mutant-02-ping-id-as-number",
        &[("src/lib.rs", find, replace)],
        &["server ping is not a reply"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "server ping is not a reply",
        &["a ping with id \"1\" gets an empty result with that id exactly, type included"],
    );
}
