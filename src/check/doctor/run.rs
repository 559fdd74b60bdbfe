//! Running doctor's stdio checks through the case pool, and turning a
//! check's result into its [`DoctorCase`]: the rule it cites (framing
//! breaks the stdio rule whatever the check; a crash or a hang is the
//! robustness advice, not a rule about responses), its outcome, its
//! evidence.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{AT_ONCE, features, rules, shared};
use super::{Check, Checked, Ctx, DoctorCase, Era, Finding, Options, Outcome, Rule, Target, Verdict, check_timeout};
use crate::check::cases::{Cases, HUNG};
use crate::check::report::{CaseReport, Status};
use crate::check::session::{Session, Stop};
use crate::check::toolkit::Failure;
use crate::mcp;

/// A piece of work for the case pool.
#[derive(Clone, Copy)]
enum Job {
    /// One check (its run's index) in a process of its own.
    One(usize),
    /// A group of checks (its index in the groups) on a shared process.
    Shared(usize),
}

/// Runs the checks through the case pool, four at a time: each in a
/// process of its own with `--isolated`; else the checks that only list,
/// read and validate share a process per era (`shared.rs`), and those
/// that did not pass there run again, each in its own, before any
/// verdict. After a check that hung, every later one (in report order)
/// is not run, whichever way they ran.
pub(super) fn run_all(
    target: &Target,
    runs: &[(&'static Check, Ctx)],
    options: &Options,
    mut probed: Vec<(Era, Session)>,
) -> Vec<DoctorCase> {
    let groups = if options.isolated {
        Vec::new()
    } else {
        shared::groups(runs)
    };
    // A probe's process where detection kept one, else one started here,
    // by the thread that outlives the run.
    let sessions: Vec<Mutex<Option<_>>> = groups
        .iter()
        .map(|group| {
            let era = runs[group[0]].1.era;
            let start = match probed.iter().position(|(e, _)| *e == era) {
                Some(at) => shared::Start::Probed(probed.remove(at).1),
                None => shared::Start::Fresh(shared::spawn(target, options)),
            };
            Mutex::new(Some(start))
        })
        .collect();
    // A probe's process no group takes ends here, on its starting thread.
    probed.into_iter().for_each(|(_, session)| drop(session.finish()));
    // Each group at the place of its first check in report order.
    let jobs: Vec<Job> = (0..runs.len())
        .filter_map(|i| match groups.iter().position(|g| g.contains(&i)) {
            None => Some(Job::One(i)),
            Some(g) if groups[g].iter().min() == Some(&i) => Some(Job::Shared(g)),
            Some(_) => None,
        })
        .collect();
    let cases: Mutex<Vec<Option<(DoctorCase, bool)>>> = Mutex::new(vec![None; runs.len()]);
    let again: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    let pool = |jobs: &[Job]| {
        let run = |index: usize, stop: Arc<AtomicBool>| match jobs[index] {
            Job::One(i) => {
                let (check, ctx) = &runs[i];
                let (case, hung) = run_check(target, check, ctx, stop);
                let report = case.case.clone();
                cases.lock().unwrap_or_else(|e| e.into_inner())[i] = Some((case, hung));
                (report, hung)
            }
            Job::Shared(g) => {
                let session = sessions[g].lock().unwrap_or_else(|e| e.into_inner()).take();
                let session = session.unwrap_or(shared::Start::Fresh(Err(Stop::Cancelled)));
                let ran = shared::run_shared(session, runs, &groups[g]);
                let mut all = cases.lock().unwrap_or_else(|e| e.into_inner());
                for (i, case) in ran.kept {
                    all[i] = Some((case, false));
                }
                again.lock().unwrap_or_else(|e| e.into_inner()).extend(ran.again);
                let (check, ctx) = &runs[groups[g][0]];
                (
                    CaseReport::not_run(&named(check, ctx.era), check.about, "shared"),
                    false,
                )
            }
        };
        let not_run = |index: usize, reason: &str| {
            let first = match jobs[index] {
                Job::One(i) => i,
                Job::Shared(g) => groups[g][0],
            };
            let (check, ctx) = &runs[first];
            CaseReport::not_run(&named(check, ctx.era), check.about, reason)
        };
        let reports = Cases {
            count: jobs.len(),
            at_once: AT_ONCE,
            cancel: options.cancel.as_deref(),
        }
        .run(&run, &not_run, &mut |_| {});
        // A job the pool did not run, or whose run it does not show (after
        // an earlier hang, or a cancel): its checks are not run.
        let mut all = cases.lock().unwrap_or_else(|e| e.into_inner());
        for (job, report) in jobs.iter().zip(reports) {
            if report.status != Status::NotRun || report.reason.as_deref() == Some("shared") {
                continue;
            }
            let members = match job {
                Job::One(i) => vec![*i],
                Job::Shared(g) => groups[*g].clone(),
            };
            for i in members {
                all[i] = Some((not_run_case(runs, i, report.reason.as_deref()), false));
            }
        }
    };
    pool(&jobs);
    let mut again = std::mem::take(&mut *again.lock().unwrap_or_else(|e| e.into_inner()));
    if !again.is_empty() {
        again.sort_unstable();
        pool(&again.into_iter().map(Job::One).collect::<Vec<_>>());
    }
    let cases = cases.into_inner().unwrap_or_else(|e| e.into_inner());
    let first_hung = cases.iter().position(|c| matches!(c, Some((_, true))));
    cases
        .into_iter()
        .enumerate()
        .map(|(i, case)| match case {
            Some((case, _)) if first_hung.is_none_or(|h| i <= h) => case,
            Some(_) => not_run_case(runs, i, Some(HUNG)),
            None => not_run_case(runs, i, None),
        })
        .collect()
}

/// The case of run `i`, not run for `reason`: not verified.
fn not_run_case(runs: &[(&'static Check, Ctx)], i: usize, reason: Option<&str>) -> DoctorCase {
    let (check, ctx) = &runs[i];
    let report = CaseReport::not_run(&named(check, ctx.era), check.about, reason.unwrap_or("stopped"));
    DoctorCase {
        id: check.id,
        verdict: Verdict::NotVerified,
        era: Some(ctx.era.name()),
        rule: None,
        note: Some(format!("not run: {}", report.reason.as_deref().unwrap_or("stopped"))),
        shared: None,
        case: report,
    }
}

/// A check's name in the report: with its era when it runs in both.
pub(super) fn named(check: &Check, era: Era) -> String {
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
    if let Some(skip) = features::left_out(check, ctx) {
        let name = named(check, ctx.era);
        return finish_case(
            check.id,
            name,
            check.about,
            check.rule,
            ctx.era,
            Ok(skip),
            Default::default(),
            started,
        );
    }
    let args: Vec<&str> = target.args.iter().map(String::as_str).collect();
    let (result, finished): (Checked, _) =
        match Session::spawn(&target.program, &args, check_timeout(ctx.startup), Some(stop)) {
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
pub(super) fn schema_applies(ctx: &Ctx) -> bool {
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
    let scale = finished.scale;
    let mut case = finished.into_report(&name, about, started);
    let result = match result {
        Err(Finding { failure, .. })
            if silent && failure.actual.is_none() && matches!(failure.stop, None | Some(Stop::Timeout(_))) =>
        {
            case.window = failure.window().map(|w| crate::check::report::Window::new(w, scale));
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
            case.window = failure.window().map(|w| crate::check::report::Window::new(w, scale));
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
