//! Running a check's cases: a pool of `at_once` threads, each case in a
//! process of its own ([`super::session::Session`] shares nothing between
//! cases), reported in course order whatever order they end in.
//!
//! Each case gets a stop flag of its own, which its session watches: the
//! check's cancel sets every case's flag; a hang (the case ran into its
//! deadline) sets the flags of the cases after it in course order, and
//! those are reported as not run, as if the cases had run one at a time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use super::{CaseReport, Event, Status};

/// How many of a check's cases run at once. Cases mostly wait (on the
/// program, on silence windows), so more than the cores pays: a check's
/// wall time is about its longest case. Windows stretch with the load
/// (`session/slack.rs`), so a crowded machine stays right, only slower.
pub const CASES_AT_ONCE: usize = 4;

pub(super) const CANCELLED: &str = "not run: the check was cancelled";
pub(super) const HUNG: &str = "not run: an earlier case hung; fix that one first";

/// How often the pool looks at the check's cancel flag while cases run.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Runs one case (by its index) with the flag that stops it: its report
/// and whether it hung.
pub(super) type RunCase<'a> = dyn Fn(usize, Arc<AtomicBool>) -> (CaseReport, bool) + Sync + 'a;
/// The report of a case that was not run (by its index), with a reason.
pub(super) type NotRun<'a> = dyn Fn(usize, &str) -> CaseReport + Sync + 'a;

/// A check's cases, run `at_once` at a time on threads of their own.
pub(super) struct Cases<'a> {
    pub(super) count: usize,
    pub(super) at_once: usize,
    /// Set to stop: cases not started yet are not run, running ones stop.
    pub(super) cancel: Option<&'a AtomicBool>,
}

/// What a worker tells the pool.
enum Done {
    Started(usize),
    Finished(usize, Box<CaseReport>, bool),
}

