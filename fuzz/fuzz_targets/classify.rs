//! The JSON-RPC classifier on any bytes a learner's program might print:
//! it must name a kind, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcplings::jsonrpc::{Kind, classify, classify_line, frame_id};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let kind = classify_line(&line);
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(&line) {
        assert_eq!(classify(&value), kind);
        let _ = frame_id(&value);
    } else {
        assert!(matches!(kind, Kind::Invalid { .. }));
    }
});
