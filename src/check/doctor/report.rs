//! What `mcplings doctor` found: a [`DoctorReport`] of [`DoctorCase`]s, each
//! a check's [`CaseReport`] (reason, differences, transcript, stderr, the
//! same shape `check` reports) with its verdict and the rule it cites. Its
//! JSON shape is versioned by [`DOCTOR_FORMAT_VERSION`].

use serde::Serialize;

use super::rules::{Level, Rule};
use crate::check::report::CaseReport;

/// Version of the JSON report's shape.
pub const DOCTOR_FORMAT_VERSION: u32 = 1;

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The server keeps the rule.
    Pass,
    /// The check does not apply (a feature not declared, no tool asked
    /// for); its reason says why.
    Skip,
    /// A SHOULD or a robustness concern is broken.
    Warn,
    /// A MUST or MUST NOT is broken.
    Fail,
    /// Not run: an earlier check hung, or the handshake never completed.
    NotRun,
}

impl Verdict {
    /// The verdict a finding under a rule of `level` gets.
    pub fn of(level: Level) -> Verdict {
        match level {
            Level::Warn => Verdict::Warn,
            Level::Fail => Verdict::Fail,
        }
    }

    /// The mark printed before the check's name.
    pub fn mark(self) -> &'static str {
        match self {
            Verdict::Pass => "✓",
            Verdict::Skip => "-",
            Verdict::Warn => "!",
            Verdict::Fail => "✗",
            Verdict::NotRun => "·",
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DoctorCase {
    /// Pass, skip, warn, fail or not run.
    pub verdict: Verdict,
    /// The era the check spoke: `legacy` or `modern`; none for checks of
    /// the process (era detection).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<&'static str>,
    /// The rule a warn or fail cites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// A line of information about a passing or skipped check (what was
    /// found: "4 tools over 2 pages").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The check's report: name, reason, differences, transcript, stderr.
    #[serde(flatten)]
    pub case: CaseReport,
}

/// Everything one doctor run found.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DoctorReport {
    /// Always [`DOCTOR_FORMAT_VERSION`].
    pub format_version: u32,
    /// The server command (stdio), as given.
    pub command: Vec<String>,
    /// The era found as a host finds it: `modern`, `legacy` or `dual-era`
    /// (empty when the server could not be reached).
    pub era: String,
    /// How the era was found, in one sentence.
    pub detection: String,
    /// Every check, in order.
    pub cases: Vec<DoctorCase>,
    /// Checks that failed (a MUST broken).
    pub fails: usize,
    /// Checks that warned.
    pub warns: usize,
    /// True when no check failed.
    pub passed: bool,
    /// Things to know about the run itself (annotations are untrusted
    /// hints; frames of a revision without types are not validated).
    pub notes: Vec<String>,
    /// Wall time, in milliseconds.
    pub duration_ms: u64,
    /// Set when the server could not be started or reached at all (exit 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl DoctorReport {
    /// An empty report for `command`.
    pub fn new(command: Vec<String>) -> DoctorReport {
        DoctorReport {
            format_version: DOCTOR_FORMAT_VERSION,
            command,
            era: String::new(),
            detection: String::new(),
            cases: Vec::new(),
            fails: 0,
            warns: 0,
            passed: false,
            notes: Vec::new(),
            duration_ms: 0,
            error: None,
        }
    }

    /// Counts the verdicts and sets `passed`.
    pub fn tally(&mut self) {
        self.fails = self.cases.iter().filter(|c| c.verdict == Verdict::Fail).count();
        self.warns = self.cases.iter().filter(|c| c.verdict == Verdict::Warn).count();
        self.passed = self.error.is_none() && self.fails == 0;
    }

    /// The case called `name`, if any (for tests and scripts).
    pub fn case(&self, name: &str) -> Option<&DoctorCase> {
        self.cases.iter().find(|c| c.case.name == name)
    }
}
