//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `connect` to the harness, and the
//! harness's connection to the server to your `connect` as a `Peer`.

use std::time::Duration;

use harness::ChildPeer;
use serde_json::Value;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Config, ConnectError, Connection, Era, Peer, PeerError, connect};

fn main() {
    harness::run(&mut Yours);
}

/// Your `connect`, and the errors the harness reports as yours.
struct Yours;

impl harness::Learner for Yours {
    fn connect(
        &mut self,
        peer: &mut ChildPeer,
        config: &harness::Config,
    ) -> Result<Box<dyn harness::Connected>, Box<dyn harness::Failure>> {
        let config = Config {
            modern_versions: config.modern_versions.clone(),
            probe_timeout: config.probe_timeout,
            request_timeout: config.request_timeout,
            client_info: config.client_info.clone(),
        };
        match connect(peer, &config) {
            Ok(connection) => Ok(Box::new(connection)),
            Err(e) => Err(Box::new(e)),
        }
    }

    fn closed(&mut self) -> Box<dyn harness::Failure> {
        Box::new(ConnectError::Closed)
    }

    fn timeout(&mut self, method: &str) -> Box<dyn harness::Failure> {
        Box::new(ConnectError::Timeout { method: method.into() })
    }
}

/// The server, as your `connect` talks to it.
impl Peer for ChildPeer {
    fn send(&mut self, message: &Value) -> Result<(), PeerError> {
        self.send_message(message).map_err(|_| PeerError::Closed)
    }

    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError> {
        self.recv_message(timeout).map_err(|e| match e {
            harness::PeerError::Timeout => PeerError::Timeout,
            harness::PeerError::Closed => PeerError::Closed,
        })
    }
}

impl harness::Connected for Connection {
    fn request(&mut self, method: &str, params: Option<Value>) -> Value {
        Connection::request(self, method, params)
    }

    fn era(&self) -> &'static str {
        match self.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        }
    }

    fn version(&self) -> String {
        self.version.clone()
    }

    fn server_capabilities(&self) -> Value {
        self.server_capabilities.clone()
    }

    fn server_info(&self) -> Option<Value> {
        self.server_info.clone()
    }
}

impl harness::Failure for ConnectError {
    fn message(&self) -> String {
        self.to_string()
    }

    fn offered(&self) -> Option<Vec<String>> {
        match self {
            ConnectError::Incompatible { offered } => Some(offered.clone()),
            _ => None,
        }
    }
}
