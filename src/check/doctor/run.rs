//! Running doctor's stdio checks through the case pool, and turning a
//! check's result into its [`DoctorCase`]: the rule it cites (framing
//! breaks the stdio rule whatever the check; a crash or a hang is the
//! robustness advice, not a rule about responses), its outcome, its
//! evidence.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{AT_ONCE, rules};
use super::{CHECK_TIMEOUT, Check, Checked, Ctx, DoctorCase, Era, Finding, Options, Outcome, Rule, Target, Verdict};
use crate::check::cases::Cases;
use crate::check::report::{CaseReport, Status};
use crate::check::session::{Session, Stop};
use crate::check::toolkit::Failure;
use crate::mcp;

/// Runs the checks through the case pool, four at a time.
pub(super) fn run_all(target: &Target, runs: &[(&'static Check, Ctx)], options: &Options) -> Vec<DoctorCase> {
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
                id: runs[i].0.id,
                verdict: Verdict::NotVerified,
                era: Some(runs[i].1.era.name()),
                rule: None,
                note: Some(format!("not run: {}", report.reason.as_deref().unwrap_or("stopped"))),
                shared: None,
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
pub(crate) fn framing(stop: &Option<Stop>) -> bool {
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
    let (result, finished): (Checked, _) = match Session::spawn(&target.program, &args, CHECK_TIMEOUT, Some(stop)) {
        Ok(mut session) => {
            // A banner is the stdout check's finding, once; every other
            // check reads past it, as a lenient host does.
            if check.id != "stdout-messages" {
                session.skip_junk();
            }
            let result = (check.run)(&mut session, ctx);
            let finished = session.finish();
            let result = match result {
                Ok(outcome) if check.schema && schema_applies(ctx) => {
                    schema_finding(&finished.transcript).map_or(Ok(outcome), Err)
                }
                other => other,
            };
            (result, finished)
        }
        // A server that cannot be started for the check: the robustness
        // advice, as a crash is.
        Err(stop) => {
            let mut finding: Finding = stop.into();
            finding.rule.get_or_insert(&rules::ROBUST);
            (Err(finding), Default::default())
        }
    };
    finish_case(
        check.id,
        named(check, ctx.era),
        check.about,
        check.rule,
        ctx.era,
        result,
        finished,
        started,
    )
}

/// Whether the frames of this era can be held to official types.
fn schema_applies(ctx: &Ctx) -> bool {
    ctx.era == Era::Modern || ctx.legacy_version == mcp::LEGACY
}

/// The first frame in `transcript` the server sent that breaks its
/// revision's types, as a finding under the stdio rule.
pub(crate) fn schema_finding(transcript: &[crate::check::TranscriptEntry]) -> Option<Finding> {
    let checked = crate::check::schema::check_transcript(transcript);
    let violation = checked.violation?;
    let mut failure = Failure::new(format!(
        "a frame the server sent breaks the official MCP schema at {violation}: it is not a valid MCP message (the TypeScript schema \"is the source of truth for all protocol messages and structures\", basic/index › Schema)"
    ));
    failure.actual = checked.offending;
    Some(Finding::under(&rules::STDOUT_MESSAGES, failure))
}

/// Whether a stop is a crash or a hang (the process exited, stopped
/// reading, or the check's time ran out): the robustness advice.
fn crashed_or_hung(stop: &Option<Stop>) -> bool {
    matches!(
        stop,
        Some(Stop::Exited(_) | Stop::Timeout(_) | Stop::NotReading(_) | Stop::Io(_))
    )
}

/// The case report of check `id` that ended with `result`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish_case(
    id: &'static str,
    name: String,
    about: &str,
    default_rule: &'static Rule,
    era: Era,
    result: Checked,
    finished: crate::check::session::Finished,
    started: Instant,
) -> (DoctorCase, bool) {
    // A process that never wrote a line before the check gave up on it:
    // a slow start (the machine's load, an interpreter's imports), which
    // shows nothing about the rule.
    let silent = !finished
        .transcript
        .iter()
        .any(|e| e.dir == crate::check::report::Direction::FromLearner);
    let mut case = finished.into_report(&name, about, started);
    let result = match result {
        Err(Finding { failure, .. })
            if silent && failure.actual.is_none() && matches!(failure.stop, None | Some(Stop::Timeout(_))) =>
        {
            Ok(Outcome::Unverified(format!(
                "the server wrote nothing in this check's process ({}): a slow start shows nothing about the rule; give it more time with --startup-ms",
                crate::check::toolkit::as_client::without_reply_rule(&failure.reason)
            )))
        }
        other => other,
    };
    let mut shared_by_all = None;
    let (verdict, rule, note, hung) = match result {
        Ok(Outcome::Pass) => (Verdict::Pass, None, None, false),
        Ok(Outcome::Note(note)) => (Verdict::Pass, None, Some(note), false),
        Ok(Outcome::Skip(why)) => (Verdict::NotApplicable, None, Some(why), false),
        Ok(Outcome::Unverified(why)) => (Verdict::NotVerified, None, Some(why), false),
        Err(Finding { failure, rule, shared }) => {
            let hung = matches!(failure.stop, Some(Stop::Timeout(_) | Stop::NotReading(_)));
            let rule = if framing(&failure.stop) {
                &rules::STDOUT_MESSAGES
            } else if crashed_or_hung(&failure.stop) {
                &rules::ROBUST
            } else {
                rule.unwrap_or(default_rule)
            };
            if shared {
                shared_by_all = Some(super::ids::SHARED);
            }
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
                case.differences = crate::check::diff::diff(e, a);
            }
            case.reason = Some(format!("{} ({})", failure.reason, rule.cited()));
            case.expected = failure.expected;
            case.actual = failure.actual;
            (Verdict::of(rule.level), Some(*rule), None, hung)
        }
    };
    let doctor_case = DoctorCase {
        id,
        verdict,
        era: Some(era.name()),
        rule,
        note,
        shared: shared_by_all,
        case,
    };
    (doctor_case, hung)
}
