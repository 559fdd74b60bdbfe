//! One owner for every child: the register of the processes mcplings
//! started and still owns, and what happens to them when mcplings ends.
//!
//! - Every start goes through [`spawn`], which registers the child under
//!   one lock with the start itself, so a kill or a reap never finds a
//!   child of ours it does not know; [`release`] forgets it once its owner
//!   is about to reap it. A child is a **group** (its own process group,
//!   killed whole with SIGKILL: a learner's program, cargo, a server under
//!   doctor or wire) or a **single** (the editor, which shares our
//!   terminal and our group: sent SIGTERM, so it can save what it can).
//! - [`kill_all`] (on SIGINT, SIGTERM, SIGHUP: `cli/signals.rs`) refuses
//!   every later start, kills every registered child and every process
//!   that was reparented to us, and returns once none is left running.
//! - [`guard`] (the binary only, for the commands that own children; never
//!   the test binary) turns on, on Linux, what survives our own death:
//!   each child is started through `mcplings __exec`, which sets
//!   `PR_SET_PDEATHSIG` (SIGKILL) on itself and then execs the program, so
//!   a direct child dies with us even under SIGKILL; and mcplings becomes a
//!   child subreaper, so a grandchild that left its group (`setsid`) is
//!   reparented to us when its parent dies, and [`reap_orphans`] (at the
//!   end of every check and doctor run, and of `wire`) kills and reaps it
//!   by its pid. Never `waitpid(-1)`, which would take the status of a
//!   live case's process from its owner.
//!
//! Why an exec step and not a `pre_exec` hook: setting the signal between
//! fork and exec needs `unsafe` (`CommandExt::pre_exec`), which the
//! workspace forbids; `__exec` sets it with nix's safe wrapper and then
//! execs through std's safe `CommandExt::exec`, for one more exec per
//! start (a few milliseconds). The parent-death signal fires when the
//! *thread* that started the child ends: every [`Process`](super::Process)
//! is killed and reaped by the thread that started it, before that thread
//! ends (a case's pool thread, a check's worker, the prebuild's thread).
//!
//! What is not covered: a grandchild of a program still runs after mcplings
//! is killed with SIGKILL (the parent-death signal reaches direct children
//! only, and no subreaper is left to adopt it); on macOS there is neither
//! a parent-death signal nor a subreaper, so only the kills on a signal
//! and at a session's end apply (`docs/processes.md`).

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

/// The hidden subcommand that sets the parent-death signal and execs.
pub const EXEC_STEP: &str = "__exec";

/// How a registered child is ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The leader of a process group of its own: SIGKILL to the group.
    Group,
    /// A process in our own group (the editor): SIGTERM to it alone.
    Single,
}

/// The register: live children by pid, and whether starts are refused.
struct Owned {
    children: Vec<(u32, Kind)>,
    closing: bool,
}

static OWNED: Mutex<Owned> = Mutex::new(Owned {
    children: Vec::new(),
    closing: false,
});

/// Set by [`guard`]: children start through the exec step.
static EXEC_STEP_ON: AtomicBool = AtomicBool::new(false);
/// Set by [`guard`]: we are a child subreaper, so orphans come to us.
static SUBREAPER: AtomicBool = AtomicBool::new(false);

fn owned() -> std::sync::MutexGuard<'static, Owned> {
    OWNED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Turns on, for this process (the mcplings binary), the parent-death
/// signal of every child it starts from now on and, on Linux, makes it a
/// child subreaper. Does nothing elsewhere. Call it once, from `main`'s
/// thread, before any child starts.
pub fn guard() {
    #[cfg(target_os = "linux")]
    {
        if Path::new("/proc/self/exe").exists() {
            EXEC_STEP_ON.store(true, Ordering::SeqCst);
        }
        if nix::sys::prctl::set_child_subreaper(true).is_ok() {
            SUBREAPER.store(true, Ordering::SeqCst);
        }
    }
}

/// Starts `program`, its arguments, environment, directory and pipes set
/// by `configure`, registered as `kind` until [`release`]. A group child
/// leads a process group of its own.
///
/// Errors: the program cannot be found or run (the error a plain start
/// gives: "No such file or directory (os error 2)"), or mcplings is
/// closing ([`kill_all`] ran).
pub fn spawn(program: &OsStr, kind: Kind, configure: impl FnOnce(&mut Command)) -> io::Result<Child> {
    let stepped = EXEC_STEP_ON.load(Ordering::SeqCst) && kind == Kind::Group;
    let mut command = if stepped {
        let mut command = Command::new("/proc/self/exe");
        command.arg(EXEC_STEP).arg(std::process::id().to_string()).arg(program);
        command
    } else {
        Command::new(program)
    };
    configure(&mut command);
    if kind == Kind::Group {
        command.process_group(0);
    }
    if stepped {
        // The step's exec cannot report a failure to us: find the program
        // first, as the start would, and fail the same way.
        findable(program, &command)?;
    }
    let mut register = owned();
    if register.closing {
        return Err(io::Error::other("mcplings is stopping"));
    }
    let child = command.spawn()?;
    register.children.push((child.id(), kind));
    Ok(child)
}

/// Forgets child `pid`: its owner has killed it or is about to reap it.
pub fn release(pid: u32) {
    owned().children.retain(|(p, _)| *p != pid);
}

