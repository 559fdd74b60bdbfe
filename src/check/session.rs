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
//! [`MAX_STDOUT`], stderr at [`MAX_STDERR`] (its first and last halves, the
//! middle replaced by a note). At most [`QUEUED_LINES`] stdout lines wait
//! unread, so a program that floods short lines blocks on its own pipe
//! instead of filling our memory. Writes to the program give up at the
//! case's deadline, so one that stops reading its stdin cannot block the
//! check; a program that exits while a process it started still holds its
//! stdout open is seen to have exited, not to hang.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, channel, sync_channel};
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
/// Most stderr kept per run, in bytes: the first half and the last half
/// (where a panic message is); the middle is dropped with a note.
pub const MAX_STDERR: usize = 64 << 10;
/// Most stdout lines read ahead of the checker; past it the reader waits.
pub const QUEUED_LINES: usize = 256;
/// Lines from the program kept in a transcript before only the latest
/// [`TRANSCRIPT_TAIL`] are: a program printing in a loop must not fill the
/// workbook's memory (the checker's own lines are always kept).
pub const MAX_TRANSCRIPT: usize = 400;
/// Latest lines from the program kept past [`MAX_TRANSCRIPT`].
pub const TRANSCRIPT_TAIL: usize = 50;
/// Longest junk line (not JSON) kept in the transcript, in characters.
const MAX_JUNK_SHOWN: usize = 2000;
/// How long a program that exited may leave its stdout open (held by a
/// process it started) before the session takes it as ended.
const EXIT_GRACE: Duration = Duration::from_millis(500);

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
    /// A stdout line that is not UTF-8; `number` counts from 1.
    NotUtf8 {
        /// 1-based stdout line number.
        number: usize,
        /// The line (lossy UTF-8, shortened).
        line: String,
        /// Offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// A JSON stdout line that ended in `\r\n`; `number` counts from 1.
    Crlf {
        /// 1-based stdout line number.
        number: usize,
    },
    /// The program wrote more than [`MAX_STDOUT`] bytes; `newline` says
    /// whether any of it ended a line.
    Flood {
        /// Whether the flood held a newline at all.
        newline: bool,
    },
    /// A write to the program was still blocked at the deadline: it stopped
    /// reading its stdin and the pipe filled up.
    NotReading(Duration),
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
                Some(0) => {
                    "the program exited before answering: it must keep reading stdin until it closes".to_string()
                }
                Some(code) => format!("the program exited with code {code} before answering; see its stderr"),
                None if status.is_some() => "the program was killed by a signal before answering".to_string(),
                None => "the program closed stdout before answering".to_string(),
            },
            Stop::NotJson { number, line } => not_json_reason(*number, line),
            Stop::NotUtf8 { number, line, at } => format!(
                "stdout line {number} is not UTF-8 (from byte {at}; shown as �): `{line}`. A JSON-RPC message over stdio is UTF-8 text (2025-11-25 basic/transports › stdio): write it with serde_json, never raw bytes"
            ),
            Stop::Crlf { number } => format!(
                "stdout line {number} ends in \\r\\n (CRLF): end each message with \\n alone. A JSON-RPC message over stdio is one line delimited by a newline (2025-11-25 basic/transports › stdio); a peer that splits on \\n is left with a stray \\r (go-sdk#664)"
            ),
            Stop::Flood { newline: false } => format!(
                "the program printed more than {} MiB to stdout without a newline and was stopped: a JSON-RPC message over stdio is one line ending in \\n (2025-11-25 basic/transports › stdio). Is something printing in a loop?",
                MAX_STDOUT >> 20
            ),
            Stop::Flood { newline: true } => format!(
                "the program printed more than {} MiB to stdout and was stopped: is something printing in a loop?",
                MAX_STDOUT >> 20
            ),
            Stop::NotReading(after) => format!(
                "the program stopped reading its stdin: a message to it was still not delivered after {:.1} s (the pipe was full), so it was stopped. A stdio peer reads stdin line by line for as long as it runs",
                after.as_secs_f64()
            ),
            Stop::Cancelled => "the check was cancelled".to_string(),
            Stop::Io(e) => format!("could not talk to the program: {e}"),
        }
    }
}

