//! One run of a learner's program: a child process the checker talks to in
//! newline-delimited JSON, as MCP peers talk over stdio (2025-11-25
//! basic/transports › stdio). Two shapes:
//!
//! - [`Session::spawn`]: the program is a server (or an exercise harness);
//!   the checker writes to its stdin and reads its stdout.
//! - [`Session::spawn_client`]: the program is a client. Like every MCP
//!   host it is given a server command on its command line and launches
//!   it; that command is `mcplings __relay SOCKET`, which joins the
//!   server's stdin and stdout to a socket the checker holds, so the
//!   checker plays the server. The client's own stdout is read line by
//!   line as its report ([`Session::recv_output`]); its stderr is
//!   captured.
//!
//! Every line either way is recorded in a [`Transcript`] with its direction,
//! its JSON-RPC id and its time. The child runs in its own process group, so
//! a timeout or a cancel kills the whole tree, grandchildren included.
//! Output is capped: a line at [`MAX_LINE`] bytes, the whole stdout at
//! [`MAX_STDOUT`], stderr at [`MAX_STDERR`].

use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use process_wrap::std::{ChildWrapper, CommandWrap, ProcessGroup};
use serde_json::Value;

use super::report::{Direction, EntryKind, TranscriptEntry};
use crate::jsonrpc::frame_id;

/// Longest stdout line kept, in bytes; the rest of the line is dropped.
pub const MAX_LINE: usize = 1 << 20;
/// Most stdout kept per run, in bytes; past it the run is stopped.
pub const MAX_STDOUT: usize = 8 << 20;
/// Most stderr kept per run, in bytes; the rest is dropped with a note.
pub const MAX_STDERR: usize = 64 << 10;

/// Why a conversation with the program stopped early. Each variant becomes a
/// failed case with a plain reason (see [`Stop::reason`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// Nothing arrived before the case's deadline.
    Timeout(Duration),
    /// The program closed stdout or exited; `status` is its exit, if known.
    Exited(Option<ExitStatus>),
    /// A stdout line that is not JSON; `number` counts from 1.
    NotJson {
        /// 1-based stdout line number.
        number: usize,
        /// The line (lossy UTF-8, shortened).
        line: String,
    },
    /// The program wrote more than [`MAX_STDOUT`] bytes.
    Flood,
    /// The check was cancelled by the learner.
    Cancelled,
    /// The program could not be started or written to.
    Io(String),
}

impl Stop {
    /// One or two sentences a learner can act on.
    pub fn reason(&self) -> String {
        match self {
            Stop::Timeout(after) => format!(
                "no answer within {:.1} s: the program is stuck (an endless loop, or waiting for input that never comes?) and was stopped",
                after.as_secs_f64()
            ),
            Stop::Exited(status) => match status.and_then(|s| s.code()) {
                Some(101) => "the program panicked before answering; its stderr shows where".to_string(),
                Some(0) => "the program exited before answering: it must keep reading stdin until it closes".to_string(),
                Some(code) => format!("the program exited with code {code} before answering; see its stderr"),
                None if status.is_some() => "the program was killed by a signal before answering".to_string(),
                None => "the program closed stdout before answering".to_string(),
            },
            Stop::NotJson { number, line } => format!(
                "stdout line {number} is not JSON: `{line}`. stdout carries only JSON-RPC frames, one per line; print debug output to stderr (eprintln!)"
            ),
            Stop::Flood => format!("the program wrote more than {} MiB to stdout and was stopped", MAX_STDOUT >> 20),
            Stop::Cancelled => "the check was cancelled".to_string(),
            Stop::Io(e) => format!("could not talk to the program: {e}"),
        }
    }
}

/// One JSON line read from the program.
#[derive(Debug, Clone)]
pub struct Received {
    /// The parsed value.
    pub value: Value,
    /// The raw line, without its line ending.
    pub line: String,
}

enum Out {
    Line { bytes: Vec<u8>, truncated: bool },
    Flood,
    Eof,
}

