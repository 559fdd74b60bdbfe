//! `mcplings wire` end to end: bytes pass through unchanged both ways
//! (invalid UTF-8, CRLF, a last line without a newline), the log cuts and
//! judges each line, the server's stderr passes through, signals reach the
//! server, and the tap exits with the server's status (128+n for signal n).

use crate::common;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn wire(log: Option<&std::path::Path>, server: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcplings"));
    command.arg("wire");
    if let Some(log) = log {
        command.arg("--log").arg(log);
    }
    command.arg("--").args(server);
    command
}

/// The log's entries.
fn entries(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn bytes_pass_unchanged_both_ways_and_each_line_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("wire.log");
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
    input.extend_from_slice(b"not json \xff\xfe bytes\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n");
    input.extend_from_slice(b"a last line without a newline \xc3");
    let mut child = wire(Some(&log), &["cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Written in pieces, cutting lines and a UTF-8 sequence apart.
    let mut stdin = child.stdin.take().unwrap();
    for piece in input.chunks(7) {
        stdin.write_all(piece).unwrap();
        stdin.flush().unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, input, "what came back is not byte for byte what went in");
    let logged = entries(&log);
    let to_server: Vec<&Value> = logged.iter().filter(|e| e["dir"] == "to_server").collect();
    let from_server: Vec<&Value> = logged.iter().filter(|e| e["dir"] == "from_server").collect();
    assert_eq!(to_server.len(), 4, "{logged:#?}");
    assert_eq!(from_server.len(), 4, "{logged:#?}");
    assert_eq!(to_server[0]["method"], "ping");
    assert_eq!(to_server[0]["id"], 1);
    assert_eq!(to_server[0]["schema"], "valid");
    assert_eq!(to_server[1]["schema"], "not UTF-8");
    assert_eq!(to_server[2]["method"], "notifications/initialized");
    assert_eq!(to_server[3]["partial"], true);
    // The server echoed a request as if it were its own: a request again.
    assert_eq!(from_server[0]["method"], "ping");
    assert!(to_server[0]["at"].as_str().unwrap().ends_with('Z'));
    // The view prints it as a transcript.
    let view = Command::new(env!("CARGO_BIN_EXE_mcplings"))
        .args(["wire", "--view"])
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(view.status.code(), Some(0));
    let text = String::from_utf8_lossy(&view.stdout);
    assert!(
        text.contains("▶ {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
        "{text}"
    );
    assert!(text.contains("ping · id 1 · valid"), "{text}");
    assert!(text.contains("partial line"), "{text}");
}

#[test]
fn stderr_passes_through_and_the_exit_status_is_the_servers() {
    let out = wire(None, &["sh", "-c", "echo server-says >&2; exit 7"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "server-says\n");
    let out = wire(None, &["sh", "-c", "kill -KILL $$"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(128 + 9));
}

/// Starts wire around a server that prints `ready` and sleeps, sends
/// `signal` to wire, and returns wire's exit code.
fn signalled(signal: &str, server: &str) -> Option<i32> {
    let python = common::python3();
    let mut child = wire(None, &[&python[0], &python[1], "-c", server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // Python's KeyboardInterrupt traceback (SIGINT) would land in the
        // test run's output, where it reads like a failure.
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(ready, "ready\n");
    let sent = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "wire did not exit after SIG{signal}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn signals_reach_the_server() {
    let sleeper = "import time\nprint('ready', flush=True)\ntime.sleep(30)";
    let handler = "import signal, sys, time\nsignal.signal(signal.SIGTERM, lambda *a: sys.exit(42))\nprint('ready', flush=True)\ntime.sleep(30)";
    assert_eq!(signalled("TERM", handler), Some(42), "the server's own handler ran");
    assert_eq!(signalled("HUP", sleeper), Some(128 + 1));
    // Python turns SIGINT into KeyboardInterrupt: exit 1 with a traceback,
    // or death by the signal on newer versions (130).
    assert!(matches!(signalled("INT", sleeper), Some(1 | 130)));
}

#[test]
fn view_opens_the_transcript_view_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("wire.log");
    let mut child = wire(Some(&log), &["cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n")
        .unwrap();
    child.wait().unwrap();
    // A pseudo-terminal of 90x20 from Python's standard library: the view
    // draws, scrolls on j, and quits on q.
    let driver = r#"
import os, re, select, struct, subprocess, sys, time, fcntl, termios
m, s = os.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 20, 90, 0, 0))
p = subprocess.Popen(sys.argv[1:], stdin=s, stdout=s, stderr=s, close_fds=True)
out = b""
def drain(t):
    global out
    end = time.time() + t
    while time.time() < end:
        if select.select([m], [], [], 0.1)[0]:
            try:
                out += os.read(m, 65536)
            except OSError:
                return
drain(1.5); os.write(m, b"j"); drain(0.3); os.write(m, b"q"); drain(0.5)
code = p.wait(timeout=10)
print(code, re.sub(" +", " ", re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]", b" ", out).decode("utf-8", "replace")))
"#;
    let python = common::python3();
    let out = Command::new(&python[0])
        .args(&python[1..])
        .args(["-c", driver, env!("CARGO_BIN_EXE_mcplings"), "wire", "--view"])
        .arg(&log)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("0 "), "the view quits on q with 0: {text}");
    for wanted in ["Transcript", "▶", "ping · id 7 · valid", "q quits"] {
        assert!(text.contains(wanted), "{wanted} in: {text}");
    }
}
