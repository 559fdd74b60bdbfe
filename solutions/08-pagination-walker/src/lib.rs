//! Exercise 08 · The pagination walker (reference solution)
//!
//! A modern (2026-07-28) client that lists every tool a server offers,
//! across pages, and keeps the list while it is fresh:
//!
//! - A page's `nextCursor`, when present, is passed back byte for byte in
//!   the next request's `cursor`. Only an absent `nextCursor` ends the list:
//!   `""` is a cursor like any other (2026-07-28 server/utilities/pagination).
//! - A -32602 for a cursor means the server no longer knows it: walk again
//!   from the start, once; a second refusal is an error.
//! - The list may be reused for `ttlMs` milliseconds (the smallest of its
//!   pages); an absent `ttlMs` means 0: fetch every time.
//! - With `listen`, the client opens a `subscriptions/listen` stream for
//!   tool-list changes and waits for its acknowledgement; a
//!   `notifications/tools/list_changed` tagged with that stream's
//!   subscription id makes the cached list stale.

use std::fmt;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

/// The `_meta` keys of a modern request, and of a notification on a
/// subscription stream.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// See [`META_PROTOCOL_VERSION`].
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// See [`META_PROTOCOL_VERSION`].
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key naming the subscription a notification belongs to: the
/// id of the `subscriptions/listen` request that opened it.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

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

/// Why listing failed.
#[derive(Debug, Clone, PartialEq)]
pub enum WalkError {
    /// The server refused a cursor again after one fresh walk.
    InvalidCursor(String),
    /// The server answered with another error object.
    Rpc { code: i64, message: String },
    /// The server went away or did not answer in time.
    Gone(PeerError),
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::InvalidCursor(c) => write!(f, "the server refused cursor {c:?} twice"),
            WalkError::Rpc { code, message } => write!(f, "error {code}: {message}"),
            WalkError::Gone(PeerError::Timeout) => write!(f, "the server did not answer in time"),
            WalkError::Gone(PeerError::Closed) => write!(f, "the server closed the connection"),
        }
    }
}

/// The cached list.
#[derive(Debug, Clone)]
struct Cached {
    tools: Vec<Value>,
    fresh_until: Instant,
}

/// A client that lists tools across pages and caches them.
#[derive(Debug)]
pub struct Walker {
    client_info: Value,
    next_id: i64,
    cache: Option<Cached>,
    /// The id of our `subscriptions/listen` request, once acknowledged.
    subscription: Option<Value>,
    /// How long to wait for each response.
    pub timeout: Duration,
}

impl Walker {
    /// A walker with nothing cached. `client_info` is this client's
    /// `Implementation`: `{"name": …, "version": …}`.
    pub fn new(client_info: Value) -> Walker {
        Walker { client_info, next_id: 1, cache: None, subscription: None, timeout: Duration::from_secs(5) }
    }

    /// Every tool, in the server's order: from the cache while it is
    /// fresh at `now`, else by walking the pages.
    ///
    /// Errors: [`WalkError::InvalidCursor`] when a cursor is refused on two
    /// walks in a row, [`WalkError::Rpc`] for any other error response,
    /// [`WalkError::Gone`] when the server stops answering.
    pub fn list_tools(&mut self, peer: &mut impl Peer, now: Instant) -> Result<Vec<Value>, WalkError> {
        if let Some(cached) = &self.cache
            && now < cached.fresh_until
        {
            return Ok(cached.tools.clone());
        }
        let (tools, ttl) = match self.walk(peer) {
            // The server forgot our place: start over, once.
            Err(WalkError::InvalidCursor(_)) => self.walk(peer)?,
            other => other?,
        };
        self.cache = Some(Cached { tools: tools.clone(), fresh_until: now + ttl });
        Ok(tools)
    }

