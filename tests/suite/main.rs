//! The integration tests, as one test binary with a module per subject.
//!
//! One binary rather than one per file: `cargo test` runs test binaries one
//! after another, each waiting for its slowest test, while the tests of one
//! binary share a pool of threads (`RUST_TEST_THREADS`, `.cargo/config.toml`).
//! Most of these tests wait on the programs they run (checks, builds,
//! silence windows), so a slow test of one subject overlaps with the quick
//! ones of every other; and the app links once instead of once per file.
//! The view snapshots (`views*.rs`, their files in `snapshots/`) are here
//! too: as binaries of their own they ran after the suite, 9 s of rendering
//! on a debug build while nothing else ran.
//!
//! A new subject is a file here and a `mod` line below; a new file directly
//! under `tests/` is a binary of its own (cargo's default), which works too
//! but waits for the others.

#[path = "../common/mod.rs"]
mod common;

mod checkers;
mod cli;
mod cli_loop;
mod content;
mod doctor;
mod engine;
mod fuzz;
mod hostile;
mod layers;
mod links;
mod progress;
mod reaping;
mod schema;
mod seeding;
mod terminal;
mod verify;
mod views;
mod views_colour;
mod views_common;
mod views_sizes;
mod views_sweep;
mod wire;

/// The checker tests' shared helpers, as `crate::helpers` (the path they
/// were written with).
use checkers::helpers;
