//! The SSE stream parser on any body an HTTP exercise might send.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcplings::check::http::parse_events;

fuzz_target!(|data: &[u8]| {
    let stream = String::from_utf8_lossy(data);
    for event in parse_events(&stream) {
        assert!(!event.data.is_empty() || stream.contains("data"));
    }
});
