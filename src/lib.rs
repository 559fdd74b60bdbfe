//! mcplings: a terminal workbook that teaches the Model Context Protocol (MCP).
//!
//! The crate is a library so that tests can drive every layer directly:
//! [`content`] loads and validates the course, [`check`] builds and judges a
//! learner's crate (the one engine the CLI and the TUI share), [`progress`]
//! keeps the learner's state, [`cli`] is the command line and [`tui`] the
//! terminal app (state in [`app`], drawing in [`ui`]).

// Unix only (process groups, Unix sockets); on Windows the crate is empty
// and the binary says it is not supported (src/main.rs).
#![cfg(unix)]
// A `Failure` is built once per failing case, on a cold path; its size
// costs nothing, and boxing it would only add noise to every checker.
#![allow(clippy::result_large_err)]

pub mod actions;
pub mod app;
pub mod bundled;
pub mod check;
pub mod cli;
pub mod content;
pub mod jsonrpc;
pub mod mcp;
pub mod paths;
pub mod progress;
pub mod text;
pub mod tui;
pub mod ui;
pub mod watch;
