//! The check engine, shared by the CLI and the TUI: build a learner's crate,
//! run each case of its exercise's checker against the binary, and report.
//!
//! A failing check is an outcome ([`CheckReport`] with `passed == false`),
//! never an error: compile errors, panics, hangs and junk on stdout all end
//! as failed cases with plain reasons.

pub mod build;
mod cases;
pub mod checkers;
pub mod diff;
pub mod disk;
pub mod doctor;
pub mod http;
pub mod report;
pub mod schema;
pub mod session;
pub(crate) mod toolkit;
pub mod window;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use report::{BuildReport, CaseReport, CheckReport, Direction, EntryKind, Status, TranscriptEntry};

use crate::content::{Course, Exercise};
use build::Target;
pub use cases::CASES_AT_ONCE;
use cases::{CANCELLED, Cases};
use checkers::Failure;
use session::{Session, Stop};

/// Which crate to check against an exercise's checker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The learner's crate, `exercises/<id>`.
    Exercise,
    /// The reference crate, `solutions/<id>`.
    Solution,
    /// Any crate directory (with its own lockfile); records no progress.
    Path(PathBuf),
}

impl Source {
    fn name(&self) -> &'static str {
        match self {
            Source::Exercise => "exercise",
            Source::Solution => "solution",
            Source::Path(_) => "path",
        }
    }
}

/// How to run a check.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Keep the compiler's ANSI colours in the build output (for the TUI).
    pub color: bool,
    /// Set to true to stop the check early (the TUI's cancel key).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where cargo builds; `None` picks [`course_target_dir`] for the
    /// course's own crates and [`path_target_dir`] for `Source::Path`.
    pub target_dir: Option<PathBuf>,
    /// The mcplings binary, run as `mcplings __relay SOCKET` by client
    /// exercises; `None` means this process's own executable.
    pub relay: Option<PathBuf>,
    /// Run only the cases with these names, in course order; the others are
    /// left out of the report. `None` runs every case. A name the checker
    /// does not have makes the check an error ([`CheckReport::error`]), so
    /// a renamed case cannot silently leave a test with nothing to run.
    pub only: Option<Vec<String>>,
}

/// Progress of a running check, for front ends that show it live.
#[derive(Debug, Clone)]
pub enum Event {
    /// The build finished (successfully or not).
    Built(BuildReport),
    /// A case is about to run.
    CaseStarted(usize),
    /// A case finished.
    CaseFinished(usize, Box<CaseReport>),
}

/// The shared cargo target dir: `$CARGO_TARGET_DIR`, or `<root>/target`.
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// Where the exercise and solution crates build: `exercises/` under the
/// shared target dir ([`disk::COURSE_BUILDS`]), a target dir of their own.
/// Cargo locks a target dir's profile folder for a whole build, so a check
/// building here never waits on the app's own build in `target/debug/`
/// (`cargo test`, `cargo run`), nor the other way round; every course crate
/// shares it, so their dependencies compile once.
pub fn course_target_dir(root: &Path) -> PathBuf {
    target_dir(root).join(disk::COURSE_BUILDS)
}

/// Where a crate outside the workspace (`--path DIR`) is built: a folder of
/// its own under the shared target dir, named after `dir`. Only the most
/// recently used few are kept ([`disk::claim_path_target_dir`]).
///
/// Cargo keys its build records by package name and version, not by path:
/// a copy of `exercises/01-…` built into the same folder as the original
/// would make cargo take one for the other and run the wrong binary. The
/// price of a folder of one's own is compiling the dependencies once more.
pub fn path_target_dir(root: &Path, dir: &Path) -> PathBuf {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let text = dir.to_string_lossy();
    // FNV-1a: stable from run to run, unlike std's hasher.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let name: String = text
        .chars()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    target_dir(root)
        .join(disk::PATH_BUILDS)
        .join(format!("{}-{hash:016x}", name.trim_matches('-')))
}

