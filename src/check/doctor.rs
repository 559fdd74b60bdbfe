//! `mcplings doctor`: the checks that hold for *every* MCP server, run
//! against any stdio server command, on the engine `check` uses: a check
//! in a fresh process ([`Session`]), or, for those that only list, read
//! and validate, one process per era (`shared.rs`; `--isolated`:
//! [`Options::isolated`], none shared), the case pool (`cases.rs`),
//! the toolkit's client (`toolkit::as_client`: the legacy handshake, the
//! modern `_meta`, exchanges, the id rules of `toolkit::ids`), the
//! schema check of every frame (`schema.rs`) and `check`'s case report.
//!
//! Outcomes ([`Verdict`]): **fail** only for a MUST or MUST NOT, quoting
//! its sentence (one that binds the server); **warn** for a SHOULD, or
//! mcplings' own advice where no sentence binds the server (a crash or a
//! hang, [`rules::ROBUST`]); **not verified** when the server offers
//! nothing to observe a rule with (no tools, no resources); pass. Checks
//! that do not apply (a feature not declared, no tool asked for) are left
//! out. Every check has a stable id ([`ids::ALL`], docs/doctor.md). The
//! era is found as a host finds it (`detect.rs`: 2026-07-28
//! basic/transports/stdio › Backward Compatibility), then each check runs
//! in every era the server speaks; a finding cites its sentence as the
//! session's revision states it (`rules::for_revision`).
//!
//! Over Streamable HTTP (`--url`, `http.rs`; a legacy session-based
//! server: `http_legacy.rs`, 2025-11-25 basic/transports) the same ids
//! name the same checks, with the transport's own rules.
//!
//! A crash or a hang ends a check under the robustness advice (a warn);
//! junk on stdout is a fail whatever the check. No tool is called unless
//! asked ([`Options::calls`], [`Options::call_readonly`]).

mod base;
mod detect;
mod features;
mod http;
mod http_checks;
mod http_conn;
mod http_legacy;
pub mod ids;
mod lifecycle;
pub mod report;
pub mod rules;
mod run;
mod shared;
pub mod table;
pub mod unobservable;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use run::run_all;
pub(crate) use run::{finish_case, framing, schema_finding};

use serde_json::Value;

pub use report::{DoctorCase, DoctorReport, Verdict};
pub use rules::{Level, Rule};

use super::session::{Session, Stop};
use super::toolkit::Failure;
use super::toolkit::as_client::Client;
use crate::mcp;

/// How long a check's whole conversation may take, with the default
/// startup window ([`check_timeout`] for another).
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a server may take to answer its first request by default (it
/// may be starting an interpreter).
pub const STARTUP: Duration = Duration::from_secs(10);

/// How long a check's whole conversation may take when the server has
/// `startup` to answer its first request (`--startup-ms`): [`CHECK_TIMEOUT`],
/// and whatever `startup` adds over [`STARTUP`], so a longer window is
/// never cut short by the bound around it (30 s to start: 35 s in all).
fn check_timeout(startup: Duration) -> Duration {
    CHECK_TIMEOUT + startup.saturating_sub(STARTUP)
}

/// Checks run at once.
const AT_ONCE: usize = 4;

/// Which era(s) to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraChoice {
    /// Find it as a host does: probe with `server/discover`, fall back to
    /// `initialize`; a server that answers both is dual-era.
    #[default]
    Auto,
    /// Only the `initialize` handshake (2025-11-25).
    Legacy,
    /// Only per-request `_meta` (2026-07-28).
    Modern,
}

/// How to run doctor.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The era(s) to speak.
    pub era: EraChoice,
    /// Tools to call, each with its arguments (`--call NAME=JSON`).
    pub calls: Vec<(String, Value)>,
    /// Also call, with `{}`, every tool annotated `readOnlyHint: true` that
    /// requires no arguments (`--call-readonly`).
    pub call_readonly: bool,
    /// Set to stop early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// How long the server may take to answer its first request in each
    /// process (`None`: [`STARTUP`], 10 s), stretched by the machine's load.
    pub startup: Option<Duration>,
    /// The certificates an `https://` URL trusts (`--url`; `--cacert`).
    pub trust: super::http::Trust,
    /// Run every check in a process of its own (`--isolated`), as the
    /// shared process's checks are run again when they do not pass there.
    pub isolated: bool,
    /// Run only the checks with these names (without the era: `ids
    /// echoed`), after era detection; `None` runs them all (stdio).
    pub only: Option<Vec<String>>,
}

