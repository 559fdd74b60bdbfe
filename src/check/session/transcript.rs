//! A session's record of every line either way, with its direction, its
//! JSON-RPC id and its time, capped so a program printing in a loop cannot
//! fill the workbook's memory.

use std::collections::VecDeque;
use std::time::Instant;

use serde_json::Value;

use crate::check::report::{Direction, EntryKind, TranscriptEntry};
use crate::jsonrpc::frame_id;

/// Lines from the program kept in a transcript before only the latest
/// [`TRANSCRIPT_TAIL`] are: a program printing in a loop must not fill the
/// workbook's memory (the checker's own lines are always kept).
pub const MAX_TRANSCRIPT: usize = 400;
/// Latest lines from the program kept past [`MAX_TRANSCRIPT`].
pub const TRANSCRIPT_TAIL: usize = 50;

/// The lines of one session, timed from its start.
pub(super) struct Transcript {
    entries: Vec<TranscriptEntry>,
    /// The latest lines from the program past [`MAX_TRANSCRIPT`], and how
    /// many before them were dropped.
    tail: VecDeque<TranscriptEntry>,
    dropped: usize,
    started: Instant,
}

impl Transcript {
    /// An empty transcript; times count from `started`.
    pub(super) fn new(started: Instant) -> Transcript {
        Transcript {
            entries: Vec::new(),
            tail: VecDeque::new(),
            dropped: 0,
            started,
        }
    }

    /// Records `line` (parsed: `value`).
    pub(super) fn record(&mut self, direction: Direction, line: &str, value: Option<&Value>, kind: EntryKind) {
        let entry = TranscriptEntry {
            dir: direction,
            line: line.to_string(),
            id: value.and_then(frame_id),
            time_ms: self.started.elapsed().as_millis() as u64,
            kind,
        };
        if direction == Direction::FromLearner && self.entries.len() >= MAX_TRANSCRIPT {
            self.tail.push_back(entry);
            if self.tail.len() > TRANSCRIPT_TAIL {
                self.tail.pop_front();
                self.dropped += 1;
            }
            return;
        }
        self.entries.push(entry);
    }

    /// The lines kept before the cap.
    pub(super) fn entries(&self) -> &[TranscriptEntry] {
        &self.entries
    }

    /// Every line kept, with a note where lines were dropped.
    pub(super) fn finish(self) -> Vec<TranscriptEntry> {
        let mut entries = self.entries;
        if self.dropped > 0 {
            let line = format!(
                "… {} more lines from the program not kept (the first {MAX_TRANSCRIPT} and the last {TRANSCRIPT_TAIL} are) …",
                self.dropped
            );
            let time_ms = self.tail.front().map_or(0, |e| e.time_ms);
            entries.push(TranscriptEntry {
                dir: Direction::FromLearner,
                line,
                id: None,
                time_ms,
                kind: EntryKind::Junk,
            });
        }
        entries.extend(self.tail);
        entries
    }
}

/// How a line is shown: a frame, a harness line, or junk (not JSON).
pub(super) fn entry_kind(value: Option<&Value>) -> EntryKind {
    match value {
        None => EntryKind::Junk,
        Some(v) if v.get("harness").is_some() => EntryKind::Harness,
        Some(_) => EntryKind::Frame,
    }
}