/// The reason for a stdout line that is not JSON, naming the usual causes:
/// pretty-printing, LSP-style headers, a blank line, a banner or debug print.
fn not_json_reason(number: usize, line: &str) -> String {
    const ONE_LINE: &str = "A JSON-RPC message over stdio is one line and MUST NOT contain embedded newlines (2025-11-25 basic/transports › stdio)";
    let trimmed = line.trim();
    if trimmed.is_empty() {
        format!(
            "stdout line {number} is empty: a message was followed by an extra newline (println! of text that already ends in \\n?). {ONE_LINE}"
        )
    } else if trimmed.to_ascii_lowercase().starts_with("content-length:") {
        format!(
            "stdout line {number} is `{line}`, an LSP-style header: MCP over stdio has no headers. {ONE_LINE}, ending in \\n"
        )
    } else if matches!(trimmed, "{" | "[" | "}" | "]" | "}," | "],")
        || line.starts_with([' ', '\t']) && trimmed.starts_with(['"', '{', '[', '}', ']'])
    {
        format!(
            "stdout line {number} is `{line}`, part of a message spread over several lines (pretty-printed?). {ONE_LINE}: write it with serde_json::to_string, not to_string_pretty"
        )
    } else {
        format!(
            "stdout line {number} is not JSON: `{line}`. stdout carries only JSON-RPC messages, one per line (2025-11-25 basic/transports › stdio): print banners and debug output to stderr (eprintln!)"
        )
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
    Line {
        bytes: Vec<u8>,
        truncated: bool,
    },
    /// Past [`MAX_STDOUT`]: the start of the line being read, and whether
    /// any newline came at all.
    Flood {
        start: Vec<u8>,
        newline: bool,
    },
    Eof,
}

/// Where frames to the program go: a thread that writes them, so a
/// program that stops reading blocks that thread, not the check.
struct Writer {
    lines: std::sync::mpsc::Sender<Vec<u8>>,
    written: Receiver<std::io::Result<()>>,
}

impl Writer {
    fn new(mut to: Box<dyn Write + Send>) -> Writer {
        let (lines, rx) = channel::<Vec<u8>>();
        let (done, written) = channel();
        thread::spawn(move || {
            for bytes in rx {
                let result = to.write_all(&bytes).and_then(|_| to.flush());
                let failed = result.is_err();
                if done.send(result).is_err() || failed {
                    return;
                }
            }
            // The session closed stdin: dropping `to` is the end of input.
        });
        Writer { lines, written }
    }
}

/// A running learner program and everything said to and by it.
pub struct Session {
    child: Box<dyn ChildWrapper>,
    /// Where frames to the program go: its stdin, or the relay's socket.
    stdin: Option<Writer>,
    /// Keeps the relay's socket directory alive for a client session.
    _socket_dir: Option<tempfile::TempDir>,
    stdout: Receiver<Out>,
    /// A client's own stdout (its report), apart from the frames it sends.
    output: Option<Receiver<Out>>,
    stderr: Arc<Mutex<Captured>>,
    transcript: Vec<TranscriptEntry>,
    /// The latest lines from the program past [`MAX_TRANSCRIPT`], and how
    /// many before them were dropped.
    tail: std::collections::VecDeque<TranscriptEntry>,
    dropped: usize,
    started: Instant,
    deadline: Instant,
    timeout: Duration,
    stdout_lines: usize,
    cancel: Option<Arc<AtomicBool>>,
    exited: Option<ExitStatus>,
    /// When the session saw the program exit, or last got a line after.
    quiet_since: Option<Instant>,
    /// The loopback port an HTTP server was told to listen on.
    port: Option<u16>,
}

/// Captured stderr: the first half of [`MAX_STDERR`] and a running last
/// half; `total` counts every byte written.
#[derive(Default)]
struct Captured {
    head: Vec<u8>,
    tail: Vec<u8>,
    total: usize,
    /// Set when the reader met the end of stderr (every writer is gone).
    ended: bool,
}

impl Captured {
    const HALF: usize = MAX_STDERR / 2;

    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len();
        let room = Self::HALF.saturating_sub(self.head.len());
        let (head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(head);
        self.tail.extend_from_slice(rest);
        if self.tail.len() > 2 * Self::HALF {
            self.tail.drain(..self.tail.len() - Self::HALF);
        }
    }

    /// The text kept (lossy UTF-8), with a note where the middle was cut,
    /// and how many bytes were dropped.
    fn text(&self) -> (String, usize) {
        let tail = &self.tail[self.tail.len().saturating_sub(Self::HALF)..];
        let dropped = self.total - self.head.len() - tail.len();
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if dropped > 0 {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!(
                "… {dropped} bytes of stderr not kept (only the first and last {} KiB are) …\n",
                Self::HALF >> 10
            ));
        }
        text.push_str(&String::from_utf8_lossy(tail));
        (text, dropped)
    }
}

