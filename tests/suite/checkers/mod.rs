//! Mutation tests of the checkers.
//!
//! Each test copies a reference solution into a scratch crate, plants one
//! real implementer mistake in it (textual patches that must each match
//! exactly once, see `common::mutant`), runs the exercise's checker on it
//! through the library API, and asserts that the case built for that
//! mistake fails with a reason that names the right diagnosis. The
//! unmutated copies must pass, so a failing mutant is the mutation's doing.
//!
//! Mistake ids (C02, C06, …) refer to the implementer-mistakes log the
//! checkers cite.
//!
//! A module of the one integration-test binary (`tests/suite/main.rs`), a
//! module per exercise (`ex01_encode_frames` …), the controls every mutant
//! relies on in `controls` (each solution passes, the patch guard), shared
//! helpers in `helpers`.

mod controls;
mod ex01_encode_frames;
mod ex02_id_router;
mod ex03_handshake_gate;
mod ex04_era_probe;
mod ex05_stdio_codec;
mod ex06_http_front_door;
mod ex07_tool_server;
mod ex08_pagination_walker;
mod ex09_progress_cancel;
mod ex10_input_required;
mod ex11_capstone_server;
mod ex12_auth_gate;
pub(crate) mod helpers;
mod hostile;
mod schema_fidelity;
