//! The registry of checkers: for each exercise, a checker (a list of named
//! cases, see [`Checker`]). This file only lists them; what a checker is
//! made of and the helpers they share are the toolkit below
//! (`check::toolkit`), which the checkers import (never this file).

mod auth_gate;
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
    &auth_gate::CHECKER,
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
    fn every_hint_for_names_a_case_of_its_checker() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let course = crate::content::Course::load(root, &names()).expect("the course loads");
        for ex in &course.exercises {
            let cases: Vec<&str> = of(ex).unwrap().cases.iter().map(|c| c.name).collect();
            for case in ex.hint_for.keys() {
                assert!(
                    cases.contains(&case.as_str()),
                    "{}: hint_for names `{case}`, not a case of its checker",
                    ex.id
                );
            }
        }
        let ex = course.exercise("01").unwrap();
        assert_eq!(
            ex.hint_for.len(),
            of(ex).unwrap().cases.len(),
            "01 says which hint is about each case"
        );
    }

    #[test]
    fn every_checker_has_distinct_case_names() {
        for checker in CHECKERS {
            let mut names: Vec<_> = checker.cases.iter().map(|c| c.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), checker.cases.len(), "{}", checker.name);
        }
    }

    /// The layers run one way: a checker file (and its own submodules)
    /// imports the toolkit, never this registry; the toolkit imports no
    /// checker.
    #[test]
    fn checkers_import_the_toolkit_not_the_registry() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/check");
        let mut files = Vec::new();
        let mut dirs = vec![root.join("checkers"), root.join("toolkit")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push(path);
                }
            }
        }
        files.push(root.join("toolkit.rs"));
        assert!(files.len() > 20, "{files:?}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let top_level_checker = file.parent() == Some(root.join("checkers").as_path());
            for line in text.lines().filter(|l| l.starts_with("use ")) {
                assert!(!line.contains("check::checkers"), "{}: {line}", file.display());
                assert!(
                    !(top_level_checker && line.contains("super::")),
                    "{}: {line}",
                    file.display()
                );
            }
        }
    }
}
