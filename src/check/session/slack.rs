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
//! (the program acted too early) is stretched only when it is tied to a
//! timer the case gave the program: the time after an argument ending in
//! `-ms` (`--idle-ms 300`) is stretched by the same scale when the case
//! starts ([`scale_args`]), so the program's timers and the checker's
//! bounds on them (`s.slack(...)`) keep their ratio.
//!
//! The scale: `MCPLINGS_TIME_SCALE` when set (a number ≥ 1, for CI, say
//! `MCPLINGS_TIME_SCALE=3`), otherwise the 1-minute load average per core
//! (`/proc/loadavg`), at least 1 and at most [`MAX_SCALE`]. A quiet machine
//! runs at 1: the windows are the ones the checkers name.

use std::time::Duration;

/// The largest automatic scale: past it a check is too slow to be useful,
/// and a machine that loaded is better served by `MCPLINGS_TIME_SCALE`.
/// Eight, not four: a 2-core machine shared by several builds and test
/// runs reaches a load of 16 and more, and at ×4 a right program's CPU-bound
/// case (05's 1.5 MiB frame, decoded by a debug build) ran out of time there.
pub const MAX_SCALE: f64 = 8.0;

/// The variable that sets the scale by hand (a number ≥ 1).
pub const SCALE_VAR: &str = "MCPLINGS_TIME_SCALE";

/// How much to stretch upper time bounds now: `MCPLINGS_TIME_SCALE` when it
/// holds a number ≥ 1, else the load average per core, clamped to
/// `1..=MAX_SCALE`. Cheap (one small file read); read once per session.
pub fn scale() -> f64 {
    if let Some(set) = set_by_hand() {
        return set;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().and_then(|l| l.parse::<f64>().ok()))
        .unwrap_or(0.0);
    from_load(load, cores)
}

/// The scale `MCPLINGS_TIME_SCALE` sets (at least 1), or `None` when it
/// is unset or not a finite number (then the load sets it).
pub fn set_by_hand() -> Option<f64> {
    let set = std::env::var(SCALE_VAR).ok().and_then(|v| v.trim().parse::<f64>().ok());
    set.filter(|s| s.is_finite()).map(|s| s.max(1.0))
}

/// The scale for a 1-minute load average of `load` on `cores` cores.
pub fn from_load(load: f64, cores: f64) -> f64 {
    (load / cores.max(1.0)).clamp(1.0, MAX_SCALE)
}

/// A case's arguments with every time it gives the program (the number
/// after an argument ending in `-ms`, such as `--idle-ms 300`) stretched by
/// `scale`: the program's own timers stretch with the checker's windows,
/// so a bound tied to them (`s.slack(...)`) keeps its meaning.
pub fn scale_args(args: &[&str], scale: f64) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        let timed = i > 0 && args[i - 1].starts_with("--") && args[i - 1].ends_with("-ms");
        match arg.parse::<u64>() {
            Ok(ms) if timed => out.push(stretch(Duration::from_millis(ms), scale).as_millis().to_string()),
            _ => out.push(arg.to_string()),
        }
    }
    out
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
        assert_eq!(from_load(12.0, 2.0), 6.0);
        assert_eq!(stretch(Duration::from_millis(300), 2.5), Duration::from_millis(750));
        assert_eq!(stretch(Duration::from_millis(300), 0.5), Duration::from_millis(300));
        assert_eq!(
            scale_args(&["--era", "legacy", "--idle-ms", "300", "--calls", "2"], 2.0),
            ["--era", "legacy", "--idle-ms", "600", "--calls", "2"]
        );
    }
}
