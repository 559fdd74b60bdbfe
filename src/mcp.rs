//! The protocol's vocabulary, in one place: the MCP revisions the course
//! speaks of, the `_meta` keys of the modern era, and the name the checker
//! gives itself when it plays a client or a server.
//!
//! A leaf module beside [`crate::jsonrpc`]: it imports nothing, so both the
//! course ([`crate::content`], whose lessons name revisions) and the engine
//! ([`crate::check`]: the schema check and the checkers) can use it without
//! an arrow between them. Moving to a new spec revision starts here.

use serde_json::{Value, json};

pub mod header_value;

/// 2024-11-05, the first revision, retired: the course's servers no longer
/// implement it.
pub const RETIRED: &str = "2024-11-05";
/// 2025-06-18, a legacy revision older than the newest.
pub const PREVIOUS_LEGACY: &str = "2025-06-18";
/// 2025-11-25, the newest legacy (handshake-era) revision.
pub const LEGACY: &str = "2025-11-25";
/// 2026-07-28, the modern (stateless) revision.
pub const MODERN: &str = "2026-07-28";
/// A revision no server implements (a client from the future), for
/// negotiation cases.
pub const FUTURE: &str = "2099-01-01";
/// A revision newer than [`MODERN`] that a later server might offer.
pub const NEXT: &str = "2027-03-01";

/// MCP revisions a lesson frame may name, oldest first. [`LEGACY`] is the
/// last legacy (handshake) revision; [`MODERN`] is the first modern
/// (stateless) one.
pub const REVISIONS: &[&str] = &[RETIRED, "2025-03-26", PREVIOUS_LEGACY, LEGACY, MODERN];

/// The `_meta` keys of the modern era (2026-07-28 basic/index › _meta).
pub mod meta {
    /// The protocol version a modern request speaks; its presence marks a
    /// request as modern.
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// The client's capabilities, on every modern request.
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The client's name and version, on every modern request.
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The server's name and version, on a modern result.
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// The subscription a list-changed notification belongs to.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// The name the checker gives itself, as a client (`clientInfo`) or as a
/// server (`serverInfo`).
pub const CHECKER_NAME: &str = "mcplings-checker";
/// The version the checker gives itself beside [`CHECKER_NAME`].
pub const CHECKER_VERSION: &str = "1.0.0";

/// The checker's `clientInfo` / `serverInfo` object.
pub fn checker_info() -> Value {
    json!({"name": CHECKER_NAME, "version": CHECKER_VERSION})
}

/// The `_meta` of a modern request from the checker at `version`: the
/// protocol version, no optional capabilities, and the checker's client
/// info.
pub fn request_meta(version: &str) -> Value {
    json!({meta::PROTOCOL_VERSION: version, meta::CLIENT_CAPABILITIES: {}, meta::CLIENT_INFO: checker_info()})
}
