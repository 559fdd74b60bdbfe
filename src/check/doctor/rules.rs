//! The rules `mcplings doctor` holds a server to, each with the sentence it
//! cites (revision, page › section, quoted from the specification text in
//! the revision's own words) and its level: a MUST or MUST NOT makes a
//! finding a **fail**, a SHOULD or a robustness concern a **warn**.
//!
//! JSON-RPC 2.0 is cited where MCP defers to it: "All messages between MCP
//! clients and servers MUST follow the JSON-RPC 2.0 specification"
//! (2025-11-25 and 2026-07-28 basic/index › Messages).
//!
//! Every quoted sentence binds the server. Where no sentence does (a
//! crash or a hang, a request before `initialize`, a forbidden id served,
//! a legacy server still running at end of input), the rule is mcplings'
//! own **advice** ([`ADVICE`] as its revision): a warn that quotes nothing.

use serde::Serialize;

mod http;
pub use http::*;

/// How much a broken rule weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A SHOULD, or robustness: a host copes, but a user may not.
    Warn,
    /// A MUST or MUST NOT.
    Fail,
}

/// One cited rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// What breaking it makes a finding.
    pub level: Level,
    /// The revision the sentence is from (`2025-11-25`), or `JSON-RPC 2.0`.
    pub revision: &'static str,
    /// The page and section, `basic/index › Notifications`.
    pub section: &'static str,
    /// The sentence, quoted.
    pub sentence: &'static str,
}

/// The revision of a rule that is mcplings' own advice, no sentence of a
/// specification.
pub const ADVICE: &str = "mcplings advice";

impl Rule {
    /// `revision section: "sentence"`, for reasons (advice unquoted).
    pub fn cited(&self) -> String {
        if self.is_advice() {
            return format!("{}: {}", self.revision, self.sentence);
        }
        format!("{} {}: \"{}\"", self.revision, self.section, self.sentence)
    }

    /// `revision section`, or `mcplings advice`.
    pub fn source(&self) -> String {
        if self.is_advice() {
            return self.revision.to_string();
        }
        format!("{} {}", self.revision, self.section)
    }

    /// Whether this is mcplings' own advice (a warn quoting no sentence).
    pub fn is_advice(&self) -> bool {
        self.revision == ADVICE
    }
}

const fn must(revision: &'static str, section: &'static str, sentence: &'static str) -> Rule {
    Rule {
        level: Level::Fail,
        revision,
        section,
        sentence,
    }
}

/// A warn of mcplings' own, where no sentence binds the server: `topic`
/// and the advice in a sentence.
const fn advice(topic: &'static str, text: &'static str) -> Rule {
    Rule {
        level: Level::Warn,
        revision: ADVICE,
        section: topic,
        sentence: text,
    }
}

const fn should(revision: &'static str, section: &'static str, sentence: &'static str) -> Rule {
    Rule {
        level: Level::Warn,
        revision,
        section,
        sentence,
    }
}

