//! `mcplings doctor`: the checks that hold for *every* MCP server, run
//! against any stdio server command, on the engine `check` uses: each
//! check in a fresh process ([`Session`]), the case pool (`cases.rs`),
//! the toolkit's client (`toolkit::as_client`: the legacy handshake, the
//! modern `_meta`, exchanges, the id rules of `toolkit::ids`), the
//! schema check of every frame (`schema.rs`) and `check`'s case report.
//!
//! Two verdict levels ([`rules::Level`]): **fail** only for a MUST or MUST
//! NOT, citing its sentence; **warn** for a SHOULD or robustness. The era
//! is found as a host finds it (`detect.rs`: 2026-07-28
//! basic/transports/stdio › Backward Compatibility), then each check runs
//! in every era the server speaks. What is checked, check → level → rule
//! (the sentences are in `rules.rs`):
//!
//! | check | level | rule |
//! |---|---|---|
//! | era detection | note | 2026-07-28 stdio › Backward Compatibility |
//! | stdout carries only messages; every frame valid against its revision's types | fail | 2025-11-25 basic/transports › stdio |
//! | initialize (legacy) | fail | 2025-11-25 basic/lifecycle › Initialization |
//! | version negotiation (legacy) | fail | › Version Negotiation |
//! | requests before initialize (legacy) | warn | › Initialization |
//! | ping (legacy) | fail | basic/utilities/ping |
//! | server/discover (modern) | fail | 2026-07-28 server/discover; basic/index › Responses (resultType) |
//! | _meta required (modern) | fail | 2026-07-28 basic/index › _meta |
//! | unsupported version (modern) | fail | 2026-07-28 basic/versioning |
//! | ids echoed | fail (warn past 2^53) | basic/index › Responses; RFC 8259 § 6 |
//! | forbidden ids | warn | basic/index › Requests |
//! | notifications unanswered | fail | basic/index › Notifications |
//! | unknown method | fail (no reply) / warn (code) | JSON-RPC 2.0 § 5, § 5.1 |
//! | unparsable line, invalid request | warn | JSON-RPC 2.0 § 5.1 |
//! | tools, resources, prompts listed (all pages, capped) | fail (modern) / warn (legacy, cap) | 2026-07-28 server/tools › Capabilities; 2025-11-25 basic/lifecycle › Operation |
//! | tool schemas | fail | 2025-11-25 server/tools › Tool; basic/index › JSON Schema Usage |
//! | resources read, templates listed, prompts got | warn | server/resources › Error Handling |
//! | tools called (only when asked) | fail | server/tools › Output Schema |
//! | shutdown on EOF | warn | 2026-07-28 basic/transports/stdio › Shutdown; 2025-11-25 basic/lifecycle › Shutdown |
//!
//! Over Streamable HTTP (`--url`, `http.rs`; a legacy session-based
//! server: `http_legacy.rs`, 2025-11-25 basic/transports): server/discover,
//! _meta required (400), unsupported version (400), unknown method (404),
//! notification (202), foreign Origin (403), all fail-level (2026-07-28
//! basic/transports/streamable-http); ids echoed (fail); a body that is not
//! JSON (warn); and the feature checks above.
//!
//! A finding cites its sentence as the session's revision states it
//! (`rules::for_revision`): a 2025-11-25 rule in a modern session is
//! quoted from 2026-07-28, and a rule only 2026-07-28 states is held to a
//! legacy session at the level of the legacy sentence that stands for it.
//!
//! A crash, a hang or a flood ends a check with the session's plain
//! reason, at the check's level; junk on stdout is a fail whatever the
//! check. No tool is called unless asked ([`Options::calls`],
//! [`Options::call_readonly`]).

mod base;
mod detect;
mod features;
mod http;
mod http_legacy;
mod lifecycle;
pub mod report;
pub mod rules;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde_json::Value;

pub use report::{DoctorCase, DoctorReport, Verdict};
pub use rules::{Level, Rule};

use super::cases::Cases;
use super::report::{CaseReport, Status};
use super::session::{Session, Stop};
use super::toolkit::Failure;
use crate::mcp;