/// Whether `program` can be started with `command`'s directory and PATH:
/// a path is looked at where it points, a bare name in each PATH folder.
fn findable(program: &OsStr, command: &Command) -> io::Result<()> {
    let executable = |path: &Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let as_path = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        let path = match command.get_current_dir() {
            Some(dir) if as_path.is_relative() => dir.join(as_path),
            _ => as_path.to_path_buf(),
        };
        return match std::fs::metadata(&path) {
            Err(e) => Err(e),
            Ok(_) if executable(&path) => Ok(()),
            Ok(_) => Err(io::Error::from_raw_os_error(nix::libc::EACCES)),
        };
    }
    let path: Option<OsString> = command
        .get_envs()
        .find(|(key, _)| *key == "PATH")
        .map_or_else(|| std::env::var_os("PATH"), |(_, value)| value.map(OsStr::to_os_string));
    let found = std::env::split_paths(&path.unwrap_or_default())
        .map(|dir| {
            if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            }
        })
        .any(|dir| executable(&dir.join(program)));
    if found {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(nix::libc::ENOENT))
    }
}

/// `mcplings __exec PARENT PROGRAM [ARGS…]`: asks for SIGKILL when our
/// parent dies, makes sure PARENT (the mcplings that started us) has not
/// died already, and becomes PROGRAM. Returns only when that fails: the
/// exit code (127, as a shell's for a program it cannot run).
pub fn exec_step(mut args: impl Iterator<Item = OsString>) -> u8 {
    let parent = args.next().and_then(|p| p.to_str().and_then(|p| p.parse::<i32>().ok()));
    let Some(program) = args.next() else {
        eprintln!("mcplings: {EXEC_STEP} needs the parent's pid and a program");
        return 127;
    };
    #[cfg(target_os = "linux")]
    {
        if nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).is_err() {
            eprintln!("mcplings: cannot ask to die with mcplings; starting anyway");
        }
        // The parent may have died before the signal was asked for.
        if parent.is_some_and(|p| nix::unistd::getppid().as_raw() != p) {
            return 137;
        }
    }
    let _ = parent;
    let error = Command::new(&program).args(args).exec();
    eprintln!("mcplings: cannot start {}: {error}", program.to_string_lossy());
    127
}

/// Kills every registered child and every process reparented to us, and
/// refuses every start from now on; returns once none of them runs any
/// more (or after two seconds). For the end of mcplings: a signal.
pub fn kill_all() {
    let children = {
        let mut register = owned();
        register.closing = true;
        register.children.clone()
    };
    for (pid, kind) in &children {
        let pid = Pid::from_raw(*pid as i32);
        let _ = match kind {
            Kind::Group => killpg(pid, Signal::SIGKILL),
            Kind::Single => kill(pid, Signal::SIGTERM),
        };
    }
    let singles: Vec<u32> = children
        .iter()
        .filter(|(_, k)| *k == Kind::Single)
        .map(|(p, _)| *p)
        .collect();
    sweep(|child| !singles.contains(&child.pid), Duration::from_secs(2));
}

/// Kills and reaps, by pid, every child of ours that nobody registered and
/// that is in no registered group: processes that left a program's group
/// and were reparented to us (we are a subreaper) when their parent died.
/// Returns once none is left (at most a second). Does nothing unless
/// [`guard`] made us a subreaper: otherwise no such child can exist.
pub fn reap_orphans() {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    sweep(
        |child| {
            let register = owned();
            !register
                .children
                .iter()
                .any(|(pid, _)| *pid == child.pid || *pid == child.group)
        },
        Duration::from_secs(1),
    );
}

/// A child of ours, as `/proc` shows it.
#[derive(Debug, Clone, Copy)]
struct ChildProc {
    pid: u32,
    group: u32,
    zombie: bool,
}

/// Kills (SIGKILL) and reaps the children `doomed` picks, again and again
/// (each death may hand us its own children), until a pass finds none
/// running or `within` has passed.
fn sweep(doomed: impl Fn(&ChildProc) -> bool, within: Duration) {
    let until = Instant::now() + within;
    loop {
        let mut running = false;
        for child in children_of_ours().into_iter().filter(|c| doomed(c)) {
            let pid = Pid::from_raw(child.pid as i32);
            if !child.zombie {
                running = true;
                let _ = kill(pid, Signal::SIGKILL);
            }
            // Only this pid: a status we take is one nobody else waits for.
            if let Ok(WaitStatus::StillAlive) | Err(_) = waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
                running = true;
            }
        }
        if !running || Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Our children, read from `/proc/*/stat` (their parent's pid is ours);
/// none where there is no `/proc`.
fn children_of_ours() -> Vec<ChildProc> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp …`; comm may hold spaces and parens.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
        let (Some(state), Some(ppid), Some(group)) = (fields.first(), fields.get(1), fields.get(2)) else {
            continue;
        };
        if ppid.parse::<u32>().ok() == Some(me) {
            found.push(ChildProc {
                pid,
                group: group.parse().unwrap_or(0),
                zombie: *state == "Z",
            });
        }
    }
    found
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_missing_program_fails_as_a_plain_start_would() {
        let command = Command::new("x");
        let missing = findable(OsStr::new("no-such-program-here"), &command).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(missing.to_string(), "No such file or directory (os error 2)");
        assert!(findable(OsStr::new("sh"), &command).is_ok());
        assert!(findable(OsStr::new("/bin/sh"), &command).is_ok());
        let text = tempfile::NamedTempFile::new().unwrap();
        let not_executable = findable(text.path().as_os_str(), &command).unwrap_err();
        assert_eq!(not_executable.kind(), io::ErrorKind::PermissionDenied);
        let mut elsewhere = Command::new("x");
        elsewhere.env("PATH", "/nonexistent");
        assert!(findable(OsStr::new("sh"), &elsewhere).is_err());
    }

    #[test]
    fn children_of_ours_are_found_by_their_parent_pid() {
        let mut child = Command::new("sleep").arg("5").spawn().unwrap();
        let found = children_of_ours();
        assert!(found.iter().any(|c| c.pid == child.id() && !c.zombie), "{found:?}");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
