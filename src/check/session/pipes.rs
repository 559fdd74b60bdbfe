//! The pipes of a child process, each served by a thread of its own so a
//! child that floods, stops reading or never closes a pipe blocks that
//! thread and never the caller:
//!
//! - [`Writer`]: lines to the child, written on a thread; the caller waits
//!   for each to be taken, up to its own deadline.
//! - [`read_lines`]: the child's output as lines ([`Lines`]), each capped
//!   at [`Limits::line`] bytes, the whole stream at [`Limits::total`], at
//!   most [`Limits::queued`] lines read ahead (past that the child blocks on
//!   its own pipe instead of filling our memory).
//! - [`Capture`]: a stream kept as text, its first and last parts at most,
//!   with a count of what was dropped from the middle (stderr, a log).
//!
//! Nothing here is shared between two children: each owns its threads.

use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest stdout line kept, in bytes; the rest of the line is dropped.
pub const MAX_LINE: usize = 1 << 20;
/// Most stdout kept per run, in bytes; past it the run is stopped.
pub const MAX_STDOUT: usize = 8 << 20;
/// Most stderr kept per run, in bytes: the first half and the last half
/// (where a panic message is); the middle is dropped with a note.
pub const MAX_STDERR: usize = 64 << 10;
/// Most stdout lines read ahead of the checker; past it the reader waits.
pub const QUEUED_LINES: usize = 256;

/// Where lines to a child go: a thread that writes them, so a child that
/// stops reading blocks that thread, not the caller. Dropping the writer
/// closes the pipe (end of input) once what was sent is written.
pub struct Writer {
    lines: std::sync::mpsc::Sender<Vec<u8>>,
    written: Receiver<std::io::Result<()>>,
}

impl Writer {
    /// Starts the thread that writes to `to`.
    pub fn spawn(mut to: Box<dyn Write + Send>) -> Writer {
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
            // The caller closed the pipe: dropping `to` is the end of input.
        });
        Writer { lines, written }
    }

    /// Hands `bytes` to the writing thread; false when the pipe is broken.
    pub fn send(&self, bytes: Vec<u8>) -> bool {
        self.lines.send(bytes).is_ok()
    }

    /// Waits up to `within` for the last [`Writer::send`] to be written.
    pub fn written_within(&self, within: Duration) -> Written {
        match self.written.recv_timeout(within) {
            Ok(Ok(())) => Written::Taken,
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Written::Broken,
            Err(RecvTimeoutError::Timeout) => Written::Waiting,
        }
    }
}

/// How a write to a child stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The child took it.
    Taken,
    /// Still blocked: the child is not reading (yet).
    Waiting,
    /// The pipe broke: the child is gone.
    Broken,
}

/// Caps on a stream read as lines.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest line kept, in bytes; the rest of the line is dropped and the
    /// line marked truncated.
    pub line: usize,
    /// Most bytes read in all; past it the reader sends [`Out::Flood`] and
    /// stops.
    pub total: usize,
    /// Most lines read ahead of the consumer.
    pub queued: usize,
}

impl Limits {
    /// A learner's program: [`MAX_LINE`], [`MAX_STDOUT`], [`QUEUED_LINES`].
    pub const PROGRAM: Limits = Limits {
        line: MAX_LINE,
        total: MAX_STDOUT,
        queued: QUEUED_LINES,
    };
}

/// What a line reader hands on.
#[derive(Debug)]
pub enum Out {
    /// A line, without its `\n`; `truncated` when it was cut at
    /// [`Limits::line`].
    Line {
        /// The line's bytes (at most [`Limits::line`]).
        bytes: Vec<u8>,
        /// Whether the line was longer than that.
        truncated: bool,
    },
    /// Past [`Limits::total`]: the start of the line being read, and whether
    /// any newline came at all. Nothing follows.
    Flood {
        /// Up to 1 KiB of the line being read.
        start: Vec<u8>,
        /// Whether the stream held a newline at all.
        newline: bool,
    },
    /// The stream ended.
    Eof,
}

