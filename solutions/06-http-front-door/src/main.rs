//! Connects your `src/lib.rs` to the checker's harness (`harness/`), the
//! server's HTTP loop. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `handle` to the harness, turning
//! the harness's requests and responses into your types and back.

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{HttpRequest, handle};

fn main() {
    harness::run(&mut Yours);
}

/// Your `handle`.
struct Yours;

impl harness::Learner for Yours {
    fn handle(&mut self, request: harness::Request) -> harness::Response {
        let harness::Request { method, path, headers, body } = request;
        let response = handle(&HttpRequest { method, path, headers, body });
        harness::Response { status: response.status, headers: response.headers, body: response.body }
    }
}
