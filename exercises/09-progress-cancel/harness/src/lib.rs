//! The checker's harness for exercise 09. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! Usage: `progress-cancel --era legacy|modern [--idle-ms N] [--cap-ms N]
//! [--calls K] SERVER [ARGS…]`. It launches the server command. In the
//! legacy era it first calls `initialize` through your `Supervisor::call`
//! (then sends `notifications/initialized`); then it calls the tool `slow`
//! K times. It prints one line per event: `{"harness":"progress",…}`,
//! `{"harness":"violation",…}`, and after each call
//! `{"harness":"outcome","method":…,"call":…,"kind":"result"|"error"|"timed_out","cancelled":…}`;
//! `{"harness":"panic",…}` if your code panicked.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `Supervisor` to
//! [`Learner`] and your `Peer` trait to [`Server`] (the types of
//! `src/lib.rs` being yours).

use std::fmt::Debug;
use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// The learner's `Supervisor`, as `src/main.rs` hands it over.
pub trait Learner {
    /// `Supervisor::new(era, client_info)`: the supervisor `call` uses;
    /// `legacy` picks `Era::Legacy`, else `Era::Modern`.
    fn new_supervisor(&mut self, legacy: bool, client_info: Value);
    /// `supervisor.call(server, method, params, limits, on_progress,
    /// on_violation)`. An error is handed back as is and printed with its
    /// `Debug`.
    fn call(
        &mut self,
        server: &mut Server,
        method: &str,
        params: Value,
        limits: Limits,
        on_progress: &mut dyn FnMut(&Progress),
        on_violation: &mut dyn FnMut(String),
    ) -> Result<Outcome, Box<dyn Debug>>;
}

/// One progress notification that was passed on (the learner's `Progress`).
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The progress so far; it only goes up.
    pub progress: f64,
    /// The total, when the server knows it.
    pub total: Option<f64>,
    /// A message for the user, if any.
    pub message: Option<String>,
}

/// How a call ended (the learner's `Outcome`).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The `result` of the response.
    Result(Value),
    /// The `error` object of the response.
    Error(Value),
    /// No response in time. `cancelled` says whether a
    /// `notifications/cancelled` was sent (never for `initialize`).
    TimedOut { cancelled: bool },
}

/// Why a message could not be sent or received (the learner's `PeerError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerError {
    /// Nothing arrived in time.
    Timeout,
    /// The server closed the connection.
    Closed,
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// The server's stdin and a channel of the lines it writes.
pub struct Server {
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Server {
    /// Sends one message (the learner's `Peer::send`).
    pub fn send(&mut self, message: &Value) -> Result<(), ServerError> {
        writeln!(self.stdin, "{message}").and_then(|_| self.stdin.flush()).map_err(|_| ServerError::Closed)
    }

    /// Waits up to `timeout` for the next message (the learner's `Peer::recv`).
    pub fn recv(&mut self, timeout: Duration) -> Result<Value, ServerError> {
        loop {
            let line = match self.lines.recv_timeout(timeout) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(ServerError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(ServerError::Closed),
            };
            match serde_json::from_str::<Value>(&line) {
                Ok(value) => return Ok(value),
                Err(_) => eprintln!("skipped a line from the server that is not JSON: {line}"),
            }
        }
    }
}

/// How long a call may take (the learner's `Limits`).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest silence: restarted by each valid progress notification.
    pub idle: Duration,
    /// Longest call, progress or not.
    pub cap: Duration,
}

/// Runs the harness: parses the arguments, launches the server and drives
/// the learner's supervisor.
pub fn run(learner: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 09's harness: its checker drives it. Run `mcplings check 09`.");
    }
    std::panic::set_hook(Box::new(|info| {
        let message = match (info.payload().downcast_ref::<&str>(), info.payload().downcast_ref::<String>()) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic".to_string(),
        };
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
        eprintln!("panicked at {location}: {message}");
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, location));
    }));
    let mut legacy = false;
    let mut limits = Limits { idle: Duration::from_secs(5), cap: Duration::from_secs(30) };
    let mut calls = 1;
    let mut args = std::env::args().skip(1).peekable();
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        let value = args.next().unwrap_or_default();
        let ms = || Duration::from_millis(value.parse().unwrap_or(1000));
        match flag.as_str() {
            "--era" => legacy = value == "legacy",
            "--idle-ms" => limits.idle = ms(),
            "--cap-ms" => limits.cap = ms(),
            "--calls" => calls = value.parse().unwrap_or(1),
            _ => return report(json!({"harness": "failed", "error": format!("unknown option {flag}")})),
        }
    }
    let Some(program) = args.next() else {
        return report(json!({"harness": "failed", "error": "no server command given"}));
    };
    let mut child = match Command::new(&program).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) => return report(json!({"harness": "failed", "error": format!("cannot start {program}: {e}")})),
    };
    let (tx, lines) = channel();
    let stdout = child.stdout.take().expect("piped stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut server = Server { stdin: child.stdin.take().expect("piped stdin"), lines };
    learner.new_supervisor(legacy, json!({"name": "progress-cancel", "version": "0.1.0"}));
    if legacy {
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "progress-cancel", "version": "0.1.0"}});
        match run_call(learner, &mut server, "initialize", params, limits, 0) {
            Some(Outcome::Result(_)) => {
                let _ = server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
            }
            _ => return,
        }
    }
    for call in 1..=calls {
        let params = json!({"name": "slow", "arguments": {"steps": 3}});
        if run_call(learner, &mut server, "tools/call", params, limits, call).is_none() {
            return;
        }
    }
    drop(server);
    let _ = child.wait();
}

/// One call through the learner's supervisor, reported line by line; None
/// when it failed or panicked.
fn run_call(
    learner: &mut dyn Learner,
    server: &mut Server,
    method: &str,
    params: Value,
    limits: Limits,
    call: u32,
) -> Option<Outcome> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        learner.call(
            server,
            method,
            params,
            limits,
            &mut |p| report(json!({"harness": "progress", "call": call, "progress": p.progress, "total": p.total, "message": p.message})),
            &mut |v| report(json!({"harness": "violation", "call": call, "message": v})),
        )
    }));
    let line = match &outcome {
        Ok(Ok(Outcome::Result(_))) => json!({"harness": "outcome", "method": method, "call": call, "kind": "result"}),
        Ok(Ok(Outcome::Error(e))) => json!({"harness": "outcome", "method": method, "call": call, "kind": "error", "error": e}),
        Ok(Ok(Outcome::TimedOut { cancelled })) => json!({"harness": "outcome", "method": method, "call": call, "kind": "timed_out", "cancelled": cancelled}),
        Ok(Err(e)) => json!({"harness": "failed", "method": method, "call": call, "error": format!("{e:?}")}),
        Err(_) => {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            json!({"harness": "panic", "function": "Supervisor::call", "message": message, "location": location})
        }
    };
    report(line);
    outcome.ok().and_then(Result::ok)
}

fn report(line: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}
