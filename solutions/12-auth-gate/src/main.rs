//! Connects your `src/lib.rs` to the checker's harness (`harness/`), the
//! server's HTTP loop, which also reads the command line into your
//! [`Config`]. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `handle` to the harness, turning
//! the harness's settings, requests and responses into your types and back.

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Config, HttpRequest, handle};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your `handle`, and the configuration it is given with each request.
#[derive(Default)]
struct Yours {
    config: Config,
}

impl harness::Learner for Yours {
    fn configure(&mut self, settings: harness::Settings) {
        let harness::Settings { resource, authorization_server, client_id, client_secret, upstream, upstream_token } =
            settings;
        self.config = Config { resource, authorization_server, client_id, client_secret, upstream, upstream_token };
    }

    fn handle(&mut self, request: harness::Request) -> harness::Response {
        let harness::Request { method, path, headers, body } = request;
        let response = handle(&HttpRequest { method, path, headers, body }, &self.config);
        harness::Response { status: response.status, headers: response.headers, body: response.body }
    }
}
