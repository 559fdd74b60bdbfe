//! The check report: what `mcplings check --json` prints and what the TUI
//! draws. Its JSON shape is versioned by [`REPORT_FORMAT_VERSION`]; a
//! saved report reads back (the screen tests draw recorded ones).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::diff::Difference;
pub use super::window::Window;

/// Version of the JSON report's shape.
pub const REPORT_FORMAT_VERSION: u32 = 1;

/// Everything one check found.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CheckReport {
    /// Always [`REPORT_FORMAT_VERSION`].
    pub format_version: u32,
    /// The exercise id, e.g. `01-encode-frames`.
    pub exercise: String,
    /// What was checked: `exercise`, `solution` or `path`.
    pub source: String,
    /// The crate directory that was built.
    pub crate_dir: String,
    /// True when the build succeeded and every case passed.
    pub passed: bool,
    /// The build step.
    pub build: BuildReport,
    /// Every case, in order; `not_run` when the build failed or an earlier
    /// case hung.
    pub cases: Vec<CaseReport>,
    /// Wall time of the whole check, in milliseconds.
    pub duration_ms: u64,
    /// Set when the check could not be carried out at all (for example
    /// `cargo` is missing); the learner's code is not at fault then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl CheckReport {
    /// Number of cases that passed.
    pub fn passed_cases(&self) -> usize {
        self.cases.iter().filter(|c| c.status == Status::Passed).count()
    }

    /// The first case that did not pass, if any.
    pub fn first_failure(&self) -> Option<&CaseReport> {
        self.cases.iter().find(|c| c.status == Status::Failed)
    }
}

/// The build step of a check.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct BuildReport {
    /// Whether `cargo build` succeeded and produced a binary.
    pub ok: bool,
    /// The compiler's messages for the learner's crate (errors, warnings),
    /// with ANSI colours when the check asked for them.
    pub output: String,
    /// Wall time of the build, in milliseconds.
    pub duration_ms: u64,
}

/// A case's outcome.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The program did what the case asks.
    Passed,
    /// It did not; `reason` says what to change.
    Failed,
    /// The case did not run (build failed, an earlier case hung, cancelled).
    NotRun,
}

/// One named case.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CaseReport {
    /// Short name, e.g. `notification has no id`.
    pub name: String,
    /// What the case proves, in one sentence.
    pub about: String,
    /// The outcome.
    pub status: Status,
    /// For a failed or skipped case: one line a learner understands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What a correct program would have produced, where that is a value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// What the program produced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// Where `expected` and `actual` differ, by JSON pointer.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub differences: Vec<Difference>,
    /// Every line to and from the program.
    pub transcript: Vec<TranscriptEntry>,
    /// The program's stderr (kept apart from the frames).
    pub stderr: String,
    /// Bytes of stderr dropped past the cap (0 when none).
    #[serde(skip_serializing_if = "is_zero", default)]
    pub stderr_dropped: usize,
    /// The time window the verdict depended on, when it did: `reason`
    /// names it as the checker wrote it, and [`CaseReport::reason_told`]
    /// tells it stretched by the machine's load.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub window: Option<Window>,
    /// Wall time of the case, in milliseconds.
    pub duration_ms: u64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Shown under a failed case's transcript whose last line went to the
/// program: the reason says why, this says where the conversation stopped.
pub const NOTHING_BACK: &str = "(nothing came back after this line)";

impl CaseReport {
    /// Whether the case failed with the program's last word missing: its
    /// transcript ends with a line sent to it ([`NOTHING_BACK`]).
    pub fn ends_unanswered(&self) -> bool {
        self.status == Status::Failed && self.transcript.last().is_some_and(|e| e.dir == Direction::ToLearner)
    }

    /// A case that did not run, with the reason why.
    pub fn not_run(name: &str, about: &str, reason: &str) -> CaseReport {
        CaseReport {
            name: name.to_string(),
            about: about.to_string(),
            status: Status::NotRun,
            reason: Some(reason.to_string()),
            expected: None,
            actual: None,
            differences: Vec::new(),
            transcript: Vec::new(),
            stderr: String::new(),
            stderr_dropped: 0,
            window: None,
            duration_ms: 0,
        }
    }

    /// The reason as the learner reads it: with the window it names told
    /// as it was, stretched by the machine's load ([`Window::tell`]).
    /// `reason` itself stays as the checker wrote it, the same under any
    /// load.
    pub fn reason_told(&self) -> Option<String> {
        let reason = self.reason.as_deref()?;
        Some(self.window.map_or_else(|| reason.to_string(), |w| w.tell(reason)))
    }
}

/// Which way a line went.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// From the checker to the learner's program (its stdin).
    ToLearner,
    /// From the learner's program (its stdout).
    FromLearner,
}

/// What a transcript line is.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A JSON-RPC frame (or what was meant as one).
    Frame,
    /// A line of the exercise harness (`{"harness": …}`): a command to it or
    /// a value it reports from the learner's functions.
    Harness,
    /// A line that is not JSON at all.
    Junk,
    /// An HTTP exchange: a request line or a status line, with the headers
    /// that matter and the body (an SSE stream's events follow as frames).
    Http,
}

/// One line of a transcript.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TranscriptEntry {
    /// Which way it went.
    pub dir: Direction,
    /// The line as written, without its line ending.
    pub line: String,
    /// Its JSON-RPC id, when it has a string or integer one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// Milliseconds since the program started.
    pub time_ms: u64,
    /// Frame, harness line, or junk.
    pub kind: EntryKind,
}

impl TranscriptEntry {
    /// The glyph drawn before the line: `▶` to the program, `◀` from it;
    /// `▷` and `◁` for harness lines.
    pub fn glyph(&self) -> &'static str {
        match (self.dir, self.kind) {
            (Direction::ToLearner, EntryKind::Harness) => "▷",
            (Direction::FromLearner, EntryKind::Harness) => "◁",
            (Direction::ToLearner, _) => "▶",
            (Direction::FromLearner, _) => "◀",
        }
    }
}
