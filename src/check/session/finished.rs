//! What is left of a session once it is over ([`Finished`]): its
//! transcript, stderr and the scale its windows stretched by.

use crate::check::report::TranscriptEntry;

/// What is left of a session once it is over.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Every line, both directions, in order.
    pub transcript: Vec<TranscriptEntry>,
    /// The program's stderr (lossy UTF-8): all of it, or its first and last
    /// halves of [`MAX_STDERR`](super::MAX_STDERR) with a note in between
    /// saying how much of the middle was dropped.
    pub stderr: String,
    /// Bytes of stderr dropped from the middle (0 when none).
    pub stderr_dropped: usize,
    /// How much the session stretched its windows ([`super::slack::scale`]).
    pub scale: f64,
}

impl Default for Finished {
    fn default() -> Finished {
        Finished {
            transcript: Vec::new(),
            stderr: String::new(),
            stderr_dropped: 0,
            scale: 1.0,
        }
    }
}

impl Finished {
    /// The passing report of case `name` that ran in this session since
    /// `started`: its transcript and stderr, no reason, no differences (the
    /// caller records a failure on it).
    pub fn into_report(self, name: &str, about: &str, started: std::time::Instant) -> crate::check::report::CaseReport {
        crate::check::report::CaseReport {
            name: name.to_string(),
            about: about.to_string(),
            status: crate::check::report::Status::Passed,
            reason: None,
            expected: None,
            actual: None,
            differences: Vec::new(),
            transcript: self.transcript,
            stderr: self.stderr,
            stderr_dropped: self.stderr_dropped,
            window: None,
            duration_ms: started.elapsed().as_millis() as u64,
        }
    }
}
