//! Timing margins that stretch when the machine is loaded, so a slow run
//! (a busy CI box, a laptop compiling in the background) never turns a
//! right program red.
//!
//! A check measures time three ways. An **expectation** says something
//! must happen by then: a case's deadline, a reply expected within a
//! window, a cancel due by some time. On a loaded machine a right program
//! is late, so every expectation is multiplied by one [`scale`]: the
//! [`Session`](super::Session) stretches its deadline (and its exit and
//! relay graces, `exited_within`, `stderr_grew`) itself, and a checker
//! passes any other expectation through
//! [`Session::slack`](super::Session::slack) (`s.recv_within(s.slack(d))`).
//! A **silence window** (nothing may come) or a **pace** (progress every
//! 100 ms, to keep a client's idle timer alive) stays exact: load can only
//! make a wrong program look right there, never a right one wrong, and a
//! stretched pace would itself break a right program. A **lower bound**
//! (the program acted too early: a cancel before its timeout ran out) is
//! never stretched either: load only makes a program later.
//!
//! The scale: `MCPLINGS_TIME_SCALE` when set (a number ≥ 1, for CI, say
//! `MCPLINGS_TIME_SCALE=3`), otherwise the 1-minute load average per core
//! (`/proc/loadavg`), at least 1 and at most [`MAX_SCALE`]. A quiet machine
//! runs at 1: the windows are the ones the checkers name.

use std::time::Duration;

/// The largest automatic scale: past it a check is too slow to be useful,
/// and a machine that loaded is better served by `MCPLINGS_TIME_SCALE`.
pub const MAX_SCALE: f64 = 4.0;

/// The variable that sets the scale by hand (a number ≥ 1).
pub const SCALE_VAR: &str = "MCPLINGS_TIME_SCALE";

/// How much to stretch upper time bounds now: `MCPLINGS_TIME_SCALE` when it
/// holds a number ≥ 1, else the load average per core, clamped to
/// `1..=MAX_SCALE`. Cheap (one small file read); read once per session.
pub fn scale() -> f64 {
    let set = std::env::var(SCALE_VAR).ok().and_then(|v| v.trim().parse::<f64>().ok());
    if let Some(set) = set.filter(|s| s.is_finite()) {
        return set.max(1.0);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().and_then(|l| l.parse::<f64>().ok()))
        .unwrap_or(0.0);
    from_load(load, cores)
}

/// The scale for a 1-minute load average of `load` on `cores` cores.
pub fn from_load(load: f64, cores: f64) -> f64 {
    (load / cores.max(1.0)).clamp(1.0, MAX_SCALE)
}

/// `bound` stretched by `scale`.
pub fn stretch(bound: Duration, scale: f64) -> Duration {
    bound.mul_f64(scale.max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_machine_keeps_the_windows_and_a_loaded_one_stretches_them() {
        assert_eq!(from_load(0.3, 2.0), 1.0);
        assert_eq!(from_load(5.0, 2.0), 2.5);
        assert_eq!(from_load(40.0, 2.0), MAX_SCALE);
        assert_eq!(stretch(Duration::from_millis(300), 2.5), Duration::from_millis(750));
        assert_eq!(stretch(Duration::from_millis(300), 0.5), Duration::from_millis(300));
    }
}
