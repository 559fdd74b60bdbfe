//! The checker's harness. YOU DO NOT NEED TO EDIT THIS FILE: your work is in
//! `src/lib.rs`.
//!
//! Usage: `era-probe [--modern-versions V1,V2] [--probe-timeout-ms N] SERVER
//! [ARGS…]`. Like any MCP host, this program launches the server command
//! it is given and talks to it over the server's stdin and stdout. Under
//! `mcplings check` that command is `mcplings __relay …`, and the checker
//! plays the server.
//!
//! It calls your `connect`, then sends one `tools/list` built by your
//! `Connection::request`, and prints one report line on its own stdout:
//! `{"harness":"connected","era":…,"version":…,"serverCapabilities":…,
//! "serverInfo":…,"tools":…}`, or `{"harness":"failed","error":…}`, or, if
//! your code panicked, `{"harness":"panic",…}`.

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
use learner::{Config, ConnectError, Era, Peer, PeerError, connect};
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
        eprintln!("This is exercise 04's harness: its checker drives it. Run `mcplings check 04`.");
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
    let mut config = Config {
        modern_versions: vec!["2026-07-28".to_string()],
        probe_timeout: Duration::from_secs(5),
        request_timeout: Duration::from_secs(10),
        client_info: json!({"name": "era-probe", "version": "0.1.0"}),
    };
    let mut args = std::env::args().skip(1).peekable();
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--modern-versions" => config.modern_versions = value.split(',').map(str::to_string).collect(),
            "--probe-timeout-ms" => config.probe_timeout = Duration::from_millis(value.parse().unwrap_or(5000)),
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
    let outcome = catch_unwind(AssertUnwindSafe(|| run(&mut peer, &config)));
    report(match outcome {
        Ok(Ok(report)) => report,
        Ok(Err(e)) => {
            let offered = match &e {
                ConnectError::Incompatible { offered } => json!(offered),
                _ => Value::Null,
            };
            json!({"harness": "failed", "error": e.to_string(), "incompatible": matches!(e, ConnectError::Incompatible { .. }), "offered": offered})
        }
        Err(_) => {
            let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
            json!({"harness": "panic", "function": "connect", "message": message, "location": location})
        }
    });
    // Closing the server's stdin is how a stdio client says goodbye.
    drop(peer);
    let _ = child.wait();
}

/// Connects, then lists the server's tools through the connection.
fn run(peer: &mut ChildPeer, config: &Config) -> Result<Value, ConnectError> {
    let mut connection = connect(peer, config)?;
    let request = connection.request("tools/list", None);
    peer.send(&request).map_err(|_| ConnectError::Closed)?;
    let tools = loop {
        let message = peer.recv(config.request_timeout).map_err(|e| match e {
            PeerError::Timeout => ConnectError::Timeout { method: "tools/list".into() },
            PeerError::Closed => ConnectError::Closed,
        })?;
        if message.get("method").is_none() && message.get("id") == request.get("id") {
            break message.pointer("/result/tools").cloned().unwrap_or(Value::Null);
        }
    };
    Ok(json!({
        "harness": "connected",
        "era": match connection.era { Era::Modern => "modern", Era::Legacy => "legacy" },
        "version": connection.version,
        "serverCapabilities": connection.server_capabilities,
        "serverInfo": connection.server_info,
        "tools": tools,
    }))
}

fn report(line: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}