/// The lines of a stream, as a reader thread hands them on.
pub struct Lines {
    rx: Receiver<Out>,
}

impl Lines {
    /// A stream that has already ended (a child whose output is not read
    /// as lines).
    pub fn ended() -> Lines {
        let (_, rx) = sync_channel(0);
        Lines { rx }
    }

    /// The next line, waiting up to `within`; `Err(Timeout)` when none came
    /// in time, `Err(Disconnected)` after the end.
    pub fn recv_timeout(&self, within: Duration) -> Result<Out, RecvTimeoutError> {
        self.rx.recv_timeout(within)
    }
}

impl Iterator for Lines {
    type Item = Out;

    /// Blocks for the next line; `None` after the end.
    fn next(&mut self) -> Option<Out> {
        self.rx.recv().ok()
    }
}

/// Reads `stream` as lines on a thread of its own, within `limits`.
pub fn read_lines(stream: impl Read + Send + 'static, limits: Limits) -> Lines {
    let (tx, rx) = sync_channel(limits.queued);
    thread::spawn(move || split_lines(stream, limits, tx));
    Lines { rx }
}

fn split_lines(mut stream: impl Read, limits: Limits, tx: SyncSender<Out>) {
    let mut buf = vec![0u8; 64 << 10];
    let mut line = Vec::new();
    let mut truncated = false;
    let mut newline = false;
    let mut total = 0usize;
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total = total.saturating_add(n);
        for &byte in &buf[..n] {
            if byte == b'\n' {
                newline = true;
                let bytes = std::mem::take(&mut line);
                if tx.send(Out::Line { bytes, truncated }).is_err() {
                    return;
                }
                truncated = false;
            } else if line.len() < limits.line {
                line.push(byte);
            } else {
                truncated = true;
            }
        }
        if total > limits.total {
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

/// One or more streams kept as text, read by threads of their own: the
/// first `head` bytes and a running last `tail` bytes; the rest is counted.
#[derive(Clone)]
pub struct Capture {
    kept: Arc<Mutex<Kept>>,
}

#[derive(Default)]
struct Kept {
    head: Vec<u8>,
    tail: Vec<u8>,
    head_max: usize,
    tail_max: usize,
    total: usize,
    /// Streams still being read.
    open: usize,
}

impl Kept {
    fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len();
        let room = self.head_max.saturating_sub(self.head.len());
        let (head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(head);
        if self.tail_max > 0 {
            self.tail.extend_from_slice(rest);
            if self.tail.len() > 2 * self.tail_max {
                self.tail.drain(..self.tail.len() - self.tail_max);
            }
        }
    }
}

impl Capture {
    /// An empty capture keeping the first `head` and the last `tail` bytes.
    pub fn new(head: usize, tail: usize) -> Capture {
        Capture {
            kept: Arc::new(Mutex::new(Kept {
                head_max: head,
                tail_max: tail,
                ..Kept::default()
            })),
        }
    }

    /// A learner's stderr: the first and last halves of [`MAX_STDERR`].
    pub fn stderr() -> Capture {
        Capture::new(MAX_STDERR / 2, MAX_STDERR / 2)
    }

    /// Reads `stream` into the capture on a thread of its own, to its end.
    pub fn read(&self, mut stream: impl Read + Send + 'static) {
        if let Ok(mut k) = self.kept.lock() {
            k.open += 1;
        }
        let kept = Arc::clone(&self.kept);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                let n = match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let Ok(mut k) = kept.lock() else { return };
                k.push(&buf[..n]);
            }
            if let Ok(mut k) = kept.lock() {
                k.open -= 1;
            }
        });
    }

    /// Bytes read so far, kept or not.
    pub fn total(&self) -> usize {
        self.kept.lock().map_or(0, |k| k.total)
    }

    /// Waits up to `within` for every stream to end (every writer gone);
    /// true when they did.
    pub fn wait_ended(&self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            if self.kept.lock().map_or(true, |k| k.open == 0) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// The text kept (lossy UTF-8) and the bytes dropped; where some were,
    /// `note(dropped)` stands between the start and the end.
    pub fn text(&self, note: impl Fn(usize) -> String) -> (String, usize) {
        let Ok(k) = self.kept.lock() else {
            return (String::new(), 0);
        };
        let tail = &k.tail[k.tail.len().saturating_sub(k.tail_max)..];
        let dropped = k.total - k.head.len() - tail.len();
        let mut text = String::from_utf8_lossy(&k.head).into_owned();
        if dropped > 0 {
            text.push_str(&note(dropped));
        }
        text.push_str(&String::from_utf8_lossy(tail));
        (text, dropped)
    }

    /// A learner's stderr as text ([`Capture::text`] with a note saying
    /// how much of the middle was dropped).
    pub fn stderr_text(&self) -> (String, usize) {
        let half = self.kept.lock().map_or(0, |k| k.tail_max);
        let ends_line = self.kept.lock().map_or(true, |k| k.head.ends_with(b"\n"));
        self.text(|dropped| {
            format!(
                "{}… {dropped} bytes of stderr not kept (only the first and last {} KiB are) …\n",
                if ends_line { "" } else { "\n" },
                half >> 10
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captured(chunks: &[&[u8]], capture: &Capture) {
        let mut k = capture.kept.lock().unwrap();
        for chunk in chunks {
            k.push(chunk);
        }
    }

    #[test]
    fn stderr_keeps_its_start_and_its_end() {
        let c = Capture::stderr();
        let dots = [b'.'; 100];
        let mut chunks: Vec<&[u8]> = vec![b"starting\n"];
        chunks.extend(std::iter::repeat_n(&dots[..], 10_000));
        let panic = b"\nthread 'main' panicked at src/main.rs:3:5:\nboom\n";
        chunks.push(panic);
        captured(&chunks, &c);
        let (text, dropped) = c.stderr_text();
        assert_eq!(c.total(), 9 + 1_000_000 + panic.len());
        assert_eq!(dropped, c.total() - MAX_STDERR);
        assert!(text.starts_with("starting\n"));
        assert!(text.ends_with("panicked at src/main.rs:3:5:\nboom\n"));
        assert!(text.contains(&format!(
            "… {dropped} bytes of stderr not kept (only the first and last 32 KiB are) …"
        )));
        let small = Capture::stderr();
        captured(&[b"a log line\n"], &small);
        assert_eq!(small.stderr_text(), ("a log line\n".to_string(), 0));
    }

    #[test]
    fn a_head_only_capture_counts_the_rest() {
        let c = Capture::new(100, 0);
        c.read(&[b'e'; 20_000][..]);
        assert!(c.wait_ended(Duration::from_secs(5)));
        let (text, dropped) = c.text(|more| format!("\n… {more} more"));
        assert_eq!(dropped, 19_900);
        assert_eq!(text, format!("{}\n… 19900 more", "e".repeat(100)));
    }

    #[test]
    fn lines_are_cut_and_a_flood_stopped() {
        let limits = Limits {
            line: 4,
            total: 30,
            queued: 2,
        };
        let lines: Vec<Out> = read_lines(&b"ab\nabcdefg\n"[..], limits).collect();
        assert!(matches!(&lines[0], Out::Line { bytes, truncated: false } if bytes == b"ab"));
        assert!(matches!(&lines[1], Out::Line { bytes, truncated: true } if bytes == b"abcd"));
        assert!(matches!(lines[2], Out::Eof));
        let flood: Vec<Out> = read_lines(&[b'x'; 100][..], limits).collect();
        assert!(matches!(&flood[..], [Out::Flood { newline: false, .. }]));
    }
}