/// The server: a program and its arguments (found on `PATH` when bare).
#[derive(Debug, Clone)]
pub struct Target {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// An era a check speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// After the `initialize` handshake.
    Legacy,
    /// Per-request `_meta`.
    Modern,
}

impl Era {
    fn name(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }

    /// The revision whose text a finding in this era cites.
    fn revision(self) -> &'static str {
        match self {
            Era::Legacy => mcp::LEGACY,
            Era::Modern => mcp::MODERN,
        }
    }
}

/// What a check knows about the server before it starts.
pub(crate) struct Ctx {
    /// The era this run of the check speaks.
    pub era: Era,
    /// The version `initialize` settled (legacy), else empty.
    pub legacy_version: String,
    /// The capabilities the server declared in this era.
    pub capabilities: Value,
    /// Tools to call with their arguments.
    pub calls: Vec<(String, Value)>,
    /// Whether read-only tools without required arguments are called.
    pub call_readonly: bool,
    /// How long the first answer in a process may take.
    pub startup: Duration,
    /// On the shared process: the client of the conversation already
    /// opened there (the legacy handshake done), which each check on it
    /// continues, so no request id is used twice in the session.
    pub opened: Option<std::sync::Mutex<Client>>,
}

impl Ctx {
    /// The client a check on the shared process continues with, if it runs
    /// on one.
    pub fn continued(&self) -> Option<Client> {
        self.opened
            .as_ref()
            .map(|c| c.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }

    /// Keeps `client` (its next id) for the next check on the shared
    /// process; nothing in a process of the check's own.
    pub fn keep(&self, client: Client) {
        if let Some(slot) = &self.opened {
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = client;
        }
    }

    /// Whether the server declared the capability `name` in this era.
    pub fn declares(&self, name: &str) -> bool {
        self.capabilities.get(name).is_some_and(Value::is_object)
    }
}

/// How a check ended when it found nothing wrong.
pub(crate) enum Outcome {
    /// It passed.
    Pass,
    /// It passed; a line of what was found.
    Note(String),
    /// It does not apply (left out of the report); why.
    Skip(String),
    /// The server offered nothing to observe the rule with; why.
    Unverified(String),
}

/// A finding: a failure, under the check's own rule (`rule: None`) or
/// another one.
pub(crate) struct Finding {
    pub failure: Failure,
    pub rule: Option<&'static Rule>,
    /// A warning every SDK tried shares ([`ids::SHARED`]).
    pub shared: bool,
}

impl Finding {
    /// `failure` under `rule` instead of the check's.
    pub fn under(rule: &'static Rule, failure: Failure) -> Finding {
        Finding {
            failure,
            rule: Some(rule),
            shared: false,
        }
    }
}

impl From<Failure> for Finding {
    fn from(failure: Failure) -> Finding {
        Finding {
            failure,
            rule: None,
            shared: false,
        }
    }
}

/// A check's setup (the handshake, a first served request) failing: in
/// silence it is a hang, under [`rules::ROBUST`], not the check's rule;
/// anything shown stays the check's.
pub(crate) fn setup(failure: Failure) -> Finding {
    if failure.actual.is_none() && failure.expected.is_none() {
        Finding::under(&rules::ROBUST, failure)
    } else {
        failure.into()
    }
}

impl From<Stop> for Finding {
    fn from(stop: Stop) -> Finding {
        Failure::from(stop).into()
    }
}

/// A check's result.
pub(crate) type Checked = Result<Outcome, Finding>;

/// One check.
pub(crate) struct Check {
    /// Its stable id ([`ids::ALL`]).
    pub id: &'static str,
    /// Its name in the report.
    pub name: &'static str,
    /// What it proves, in one sentence.
    pub about: &'static str,
    /// The rule a finding breaks, unless the finding names another.
    pub rule: &'static Rule,
    /// The eras it runs in.
    pub eras: &'static [Era],
    /// Whether the server's frames are held to the official types after
    /// the check (not for checks that send malformed frames on purpose:
    /// what answers them is judged by the check).
    pub schema: bool,
    /// The conversation.
    pub run: fn(&mut Session, &Ctx) -> Checked,
}

/// Both eras.
pub(crate) const BOTH: &[Era] = &[Era::Legacy, Era::Modern];

/// Every check after era detection, in report order.
fn checks() -> Vec<&'static Check> {
    let mut all: Vec<&'static Check> = Vec::new();
    all.extend(lifecycle::CHECKS);
    all.extend(base::CHECKS);
    all.extend(features::CHECKS);
    all.extend(features::MODERN_ONLY);
    all
}