    /// Walks every page once; returns the tools and how long they keep.
    fn walk(&mut self, peer: &mut impl Peer) -> Result<(Vec<Value>, Duration), WalkError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        let mut ttl_ms = u64::MAX;
        loop {
            let mut params = json!({});
            if let Some(c) = &cursor {
                params["cursor"] = json!(c);
            }
            let result = match self.request(peer, "tools/list", params) {
                Err(WalkError::Rpc { code: -32602, .. }) if cursor.is_some() => return Err(WalkError::InvalidCursor(cursor.unwrap_or_default())),
                other => other?,
            };
            tools.extend(result.get("tools").and_then(Value::as_array).cloned().unwrap_or_default());
            // An absent ttlMs means 0: the page may not be reused at all.
            ttl_ms = ttl_ms.min(result.get("ttlMs").and_then(Value::as_u64).unwrap_or(0));
            match result.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_string()),
                None => return Ok((tools, Duration::from_millis(ttl_ms))),
            }
        }
    }

    /// Opens a `subscriptions/listen` stream for tool-list changes and
    /// waits for its acknowledgement, which comes before anything else on
    /// the stream (2026-07-28 basic/patterns/subscriptions).
    ///
    /// Errors: [`WalkError::Rpc`] when the server refuses the stream,
    /// [`WalkError::Gone`] when no acknowledgement comes.
    pub fn listen(&mut self, peer: &mut impl Peer) -> Result<(), WalkError> {
        let id = json!(self.next_id);
        self.next_id += 1;
        let params = with_meta(json!({"notifications": {"toolsListChanged": true}}), &self.client_info);
        peer.send(&json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})).map_err(WalkError::Gone)?;
        loop {
            let message = peer.recv(self.timeout).map_err(WalkError::Gone)?;
            let method = message.get("method").and_then(Value::as_str);
            if method == Some("notifications/subscriptions/acknowledged") && subscription_of(&message) == Some(&id) {
                self.subscription = Some(id);
                return Ok(());
            }
            if method.is_none() && message.get("id") == Some(&id) {
                return Err(rpc_error(&message));
            }
            self.on_message(&message);
        }
    }

    /// Handles a message that arrived outside a call: a tool-list change
    /// on our subscription makes the cache stale; anything else is logged.
    pub fn on_message(&mut self, message: &Value) {
        let ours = self.subscription.is_some() && subscription_of(message) == self.subscription.as_ref();
        if message.get("method").and_then(Value::as_str) == Some("notifications/tools/list_changed") && ours {
            self.cache = None;
        } else {
            eprintln!("ignored: {message}");
        }
    }

    /// Sends one request with the modern `_meta` and waits for its result.
    fn request(&mut self, peer: &mut impl Peer, method: &str, params: Value) -> Result<Value, WalkError> {
        let id = json!(self.next_id);
        self.next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": with_meta(params, &self.client_info)});
        peer.send(&frame).map_err(WalkError::Gone)?;
        loop {
            let message = peer.recv(self.timeout).map_err(WalkError::Gone)?;
            // Only a well-formed response is the answer: a malformed one
            // with our id goes to on_message, which logs it.
            if message.get("method").is_none() && message.get("id") == Some(&id) && well_formed(&message) {
                return match message.get("result") {
                    Some(result) => Ok(result.clone()),
                    None => Err(rpc_error(&message)),
                };
            }
            self.on_message(&message);
        }
    }
}

/// Whether `message` is a well-formed response: `"jsonrpc": "2.0"` and
/// exactly one of `result` and `error` ("both members MUST NOT be
/// included", JSON-RPC 2.0 §5), an error being an object with an integer
/// `code` and a string `message` (2026-07-28 basic/index › Responses).
fn well_formed(message: &Value) -> bool {
    let error_object = |e: &Value| e.get("code").is_some_and(Value::is_i64) && e.get("message").is_some_and(Value::is_string);
    message.get("jsonrpc") == Some(&json!("2.0"))
        && match (message.get("result"), message.get("error")) {
            (Some(_), None) => true,
            (None, Some(error)) => error_object(error),
            _ => false,
        }
}

/// `params` with the modern request `_meta` added.
fn with_meta(params: Value, client_info: &Value) -> Value {
    let mut params = match params {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    params.insert(
        "_meta".into(),
        json!({META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: {}, META_CLIENT_INFO: client_info}),
    );
    Value::Object(params)
}

/// The subscription id a notification is tagged with.
fn subscription_of(message: &Value) -> Option<&Value> {
    message.pointer("/params/_meta").and_then(|m| m.get(META_SUBSCRIPTION_ID))
}

fn rpc_error(response: &Value) -> WalkError {
    WalkError::Rpc {
        code: response.pointer("/error/code").and_then(Value::as_i64).unwrap_or(0),
        message: response.pointer("/error/message").and_then(Value::as_str).unwrap_or("").to_string(),
    }
}
