//! Exercise 11 · The capstone server
//!
//! A complete dual-era MCP server on stdio. A legacy client opens a session
//! with `initialize` (2025-11-25 basic/lifecycle); a modern client sends
//! each request self-contained, with its version and capabilities in
//! `_meta` (2026-07-28 basic/index). Both get the same features
//! (`features.rs`), and both may ask for progress on the long tool and
//! cancel it (2025-11-25 basic/utilities/progress and cancellation;
//! 2026-07-28 basic/patterns/progress and cancellation).
//!
//! Every frame goes out through an [`Outbox`], so a call still running
//! on its own thread can send progress and, at the end, its response,
//! while the stdio loop goes on reading.
//!
//! Write `Server::handle`, with whatever helpers you like, and the three
//! functions marked `todo!` in `src/features.rs`. What is given: the
//! types below, the version lists, `capabilities()` and `server_info()`,
//! the feature data, and the stdio loop in `harness/`. The task in the
//! workbook names every fixture; the checker drives your server as a
//! legacy client and as a modern one, case by case. Save: mcplings
//! rebuilds and checks, and each failing case tells you what to change.

pub mod features;

use std::collections::HashSet;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};


/// Which era a request belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Inside a session opened by `initialize` (2025-11-25 and earlier).
    Legacy,
    /// A self-contained request carrying the modern `_meta` (2026-07-28).
    Modern,
}

/// A JSON-RPC error object: the request fails as a whole.
#[derive(Debug, Clone, PartialEq)]
#[allow(dead_code)]
pub struct RpcError {
    /// The error code, e.g. -32602.
    pub code: i64,
    /// One sentence for the client's log.
    pub message: String,
}

impl RpcError {
    /// -32602 Invalid params.
    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError { code: -32602, message: message.into() }
    }
}

/// Where frames go: each [`Outbox::send`] becomes one line on stdout.
/// Clone it to send from another thread.
#[derive(Debug, Clone)]
pub struct Outbox(Sender<Value>);

impl Outbox {
    /// An outbox feeding `tx` (the harness writes what arrives there).
    pub fn new(tx: Sender<Value>) -> Outbox {
        Outbox(tx)
    }

    /// Queues one frame. A closed stdout drops it: nobody is listening.
    pub fn send(&self, frame: Value) {
        let _ = self.0.send(frame);
    }
}

/// Legacy versions this server implements, newest first.
pub const LEGACY_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];
/// Modern versions this server implements.
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];
/// The `_meta` key of a modern request's protocol version.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// 2026-07-28's UnsupportedProtocolVersionError code.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// What this server offers: `{"tools": {}, "resources": {}, "prompts": {}}`.
#[allow(dead_code)]
fn capabilities() -> Value {
    json!({"tools": {}, "resources": {}, "prompts": {}})
}

/// This server's `Implementation`: name and version.
#[allow(dead_code)]
fn server_info() -> Value {
    json!({"name": "capstone-server", "version": "0.1.0"})
}

/// The ids of the calls still running, each as its JSON text (so `1` and
/// `"1"` stay apart). A call that is no longer here was cancelled, or has
/// answered.
type Running = Arc<Mutex<HashSet<String>>>;

/// A dual-era server.
#[derive(Debug, Default)]
pub struct Server {
    /// The version `initialize` settled, once it did.
    session: Option<String>,
    running: Running,
}

impl Server {
    /// A server no client has opened a session with.
    pub fn new() -> Server {
        Server::default()
    }

    /// Handles one message from the client, sending what it calls for
    /// through `out`: a response for a request, now or (for a countdown)
    /// later; nothing for a notification or a response.
    ///
    /// The era of a request: modern when its `params._meta` carries
    /// [`META_VERSION`], legacy inside a session `initialize` opened. A
    /// modern result carries `resultType`, and a cacheable one `ttlMs` and
    /// `cacheScope`. A countdown runs on a thread of its own (clone `out`
    /// for it), so that this function returns at once and the loop can
    /// read the `notifications/cancelled` that may stop it.
    pub fn handle(&mut self, message: &Value, out: &Outbox) {
        let _ = (message, out, &self.session, &self.running);
        todo!("the handshake, the modern _meta, every method, progress and cancellation")
    }
}
