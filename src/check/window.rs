//! The time window a verdict depended on, kept apart from the reason's
//! words: a reason names the window as the checker wrote it (the nominal
//! one, "within 3.0 s"), and [`Window`] says how far the machine's load
//! stretched it (`slack.rs`). The report keeps both as fields, so two runs
//! under different load read the same reason and a saved report diffs
//! cleanly; what the learner reads is told with the stretch
//! ([`Window::tell`]): "within 12.0 s (the 3.0 s window, stretched ×4 by
//! the machine's load)".

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A window a verdict depended on: the one the checker names, and the
/// scale the session stretched it by (1 on a quiet machine).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Window {
    /// The window as the checker names it, in milliseconds.
    pub nominal_ms: u64,
    /// How much the machine's load stretched it (≥ 1).
    pub scale: f64,
}

impl Window {
    /// The window `nominal`, stretched by `scale`.
    pub fn new(nominal: Duration, scale: f64) -> Window {
        Window {
            nominal_ms: nominal.as_millis() as u64,
            scale: scale.max(1.0),
        }
    }

    /// Whether the load stretched the window at all (by 5 % or more: less
    /// would print the same time twice).
    pub fn stretched(&self) -> bool {
        self.scale >= 1.05
    }

    /// The window as it was, in milliseconds.
    pub fn actual_ms(&self) -> u64 {
        (self.nominal_ms as f64 * self.scale).round() as u64
    }

    /// `reason` as the learner reads it: unchanged when the window was not
    /// stretched; else the first place the reason names the nominal window
    /// ("3.0 s", "3 s" or "3000 ms", as a whole number) names the window
    /// as it was, followed by the nominal one and the stretch in
    /// parentheses; a reason that names no window gets that at its end.
    pub fn tell(&self, reason: &str) -> String {
        if !self.stretched() {
            return reason.to_string();
        }
        let factor = factor(self.scale);
        let seconds = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
        let actual = self.actual_ms();
        let mut forms = vec![
            (seconds(self.nominal_ms), seconds(actual)),
            (format!("{} ms", self.nominal_ms), format!("{actual} ms")),
        ];
        if self.nominal_ms.is_multiple_of(1000) {
            forms.push((
                format!("{} s", self.nominal_ms / 1000),
                format!("{} s", actual.div_ceil(1000)),
            ));
        }
        for (nominal, shown) in &forms {
            if let Some(at) = find_whole(reason, nominal) {
                return format!(
                    "{}{shown} (the {nominal} window, stretched ×{factor} by the machine's load){}",
                    &reason[..at],
                    &reason[at + nominal.len()..]
                );
            }
        }
        format!(
            "{reason} (waited {}: the {} window, stretched ×{factor} by the machine's load)",
            seconds(self.actual_ms()),
            seconds(self.nominal_ms)
        )
    }
}

/// The note for a doctor run whose windows were stretched by up to
/// `scale` ([`super::session::slack::scale`], read as the run starts and
/// as it ends): by `MCPLINGS_TIME_SCALE` when `by_hand`
/// ([`super::session::slack::set_by_hand`]), else by the machine's load;
/// `None` when they were not (under ×1.05). A run where nothing timed out
/// says so too: a host does not stretch its timeouts, so a server that
/// answered only within the stretched windows may time out there, and a
/// passing report would hide it.
pub fn stretched_run_note(scale: f64, by_hand: bool) -> Option<String> {
    let window = Window::new(Duration::from_secs(1), scale);
    if !window.stretched() {
        return None;
    }
    let variable = super::session::slack::SCALE_VAR;
    // The variable sets one factor for the whole run; the load is read as
    // each process starts, so the note gives the largest.
    let factor = factor(window.scale);
    let (by, again) = match by_hand {
        true => (format!("×{factor} by {variable}"), format!("without {variable}")),
        false => (
            format!("up to ×{factor} by the machine's load"),
            "on a quiet machine".to_string(),
        ),
    };
    Some(format!(
        "every window this run waited for an answer in was stretched {by} (the --startup-ms window too): a host does not stretch its timeouts, so a server that answered only within the stretched windows may time out there; run doctor {again} to be sure"
    ))
}