/// Checks `source` against `exercise`'s checker, calling `on_event` as it
/// goes. Never fails; see [`CheckReport::error`] for checks that could not
/// be carried out. Whatever the learner's programs left behind outside
/// their process groups is killed before it returns
/// ([`session::children::reap_orphans`]).
pub fn check(
    course: &Course,
    exercise: &Exercise,
    source: &Source,
    options: &Options,
    on_event: &mut dyn FnMut(Event),
) -> CheckReport {
    let report = check_cases(course, exercise, source, options, on_event);
    session::children::reap_orphans();
    report
}

/// [`check`], before the orphans are reaped.
fn check_cases(
    course: &Course,
    exercise: &Exercise,
    source: &Source,
    options: &Options,
    on_event: &mut dyn FnMut(Event),
) -> CheckReport {
    let started = Instant::now();
    let (crate_dir, target) = match source {
        Source::Exercise => (exercise.dir(&course.root), Target::Package(exercise.package())),
        Source::Solution => (
            exercise.solution_dir(&course.root),
            Target::Package(exercise.solution_package()),
        ),
        Source::Path(dir) => (dir.clone(), Target::Dir(dir.clone())),
    };
    let checker = checkers::of(exercise);
    let mut report = CheckReport {
        format_version: report::REPORT_FORMAT_VERSION,
        exercise: exercise.id.clone(),
        source: source.name().to_string(),
        crate_dir: crate_dir
            .strip_prefix(&course.root)
            .unwrap_or(&crate_dir)
            .display()
            .to_string(),
        passed: false,
        build: BuildReport::default(),
        cases: Vec::new(),
        duration_ms: 0,
        error: None,
    };
    let Some(checker) = checker else {
        report.error = Some(format!(
            "exercise {} names an unknown checker `{}`",
            exercise.id, exercise.checker
        ));
        return report;
    };
    // The cases to run, by their index in the checker's list.
    let selected: Vec<usize> = match &options.only {
        None => (0..checker.cases.len()).collect(),
        Some(names) => {
            if let Some(unknown) = names
                .iter()
                .find(|n| !checker.cases.iter().any(|c| c.name == n.as_str()))
            {
                report.error = Some(format!("the checker of {} has no case named `{unknown}`", exercise.id));
                return report;
            }
            (0..checker.cases.len())
                .filter(|&i| names.iter().any(|n| n == checker.cases[i].name))
                .collect()
        }
    };
    let target_dir = match (&options.target_dir, source) {
        (Some(dir), _) => dir.clone(),
        (None, Source::Path(dir)) => {
            let target_dir = path_target_dir(&course.root, dir);
            disk::claim_path_target_dir(&target_dir);
            target_dir
        }
        (None, _) => course_target_dir(&course.root),
    };
    let built = build::build_or_reuse(
        &course.root,
        &target,
        &crate_dir,
        &target_dir,
        options.color,
        options.cancel.as_ref(),
    );
    // Locations as the learner opens them, from where mcplings started.
    let start = crate::paths::start_dir().unwrap_or_else(|| course.root.clone());
    report.build = BuildReport {
        ok: built.ok,
        output: crate::paths::relative_in(&built.output, &start),
        duration_ms: built.duration.as_millis() as u64,
    };
    report.error = built.error.clone();
    on_event(Event::Built(report.build.clone()));

    let skip: Option<String> = match (&built.error, built.ok) {
        (Some(e), _) => Some(format!("not run: {e}")),
        (None, false) => Some("not run: the build failed; fix the compiler errors first".into()),
        _ => None,
    };
    let not_run = |index: usize, reason: &str| {
        let case = &checker.cases[selected[index]];
        CaseReport::not_run(case.name, case.about, reason)
    };
    match (skip, &built.executable) {
        (None, Some(exe)) => {
            let run = |index: usize, stop: Arc<AtomicBool>| {
                run_case(
                    checker,
                    &checker.cases[selected[index]],
                    exe,
                    exercise,
                    options,
                    &crate_dir,
                    stop,
                )
            };
            let cancel = options.cancel.as_deref();
            let cases = Cases {
                count: selected.len(),
                at_once: CASES_AT_ONCE,
                cancel,
            };
            report.cases = cases.run(&run, &not_run, on_event);
        }
        (reason, _) => {
            for index in 0..selected.len() {
                let mut reason = reason.as_deref().unwrap_or("not run");
                if options.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                    reason = CANCELLED;
                }
                let case_report = not_run(index, reason);
                on_event(Event::CaseFinished(index, Box::new(case_report.clone())));
                report.cases.push(case_report);
            }
        }
    }
    report.passed = report.error.is_none() && built.ok && report.cases.iter().all(|c| c.status == Status::Passed);
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// Runs one case in a fresh process, which `stop` ends early (the check's
/// cancel, or a hang in an earlier case); also says whether it hung (timed
/// out).
fn run_case(
    checker: &checkers::Checker,
    case: &checkers::Case,
    exe: &Path,
    exercise: &Exercise,
    options: &Options,
    crate_dir: &Path,
    stop: Arc<AtomicBool>,
) -> (CaseReport, bool) {
    let started = Instant::now();
    // One scale for the program's time arguments and the checker's bounds.
    let scale = session::slack::scale();
    let args = session::slack::scale_args(case.args, scale);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let attempt = || {
        let session = match checker.shape {
            checkers::Shape::Program => Session::spawn(exe, &args, exercise.timeout, Some(stop.clone())),
            checkers::Shape::Client => match options.relay.clone().map_or_else(std::env::current_exe, Ok) {
                Ok(relay) => Session::spawn_client(exe, &args, &relay, exercise.timeout, Some(stop.clone())),
                Err(e) => Err(Stop::Io(format!("cannot find the mcplings binary to relay with: {e}"))),
            },
            checkers::Shape::Http => Session::spawn_http(exe, &args, exercise.timeout, Some(stop.clone())),
        };
        let session = session.map(|mut s| {
            s.set_scale(scale);
            s
        });
        match session {
            Ok(mut session) => {
                let result = (case.run)(&mut session);
                (result, session.finish())
            }
            Err(stop) => (Err(Failure::from(stop)), session::Finished::default()),
        }
    };
    let (mut result, mut finished) = attempt();
    if checker.shape == checkers::Shape::Http && lost_its_port(&result, &finished.stderr) {
        // The port was free when picked, and taken (by another process)
        // before the program bound it: not the program's fault, so once more
        // on a fresh port.
        (result, finished) = attempt();
    }
    if result.is_ok() && checker.schema {
        result = schema_failure(&finished.transcript).map_or(Ok(()), Err);
    }
    let scale = finished.scale;
    let mut report = finished.into_report(case.name, case.about, started);
    report.stderr = locate_panics(&report.stderr, crate_dir);
    let mut hung = false;
    if let Err(failure) = result {
        report.window = failure.window().map(|w| report::Window::new(w, scale));
        hung = matches!(failure.stop, Some(Stop::Timeout(_) | Stop::NotReading(_)));
        let mut reason = failure.reason;
        if let Some(Stop::Exited(_)) = failure.stop {
            if let Some(panic) = panic_line(&report.stderr) {
                let todo = if panic.contains(": not yet implemented") {
                    " (a TODO still to write)"
                } else {
                    ""
                };
                reason = format!("the program panicked at {panic}{todo}");
            } else if report.stderr.contains("has overflowed its stack") {
                reason = "the program overflowed its stack and was killed: a function calls itself without end (endless recursion)".into();
            }
        }
        reason = locate_panics(&reason, crate_dir);
        if failure.stop == Some(Stop::Cancelled) {
            report.status = Status::NotRun;
        } else {
            report.status = Status::Failed;
        }
        if let (Some(e), Some(a)) = (&failure.expected, &failure.actual) {
            report.differences = diff::diff(e, a);
        }
        report.reason = Some(reason);
        report.expected = failure.expected;
        report.actual = failure.actual;
    }
    (report, hung)
}

