//! A child process in a process group of its own: the one way the engine
//! starts anything (a learner's program, `cargo build`, the prebuild), so
//! that a timeout, a cancel or a drop kills the whole tree, grandchildren
//! included (rustc under cargo, a server a learner's client launched).
//!
//! A [`Process`] is owned by one caller and shares nothing: two of them can
//! run side by side on separate threads.

use std::io;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use process_wrap::std::{ChildWrapper, CommandWrap, ProcessGroup};

/// How often a waiting loop looks at the process and the cancel flag.
const POLL: Duration = Duration::from_millis(2);

/// A running child, leader of its own process group. Dropping it kills the
/// group and reaps the child.
pub struct Process {
    child: Box<dyn ChildWrapper>,
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
    /// Starts `command` (its pipes, directory and environment as the caller
    /// set them) as the leader of a new process group.
    ///
    /// Errors: the program could not be started (not found, not executable).
    pub fn start(command: Command) -> io::Result<Process> {
        let mut command = CommandWrap::from(command);
        command.wrap(ProcessGroup::leader());
        Ok(Process {
            child: command.spawn()?,
            exited: None,
            killed: false,
        })
    }

    /// The child's stdin pipe, once (when it was piped).
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin().take()
    }

    /// The child's stdout pipe, once (when it was piped).
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout().take()
    }

    /// The child's stderr pipe, once (when it was piped).
    pub fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr().take()
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
        self.child.signal(sig)
    }

    /// Kills the whole process group (even after the leader exited: the
    /// processes it started may linger) and reaps the leader.
    pub fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        let _ = self.child.start_kill();
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
        let mut command = Command::new("sh");
        // The grandchild holds stdout open: it must die with the group.
        command
            .args(["-c", "sleep 30 & sleep 30"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut process = Process::start(command).unwrap();
        let mut stdout = process.take_stdout().unwrap();
        let cancel = AtomicBool::new(true);
        let started = Instant::now();
        assert_eq!(process.wait_or_cancel(Some(&cancel)), Waited::Cancelled);
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut rest);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
