//! The checker's harness for exercise 10. YOU DO NOT NEED TO EDIT THIS
//! CRATE: your work is in `src/lib.rs`.
//!
//! Usage: `input-required --era legacy|modern [--max-rounds N] SERVER
//! [ARGS…]`. It launches the server command; in the legacy era it runs
//! `Client::initialize` first. Then it calls the tool `greet` with no
//! arguments through your `Client::call_tool`, with a handler that answers
//! `elicitation/create` by accepting `{"name": "Ada"}` and knows nothing
//! else. It prints `{"harness":"asked","method":…}` for each question the
//! handler gets, then `{"harness":"result","result":…}` or
//! `{"harness":"failed","error":…}`; `{"harness":"panic",…}` if your code
//! panicked.
//!
//! Why a crate of its own: it is compiled once, so a save recompiles only
//! your file and `src/main.rs`, which connects your `Client` to [`Learner`]
//! and your `Peer` trait to [`Connection`] (results travel as JSON values,
//! errors as their `{:?}` text, the types of `src/lib.rs` being yours).

use std::io::{BufRead, BufReader, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// Your `Client`, as `src/main.rs` hands it over: made by the function given
/// to [`run`] (`Client::new`, and `max_rounds` when `--max-rounds` is given).
/// A failed call is its error's `{:?}` text.
pub trait Learner {
    /// `Client::initialize(server)`.
    fn initialize(&mut self, server: &mut Connection) -> Result<(), String>;
    /// `Client::call_tool(server, name, arguments, handler)`.
    fn call_tool(
        &mut self,
        server: &mut Connection,
        name: &str,
        arguments: &Value,
        handler: &mut dyn FnMut(&str, &Value) -> Option<Value>,
    ) -> Result<Value, String>;
}

/// What [`run`] needs to make your client: whether the era is legacy (else
/// modern), the `clientInfo`, and the `--max-rounds` value if one was given.
pub type NewClient = fn(legacy: bool, client_info: Value, max_rounds: Option<usize>) -> Box<dyn Learner>;

static LAST_PANIC: Mutex<Option<(String, String)>> = Mutex::new(None);

/// The server's stdin and a channel of the lines it writes.
pub struct Connection {
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Connection {
    /// Sends one message, on a line of its own.
    pub fn send(&mut self, message: &Value) -> std::io::Result<()> {
        writeln!(self.stdin, "{message}").and_then(|_| self.stdin.flush())
    }

    /// Waits up to `timeout` for the next message from the server
    /// (`Disconnected`: the server closed its stdout).
    pub fn recv(&mut self, timeout: Duration) -> Result<Value, RecvTimeoutError> {
        loop {
            let line = self.lines.recv_timeout(timeout)?;
            match serde_json::from_str::<Value>(&line) {
                Ok(value) => return Ok(value),
                Err(_) => eprintln!("skipped a line from the server that is not JSON: {line}"),
            }
        }
    }
}

/// Runs the harness: parses the arguments, launches the server, makes your
/// client with `new_client` and calls the tool.
pub fn run(new_client: NewClient) {
    // Started by hand (`cargo run` here), it would wait on stdin in silence.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("This is exercise 10's harness: its checker drives it. Run `mcplings check 10`.");
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
    let mut legacy = false;
    let mut max_rounds = None;
    let mut args = std::env::args().skip(1).peekable();
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--era" => legacy = value == "legacy",
            "--max-rounds" => max_rounds = value.parse().ok(),
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
    let mut peer = Connection {
        stdin: child.stdin.take().expect("piped stdin"),
        lines,
    };
    let mut client = new_client(
        legacy,
        json!({"name": "input-required", "version": "0.1.0"}),
        max_rounds,
    );
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        if legacy {
            client.initialize(&mut peer)?;
        }
        let mut handler = |method: &str, params: &Value| {
            report(json!({"harness": "asked", "method": method, "params": params}));
            (method == "elicitation/create").then(|| json!({"action": "accept", "content": {"name": "Ada"}}))
        };
        client.call_tool(&mut peer, "greet", &json!({}), &mut handler)
    }));
    report(match outcome {
        Ok(Ok(result)) => json!({"harness": "result", "result": result}),
        Ok(Err(e)) => json!({"harness": "failed", "error": e}),
        Err(_) => {
            let (message, location) = LAST_PANIC
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_default();
            json!({"harness": "panic", "function": "Client::call_tool", "message": message, "location": location})
        }
    });
    drop(peer);
    let _ = child.wait();
}

fn report(line: Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}
