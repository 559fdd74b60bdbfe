//! Building a learner's crate with cargo, in the course crates' workspace
//! (`content::WORKSPACE`) and their shared target dir, and finding the binary it produced; building every exercise's
//! dependencies ahead of time ([`prebuild`], [`Prebuild`]); a crate that
//! has not changed since its last build is not built again ([`fresh`],
//! [`build_or_reuse`]). Cargo runs as a
//! [`Process`] of the session layer: in a process group of its own, so a
//! cancel stops rustc with it, its pipes read by capped readers.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

pub mod fresh;

use super::session::{Capture, Limits, Out, Process, Waited, read_lines};
use crate::content::WORKSPACE;

/// Most lines of compiler messages kept; the rest are counted in a note.
pub const MAX_BUILD_LINES: usize = 400;
/// Most bytes of cargo's own error output kept.
const MAX_CARGO_ERRORS: usize = 16 << 10;
/// Cargo's JSON messages, one per line: a message may be long, and none is
/// dropped (they are read as they come, and only [`MAX_BUILD_LINES`] kept).
const CARGO_MESSAGES: Limits = Limits {
    line: 64 << 20,
    total: usize::MAX,
    queued: 256,
};

/// Which crate to build.
#[derive(Debug, Clone)]
pub enum Target {
    /// A member of the course crates' workspace (`exercises/Cargo.toml`,
    /// `content::WORKSPACE`), by package name.
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

/// The cargo to run: `$CARGO` (set when run by cargo), or `cargo`.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Builds every exercise crate in `packages` (and so their dependencies,
/// with the features and profile checks use) into `target_dir`, going on
/// past crates that do not compile, so the first check compiles one small
/// crate and not serde_json and friends. Returns whether cargo ran to its
/// end; what it built is cargo's business, and a later check reports any
/// error properly. Stops (killing cargo and its rustc processes) as soon as
/// `cancel` is set.
pub fn prebuild(root: &Path, packages: &[String], target_dir: &Path, cancel: Option<&AtomicBool>) -> bool {
    let started = Process::start(cargo(), |command| {
        command
            .current_dir(root)
            .args(["build", "--quiet", "--keep-going", "--manifest-path"])
            .arg(root.join(WORKSPACE))
            .args(packages.iter().flat_map(|p| ["-p", p.as_str()]))
            .env("CARGO_TARGET_DIR", target_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
    });
    let Ok(mut process) = started else {
        return false;
    };
    matches!(process.wait_or_cancel(cancel), Waited::Exited(_))
}

/// A [`prebuild`] running on a thread of its own, as the workbook starts
/// one when it opens. Dropping the handle cancels it: cargo and everything
/// it started are killed before the drop returns.
#[must_use = "dropping a Prebuild cancels it"]
pub struct Prebuild {
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Prebuild {
    /// Starts prebuilding `packages` of the course at `root` into
    /// `target_dir`; `done` is called with [`prebuild`]'s answer when it
    /// ends (also when it was cancelled: with `false`).
    pub fn start(
        root: &Path,
        packages: Vec<String>,
        target_dir: PathBuf,
        done: impl FnOnce(bool) + Send + 'static,
    ) -> Prebuild {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let root = root.to_path_buf();
        let thread = thread::spawn(move || done(prebuild(&root, &packages, &target_dir, Some(&flag))));
        Prebuild {
            cancel,
            thread: Some(thread),
        }
    }

    /// The flag that cancels the prebuild when set, for a caller that
    /// keeps it apart from the handle.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Whether the prebuild has ended (done, failed or cancelled).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }
}

impl Drop for Prebuild {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// [`build`], unless `target` (its crate in `crate_dir`) has not changed
/// since its last successful build into `target_dir`: then that build is
/// returned as it was (its binary, its compiler messages) without running
/// cargo ([`fresh`] says what "not changed" covers).
pub fn build_or_reuse(
    root: &Path,
    target: &Target,
    crate_dir: &Path,
    target_dir: &Path,
    color: bool,
    cancel: Option<&Arc<AtomicBool>>,
) -> Built {
    let started = Instant::now();
    // Read before cargo runs: a save during the build changes the record's
    // key, so the next check builds again.
    let record = fresh::Record::read(root, target, crate_dir, target_dir, color);
    if let Some(built) = record.as_ref().and_then(fresh::Record::reuse) {
        return Built {
            duration: started.elapsed(),
            ..built
        };
    }
    let built = build(root, target, target_dir, color, cancel);
    if let Some(record) = &record
        && built.error.is_none()
    {
        record.save(&built);
    }
    built
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
    let spawned = Process::start(cargo(), |command| {
        command.current_dir(root).arg("build").arg("--quiet").arg(format);
        match target {
            Target::Package(p) => command
                .arg("--manifest-path")
                .arg(root.join(WORKSPACE))
                .arg("-p")
                .arg(p),
            Target::Dir(dir) => command.arg("--manifest-path").arg(dir.join("Cargo.toml")),
        };
        command
            .env("CARGO_TARGET_DIR", target_dir)
            .env("CARGO_TERM_COLOR", if color { "always" } else { "never" })
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
    });
    let mut process = match spawned {
        Ok(p) => p,
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
    let stdout = process.take_stdout().map(|s| {
        let lines = read_lines(s, CARGO_MESSAGES);
        thread::spawn(move || {
            parse_messages(lines.map_while(|out| match out {
                Out::Line { bytes, .. } => Some(bytes),
                Out::Flood { .. } | Out::Eof => None,
            }))
        })
    });
    let errors = Capture::new(MAX_CARGO_ERRORS, 0);
    if let Some(stderr) = process.take_stderr() {
        errors.read(stderr);
    }
    let status = match process.wait_or_cancel(cancel.map(|c| &**c)) {
        Waited::Exited(status) => Some(status),
        Waited::Lost => None,
        Waited::Cancelled => {
            return Built {
                error: Some("cancelled".into()),
                duration: started.elapsed(),
                ..Built::default()
            };
        }
    };
    // Whatever cargo left running goes with its group, so its pipes close.
    process.kill();
    let (mut output, executable) = stdout.and_then(|h| h.join().ok()).unwrap_or_default();
    errors.wait_ended(Duration::from_secs(5));
    let stderr = cargo_errors(&errors);
    let cargo_errors = stderr.trim();
    if !cargo_errors.is_empty() {
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(cargo_errors);
        output.push('\n');
    }
    if let Some(note) = missing_harness_note(&output) {
        output.push_str(note);
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

/// What to do when cargo could not read an exercise's harness crate
/// (`harness/Cargo.toml`, a path dependency): the learner's copy of the
/// folder left it out (`check --path` on `src/` and `Cargo.toml` alone).
/// Cargo's own words name only the missing file.
fn missing_harness_note(output: &str) -> Option<&'static str> {
    let missing = output
        .lines()
        .any(|l| l.contains("failed to read") && l.contains("harness/Cargo.toml"));
    missing.then_some(
        "mcplings: the crate's harness/ folder is missing. It holds the checker's harness, \
         which src/main.rs hands your code to: copy the whole exercise folder, harness/ included.\n",
    )
}

/// Cargo's own error output (lossy UTF-8): the first [`MAX_CARGO_ERRORS`]
/// bytes kept, then a note of how many more there were.
fn cargo_errors(errors: &Capture) -> String {
    errors
        .text(|more| format!("\n… {more} more bytes of cargo's output not shown"))
        .0
}

/// `rendered`, the text of compiler message `msg`, with each location
/// its spans name (`03-handshake-gate/src/lib.rs:135:37`, relative to the
/// workspace rustc ran in) made absolute, resolved from the package's
/// folder (`manifest_path`): a record of the build reads the same from
/// any directory, and the check writes them relative to the one mcplings
/// was started from (`paths::relative_in`).
fn absolute_locations(msg: &Value, rendered: &str) -> String {
    fn files(message: &Value, into: &mut Vec<String>) {
        for span in message["spans"].as_array().into_iter().flatten() {
            if let Some(file) = span["file_name"].as_str()
                && !into.iter().any(|f| f == file)
            {
                into.push(file.to_string());
            }
        }
        for child in message["children"].as_array().into_iter().flatten() {
            files(child, into);
        }
    }
    let Some(package) = msg["manifest_path"].as_str().and_then(|m| Path::new(m).parent()) else {
        return rendered.to_string();
    };
    let mut names = Vec::new();
    files(&msg["message"], &mut names);
    crate::paths::rewrite_locations(rendered, &names, |file| {
        Some(crate::paths::resolve(file, package)?.display().to_string())
    })
}

/// Pulls the rendered compiler messages (at most [`MAX_BUILD_LINES`]
/// lines, then a note) and the binary's path out of cargo's JSON message
/// stream (one JSON object per line), as it arrives.
fn parse_messages(messages: impl Iterator<Item = Vec<u8>>) -> (String, Option<PathBuf>) {
    let mut output = String::new();
    let mut executable = None;
    let (mut lines, mut more_lines, mut more_errors) = (0usize, 0usize, 0usize);
    for line in messages {
        let Ok(msg) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        match msg.get("reason").and_then(Value::as_str) {
            Some("compiler-message") => {
                let Some(rendered) = msg.pointer("/message/rendered").and_then(Value::as_str) else {
                    continue;
                };
                let rendered = &absolute_locations(&msg, rendered);
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

    fn lines(stream: &str) -> impl Iterator<Item = Vec<u8>> + '_ {
        stream.split('\n').map(|l| l.as_bytes().to_vec())
    }

    #[test]
    fn finds_the_binary_and_the_rendered_messages() {
        let stream = [
            r#"{"reason":"compiler-message","message":{"rendered":"warning: unused variable: `x`\n"}}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["lib"]},"executable":null}"#,
            r#"{"reason":"compiler-artifact","target":{"kind":["bin"]},"executable":"/t/debug/ex"}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let (output, exe) = parse_messages(lines(&stream));
        assert_eq!(output, "warning: unused variable: `x`\n");
        assert_eq!(exe, Some(PathBuf::from("/t/debug/ex")));
    }

    #[test]
    fn thousands_of_errors_are_cut_with_a_note() {
        let error = |n: usize| {
            serde_json::json!({"reason": "compiler-message", "message": {"level": "error", "rendered": format!("error[E0425]: cannot find value `x{n}`\n --> src/lib.rs:{n}:5\n\n")}}).to_string()
        };
        let stream: Vec<String> = (1..=3000).map(error).collect();
        let (output, _) = parse_messages(lines(&stream.join("\n")));
        // 3 lines each: 133 messages fit in 400 lines, 2867 do not.
        assert_eq!(output.lines().count(), 133 * 3 + 1);
        assert!(output.starts_with("error[E0425]: cannot find value `x1`"));
        assert!(output.contains("`x133`") && !output.contains("`x134`"));
        assert!(output.ends_with("… 8601 more lines of compiler messages not shown (2867 more errors): fix the first errors above, they often cause the rest\n"), "{}", &output[output.len() - 200..]);
    }

    #[test]
    fn a_missing_harness_folder_is_named() {
        let cargo = "error: failed to get `harness` as a dependency of package `exercise-01-encode-frames v0.1.0 (/tmp/my01b)`\n\nCaused by:\n  failed to load source for dependency `harness`\n\nCaused by:\n  Unable to update /tmp/my01b/harness\n\nCaused by:\n  failed to read `/tmp/my01b/harness/Cargo.toml`\n";
        assert!(missing_harness_note(cargo).is_some_and(|n| n.contains("copy the whole exercise folder")));
        assert_eq!(missing_harness_note("error[E0425]: cannot find value `x`"), None);
    }

    #[test]
    fn cargo_errors_are_capped() {
        let errors = Capture::new(100, 0);
        errors.read(&[b'e'; 20_000][..]);
        assert!(errors.wait_ended(Duration::from_secs(5)));
        let text = cargo_errors(&errors);
        assert_eq!(
            text,
            format!("{}\n… 19900 more bytes of cargo's output not shown", "e".repeat(100))
        );
        let errors = Capture::new(MAX_CARGO_ERRORS, 0);
        assert_eq!(cargo_errors(&errors), "");
    }
}
