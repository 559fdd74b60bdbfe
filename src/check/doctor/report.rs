//! What `mcplings doctor` found: a [`DoctorReport`] of [`DoctorCase`]s, each
//! a check's stable id, outcome, the rule it cites and its evidence (the
//! check's [`CaseReport`]: reason, differences, transcript, stderr, the
//! same shape `check` reports). Its JSON shape is versioned by
//! [`DOCTOR_FORMAT_VERSION`].

use serde::Serialize;

use super::rules::{Level, Rule};
use crate::check::report::CaseReport;

/// Version of the JSON report's shape: 2 since each case carries its
/// stable `id` and its `outcome` (pass, warn, fail, not_verified), and
/// checks that do not apply are left out.
pub const DOCTOR_FORMAT_VERSION: u32 = 2;

/// A check's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The server keeps the rule.
    Pass,
    /// A SHOULD is broken, or mcplings' advice (a crash, a hang).
    Warn,
    /// A MUST or MUST NOT is broken.
    Fail,
    /// Nothing to observe the rule with (no tools, no resources, a check
    /// not run); its note says why. Not a pass, and not a fail.
    NotVerified,
    /// The check does not apply (a feature not declared, no tool asked
    /// for): never in a finished report, which leaves it out.
    NotApplicable,
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
            Verdict::Warn => "!",
            Verdict::Fail => "✗",
            Verdict::NotVerified => "?",
            Verdict::NotApplicable => "-",
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DoctorCase {
    /// The check's stable id (`ids::ALL`).
    pub id: &'static str,
    /// Pass, warn, fail or not verified.
    #[serde(rename = "outcome")]
    pub verdict: Verdict,
    /// The era the check spoke: `legacy` or `modern`; none for checks of
    /// the process (era detection).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub era: Option<&'static str>,
    /// The rule a warn or fail cites.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// A line about a passing or not verified check (what was found: "4
    /// tools over 2 pages"; why nothing could be observed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Set on a warning every SDK tried shares: which SDKs (the text
    /// report shows it only with `--verbose`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared: Option<&'static str>,
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
    /// Checks not verified.
    pub not_verified: usize,
    /// The ids of the checks that failed, each once, in report order.
    pub failed_ids: Vec<&'static str>,
    /// The ids of the checks that warned, each once, in report order.
    pub warned_ids: Vec<&'static str>,
    /// True when no check failed, the server could be run, and the run
    /// found no usage error.
    pub passed: bool,
    /// Things to know about the run itself (annotations are untrusted
    /// hints; frames of a revision without types are not validated).
    pub notes: Vec<String>,
    /// Wall time, in milliseconds.
    pub duration_ms: u64,
    /// Set when the server could not be started or reached at all (exit 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Set when the run found a usage error it could only see once the
    /// server answered (a `--call` naming a tool it does not list): the
    /// report stands, and the exit is 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
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
            not_verified: 0,
            failed_ids: Vec::new(),
            warned_ids: Vec::new(),
            passed: false,
            notes: Vec::new(),
            duration_ms: 0,
            error: None,
            usage: None,
        }
    }

    /// Leaves out the checks that do not apply, counts the outcomes and
    /// sets `passed` (no fail; not verified is no fail).
    pub fn tally(&mut self) {
        self.cases.retain(|c| c.verdict != Verdict::NotApplicable);
        let count = |v: Verdict| self.cases.iter().filter(|c| c.verdict == v).count();
        self.fails = count(Verdict::Fail);
        self.warns = count(Verdict::Warn);
        self.not_verified = count(Verdict::NotVerified);
        let ids = |v: Verdict| {
            let mut ids: Vec<&'static str> = Vec::new();
            for case in self.cases.iter().filter(|c| c.verdict == v) {
                if !ids.contains(&case.id) {
                    ids.push(case.id);
                }
            }
            ids
        };
        self.failed_ids = ids(Verdict::Fail);
        self.warned_ids = ids(Verdict::Warn);
        self.passed = self.error.is_none() && self.usage.is_none() && self.fails == 0;
    }

    /// The report as `--json` prints it: the fields of [`DoctorReport`]
    /// and [`DoctorCase`] (a case's [`CaseReport`] flattened into it),
    /// but in a server's terms: each transcript line's `dir` is
    /// `to_server` or `from_server` (an exercise's report says
    /// `to_learner`/`from_learner`), and a case carries no `status`
    /// (`outcome` says it in four values where `status` has two).
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("a doctor report is JSON");
        let cases = value["cases"].as_array_mut().into_iter().flatten();
        for case in cases.filter_map(serde_json::Value::as_object_mut) {
            case.remove("status");
            let lines = case.get_mut("transcript").and_then(serde_json::Value::as_array_mut);
            for line in lines.into_iter().flatten() {
                let dir = match line["dir"].as_str() {
                    Some("to_learner") => "to_server",
                    Some("from_learner") => "from_server",
                    _ => continue,
                };
                line["dir"] = dir.into();
            }
        }
        value
    }

    /// The case called `name`, if any (for tests and scripts).
    pub fn case(&self, name: &str) -> Option<&DoctorCase> {
        self.cases.iter().find(|c| c.case.name == name)
    }
}