/// How long a check's whole conversation may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a server may take to answer its first request by default (it
/// may be starting an interpreter).
pub const STARTUP: Duration = Duration::from_secs(10);
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
}

impl Ctx {
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
    /// It does not apply; why.
    Skip(String),
}

/// A finding: a failure, under the check's own rule (`rule: None`) or
/// another one.
pub(crate) struct Finding {
    pub failure: Failure,
    pub rule: Option<&'static Rule>,
}

impl Finding {
    /// `failure` under `rule` instead of the check's.
    pub fn under(rule: &'static Rule, failure: Failure) -> Finding {
        Finding {
            failure,
            rule: Some(rule),
        }
    }
}

impl From<Failure> for Finding {
    fn from(failure: Failure) -> Finding {
        Finding { failure, rule: None }
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
    all
}

/// Runs doctor against `target`; never fails: a server that cannot be
/// started ends with [`DoctorReport::error`] set. What the server left
/// behind outside its process groups is killed before it returns.
pub fn doctor(target: &Target, options: &Options) -> DoctorReport {
    let report = doctor_stdio(target, options);
    super::session::children::reap_orphans();
    report
}

fn doctor_stdio(target: &Target, options: &Options) -> DoctorReport {
    let started = Instant::now();
    let mut command = vec![target.program.display().to_string()];
    command.extend(target.args.iter().cloned());
    let mut report = DoctorReport::new(command);
    let detected = detect::detect(target, options);
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
                        },
                    ));
                }
            }
        }
        report.cases.extend(run_all(target, &runs, options));
        if let Some(f) = detected.eras.iter().find(|f| f.era == Era::Legacy)
            && ![mcp::LEGACY, ""].contains(&f.legacy_version.as_str())
        {
            report.notes.push(format!(
                "the legacy session settled on {}: mcplings has types for 2025-11-25 and 2026-07-28 only, so legacy frames were not validated against the official types",
                f.legacy_version
            ));
        }
        if options.call_readonly {
            report.notes.push("--call-readonly trusts `readOnlyHint`: annotations are hints from the server, not guarantees (2025-11-25 server/tools › Tool: \"clients MUST consider tool annotations to be untrusted unless they come from trusted servers\")".into());
        }
    }
    report.tally();
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// Runs doctor against the modern Streamable HTTP server at `url` (http,
/// or https trusting [`Options::trust`]);
/// see `http.rs`. A server that cannot be reached, or is not modern, ends
/// with [`DoctorReport::error`] set.
pub fn doctor_url(url: &str, options: &Options) -> DoctorReport {
    let started = Instant::now();
    let mut report = DoctorReport::new(vec![url.to_string()]);
    http::doctor_url(url, options, &mut report);
    report.tally();
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// Runs the checks through the case pool, four at a time.
fn run_all(target: &Target, runs: &[(&'static Check, Ctx)], options: &Options) -> Vec<DoctorCase> {
    let results: std::sync::Mutex<Vec<Option<DoctorCase>>> = std::sync::Mutex::new(vec![None; runs.len()]);
    let run = |index: usize, stop: Arc<AtomicBool>| {
        let (check, ctx) = &runs[index];
        let (case, hung) = run_check(target, check, ctx, stop);
        let report = case.case.clone();
        results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(case);
        (report, hung)
    };
    let not_run = |index: usize, reason: &str| {
        let (check, ctx) = &runs[index];
        CaseReport::not_run(&named(check, ctx.era), check.about, reason)
    };
    let pool = Cases {
        count: runs.len(),
        at_once: AT_ONCE,
        cancel: options.cancel.as_deref(),
    };
    let reports = pool.run(&run, &not_run, &mut |_| {});
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    reports
        .into_iter()
        .enumerate()
        .map(|(i, report)| match (report.status, results[i].take()) {
            (Status::NotRun, _) | (_, None) => DoctorCase {
                verdict: Verdict::NotRun,
                era: Some(runs[i].1.era.name()),
                rule: None,
                note: None,
                case: report,
            },
            (_, Some(case)) => case,
        })
        .collect()
}

/// A check's name in the report: with its era when it runs in both.
fn named(check: &Check, era: Era) -> String {
    if check.eras.len() > 1 {
        format!("{} ({})", check.name, era.name())
    } else {
        check.name.to_string()
    }
}

/// Whether a stop is the server breaking stdio framing.
fn framing(stop: &Option<Stop>) -> bool {
    matches!(
        stop,
        Some(Stop::NotJson { .. } | Stop::NotUtf8 { .. } | Stop::Crlf { .. } | Stop::Flood { .. })
    )
}

/// Runs one check in a fresh process of the server; also says whether it
/// hung.
fn run_check(target: &Target, check: &Check, ctx: &Ctx, stop: Arc<AtomicBool>) -> (DoctorCase, bool) {
    let started = Instant::now();
    let args: Vec<&str> = target.args.iter().map(String::as_str).collect();
    let mut result: Checked = match Session::spawn(&target.program, &args, CHECK_TIMEOUT, Some(stop)) {
        Ok(mut session) => {
            let result = (check.run)(&mut session, ctx);
            let finished = session.finish();
            let result = match result {
                Ok(outcome) if check.schema && schema_applies(ctx) => {
                    schema_finding(&finished.transcript).map_or(Ok(outcome), Err)
                }
                other => other,
            };
            return finish_case(
                named(check, ctx.era),
                check.about,
                check.rule,
                ctx.era,
                result,
                finished,
                started,
            );
        }
        Err(stop) => Err(stop.into()),
    };
    if let Err(f) = &mut result {
        f.rule.get_or_insert(&rules::ROBUST);
    }
    finish_case(
        named(check, ctx.era),
        check.about,
        check.rule,
        ctx.era,
        result,
        Default::default(),
        started,
    )
}

/// Whether the frames of this era can be held to official types.
fn schema_applies(ctx: &Ctx) -> bool {
    ctx.era == Era::Modern || ctx.legacy_version == mcp::LEGACY
}

/// The first frame in `transcript` the server sent that breaks its
/// revision's types, as a finding under the stdio rule.
fn schema_finding(transcript: &[super::TranscriptEntry]) -> Option<Finding> {
    let checked = super::schema::check_transcript(transcript);
    let violation = checked.violation?;
    let mut failure = Failure::new(format!(
        "a frame the server sent breaks the official MCP schema at {violation}: it is not a valid MCP message (the TypeScript schema \"is the source of truth for all protocol messages and structures\", basic/index › Schema)"
    ));
    failure.actual = checked.offending;
    Some(Finding::under(&rules::STDOUT_MESSAGES, failure))
}

/// The case report of a check that ended with `result`.
fn finish_case(
    name: String,
    about: &str,
    default_rule: &'static Rule,
    era: Era,
    result: Checked,
    finished: super::session::Finished,
    started: Instant,
) -> (DoctorCase, bool) {
    let mut case = finished.into_report(&name, about, started);
    let (verdict, rule, note, hung) = match result {
        Ok(Outcome::Pass) => (Verdict::Pass, None, None, false),
        Ok(Outcome::Note(note)) => (Verdict::Pass, None, Some(note), false),
        Ok(Outcome::Skip(why)) => (Verdict::Skip, None, Some(why), false),
        Err(Finding { failure, rule }) => {
            let hung = matches!(failure.stop, Some(Stop::Timeout(_) | Stop::NotReading(_)));
            let rule = if framing(&failure.stop) {
                &rules::STDOUT_MESSAGES
            } else {
                rule.unwrap_or(default_rule)
            };
            // The sentence as the session's own revision states it.
            let rule = rules::for_revision(rule, era.revision());
            debug_assert!(
                rule.revision == era.revision() || !rule.revision.starts_with("20"),
                "a {} finding cites {} {}",
                era.name(),
                rule.revision,
                rule.section
            );
            case.status = Status::Failed;
            if let (Some(e), Some(a)) = (&failure.expected, &failure.actual) {
                case.differences = super::diff::diff(e, a);
            }
            case.reason = Some(format!("{} ({})", failure.reason, rule.cited()));
            case.expected = failure.expected;
            case.actual = failure.actual;
            (Verdict::of(rule.level), Some(*rule), None, hung)
        }
    };
    let doctor_case = DoctorCase {
        verdict,
        era: Some(era.name()),
        rule,
        note,
        case,
    };
    (doctor_case, hung)
}
