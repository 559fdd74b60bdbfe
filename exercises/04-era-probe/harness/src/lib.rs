//! The checker's harness for exercise 04. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! Usage: `era-probe [--modern-versions V1,V2] [--probe-timeout-ms N] SERVER
//! [ARGS…]`. Like any MCP host, the exercise's program launches the server
//! command it is given and talks to it over the server's stdin and stdout.
//! Under `mcplings check` that command is `mcplings __relay …`, and the
//! checker plays the server.
//!
//! It calls your `connect`, then sends one `tools/list` built by your
//! `Connection::request`, and prints one report line on its own stdout:
//! `{"harness":"connected","era":…,"version":…,"serverCapabilities":…,
//! "serverInfo":…,"tools":…}`, or `{"harness":"failed","error":…}`, or, if
//! your code panicked, `{"harness":"panic",…}`.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `connect` to
//! [`Learner`] (the types of `src/lib.rs` being yours, the harness sees
//! them through [`Connected`] and [`Failure`]).

use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// How to connect: the fields of the learner's `Config`, from the
/// program's options.
pub struct Config {
    /// Modern protocol versions the client speaks, newest first.
    pub modern_versions: Vec<String>,
    /// How long to wait for an answer to the probe.
    pub probe_timeout: Duration,
    /// How long to wait for any other response.
    pub request_timeout: Duration,
    /// The client's `Implementation`: `{"name": …, "version": …}`.
    pub client_info: Value,
}

/// Why a message could not be received: the learner's `PeerError`.
pub enum PeerError {
    /// Nothing arrived in time.
    Timeout,
    /// The server closed the connection.
    Closed,
}

/// The server's stdin and a channel of the lines it writes. `src/main.rs`
/// makes it the learner's `Peer`.
pub struct ChildPeer {
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl ChildPeer {
    /// Sends one message, as one line. Fails with [`PeerError::Closed`].
    pub fn send_message(&mut self, message: &Value) -> Result<(), PeerError> {
        writeln!(self.stdin, "{message}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| PeerError::Closed)
    }

    /// Waits up to `timeout` for the next line from the server that is
    /// JSON; lines that are not are logged on stderr and skipped.
    pub fn recv_message(&mut self, timeout: Duration) -> Result<Value, PeerError> {
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

/// The learner's `Connection`, as `connect` returned it.
pub trait Connected {
    /// `Connection::request(method, params)`.
    fn request(&mut self, method: &str, params: Option<Value>) -> Value;
    /// Its era: `"modern"` or `"legacy"`.
    fn era(&self) -> &'static str;
    /// Its protocol version.
    fn version(&self) -> String;
    /// The server's capabilities.
    fn server_capabilities(&self) -> Value;
    /// The server's `Implementation`, when it named itself.
    fn server_info(&self) -> Option<Value>;
}

/// A `ConnectError` of the learner's.
pub trait Failure {
    /// What its `Display` says.
    fn message(&self) -> String;
    /// What the server offered, for `ConnectError::Incompatible`; `None`
    /// for any other error.
    fn offered(&self) -> Option<Vec<String>>;
}

/// The learner's functions and types, as `src/main.rs` hands them over.
pub trait Learner {
    /// `connect(peer, config)`.
    fn connect(&mut self, peer: &mut ChildPeer, config: &Config) -> Result<Box<dyn Connected>, Box<dyn Failure>>;
    /// `ConnectError::Closed`.
    fn closed(&mut self) -> Box<dyn Failure>;
    /// `ConnectError::Timeout { method }`.
    fn timeout(&mut self, method: &str) -> Box<dyn Failure>;
}

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Runs the harness: parses the options, starts the server, connects, and
/// prints the report line.
pub fn run(learner: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 04's harness: its checker drives it. Run `mcplings check 04`.");
    }
    std::panic::set_hook(Box::new(|info| {
        let message = match (
            info.payload().downcast_ref::<&str>(),
            info.payload().downcast_ref::<String>(),
        ) {
            (Some(s), _) => s.to_string(),
            (_, Some(s)) => s.clone(),
            _ => "panic".to_string(),
        };
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
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
    let mut child = match Command::new(&program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
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
    let mut peer = ChildPeer {
        stdin: child.stdin.take().expect("piped stdin"),
        lines,
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| probe(learner, &mut peer, &config)));
    report(match outcome {
        Ok(Ok(report)) => report,
        Ok(Err(e)) => {
            let offered = e.offered();
            json!({"harness": "failed", "error": e.message(), "incompatible": offered.is_some(), "offered": offered})
        }
        Err(_) => {
            let (message, location) = LAST_PANIC
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_default();
            json!({"harness": "panic", "function": "connect", "message": message, "location": location})
        }
    });
    // Closing the server's stdin is how a stdio client says goodbye.
    drop(peer);
    let _ = child.wait();
}

/// Connects, then lists the server's tools through the connection.
fn probe(learner: &mut dyn Learner, peer: &mut ChildPeer, config: &Config) -> Result<Value, Box<dyn Failure>> {
    let mut connection = learner.connect(peer, config)?;
    let request = connection.request("tools/list", None);
    peer.send_message(&request).map_err(|_| learner.closed())?;
    let tools = loop {
        let message = peer.recv_message(config.request_timeout).map_err(|e| match e {
            PeerError::Timeout => learner.timeout("tools/list"),
            PeerError::Closed => learner.closed(),
        })?;
        if message.get("method").is_none() && message.get("id") == request.get("id") {
            break message.pointer("/result/tools").cloned().unwrap_or(Value::Null);
        }
    };
    Ok(json!({
        "harness": "connected",
        "era": connection.era(),
        "version": connection.version(),
        "serverCapabilities": connection.server_capabilities(),
        "serverInfo": connection.server_info(),
        "tools": tools,
    }))
}

fn report(line: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}
