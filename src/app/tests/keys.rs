//! The key tables: docs/keys.md's table is generated from them, no
//! key is bound twice on a screen, and the quiz's answer keys cover every
//! question's options.

use super::app;
use crate::app::Screen;
use crate::app::keys::{self, ANSWER_KEYS, GLOBAL, docs_table};

const START: &str = "<!-- keys: generated from src/app/keys.rs; a test compares -->\n";
const END: &str = "<!-- /keys -->";

#[test]
fn the_key_page_is_the_key_tables() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keys.md")).unwrap();
    let start = page.find(START).expect("docs/keys.md has the keys start marker") + START.len();
    let end = page[start..].find(END).expect("docs/keys.md has the keys end marker") + start;
    let expected = docs_table();
    assert!(
        page[start..end] == expected,
        "docs/keys.md's table differs from the key tables; it should read:\n{expected}"
    );
}

#[test]
fn no_key_is_bound_twice_on_a_screen() {
    for screen in [
        Screen::Map,
        Screen::Lesson,
        Screen::Exercise,
        Screen::Quiz,
        Screen::Glossary,
    ] {
        let mut seen = Vec::new();
        for (key, _) in keys::table(screen).iter().flat_map(|b| b.keys.iter()) {
            assert!(!seen.contains(key), "{screen:?} binds {key:?} twice");
            seen.push(*key);
        }
    }
    let mut seen = Vec::new();
    for (key, _) in GLOBAL.iter().flat_map(|b| b.keys.iter()) {
        assert!(!seen.contains(key), "GLOBAL binds {key:?} twice");
        seen.push(*key);
    }
}

#[test]
fn the_answer_keys_cover_every_question() {
    let app = app();
    for part in &app.course.parts {
        for question in part.quiz.iter().flat_map(|q| q.questions.iter()) {
            assert!(
                question.options.len() <= ANSWER_KEYS.len(),
                "{} has {} options: add answer keys to the quiz's table",
                question.id,
                question.options.len()
            );
        }
    }
}