/// A running learner program and everything said to and by it.
pub struct Session {
    child: Box<dyn ChildWrapper>,
    /// Where frames to the program go: its stdin, or the relay's socket.
    stdin: Option<Box<dyn Write + Send>>,
    /// Keeps the relay's socket directory alive for a client session.
    _socket_dir: Option<tempfile::TempDir>,
    stdout: Receiver<Out>,
    /// A client's own stdout (its report), apart from the frames it sends.
    output: Option<Receiver<Out>>,
    stderr: Arc<Mutex<Captured>>,
    transcript: Vec<TranscriptEntry>,
    started: Instant,
    deadline: Instant,
    timeout: Duration,
    stdout_lines: usize,
    cancel: Option<Arc<AtomicBool>>,
    exited: Option<ExitStatus>,
    /// The loopback port an HTTP server was told to listen on.
    port: Option<u16>,
}

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    dropped: usize,
}

/// What is left of a session once it is over.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Every line, both directions, in order.
    pub transcript: Vec<TranscriptEntry>,
    /// The program's stderr (lossy UTF-8, capped).
    pub stderr: String,
    /// Bytes of stderr dropped past the cap.
    pub stderr_dropped: usize,
}

impl Session {
    /// Starts `program` with `args` in its own process group, stdin and
    /// stdout piped to us, stderr captured apart. `timeout` bounds the whole
    /// conversation; `cancel`, when set, stops it early.
    pub fn spawn(program: &Path, args: &[&str], timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> Result<Session, Stop> {
        let mut child = start(program, args.iter().map(|a| a.to_string()).collect(), Stdio::piped())?;
        let stdin = child.stdin().take().map(|s| Box::new(s) as Box<dyn Write + Send>);
        let stdout = child.stdout().take().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let stderr = child.stderr().take().ok_or_else(|| Stop::Io("no stderr pipe".into()))?;
        let (tx, rx) = channel();
        thread::spawn(move || read_lines(stdout, tx));
        let captured = Arc::new(Mutex::new(Captured::default()));
        let sink = Arc::clone(&captured);
        thread::spawn(move || read_capped(stderr, sink));
        Ok(Session::new(child, stdin, rx, captured, None, timeout, cancel))
    }

    /// Starts the client `program` with `args`, then the server command
    /// `relay __relay SOCKET` as its last arguments (`relay` is the mcplings
    /// binary), and waits for the client to launch that server. From then
    /// on [`Session::send`] and [`Session::recv`] speak as the server.
    ///
    /// A client that exits without launching the server still gets a
    /// session: reading frames from it stops with [`Stop::Exited`], and its
    /// report can be read with [`Session::recv_output`].
    ///
    /// Errors: [`Stop::Timeout`] when the client neither launches the server
    /// nor exits in time.
    #[cfg(unix)]
    pub fn spawn_client(program: &Path, args: &[&str], relay: &Path, timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> Result<Session, Stop> {
        use std::os::unix::net::UnixListener;
        let dir = tempfile::Builder::new().prefix("mcplings-relay-").tempdir().map_err(|e| Stop::Io(e.to_string()))?;
        let socket = dir.path().join("server.sock");
        let listener = UnixListener::bind(&socket).map_err(|e| Stop::Io(format!("cannot listen on {}: {e}", socket.display())))?;
        listener.set_nonblocking(true).map_err(|e| Stop::Io(e.to_string()))?;
        let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        argv.extend([relay.display().to_string(), "__relay".to_string(), socket.display().to_string()]);
        let mut child = start(program, argv, Stdio::null())?;
        let captured = Arc::new(Mutex::new(Captured::default()));
        let output = child.stdout().take().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let (output_tx, output_rx) = channel();
        thread::spawn(move || read_lines(output, output_tx));
        if let Some(stderr) = child.stderr().take() {
            let sink = Arc::clone(&captured);
            thread::spawn(move || read_capped(stderr, sink));
        }
        let deadline = Instant::now() + timeout;
        let mut exited_at: Option<Instant> = None;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(Stop::Io(format!("cannot accept the server's connection: {e}"))),
            }
            if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                let _ = child.start_kill();
                return Err(Stop::Cancelled);
            }
            // A client that exits at once may still have launched the relay,
            // which connects a moment later; give it that moment. If it never
            // connects, the session has no server side: reading from it says
            // how the client ended, and its report is still there to read.
            if exited_at.is_none() && matches!(child.try_wait(), Ok(Some(_))) {
                exited_at = Some(Instant::now());
            }
            if exited_at.is_some_and(|at| at.elapsed() > Duration::from_millis(200)) {
                let (_, rx) = channel();
                let mut session = Session::new(child, None, rx, captured, Some(dir), timeout, cancel);
                session.output = Some(output_rx);
                return Ok(session);
            }
            if Instant::now() >= deadline {
                let _ = child.start_kill();
                let _ = child.wait();
                return Err(Stop::Timeout(timeout));
            }
            thread::sleep(Duration::from_millis(2));
        };
        stream.set_nonblocking(false).map_err(|e| Stop::Io(e.to_string()))?;
        let reader = stream.try_clone().map_err(|e| Stop::Io(e.to_string()))?;
        let (tx, rx) = channel();
        thread::spawn(move || read_lines(reader, tx));
        let writer: Box<dyn Write + Send> = Box::new(stream);
        let mut session = Session::new(child, Some(writer), rx, captured, Some(dir), timeout, cancel);
        session.output = Some(output_rx);
        Ok(session)
    }

    /// Client exercises need Unix sockets.
    #[cfg(not(unix))]
    pub fn spawn_client(_program: &Path, _args: &[&str], _relay: &Path, _timeout: Duration, _cancel: Option<Arc<AtomicBool>>) -> Result<Session, Stop> {
        Err(Stop::Io("client exercises need Unix sockets (Linux or macOS)".into()))
    }

    /// Starts the HTTP server `program` with `args` and `--port N`, where N
    /// is a loopback port that was free a moment ago. Its stdout and stderr
    /// are both captured as its log; [`Session::port`] gives N.
    pub fn spawn_http(program: &Path, args: &[&str], timeout: Duration, cancel: Option<Arc<AtomicBool>>) -> Result<Session, Stop> {
        let port = std::net::TcpListener::bind(("127.0.0.1", 0)).and_then(|l| l.local_addr()).map_err(|e| Stop::Io(format!("no free port on 127.0.0.1: {e}")))?.port();
        let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        argv.extend(["--port".to_string(), port.to_string()]);
        let mut child = start(program, argv, Stdio::null())?;
        let captured = Arc::new(Mutex::new(Captured::default()));
        for stream in [child.stdout().take().map(|s| Box::new(s) as Box<dyn Read + Send>), child.stderr().take().map(|s| Box::new(s) as Box<dyn Read + Send>)].into_iter().flatten() {
            let sink = Arc::clone(&captured);
            thread::spawn(move || read_capped(stream, sink));
        }
        // No stdout lines: the conversation is HTTP.
        let (_tx, rx) = channel();
        let mut session = Session::new(child, None, rx, captured, None, timeout, cancel);
        session.port = Some(port);
        Ok(session)
    }

    /// The loopback port of an HTTP server session.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// Whether the check was cancelled.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// When the conversation must be over.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Records a line the checker exchanged with the program some other way
    /// than stdin and stdout (an HTTP request or response).
    pub fn note(&mut self, direction: Direction, line: &str, kind: EntryKind) {
        let value = serde_json::from_str::<Value>(line).ok();
        self.record(direction, line, value.as_ref(), kind);
    }

    fn new(
        child: Box<dyn ChildWrapper>,
        stdin: Option<Box<dyn Write + Send>>,
        stdout: Receiver<Out>,
        stderr: Arc<Mutex<Captured>>,
        socket_dir: Option<tempfile::TempDir>,
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Session {
        let started = Instant::now();
        Session {
            child,
            stdin,
            _socket_dir: socket_dir,
            stdout,
            output: None,
            stderr,
            transcript: Vec::new(),
            started,
            deadline: started + timeout,
            timeout,
            stdout_lines: 0,
            cancel,
            exited: None,
            port: None,
        }
    }

    fn record(&mut self, direction: Direction, line: &str, value: Option<&Value>, kind: EntryKind) {
        self.transcript.push(TranscriptEntry {
            dir: direction,
            line: line.to_string(),
            id: value.and_then(frame_id),
            time_ms: self.started.elapsed().as_millis() as u64,
            kind,
        });
    }

    /// Writes one line (a newline is added) to the program's stdin.
    pub fn send(&mut self, line: &str) -> Result<(), Stop> {
        let value = serde_json::from_str::<Value>(line).ok();
        let kind = entry_kind(value.as_ref());
        self.record(Direction::ToLearner, line, value.as_ref(), kind);
        let stdin = self.stdin.as_mut().ok_or_else(|| Stop::Io("stdin is already closed".into()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match stdin.write_all(&bytes).and_then(|_| stdin.flush()) {
            Ok(()) => Ok(()),
            // A closed pipe means the program is gone: report how it ended.
            Err(_) => Err(self.exit_stop()),
        }
    }

    /// Writes a JSON value as one compact line.
    pub fn send_json(&mut self, value: &Value) -> Result<(), Stop> {
        self.send(&value.to_string())
    }

    /// Closes the program's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads the next stdout line and parses it as JSON.
    ///
    /// Errors: [`Stop::NotJson`] for a line that is not JSON, and the other
    /// [`Stop`] variants for timeouts, exits, floods and cancels.
    pub fn recv(&mut self) -> Result<Received, Stop> {
        let (line, truncated) = self.next_line(self.deadline)?;
        match serde_json::from_str::<Value>(&line) {
            Ok(value) if !truncated => {
                self.record(Direction::FromLearner, &line, Some(&value), entry_kind(Some(&value)));
                Ok(Received { value, line })
            }
            _ => {
                self.record(Direction::FromLearner, &line, None, EntryKind::Junk);
                Err(Stop::NotJson { number: self.stdout_lines, line: shorten(&line, 60) })
            }
        }
    }

    /// Waits `window` for more output. `Ok(None)` when nothing arrived (the
    /// program is quietly waiting, as it should when it has nothing to say),
    /// `Ok(Some(_))` with the line it wrote instead.
    pub fn recv_within(&mut self, window: Duration) -> Result<Option<Received>, Stop> {
        let until = (Instant::now() + window).min(self.deadline);
        match self.next_line(until) {
            Ok((line, _)) => {
                let value = serde_json::from_str::<Value>(&line).ok();
                self.record(Direction::FromLearner, &line, value.as_ref(), entry_kind(value.as_ref()));
                match value {
                    Some(value) => Ok(Some(Received { value, line })),
                    None => Err(Stop::NotJson { number: self.stdout_lines, line: shorten(&line, 60) }),
                }
            }
            Err(Stop::Timeout(_)) if Instant::now() < self.deadline => Ok(None),
            Err(Stop::Exited(_)) => Ok(None),
            Err(stop) => Err(stop),
        }
    }

    /// Reads the next JSON line a client printed on its own stdout (its
    /// report), waiting up to `window`. Lines that are not JSON are
    /// recorded and skipped: a client's stdout is not a protocol channel.
    /// `Ok(None)` when nothing arrived in time or the client closed its
    /// stdout; always `Ok(None)` for a program that is not a client.
    pub fn recv_output(&mut self, window: Duration) -> Result<Option<Received>, Stop> {
        let until = (Instant::now() + window).min(self.deadline);
        loop {
            if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
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
                            self.record(Direction::FromLearner, &line, Some(&value), EntryKind::Harness);
                            return Ok(Some(Received { value, line }));
                        }
                        None => self.record(Direction::FromLearner, &line, None, EntryKind::Junk),
                    }
                }
                Ok(Out::Flood) => return Err(Stop::Flood),
                Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.output = None;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn next_line(&mut self, until: Instant) -> Result<(String, bool), Stop> {
        loop {
            if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
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
                    let mut line = String::from_utf8_lossy(&bytes).into_owned();
                    if line.ends_with('\r') {
                        line.pop();
                    }
                    return Ok((line, truncated));
                }
                Ok(Out::Flood) => return Err(Stop::Flood),
                Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(self.exit_stop()),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn exit_stop(&mut self) -> Stop {
        // stdout closed: give the process a moment to exit so we can say how.
        self.wait_exit(Duration::from_millis(300));
        Stop::Exited(self.exited)
    }

    /// Waits up to `within` for the program to exit, noting its status.
    fn wait_exit(&mut self, within: Duration) {
        let until = Instant::now() + within;
        while self.exited.is_none() && Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => self.exited = Some(status),
                Ok(None) => thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
    }

    /// Waits up to `within` for the program to exit; its status if it did.
    pub fn exited_within(&mut self, within: Duration) -> Option<ExitStatus> {
        self.wait_exit(within);
        self.exited
    }

    /// Bytes the program has written to stderr so far.
    pub fn stderr_len(&self) -> usize {
        self.stderr.lock().map(|c| c.bytes.len() + c.dropped).unwrap_or(0)
    }

    /// Waits up to `within` for stderr to grow past `len` bytes; true when
    /// it did. (Only *that* something was logged is judged, never what.)
    pub fn stderr_grew(&self, len: usize, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            if self.stderr_len() > len {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The transcript so far.
    pub fn transcript(&self) -> &[TranscriptEntry] {
        &self.transcript
    }

    /// Ends the run: closes stdin, gives the program a moment to exit on
    /// its own, then kills its whole process group.
    pub fn finish(mut self) -> Finished {
        self.stdin = None;
        self.wait_exit(Duration::from_millis(100));
        // Kill the group even after a clean exit: grandchildren may linger.
        let _ = self.child.start_kill();
        let _ = self.child.wait();
        // Let the stderr reader drain what the program wrote before it died.
        thread::sleep(Duration::from_millis(2));
        let captured = self.stderr.lock().map(|c| (String::from_utf8_lossy(&c.bytes).into_owned(), c.dropped)).unwrap_or_default();
        Finished { transcript: self.transcript, stderr: captured.0, stderr_dropped: captured.1 }
    }
}

/// Starts `program` in a process group of its own (so the whole tree can be
/// killed), stdout and stderr piped.
fn start(program: &Path, args: Vec<String>, stdin: Stdio) -> Result<Box<dyn ChildWrapper>, Stop> {
    let mut command = CommandWrap::with_new(program, |c| {
        c.args(&args).stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped());
        c.env("RUST_BACKTRACE", "0");
    });
    command.wrap(ProcessGroup::leader());
    command.spawn().map_err(|e| Stop::Io(format!("cannot start {}: {e}", program.display())))
}

fn entry_kind(value: Option<&Value>) -> EntryKind {
    match value {
        None => EntryKind::Junk,
        Some(v) if v.get("harness").is_some() => EntryKind::Harness,
        Some(_) => EntryKind::Frame,
    }
}

/// Shortens `s` to about `max` characters, marking the cut with `…`.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn read_lines(mut stdout: impl Read, tx: std::sync::mpsc::Sender<Out>) {
    let mut buf = vec![0u8; 64 << 10];
    let mut line = Vec::new();
    let mut truncated = false;
    let mut total = 0usize;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total += n;
        if total > MAX_STDOUT {
            let _ = tx.send(Out::Flood);
            return;
        }
        for &byte in &buf[..n] {
            if byte == b'\n' {
                let bytes = std::mem::take(&mut line);
                if tx.send(Out::Line { bytes, truncated }).is_err() {
                    return;
                }
                truncated = false;
            } else if line.len() < MAX_LINE {
                line.push(byte);
            } else {
                truncated = true;
            }
        }
    }
    if !line.is_empty() {
        let _ = tx.send(Out::Line { bytes: line, truncated });
    }
    let _ = tx.send(Out::Eof);
}

fn read_capped(mut stderr: impl Read, sink: Arc<Mutex<Captured>>) {
    let mut buf = [0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let Ok(mut c) = sink.lock() else { return };
        let room = MAX_STDERR.saturating_sub(c.bytes.len());
        let keep = n.min(room);
        c.bytes.extend_from_slice(&buf[..keep]);
        c.dropped += n - keep;
    }
}
