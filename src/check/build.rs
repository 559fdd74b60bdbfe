//! Building a learner's crate with cargo, in the workspace's shared target
//! dir, and finding the binary it produced.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use process_wrap::std::{CommandWrap, ProcessGroup};
use serde_json::Value;

/// Most lines of compiler messages kept; the rest are counted in a note.
pub const MAX_BUILD_LINES: usize = 400;
/// Most bytes of cargo's own error output kept.
const MAX_CARGO_ERRORS: usize = 16 << 10;

/// Which crate to build.
#[derive(Debug, Clone)]
pub enum Target {
    /// A workspace member, by package name, built from the course root.
    Package(String),
    /// Any crate directory (its own lockfile), built into `target_dir`.
    Dir(PathBuf),
}

/// The outcome of a build.
#[derive(Debug, Clone, Default)]
pub struct Built {
    /// Whether cargo succeeded and a binary was found.
    pub ok: bool,
    /// Compiler messages for the crate, then cargo's own errors: at most
    /// [`MAX_BUILD_LINES`] lines of messages, then a note of how many more
    /// lines (and errors) there were.
    pub output: String,
    /// The binary, when one was built.
    pub executable: Option<PathBuf>,
    /// Wall time.
    pub duration: Duration,
    /// Set when cargo itself could not run (missing, cancelled).
    pub error: Option<String>,
}

/// Builds every exercise crate in `packages` (and so their dependencies,
/// with the features and profile checks use) into `target_dir`, going on
/// past crates that do not compile. Run in the background when the
/// workbook opens, so the first check compiles one small crate and not
/// serde_json and friends. Returns whether cargo ran; what it built is
/// cargo's business, and a later check reports any error properly.
pub fn prebuild(root: &Path, packages: &[String], target_dir: &Path) -> bool {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    std::process::Command::new(cargo)
        .current_dir(root)
        .args(["build", "--quiet", "--keep-going"])
        .args(packages.iter().flat_map(|p| ["-p", p.as_str()]))
        .env("CARGO_TARGET_DIR", target_dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok()
}

/// Runs `cargo build` for `target` from `root`, with compiler messages in
/// colour when `color` is set. `target_dir` is the shared target dir.
///
/// Never fails: a failed build is a [`Built`] with `ok == false`; a cargo
/// that cannot be started sets `error`.
pub fn build(root: &Path, target: &Target, target_dir: &Path, color: bool, cancel: Option<&Arc<AtomicBool>>) -> Built {
    let started = Instant::now();
    let format = if color {
        "--message-format=json-diagnostic-rendered-ansi"
    } else {
        "--message-format=json"
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = CommandWrap::with_new(&cargo, |c| {
        c.current_dir(root).arg("build").arg("--quiet").arg(format);
        match target {
            Target::Package(p) => {
                c.arg("-p").arg(p);
            }
            Target::Dir(dir) => {
                c.arg("--manifest-path").arg(dir.join("Cargo.toml"));
            }
        }
        c.env("CARGO_TARGET_DIR", target_dir);
        c.env("CARGO_TERM_COLOR", if color { "always" } else { "never" });
        c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    });
    command.wrap(ProcessGroup::leader());
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            let error = if e.kind() == std::io::ErrorKind::NotFound {
                "cargo was not found: install Rust from https://rustup.rs and open a new terminal".to_string()
            } else {
                format!("cannot run cargo: {e}")
            };
            return Built {
                error: Some(error.clone()),
                output: error,
                duration: started.elapsed(),
                ..Built::default()
            };
        }
    };
    let stdout = child
        .stdout()
        .take()
        .map(|s| thread::spawn(move || parse_messages(BufReader::new(s))));
    let stderr = child
        .stderr()
        .take()
        .map(|s| thread::spawn(move || read_capped(s, MAX_CARGO_ERRORS)));
    let status = loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            let _ = child.start_kill();
            let _ = child.wait();
            return Built {
                error: Some("cancelled".into()),
                duration: started.elapsed(),
                ..Built::default()
            };
        }
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let (mut output, executable) = stdout.and_then(|h| h.join().ok()).unwrap_or_default();
    let stderr = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    let cargo_errors = stderr.trim();
    if !cargo_errors.is_empty() {
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(cargo_errors);
        output.push('\n');
    }
    let ok = status.is_some_and(|s| s.success()) && executable.is_some();
    Built {
        ok,
        output,
        executable,
        duration: started.elapsed(),
        error: None,
    }
}

