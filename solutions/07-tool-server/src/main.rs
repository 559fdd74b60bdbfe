//! Connects your `src/lib.rs` to the checker's harness (`harness/`), the
//! server's stdio loop. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `Server` to the harness, which
//! gives it each message and writes its response.

use serde_json::Value;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::Server;

fn main() {
    harness::run(&mut Yours(Server::new()));
}

/// Your server, the one the harness talks to.
struct Yours(Server);

impl harness::Learner for Yours {
    fn handle(&mut self, message: &Value) -> Option<Value> {
        self.0.handle(message)
    }
}