/// Runs doctor against `target`; never fails: a server that cannot be
/// started ends with [`DoctorReport::error`] set. What the server left
/// behind outside its process groups is killed before it returns.
pub fn doctor(target: &Target, options: &Options) -> DoctorReport {
    let scale = super::session::slack::scale();
    let mut report = doctor_stdio(target, options);
    super::session::children::reap_orphans();
    note_stretch(&mut report, scale);
    report
}

/// Adds [`super::window::stretched_run_note`] for a run that started with
/// the windows stretched by `scale` (or ends with them stretched more).
fn note_stretch(report: &mut DoctorReport, scale: f64) {
    let scale = scale.max(super::session::slack::scale());
    let by_hand = super::session::slack::set_by_hand().is_some();
    report.notes.extend(super::window::stretched_run_note(scale, by_hand));
}

fn doctor_stdio(target: &Target, options: &Options) -> DoctorReport {
    let started = Instant::now();
    let mut command = vec![target.program.display().to_string()];
    command.extend(target.args.iter().cloned());
    let mut report = DoctorReport::new(command);
    let mut detected = detect::detect(target, options);
    let probed = std::mem::take(&mut detected.kept);
    report.cases.extend(detected.cases);
    report.era = detected.era;
    report.detection = detected.how;
    report.error = detected.error;
    if report.error.is_none() {
        let mut runs: Vec<(&'static Check, Ctx)> = Vec::new();
        let wanted = |check: &Check| {
            options
                .only
                .as_ref()
                .is_none_or(|names| names.iter().any(|n| n == check.name))
        };
        for check in checks().into_iter().filter(|c| wanted(c)) {
            for found in &detected.eras {
                if check.eras.contains(&found.era) {
                    runs.push((
                        check,
                        Ctx {
                            era: found.era,
                            legacy_version: found.legacy_version.clone(),
                            capabilities: found.capabilities.clone(),
                            calls: options.calls.clone(),
                            call_readonly: options.call_readonly,
                            startup: options.startup.unwrap_or(STARTUP),
                            opened: None,
                        },
                    ));
                }
            }
        }
        report.cases.extend(run_all(target, &runs, options, probed));
        if let Some(f) = detected.eras.iter().find(|f| f.era == Era::Legacy)
            && ![mcp::LEGACY, ""].contains(&f.legacy_version.as_str())
        {
            report.notes.push(format!(
                "the legacy session settled on {}: mcplings has types for 2025-11-25 and 2026-07-28 only, so legacy frames were not validated against the official types",
                f.legacy_version
            ));
        }
        if options.call_readonly {
            report.notes.push("--call-readonly trusts `readOnlyHint`: annotations are hints from the server, not guarantees, and a client treats them as untrusted unless the server is (2025-11-25 server/tools › Tool)".into());
        }
    }
    after_calls(&mut report, options);
    report.tally();
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// What tools were called leaves in the report: a note that their
/// results are in the transcripts, and [`DoctorReport::usage`] when a
/// `--call` named a tool the server does not list.
fn after_calls(report: &mut DoctorReport, options: &Options) {
    let called = report
        .cases
        .iter()
        .any(|c| c.id == "tools-called" && c.case.transcript.iter().any(|e| e.line.contains("\"tools/call\"")));
    if called {
        report.notes.push(
            "the called tools' results are in the transcripts (--json, --verbose): a tool may return secrets (an environment, a token), so look before you share the report".into(),
        );
    }
    // The tools-called notes (one per era) name each tool --call asked
    // for that the server does not list.
    let note: Vec<&str> = report
        .cases
        .iter()
        .filter(|c| c.id == "tools-called")
        .filter_map(|c| c.note.as_deref())
        .collect();
    let note = note.join("\n");
    let named: Vec<String> = options
        .calls
        .iter()
        .filter_map(|(name, _)| features::unlisted(&note, name))
        .collect();
    if !named.is_empty() {
        report.usage = Some(format!(
            "--call names a tool the server does not list: {} (tools-listed names the tools: --verbose)",
            named.join(", ")
        ));
    }
}

/// Runs doctor against the modern Streamable HTTP server at `url` (http,
/// or https trusting [`Options::trust`]);
/// see `http.rs`. A server that cannot be reached, or is not modern, ends
/// with [`DoctorReport::error`] set.
pub fn doctor_url(url: &str, options: &Options) -> DoctorReport {
    let started = Instant::now();
    let scale = super::session::slack::scale();
    let mut report = DoctorReport::new(vec![url.to_string()]);
    http::doctor_url(url, options, &mut report);
    after_calls(&mut report, options);
    note_stretch(&mut report, scale);
    report.tally();
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/doctor.md's slow starter, `--startup-ms 30000`, has its 30 s
    /// and the 5 s after it that every check has with the default 10 s.
    /// (A 17 s starter was cut off at 15 s and "could not be run".)
    #[test]
    fn a_longer_startup_window_lengthens_the_bound_around_it() {
        assert_eq!(check_timeout(STARTUP), Duration::from_secs(15));
        assert_eq!(check_timeout(Duration::from_secs(1)), Duration::from_secs(15));
        assert_eq!(check_timeout(Duration::from_secs(30)), Duration::from_secs(35));
    }

    #[test]
    fn the_rule_table_holds_every_rule_once_and_every_check_with_its_own_rule() {
        for rule in rules::ALL {
            let rows = table::CHECKED.iter().filter(|r| r.rule == *rule).count();
            assert_eq!(rows, 1, "{rule:?} is in {rows} rows of the table");
        }
        for row in table::CHECKED {
            assert!(rules::ALL.contains(&row.rule), "{:?} is not in rules::ALL", row.rule);
            for id in row.checks {
                assert!(ids::ALL.iter().any(|(i, _)| i == id), "{id} is no check");
            }
        }
        for (id, _) in ids::ALL {
            assert!(table::rows_of(id).next().is_some(), "{id} is in no row of the table");
        }
        // Each check's own rule, as each era it runs in states it.
        let held = |id: &str, rule: &'static Rule, era: Era| {
            let cited = rules::for_revision(rule, era.revision());
            assert!(
                table::rows_of(id).any(|r| r.rule == cited),
                "{id} ({}): {cited:?} is not in its rows",
                era.name()
            );
        };
        for check in checks().into_iter().chain([&detect::PROBE, &detect::HANDSHAKE]) {
            check.eras.iter().for_each(|era| held(check.id, check.rule, *era));
        }
        http::CHECKS.iter().for_each(|c| held(c.id, c.rule, Era::Modern));
        http_legacy::CHECKS.iter().for_each(|c| held(c.0, c.3, Era::Legacy));
        for feature in features::FEATURES.iter().chain([&features::CACHING]) {
            BOTH.iter().for_each(|era| held(feature.id, feature.rule, *era));
        }
    }

    #[test]
    fn every_check_has_a_listed_id_and_every_id_a_check() {
        let mut used: Vec<&str> = checks().iter().map(|c| c.id).collect();
        used.extend([detect::PROBE.id, detect::HANDSHAKE.id, "initialize"]);
        used.extend(http::CHECKS.iter().map(|c| c.id));
        used.extend(http_legacy::CHECKS.iter().map(|c| c.0));
        used.extend(features::FEATURES.iter().map(|f| f.id));
        for id in &used {
            assert!(ids::ALL.iter().any(|(i, _)| i == id), "{id} is not in ids::ALL");
        }
        for (id, _) in ids::ALL {
            assert!(used.contains(id), "{id} names no check");
        }
        // Within one transport's list, an id names one check.
        let stdio: Vec<&str> = checks().iter().map(|c| c.id).collect();
        for list in [
            stdio,
            http::CHECKS.iter().map(|c| c.id).collect(),
            http_legacy::CHECKS.iter().map(|c| c.0).collect(),
        ] {
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), list.len(), "{list:?}");
        }
    }
}
