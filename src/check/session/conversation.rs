//! The conversation API: [`Session`], one run of a learner's program that a
//! case talks to, and what is left of it once over ([`Finished`]). Starting
//! a server or harness ([`Session::spawn`]) and an HTTP server
//! ([`Session::spawn_http`]) are here, writing to the program and the
//! session's lifetime too; reading its lines is in `reading.rs`, starting a
//! client in `relay.rs`.

use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::finished::Finished;
use super::pipes::{Capture, Limits, Lines, Writer, Written, read_lines};
use super::process::Process;
use super::slack;
use super::stop::Stop;
use super::transcript::{Transcript, entry_kind};
use crate::check::report::{Direction, EntryKind, TranscriptEntry};

/// One JSON line read from the program.
#[derive(Debug, Clone)]
pub struct Received {
    /// The parsed value.
    pub value: Value,
    /// The raw line, without its line ending.
    pub line: String,
}

/// A running learner program and everything said to and by it. A session
/// owns its process, its pipes' threads and its deadline; two sessions
/// share nothing but, perhaps, the cancel flag they both watch.
pub struct Session {
    pub(super) process: Process,
    /// Where frames to the program go: its stdin, or the relay's socket.
    pub(super) stdin: Option<Writer>,
    /// Keeps the relay's socket directory alive for a client session.
    pub(super) _socket_dir: Option<tempfile::TempDir>,
    /// The frames the program sends: its stdout, or the relay's socket.
    pub(super) stdout: Lines,
    /// A client's own stdout (its report), apart from the frames it sends.
    pub(super) output: Option<Lines>,
    pub(super) stderr: Capture,
    pub(super) transcript: Transcript,
    pub(super) deadline: Instant,
    pub(super) timeout: Duration,
    /// Lines read from [`Session::stdout`] so far.
    pub(super) stdout_lines: usize,
    pub(super) cancel: Option<Arc<AtomicBool>>,
    /// When the session saw the program exit, or last got a line after.
    pub(super) quiet_since: Option<Instant>,
    /// The loopback port an HTTP server was told to listen on.
    pub(super) port: Option<u16>,
    /// The listener bound for `{peer}` ([`Session::spawn_http`]), until the
    /// case takes it.
    pub(super) peer: Option<std::net::TcpListener>,
    /// How much upper time bounds stretch in this session ([`slack::scale`]).
    pub(super) scale: f64,
    /// Whether reading goes past stdout lines that are not JSON
    /// ([`Session::skip_junk`]).
    pub(super) skip_junk: bool,
    /// Stdout lines that were no JSON (or not UTF-8), over the whole
    /// session: [`Session::split`] does not reset it.
    pub(super) junk_lines: usize,
    /// Bytes of stderr text handed out by [`Session::split`] so far.
    pub(super) stderr_split: usize,
}

/// Starts a learner's `program` with `args` in a process group of its own,
/// stdout and stderr piped.
pub(super) fn start(program: &Path, args: &[String], stdin: Stdio) -> Result<Process, Stop> {
    Process::start(program, |command| {
        command
            .args(args)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_BACKTRACE", "0");
    })
    .map_err(|e| Stop::Io(format!("cannot start {}: {e}", program.display())))
}

/// The loopback ports [`fresh_listener`] handed out lately: to a peer
/// listener, or to a program when [`program_port`] found its own range
/// busy. Cases run side by side, and the system may give a port that one
/// case has just let go of to the next `bind(0)` of another.
static RECENT_PORTS: std::sync::Mutex<std::collections::VecDeque<u16>> =
    std::sync::Mutex::new(std::collections::VecDeque::new());

/// How many handed-out ports [`fresh_listener`] steers clear of.
const RECENT_KEPT: usize = 512;

/// Where the port a program binds itself comes from: below the ports the
/// system hands out on its own (`bind(0)` and outgoing connections take
/// them from 32768–60999 on Linux, 49152–65535 on macOS). The port is free
/// when the case picks it and is bound by the program a moment later; from
/// the ephemeral range, another process's `bind(0)` or outgoing connection
/// could take it in between, and a right program then failed its case
/// ("connection refused" or "reset", seen when checks ran side by side).
const PROGRAM_PORTS: std::ops::Range<u16> = 20000..32000;

/// Counts the ports [`program_port`] has tried, so each try is a new port.
static PROGRAM_PORT_TRIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A free loopback port for a program to bind: the next one of
/// [`PROGRAM_PORTS`] that binds, walked from a place that depends on the
/// process id (so two mcplings processes walk apart), every port once
/// before any again; if none of 64 binds (a busy range), one the system
/// picks ([`fresh_listener`]).
fn program_port() -> std::io::Result<u16> {
    let span = PROGRAM_PORTS.len();
    let start = (std::process::id() as usize).wrapping_mul(7919) % span;
    for _ in 0..64 {
        let n = PROGRAM_PORT_TRIES.fetch_add(1, Ordering::Relaxed);
        let port = PROGRAM_PORTS.start + ((start + n) % span) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return Ok(port);
        }
    }
    fresh_listener()?.local_addr().map(|a| a.port())
}

