//! Hostile programs: hangs, junk on stdout, crashes, early exits, compile
//! errors.

use std::path::Path;
use std::time::{Duration, Instant};

use mcplings::check::Status;

use crate::common::{check_dir, mutant, summary};
use crate::helpers::{ENCODE, ROUTER, assert_caught, assert_failed, check_mutant};

/// A function that never returns: the case fails within the case timeout
/// plus a small margin, the program is killed, and later cases don't run.
#[test]
fn hostile_function_loops_forever() {
    let scratch = crate::common::scratch_dir("mutant-01-hang");
    let pid_file = scratch.join("pid");
    let find = "pub fn encode_request(id: &Id, method: &str, params: Option<Value>) -> String {\n";
    let replace = format!(
        "{find}    std::fs::write({:?}, std::process::id().to_string()).unwrap();\n    loop {{\n        std::thread::sleep(std::time::Duration::from_millis(20));\n    }}\n    #[allow(unreachable_code)]\n",
        pid_file.display().to_string()
    );
    let dir = mutant(ENCODE, "mutant-01-hang", &[("src/lib.rs", find, &replace)]);
    let started = Instant::now();
    let report = check_dir(ENCODE, dir.path());
    let checking = started
        .elapsed()
        .saturating_sub(Duration::from_millis(report.build.duration_ms));
    assert_caught(&report);
    assert_failed(&report, "request frame", &["no answer within 3.0 s", "stuck"]);
    assert!(
        report.cases[0]
            .reason
            .as_deref()
            .unwrap()
            .starts_with("no answer within"),
        "{}",
        summary(&report)
    );
    let hung = &report.cases[0];
    // The verdict names the case's window as written (3 s), the report keeps
    // the stretch beside it, and the reason told names both when it
    // stretched.
    let window = hung.window.expect("a timeout names its window");
    assert_eq!(window.nominal_ms, 3000);
    let told = hung.reason_told().unwrap();
    if window.stretched() {
        let stretched = format!(
            "no answer within {:.1} s (the 3.0 s window, stretched ×",
            window.actual_ms() as f64 / 1000.0
        );
        assert!(told.starts_with(&stretched), "{told}");
    } else {
        assert_eq!(Some(told), hung.reason.clone());
    }
    // The session stretches its deadline on a loaded machine (session/slack.rs).
    let scale = mcplings::check::session::slack::scale();
    assert!(
        hung.duration_ms >= 2900 && hung.duration_ms < (6000.0 * scale) as u64,
        "the hung case took {} ms",
        hung.duration_ms
    );
    assert!(
        checking < Duration::from_secs(6).mul_f64(scale),
        "checking (without the build) took {checking:?}"
    );
    for case in &report.cases[1..] {
        assert_eq!(case.status, Status::NotRun, "{}", summary(&report));
        assert!(
            case.reason.as_deref().unwrap_or("").contains("an earlier case hung"),
            "{}",
            summary(&report)
        );
    }
    // The stuck process was killed, not left behind.
    let pid = std::fs::read_to_string(&pid_file).expect("the mutant ran and wrote its pid");
    if cfg!(target_os = "linux") {
        let proc = Path::new("/proc").join(pid.trim());
        assert!(!proc.exists(), "the stuck program (pid {pid}) is still running");
    }
}

/// Debug output on stdout: the reason says the line is not JSON and that
/// debug output belongs on stderr.
#[test]
fn hostile_debug_println_on_stdout() {
    let find = "pub fn classify(line: &str) -> Kind {\n";
    let replace = format!("{find}    println!(\"classify got: {{line}}\");\n");
    let report = check_mutant(ENCODE, "mutant-01-println", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "classify the four frames",
        &["stdout line 1 is not JSON", "`classify got: ", "stderr", "eprintln!"],
    );
    assert_eq!(
        report.cases.iter().find(|c| c.name == "request frame").unwrap().status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// `main` panics before reading anything: every case fails and says where.
#[test]
fn hostile_main_panics_at_start() {
    let find = "fn main() {\n";
    let replace = "fn main() {\n    if std::env::args().len() < 1000 {\n        panic!(\"cannot start: config missing\");\n    }\n";
    let report = check_mutant(ROUTER, "mutant-02-main-panics", &[("src/main.rs", find, replace)]);
    assert_caught(&report);
    for case in &report.cases {
        assert_failed(
            &report,
            &case.name,
            &[
                "the program panicked at ",
                "src/main.rs:",
                "cannot start: config missing",
            ],
        );
    }
}

/// `main` returns at once with status 0.
#[test]
fn hostile_main_exits_at_once() {
    let find = "fn main() {\n";
    let replace = "fn main() {\n    if std::env::args().len() < 1000 {\n        return;\n    }\n";
    let report = check_mutant(ROUTER, "mutant-02-main-exits", &[("src/main.rs", find, replace)]);
    assert_caught(&report);
    for case in &report.cases {
        assert_failed(&report, &case.name, &["exited before answering", "keep reading stdin"]);
    }
}

/// A missing semicolon: the build fails, its output shows the error, and
/// no case runs.
#[test]
fn hostile_compile_error() {
    let find = "frame.insert(\"id\".into(), id.to_json());";
    let replace = "frame.insert(\"id\".into(), id.to_json())";
    let report = check_mutant(ENCODE, "mutant-01-compile-error", &[("src/lib.rs", find, replace)]);
    assert!(report.error.is_none(), "{}", summary(&report));
    assert!(!report.build.ok, "{}", summary(&report));
    assert!(!report.passed);
    assert!(
        report.build.output.contains("error"),
        "build output: {}",
        report.build.output
    );
    assert!(
        report.build.output.contains("src/lib.rs"),
        "build output: {}",
        report.build.output
    );
    assert!(!report.cases.is_empty());
    for case in &report.cases {
        assert_eq!(case.status, Status::NotRun, "{}", summary(&report));
        assert!(
            case.reason.as_deref().unwrap_or("").contains("the build failed"),
            "{}",
            summary(&report)
        );
    }
}

/// Endless recursion ends in a stack overflow (SIGABRT). The reason only
/// says "the program was killed by a signal before answering"; the cause,
/// "has overflowed its stack", is on stderr but not in the reason.
#[test]
fn hostile_endless_recursion() {
    let find = "Value::Array(_) => return invalid(\"a batch: batches were removed in 2025-06-18\"),";
    let replace = "Value::Array(_) => return classify(line),";
    let report = check_mutant(ENCODE, "mutant-01-recursion", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "invalid lines are named", &["overflowed its stack"]);
}
