//! Reading what a learner's program says: the next line of its frames,
//! judged (one JSON text, UTF-8, not cut, ending in `\n` alone), a window
//! of silence, and a client's own report on its stdout.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::conversation::{Received, Session};
use super::pipes::{MAX_LINE, MAX_STDOUT, Out};
use super::stop::Stop;
use super::transcript::entry_kind;
use crate::check::report::{Direction, EntryKind};
use crate::text::shorten;

/// Longest junk line (not JSON) kept in the transcript, in characters.
const MAX_JUNK_SHOWN: usize = 2000;
/// How long a program that exited may leave its stdout open (held by a
/// process it started) before the session takes it as ended.
const EXIT_GRACE: Duration = Duration::from_millis(500);

impl Session {
    /// Reads the next stdout line and parses it as JSON.
    ///
    /// Errors: [`Stop::NotJson`], [`Stop::NotUtf8`] and [`Stop::Crlf`] for a
    /// line that is not one JSON text in UTF-8 ending in `\n` alone, and the
    /// other [`Stop`] variants for timeouts, exits, floods and cancels.
    pub fn recv(&mut self) -> Result<Received, Stop> {
        loop {
            let (bytes, truncated) = self.next_line(self.deadline)?;
            match self.take_line(bytes, truncated) {
                Err(stop) if self.skipped(&stop) => continue,
                other => return other,
            }
        }
    }

    /// Whether `stop` is a junk line that [`Session::skip_junk`] reads past.
    fn skipped(&self, stop: &Stop) -> bool {
        self.skip_junk && matches!(stop, Stop::NotJson { .. } | Stop::NotUtf8 { .. })
    }

    /// Waits `window` for more output. `Ok(None)` when nothing arrived (the
    /// program is quietly waiting, as it should when it has nothing to say),
    /// `Ok(Some(_))` with the line it wrote instead.
    ///
    /// The window is exact: a silence window or a pace. A window in which
    /// something is *expected* is stretched by the caller, with
    /// [`Session::slack`] (see `slack.rs`).
    pub fn recv_within(&mut self, window: Duration) -> Result<Option<Received>, Stop> {
        self.recv_until(Instant::now() + window)
    }

    /// [`Session::recv_within`] up to an instant rather than for a window.
    pub fn recv_until(&mut self, until: Instant) -> Result<Option<Received>, Stop> {
        let until = until.min(self.deadline);
        loop {
            return match self.next_line(until) {
                Ok((bytes, truncated)) => match self.take_line(bytes, truncated) {
                    Err(stop) if self.skipped(&stop) => continue,
                    other => other.map(Some),
                },
                Err(Stop::Timeout(_)) if Instant::now() < self.deadline => Ok(None),
                Err(Stop::Exited(_)) => Ok(None),
                Err(stop) => Err(stop),
            };
        }
    }

    /// Records a stdout line and judges it: one JSON text, UTF-8, not cut
    /// at [`MAX_LINE`], ending in `\n` without a `\r`.
    fn take_line(&mut self, bytes: Vec<u8>, truncated: bool) -> Result<Received, Stop> {
        let number = self.stdout_lines;
        let crlf = bytes.ends_with(b"\r");
        let body = if crlf { &bytes[..bytes.len() - 1] } else { &bytes[..] };
        let text = match std::str::from_utf8(body) {
            Ok(text) => text,
            Err(e) => {
                let line = String::from_utf8_lossy(body).into_owned();
                self.record_junk(&line, truncated);
                // Show the bad byte with some of what comes before it.
                let at = e.valid_up_to();
                let from = (0..=at.saturating_sub(40))
                    .rev()
                    .find(|&i| line.is_char_boundary(i))
                    .unwrap_or(0);
                let shown = format!("{}{}", if from > 0 { "…" } else { "" }, shorten(&line[from..], 60));
                return Err(Stop::NotUtf8 {
                    number,
                    line: shown,
                    at,
                });
            }
        };
        match serde_json::from_str::<Value>(text) {
            Ok(value) if !truncated => {
                let line = text.to_string();
                self.transcript
                    .record(Direction::FromLearner, &line, Some(&value), entry_kind(Some(&value)));
                if crlf {
                    return Err(Stop::Crlf { number });
                }
                Ok(Received { value, line })
            }
            _ => {
                let line = text.to_string();
                self.record_junk(&line, truncated);
                Err(Stop::NotJson {
                    number,
                    line: shorten(&line, 60),
                })
            }
        }
    }

