//! The rules of the Streamable HTTP transport (`doctor --url`): modern
//! (2026-07-28 basic/transports/streamable-http) and legacy (2025-11-25
//! basic/transports › Streamable HTTP), quoted as [`super`] quotes every
//! rule.

use super::{Rule, advice, must, should};

/// A modern request without its required `_meta` fields, over HTTP.
pub const META_REQUIRED_HTTP: Rule = must(
    "2026-07-28",
    "basic/index › _meta",
    "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code `-32602` (Invalid params). On HTTP, the response status MUST be `400 Bad Request`.",
);
/// An unsupported version over HTTP.
pub const UNSUPPORTED_VERSION_HTTP: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Protocol Version Header",
    "If the server does not implement the requested protocol version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with `400 Bad Request` and an `UnsupportedProtocolVersionError` listing its supported versions.",
);
/// An unknown method over HTTP.
pub const METHOD_NOT_FOUND_HTTP: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Protocol Version Header",
    "If the server does not implement the requested RPC method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601` (`Method not found`).",
);
/// A notification POSTed.
pub const NOTIFICATION_202: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Sending Messages",
    "If the server accepts it, the server MUST return HTTP status code `202 Accepted` with no body.",
);
/// A request POSTed gets JSON or an SSE stream.
pub const REQUEST_CONTENT_TYPE: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Sending Messages",
    "If the body is a JSON-RPC _request_, the server MUST return either `Content-Type: application/json` (a single JSON object) or `Content-Type: text/event-stream` (an SSE response stream).",
);
/// A foreign Origin.
pub const ORIGIN: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Security & Endpoint",
    "If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden.",
);
/// [`ORIGIN`] in a legacy (2025-11-25) HTTP session.
pub const ORIGIN_LEGACY: Rule = must(
    "2025-11-25",
    "basic/transports › Streamable HTTP › Security Warning",
    "If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden.",
);
/// A body that is not JSON, over HTTP, in either era. Both revisions bind
/// an error status only for a message the server cannot accept that is a
/// notification ("If the body is a JSON-RPC _notification_", 2026-07-28
/// streamable-http › Sending Messages) or, in 2025-11-25, a response ("If
/// the input is a JSON-RPC _response_ or _notification_"); a body that is
/// no JSON is neither, so this is advice.
pub const NOT_JSON_HTTP: Rule = advice(
    "unparsable bodies",
    "answer a POST whose body is not JSON with an HTTP error status (400 Bad Request), or with -32700 Parse error (JSON-RPC 2.0 § 5.1): the specification names an error status only for a notification (or, in 2025-11-25, a response) the server cannot accept, and a body that is not JSON is neither, but a client that sent it then learns why instead of waiting",
);

/// A legacy HTTP notification POSTed.
pub const NOTIFICATION_202_LEGACY: Rule = must(
    "2025-11-25",
    "basic/transports › Sending Messages to the Server",
    "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.",
);
/// A legacy HTTP request gets JSON or an SSE stream.
pub const REQUEST_CONTENT_TYPE_LEGACY: Rule = must(
    "2025-11-25",
    "basic/transports › Sending Messages to the Server",
    "If the input is a JSON-RPC _request_, the server MUST either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.",
);
/// The session id a legacy server assigns.
pub const SESSION_ID: Rule = must(
    "2025-11-25",
    "basic/transports › Session Management",
    "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).",
);
/// A request without the session id.
pub const SESSION_REQUIRED: Rule = should(
    "2025-11-25",
    "basic/transports › Session Management",
    "Servers that require a session ID SHOULD respond to requests without an `MCP-Session-Id` header (other than initialization) with HTTP 400 Bad Request.",
);
/// A request in a session the client ended.
pub const SESSION_ENDED: Rule = must(
    "2025-11-25",
    "basic/transports › Session Management",
    "The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.",
);
/// An unsupported `MCP-Protocol-Version` header.
pub const VERSION_HEADER: Rule = must(
    "2025-11-25",
    "basic/transports › Protocol Version Header",
    "If the server receives a request with an invalid or unsupported `MCP-Protocol-Version`, it MUST respond with `400 Bad Request`.",
);

/// A modern request whose `Mcp-Method` or `Mcp-Name` disagrees with its
/// body.
pub const HEADER_MISMATCH: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Server Validation",
    "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body. ... When rejecting a request due to header validation failure, servers MUST return HTTP status `400 Bad Request` and MUST include a JSON-RPC error response using the following error code",
);
/// A modern request without a required standard header (`Mcp-Method`,
/// `Mcp-Name`): a validation failure, rejected as [`HEADER_MISMATCH`] is.
pub const HEADER_MISSING: Rule = must(
    "2026-07-28",
    "basic/transports/streamable-http › Server Validation",
    "When rejecting a request due to header validation failure, servers MUST return HTTP status `400 Bad Request` and MUST include a JSON-RPC error response using the following error code ... Validation failure conditions include: ... A required standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing.",
);
