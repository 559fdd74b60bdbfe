//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `Walker` to the harness, and the
//! harness's connection to the server to your `Walker` as a `Peer`.

use std::fmt::Display;
use std::time::{Duration, Instant};

use harness::{Server, ServerError};
use serde_json::Value;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Peer, PeerError, Walker};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your walker, once the harness has made it.
#[derive(Default)]
struct Yours {
    walker: Option<Walker>,
}

impl Yours {
    fn walker(&mut self) -> &mut Walker {
        self.walker.as_mut().expect("the harness calls Walker::new first")
    }
}

impl harness::Learner for Yours {
    fn new_walker(&mut self, client_info: Value) {
        self.walker = Some(Walker::new(client_info));
    }

    fn listen(&mut self, server: &mut Server) -> Result<(), Box<dyn Display>> {
        self.walker().listen(server).map_err(|e| Box::new(e) as Box<dyn Display>)
    }

    fn list_tools(&mut self, server: &mut Server, now: Instant) -> Result<Vec<Value>, Box<dyn Display>> {
        self.walker().list_tools(server, now).map_err(|e| Box::new(e) as Box<dyn Display>)
    }

    fn on_message(&mut self, message: &Value) {
        self.walker().on_message(message)
    }
}

/// The server, as your `Walker` talks to it.
impl Peer for Server {
    fn send(&mut self, message: &Value) -> Result<(), PeerError> {
        Server::send(self, message).map_err(peer_error)
    }

    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError> {
        Server::recv(self, timeout).map_err(peer_error)
    }
}

fn peer_error(e: ServerError) -> PeerError {
    match e {
        ServerError::Timeout => PeerError::Timeout,
        ServerError::Closed => PeerError::Closed,
    }
}
