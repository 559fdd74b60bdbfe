//! The shared process: in each era, the checks that only list, read and
//! validate ([`SHARED`]) run one after another on one process of the
//! server instead of a process each, for a server that takes seconds to
//! start (a Python one). Every other check keeps a process of its own:
//! those that may crash or wedge the server or need it fresh (ids, an
//! unparsable line, end of input, the lifecycle's order, tools called).
//! `subscriptions-listen` shares, near the end: a server that keeps the
//! rules ends the stream on `notifications/cancelled`; one that does not
//! may go on writing, so when the check does not pass there the process
//! is given up and what is left of the group runs in processes of its own.
//! `caching-hints` shares: it only lists and reads what the feature checks
//! list and read. (The header checks, `http-method-header-400` and
//! `http-name-header-400`, are HTTP's: a connection each, no process.)
//!
//! A verdict never depends on sharing: a check that fails or warns on the
//! shared process is run again in a process of its own, and that run is
//! its verdict (one not verified there stands: the server answered, and
//! what it answered, a list with nothing to read, would be the same).
//! After a crash or a hang the shared process is given up (its state is
//! unknown) and the checks not run on it yet run in processes of their
//! own too; only the checks on it are touched. A line on stdout that is
//! no JSON is read past, counted over the process's whole life (the
//! probe's exchange included): `stdout-messages` runs last and passes
//! there only when there was none; with one it runs again in a process
//! of its own, which reads nothing past, and that run is its verdict. The shared
//! process is started by the thread that runs doctor, which outlives every
//! check: on Linux a child dies with the *thread* that started it
//! (`session/children.rs`), and a pool thread ends before the run does.

use std::sync::Mutex;
use std::time::Instant;

use super::run::{named, schema_applies};
use super::{Check, Checked, Ctx, DoctorCase, Era, Options, STARTUP, Target, check_timeout};
use super::{finish_case, schema_finding};
use crate::check::session::{Session, Stop};
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::Client;

/// The checks run on the shared process, in the order they run there:
/// listing, reading and validating first, then the requests answered
/// with errors (an unknown method, a modern request without its
/// capabilities or at a future version) and the notifications that get
/// no answer (a cancel for a request never sent, an unknown method),
/// which change nothing on a server that keeps the rules; a subscription
/// opened and cancelled; last, stdout judged over all of it.
pub(super) const SHARED: &[&str] = &[
    "tools-listed",
    "tool-schemas",
    "resources",
    "resource-templates",
    "prompts",
    "caching-hints",
    "ping",
    "server-discover",
    "unknown-method",
    "notifications-unanswered",
    "meta-required",
    "unsupported-version",
    LISTEN,
    STDOUT,
];

/// The check of `subscriptions/listen`, near the end: a stream the server
/// does not end on the cancel may go on writing, so when it does not pass
/// the process is given up (see [`run_shared`]).
const LISTEN: &str = "subscriptions-listen";

/// The check of stdout: on the shared process it passes only when no line
/// of junk came over the whole process (see the module doc).
const STDOUT: &str = "stdout-messages";

/// Whether `check` runs on the shared process.
pub(super) fn shares(check: &Check) -> bool {
    SHARED.contains(&check.id)
}