/// Whether an HTTP program exited because its port was taken before it
/// could bind it: the harnesses say `cannot listen on 127.0.0.1:N: …`.
fn lost_its_port(result: &checkers::CaseResult, stderr: &str) -> bool {
    matches!(
        result,
        Err(Failure {
            stop: Some(Stop::Exited(_)),
            ..
        })
    ) && stderr.contains("cannot listen on 127.0.0.1:")
        && stderr.contains("in use")
}

/// A failure for the first frame in `transcript` the learner sent that
/// breaks the official types of its revision, if any.
fn schema_failure(transcript: &[TranscriptEntry]) -> Option<Failure> {
    let checked = schema::check_transcript(transcript);
    let violation = checked.violation?;
    let mut failure = Failure::new(format!(
        "a frame your program sent breaks the official MCP schema at {violation}"
    ));
    failure.actual = checked.offending;
    Some(failure)
}

/// `src/lib.rs:12:5: not yet implemented` from a Rust panic message on
/// stderr (`thread 'main' panicked at src/lib.rs:12:5:\nnot yet implemented`).
fn panic_line(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        if let Some(at) = line.split(" panicked at ").nth(1) {
            let message = lines.next().unwrap_or("").trim();
            return Some(format!("{} {message}", at.trim()));
        }
    }
    None
}

