//! Running a check's cases: a pool of `at_once` threads, each case in a
//! process of its own ([`super::session::Session`] shares nothing between
//! cases), reported in course order whatever order they end in.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{CaseReport, Event};

/// How many of a check's cases run at once. 1: one after another. Each
/// case owns its process, its pipes and its deadline, so more is possible
/// (the pool keeps course order); the speed issue decides when.
pub const CASES_AT_ONCE: usize = 1;

pub(super) const CANCELLED: &str = "not run: the check was cancelled";
const HUNG: &str = "not run: an earlier case hung; fix that one first";

/// Runs one case (by its index): its report and whether it hung.
pub(super) type RunCase<'a> = dyn Fn(usize) -> (CaseReport, bool) + Sync + 'a;
/// The report of a case that was not run (by its index), with a reason.
pub(super) type NotRun<'a> = dyn Fn(usize, &str) -> CaseReport + Sync + 'a;

/// A check's cases, run `at_once` at a time on threads of their own.
pub(super) struct Cases<'a> {
    pub(super) count: usize,
    pub(super) at_once: usize,
    /// Set to stop: cases not started yet are not run.
    pub(super) cancel: Option<&'a AtomicBool>,
}

impl Cases<'_> {
    /// Runs every case and returns their reports in course order, calling
    /// `on_event` in course order too, as a run one after another would: a
    /// case's start, then its end, then the next case's. A case not started
    /// when the check is cancelled, or when a case has hung, is not run.
    pub(super) fn run(&self, run: &RunCase, not_run: &NotRun, on_event: &mut dyn FnMut(Event)) -> Vec<CaseReport> {
        let hung = AtomicBool::new(false);
        let mut reports = Vec::with_capacity(self.count);
        if self.at_once <= 1 {
            for index in 0..self.count {
                let report = self.one(index, &hung, run, not_run, &mut || on_event(Event::CaseStarted(index)));
                on_event(Event::CaseFinished(index, Box::new(report.clone())));
                reports.push(report);
            }
            return reports;
        }
        enum Done {
            Started(usize),
            Finished(usize, Box<CaseReport>),
        }
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            for _ in 0..self.at_once.min(self.count) {
                let tx = tx.clone();
                let (next, hung) = (&next, &hung);
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= self.count {
                            break;
                        }
                        let report = self.one(index, hung, run, not_run, &mut || {
                            let _ = tx.send(Done::Started(index));
                        });
                        let _ = tx.send(Done::Finished(index, Box::new(report)));
                    }
                });
            }
            drop(tx);
            let mut started = vec![false; self.count];
            let mut finished: Vec<Option<CaseReport>> = vec![None; self.count];
            let mut announced = false;
            for done in rx {
                match done {
                    Done::Started(i) => started[i] = true,
                    Done::Finished(i, report) => finished[i] = Some(*report),
                }
                while reports.len() < self.count {
                    let i = reports.len();
                    if started[i] && !announced {
                        on_event(Event::CaseStarted(i));
                        announced = true;
                    }
                    let Some(report) = finished[i].take() else { break };
                    on_event(Event::CaseFinished(i, Box::new(report.clone())));
                    reports.push(report);
                    announced = false;
                }
            }
        });
        reports
    }

    /// Runs case `index` unless the check was cancelled or a case hung;
    /// `started` is called just before it runs.
    fn one(
        &self,
        index: usize,
        hung: &AtomicBool,
        run: &RunCase,
        not_run: &NotRun,
        started: &mut dyn FnMut(),
    ) -> CaseReport {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return not_run(index, CANCELLED);
        }
        if hung.load(Ordering::Relaxed) {
            return not_run(index, HUNG);
        }
        started();
        let (report, case_hung) = run(index);
        if case_hung {
            hung.store(true, Ordering::Relaxed);
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Events as `s0`, `f0` (started, finished) and the reports' reasons.
    fn run_cases(cases: &Cases, run: &RunCase) -> (Vec<String>, Vec<String>) {
        let not_run = |i: usize, reason: &str| CaseReport::not_run(&i.to_string(), "", reason);
        let mut events = Vec::new();
        let reports = cases.run(run, &not_run, &mut |event| match event {
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
        let cases = Cases {
            count: 6,
            at_once: 3,
            cancel: None,
        };
        // Later cases end first; the report and the events keep course order.
        let started = Instant::now();
        let (events, reasons) = run_cases(&cases, &|i| ran(i, 60 - 10 * i as u64));
        assert!(
            started.elapsed().as_millis() < 60 + 50 + 40 + 100,
            "{:?}",
            started.elapsed()
        );
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
