//! The learner's loop on the command line (issue 18): every command fits
//! 80 columns, exit codes say stop / failure / usage, `task` prints an
//! exercise's task, progress survives a course update, and `init` writes a
//! learner workspace.

mod common;

use std::fs;

use common::cmd::{assert_fits_80, at, mcplings, run};

// ---------------------------------------------------------------------------
// 80 columns
// ---------------------------------------------------------------------------

#[test]
fn every_command_fits_80_columns() {
    let course = common::course_copy();
    let root = course.path();
    // Answers that try every letter, so wrong and right explanations show.
    let letters: String = "a\nb\nc\nd\ne\nf\n".repeat(25);
    for part in ["1", "2", "3", "4", "5"] {
        let r = run(mcplings(root).args(["quiz", part]).write_stdin(letters.clone()));
        assert_eq!(r.code, 0, "{r:?}");
        assert_fits_80(&r, &format!("quiz {part}"));
        let r = at(root, &["lesson", part]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_fits_80(&r, &format!("lesson {part} (piped)"));
    }
    for _ in 0..6 {
        let r = at(root, &["hint", "08"]);
        assert_fits_80(&r, "hint 08");
    }
    let r = at(root, &["glossary"]);
    assert_fits_80(&r, "glossary");
    let r = at(root, &["glossary", "progress token"]);
    assert_fits_80(&r, "glossary TERM");
    // A last check recorded for every exercise widens list's lines.
    let mut exercises = serde_json::Map::new();
    for id in ["01-encode-frames", "08-pagination-walker", "11-capstone-server"] {
        exercises.insert(
            id.into(),
            serde_json::json!({"done": false, "hints_shown": 0, "last_check": [11, 22]}),
        );
    }
    let progress = serde_json::json!({"format_version": 1, "exercises": exercises});
    fs::create_dir_all(root.join(".mcplings")).unwrap();
    fs::write(root.join(".mcplings/progress.json"), progress.to_string()).unwrap();
    let r = at(root, &["list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_fits_80(&r, "list");
    assert!(r.stdout.contains("last check 11/22"), "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("  · ")).collect();
    let column = |l: &str| l.find(char::is_uppercase);
    assert!(
        lines.windows(2).all(|w| column(w[0]) == column(w[1])),
        "titles start in one column:\n{}",
        r.stdout
    );
}
