//! The workbook in a real pseudo-terminal (util-linux `script`): a panic
//! must give the terminal back, cooked mode, main screen and cursor, so
//! the learner's shell works after it.

use crate::common;

use std::process::Command;

/// Runs the workbook under `script` with `MCPLINGS_TEST_PANIC` set, then
/// `stty -a` in the same terminal; returns everything the terminal showed,
/// or `None` when `script` is not installed.
fn panic_in_a_terminal() -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return None;
    }
    let course = common::course_copy();
    let bin = env!("CARGO_BIN_EXE_mcplings");
    let shell = format!(
        "stty cols 80 rows 24; '{bin}' --root '{}'; echo \"EXIT=$?\"; stty -a",
        course.path().display()
    );
    let out = Command::new("timeout")
        .args(["60", "script", "-qec", &shell, "/dev/null"])
        .env(mcplings::tui::PANIC_ENV, "1")
        .env("RUST_BACKTRACE", "0")
        .env("TERM", "xterm-256color")
        .env_remove("MCPLINGS_ROOT")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_panic_gives_the_terminal_back() {
    let Some(shown) = panic_in_a_terminal() else { return };
    let at = |needle: &str| {
        shown
            .rfind(needle)
            .unwrap_or_else(|| panic!("the terminal never showed {needle:?}:\n{shown}"))
    };
    // It did draw on the alternate screen, then panicked.
    let drew = at("\x1b[?1049h");
    assert!(shown.contains("mcplings ·"), "no frame was drawn:\n{shown}");
    let panicked = at("panicking on purpose");
    assert!(
        shown.contains("EXIT=101"),
        "the workbook should end with the panic's exit code 101:\n{shown}"
    );
    // The main screen is back before the message, so the learner can read it.
    let left = at("\x1b[?1049l");
    assert!(
        drew < left && left < panicked,
        "the alternate screen was not left before the panic message:\n{shown:?}"
    );
    // The cursor is shown again after it was hidden.
    assert!(at("\x1b[?25h") > at("\x1b[?25l"), "the cursor stays hidden:\n{shown:?}");
    // Raw mode is off: the terminal echoes and reads lines again.
    let stty = &shown[at("EXIT=101")..];
    let words: Vec<&str> = stty.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig", "opost"] {
        assert!(words.contains(&mode), "the terminal is left with -{mode}:\n{stty}");
    }
}
