//! Whether a JSON value fits an official MCP type, and where it does not:
//! the value deserialised into the types the `rust-mcp-schema` crate
//! generates from each revision's `schema.json` (0.10 for 2025-11-25, 2.0
//! for 2026-07-28), the first failure given as a path and a plain message.
//!
//! A crate of its own because deserialising some 140 types instantiates
//! serde's machinery for each: compiled here once, at a low opt-level (the
//! workspace's `Cargo.toml`), instead of in the app crate (with its unit
//! tests and the packaged build, three times in the test suite). What
//! mcplings makes of a failure (the revision, the frame, the report) is in
//! its `check::schema` module.

mod definitions;
mod typed;

pub use definitions::{legacy_types, modern_types};
pub use typed::{Problem, join};
