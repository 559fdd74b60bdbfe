//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your `Supervisor` to the harness, and
//! the harness's connection to the server to your `Supervisor` as a `Peer`.

use std::fmt::Debug;
use std::time::Duration;

use harness::{Server, ServerError};
use serde_json::Value;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Era, Limits, Outcome, Peer, PeerError, Supervisor};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your supervisor, once the harness has made it.
#[derive(Default)]
struct Yours {
    supervisor: Option<Supervisor>,
}

impl harness::Learner for Yours {
    fn new_supervisor(&mut self, legacy: bool, client_info: Value) {
        self.supervisor = Some(Supervisor::new(if legacy { Era::Legacy } else { Era::Modern }, client_info));
    }

    fn call(
        &mut self,
        server: &mut Server,
        method: &str,
        params: Value,
        limits: harness::Limits,
        on_progress: &mut dyn FnMut(&harness::Progress),
        on_violation: &mut dyn FnMut(String),
    ) -> Result<harness::Outcome, Box<dyn Debug>> {
        let supervisor = self.supervisor.as_mut().expect("the harness calls Supervisor::new first");
        let limits = Limits { idle: limits.idle, cap: limits.cap };
        let outcome = supervisor.call(
            server,
            method,
            params,
            limits,
            &mut |p| {
                on_progress(&harness::Progress { progress: p.progress, total: p.total, message: p.message.clone() })
            },
            on_violation,
        );
        match outcome {
            Ok(Outcome::Result(result)) => Ok(harness::Outcome::Result(result)),
            Ok(Outcome::Error(error)) => Ok(harness::Outcome::Error(error)),
            Ok(Outcome::TimedOut { cancelled }) => Ok(harness::Outcome::TimedOut { cancelled }),
            Err(e) => Err(Box::new(e)),
        }
    }
}

/// The server, as your `Supervisor` talks to it.
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