/// `scale` as a factor: "4", "2.5".
fn factor(scale: f64) -> String {
    let tenths = (scale * 10.0).round() / 10.0;
    if tenths.fract() == 0.0 {
        format!("{tenths:.0}")
    } else {
        format!("{tenths:.1}")
    }
}

/// Where `needle` (a number and its unit) stands in `text` as a whole:
/// not after a digit or a point ("13.0 s" does not hold "3.0 s").
fn find_whole(text: &str, needle: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(needle) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        if !before.is_some_and(|c| c.is_ascii_digit() || c == '.') && !after.is_some_and(|c| c.is_alphanumeric()) {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretched_window_is_told_as_it_was_with_the_nominal_beside_it() {
        let window = Window::new(Duration::from_secs(3), 4.0);
        assert_eq!(
            window.tell("no answer within 3.0 s: the program is stuck"),
            "no answer within 12.0 s (the 3.0 s window, stretched ×4 by the machine's load): the program is stuck"
        );
        let window = Window::new(Duration::from_millis(1000), 2.5);
        assert_eq!(
            window.tell("got no response within 1000 ms"),
            "got no response within 2500 ms (the 1000 ms window, stretched ×2.5 by the machine's load)"
        );
        assert_eq!(
            Window::new(Duration::from_secs(10), 2.0).tell("no HTTP reply within 10 s"),
            "no HTTP reply within 20 s (the 10 s window, stretched ×2 by the machine's load)"
        );
    }

    #[test]
    fn a_run_is_noted_as_stretched_only_from_five_percent() {
        for by_hand in [false, true] {
            assert_eq!(stretched_run_note(1.0, by_hand), None);
            assert_eq!(stretched_run_note(1.04, by_hand), None);
            assert!(stretched_run_note(1.05, by_hand).unwrap().contains("×1.1 by"));
        }
        let loaded = stretched_run_note(2.5, false).unwrap();
        assert!(
            loaded.contains("stretched up to ×2.5 by the machine's load"),
            "{loaded}"
        );
        assert!(loaded.contains("run doctor on a quiet machine"), "{loaded}");
        let set = stretched_run_note(2.5, true).unwrap();
        assert!(set.contains("stretched ×2.5 by MCPLINGS_TIME_SCALE"), "{set}");
        assert!(set.contains("run doctor without MCPLINGS_TIME_SCALE"), "{set}");
    }

    #[test]
    fn an_unstretched_window_leaves_the_reason_as_the_checker_wrote_it() {
        let reason = "no answer within 3.0 s: the program is stuck";
        assert_eq!(Window::new(Duration::from_secs(3), 1.0).tell(reason), reason);
        assert_eq!(Window::new(Duration::from_secs(3), 1.02).tell(reason), reason);
        // Below 1 is no stretch at all.
        assert_eq!(Window::new(Duration::from_secs(3), 0.5).scale, 1.0);
    }

    #[test]
    fn only_the_window_itself_is_replaced_and_a_reason_without_it_gets_the_window_at_its_end() {
        let window = Window::new(Duration::from_secs(3), 2.0);
        assert_eq!(
            window.tell("id 13.0 s apart, then 3.0 s"),
            "id 13.0 s apart, then 6.0 s (the 3.0 s window, stretched ×2 by the machine's load)"
        );
        assert_eq!(
            window.tell("no response to id 2"),
            "no response to id 2 (waited 6.0 s: the 3.0 s window, stretched ×2 by the machine's load)"
        );
        // 300 ms is not "0 s", and "300 ms" is not inside "1300 ms".
        let short = Window::new(Duration::from_millis(300), 4.0);
        assert_eq!(
            short.tell("it came after 1300 ms, before its 300 ms timeout"),
            "it came after 1300 ms, before its 1200 ms (the 300 ms window, stretched ×4 by the machine's load) timeout"
        );
    }
}
