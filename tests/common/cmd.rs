//! Running the `mcplings` binary from a test and reading what it did.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// `mcplings --root <root>`, building into the shared target dir.
pub fn mcplings(root: &Path) -> Command {
    let mut cmd = bin();
    cmd.arg("--root").arg(root);
    cmd
}

/// The binary with a clean environment for it (no `MCPLINGS_ROOT`).
pub fn bin() -> Command {
    #[allow(deprecated)]
    let mut cmd = Command::cargo_bin("mcplings").expect("the mcplings binary is built");
    cmd.env("CARGO_TARGET_DIR", super::course_target_dir())
        .env_remove("MCPLINGS_ROOT");
    cmd
}

/// What one run of the binary did.
pub struct Run {
    /// The exit code (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

impl Run {
    /// Standard output parsed as JSON; panics with both streams if it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr))
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `cmd` to its end.
pub fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("mcplings runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `mcplings --root <root> <args>`.
pub fn at(root: &Path, args: &[&str]) -> Run {
    run(mcplings(root).args(args))
}

/// Panics unless every line `r` printed (stdout and stderr) fits 80
/// terminal columns; `what` names the command in the message.
pub fn assert_fits_80(r: &Run, what: &str) {
    use unicode_width::UnicodeWidthStr;
    for line in r.stdout.lines().chain(r.stderr.lines()) {
        assert!(
            line.width() <= 80,
            "`{what}` printed a line of {} columns:\n{line}\n{r:?}",
            line.width()
        );
    }
}
