//! Unit tests of the course loader (`content.rs`).

use super::*;

#[test]
fn exercises_are_found_by_number_slug_or_id() {
    let ex = Exercise {
        id: "01-encode-frames".into(),
        title: String::new(),
        task: String::new(),
        part: 1,
        files: vec![],
        hints: vec![],
        hint_for: Default::default(),
        needs: vec![],
        checker: String::new(),
        timeout: Duration::from_secs(1),
        part_dir: String::new(),
    };
    for q in ["01", "1", "encode-frames", "01-encode-frames", " 01 "] {
        assert!(ex.matches(q), "{q}");
    }
    for q in ["02", "", "encode", "frames", "01-encode"] {
        assert!(!ex.matches(q), "{q}");
    }
}

#[test]
fn exercise_ids() {
    assert!(is_exercise_id("01-encode-frames"));
    assert!(!is_exercise_id("1-encode"));
    assert!(!is_exercise_id("01_encode"));
    assert!(!is_exercise_id("01-Encode"));
}
