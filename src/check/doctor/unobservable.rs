//! The notable server-side rules `mcplings doctor` cannot observe from
//! outside, each quoted as the specification states it (a test holds
//! every quote to `../shared/mcp-spec`) with why doctor cannot see it:
//! what happens inside the server, what needs a credential doctor does not
//! hold, or what only a tool call with side effects would show (doctor
//! invents no arguments and calls no tool unless asked). `mcplings doctor
//! --rules` prints them after the rules it checks.

use serde::Serialize;

/// A rule doctor cannot observe.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Unseen {
    /// The revision the sentence is from.
    pub revision: &'static str,
    /// The page and heading, `server/tools › Security Considerations`.
    pub section: &'static str,
    /// The sentence, quoted (`...` between parts quoted apart).
    pub sentence: &'static str,
    /// Why doctor cannot observe it.
    pub why: &'static str,
}

const fn unseen(revision: &'static str, section: &'static str, sentence: &'static str, why: &'static str) -> Unseen {
    Unseen {
        revision,
        section,
        sentence,
        why,
    }
}

/// What doctor cannot see when it calls no tool.
const NO_CALLS: &str = "only a tool call shows it, and doctor calls tools only when asked (--call), inventing no arguments: a call may have side effects";

/// The rules, 2026-07-28 first, by page.
pub const UNOBSERVABLE: &[Unseen] = &[
    unseen(
        "2026-07-28",
        "basic/index › Statelessness",
        "Servers MUST NOT rely on prior requests over the same connection to establish context (e.g., capabilities, protocol version, client identity).",
        "doctor sends every request with its own _meta; a server that also kept state from an earlier request answers the same, so the state it keeps is invisible from outside",
    ),
    unseen(
        "2026-07-28",
        "basic/transports/stdio › Cancellation",
        "Servers SHOULD stop work on a cancelled request as soon as practical",
        "the work is inside the server: only its messages show, and doctor starts no long request (a tool call) unless asked",
    ),
    unseen(
        "2026-07-28",
        "basic/transports/streamable-http › Cancellation",
        "Closing the SSE response stream MUST be treated by the server as cancellation of that request.",
        "once the stream is closed nothing can come back on it: what the server does then happens inside it",
    ),
    unseen(
        "2026-07-28",
        "basic/transports/streamable-http › Security & Endpoint",
        "When running locally, servers SHOULD bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0).",
        "doctor reaches the server at the URL it is given; the interfaces it listens on show only from another host",
    ),
    unseen(
        "2026-07-28",
        "basic/transports/streamable-http › Security & Endpoint",
        "Servers SHOULD implement proper authentication for all connections.",
        "doctor holds no credentials and cannot tell a server that needs none from one that lacks them",
    ),
    unseen(
        "2026-07-28",
        "basic/patterns/subscriptions › Opening a Stream",
        "The server MUST NOT send notification types the client has not explicitly requested.",
        "a notification comes when the server's state changes, which doctor cannot cause: a quiet stream shows nothing (subscriptions-listen checks the acknowledgment)",
    ),
    unseen(
        "2026-07-28",
        "basic/patterns/subscriptions › Cancellation",
        "it SHOULD send a successful `subscriptions/listen` response to signal a graceful end",
        "only the server decides to tear a subscription down (at its shutdown): doctor cannot make it",
    ),
    unseen(
        "2026-07-28",
        "basic/patterns/mrtr › Server Requirements (Basic Workflow)",
        "If a client request contains a `requestState` field, servers MUST treat `requestState` as an attacker-controlled input.",
        "requestState is opaque and comes back only from a request that needs input, a tool call: whether the server verifies it shows only on a tampered state of a real round",
    ),
    unseen(
        "2026-07-28",
        "basic/patterns/mrtr › Server Requirements (Basic Workflow)",
        "Servers MUST NOT send an `inputRequests` that the client has not declared support for in its capabilities.",
        NO_CALLS,
    ),
    unseen(
        "2026-07-28",
        "server/tools › Security Considerations",
        "Servers MUST: ... Validate all tool inputs ... Implement proper access controls ... Rate limit tool invocations ... Sanitize tool outputs",
        NO_CALLS,
    ),
    unseen(
        "2026-07-28",
        "server/resources › Security Considerations",
        "Servers MUST validate all resource URIs",
        "doctor reads only resources the server lists: a crafted URI (../, another scheme) could read what the user did not mean to share",
    ),
    unseen(
        "2026-07-28",
        "server/resources › Security Considerations",
        "Servers MUST sanitize file paths to prevent directory traversal attacks when serving `file://` resources",
        "the same: a traversal attempt is an attack on the user's own files, which doctor does not make",
    ),
    unseen(
        "2026-07-28",
        "server/prompts › Implementation Considerations",
        "Servers SHOULD validate prompt arguments before processing",
        "doctor gets only the prompts that need no arguments, and invents none",
    ),
    unseen(
        "2026-07-28",
        "basic/authorization › Overview",
        "MCP servers MUST implement OAuth 2.0 Protected Resource Metadata (RFC9728).",
        "only a server that requires authorization must, and doctor neither knows whether it does nor follows a 401 to find out",
    ),
    unseen(
        "2026-07-28",
        "basic/authorization › Token Handling",
        "MCP servers, acting in their role as an OAuth 2.1 resource server, MUST validate access tokens as described in OAuth 2.1 Section 5.2.",
        "doctor holds no token issued for the server, valid or not: that takes the server's authorization server",
    ),
    unseen(
        "2026-07-28",
        "basic/authorization › Token Handling",
        "MCP servers MUST validate that access tokens were issued specifically for them as the intended audience, according to RFC 8707 Section 2.",
        "it shows only with a token valid for another resource of the same authorization server, which doctor does not hold",
    ),
    unseen(
        "2026-07-28",
        "basic/authorization › Token Handling",
        "Invalid or expired tokens MUST receive a HTTP 401 response.",
        "a server that requires no authorization rightly ignores a token, and doctor cannot tell the two apart",
    ),
    unseen(
        "2025-11-25",
        "basic/utilities/cancellation › Behavior Requirements",
        "Receivers of cancellation notifications SHOULD: ... Stop processing the cancelled request ... Free associated resources",
        "the work and the resources are inside the server, and doctor starts no long request (a tool call) unless asked",
    ),
    unseen(
        "2025-11-25",
        "basic/utilities/progress › Progress Flow",
        "The `progress` value MUST increase with each notification, even if the total is unknown.",
        NO_CALLS,
    ),
    unseen(
        "2025-11-25",
        "basic/transports › Security Warning",
        "When running locally, servers SHOULD bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0)",
        "as in 2026-07-28: the interfaces show only from another host",
    ),
    unseen(
        "2025-11-25",
        "server/tools › Security Considerations",
        "Servers MUST: ... Validate all tool inputs ... Implement proper access controls ... Rate limit tool invocations ... Sanitize tool outputs",
        NO_CALLS,
    ),
    unseen(
        "2025-11-25",
        "server/resources › Security Considerations",
        "Servers MUST validate all resource URIs",
        "doctor reads only resources the server lists: a crafted URI could read what the user did not mean to share",
    ),
];
