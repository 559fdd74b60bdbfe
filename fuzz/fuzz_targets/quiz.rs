//! The quiz loader on any TOML: errors with lines, never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use mcplings::content::quiz;

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    if let Ok(q) = quiz::parse(Path::new("quiz.toml"), &source) {
        for question in &q.questions {
            assert!(question.options[question.correct()].correct);
        }
    }
});
