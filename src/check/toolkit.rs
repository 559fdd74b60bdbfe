//! The checkers' toolkit, below every checker: what a checker is made of
//! ([`case`]), comparing values into failures ([`compare`]), and one module
//! per role the checker plays towards a learner's program:
//!
//! - [`harness`]: driving an exercise harness (library-style exercises);
//! - [`as_server`]: the checker as the server of a learner's client;
//! - [`as_client`]: the checker as the client of a learner's server;
//! - [`as_service`]: the checker as a service a learner's HTTP server calls
//!   (an authorization server, an upstream API);
//! - [`raw_http`]: an HTTP request sent byte for byte, header names as a
//!   case spells them;
//!
//! and the request-id rules every server checker holds a server to ([`ids`]).
//!
//! The protocol's vocabulary (revisions, `_meta` keys, the checker's own
//! name) is [`crate::mcp`]. Nothing here imports a checker or the registry
//! ([`crate::check::checkers`]).

pub mod as_client;
pub mod as_server;
pub mod as_service;
pub mod case;
pub mod compare;
pub mod harness;
pub mod ids;
pub mod raw_http;

pub use case::{Case, CaseResult, Checker, Failure, Shape};
