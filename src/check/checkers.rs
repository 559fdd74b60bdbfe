//! The registry of checkers: for each exercise, a checker (a list of named
//! cases, see [`Checker`]). This file only lists them; what a checker is
//! made of and the helpers they share are the toolkit below
//! ([`crate::check::toolkit`]), which the checkers import (never this file).

mod capstone_server;
mod encode_frames;
mod era_probe;
mod handshake_gate;
mod http_front_door;
mod id_router;
mod input_required;
mod pagination_walker;
mod progress_cancel;
mod stdio_codec;
mod tool_server;

pub use super::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::content::Exercise;

static CHECKERS: &[&Checker] = &[
    &encode_frames::CHECKER,
    &id_router::CHECKER,
    &handshake_gate::CHECKER,
    &era_probe::CHECKER,
    &stdio_codec::CHECKER,
    &http_front_door::CHECKER,
    &tool_server::CHECKER,
    &pagination_walker::CHECKER,
    &progress_cancel::CHECKER,
    &input_required::CHECKER,
    &capstone_server::CHECKER,
];

/// The checker that judges `exercise`: the one resolution of an exercise's
/// checker name, for the runner and the front ends alike. `None` only for
/// an exercise that was not loaded against [`names`].
pub fn of(exercise: &Exercise) -> Option<&'static Checker> {
    CHECKERS.iter().copied().find(|c| c.name == exercise.checker)
}

/// Every checker's name, for [`crate::content::Course::load`] to accept.
pub fn names() -> Vec<&'static str> {
    CHECKERS.iter().map(|c| c.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_checker_has_distinct_case_names() {
        for checker in CHECKERS {
            let mut names: Vec<_> = checker.cases.iter().map(|c| c.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), checker.cases.len(), "{}", checker.name);
        }
    }
}
