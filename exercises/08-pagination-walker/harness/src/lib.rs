//! The checker's harness for exercise 08. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! Usage: `pagination-walker [--listen] [--wait-ms N] SERVER [ARGS…]`. It
//! launches the server command and, with `--listen`, calls `Walker::listen`
//! first. Then it calls `Walker::list_tools` four times: twice in a row,
//! then after waiting N ms, then after waiting N ms again. While it waits,
//! every message that arrives goes to `Walker::on_message`. After each call
//! it prints one line: `{"harness":"listed","call":1,"names":[…]}`, or
//! `{"harness":"failed",…}` and stops; `{"harness":"listening"}` after
//! `listen`; `{"harness":"panic",…}` if your code panicked.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `Walker` to
//! [`Learner`] and your `Peer` trait to [`Server`] (the types of
//! `src/lib.rs` being yours).

use std::fmt::Display;
use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The learner's `Walker`, as `src/main.rs` hands it over. An error is
/// handed back as is and printed with its `Display`.
pub trait Learner {
    /// `Walker::new(client_info)`: the walker the other methods call.
    fn new_walker(&mut self, client_info: Value);
    /// `walker.listen(server)`.
    fn listen(&mut self, server: &mut Server) -> Result<(), Box<dyn Display>>;
    /// `walker.list_tools(server, now)`.
    fn list_tools(&mut self, server: &mut Server, now: Instant) -> Result<Vec<Value>, Box<dyn Display>>;
    /// `walker.on_message(message)`.
    fn on_message(&mut self, message: &Value);
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

/// Runs the harness: parses the arguments, launches the server and drives
/// the learner's walker.
pub fn run(learner: &mut dyn Learner) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 08's harness: its checker drives it. Run `mcplings check 08`.");
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
    let mut listen = false;
    let mut wait = Duration::ZERO;
    let mut args = std::env::args().skip(1).peekable();
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        match flag.as_str() {
            "--listen" => listen = true,
            "--wait-ms" => wait = Duration::from_millis(args.next().and_then(|v| v.parse().ok()).unwrap_or(0)),
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
    learner.new_walker(json!({"name": "pagination-walker", "version": "0.1.0"}));
    if listen {
        match guarded("Walker::listen", || learner.listen(&mut server)) {
            Ok(Ok(())) => report(json!({"harness": "listening"})),
            Ok(Err(e)) => return report(json!({"harness": "failed", "error": e.to_string()})),
            Err(panic) => return report(panic),
        }
    }
    for call in 1..=4 {
        if call > 2 {
            pump(learner, &mut server, wait);
        }
        match guarded("Walker::list_tools", || learner.list_tools(&mut server, Instant::now())) {
            Ok(Ok(tools)) => {
                let names: Vec<Value> = tools.iter().map(|t| t.get("name").cloned().unwrap_or(Value::Null)).collect();
                report(json!({"harness": "listed", "call": call, "names": names}));
            }
            Ok(Err(e)) => return report(json!({"harness": "failed", "call": call, "error": e.to_string()})),
            Err(panic) => return report(panic),
        }
    }
    drop(server);
    let _ = child.wait();
}

/// Hands every message that arrives within `wait` to `on_message`.
fn pump(learner: &mut dyn Learner, server: &mut Server, wait: Duration) {
    let until = Instant::now() + wait;
    while let Some(left) = until.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) {
        if let Ok(message) = server.recv(left)
            && let Err(panic) = guarded("Walker::on_message", || learner.on_message(&message))
        {
            report(panic);
            std::process::exit(0);
        }
    }
}

/// Runs the learner's code; a panic becomes the report to print.
fn guarded<T>(function: &str, f: impl FnOnce() -> T) -> Result<T, Value> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let (message, location) = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
        json!({"harness": "panic", "function": function, "message": message, "location": location})
    })
}

fn report(line: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}
