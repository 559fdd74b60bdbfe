//! The checker as a [`Client`] of one era: it numbers its requests
//! (plainly, or through every legal id shape), runs the legacy handshake
//! or adds the modern `_meta`, and takes the next response as the answer.

use serde_json::{Value, json};

use super::*;

/// The checker as a client of one era.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    /// Whether requests carry the modern `_meta`.
    pub modern: bool,
    next_id: u64,
    /// Whether the ids turn through the shapes of [`ids::varied`].
    varied: bool,
    /// How long the response to the next request may take (stretched by
    /// load), when it is the process's first answer
    /// ([`Client::first_within`]); `None`: until the case's deadline.
    first_answer: Option<Duration>,
}

impl Client {
    /// A legacy client, after the handshake at 2025-11-25, numbering its
    /// requests 1, 2, …
    pub fn legacy(s: &mut Session) -> Result<Client, Failure> {
        Client::before_initialize().handshake(s)
    }

    /// Like [`Client::legacy`], with [`ids::varied`] ids, from 0.
    pub fn legacy_varied(s: &mut Session) -> Result<Client, Failure> {
        Client::before_initialize().varied().handshake(s)
    }

    /// Like [`Client::legacy`], the `initialize` response awaited within
    /// `startup` ([`Client::first_within`]).
    pub fn legacy_within(s: &mut Session, startup: Duration) -> Result<Client, Failure> {
        Client::before_initialize().first_within(startup).handshake(s)
    }

    /// Runs the legacy handshake at 2025-11-25.
    fn handshake(mut self, s: &mut Session) -> Result<Client, Failure> {
        self.result(s, "initialize", initialize_params(mcp::LEGACY))?;
        s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(self)
    }

    /// A legacy client that has not sent `initialize` yet.
    pub fn before_initialize() -> Client {
        Client {
            modern: false,
            next_id: 1,
            varied: false,
            first_answer: None,
        }
    }

    /// A modern client: no handshake.
    pub fn modern() -> Client {
        Client {
            modern: true,
            next_id: 1,
            varied: false,
            first_answer: None,
        }
    }

    /// This client with the response to its first request awaited at most
    /// `startup` (stretched by load, as [`next_within`] does), not until
    /// the case's deadline: a process's first answer, which may wait on an
    /// interpreter's start (doctor's `--startup-ms`). Silence in that time
    /// fails with the window in the reason ([`no_response`]).
    pub fn first_within(self, startup: Duration) -> Client {
        Client {
            first_answer: Some(startup),
            ..self
        }
    }

    /// This client with [`ids::varied`] ids, from 0.
    pub fn varied(self) -> Client {
        Client {
            next_id: 0,
            varied: true,
            ..self
        }
    }

    /// The revision this client speaks, for reasons.
    pub fn era(&self) -> &'static str {
        if self.modern { mcp::MODERN } else { mcp::LEGACY }
    }

    /// Sends a request without waiting; returns its id. In the modern era
    /// `params._meta` gets the modern fields, beside any `_meta` members
    /// `params` already has (a progress token).
    pub fn send(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let id = match self.varied {
            true => ids::varied(self.next_id),
            false => json!(self.next_id),
        };
        self.next_id += 1;
        self.send_as(s, id, method, params)
    }

    /// Like [`Client::send`], with the id `id` the case picked (outside
    /// this client's count); returns it.
    pub fn send_as(&mut self, s: &mut Session, id: Value, method: &str, mut params: Value) -> Result<Value, Failure> {
        if self.modern {
            let mut meta = mcp::request_meta(mcp::MODERN);
            if let Some(extra) = params.get("_meta").and_then(Value::as_object) {
                for (k, v) in extra {
                    meta[k] = v.clone();
                }
            }
            params["_meta"] = meta;
        }
        s.send_json(&request(id.clone(), method, Some(params)))?;
        Ok(id)
    }

    /// Sends a request and returns the whole response frame, skipping
    /// notifications.
    pub fn call(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let id = self.send(s, method, params)?;
        let window = self.first_answer.take();
        loop {
            let got = match window {
                Some(window) => next_within(s, window)?.ok_or_else(|| no_response(method, &id, window))?,
                None => s.recv()?,
            }
            .value;
            if matches!(classify(&got), Kind::Notification { .. }) {
                continue;
            }
            return response_to(got, &id, method);
        }
    }

    /// Like [`Client::call`], and the response must be a result; returns it.
    pub fn result(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let response = self.call(s, method, params.clone())?;
        as_result(response, method, &params, self.era())
    }

    /// Like [`Client::call`], and the response must be an error with
    /// `code`; `why` explains the rule.
    pub fn error(&mut self, s: &mut Session, method: &str, params: Value, code: i64, why: &str) -> CaseResult {
        let response = self.call(s, method, params)?;
        expect_error(response, code, why)
    }
}