    /// Records a line that is not JSON, shortened to [`MAX_JUNK_SHOWN`]
    /// characters with a note when it is longer (or was cut on reading).
    fn record_junk(&mut self, line: &str, truncated: bool) {
        self.junk_lines += 1;
        let shown = line.chars().count();
        let line = if shown > MAX_JUNK_SHOWN || truncated {
            let more = if truncated {
                format!("over {} MiB", MAX_LINE >> 20)
            } else {
                format!("{} characters", shown)
            };
            format!(
                "{}… (the line is {more}; only its start is kept)",
                line.chars().take(MAX_JUNK_SHOWN).collect::<String>()
            )
        } else {
            line.to_string()
        };
        self.transcript
            .record(Direction::FromLearner, &line, None, EntryKind::Junk);
    }

    /// Records the start of a flood of stdout, then the stop it is.
    fn flood(&mut self, start: &[u8], newline: bool) -> Stop {
        let start = String::from_utf8_lossy(start);
        let line = format!(
            "{}… (more than {} MiB of stdout; the rest is not kept)",
            shorten(start.trim_end_matches('\r'), 200).trim_end_matches('…'),
            MAX_STDOUT >> 20
        );
        self.transcript
            .record(Direction::FromLearner, &line, None, EntryKind::Junk);
        Stop::Flood { newline }
    }

    /// Reads the next JSON line a client printed on its own stdout (its
    /// report), waiting up to `window` (exact, as for `recv_within`). Lines that are not JSON are
    /// recorded and skipped: a client's stdout is not a protocol channel.
    /// `Ok(None)` when nothing arrived in time or the client closed its
    /// stdout; always `Ok(None)` for a program that is not a client.
    pub fn recv_output(&mut self, window: Duration) -> Result<Option<Received>, Stop> {
        let until = (Instant::now() + window).min(self.deadline);
        loop {
            if self.cancelled() {
                return Err(Stop::Cancelled);
            }
            let Some(output) = &self.output else { return Ok(None) };
            let now = Instant::now();
            if now >= until {
                return Ok(None);
            }
            match output.recv_timeout((until - now).min(Duration::from_millis(50))) {
                Ok(Out::Line { bytes, truncated }) => {
                    let line = String::from_utf8_lossy(&bytes).trim_end_matches('\r').to_string();
                    match serde_json::from_str::<Value>(&line).ok().filter(|_| !truncated) {
                        Some(value) => {
                            self.transcript
                                .record(Direction::FromLearner, &line, Some(&value), EntryKind::Harness);
                            return Ok(Some(Received { value, line }));
                        }
                        None => self.record_junk(&line, truncated),
                    }
                }
                Ok(Out::Flood { start, newline }) => return Err(self.flood(&start, newline)),
                Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.output = None;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// The next stdout line's bytes (without the `\n`) and whether it was
    /// cut at [`MAX_LINE`], by `until`.
    ///
    /// A program that has exited has said all it will: once it has been
    /// gone for [`EXIT_GRACE`] with no new line, this stops with
    /// [`Stop::Exited`] even if stdout is still open (held by a process it
    /// started, which [`Session::finish`] kills with the rest of its group).
    fn next_line(&mut self, until: Instant) -> Result<(Vec<u8>, bool), Stop> {
        loop {
            if self.cancelled() {
                return Err(Stop::Cancelled);
            }
            let now = Instant::now();
            if now >= until {
                return Err(Stop::Timeout(self.timeout));
            }
            let slice = (until - now).min(Duration::from_millis(50));
            match self.stdout.recv_timeout(slice) {
                Ok(Out::Line { bytes, truncated }) => {
                    self.stdout_lines += 1;
                    if self.quiet_since.is_some() {
                        self.quiet_since = Some(Instant::now());
                    }
                    return Ok((bytes, truncated));
                }
                Ok(Out::Flood { start, newline }) => return Err(self.flood(&start, newline)),
                Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(self.exit_stop()),
                Err(RecvTimeoutError::Timeout) => {
                    if self.process.exited().is_none() && self.process.try_exit().is_some() {
                        self.quiet_since = Some(Instant::now());
                    }
                    if self
                        .quiet_since
                        .is_some_and(|at| at.elapsed() >= self.slack(EXIT_GRACE))
                    {
                        return Err(Stop::Exited(self.process.exited()));
                    }
                }
            }
        }
    }
}
