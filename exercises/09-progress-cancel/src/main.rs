//! The checker's harness. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! Usage: `progress-cancel --era legacy|modern [--idle-ms N] [--cap-ms N]
//! [--calls K] SERVER [ARGS…]`. It launches the server command. In the
//! legacy era it first calls `initialize` through your `Supervisor::call`
//! (then sends `notifications/initialized`); then it calls the tool `slow`
//! K times. It prints one line per event: `{"harness":"progress",…}`,
//! `{"harness":"violation",…}`, and after each call
//! `{"harness":"outcome","method":…,"call":…,"kind":"result"|"error"|"timed_out","cancelled":…}`;
//! `{"harness":"panic",…}` if your code panicked.

use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

// Your `src/lib.rs`, compiled into this program as a module (not a library
// of its own), so that a save rebuilds one crate, not two. What a stub
// leaves unused is not a mistake yet: no dead-code warnings for it.
#[path = "lib.rs"]
#[allow(dead_code)]
mod learner;
use learner::{Era, Limits, Outcome, Peer, PeerError, Supervisor};
use serde_json::{Value, json};

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// The server's stdin and a channel of the lines it writes.
struct ChildPeer {
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Peer for ChildPeer {
    fn send(&mut self, message: &Value) -> Result<(), PeerError> {
        writeln!(self.stdin, "{message}").and_then(|_| self.stdin.flush()).map_err(|_| PeerError::Closed)
    }

    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError> {
        loop {
            let line = match self.lines.recv_timeout(timeout) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(PeerError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(PeerError::Closed),
            };
            match serde_json::from_str::<Value>(&line) {
                Ok(value) => return Ok(value),
                Err(_) => eprintln!("skipped a line from the server that is not JSON: {line}"),
            }
        }
    }
}

fn main() {
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
    let mut era = Era::Modern;
    let mut limits = Limits { idle: Duration::from_secs(5), cap: Duration::from_secs(30) };
    let mut calls = 1;
    let mut args = std::env::args().skip(1).peekable();
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        let value = args.next().unwrap_or_default();
        let ms = || Duration::from_millis(value.parse().unwrap_or(1000));
        match flag.as_str() {
            "--era" => era = if value == "legacy" { Era::Legacy } else { Era::Modern },
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
    let mut peer = ChildPeer { stdin: child.stdin.take().expect("piped stdin"), lines };
    let mut supervisor = Supervisor::new(era, json!({"name": "progress-cancel", "version": "0.1.0"}));
    if era == Era::Legacy {
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "progress-cancel", "version": "0.1.0"}});
        match run(&mut supervisor, &mut peer, "initialize", params, limits, 0) {
            Some(Outcome::Result(_)) => {
                let _ = peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
            }
            _ => return,
        }
    }
    for call in 1..=calls {
        let params = json!({"name": "slow", "arguments": {"steps": 3}});
        if run(&mut supervisor, &mut peer, "tools/call", params, limits, call).is_none() {
            return;
        }
    }
    drop(peer);
    let _ = child.wait();
}

/// One call through the learner's supervisor, reported line by line; None
/// when it failed or panicked.
fn run(supervisor: &mut Supervisor, peer: &mut ChildPeer, method: &str, params: Value, limits: Limits, call: u32) -> Option<Outcome> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        supervisor.call(
            peer,
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
