//! The course and exercises manifests' TOML shapes on any text.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use mcplings::content::error::parse_toml;
use mcplings::content::manifest::{CourseFile, ExercisesFile};

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let _ = parse_toml::<CourseFile>(Path::new("course.toml"), &source);
    let _ = parse_toml::<ExercisesFile>(Path::new("exercises.toml"), &source);
});
