//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It makes your `Client` for the harness, which
//! launches the server and calls the tool, and lets your `Peer` trait reach
//! the server through the harness's connection.

use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use serde_json::Value;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Client, Era, Peer, PeerError};

fn main() {
    harness::run(Yours::start);
}

/// Your client, made when the harness has launched the server.
struct Yours(Client);

impl Yours {
    fn start(legacy: bool, client_info: Value, max_rounds: Option<usize>) -> Box<dyn harness::Learner> {
        let mut client = Client::new(if legacy { Era::Legacy } else { Era::Modern }, client_info);
        if let Some(n) = max_rounds {
            client.max_rounds = n;
        }
        Box::new(Yours(client))
    }
}

impl harness::Learner for Yours {
    fn initialize(&mut self, server: &mut harness::Connection) -> Result<(), String> {
        self.0.initialize(server).map(drop).map_err(|e| format!("{e:?}"))
    }

    fn call_tool(
        &mut self,
        server: &mut harness::Connection,
        name: &str,
        arguments: &Value,
        handler: &mut dyn FnMut(&str, &Value) -> Option<Value>,
    ) -> Result<Value, String> {
        self.0
            .call_tool(server, name, arguments, handler)
            .map_err(|e| format!("{e:?}"))
    }
}

/// The server, as your `Client` talks to it.
impl Peer for harness::Connection {
    fn send(&mut self, message: &Value) -> Result<(), PeerError> {
        harness::Connection::send(self, message).map_err(|_| PeerError::Closed)
    }

    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError> {
        harness::Connection::recv(self, timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => PeerError::Timeout,
            RecvTimeoutError::Disconnected => PeerError::Closed,
        })
    }
}