/// The groups of `runs` (their indexes, in [`SHARED`] order) that share
/// a process: one per era.
pub(super) fn groups(runs: &[(&'static Check, Ctx)]) -> Vec<Vec<usize>> {
    let mut groups = Vec::new();
    for era in [Era::Legacy, Era::Modern] {
        let mut members: Vec<usize> = (0..runs.len())
            .filter(|&i| runs[i].1.era == era && shares(runs[i].0))
            .collect();
        members.sort_by_key(|&i| SHARED.iter().position(|id| *id == runs[i].0.id));
        if !members.is_empty() {
            groups.push(members);
        }
    }
    groups
}

/// Starts the server for a shared process (call it from the thread that
/// runs doctor: see the module doc).
pub(super) fn spawn(target: &Target, options: &Options) -> Result<Session, Stop> {
    let args: Vec<&str> = target.args.iter().map(String::as_str).collect();
    let mut session = Session::spawn(
        &target.program,
        &args,
        check_timeout(options.startup.unwrap_or(STARTUP)),
        options.cancel.clone(),
    )?;
    // A banner is the stdout check's finding (in a process of its own).
    session.skip_junk();
    Ok(session)
}

/// What the shared process left: the cases of the checks that passed on
/// it (their run's index), and the runs to do again in processes of their
/// own.
#[derive(Default)]
pub(super) struct Ran {
    pub kept: Vec<(usize, DoctorCase)>,
    pub again: Vec<usize>,
}

/// How a shared process came to be.
pub(super) enum Start {
    /// Detection's probe of the era, answered (`initialize` for legacy).
    Probed(Session),
    /// Started for the checks.
    Fresh(Result<Session, Stop>),
}

/// Runs `members` (indexes into `runs`, one era) one after another on the
/// shared process, each with a deadline of its own.
pub(super) fn run_shared(start: Start, runs: &[(&'static Check, Ctx)], members: &[usize]) -> Ran {
    let mut ran = Ran::default();
    let (probed, session) = match start {
        Start::Probed(session) => (true, Ok(session)),
        Start::Fresh(session) => (false, session),
    };
    let (Ok(mut session), Some(&first)) = (session, members.first()) else {
        ran.again = members.to_vec();
        return ran;
    };
    let base = &runs[first].1;
    let opened = match (base.era, probed) {
        // The probe's `initialize` was answered: the handshake ends.
        (Era::Legacy, true) => session
            .send_json(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .map(|()| Client::before_initialize())
            .map_err(Failure::from),
        (Era::Legacy, false) => Client::legacy_within(&mut session, base.startup),
        (Era::Modern, _) => Ok(Client::modern()),
    };
    let ctx = match opened {
        Ok(client) => Ctx {
            era: base.era,
            legacy_version: base.legacy_version.clone(),
            capabilities: base.capabilities.clone(),
            calls: base.calls.clone(),
            call_readonly: base.call_readonly,
            startup: base.startup,
            opened: Some(Mutex::new(client)),
        },
        Err(_) => {
            session.finish();
            ran.again = members.to_vec();
            return ran;
        }
    };
    for (n, &index) in members.iter().enumerate() {
        let check = runs[index].0;
        let started = Instant::now();
        let result = (check.run)(&mut session, &ctx);
        // The handshake, when there was one, is the first check's.
        let finished = session.split();
        let result: Checked = match result {
            Ok(outcome) if check.schema && schema_applies(&ctx) => {
                schema_finding(&finished.transcript).map_or(Ok(outcome), Err)
            }
            other => other,
        };
        match result {
            // A banner or junk, read past until now: judged in a process
            // that reads nothing past.
            Ok(_) if check.id == STDOUT && session.junk_lines() > 0 => ran.again.push(index),
            // Not verified for what the server answered (it lists no
            // resource): as a process of its own would have answered.
            Ok(outcome) if !session.cancelled() => {
                let (case, _) = finish_case(
                    check.id,
                    named(check, ctx.era),
                    check.about,
                    check.rule,
                    ctx.era,
                    Ok(outcome),
                    finished,
                    started,
                );
                ran.kept.push((index, case));
            }
            // A subscription that may still be open: what is left runs
            // elsewhere too.
            Err(_) if check.id == LISTEN => {
                ran.again.extend(&members[n..]);
                break;
            }
            // The server answered: only this check is done again.
            Err(finding) if finding.failure.stop.is_none() && !session.cancelled() => ran.again.push(index),
            // A crash, a hang, junk on stdout, a cancel: the process is
            // given up, and what was left to run on it runs elsewhere.
            _ => {
                ran.again.extend(&members[n..]);
                break;
            }
        }
    }
    session.finish();
    ran
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shared_id_names_a_check_that_runs_after_detection() {
        let checks = super::super::checks();
        for id in SHARED {
            assert!(checks.iter().any(|c| c.id == *id), "{id}");
        }
        // What needs a fresh process never shares one.
        for id in [
            "ids-echoed",
            "ids-forbidden",
            "unparsable-line",
            "invalid-request",
            "shutdown-on-eof",
            "version-negotiation",
            "requests-before-initialize",
            "tools-called",
        ] {
            assert!(!SHARED.contains(&id), "{id}");
            assert!(checks.iter().any(|c| c.id == id), "{id}");
        }
    }
}