/// Only messages on stdout (and every frame valid against its revision's
/// types: an invalid frame is not a valid MCP message).
pub const STDOUT_MESSAGES: Rule = must(
    "2025-11-25",
    "basic/transports › stdio",
    "The server MUST NOT write anything to its `stdout` that is not a valid MCP message.",
);
/// The legacy handshake is answered.
pub const INITIALIZE: Rule = must(
    "2025-11-25",
    "basic/lifecycle › Initialization",
    "The server MUST respond with its own capabilities and information",
);
/// Version negotiation in `initialize`.
pub const NEGOTIATION: Rule = must(
    "2025-11-25",
    "basic/lifecycle › Version Negotiation",
    "If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.",
);
/// Requests before `initialize`: 2025-11-25's "The initialization phase
/// MUST be the first interaction" binds the client; no sentence binds the
/// server to refuse, so this is advice.
pub const GATE: Rule = advice(
    "requests before initialize",
    "refuse a request that comes before initialize with an error: serving it gives a client that skipped the handshake no negotiated version or capabilities",
);
/// `ping` (legacy).
pub const PING: Rule = must(
    "2025-11-25",
    "basic/utilities/ping › Behavior Requirements",
    "The receiver MUST respond promptly with an empty response",
);
/// Ids echoed exactly.
pub const IDS_ECHOED: Rule = must(
    "2025-11-25",
    "basic/index › Responses",
    "Result responses MUST include the same ID as the request they correspond to.",
);
/// Integer ids past 2^53 − 1 (RFC 8259 § 6 lets a JSON implementation
/// limit numbers; MCP's ids are JSON numbers): losing one is a robustness
/// concern, and RFC 8259 binds nobody, so this is advice.
pub const BIG_IDS: Rule = advice(
    "ids past 2^53",
    "serve a request whose id is an integer past 2^53 - 1 and echo the id digit for digit: RFC 8259 § 6 lets a JSON library round or refuse such a number, and the client then gets no answer it can match",
);
/// Forbidden ids: "Requests MUST include a string or integer ID" binds the
/// sender; serving one anyway is advice for the receiver.
pub const IDS_FORBIDDEN: Rule = advice(
    "forbidden ids",
    "refuse a request whose id is null, a fraction, an object, an array or a boolean (-32600, or drop it): MCP requests carry a string or integer id, and serving another hides the client's mistake",
);
/// Notifications are never answered.
pub const NOTIFICATIONS: Rule = must(
    "2025-11-25",
    "basic/index › Notifications",
    "The receiver MUST NOT send a response.",
);
/// Every request gets a response.
pub const REPLY: Rule = must(
    "JSON-RPC 2.0",
    "§ 5 Response object",
    "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.",
);
/// The error code of an unknown method over stdio: JSON-RPC 2.0 § 5.1
/// names -32601 in its table of codes, a definition that binds nobody
/// (2026-07-28 binds it over HTTP: [`METHOD_NOT_FOUND_HTTP`]), so this is
/// advice.
pub const METHOD_NOT_FOUND: Rule = advice(
    "error codes",
    "answer a method you do not have with -32601 Method not found, the code JSON-RPC 2.0 § 5.1 defines for it: a client tells a missing method from a failing one by it",
);
/// A line that is not JSON: JSON-RPC 2.0's table names -32700, and no
/// sentence of JSON-RPC or MCP binds a server to answer a line it cannot
/// parse (every SDK tried drops it), so this is advice.
pub const PARSE_ERROR: Rule = advice(
    "unparsable lines",
    "answer a line that is not JSON with -32700 Parse error (JSON-RPC 2.0 § 5.1) and read on: a client whose request was garbled then learns why instead of waiting",
);
/// A JSON value that is no request: as [`PARSE_ERROR`], with -32600.
pub const INVALID_REQUEST: Rule = advice(
    "invalid requests",
    "answer a JSON object that is no request with -32600 Invalid Request (JSON-RPC 2.0 § 5.1) and read on: a client that sent it then learns why instead of waiting",
);
/// `server/discover` (modern).
pub const DISCOVER: Rule = must("2026-07-28", "server/discover", "Servers MUST implement it.");
/// `resultType` on every modern result.
pub const RESULT_TYPE: Rule = must(
    "2026-07-28",
    "basic/index › Responses",
    "The `result` MUST include a `resultType` field to indicate the type of the result.",
);
/// A modern request without its required `_meta` fields.
pub const META_REQUIRED: Rule = must(
    "2026-07-28",
    "basic/index › _meta",
    "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code `-32602` (Invalid params).",
);
/// A modern request at a version the server does not implement.
pub const UNSUPPORTED_VERSION: Rule = must(
    "2026-07-28",
    "basic/versioning › Protocol Version Negotiation",
    "If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an `UnsupportedProtocolVersionError` listing the versions it does support",
);
/// A declared feature answers its list method (modern: 2026-07-28 states
/// it; a legacy session is held to [`LISTED_LEGACY`], a warn).
pub const TOOLS_LISTED: Rule = must(
    "2026-07-28",
    "server/tools › Capabilities",
    "Servers that declare the `tools` capability MUST respond to `tools/list` requests with the set of tools currently available to the requesting client.",
);
/// [`TOOLS_LISTED`] for resources.
pub const RESOURCES_LISTED: Rule = must(
    "2026-07-28",
    "server/resources › Capabilities",
    "Servers that declare the `resources` capability MUST respond to `resources/list` requests with the set of resources currently available to the requesting client.",
);
/// [`TOOLS_LISTED`] for prompts.
pub const PROMPTS_LISTED: Rule = must(
    "2026-07-28",
    "server/prompts › Capabilities",
    "Servers that declare the `prompts` capability MUST respond to `prompts/list` requests with the set of prompts currently available to the requesting client.",
);
/// Walking the pages (the cap is ours).
pub const PAGES: Rule = should(
    "2025-11-25",
    "server/utilities/pagination › Response Format",
    "An optional `nextCursor` field if more results exist",
);
/// A tool's `inputSchema`.
pub const INPUT_SCHEMA: Rule = must(
    "2025-11-25",
    "server/tools › Tool",
    "`inputSchema`: JSON Schema defining expected parameters ... MUST be a valid JSON Schema object (not `null`)",
);
/// Any schema a server hands out (`outputSchema`).
pub const SCHEMA_VALID: Rule = must(
    "2025-11-25",
    "basic/index › JSON Schema Usage",
    "Schemas MUST be valid according to their declared or default dialect",
);
/// A schema mcplings cannot compile (an unknown dialect, a remote `$ref`):
/// not shown wrong, so advice.
pub const SCHEMA_USABLE: Rule = advice(
    "schema portability",
    "a schema whose dialect or references mcplings cannot resolve may not be usable by every client: prefer JSON Schema 2020-12 without remote $ref",
);
/// Reading what was listed, getting a prompt, listing templates.
pub const FEATURES: Rule = should(
    "2025-11-25",
    "server/resources › Error Handling",
    "Servers SHOULD return standard JSON-RPC errors for common failure cases",
);
/// A tool's structured result against its `outputSchema` (`--call`).
pub const STRUCTURED: Rule = must(
    "2025-11-25",
    "server/tools › Output Schema",
    "Servers MUST provide structured results that conform to this schema.",
);
/// Shutdown on end of input.
pub const SHUTDOWN: Rule = should(
    "2026-07-28",
    "basic/transports/stdio › Shutdown",
    "Servers SHOULD exit promptly when their standard input is closed or reads return end-of-file.",
);
/// Crashing, hanging or going quiet where an answer is due: no sentence
/// binds a server to stay up (the timeouts of basic/lifecycle bind the
/// sender of a request), so this is advice.
pub const ROBUST: Rule = advice(
    "robustness",
    "a server should survive whatever a client sends and go on serving: a crash or a hang leaves its host without the server",
);
/// Caching hints on a modern result that is cacheable.
pub const CACHE_HINTS: Rule = must(
    "2026-07-28",
    "server/utilities/caching › Cacheable Results",
    "Servers MUST include caching hints on results with `resultType: \"complete\"` returned by the following operations",
);
/// `ttlMs`, where present: an integer, never negative.
pub const TTL_VALUE: Rule = must(
    "2026-07-28",
    "server/utilities/caching › Cacheable Model",
    "`ttlMs`, is an integer value in milliseconds specifying how long the client MAY consider the result fresh. ... Servers MUST provide a `ttlMs` value that is `>= 0`.",
);
/// One `cacheScope` over every page of a list.
pub const CACHE_SCOPE_PAGES: Rule = must(
    "2026-07-28",
    "server/utilities/caching › Interaction with Pagination",
    "Servers MUST apply the same `cacheScope` to all response pages for a given list request.",
);
/// `subscriptions/listen` acknowledged first.
pub const LISTEN_ACK: Rule = must(
    "2026-07-28",
    "basic/patterns/subscriptions › Acknowledgment",
    "The server MUST send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`, and MUST NOT send any notification on the subscription before it.",
);
/// Nothing more on a subscription the client cancelled (stdio).
pub const LISTEN_CANCELLED: Rule = must(
    "2026-07-28",
    "basic/transports/stdio › Cancellation",
    "Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it.",
);