/// What is left of a session once it is over.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Every line, both directions, in order.
    pub transcript: Vec<TranscriptEntry>,
    /// The program's stderr (lossy UTF-8): all of it, or its first and last
    /// halves of [`MAX_STDERR`] with a note in between saying how much of
    /// the middle was dropped.
    pub stderr: String,
    /// Bytes of stderr dropped from the middle (0 when none).
    pub stderr_dropped: usize,
}

impl Session {
    /// Starts `program` with `args` in its own process group, stdin and
    /// stdout piped to us, stderr captured apart. `timeout` bounds the whole
    /// conversation; `cancel`, when set, stops it early.
    pub fn spawn(
        program: &Path,
        args: &[&str],
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        let mut child = start(program, args.iter().map(|a| a.to_string()).collect(), Stdio::piped())?;
        let stdin = child.stdin().take().map(|s| Box::new(s) as Box<dyn Write + Send>);
        let stdout = child.stdout().take().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let stderr = child.stderr().take().ok_or_else(|| Stop::Io("no stderr pipe".into()))?;
        let (tx, rx) = sync_channel(QUEUED_LINES);
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
    pub fn spawn_client(
        program: &Path,
        args: &[&str],
        relay: &Path,
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        use std::os::unix::net::UnixListener;
        let dir = tempfile::Builder::new()
            .prefix("mcplings-relay-")
            .tempdir()
            .map_err(|e| Stop::Io(e.to_string()))?;
        let socket = dir.path().join("server.sock");
        let listener =
            UnixListener::bind(&socket).map_err(|e| Stop::Io(format!("cannot listen on {}: {e}", socket.display())))?;
        listener.set_nonblocking(true).map_err(|e| Stop::Io(e.to_string()))?;
        let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        argv.extend([
            relay.display().to_string(),
            "__relay".to_string(),
            socket.display().to_string(),
        ]);
        let mut child = start(program, argv, Stdio::null())?;
        let captured = Arc::new(Mutex::new(Captured::default()));
        let output = child.stdout().take().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let (output_tx, output_rx) = sync_channel(QUEUED_LINES);
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
                let (_, rx) = sync_channel(0);
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
        let (tx, rx) = sync_channel(QUEUED_LINES);
        thread::spawn(move || read_lines(reader, tx));
        let writer: Box<dyn Write + Send> = Box::new(stream);
        let mut session = Session::new(child, Some(writer), rx, captured, Some(dir), timeout, cancel);
        session.output = Some(output_rx);
        Ok(session)
    }

    /// Client exercises need Unix sockets.
    #[cfg(not(unix))]
    pub fn spawn_client(
        _program: &Path,
        _args: &[&str],
        _relay: &Path,
        _timeout: Duration,
        _cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        Err(Stop::Io("client exercises need Unix sockets (Linux or macOS)".into()))
    }

    /// Starts the HTTP server `program` with `args` and `--port N`, where N
    /// is a loopback port that was free a moment ago. Its stdout and stderr
    /// are both captured as its log; [`Session::port`] gives N.
    pub fn spawn_http(
        program: &Path,
        args: &[&str],
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .map_err(|e| Stop::Io(format!("no free port on 127.0.0.1: {e}")))?
            .port();
        let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        argv.extend(["--port".to_string(), port.to_string()]);
        let mut child = start(program, argv, Stdio::null())?;
        let captured = Arc::new(Mutex::new(Captured::default()));
        for stream in [
            child.stdout().take().map(|s| Box::new(s) as Box<dyn Read + Send>),
            child.stderr().take().map(|s| Box::new(s) as Box<dyn Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let sink = Arc::clone(&captured);
            thread::spawn(move || read_capped(stream, sink));
        }
        // No stdout lines: the conversation is HTTP.
        let (_tx, rx) = sync_channel(0);
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
            stdin: stdin.map(Writer::new),
            _socket_dir: socket_dir,
            stdout,
            output: None,
            stderr,
            transcript: Vec::new(),
            tail: std::collections::VecDeque::new(),
            dropped: 0,
            started,
            deadline: started + timeout,
            timeout,
            stdout_lines: 0,
            cancel,
            exited: None,
            quiet_since: None,
            port: None,
        }
    }

    fn record(&mut self, direction: Direction, line: &str, value: Option<&Value>, kind: EntryKind) {
        let entry = TranscriptEntry {
            dir: direction,
            line: line.to_string(),
            id: value.and_then(frame_id),
            time_ms: self.started.elapsed().as_millis() as u64,
            kind,
        };
        if direction == Direction::FromLearner && self.transcript.len() >= MAX_TRANSCRIPT {
            self.tail.push_back(entry);
            if self.tail.len() > TRANSCRIPT_TAIL {
                self.tail.pop_front();
                self.dropped += 1;
            }
            return;
        }
        self.transcript.push(entry);
    }

    /// Writes one line (a newline is added) to the program's stdin.
    pub fn send(&mut self, line: &str) -> Result<(), Stop> {
        let value = serde_json::from_str::<Value>(line).ok();
        self.send_line(line, value.as_ref())
    }

    /// Writes a JSON value as one compact line.
    pub fn send_json(&mut self, value: &Value) -> Result<(), Stop> {
        self.send_line(&value.to_string(), Some(value))
    }

    /// Records `line` (parsed: `value`) and writes it with a newline,
    /// waiting until the program has taken it, up to the deadline.
    fn send_line(&mut self, line: &str, value: Option<&Value>) -> Result<(), Stop> {
        self.record(Direction::ToLearner, line, value, entry_kind(value));
        let stdin = self
            .stdin
            .as_ref()
            .ok_or_else(|| Stop::Io("stdin is already closed".into()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if stdin.lines.send(bytes).is_err() {
            return Err(self.exit_stop());
        }
        loop {
            if self.cancelled() {
                return Err(Stop::Cancelled);
            }
            let now = Instant::now();
            if now >= self.deadline {
                return Err(Stop::NotReading(self.timeout));
            }
            let Some(stdin) = &self.stdin else {
                return Err(Stop::Io("stdin is already closed".into()));
            };
            match stdin
                .written
                .recv_timeout((self.deadline - now).min(Duration::from_millis(50)))
            {
                Ok(Ok(())) => return Ok(()),
                // A closed pipe means the program is gone: report how it ended.
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.exit_stop()),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Closes the program's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads the next stdout line and parses it as JSON.
    ///
    /// Errors: [`Stop::NotJson`], [`Stop::NotUtf8`] and [`Stop::Crlf`] for a
    /// line that is not one JSON text in UTF-8 ending in `\n` alone, and the
    /// other [`Stop`] variants for timeouts, exits, floods and cancels.
    pub fn recv(&mut self) -> Result<Received, Stop> {
        let (bytes, truncated) = self.next_line(self.deadline)?;
        self.take_line(bytes, truncated)
    }

    /// Waits `window` for more output. `Ok(None)` when nothing arrived (the
    /// program is quietly waiting, as it should when it has nothing to say),
    /// `Ok(Some(_))` with the line it wrote instead.
    pub fn recv_within(&mut self, window: Duration) -> Result<Option<Received>, Stop> {
        let until = (Instant::now() + window).min(self.deadline);
        match self.next_line(until) {
            Ok((bytes, truncated)) => self.take_line(bytes, truncated).map(Some),
            Err(Stop::Timeout(_)) if Instant::now() < self.deadline => Ok(None),
            Err(Stop::Exited(_)) => Ok(None),
            Err(stop) => Err(stop),
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
                self.record(Direction::FromLearner, &line, Some(&value), entry_kind(Some(&value)));
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
        self.record(Direction::FromLearner, &line, None, EntryKind::Junk);
    }

    /// Records the start of a flood of stdout, then the stop it is.
    fn flood(&mut self, start: &[u8], newline: bool) -> Stop {
        let start = String::from_utf8_lossy(start);
        let line = format!(
            "{}… (more than {} MiB of stdout; the rest is not kept)",
            shorten(start.trim_end_matches('\r'), 200).trim_end_matches('…'),
            MAX_STDOUT >> 20
        );
        self.record(Direction::FromLearner, &line, None, EntryKind::Junk);
        Stop::Flood { newline }
    }

    /// Reads the next JSON line a client printed on its own stdout (its
    /// report), waiting up to `window`. Lines that are not JSON are
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
                            self.record(Direction::FromLearner, &line, Some(&value), EntryKind::Harness);
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
                    if self.exited.is_none()
                        && let Ok(Some(status)) = self.child.try_wait()
                    {
                        self.exited = Some(status);
                        self.quiet_since = Some(Instant::now());
                    }
                    if self.quiet_since.is_some_and(|at| at.elapsed() >= EXIT_GRACE) {
                        return Err(Stop::Exited(self.exited));
                    }
                }
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
        self.stderr.lock().map(|c| c.total).unwrap_or(0)
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
        // Let the stderr reader drain what the program wrote before it
        // died (a panic message, say): it ends when the last writer is
        // gone, which the group kill above ensures, give or take a moment.
        let drained = Instant::now() + Duration::from_millis(250);
        while Instant::now() < drained && !self.stderr.lock().map_or(true, |c| c.ended) {
            thread::sleep(Duration::from_millis(1));
        }
        let captured = self.stderr.lock().map(|c| c.text()).unwrap_or_default();
        let mut transcript = self.transcript;
        if self.dropped > 0 {
            let line = format!(
                "… {} more lines from the program not kept (the first {MAX_TRANSCRIPT} and the last {TRANSCRIPT_TAIL} are) …",
                self.dropped
            );
            let time_ms = self.tail.front().map_or(0, |e| e.time_ms);
            transcript.push(TranscriptEntry {
                dir: Direction::FromLearner,
                line,
                id: None,
                time_ms,
                kind: EntryKind::Junk,
            });
        }
        transcript.extend(self.tail);
        Finished {
            transcript,
            stderr: captured.0,
            stderr_dropped: captured.1,
        }
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
    command
        .spawn()
        .map_err(|e| Stop::Io(format!("cannot start {}: {e}", program.display())))
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

fn read_lines(mut stdout: impl Read, tx: SyncSender<Out>) {
    let mut buf = vec![0u8; 64 << 10];
    let mut line = Vec::new();
    let mut truncated = false;
    let mut newline = false;
    let mut total = 0usize;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total += n;
        for &byte in &buf[..n] {
            if byte == b'\n' {
                newline = true;
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
        if total > MAX_STDOUT {
            line.truncate(1024);
            let _ = tx.send(Out::Flood { start: line, newline });
            return;
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
            Ok(0) | Err(_) => {
                if let Ok(mut c) = sink.lock() {
                    c.ended = true;
                }
                return;
            }
            Ok(n) => n,
        };
        let Ok(mut c) = sink.lock() else { return };
        c.push(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_its_start_and_its_end() {
        let mut c = Captured::default();
        c.push(b"starting\n");
        for _ in 0..10_000 {
            c.push(&[b'.'; 100]);
        }
        let panic = b"\nthread 'main' panicked at src/main.rs:3:5:\nboom\n";
        c.push(panic);
        let (text, dropped) = c.text();
        assert_eq!(c.total, 9 + 1_000_000 + panic.len());
        assert_eq!(dropped, c.total - MAX_STDERR);
        assert!(text.starts_with("starting\n"));
        assert!(text.ends_with("panicked at src/main.rs:3:5:\nboom\n"));
        assert!(text.contains(&format!(
            "… {dropped} bytes of stderr not kept (only the first and last 32 KiB are) …"
        )));
        let mut small = Captured::default();
        small.push(b"a log line\n");
        assert_eq!(small.text(), ("a log line\n".to_string(), 0));
    }

    #[test]
    fn reasons_name_the_framing_mistake() {
        assert!(not_json_reason(1, "{").contains("spread over several lines"));
        assert!(not_json_reason(2, "  \"jsonrpc\": \"2.0\",").contains("to_string_pretty"));
        assert!(not_json_reason(1, "Content-Length: 44").contains("LSP-style header"));
        assert!(not_json_reason(3, "").contains("is empty"));
        let banner = not_json_reason(1, "my-server v0.1 ready");
        assert!(
            banner.starts_with("stdout line 1 is not JSON: `my-server v0.1 ready`"),
            "{banner}"
        );
        assert!(banner.contains("eprintln!"));
    }
}
