//! A child process in a process group of its own: the one way the engine
//! starts anything (a learner's program, `cargo build`, the prebuild), so
//! that a timeout, a cancel or a drop kills the whole tree, grandchildren
//! included (rustc under cargo, a server a learner's client launched).
//! Every process is registered while it lives (`children.rs`), so a signal
//! that ends mcplings kills it too.
//!
//! A [`Process`] is owned by one caller and shares nothing: two of them can
//! run side by side on separate threads. It is killed and reaped by the
//! thread that started it (the parent-death signal `children.rs` sets
//! fires when that thread ends).

use std::ffi::OsStr;
use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::children::{self, Kind};

/// How often a waiting loop looks at the process and the cancel flag.
const POLL: Duration = Duration::from_millis(2);

/// A running child, leader of its own process group. Dropping it kills the
/// group and reaps the child.
pub struct Process {
    child: Child,
    exited: Option<ExitStatus>,
    killed: bool,
}

/// How [`Process::wait_or_cancel`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// The process exited with this status.
    Exited(ExitStatus),
    /// The cancel flag was set: the group was killed.
    Cancelled,
    /// Its status could not be read (it is gone).
    Lost,
}

impl Process {
    /// Starts `program` as the leader of a new process group, registered
    /// until it is killed; `configure` sets its arguments, pipes, directory
    /// and environment on the command.
    ///
    /// Errors: the program could not be started (not found, not
    /// executable), or mcplings is stopping.
    pub fn start(program: impl AsRef<OsStr>, configure: impl FnOnce(&mut Command)) -> io::Result<Process> {
        Ok(Process {
            child: children::spawn(program.as_ref(), Kind::Group, configure)?,
            exited: None,
            killed: false,
        })
    }

    /// Its process id, which is also its group's id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The child's stdin pipe, once (when it was piped).
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    /// The child's stdout pipe, once (when it was piped).
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// The child's stderr pipe, once (when it was piped).
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr.take()
    }

    /// Its exit status, if it was seen to exit (does not look again).
    pub fn exited(&self) -> Option<ExitStatus> {
        self.exited
    }

    /// Its exit status, if it has exited (looks without waiting).
    pub fn try_exit(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.exited = Some(status);
        }
        self.exited
    }

    /// Waits up to `within` for it to exit; its status if it did.
    pub fn wait_within(&mut self, within: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + within;
        while self.exited.is_none() && Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => self.exited = Some(status),
                Ok(None) => thread::sleep(POLL),
                Err(_) => break,
            }
        }
        self.exited
    }

    /// Waits for it to exit, or kills its group as soon as `cancel` is set.
    pub fn wait_or_cancel(&mut self, cancel: Option<&AtomicBool>) -> Waited {
        loop {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                self.kill();
                return Waited::Cancelled;
            }
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = Some(status);
                    return Waited::Exited(status);
                }
                Ok(None) => thread::sleep(POLL),
                Err(_) => return Waited::Lost,
            }
        }
    }

    /// Sends signal `sig` (e.g. 15, SIGTERM) to the whole process group.
    ///
    /// Errors: the signal number is not one the platform knows, or the
    /// group is gone.
    pub fn signal(&self, sig: i32) -> io::Result<()> {
        let sig = Signal::try_from(sig).map_err(io::Error::from)?;
        killpg(Pid::from_raw(self.child.id() as i32), sig).map_err(io::Error::from)
    }

    /// Kills the whole process group (even after the leader exited: the
    /// processes it started may linger), forgets it in the register and
    /// reaps the leader. Members of the group that were reparented to
    /// mcplings are reaped by the next `children::reap_orphans`.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        // Forgotten before the leader is reaped: once reaped, its pid (the
        // group's id) may be handed to another process.
        children::release(self.child.id());
        if let Ok(status) = self.child.wait() {
            self.exited.get_or_insert(status);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::Stdio;

    #[test]
    fn a_cancel_kills_the_whole_group() {
        // The grandchild holds stdout open: it must die with the group.
        let mut process = Process::start("sh", |c| {
            c.args(["-c", "sleep 30 & sleep 30"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null());
        })
        .unwrap();
        let mut stdout = process.take_stdout().unwrap();
        let cancel = AtomicBool::new(true);
        let started = Instant::now();
        assert_eq!(process.wait_or_cancel(Some(&cancel)), Waited::Cancelled);
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut rest);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
