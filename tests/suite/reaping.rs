//! Nothing left behind, whatever ends mcplings (issue 30, item 1): for
//! each command that starts processes (check, doctor, the workbook under a
//! pseudo-terminal, wire), SIGINT, SIGTERM and SIGHUP while a hostile
//! program runs end mcplings with 128 + n and leave none of the program's
//! processes running; SIGKILL leaves no direct child; a check that ends on
//! its own leaves no `setsid` grandchild.
//!
//! The hostile program is a shell script ([`HOSTILE`]): it ignores SIGINT,
//! SIGTERM and SIGHUP, reads its stdin to the end and keeps running after
//! it, and starts a grandchild in a session of its own (`setsid`), which no
//! group kill reaches. Each process writes its pid to a file named
//! `child.PID` or `grandchild.PID` in `$MCPLINGS_HOSTILE_DIR` (a temporary
//! folder per run), and the test looks each one up in `/proc`. Linux only:
//! elsewhere there is no `/proc` to look in (and no subreaper).

use crate::common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// The hostile program.
const HOSTILE: &str = r#"trap '' INT TERM HUP
d="$MCPLINGS_HOSTILE_DIR"
echo $$ > "$d/child.$$"
setsid sh -c 'echo $$ > "$1/grandchild.$$"; exec sleep 300' sh "$d" &
cat > /dev/null
while :; do sleep 1; done
"#;

/// The three signals that end mcplings cleanly.
const SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

/// How long a run may take to show its first grandchild (a check's build
/// of an unchanged crate is skipped; the first run builds).
const STARTED: Duration = Duration::from_secs(120);
/// How long mcplings may take to end after a signal, and its processes to
/// be gone after that.
const ENDED: Duration = Duration::from_secs(10);

/// The pids the hostile processes wrote to `dir` whose file name starts
/// with `kind` (`child.` or `grandchild.`).
fn pids(dir: &Path, kind: &str) -> Vec<i32> {
    let mut found: Vec<i32> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_prefix(kind)?.parse().ok())
        .collect();
    found.sort();
    found
}

/// Whether `pid` runs (a zombie, waiting to be reaped, does not).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