impl Cases<'_> {
    /// Runs every case and returns their reports in course order, calling
    /// `on_event` in course order too, as a run one after another would: a
    /// case's start, then its end, then the next case's. A case not started
    /// when the check is cancelled is not run; every case after one that
    /// hung is reported as not run (and stopped if it was running).
    pub(super) fn run(&self, run: &RunCase, not_run: &NotRun, on_event: &mut dyn FnMut(Event)) -> Vec<CaseReport> {
        let stops: Vec<Arc<AtomicBool>> = (0..self.count).map(|_| Arc::new(AtomicBool::new(false))).collect();
        let next = AtomicUsize::new(0);
        // The first case (in course order) that hung; `count` when none.
        let hung_at = AtomicUsize::new(self.count);
        let cancelled = || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        let mut reports = Vec::with_capacity(self.count);
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            for _ in 0..self.at_once.clamp(1, self.count.max(1)) {
                let tx = tx.clone();
                let (next, hung_at, stops) = (&next, &hung_at, &stops);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if index >= self.count {
                            break;
                        }
                        let (report, hung) = if cancelled() {
                            (not_run(index, CANCELLED), false)
                        } else if hung_at.load(Ordering::SeqCst) < index {
                            (not_run(index, HUNG), false)
                        } else {
                            let _ = tx.send(Done::Started(index));
                            let (report, hung) = run(index, stops[index].clone());
                            if hung {
                                hung_at.fetch_min(index, Ordering::SeqCst);
                                stops[index + 1..].iter().for_each(|s| s.store(true, Ordering::Relaxed));
                            }
                            (report, hung)
                        };
                        let _ = tx.send(Done::Finished(index, Box::new(report), hung));
                    }
                });
            }
            drop(tx);
            let mut started = vec![false; self.count];
            let mut finished: Vec<Option<(CaseReport, bool)>> = vec![None; self.count];
            let mut announced = false;
            let mut hung = false;
            let mut stopped = false;
            loop {
                match rx.recv_timeout(CANCEL_POLL) {
                    Ok(Done::Started(i)) => started[i] = true,
                    Ok(Done::Finished(i, report, case_hung)) => finished[i] = Some((*report, case_hung)),
                    Err(RecvTimeoutError::Timeout) => {
                        if cancelled() {
                            stops.iter().for_each(|s| s.store(true, Ordering::Relaxed));
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                while reports.len() < self.count {
                    let i = reports.len();
                    if started[i] && !announced && !hung && !stopped {
                        on_event(Event::CaseStarted(i));
                        announced = true;
                    }
                    let Some((report, case_hung)) = finished[i].take() else {
                        break;
                    };
                    // After a hang or a cancel, what ran alongside is not
                    // shown, as if the cases had run one at a time.
                    let report = match (hung, stopped) {
                        (true, _) => not_run(i, HUNG),
                        (_, true) => not_run(i, CANCELLED),
                        _ => report,
                    };
                    hung |= case_hung;
                    stopped |= report.status == Status::NotRun && cancelled();
                    on_event(Event::CaseFinished(i, Box::new(report.clone())));
                    reports.push(report);
                    announced = false;
                }
            }
        });
        reports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events as `s0`, `f0` (started, finished) and the reports' reasons.
    fn run_cases(cases: &Cases, run: &(dyn Fn(usize) -> (CaseReport, bool) + Sync)) -> (Vec<String>, Vec<String>) {
        let not_run = |i: usize, reason: &str| CaseReport::not_run(&i.to_string(), "", reason);
        let mut events = Vec::new();
        let reports = cases.run(&|i, _| run(i), &not_run, &mut |event| match event {
            Event::CaseStarted(i) => events.push(format!("s{i}")),
            Event::CaseFinished(i, _) => events.push(format!("f{i}")),
            Event::Built(_) => {}
        });
        let reasons = reports.iter().map(|r| r.reason.clone().unwrap_or_default()).collect();
        (events, reasons)
    }

    /// A case that takes `ms` milliseconds and says its index.
    fn ran(i: usize, ms: u64) -> (CaseReport, bool) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
        (CaseReport::not_run(&i.to_string(), "", &format!("ran {i}")), false)
    }

    #[test]
    fn cases_at_once_are_reported_in_course_order() {
        use std::sync::atomic::AtomicUsize;
        use std::sync::{Condvar, Mutex};
        let cases = Cases {
            count: 6,
            at_once: 3,
            cancel: None,
        };
        // No clock decides anything here: the first three cases wait until
        // all three run at once (which only a pool of three allows), then
        // end last first (case 2, 1, 0); the report and the events still
        // keep course order. A wait that never ends fails after 10 s.
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let ended = Mutex::new([false; 6]);
        let changed = Condvar::new();
        let wait_for = |done: &dyn Fn(&[bool; 6]) -> bool| {
            let guard = ended.lock().unwrap();
            let (guard, timeout) = changed
                .wait_timeout_while(guard, std::time::Duration::from_secs(10), |e| !done(e))
                .unwrap();
            drop(guard);
            assert!(!timeout.timed_out(), "the pool did not run three cases at once");
        };
        let run = |i: usize| {
            {
                // Under the lock, so a waiter cannot miss the change.
                let _guard = ended.lock().unwrap();
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
            }
            changed.notify_all();
            if i < 3 {
                wait_for(&|e| most.load(Ordering::SeqCst) >= 3 && (i + 1..3).all(|later| e[later]));
            }
            running.fetch_sub(1, Ordering::SeqCst);
            ended.lock().unwrap()[i] = true;
            changed.notify_all();
            (CaseReport::not_run(&i.to_string(), "", &format!("ran {i}")), false)
        };
        let (events, reasons) = run_cases(&cases, &run);
        assert_eq!(most.load(Ordering::SeqCst), 3);
        assert_eq!(
            events,
            ["s0", "f0", "s1", "f1", "s2", "f2", "s3", "f3", "s4", "f4", "s5", "f5"]
        );
        assert_eq!(reasons, ["ran 0", "ran 1", "ran 2", "ran 3", "ran 4", "ran 5"]);
    }

    #[test]
    fn after_a_hang_or_a_cancel_no_case_starts() {
        let cases = Cases {
            count: 3,
            at_once: 1,
            cancel: None,
        };
        let (events, reasons) = run_cases(&cases, &|i| (ran(i, 0).0, i == 0));
        assert_eq!(events, ["s0", "f0", "f1", "f2"]);
        assert_eq!(reasons, ["ran 0", HUNG, HUNG]);
        for at_once in [1, 3] {
            let cancel = AtomicBool::new(true);
            let cases = Cases {
                count: 2,
                at_once,
                cancel: Some(&cancel),
            };
            let (events, reasons) = run_cases(&cases, &|i| ran(i, 0));
            assert_eq!(events, ["f0", "f1"]);
            assert_eq!(reasons, [CANCELLED, CANCELLED]);
        }
    }
}
