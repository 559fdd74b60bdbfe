//! Exercise 10 · Asking the user, in two eras (reference solution)
//!
//! A tool call that needs the user's input mid-way:
//!
//! - Modern (2026-07-28 basic/patterns/mrtr): the server answers with a
//!   result whose `resultType` is `"input_required"`, carrying
//!   `inputRequests` (a map from key to `{method, params}`) and maybe a
//!   `requestState`. The client answers each input request through its
//!   handler and retries the call with a new id, the same name and
//!   arguments, `inputResponses` under the same keys, and the
//!   `requestState` exactly as it came (left out when none came). It stops
//!   after `max_rounds` retries. An absent `resultType` means complete.
//! - Legacy (2025-11-25 client/elicitation): the server sends its own
//!   `elicitation/create` request while the client's call is in flight; the
//!   client answers it with a response carrying the server's id, and keeps
//!   waiting for its own call.

use std::time::Duration;

use serde_json::{Map, Value, json};

/// Why a message could not be received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerError {
    /// Nothing arrived in time.
    Timeout,
    /// The server closed the connection.
    Closed,
}

/// The connection to the server: one JSON-RPC message per call.
pub trait Peer {
    /// Sends one message.
    fn send(&mut self, message: &Value) -> Result<(), PeerError>;
    /// Waits up to `timeout` for the next message from the server.
    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError>;
}

/// Which era the connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// After the `initialize` handshake (2025-11-25).
    Legacy,
    /// Every request carries the modern `_meta` (2026-07-28).
    Modern,
}

/// Answers one input request: `(method, params)` to its result, or `None`
/// for a method this client does not handle.
pub type Handler<'a> = dyn FnMut(&str, &Value) -> Option<Value> + 'a;

/// Why a call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CallError {
    /// Still `input_required` after `max_rounds` retries.
    TooManyRounds(usize),
    /// An input request for a method the handler does not know.
    UnknownInputMethod(String),
    /// An error response (its error object).
    Rpc(Value),
    /// A `resultType` this client does not know.
    UnknownResultType(String),
    /// The server went away or stopped answering.
    Gone(PeerError),
}

/// The capabilities this client declares: it can answer form elicitation.
pub fn capabilities() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// A client that calls tools and answers the server's questions.
#[derive(Debug)]
pub struct Client {
    era: Era,
    client_info: Value,
    next_id: i64,
    /// The most retries one call may take.
    pub max_rounds: usize,
    /// How long to wait for each message.
    pub timeout: Duration,
}

impl Client {
    /// A client for a connection of `era`.
    pub fn new(era: Era, client_info: Value) -> Client {
        Client { era, client_info, next_id: 1, max_rounds: 4, timeout: Duration::from_secs(5) }
    }

    /// Runs the legacy handshake: `initialize`, then `notifications/initialized`.
    pub fn initialize(&mut self, peer: &mut impl Peer) -> Result<Value, CallError> {
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": capabilities(), "clientInfo": self.client_info});
        let result = self.request(peer, "initialize", params, &mut |_, _| None)?;
        peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).map_err(CallError::Gone)?;
        Ok(result)
    }

    /// Calls tool `name` with `arguments`, answering the server's input
    /// requests through `handler`; returns the final `CallToolResult`.
    pub fn call_tool(&mut self, peer: &mut impl Peer, name: &str, arguments: &Value, handler: &mut Handler) -> Result<Value, CallError> {
        let mut params = json!({"name": name, "arguments": arguments});
        let mut rounds = 0;
        loop {
            let result = self.request(peer, "tools/call", params.clone(), handler)?;
            match result.get("resultType").and_then(Value::as_str) {
                // Absent: a server of an earlier revision; it means complete.
                None | Some("complete") => return Ok(result),
                Some("input_required") => {}
                Some(other) => return Err(CallError::UnknownResultType(other.to_string())),
            }
            if rounds == self.max_rounds {
                return Err(CallError::TooManyRounds(rounds));
            }
            rounds += 1;
            let mut responses = Map::new();
            for (key, input) in result.get("inputRequests").and_then(Value::as_object).into_iter().flatten() {
                let method = input.get("method").and_then(Value::as_str).unwrap_or("");
                let answer = handler(method, input.get("params").unwrap_or(&Value::Null)).ok_or_else(|| CallError::UnknownInputMethod(method.to_string()))?;
                responses.insert(key.clone(), answer);
            }
            // The retry: same name and arguments, the answers, the state.
            params = json!({"name": name, "arguments": arguments});
            if !responses.is_empty() {
                params["inputResponses"] = Value::Object(responses);
            }
            if let Some(state) = result.get("requestState") {
                params["requestState"] = state.clone();
            }
        }
    }

    /// Sends one request (a fresh id; the modern `_meta` in that era) and
    /// waits for its result. A request from the server that arrives
    /// meanwhile is answered: `ping` with `{}`, others through `handler`,
    /// or -32601 when it does not know them.
    fn request(&mut self, peer: &mut impl Peer, method: &str, mut params: Value, handler: &mut Handler) -> Result<Value, CallError> {
        let id = json!(self.next_id);
        self.next_id += 1;
        if self.era == Era::Modern {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": capabilities(),
                "io.modelcontextprotocol/clientInfo": self.client_info
            });
        }
        peer.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).map_err(CallError::Gone)?;
        loop {
            let message = peer.recv(self.timeout).map_err(CallError::Gone)?;
            match (message.get("method").and_then(Value::as_str), message.get("id")) {
                // A response to our request (the server's ids are its own).
                // Only a well-formed response is the answer; a malformed one
                // with our id is skipped below.
                (None, Some(got)) if *got == id && well_formed(&message) => {
                    return match message.get("result") {
                        Some(result) => Ok(result.clone()),
                        None => Err(CallError::Rpc(message.get("error").cloned().unwrap_or(Value::Null))),
                    };
                }
                // A request from the server, in its own id space.
                (Some(asked), Some(server_id)) => {
                    let answer = match asked {
                        "ping" => Some(json!({})),
                        _ => handler(asked, message.get("params").unwrap_or(&Value::Null)),
                    };
                    let reply = match answer {
                        Some(result) => json!({"jsonrpc": "2.0", "id": server_id, "result": result}),
                        None => json!({"jsonrpc": "2.0", "id": server_id, "error": {"code": -32601, "message": format!("Method not found: {asked}")}}),
                    };
                    peer.send(&reply).map_err(CallError::Gone)?;
                }
                _ => eprintln!("skipped: {message}"),
            }
        }
    }
}

/// Whether `message` is a well-formed response: `"jsonrpc": "2.0"` and
/// exactly one of `result` and `error` ("both members MUST NOT be
/// included", JSON-RPC 2.0 §5), an error being an object with an integer
/// `code` and a string `message` (2025-11-25 basic/index › Responses).
fn well_formed(message: &Value) -> bool {
    let error_object = |e: &Value| e.get("code").is_some_and(Value::is_i64) && e.get("message").is_some_and(Value::is_string);
    message.get("jsonrpc") == Some(&json!("2.0"))
        && match (message.get("result"), message.get("error")) {
            (Some(_), None) => true,
            (None, Some(error)) => error_object(error),
            _ => false,
        }
}