/// Waits until `dir` holds a grandchild's pid file (and so a child's).
fn wait_started(dir: &Path, what: &str) {
    let until = Instant::now() + common_scale(STARTED);
    while pids(dir, "grandchild.").is_empty() {
        assert!(Instant::now() < until, "{what}: no hostile grandchild started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `bound` stretched by the machine's load, as the checkers' windows are.
fn common_scale(bound: Duration) -> Duration {
    mcplings::check::session::slack::stretch(bound, mcplings::check::session::slack::scale())
}

/// Waits for `pids` to be gone; the ones still running after [`ENDED`].
fn left_running(pids: &[i32]) -> Vec<i32> {
    let until = Instant::now() + common_scale(ENDED);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    pids.iter().copied().filter(|p| alive(*p)).collect()
}

/// Kills what a failed assertion or a SIGKILL left (the test's own mess).
fn clean_up(dir: &Path) {
    for pid in pids(dir, "child.").into_iter().chain(pids(dir, "grandchild.")) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// Asserts that no process of the hostile program in `dir` runs.
fn none_left(dir: &Path, what: &str) {
    let all: Vec<i32> = pids(dir, "child.")
        .into_iter()
        .chain(pids(dir, "grandchild."))
        .collect();
    assert!(!all.is_empty(), "{what}: the hostile program never ran");
    let left = left_running(&all);
    clean_up(dir);
    assert!(left.is_empty(), "{what}: still running after mcplings ended: {left:?}");
}

/// Waits up to [`ENDED`] for `child` to exit; its code (None: a signal).
fn exit_code(child: &mut Child, what: &str) -> Option<i32> {
    let until = Instant::now() + common_scale(ENDED);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() >= until {
            let _ = child.kill();
            panic!("{what}: mcplings did not end after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `start` once per signal, side by side: each run starts mcplings
/// with its own hostile folder, waits for the hostile grandchild, sends the
/// signal, and asserts the exit code `expect(signal)` and that nothing of
/// the program is left.
fn each_signal(what: &str, start: impl Fn(&Path) -> Child + Sync, expect: impl Fn(Signal) -> i32 + Sync) {
    std::thread::scope(|scope| {
        let runs: Vec<_> = SIGNALS
            .iter()
            .map(|&signal| {
                let (start, expect) = (&start, &expect);
                scope.spawn(move || {
                    let what = format!("{what} sent {signal}");
                    let dir = tempfile::tempdir().unwrap();
                    let mut child = start(dir.path());
                    wait_started(dir.path(), &what);
                    kill(Pid::from_raw(child.id() as i32), signal).unwrap();
                    let code = exit_code(&mut child, &what);
                    none_left(dir.path(), &what);
                    assert_eq!(code, Some(expect(signal)), "{what}: the exit code");
                })
            })
            .collect();
        for run in runs {
            if let Err(panic) = run.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// Sends SIGKILL to the mcplings `start` starts once a grandchild runs;
/// asserts that its direct children died with it.
fn sigkill_leaves_no_direct_child(what: &str, start: impl Fn(&Path) -> Child) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = start(dir.path());
    wait_started(dir.path(), what);
    child.kill().unwrap();
    child.wait().unwrap();
    let left = left_running(&pids(dir.path(), "child."));
    clean_up(dir.path());
    assert!(left.is_empty(), "{what}: direct children outlived SIGKILL: {left:?}");
}

/// The mcplings binary, with `dir` as the hostile folder.
fn mcplings(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcplings"));
    command
        .env("MCPLINGS_HOSTILE_DIR", dir)
        .env("CARGO_TARGET_DIR", common::course_target_dir())
        .env_remove("MCPLINGS_ROOT")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// A crate whose program is the hostile script, as a learner's exercise.
fn hostile_main() -> String {
    format!(
        "use std::os::unix::process::CommandExt;\n\nfn main() {{\n    let error = std::process::Command::new(\"sh\").arg(\"-c\").arg({HOSTILE:?}).exec();\n    panic!(\"cannot run sh: {{error}}\");\n}}\n"
    )
}

const GATE: &str = "03-handshake-gate";

#[test]
fn check_and_the_workbook_leave_nothing_behind() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let course = common::built_course();
    let root = course.path().to_path_buf();
    common::write_if_changed(
        &root.join("exercises").join(GATE).join("src/main.rs"),
        hostile_main().as_bytes(),
    );
    let check = |dir: &Path| {
        let mut command = mcplings(dir);
        command.arg("--root").arg(&root).args(["check", "03", "--json"]);
        command
    };
    // On its own: every case fails on the missing answer; each case's
    // grandchild, reparented to mcplings when its case's program was
    // killed, is killed before the check ends.
    let dir = tempfile::tempdir().unwrap();
    let out = check(dir.path()).stdout(Stdio::piped()).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["build"]["ok"], true, "{report:#}");
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let grandchildren = pids(dir.path(), "grandchild.");
    assert!(grandchildren.len() >= 2, "{grandchildren:?}");
    let left = grandchildren.iter().copied().filter(|p| alive(*p)).collect::<Vec<_>>();
    clean_up(dir.path());
    assert!(
        left.is_empty(),
        "a check that ended left setsid grandchildren: {left:?}"
    );

    each_signal("check", |dir| check(dir).spawn().unwrap(), |s| 128 + s as i32);
    sigkill_leaves_no_direct_child("check", |dir| check(dir).spawn().unwrap());
    workbook(&root);
}

/// The workbook, opened on exercise 03 in a pseudo-terminal (util-linux
/// `script`), starts its check; each signal ends it with 128 + n, the
/// terminal back in cooked mode, and nothing of the program left.
fn workbook(root: &Path) {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped the workbook: util-linux `script` is not installed");
        return;
    }
    mcplings::progress::update(&mcplings::progress::path(root), |p| {
        p.position.part = Some(2);
        p.position.exercise = Some(GATE.to_string());
        p.position.screen = Some(mcplings::progress::Place::Exercise);
    })
    .unwrap();
    let shells = tempfile::tempdir().unwrap();
    let start = |dir: &Path| {
        // The shell's pid, to find mcplings (its child) by.
        let shell_pid = shells.path().join(dir.file_name().unwrap());
        let shell = format!(
            "echo $$ > '{}'; stty cols 100 rows 30; '{}' --root '{}'; echo \"EXIT=$?\"; stty -a",
            shell_pid.display(),
            env!("CARGO_BIN_EXE_mcplings"),
            root.display()
        );
        // `script` runs the shell in a pseudo-terminal and writes what it
        // showed to `output`; its stdin (a pipe held open) never ends.
        let output = dir.with_extension("out");
        let mut program = Command::new("script");
        program
            .args(["-qec", &shell])
            .arg(&output)
            .env("MCPLINGS_HOSTILE_DIR", dir)
            .env("CARGO_TARGET_DIR", common::course_target_dir())
            .env("TERM", "xterm-256color")
            .env_remove("MCPLINGS_ROOT")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let script = program.spawn().unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        let shell_pid = loop {
            if let Some(pid) = std::fs::read_to_string(&shell_pid)
                .ok()
                .and_then(|t| t.trim().parse::<u32>().ok())
            {
                break pid;
            }
            assert!(Instant::now() < until, "the shell under script never started");
            std::thread::sleep(Duration::from_millis(10));
        };
        (script, shell_pid)
    };
    std::thread::scope(|scope| {
        let runs: Vec<_> = SIGNALS
            .iter()
            .map(|&signal| {
                let start = &start;
                scope.spawn(move || {
                    let what = format!("the workbook sent {signal}");
                    let dir = tempfile::tempdir().unwrap();
                    let (mut script, shell) = start(dir.path());
                    wait_started(dir.path(), &what);
                    let workbook = child_of(shell).unwrap_or_else(|| panic!("{what}: no mcplings under the shell"));
                    kill(Pid::from_raw(workbook as i32), signal).unwrap();
                    let ended = exit_code(&mut script, &what);
                    none_left(dir.path(), &what);
                    let shown = std::fs::read_to_string(dir.path().with_extension("out")).unwrap_or_default();
                    assert_eq!(ended, Some(0), "{what}: script's own exit:\n{shown}");
                    assert!(
                        shown.contains(&format!("EXIT={}", 128 + signal as i32)),
                        "{what}: the exit code:\n{shown}"
                    );
                    // The terminal is given back: main screen, cooked mode.
                    let exit = shown.rfind("EXIT=").unwrap();
                    assert!(
                        shown[..exit].contains("\x1b[?1049l"),
                        "{what}: the alternate screen stays"
                    );
                    let stty: Vec<&str> = shown[exit..].split_whitespace().collect();
                    for mode in ["icanon", "echo", "isig"] {
                        assert!(stty.contains(&mode), "{what}: the terminal is left -{mode}:\n{shown}");
                    }
                })
            })
            .collect();
        for run in runs {
            if let Err(panic) = run.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// The one child of process `parent` (by `/proc/*/stat`).
fn child_of(parent: u32) -> Option<u32> {
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == parent).then_some(pid)
    })
}

#[test]
fn doctor_leaves_nothing_behind() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let doctor = |dir: &Path| {
        mcplings(dir)
            .args(["doctor", "--", "sh", "-c", HOSTILE])
            .spawn()
            .unwrap()
    };
    each_signal("doctor", doctor, |s| 128 + s as i32);
    sigkill_leaves_no_direct_child("doctor", doctor);
}

/// `wire` forwards each signal to its server, which ignores it; the tap
/// kills the server after its grace and exits with the server's status
/// (137: SIGKILL), and the server's `setsid` grandchild goes too.
#[test]
fn wire_leaves_nothing_behind() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let wire = |dir: &Path| {
        mcplings(dir)
            .args(["wire", "--", "sh", "-c", HOSTILE])
            // The host's end stays open: the server never sees end of input.
            .stdin(Stdio::piped())
            .spawn()
            .unwrap()
    };
    each_signal("wire", wire, |_| 128 + Signal::SIGKILL as i32);
    sigkill_leaves_no_direct_child("wire", wire);
}
