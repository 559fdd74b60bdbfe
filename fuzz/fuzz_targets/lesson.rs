//! The lesson loader on any Markdown: errors with lines, never a panic; a
//! lesson it accepts lays out at any width.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use mcplings::content::lesson;
use mcplings::text::{lay_out_lesson, lesson_plain};

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    match lesson::parse(Path::new("lesson.md"), &source) {
        Ok(l) => {
            for width in [0, 1, 7, 40, 78] {
                let _ = lay_out_lesson(&l, width);
            }
            let _ = lesson_plain(&l, 20);
        }
        Err(errors) => assert!(!errors.is_empty()),
    }
});