/// The same sentence where another revision states it, under its own
/// page and section there.
const fn restated(rule: Rule, revision: &'static str, section: &'static str) -> Rule {
    Rule {
        revision,
        section,
        ..rule
    }
}

/// [`STDOUT_MESSAGES`] in a modern session.
pub const STDOUT_MESSAGES_MODERN: Rule = restated(STDOUT_MESSAGES, "2026-07-28", "basic/transports/stdio");
/// [`IDS_ECHOED`] in a modern session.
pub const IDS_ECHOED_MODERN: Rule = restated(IDS_ECHOED, "2026-07-28", "basic/index › Result Responses");
/// [`NOTIFICATIONS`] in a modern session.
pub const NOTIFICATIONS_MODERN: Rule = restated(NOTIFICATIONS, "2026-07-28", "basic/index › Notifications");
/// [`PAGES`] in a modern session.
pub const PAGES_MODERN: Rule = restated(PAGES, "2026-07-28", "server/utilities/pagination › Response Format");
/// [`INPUT_SCHEMA`] in a modern session.
pub const INPUT_SCHEMA_MODERN: Rule = restated(INPUT_SCHEMA, "2026-07-28", "server/tools › Tool");
/// [`SCHEMA_VALID`] in a modern session.
pub const SCHEMA_VALID_MODERN: Rule = restated(SCHEMA_VALID, "2026-07-28", "basic/index › JSON Schema Usage");
/// [`FEATURES`] in a modern session (2026-07-28 server/resources has no
/// such sentence; server/prompts states it).
pub const FEATURES_MODERN: Rule = restated(FEATURES, "2026-07-28", "server/prompts › Error Handling");
/// [`STRUCTURED`] in a modern session.
pub const STRUCTURED_MODERN: Rule = restated(STRUCTURED, "2026-07-28", "server/tools › Output Schema");
/// [`TOOLS_LISTED`], [`RESOURCES_LISTED`] and [`PROMPTS_LISTED`] in a
/// legacy session: 2025-11-25 has no MUST that a declared feature answers
/// its list method (only that a server supporting it MUST declare it), so
/// a legacy server that declares one and refuses its list is a warn.
pub const LISTED_LEGACY: Rule = should(
    "2025-11-25",
    "basic/lifecycle › Operation",
    "During the operation phase, the client and server exchange messages according to the negotiated capabilities.",
);
/// [`SHUTDOWN`] in a legacy session: 2025-11-25's shutdown sentences
/// bind the client (close stdin, wait, then SIGTERM), so this is advice.
pub const SHUTDOWN_LEGACY: Rule = advice(
    "shutdown on EOF",
    "exit when stdin closes: a 2025-11-25 client that closed it waits, then sends SIGTERM and SIGKILL (2026-07-28 makes it a SHOULD for servers)",
);

