//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your router to the harness, turning
//! your types into JSON values and back.

use serde_json::{Value, json};

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Routed, Router};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your router, made when the harness says so.
#[derive(Default)]
struct Yours {
    router: Option<Router>,
}

impl Yours {
    fn router(&mut self) -> &mut Router {
        self.router.get_or_insert_with(Router::new)
    }
}

impl harness::Learner for Yours {
    fn new_router(&mut self) {
        self.router = Some(Router::new());
    }

    fn call(&mut self, tag: &str, method: &str, params: Option<Value>) -> String {
        self.router().call(tag, method, params)
    }

    fn in_flight(&mut self) -> Vec<(Value, String)> {
        self.router()
            .in_flight()
            .into_iter()
            .map(|(id, tag)| (id.to_json(), tag))
            .collect()
    }

    fn receive(&mut self, line: &str) -> Value {
        match self.router().receive(line) {
            Routed::Reply {
                tag,
                id,
                outcome: Ok(result),
            } => json!({"harness": "reply", "tag": tag, "id": id.to_json(), "result": result}),
            Routed::Reply {
                tag,
                id,
                outcome: Err(error),
            } => json!({"harness": "reply", "tag": tag, "id": id.to_json(), "error": error}),
            Routed::Notification { method, params } => {
                let mut v = json!({"harness": "notification", "method": method});
                if let Some(params) = params {
                    v["params"] = params;
                }
                v
            }
            Routed::Answer(line) => Value::String(line),
            Routed::Orphan { id } => json!({"harness": "orphan", "id": id.map(|i| i.to_json())}),
            Routed::Invalid { reason } => json!({"harness": "invalid", "reason": reason}),
        }
    }
}
