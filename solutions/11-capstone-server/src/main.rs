//! Connects your `src/lib.rs` and `src/features.rs` to the server's stdio
//! loop, the checker's harness (`harness/`). YOU DO NOT NEED TO EDIT THIS
//! FILE: your work is in `src/lib.rs` and `src/features.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It makes your [`Outbox`] and [`Server`] for the
//! harness, which hands them each message and frame.

use std::sync::mpsc::Sender;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
// Every public name of your crate, as `crate::…` in your files expects.
use learner::*;
use serde_json::Value;

fn main() {
    harness::run(Yours::start);
}

/// Your outbox and server. The fields drop in this order: the outbox, then
/// the server (calls still running keep clones of the outbox).
struct Yours {
    out: Outbox,
    server: Server,
}

impl Yours {
    fn start(frames: Sender<Value>) -> Box<dyn harness::Learner> {
        let out = Outbox::new(frames);
        Box::new(Yours {
            out,
            server: Server::new(),
        })
    }
}

impl harness::Learner for Yours {
    fn handle(&mut self, message: &Value) {
        self.server.handle(message, &self.out);
    }

    fn send(&self, frame: Value) {
        self.out.send(frame);
    }
}
