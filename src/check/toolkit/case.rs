//! What a checker is made of: a [`Checker`] names its [`Case`]s and the
//! [`Shape`] its program runs in; a case ends `Ok` or with a [`Failure`]
//! whose reason tells the learner what to change.

use std::time::Duration;

use serde_json::Value;

use super::compare::open;
use crate::check::session::{Session, Stop};

/// Why a case failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// One line a learner can act on.
    pub reason: String,
    /// What a correct program produces, when that is a value.
    pub expected: Option<Value>,
    /// What this program produced.
    pub actual: Option<Value>,
    /// Set when the conversation itself broke (timeout, exit, junk).
    pub stop: Option<Stop>,
    /// The window the verdict depended on, as the checker names it (the
    /// session stretched it by its scale): the report tells both
    /// ([`crate::check::report::Window`]). A timeout's stop carries its
    /// own.
    pub window: Option<Duration>,
}

impl Failure {
    /// A failure with a reason only.
    pub fn new(reason: impl Into<String>) -> Failure {
        Failure {
            reason: reason.into(),
            expected: None,
            actual: None,
            stop: None,
            window: None,
        }
    }

    /// A failure with a reason that shows what the program produced
    /// (`actual`), with nothing to set against it.
    pub fn showing(reason: impl Into<String>, actual: Value) -> Failure {
        Failure {
            actual: Some(actual),
            ..Failure::new(reason)
        }
    }

    /// A failure showing expected against actual.
    pub fn mismatch(reason: impl Into<String>, expected: Value, actual: Value) -> Failure {
        Failure {
            reason: reason.into(),
            expected: Some(expected),
            actual: Some(actual),
            stop: None,
            window: None,
        }
    }

    /// Like [`Failure::mismatch`] for an `expected` that names only the
    /// members the case checks: every object in it is open, so the
    /// differences leave out members it does not list (see `compare::open`).
    pub fn partial(reason: impl Into<String>, expected: Value, actual: Value) -> Failure {
        Failure::mismatch(reason, open(expected), actual)
    }
}

impl From<Stop> for Failure {
    fn from(stop: Stop) -> Failure {
        Failure {
            reason: stop.reason(),
            expected: None,
            actual: None,
            stop: Some(stop),
            window: None,
        }
    }
}

impl Failure {
    /// This failure, saying its verdict depended on the window `nominal`
    /// (which the session stretched by its scale).
    pub fn within(self, nominal: Duration) -> Failure {
        Failure {
            window: Some(nominal),
            ..self
        }
    }

    /// The window the verdict depended on: the one set, else a timeout's.
    pub fn window(&self) -> Option<Duration> {
        self.window.or(match self.stop {
            Some(Stop::Timeout(d) | Stop::NotReading(d)) => Some(d),
            _ => None,
        })
    }
}

/// A case's result.
pub type CaseResult = Result<(), Failure>;

/// One named case of a checker.
pub struct Case {
    /// Short name shown in the case list.
    pub name: &'static str,
    /// What the case proves, in one sentence.
    pub about: &'static str,
    /// The rules it tests, each a rule key: a spec citation as the lessons
    /// write it, `REVISION page › Heading` (`2025-11-25 basic/index ›
    /// Notifications`, see `text::cite::rule_keys`), or `course rule: ID`
    /// for a convention of the course's own (the lesson marks it
    /// `(course rule: ID)`). `mcplings verify` fails when none of the
    /// sections the exercise needs states one of them.
    pub rules: &'static [&'static str],
    /// Command-line arguments for the learner's program.
    pub args: &'static [&'static str],
    /// The conversation.
    pub run: fn(&mut Session) -> CaseResult,
}

/// How the learner's program is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A server or an exercise harness: the checker writes to its stdin and
    /// reads its stdout ([`Session::spawn`]).
    Program,
    /// A client: it is given a server command and launches it; the checker
    /// plays that server ([`Session::spawn_client`]).
    Client,
    /// An HTTP server: it is started with `--port N`, a free loopback port
    /// the checker picked, and the checker sends it HTTP requests
    /// ([`crate::check::http`]).
    Http,
}

/// A checker: a name (used in `exercises.toml`) and its cases in order.
pub struct Checker {
    /// The name content refers to.
    pub name: &'static str,
    /// How every case runs the program.
    pub shape: Shape,
    /// Whether the learner's frames are MCP messages: after each case that
    /// passes, every frame it sent is checked against the official types of
    /// its revision ([`crate::check::schema`]), and the first that breaks
    /// them fails the case.
    pub schema: bool,
    /// The cases, run in order.
    pub cases: &'static [Case],
}
