//! Connects your `src/lib.rs` to the checker's harness (`harness/`). YOU DO
//! NOT NEED TO EDIT THIS FILE: your work is in `src/lib.rs`.
//!
//! The harness is a crate of its own, built once; this file and yours are
//! what a save recompiles. It hands your decoder and `encode` to the
//! harness, turning your types into JSON values.

use serde_json::{Value, json};

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own). What a stub leaves unused is not a mistake yet: no dead-code
// warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Decoder, FrameError, encode};

fn main() {
    harness::run(&mut Yours::default());
}

/// Your decoder, made when the harness says so.
#[derive(Default)]
struct Yours {
    decoder: Option<Decoder>,
}

impl Yours {
    fn decoder(&mut self) -> &mut Decoder {
        self.decoder.get_or_insert_with(Decoder::new)
    }
}

impl harness::Learner for Yours {
    fn new_decoder(&mut self) {
        self.decoder = Some(Decoder::new());
    }

    fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Value, Value>> {
        self.decoder()
            .feed(bytes)
            .into_iter()
            .map(|decoded| decoded.map_err(frame_error))
            .collect()
    }

    fn buffered(&mut self) -> usize {
        self.decoder().buffered()
    }

    fn encode(&mut self, message: &Value) -> Vec<u8> {
        encode(message)
    }
}

/// Reports a line that is not a message, as the harness prints it.
fn frame_error(error: FrameError) -> Value {
    match error {
        FrameError::Invalid { line, reason } => {
            json!({"invalid": line.chars().take(200).collect::<String>(), "reason": reason})
        }
        FrameError::Batch => json!({"batch": true}),
    }
}