/// A listener on a loopback port this process has not handed out lately
/// ([`RECENT_PORTS`]); its port is recorded as handed out.
fn fresh_listener() -> std::io::Result<std::net::TcpListener> {
    let mut refused = Vec::new();
    loop {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        let port = listener.local_addr()?.port();
        let mut recent = RECENT_PORTS.lock().unwrap_or_else(|e| e.into_inner());
        if !recent.contains(&port) || refused.len() >= 16 {
            recent.push_back(port);
            if recent.len() > RECENT_KEPT {
                recent.pop_front();
            }
            return Ok(listener);
        }
        // Held until a fresh port comes, so the system cannot give it again.
        refused.push(listener);
    }
}

/// `args` as owned strings.
pub(super) fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
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
        let mut process = start(program, &owned(args), Stdio::piped())?;
        let stdin = process
            .take_stdin()
            .map(|s| Box::new(s) as Box<dyn std::io::Write + Send>);
        let stdout = process.take_stdout().ok_or_else(|| Stop::Io("no stdout pipe".into()))?;
        let stderr = process.take_stderr().ok_or_else(|| Stop::Io("no stderr pipe".into()))?;
        let captured = Capture::stderr();
        captured.read(stderr);
        let lines = read_lines(stdout, Limits::PROGRAM);
        Ok(Session::new(process, stdin, lines, captured, timeout, cancel))
    }

    /// Starts the HTTP server `program` with `args` and `--port N`, where N
    /// is a loopback port that was free a moment ago and that this process
    /// has not handed out lately ([`RECENT_PORTS`]). Its stdout and stderr
    /// are both captured as its log; [`Session::port`] gives N.
    ///
    /// In `args`, `{port}` stands for N, and `{peer}` for the port of a
    /// loopback listener bound before the program starts, for a service the
    /// case plays beside it (an authorization server): the case takes it
    /// with [`Session::take_peer`], and a connection the program opens
    /// before the case serves it waits in the listener's backlog.
    pub fn spawn_http(
        program: &Path,
        args: &[&str],
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Session, Stop> {
        let no_port = |e: std::io::Error| Stop::Io(format!("no free port on 127.0.0.1: {e}"));
        let port = program_port().map_err(no_port)?;
        let peer = match args.iter().any(|a| a.contains("{peer}")) {
            true => Some(fresh_listener().map_err(no_port)?),
            false => None,
        };
        let peer_port = peer.as_ref().and_then(|l| l.local_addr().ok()).map_or(0, |a| a.port());
        let mut argv: Vec<String> = args
            .iter()
            .map(|a| {
                a.replace("{port}", &port.to_string())
                    .replace("{peer}", &peer_port.to_string())
            })
            .collect();
        argv.extend(["--port".to_string(), port.to_string()]);
        let mut process = start(program, &argv, Stdio::null())?;
        let captured = Capture::stderr();
        if let Some(stdout) = process.take_stdout() {
            captured.read(stdout);
        }
        if let Some(stderr) = process.take_stderr() {
            captured.read(stderr);
        }
        // No stdout lines: the conversation is HTTP.
        let mut session = Session::new(process, None, Lines::ended(), captured, timeout, cancel);
        session.port = Some(port);
        session.peer = peer;
        Ok(session)
    }

    /// A session over a started `process`: frames go to `stdin` and come
    /// from `stdout`; the deadline is `timeout` from now, stretched by the
    /// machine's load ([`slack::scale`]).
    pub(super) fn new(
        process: Process,
        stdin: Option<Box<dyn std::io::Write + Send>>,
        stdout: Lines,
        stderr: Capture,
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Session {
        let started = Instant::now();
        let scale = slack::scale();
        Session {
            process,
            stdin: stdin.map(Writer::spawn),
            _socket_dir: None,
            stdout,
            output: None,
            stderr,
            transcript: Transcript::new(started),
            deadline: started + slack::stretch(timeout, scale),
            timeout,
            stdout_lines: 0,
            cancel,
            quiet_since: None,
            port: None,
            peer: None,
            scale,
            skip_junk: false,
            junk_lines: 0,
            stderr_split: 0,
        }
    }

    /// From now on, reads go past stdout lines that are not JSON or not
    /// UTF-8 (each still recorded in the transcript, as junk), as a lenient
    /// host does: for doctor's checks, so that a banner is judged once, by
    /// the check of stdout, and hides nothing else.
    pub fn skip_junk(&mut self) {
        self.skip_junk = true;
    }

    /// How many stdout lines of the program were no JSON text or not
    /// UTF-8 (junk) since it started, across [`Session::split`]s: what a
    /// check of stdout on a shared process looks at.
    pub fn junk_lines(&self) -> usize {
        self.junk_lines
    }

    /// `bound`, a time by which something must happen (a reply expected
    /// within a window, a cancel due by then), stretched by the machine's
    /// load. The session's own deadline is stretched already; silence
    /// windows, paces and lower bounds (the program acted too early) never
    /// are. See `slack.rs`.
    pub fn slack(&self, bound: Duration) -> Duration {
        slack::stretch(bound, self.scale)
    }

    /// The session's timeout as the checker set it, before any stretch:
    /// what a stop at the deadline names ([`Stop::Timeout`]).
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sets the session's scale (the one its program's time arguments were
    /// stretched by, [`slack::scale_args`]) and stretches the deadline by it.
    pub fn set_scale(&mut self, scale: f64) {
        let started = self.deadline - slack::stretch(self.timeout, self.scale);
        self.scale = scale;
        self.deadline = started + slack::stretch(self.timeout, scale);
    }

    /// The loopback port of an HTTP server session.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The listener bound for `{peer}` in the program's arguments
    /// ([`Session::spawn_http`]), once: the case that plays that service
    /// serves it.
    pub fn take_peer(&mut self) -> Option<std::net::TcpListener> {
        self.peer.take()
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
        self.transcript.record(direction, line, value.as_ref(), kind);
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
        self.transcript
            .record(Direction::ToLearner, line, value, entry_kind(value));
        let stdin = self
            .stdin
            .as_ref()
            .ok_or_else(|| Stop::Io("stdin is already closed".into()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if !stdin.send(bytes) {
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
            match stdin.written_within((self.deadline - now).min(Duration::from_millis(50))) {
                Written::Taken => return Ok(()),
                Written::Waiting => {}
                // A closed pipe means the program is gone: report how it ended.
                Written::Broken => return Err(self.exit_stop()),
            }
        }
    }

    /// Closes the program's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// stdout closed or stdin broke: gives the process a moment to exit so
    /// the stop can say how.
    pub(super) fn exit_stop(&mut self) -> Stop {
        Stop::Exited(self.process.wait_within(Duration::from_millis(300)))
    }

    /// Waits up to `within` (stretched by load) for the program to exit;
    /// its status if it did.
    pub fn exited_within(&mut self, within: Duration) -> Option<ExitStatus> {
        self.process.wait_within(self.slack(within))
    }

    /// Bytes the program has written to stderr so far.
    pub fn stderr_len(&self) -> usize {
        self.stderr.total()
    }

    /// Waits up to `within` (stretched by load) for stderr to grow past
    /// `len` bytes; true when it did. (Only *that* something was logged is
    /// judged, never what.)
    pub fn stderr_grew(&self, len: usize, within: Duration) -> bool {
        let until = Instant::now() + self.slack(within);
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
        self.transcript.entries()
    }

    /// Ends one part of a long conversation and starts the next (one check
    /// of several run on one process: doctor's shared process). Returns the
    /// part's lines, timed from its start, and what the program wrote on
    /// stderr during it (all of it, once the capture dropped a middle); the
    /// next part gets a fresh transcript and a fresh deadline, the
    /// session's timeout from now.
    pub fn split(&mut self) -> Finished {
        let now = Instant::now();
        let transcript = std::mem::replace(&mut self.transcript, Transcript::new(now)).finish();
        self.deadline = now + slack::stretch(self.timeout, self.scale);
        let (text, stderr_dropped) = self.stderr.stderr_text();
        let stderr = match text.get(self.stderr_split..) {
            Some(part) if stderr_dropped == 0 => part.to_string(),
            _ => text.clone(),
        };
        self.stderr_split = text.len();
        Finished {
            transcript,
            stderr,
            stderr_dropped,
            scale: self.scale,
        }
    }

    /// Ends the run: closes stdin, gives the program a moment to exit on
    /// its own, then kills its whole process group.
    pub fn finish(mut self) -> Finished {
        self.stdin = None;
        self.process.wait_within(Duration::from_millis(100));
        // Kill the group even after a clean exit: grandchildren may linger.
        self.process.kill();
        // Let the stderr reader drain what the program wrote before it
        // died (a panic message, say): it ends when the last writer is
        // gone, which the group kill above ensures, give or take a moment.
        self.stderr.wait_ended(Duration::from_millis(250));
        let (stderr, stderr_dropped) = self.stderr.stderr_text();
        Finished {
            transcript: self.transcript.finish(),
            stderr,
            stderr_dropped,
            scale: self.scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_ports_are_below_the_systems_own_and_never_repeat() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..40 {
            let port = program_port().unwrap();
            assert!(PROGRAM_PORTS.contains(&port), "port {port}");
            assert!(seen.insert(port), "port {port} handed out twice");
        }
    }

    #[test]
    fn a_fresh_listener_never_repeats_a_port_handed_out_lately() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..40 {
            // Dropped at once, as the port a program binds itself is.
            let port = fresh_listener().unwrap().local_addr().unwrap().port();
            assert!(seen.insert(port), "port {port} handed out twice");
        }
    }
}