/// `text` (a reason, a program's stderr) with the location after each
/// "panicked at " (`01-encode-frames/src/lib.rs:12:5:`, which rustc names
/// relative to the crates' workspace) found from `crate_dir` and written as
/// it opens from where mcplings started: `exercises/01-encode-frames/…`
/// from the checkout's root.
fn locate_panics(text: &str, crate_dir: &Path) -> String {
    const AT: &str = "panicked at ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = rest.find(AT) {
        let start = found + AT.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push_str(&panic_location(&rest[..end], crate_dir));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `at`, a panic's `FILE:LINE:COL:` with FILE relative to the workspace
/// rustc ran in, with FILE as it opens from where mcplings started
/// (`paths::shown_from`); as it is when FILE is not found.
fn panic_location(at: &str, crate_dir: &Path) -> String {
    let mut parts = at.rsplitn(3, ':');
    let (tail, line) = (parts.next(), parts.next());
    // `FILE:LINE:COL:` splits from the end as "", "COL", "FILE:LINE".
    let (file, rest) = match (tail, line, parts.next()) {
        (Some(""), Some(col), Some(file_line)) => match file_line.rsplit_once(':') {
            Some((file, line)) => (file, format!(":{line}:{col}:")),
            None => return at.to_string(),
        },
        _ => return at.to_string(),
    };
    match (crate::paths::resolve(file, crate_dir), crate::paths::start_dir()) {
        (Some(path), Some(start)) => format!("{}{rest}", crate::paths::shown_from(&path, &start)),
        _ => at.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_panic_location_and_message() {
        let stderr = "starting\nthread 'main' panicked at src/lib.rs:12:5:\nnot yet implemented\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            panic_line(stderr).as_deref(),
            Some("src/lib.rs:12:5: not yet implemented")
        );
        assert_eq!(panic_line("all fine\n"), None);
    }

    #[test]
    fn panic_locations_open_from_where_mcplings_started() {
        // This crate's own file, as rustc names it from the workspace root
        // (where the tests start), found from a folder below it.
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let from = crate::paths::start_dir().unwrap();
        let shown = crate::paths::shown_from(&here.join("src/check.rs"), &from);
        assert_eq!(
            locate_panics("`f` panicked at src/check.rs:7:9: boom", &here.join("src/check")),
            format!("`f` panicked at {shown}:7:9: boom")
        );
        // Not found: as it is; an unlikely shape: as it is.
        let nowhere = Path::new("/nonexistent");
        let stderr = "thread 'main' panicked at 01-x/src/lib.rs:12:5:\nnot yet implemented\n";
        assert_eq!(locate_panics(stderr, nowhere), stderr);
        assert_eq!(
            locate_panics("panicked at (nowhere) x", nowhere),
            "panicked at (nowhere) x"
        );
    }

    #[test]
    fn a_port_taken_before_the_program_bound_it_is_told_apart() {
        let exited: checkers::CaseResult = Err(Failure::from(Stop::Exited(None)));
        let taken = "cannot listen on 127.0.0.1:40123: Address already in use (os error 98)\n";
        assert!(lost_its_port(&exited, taken));
        assert!(!lost_its_port(&exited, "panicked at src/lib.rs:1:1: oops\n"));
        assert!(!lost_its_port(&Err(Failure::new("wrong status")), taken));
    }
}