/// (legacy, modern): one rule as each revision states it.
const TWINS: &[(&Rule, &Rule)] = &[
    (&STDOUT_MESSAGES, &STDOUT_MESSAGES_MODERN),
    (&IDS_ECHOED, &IDS_ECHOED_MODERN),
    (&NOTIFICATIONS, &NOTIFICATIONS_MODERN),
    (&PAGES, &PAGES_MODERN),
    (&INPUT_SCHEMA, &INPUT_SCHEMA_MODERN),
    (&SCHEMA_VALID, &SCHEMA_VALID_MODERN),
    (&FEATURES, &FEATURES_MODERN),
    (&STRUCTURED, &STRUCTURED_MODERN),
    (&LISTED_LEGACY, &TOOLS_LISTED),
    (&LISTED_LEGACY, &RESOURCES_LISTED),
    (&LISTED_LEGACY, &PROMPTS_LISTED),
    (&SHUTDOWN_LEGACY, &SHUTDOWN),
    (&ORIGIN_LEGACY, &ORIGIN),
    (&NOTIFICATION_202_LEGACY, &NOTIFICATION_202),
    (&REQUEST_CONTENT_TYPE_LEGACY, &REQUEST_CONTENT_TYPE),
];

/// `rule` as the session at `revision` (`2025-11-25` for legacy,
/// `2026-07-28` for modern) cites it: the same rule when it is from that
/// revision (or JSON-RPC 2.0), else its twin stated there, else `rule`
/// itself (a rule of one era only; doctor applies those in their era).
pub fn for_revision(rule: &'static Rule, revision: &str) -> &'static Rule {
    if rule.revision == revision || !rule.revision.starts_with("20") {
        return rule;
    }
    TWINS
        .iter()
        .find_map(|&(legacy, modern)| match revision {
            "2025-11-25" if modern == rule => Some(legacy),
            "2026-07-28" if legacy == rule => Some(modern),
            _ => None,
        })
        .unwrap_or(rule)
}

/// Every rule, for tests that hold each quote to the specification text.
pub const ALL: &[&Rule] = &[
    &STDOUT_MESSAGES,
    &INITIALIZE,
    &NEGOTIATION,
    &GATE,
    &PING,
    &IDS_ECHOED,
    &IDS_FORBIDDEN,
    &BIG_IDS,
    &NOTIFICATIONS,
    &REPLY,
    &METHOD_NOT_FOUND,
    &PARSE_ERROR,
    &INVALID_REQUEST,
    &DISCOVER,
    &RESULT_TYPE,
    &META_REQUIRED,
    &UNSUPPORTED_VERSION,
    &TOOLS_LISTED,
    &RESOURCES_LISTED,
    &PROMPTS_LISTED,
    &PAGES,
    &INPUT_SCHEMA,
    &SCHEMA_VALID,
    &SCHEMA_USABLE,
    &FEATURES,
    &STRUCTURED,
    &SHUTDOWN,
    &ROBUST,
    &META_REQUIRED_HTTP,
    &UNSUPPORTED_VERSION_HTTP,
    &METHOD_NOT_FOUND_HTTP,
    &NOTIFICATION_202,
    &REQUEST_CONTENT_TYPE,
    &ORIGIN,
    &NOT_JSON_HTTP,
    &STDOUT_MESSAGES_MODERN,
    &IDS_ECHOED_MODERN,
    &NOTIFICATIONS_MODERN,
    &PAGES_MODERN,
    &INPUT_SCHEMA_MODERN,
    &SCHEMA_VALID_MODERN,
    &FEATURES_MODERN,
    &STRUCTURED_MODERN,
    &LISTED_LEGACY,
    &SHUTDOWN_LEGACY,
    &ORIGIN_LEGACY,
    &NOTIFICATION_202_LEGACY,
    &REQUEST_CONTENT_TYPE_LEGACY,
    &SESSION_ID,
    &SESSION_REQUIRED,
    &SESSION_ENDED,
    &VERSION_HEADER,
    &HEADER_MISMATCH,
    &HEADER_MISSING,
    &CACHE_HINTS,
    &TTL_VALUE,
    &CACHE_SCOPE_PAGES,
    &LISTEN_ACK,
    &LISTEN_CANCELLED,
];
