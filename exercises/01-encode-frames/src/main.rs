//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands each of your functions to the harness,
//! turning your types into JSON values and back.

use std::collections::HashMap;

use serde_json::{Value, json};

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Accepted, Id, Kind};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your functions, and the calls in flight that `accept_response` keeps.
#[derive(Default)]
struct Yours {
    in_flight: HashMap<Id, String>,
}

fn id_of(v: &Value) -> Id {
    Id::from_json(v).unwrap_or(Id::Str(v.to_string()))
}

impl harness::Learner for Yours {
    fn encode_request(&mut self, id: &Value, method: &str, params: Option<Value>) -> String {
        learner::encode_request(&id_of(id), method, params)
    }

    fn encode_result(&mut self, id: &Value, result: Value) -> String {
        learner::encode_result(&id_of(id), result)
    }

    fn encode_error(&mut self, id: &Value, code: i64, message: &str, data: Option<Value>) -> String {
        learner::encode_error(&id_of(id), code, message, data)
    }

    fn encode_notification(&mut self, method: &str, params: Option<Value>) -> String {
        learner::encode_notification(method, params)
    }

    fn classify(&mut self, line: &str) -> Value {
        match learner::classify(line) {
            Kind::Request { id, method } => json!({"kind": "request", "id": id.to_json(), "method": method}),
            Kind::Notification { method } => json!({"kind": "notification", "method": method}),
            Kind::Success { id } => json!({"kind": "success", "id": id.to_json()}),
            Kind::Error { id, code } => json!({"kind": "error", "id": id.map(|i| i.to_json()), "code": code}),
            Kind::Invalid { reason } => json!({"kind": "invalid", "reason": reason}),
        }
    }

    fn set_in_flight(&mut self, calls: Vec<(Value, String)>) {
        self.in_flight = calls.iter().map(|(id, method)| (id_of(id), method.clone())).collect();
    }

    fn accept_response(&mut self, line: &str) -> (Value, Vec<Value>) {
        let decision = match learner::accept_response(&mut self.in_flight, line) {
            Accepted::Matched { id, method } => json!({"harness": "matched", "id": id.to_json(), "method": method}),
            Accepted::Orphan { id } => json!({"harness": "orphan", "id": id.map(|i| i.to_json())}),
            Accepted::NotAResponse => json!({"harness": "not_a_response"}),
        };
        (decision, self.in_flight.keys().map(Id::to_json).collect())
    }
}