/// Reads `r` to its end, keeping the first `max` bytes (lossy UTF-8) and a
/// note of how many more there were.
fn read_capped(r: impl Read, max: usize) -> String {
    let mut bytes = Vec::new();
    let mut r = BufReader::new(r);
    let _ = r.by_ref().take(max as u64).read_to_end(&mut bytes);
    let more = std::io::copy(&mut r, &mut std::io::sink()).unwrap_or(0);
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if more > 0 {
        text.push_str(&format!("\n… {more} more bytes of cargo's output not shown"));
    }
    text
}

/// Pulls the rendered compiler messages (at most [`MAX_BUILD_LINES`]
/// lines, then a note) and the binary's path out of cargo's JSON message
/// stream (one JSON object per line), as it arrives.
fn parse_messages(stream: impl BufRead) -> (String, Option<PathBuf>) {
    let mut output = String::new();
    let mut executable = None;
    let (mut lines, mut more_lines, mut more_errors) = (0usize, 0usize, 0usize);
    for line in stream.split(b'\n') {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        match msg.get("reason").and_then(Value::as_str) {
            Some("compiler-message") => {
                let Some(rendered) = msg.pointer("/message/rendered").and_then(Value::as_str) else {
                    continue;
                };
                let count = rendered.lines().count();
                if lines + count <= MAX_BUILD_LINES {
                    output.push_str(rendered);
                    lines += count;
                } else {
                    // Kept whole or not at all: half a message misleads.
                    lines = MAX_BUILD_LINES;
                    more_lines += count;
                    more_errors += usize::from(msg.pointer("/message/level").and_then(Value::as_str) == Some("error"));
                }
            }
            Some("compiler-artifact") => {
                let is_bin = msg
                    .pointer("/target/kind")
                    .and_then(Value::as_array)
                    .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
                if is_bin && let Some(exe) = msg.get("executable").and_then(Value::as_str) {
                    executable = Some(PathBuf::from(exe));
                }
            }
            _ => {}
        }
    }
    if more_lines > 0 {
        let errors = match more_errors {
            0 => String::new(),
            1 => " (1 more error)".to_string(),
            n => format!(" ({n} more errors)"),
        };
        output.push_str(&format!("… {more_lines} more lines of compiler messages not shown{errors}: fix the first errors above, they often cause the rest\n"));
    }
    (output, executable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_binary_and_the_rendered_messages() {
        let stream = [
            r#"{"reason":"compiler-message","message":{"rendered":"warning: unused variable: `x`\n"}}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["lib"]},"executable":null}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["bin"]},"executable":"/t/debug/ex"}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let (output, exe) = parse_messages(stream.as_bytes());
        assert_eq!(output, "warning: unused variable: `x`\n");
        assert_eq!(exe, Some(PathBuf::from("/t/debug/ex")));
    }

    #[test]
    fn thousands_of_errors_are_cut_with_a_note() {
        let error = |n: usize| {
            serde_json::json!({"reason": "compiler-message", "message": {"level": "error", "rendered": format!("error[E0425]: cannot find value `x{n}`\n --> src/lib.rs:{n}:5\n\n")}}).to_string()
        };
        let stream: Vec<String> = (1..=3000).map(error).collect();
        let (output, _) = parse_messages(stream.join("\n").as_bytes());
        // 3 lines each: 133 messages fit in 400 lines, 2867 do not.
        assert_eq!(output.lines().count(), 133 * 3 + 1);
        assert!(output.starts_with("error[E0425]: cannot find value `x1`"));
        assert!(output.contains("`x133`") && !output.contains("`x134`"));
        assert!(output.ends_with("… 8601 more lines of compiler messages not shown (2867 more errors): fix the first errors above, they often cause the rest\n"), "{}", &output[output.len() - 200..]);
    }

    #[test]
    fn cargo_errors_are_capped() {
        let text = read_capped(&[b'e'; 20_000][..], 100);
        assert_eq!(
            text,
            format!("{}\n… 19900 more bytes of cargo's output not shown", "e".repeat(100))
        );
    }
}
