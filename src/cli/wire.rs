//! `mcplings wire [--log FILE] -- CMD [ARGS…]`: a transparent stdio tap to
//! put between a real host and a server (a host's `mcpServers` entry:
//! `"command": "mcplings", "args": ["wire", "--log", "server.log", "--",
//! "python", "server.py"]`).
//!
//! Every read is forwarded at once, byte for byte, both ways: the host's
//! stdin to the server, the server's stdout to the host. The server's
//! stderr is the tap's own (passed through untouched). Each complete line
//! is logged (`log.rs`) with its time, direction, id, method and schema
//! verdict. SIGINT, SIGTERM and SIGHUP are forwarded to the server (which
//! runs in a process group of its own, so a terminal's Ctrl-C reaches it
//! once, through the tap); a server still running [`SIGNAL_GRACE`] after a
//! forwarded signal is killed (SIGKILL, its whole group). The tap exits
//! with the server's status, 128+n when it died of signal n. Whatever the
//! server left behind outside its group (a `setsid` grandchild, which the
//! tap adopts as a subreaper) is killed when the tap ends; a tap killed
//! with SIGKILL takes the server along (its parent-death signal).
//!
//! `mcplings wire --view FILE` opens a log in the transcript view
//! (`tui::log_view`), or prints it as text when not on a terminal.

mod log;

use std::fs::File;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

pub use log::{Entry, Log, Way};

use super::EXIT_ERROR;
use crate::check::session::{Process, children};
use crate::check::{Direction, EntryKind, TranscriptEntry};
use crate::tui::log_view::LogLine;

/// How long the tap waits, once the server has exited, for the rest of
/// its stdout (a process it started may hold it open).
const DRAIN: Duration = Duration::from_millis(500);

/// How long a server may take to exit after a forwarded signal before the
/// tap kills it.
pub const SIGNAL_GRACE: Duration = Duration::from_secs(3);

/// Copies `from` to `to` read by read, flushing each, and feeds the log;
/// ends at end of input or when `to` is closed.
fn pump(mut from: impl Read, mut to: impl Write, way: Way, log: &Mutex<Log>) {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Logged before it is passed on, so a request is always logged
        // before the response it brings about.
        log.lock().unwrap_or_else(|e| e.into_inner()).feed(way, &buffer[..n]);
        if to.write_all(&buffer[..n]).and_then(|_| to.flush()).is_err() {
            break;
        }
    }
    log.lock().unwrap_or_else(|e| e.into_inner()).end(way);
}

/// Runs the tap; the exit code is the server's.
pub fn run(command: &[String], log_path: Option<&Path>) -> Result<u8, String> {
    let Some((program, args)) = command.split_first() else {
        return Err(
            "wire needs a server command after `--`: mcplings wire --log server.log -- python server.py".into(),
        );
    };
    let file = match log_path {
        Some(path) => Some(File::create(path).map_err(|e| format!("cannot write the log {}: {e}", path.display()))?),
        None => None,
    };
    let log = Arc::new(Mutex::new(Log::new(file)));
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).map_err(|e| format!("cannot listen for signals: {e}"))?;
    let mut process = Process::start(program, |command| {
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
    })
    .map_err(|e| format!("cannot start {program}: {e}"))?;
    let (Some(server_in), Some(server_out)) = (process.take_stdin(), process.take_stdout()) else {
        return Err("the server's pipes could not be opened".into());
    };
    let up = Arc::clone(&log);
    // Not joined: it may be blocked reading the host's stdin when the
    // server exits; the tap's exit ends it.
    thread::spawn(move || pump(std::io::stdin().lock(), server_in, Way::ToServer, &up));
    let down = Arc::clone(&log);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        pump(server_out, std::io::stdout().lock(), Way::FromServer, &down);
        let _ = done_tx.send(());
    });
    // When the first forwarded signal went out.
    let mut signalled: Option<Instant> = None;
    let status = loop {
        for signal in signals.pending() {
            let _ = process.signal(signal);
            signalled.get_or_insert_with(Instant::now);
        }
        if let Some(status) = process.wait_within(Duration::from_millis(20)) {
            break status;
        }
        if signalled.is_some_and(|at| at.elapsed() >= SIGNAL_GRACE) {
            process.kill();
            if let Some(status) = process.exited() {
                break status;
            }
        }
    };
    let _ = done_rx.recv_timeout(DRAIN);
    process.kill();
    children::reap_orphans();
    Ok(exit_code(status))
}

/// The tap's exit code for the server's `status`: its code, or 128+n for
/// death by signal n.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => code as u8,
        (None, Some(signal)) => (128 + signal) as u8,
        (None, None) => EXIT_ERROR,
    }
}

/// `mcplings wire --view FILE`: on a terminal, the log in a scrollable
/// transcript view (`tui::log_view`); otherwise as plain text, `▶` for
/// lines to the server and `◀` for lines from it.
pub fn view(path: &PathBuf) -> Result<u8, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let entry: Entry = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: not a wire log line: {e}", path.display(), n + 1))?;
        entries.push(entry);
    }
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() {
        let lines: Vec<LogLine> = entries.iter().map(log_line).collect();
        crate::tui::log_view::run(&path.display().to_string(), &lines)?;
    } else {
        print!("{}", entries.iter().map(render_entry).collect::<String>());
    }
    Ok(0)
}

/// An entry as a line of the transcript view.
fn log_line(entry: &Entry) -> LogLine {
    let kind = if entry.schema.starts_with("not JSON") || entry.schema.starts_with("not UTF-8") {
        EntryKind::Junk
    } else {
        EntryKind::Frame
    };
    LogLine {
        entry: TranscriptEntry {
            dir: match entry.dir {
                Way::ToServer => Direction::ToLearner,
                Way::FromServer => Direction::FromLearner,
            },
            line: entry.line.clone(),
            id: entry.id.clone(),
            time_ms: entry.time_ms,
            kind,
        },
        note: about(entry),
    }
}

/// An entry's time, method, id and verdict, in one line.
fn about(entry: &Entry) -> String {
    let mut about = vec![format!("{:.3} s", entry.time_ms as f64 / 1000.0)];
    if let Some(method) = &entry.method {
        about.push(method.clone());
    }
    if let Some(id) = &entry.id {
        about.push(format!("id {id}"));
    }
    about.push(entry.schema.clone());
    if entry.partial {
        about.push("partial line: no newline before the stream ended".into());
    }
    about.join(" · ")
}

/// One entry as text: time, glyph, the line, then its method, id and
/// verdict.
pub fn render_entry(entry: &Entry) -> String {
    let glyph = match entry.dir {
        Way::ToServer => "▶",
        Way::FromServer => "◀",
    };
    let about = about(entry);
    let about = about.split_once(" · ").map_or("", |(_, rest)| rest);
    // The line as it went through, continued at a boundary near the end
    // of the line (only where it breaks changes).
    let lead = format!("{:>9.3} s {glyph} ", entry.time_ms as f64 / 1000.0);
    let line = super::report::evidence(&entry.line, &lead, crate::text::Show::Wire);
    format!("{line}            {about}\n")
}
