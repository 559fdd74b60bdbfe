//! `mcplings doctor` end to end: the reference servers 03, 07 and 11 get
//! no fail and their shipped stubs do; a small dual-era Python server
//! (`tests/doctor/server.py`) is right by default and, with `--mistake
//! NAME`, breaks exactly one rule, which the check built for it reports at
//! its level (one mutant per check); the CLI's exit codes.

use crate::common;
#[path = "../doctor/tls_front.rs"]
mod tls_front;

use std::path::PathBuf;

use assert_cmd::Command;
use mcplings::check::build::{self, Target as BuildTarget};
use mcplings::check::doctor::{self, DoctorReport, EraChoice, Options, Target, Verdict};
use mcplings::check::http::Trust;
use serde_json::json;

/// The mock server, with a mistake planted when `mistake` is not empty.
fn mock(mistake: &str) -> Target {
    let mut args = common::python3();
    let program = PathBuf::from(args.remove(0));
    args.push(common::root().join("tests/doctor/server.py").display().to_string());
    if !mistake.is_empty() {
        args.extend(["--mistake".to_string(), mistake.to_string()]);
    }
    Target { program, args }
}

/// The report in a few lines, for assertion messages.
fn summary(report: &DoctorReport) -> String {
    let mut out = format!("era {} ({}) error {:?}\n", report.era, report.detection, report.error);
    for case in &report.cases {
        out.push_str(&format!(
            "  [{:?}] {} [{}]: {}\n",
            case.verdict,
            case.case.name,
            case.id,
            case.case.reason.as_deref().or(case.note.as_deref()).unwrap_or("")
        ));
    }
    out
}

/// Builds a package of the shipped course (stubs in `exercises/`) and
/// returns its binary.
fn course_binary(package: &str) -> PathBuf {
    let course = common::built_course();
    let built = build::build(
        course.path(),
        &BuildTarget::Package(package.into()),
        // Where the CLI tests' checks build the same course copy (they set
        // CARGO_TARGET_DIR to common::course_target_dir()).
        &common::course_target_dir().join(mcplings::check::disk::COURSE_BUILDS),
        false,
        None,
    );
    assert!(built.ok, "{package} builds:\n{}", built.output);
    built.executable.expect("a binary")
}

fn run(target: &Target, options: &Options) -> DoctorReport {
    doctor::doctor(target, options)
}

#[test]
fn the_right_mock_gets_no_fail_and_no_warn() {
    let options = Options {
        calls: vec![("add".into(), json!({"a": 1, "b": 2}))],
        call_readonly: true,
        ..Options::default()
    };
    let report = run(&mock(""), &options);
    assert_eq!(report.era, "dual-era", "{}", summary(&report));
    assert_eq!((report.fails, report.warns), (0, 0), "{}", summary(&report));
    let called = report.case("tools called (legacy)").and_then(|c| c.note.clone());
    assert_eq!(
        called.as_deref(),
        Some("called add: ok, now: ok"),
        "{}",
        summary(&report)
    );
    assert!(
        report.notes.iter().any(|n| n.contains("untrusted")),
        "{:?}",
        report.notes
    );
}

// One test per reference server, so that the three run side by side.
#[test]
fn the_reference_03_gets_no_fail_and_its_stub_does() {
    reference_and_stub("03-handshake-gate");
}

#[test]
fn the_reference_07_gets_no_fail_and_its_stub_does() {
    reference_and_stub("07-tool-server");
}

#[test]
fn the_reference_11_gets_no_fail_and_its_stub_does() {
    reference_and_stub("11-capstone-server");
}

/// doctor on the course's reference solution `n` (no fail) and on its
/// shipped stub (what each stub gets is below).
fn reference_and_stub(n: &str) {
    let solution = course_binary(&format!("solution-{n}"));
    let report = run(
        &Target {
            program: solution,
            args: vec![],
        },
        &Options::default(),
    );
    assert!(
        report.error.is_none() && report.fails == 0,
        "solution {n}:\n{}",
        summary(&report)
    );
    if n.starts_with("07") {
        // One screen: at most 24 lines, none wider than 80 columns.
        let out = Command::cargo_bin("mcplings")
            .unwrap()
            .args(["doctor", "--"])
            .arg(course_binary(&format!("solution-{n}")))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(0), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() <= 24, "{} lines:\n{text}", lines.len());
        for line in &lines {
            assert!(
                unicode_width::UnicodeWidthStr::width(*line) <= 80,
                "wider than 80: {line}\n{text}"
            );
        }
        // Passes are counted per group, never listed one per line.
        let passes = report.cases.iter().filter(|c| c.verdict == Verdict::Pass).count();
        assert!(passes > 20, "{}", summary(&report));
        assert!(lines.iter().filter(|l| l.starts_with('✓')).count() <= 4, "{text}");
        assert!(!text.contains("transcript"), "{text}");
    }
    let stub = course_binary(&format!("exercise-{n}"));
    let report = run(
        &Target {
            program: stub.clone(),
            args: vec![],
        },
        &Options::default(),
    );
    if n.starts_with("03") {
        // The 03 stub panics at its first message (todo!): it never
        // answers, so doctor could not run it: exit 2, its panic quoted.
        let error = report.error.clone().unwrap_or_default();
        assert!(
            error.starts_with("could not run the server") && error.contains("not yet implemented"),
            "stub {n}:\n{}",
            summary(&report)
        );
        return;
    }
    if !n.starts_with("07") {
        assert!(report.fails > 0, "stub {n}:\n{}", summary(&report));
        return;
    }
    // The 07 stub answers only initialize: detected legacy, where its
    // refused lists are warns (2025-11-25 has no MUST for them).
    assert!(
        report.error.is_none() && report.warns > 0,
        "stub {n}:\n{}",
        summary(&report)
    );
    // Spoken to as modern only, it refuses server/discover (-32603):
    // --era names an era it does not speak, exit 2 with a hint, with
    // nothing judged beside it.
    let report = run(
        &Target {
            program: stub,
            args: vec![],
        },
        &Options {
            era: EraChoice::Modern,
            ..Options::default()
        },
    );
    let error = report.error.clone().unwrap_or_default();
    assert!(
        error.starts_with("--era modern: the server does not speak the modern era") && report.cases.is_empty(),
        "stub {n}, --era modern:\n{}",
        summary(&report)
    );
}

/// (mistake, extra options, check, verdict it gets).
type Mutant = (&'static str, fn(&mut Options), &'static str, Verdict);

fn none(_: &mut Options) {}

const MUTANTS: &[Mutant] = &[
    ("banner", none, "stdout carries only messages (legacy)", Verdict::Fail),
    ("flood", none, "era detection", Verdict::Fail),
    ("echo-future", none, "version negotiation", Verdict::Fail),
    ("no-gate", none, "requests before initialize", Verdict::Warn),
    ("ping-nonempty", none, "ping", Verdict::Fail),
    ("no-result-type", none, "server/discover", Verdict::Fail),
    ("meta-lenient", none, "_meta required", Verdict::Fail),
    ("future-accepted", none, "unsupported version", Verdict::Fail),
    ("schema-invalid", none, "tools listed (legacy)", Verdict::Fail),
    ("float-ids", none, "ids echoed (legacy)", Verdict::Fail),
    ("serves-null-id", none, "forbidden ids (legacy)", Verdict::Warn),
    ("big-ids-float", none, "ids echoed (modern)", Verdict::Warn),
    (
        "answers-notifications",
        none,
        "notifications unanswered (modern)",
        Verdict::Fail,
    ),
    ("silent-unknown", none, "unknown method (modern)", Verdict::Fail),
    ("unknown-wrong-code", none, "unknown method (legacy)", Verdict::Warn),
    // A crash is the robustness advice, not a rule about responses.
    ("crash-on-junk", none, "unparsable line (legacy)", Verdict::Warn),
    ("silent-invalid", none, "invalid request (modern)", Verdict::Warn),
    ("no-exit", none, "shutdown on EOF (legacy)", Verdict::Warn),
    // 2026-07-28 states the list MUST; 2025-11-25 does not (a warn there).
    ("list-error", none, "tools listed (modern)", Verdict::Fail),
    ("list-error", none, "tools listed (legacy)", Verdict::Warn),
    ("cursor-loop", none, "tools listed (modern)", Verdict::Warn),
    ("bad-schema", none, "tool schemas (legacy)", Verdict::Fail),
    ("read-empty", none, "resources (legacy)", Verdict::Warn),
    ("templates-error", none, "resource templates (modern)", Verdict::Warn),
    ("prompt-get-error", none, "prompts (legacy)", Verdict::Warn),
    ("ttl-string", none, "caching hints", Verdict::Fail),
    ("listen-no-ack", none, "subscriptions/listen", Verdict::Fail),
    ("listen-after-cancel", none, "subscriptions/listen", Verdict::Fail),
    // A change notification once the cancel was read (the server answered
    // a request sent after it).
    ("listen-notify-late", none, "subscriptions/listen", Verdict::Fail),
    (
        "structured-mismatch",
        |o| o.calls = vec![("add".into(), json!({"a": 1, "b": 2}))],
        "tools called (legacy)",
        Verdict::Fail,
    ),
];

/// Runs the mutants whose index modulo `of` is `group`: three groups, so
/// the test harness runs them side by side.
fn mutants(group: usize, of: usize) {
    for (i, (mistake, tweak, check, verdict)) in MUTANTS.iter().enumerate() {
        if i % of != group {
            continue;
        }
        // Only the check built for the mistake (detection always runs).
        let base = check.split(" (").next().unwrap_or(check);
        let mut options = Options {
            only: Some(vec![base.to_string()]),
            ..Options::default()
        };
        tweak(&mut options);
        let report = run(&mock(mistake), &options);
        let case = report
            .case(check)
            .unwrap_or_else(|| panic!("{mistake}: no check `{check}`:\n{}", summary(&report)));
        assert_eq!(case.verdict, *verdict, "{mistake}: `{check}`:\n{}", summary(&report));
        let rule = case.rule.expect("a warn or fail cites a rule");
        assert_eq!(Verdict::of(rule.level), *verdict, "{mistake}: the level is the rule's");
        // A crash is filed under the robustness advice, quoting no MUST.
        assert_eq!(
            rule == doctor::rules::ROBUST,
            *mistake == "crash-on-junk",
            "{mistake}: {rule:?}"
        );
        assert!(doctor::ids::ALL.iter().any(|(id, _)| *id == case.id), "{}", case.id);
        let reason = case.case.reason.as_deref().unwrap_or("");
        assert!(
            reason.contains(rule.sentence),
            "{mistake}: the reason quotes the rule: {reason}"
        );
        assert_eq!(report.passed, report.fails == 0);
    }
}

#[test]
fn each_mutant_is_caught_by_its_check_0() {
    mutants(0, 3);
}

#[test]
fn each_mutant_is_caught_by_its_check_1() {
    mutants(1, 3);
}

#[test]
fn each_mutant_is_caught_by_its_check_2() {
    mutants(2, 3);
}

#[test]
fn a_change_notification_on_its_way_before_the_cancel_was_read_is_no_fail() {
    // Sent on the open stream before the server read the cancel: stdio
    // carries it after the cancel was written, and it breaks nothing.
    let options = Options {
        only: Some(vec!["subscriptions/listen".into()]),
        ..Options::default()
    };
    let report = run(&mock("listen-notify-early"), &options);
    let case = report.case("subscriptions/listen").expect("the listen check");
    assert_eq!(case.verdict, Verdict::Pass, "{}", summary(&report));
}

#[test]
fn a_banner_fails_the_stdout_check_once_and_hides_nothing_else() {
    let report = run(&mock("banner"), &Options::default());
    assert_eq!(report.era, "dual-era", "{}", summary(&report));
    assert_eq!(report.failed_ids, ["stdout-messages"], "{}", summary(&report));
    let junk = report.case("stdout carries only messages (legacy)").unwrap();
    assert!(
        junk.case
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("mock server ready")),
        "{}",
        summary(&report)
    );
}

#[test]
fn a_hanging_server_could_not_be_run_within_a_bound() {
    let started = std::time::Instant::now();
    let options = Options {
        startup: Some(std::time::Duration::from_secs(1)),
        ..Options::default()
    };
    let report = run(&mock("hang"), &options);
    // It never answers: not a verdict but exit 2, with the hint to give a
    // slow starter more time.
    let error = report.error.clone().unwrap_or_default();
    assert!(
        error.starts_with("could not run the server") && error.contains("--startup-ms"),
        "{}",
        summary(&report)
    );
    // Two probes (discover, initialize), each waiting 1 s stretched by load.
    let bound = 2.0 * mcplings::check::session::slack::scale() + 10.0;
    assert!(started.elapsed().as_secs_f64() < bound, "{:?}", started.elapsed());
}

/// The probes find the server; every later process of it writes nothing
/// within the startup window (as an interpreter on a loaded machine):
/// nothing is shown about any rule, so nothing fails or warns. Shared, the
/// checks on the probes' processes are judged there; the others, and every
/// check with --isolated, are not verified. Each waits the startup window,
/// not the check's whole time: the legacy handshake's `initialize` and a
/// modern process's first request alike.
#[test]
fn a_slow_start_after_detection_is_not_verified_never_a_fail() {
    for isolated in [false, true] {
        slow_start_after_detection(isolated);
    }
}

fn slow_start_after_detection(isolated: bool) {
    let options = Options {
        startup: Some(std::time::Duration::from_secs(1)),
        only: Some(
            ["ping", "server/discover", "ids echoed", "resources"]
                .map(String::from)
                .to_vec(),
        ),
        isolated,
        ..Options::default()
    };
    let report = run(&mock("slow-later"), &options);
    assert_eq!(report.era, "dual-era", "{}", summary(&report));
    assert_eq!((report.fails, report.warns), (0, 0), "{}", summary(&report));
    let unverified: Vec<_> = report
        .cases
        .iter()
        .filter(|c| c.verdict == Verdict::NotVerified)
        .collect();
    // Every check asked for after the two probes, in the eras it runs
    // in: ping (legacy), server/discover (modern), ids echoed and
    // resources (both); shared, ids echoed (both) alone.
    let expected = if isolated { 1 + 1 + 2 + 2 } else { 2 };
    assert_eq!(unverified.len(), expected, "isolated {isolated}: {}", summary(&report));
    assert!(
        unverified
            .iter()
            .all(|c| c.note.as_deref().is_some_and(|n| n.contains("--startup-ms"))),
        "{}",
        summary(&report)
    );
    // Each gave up after the startup window, not the check's 15 s: its
    // first request (`initialize` in the legacy era) went unanswered
    // within 1.0 s.
    for case in &unverified {
        let note = case.note.as_deref().unwrap_or("");
        let first = if case.era == Some("legacy") {
            "`initialize`"
        } else {
            "`"
        };
        assert!(
            note.contains(&format!("no response to {first}")) && note.contains("within 1.0 s"),
            "isolated {isolated}: {}",
            summary(&report)
        );
    }
    assert!(report.passed);
}

/// Each case's (id, era, outcome): what a verdict is.
fn verdicts(report: &DoctorReport) -> Vec<(String, String, Verdict)> {
    let era = |c: &doctor::DoctorCase| c.era.unwrap_or("").to_string();
    report
        .cases
        .iter()
        .map(|c| (c.id.to_string(), era(c), c.verdict))
        .collect()
}

/// The first line doctor sent in `case`'s process: its method.
fn first_method(case: &doctor::DoctorCase) -> Option<String> {
    let first = case
        .case
        .transcript
        .iter()
        .find(|e| e.dir == mcplings::check::report::Direction::ToLearner)?;
    let frame: serde_json::Value = serde_json::from_str(&first.line).ok()?;
    frame["method"].as_str().map(String::from)
}

/// Runs doctor on `target` shared and `--isolated`: the verdicts must be
/// the same; returns both reports.
fn both_ways(label: &str, target: &Target, options: &Options) -> (DoctorReport, DoctorReport) {
    let shared = run(target, options);
    let isolated = run(
        target,
        &Options {
            isolated: true,
            ..options.clone()
        },
    );
    assert_eq!(
        verdicts(&shared),
        verdicts(&isolated),
        "{label}: shared\n{}isolated\n{}",
        summary(&shared),
        summary(&isolated)
    );
    assert_eq!(shared.error, isolated.error, "{label}");
    (shared, isolated)
}

#[test]
fn sharing_a_process_changes_no_verdict_on_the_references() {
    for n in ["07-tool-server", "11-capstone-server"] {
        let target = Target {
            program: course_binary(&format!("solution-{n}")),
            args: vec![],
        };
        both_ways(n, &target, &Options::default());
    }
}

/// How many tests share the mock's mistakes: each mistake costs two doctor
/// runs of about a second, and four tests run side by side.
const SHARING_PARTS: usize = 4;

/// The mock's mistakes that touch a shared check, in part `part` of
/// [`SHARING_PARTS`].
fn sharing_on_mistakes(part: usize) {
    let mistakes = [
        "",
        "list-error",
        "cursor-loop",
        "read-empty",
        "templates-error",
        "prompt-get-error",
        "bad-schema",
        "crash-on-junk",
        "hang",
        "answers-notifications",
        "banner",
        "listen-after-cancel",
        "listen-notify-late",
        "listen-notify-early",
    ];
    for mistake in mistakes.iter().skip(part).step_by(SHARING_PARTS) {
        let options = Options {
            // `hang` never answers: not waiting 10 s stretched by load twice.
            startup: Some(std::time::Duration::from_secs(if *mistake == "hang" { 1 } else { 10 })),
            ..Options::default()
        };
        let (shared, isolated) = both_ways(mistake, &mock(mistake), &options);
        let case = |r: &DoctorReport, name: &str| {
            r.case(name)
                .cloned()
                .unwrap_or_else(|| panic!("{mistake}: no `{name}`:\n{}", summary(r)))
        };
        match *mistake {
            // Shared for real: the legacy resources check ran after the
            // handshake of another, in isolation after its own.
            "" => {
                let (one, own) = (
                    case(&shared, "resources (legacy)"),
                    case(&isolated, "resources (legacy)"),
                );
                assert_eq!(
                    first_method(&one).as_deref(),
                    Some("resources/list"),
                    "{}",
                    summary(&shared)
                );
                assert_eq!(
                    first_method(&own).as_deref(),
                    Some("initialize"),
                    "{}",
                    summary(&isolated)
                );
                // stdout judged on the shared process too: no handshake of
                // its own.
                let stdout = case(&shared, "stdout carries only messages (legacy)");
                assert_eq!(stdout.verdict, Verdict::Pass, "{}", summary(&shared));
                assert_ne!(
                    first_method(&stdout).as_deref(),
                    Some("initialize"),
                    "{}",
                    summary(&shared)
                );
                assert!(first_method(&stdout).is_some(), "{}", summary(&shared));
            }
            // A banner read past on the shared process (the probe's) fails
            // stdout in a process of its own, which reads nothing past.
            "banner" => {
                for era in ["legacy", "modern"] {
                    let stdout = case(&shared, &format!("stdout carries only messages ({era})"));
                    assert_eq!(stdout.verdict, Verdict::Fail, "{}", summary(&shared));
                    assert_eq!(
                        stdout.case.transcript[0].dir,
                        mcplings::check::report::Direction::FromLearner,
                        "{era}: the banner first"
                    );
                }
            }
            // A warn found on the shared process is the warn of a run in a
            // process of its own: its transcript opens with the handshake.
            "list-error" => {
                let warned = case(&shared, "tools listed (legacy)");
                assert_eq!(warned.verdict, Verdict::Warn, "{}", summary(&shared));
                assert_eq!(
                    first_method(&warned).as_deref(),
                    Some("initialize"),
                    "{}",
                    summary(&shared)
                );
            }
            _ => {}
        }
    }
}

#[test]
fn sharing_a_process_changes_no_verdict_on_the_mock_0() {
    sharing_on_mistakes(0);
}

#[test]
fn sharing_a_process_changes_no_verdict_on_the_mock_1() {
    sharing_on_mistakes(1);
}

#[test]
fn sharing_a_process_changes_no_verdict_on_the_mock_2() {
    sharing_on_mistakes(2);
}

#[test]
fn sharing_a_process_changes_no_verdict_on_the_mock_3() {
    sharing_on_mistakes(3);
}

/// Starts an HTTP server (`command` given a free loopback port) and
/// waits until it listens; the child and its URL. One server starts at a
/// time: a port is free when picked and taken only when the server binds
/// it, and two tests given the same port in between would both find one
/// server listening, the other's. A server that exited (its port taken
/// after all) is started again on another port.
fn serve(command: impl Fn(u16) -> std::process::Command) -> (std::process::Child, String) {
    static STARTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _alone = STARTING.lock().unwrap_or_else(|e| e.into_inner());
    for _ in 0..3 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = command(port)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let mut exited = child.try_wait().unwrap();
        while exited.is_none() && std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed().as_secs() < 20, "the HTTP server never listened");
            std::thread::sleep(std::time::Duration::from_millis(20));
            exited = child.try_wait().unwrap();
        }
        if exited.is_none() {
            return (child, format!("http://127.0.0.1:{port}/mcp"));
        }
    }
    panic!("the HTTP server exited three times before it listened");
}

/// Starts an HTTP server binary with `--port N`.
fn serve_http(binary: &std::path::Path) -> (std::process::Child, String) {
    serve(|port| {
        let mut command = std::process::Command::new(binary);
        command.args(["--port", &port.to_string()]);
        command
    })
}

/// An HTTP mock, `tests/doctor/<script>` (`http_server.py`, modern;
/// `http_legacy_server.py`, session-based), with `mistake` planted.
fn serve_mock(script: &str, mistake: &str) -> (std::process::Child, String) {
    serve(|port| {
        let python = common::python3();
        let mut command = std::process::Command::new(&python[0]);
        command
            .args(&python[1..])
            .arg(common::root().join("tests/doctor").join(script))
            .arg(port.to_string());
        if !mistake.is_empty() {
            command.args(["--mistake", mistake]);
        }
        command
    })
}

/// The right `script` gets no fail and no warn in `era`; each mutant
/// (mistake, check, verdict) gets its verdict from its check, with a rule
/// quoted in the reason and never one of another era's revision.
fn http_mutants(script: &str, era: &str, mutants: &[(&str, &str, Verdict)]) {
    let (mut server, url) = serve_mock(script, "");
    let report = doctor::doctor_url(&url, &Options::default());
    let _ = server.kill();
    assert_eq!(report.era, era, "{}", summary(&report));
    assert_eq!(
        (report.fails, report.warns),
        (0, 0),
        "the right {script}:\n{}",
        summary(&report)
    );
    let other = if era == "legacy" { "2026" } else { "2025" };
    for &(mistake, check, verdict) in mutants {
        let (mut server, url) = serve_mock(script, mistake);
        let report = doctor::doctor_url(&url, &Options::default());
        let _ = server.kill();
        let case = report
            .case(check)
            .unwrap_or_else(|| panic!("{mistake}: no check `{check}`:\n{}", summary(&report)));
        assert_eq!(case.verdict, verdict, "{mistake}: `{check}`:\n{}", summary(&report));
        let rule = case.rule.expect("a warn or fail cites a rule");
        assert!(
            case.case.reason.as_deref().unwrap_or("").contains(rule.sentence),
            "{mistake}"
        );
        assert!(
            !rule.revision.starts_with(other),
            "{mistake}: an {era} session cites {}",
            rule.revision
        );
    }
}

#[test]
fn over_http_each_mutant_is_caught_by_its_check() {
    http_mutants(
        "http_server.py",
        "modern",
        &[
            ("discover-500", "server/discover", Verdict::Fail),
            ("no-result-type", "server/discover", Verdict::Fail),
            ("meta-200", "_meta required", Verdict::Fail),
            ("future-200", "unsupported version", Verdict::Fail),
            ("unknown-200", "unknown method", Verdict::Fail),
            ("notification-200", "notification: 202", Verdict::Fail),
            ("origin-ignored", "foreign Origin: 403", Verdict::Fail),
            ("float-ids", "ids echoed", Verdict::Fail),
            ("big-ids-float", "ids echoed", Verdict::Warn),
            ("not-json-200", "body not JSON", Verdict::Warn),
            ("bad-schema", "tool schemas", Verdict::Fail),
            ("method-header-ignored", "Mcp-Method header: 400", Verdict::Fail),
            ("name-header-ignored", "Mcp-Name header: 400", Verdict::Fail),
            ("cache-scope-bad", "caching hints", Verdict::Fail),
        ],
    );
}

#[test]
fn over_http_the_reference_06_gets_no_fail_and_its_stub_does() {
    let options = Options {
        calls: vec![("echo".into(), json!({"text": "hi"}))],
        ..Options::default()
    };
    let (mut server, url) = serve_http(&course_binary("solution-06-http-front-door"));
    let report = doctor::doctor_url(&url, &options);
    let _ = server.kill();
    assert_eq!(report.era, "modern", "{}", summary(&report));
    assert_eq!((report.fails, report.warns), (0, 0), "{}", summary(&report));
    // Era detection, 10 HTTP checks, 3 of tools and the caching hints;
    // resources and prompts, not declared, left out.
    assert_eq!(report.cases.len(), 15, "{}", summary(&report));
    let (mut server, url) = serve_http(&course_binary("exercise-06-http-front-door"));
    let report = doctor::doctor_url(&url, &options);
    let _ = server.kill();
    assert!(report.fails > 0, "{}", summary(&report));
    let unreachable = doctor::doctor_url("http://127.0.0.1:1/mcp", &options);
    assert!(unreachable.error.is_some_and(|e| e.contains("cannot reach")));
}

/// The modern HTTP mock serving legacy sessions too (`--dual`), with
/// `mistake` planted.
fn serve_dual(mistake: &str) -> (std::process::Child, String) {
    serve(|port| {
        let python = common::python3();
        let mut command = std::process::Command::new(&python[0]);
        command
            .args(&python[1..])
            .arg(common::root().join("tests/doctor/http_server.py"))
            .arg(port.to_string())
            .arg("--dual");
        if !mistake.is_empty() {
            command.args(["--mistake", mistake]);
        }
        command
    })
}

#[test]
fn over_http_a_dual_era_server_is_checked_in_both_eras() {
    let (mut server, url) = serve_dual("");
    let report = doctor::doctor_url(&url, &Options::default());
    let modern = doctor::doctor_url(
        &url,
        &Options {
            era: EraChoice::Modern,
            ..Options::default()
        },
    );
    let _ = server.kill();
    assert_eq!(report.era, "dual-era", "{}", summary(&report));
    assert_eq!((report.fails, report.warns), (0, 0), "{}", summary(&report));
    // A check of both eras carries its era; one of an era alone does not.
    for name in [
        "ids echoed (modern)",
        "ids echoed (legacy)",
        "initialize",
        "no session id: 400",
        "Mcp-Method header: 400",
        "body not JSON (legacy)",
        "body not JSON (modern)",
    ] {
        assert!(report.case(name).is_some(), "no `{name}`:\n{}", summary(&report));
    }
    // --era modern: the modern era alone, as before.
    assert_eq!(modern.era, "modern", "{}", summary(&modern));
    assert!(modern.case("initialize").is_none(), "{}", summary(&modern));
    // A mistake of the legacy era is found without --era legacy.
    let (mut server, url) = serve_dual("session-forever");
    let report = doctor::doctor_url(&url, &Options::default());
    let _ = server.kill();
    let ended = report.case("ended session: 404");
    assert_eq!(ended.map(|c| c.verdict), Some(Verdict::Fail), "{}", summary(&report));
}

#[test]
fn over_legacy_http_each_mutant_is_caught_by_its_check() {
    http_mutants(
        "http_legacy_server.py",
        "legacy",
        &[
            ("bad-session-id", "initialize", Verdict::Fail),
            ("echo-future", "version negotiation", Verdict::Fail),
            ("ping-nonempty", "ping", Verdict::Fail),
            ("text-plain", "ping", Verdict::Fail),
            ("notification-200", "notification: 202", Verdict::Fail),
            ("session-lenient", "no session id: 400", Verdict::Warn),
            ("session-forever", "ended session: 404", Verdict::Fail),
            ("version-lenient", "version header: 400", Verdict::Fail),
            ("origin-ignored", "foreign Origin: 403", Verdict::Fail),
            ("float-ids", "ids echoed", Verdict::Fail),
            ("big-ids-float", "ids echoed", Verdict::Warn),
            ("unknown-wrong-code", "unknown method", Verdict::Warn),
            ("list-error", "tools listed", Verdict::Warn),
            ("not-json-202", "body not JSON", Verdict::Warn),
        ],
    );
}

/// The official Python SDK (mcp 2.3.0) serving Streamable HTTP, when
/// `$MCPLINGS_SDK_PYTHON` (or `target/interop-venv`, which `.ci/interop/run.sh`
/// makes) has it; skipped plainly otherwise, unless `$MCPLINGS_SDK_REQUIRED`.
#[test]
fn over_http_the_python_sdk_server_gets_no_fail() {
    let python = std::env::var_os("MCPLINGS_SDK_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/interop-venv/bin/python"));
    let has_sdk = std::process::Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_sdk {
        // CI sets MCPLINGS_SDK_REQUIRED once run.sh has made the venv.
        assert!(
            std::env::var_os("MCPLINGS_SDK_REQUIRED").is_none(),
            "no python with mcp at {}",
            python.display()
        );
        eprintln!("skipped: no python with mcp at {}", python.display());
        return;
    }
    let (mut server, url) = serve(|port| {
        let mut command = std::process::Command::new(&python);
        command
            .arg(common::root().join(".ci/interop/sdk_server.py"))
            .args(["--http-port", &port.to_string()]);
        command
    });
    let report = doctor::doctor_url(&url, &Options::default());
    assert!(report.error.is_none(), "{}", summary(&report));
    assert_eq!(report.fails, 0, "{}", summary(&report));
    // Dual-era over HTTP: its legacy sessions too.
    let legacy = Options {
        era: EraChoice::Legacy,
        ..Options::default()
    };
    let report = doctor::doctor_url(&url, &legacy);
    let _ = server.kill();
    assert_eq!(report.era, "legacy", "{}", summary(&report));
    assert_eq!(report.fails, 0, "{}", summary(&report));
}

#[test]
fn over_https_the_reference_06_gets_no_fail_with_its_certificate_trusted() {
    /// Kills the server however the test ends.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let (server, url) = serve_http(&course_binary("solution-06-http-front-door"));
    let _server = Killed(server);
    let backend = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap();
    let front = tls_front::start(backend);
    let dir = tempfile::tempdir().unwrap();
    let pem = dir.path().join("cert.pem");
    std::fs::write(&pem, &front.pem).unwrap();
    let options = Options {
        calls: vec![("echo".into(), json!({"text": "hi"}))],
        trust: Trust::from_pem_file(&pem).unwrap(),
        ..Options::default()
    };
    let report = doctor::doctor_url(&front.url, &options);
    assert_eq!(report.era, "modern", "{}", summary(&report));
    assert_eq!((report.fails, report.warns), (0, 0), "{}", summary(&report));
    // Era detection, 10 HTTP checks, 3 of tools and the caching hints;
    // resources and prompts, not declared, left out.
    assert_eq!(report.cases.len(), 15, "{}", summary(&report));
    // Untrusted (Mozilla's roots only): exit 2, one sentence naming it.
    let doctor = |args: &[&str]| {
        Command::cargo_bin("mcplings")
            .unwrap()
            .arg("doctor")
            .args(args)
            .output()
            .unwrap()
    };
    let untrusted = doctor(&["--url", &front.url]);
    let text = String::from_utf8_lossy(&untrusted.stdout).into_owned();
    assert_eq!(untrusted.status.code(), Some(2), "{text}");
    assert!(text.contains("not signed by an authority this client trusts"), "{text}");
    let trusted = doctor(&["--url", &front.url, "--cacert", pem.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&trusted.stdout).into_owned();
    assert_eq!(trusted.status.code(), Some(0), "{text}");
    // A --cacert that holds no certificate.
    std::fs::write(&pem, "not a certificate").unwrap();
    let bad = doctor(&["--url", &front.url, "--cacert", pem.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("holds no certificate"));
}

/// Markdown as plain text: no bold, links as their text, one space.
fn plain(text: &str) -> String {
    let mut out = text.replace("**", "");
    // [text](target) and [text][ref] become text.
    while let Some(open) = out.find("](").or_else(|| out.find("][")) {
        let Some(start) = out[..open].rfind('[') else { break };
        let close_char = if out[open..].starts_with("](") { ')' } else { ']' };
        let Some(end) = out[open + 2..].find(close_char).map(|e| open + 2 + e) else {
            break;
        };
        out = format!("{}{}{}", &out[..start], &out[start + 1..open], &out[end + 1..]);
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every file under `dir` ending in `.mdx`, as one plain text.
fn spec_text(dir: &std::path::Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            text.push_str(&spec_text(&path));
        } else if path.extension().is_some_and(|e| e == "mdx") {
            text.push_str(&plain(&std::fs::read_to_string(&path).unwrap()));
            text.push(' ');
        }
    }
    text
}

#[test]
fn every_cited_sentence_is_in_the_specification() {
    // The specification text: $MCP_SPEC_DIR, else ../shared/mcp-spec beside
    // the checkout, else /work/shared/mcp-spec (as .ci/schema_dir.sh looks
    // for the schemas). Skipped without it, like the schema tests, except
    // where $MCPLINGS_SPEC_REQUIRED is set (.ci/run sets it).
    let candidates = [
        std::env::var_os("MCP_SPEC_DIR").map(PathBuf::from),
        Some(common::root().join("../shared/mcp-spec")),
        Some(PathBuf::from("/work/shared/mcp-spec")),
    ];
    let Some(dir) = candidates.into_iter().flatten().find(|d| d.join("2026-07-28").is_dir()) else {
        assert!(
            std::env::var_os("MCPLINGS_SPEC_REQUIRED").is_none(),
            "no specification text: set MCP_SPEC_DIR to the folder holding <revision>/*.mdx"
        );
        eprintln!("skipped: no specification text (set MCP_SPEC_DIR)");
        return;
    };
    let texts: Vec<(&str, String)> = ["2025-11-25", "2026-07-28"]
        .into_iter()
        .map(|rev| (rev, spec_text(&dir.join(rev))))
        .collect();
    let quoted = |revision: &str, section: &str, sentence: &str| {
        let text = &texts
            .iter()
            .find(|(rev, _)| *rev == revision)
            .expect("a known revision")
            .1;
        for part in sentence.split("...").map(str::trim) {
            assert!(text.contains(&plain(part)), "{revision} {section}: not found: {part}");
        }
    };
    let holds = |rule: &doctor::Rule| quoted(rule.revision, rule.section, rule.sentence);
    // The rules doctor cannot observe (doctor --rules) are quoted too.
    for unseen in doctor::unobservable::UNOBSERVABLE {
        quoted(unseen.revision, unseen.section, unseen.sentence);
    }
    // Every rule of the table (doctor --rules) is one of rules::ALL, below.
    for row in doctor::table::CHECKED {
        assert!(doctor::rules::ALL.contains(&row.rule), "{:?}", row.rule);
    }
    for rule in doctor::rules::ALL {
        if !rule.revision.starts_with("20") {
            continue; // JSON-RPC 2.0, RFC 8259
        }
        holds(rule);
        // As each era's session cites it: from that era's own text, or a
        // rule of the other era only (doctor's debug build asserts a
        // finding never cites another revision than its session's).
        for (revision, _) in &texts {
            let cited = doctor::rules::for_revision(rule, revision);
            if cited.revision == *revision {
                holds(cited);
            }
        }
    }
}

#[test]
fn every_quote_binds_the_server_at_its_level() {
    use doctor::Level;
    for rule in doctor::rules::ALL {
        if rule.is_advice() {
            assert_eq!(rule.level, Level::Warn, "{rule:?}");
            assert!(!rule.sentence.contains("MUST"), "advice quotes no MUST: {rule:?}");
            continue;
        }
        // A fail quotes a MUST; a warn never does.
        assert_eq!(rule.sentence.contains("MUST"), rule.level == Level::Fail, "{rule:?}");
        // Sentences that bind the client or the sender, never the server.
        for other in [
            "client SHOULD",
            "client MUST",
            "Requests MUST include",
            "Implementations SHOULD establish",
            "MUST be the first interaction",
        ] {
            assert!(!rule.sentence.contains(other), "{rule:?}");
        }
    }
}

#[test]
fn exit_codes() {
    let server = common::root().join("tests/doctor/server.py");
    let doctor = |args: &[&str]| {
        Command::cargo_bin("mcplings")
            .unwrap()
            .arg("doctor")
            .args(args)
            .output()
            .unwrap()
    };
    let python = common::python3();
    let right = doctor(&["--", &python[0], &python[1], server.to_str().unwrap()]);
    assert_eq!(
        right.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&right.stdout)
    );
    let text = String::from_utf8_lossy(&right.stdout);
    assert!(text.contains("era: dual-era"), "{text}");
    let wrong = doctor(&[
        "--json",
        "--",
        &python[0],
        &python[1],
        server.to_str().unwrap(),
        "--mistake",
        "ping-nonempty",
    ]);
    assert_eq!(wrong.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&wrong.stdout).unwrap();
    assert_eq!(report["fails"], json!(1), "{report:#}");
    // In a server's terms (docs/doctor.md): directions to and from the
    // server, `outcome` and no `status`, an era on every check but
    // detection.
    let cases = report["cases"].as_array().unwrap();
    for case in cases {
        assert!(case.get("status").is_none(), "{case:#}");
        assert_eq!(case["era"].is_null(), case["id"] == "era-detection", "{case:#}");
        for line in case["transcript"].as_array().unwrap() {
            assert!(
                ["to_server", "from_server"].contains(&line["dir"].as_str().unwrap()),
                "{line}"
            );
        }
    }
    let missing = doctor(&["--", "/nonexistent/mcp-server"]);
    assert_eq!(missing.status.code(), Some(2));
    let text = String::from_utf8_lossy(&missing.stdout);
    assert!(
        text.contains("cannot start `/nonexistent/mcp-server`: no such file"),
        "{text}"
    );
    // On PATH: where to look.
    let unknown = doctor(&["--", "mcplings-no-such-server", "--flag"]);
    let text = String::from_utf8_lossy(&unknown.stdout);
    assert_eq!(unknown.status.code(), Some(2), "{text}");
    assert!(text.contains("no such program on PATH"), "{text}");
    // --call naming a tool the server does not list: the report, then exit 2.
    let typo_run = |extra: &[&str]| {
        let mut args = extra.to_vec();
        args.extend([
            "--call",
            "ad={}",
            "--",
            &python[0],
            &python[1],
            server.to_str().unwrap(),
        ]);
        doctor(&args)
    };
    let typo = typo_run(&[]);
    let said = String::from_utf8_lossy(&typo.stderr);
    assert_eq!(typo.status.code(), Some(2), "{said}");
    assert!(said.contains("does not list: ad"), "{said}");
    let text = String::from_utf8_lossy(&typo.stdout);
    assert!(
        text.contains("`ad`: not listed, not called (did you mean `add`?)"),
        "{text}"
    );
    // The same in JSON: not passed, the usage error named.
    let typo = typo_run(&["--json"]);
    assert_eq!(typo.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&typo.stdout).unwrap();
    assert_eq!(report["passed"], json!(false), "{report:#}");
    assert!(report["usage"].as_str().is_some_and(|u| u.contains("ad")), "{report:#}");
    assert_eq!(doctor(&[]).status.code(), Some(2));
    assert_eq!(doctor(&["--era", "future", "--", "true"]).status.code(), Some(2));

    // A server that exits before its first answer could not be run: exit 2
    // with its stderr, and nothing judged (no ✓) beside it.
    let dead = doctor(&["--", "sh", "-c", "echo 'config missing: NOTES_TOKEN' >&2; exit 3"]);
    let text = String::from_utf8_lossy(&dead.stdout);
    assert_eq!(dead.status.code(), Some(2), "{text}");
    assert!(text.contains("could not run the server"), "{text}");
    assert!(text.contains("config missing: NOTES_TOKEN"), "{text}");
    assert!(!text.contains('✓'), "{text}");
    // --era naming an era the server does not speak: exit 2 with a hint.
    let server = server.to_str().unwrap();
    for (era, mistake, said) in [
        (
            "modern",
            "legacy-only",
            "--era modern: the server does not speak the modern era",
        ),
        (
            "legacy",
            "modern-only",
            "--era legacy: the server does not speak the legacy era",
        ),
    ] {
        let out = doctor(&["--era", era, "--", &python[0], &python[1], server, "--mistake", mistake]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(text.contains(said) && text.contains("leave --era out"), "{text}");
    }
}

#[test]
fn the_rules_flag_prints_the_table_as_text_and_json() {
    let run = |args: &[&str]| {
        Command::cargo_bin("mcplings")
            .unwrap()
            .arg("doctor")
            .args(args)
            .output()
            .unwrap()
    };
    let text = run(&["--rules"]);
    assert_eq!(text.status.code(), Some(0));
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    for line in text.lines() {
        assert!(unicode_width::UnicodeWidthStr::width(line) <= 80, "{line}");
    }
    // A check, its rule quoted, and a rule doctor cannot observe with why.
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.lines().any(|l| l == "http-method-header-400 (http)"), "{text}");
    assert!(
        joined.contains("Servers MUST provide a `ttlMs` value that is `>= 0`.\""),
        "{text}"
    );
    assert!(
        joined.contains("why: doctor holds no token issued for the server"),
        "{text}"
    );
    let json = run(&["--rules", "--json"]);
    assert_eq!(json.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rules = json["rules"].as_array().unwrap();
    assert_eq!(rules.len(), doctor::table::CHECKED.len());
    assert!(
        rules
            .iter()
            .any(|r| r["checks"] == json!(["caching-hints"]) && r["level"] == "fail"),
        "{json:#}"
    );
    assert_eq!(
        json["unobservable"].as_array().map(Vec::len),
        Some(doctor::unobservable::UNOBSERVABLE.len())
    );
    // It runs no server: a command beside it is a usage error.
    assert_eq!(run(&["--rules", "--", "true"]).status.code(), Some(2));
}

/// A verdict that depends on a window tells it as it was: the JSON keeps
/// the reason as the check wrote it, the same under any load, with the
/// nominal window and the stretch as fields; the text names the window
/// stretched, then the nominal one and the factor.
#[test]
fn a_window_stretched_by_load_is_told_and_kept_apart_from_the_reason() {
    let mock = mock("silent-unknown");
    let doctor = |scale: &str, json: bool| {
        let mut command = Command::cargo_bin("mcplings").unwrap();
        // The modern era alone (the case read is modern, and every window
        // of the other era would stretch too), each check in a process of
        // its own (on the shared one the case would fail, then wait its
        // window again alone).
        command
            .env("MCPLINGS_TIME_SCALE", scale)
            .args(["doctor", "--era", "modern", "--isolated"]);
        if json {
            command.arg("--json");
        }
        let out = command.arg("--").arg(&mock.program).args(&mock.args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let unknown = |report: &serde_json::Value| -> serde_json::Value {
        report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "unknown-method" && c["era"] == "modern")
            .cloned()
            .unwrap()
    };
    let quiet_report: serde_json::Value = serde_json::from_str(&doctor("1", true)).unwrap();
    let loaded_report: serde_json::Value = serde_json::from_str(&doctor("3", true)).unwrap();
    // The run as a whole says its windows were stretched (a passing check
    // names no window), and a quiet run says nothing of it.
    let stretch_notes = |report: &serde_json::Value| -> Vec<String> {
        let notes = report["notes"].as_array().unwrap().iter();
        notes
            .filter_map(|n| n.as_str())
            .filter(|n| n.contains("stretched"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(stretch_notes(&quiet_report), Vec::<String>::new());
    let notes = stretch_notes(&loaded_report);
    assert!(
        notes.len() == 1 && notes[0].contains("stretched ×3 by MCPLINGS_TIME_SCALE"),
        "{notes:?}"
    );
    let (quiet, loaded) = (unknown(&quiet_report), unknown(&loaded_report));
    assert_eq!(quiet["reason"], loaded["reason"]);
    let reason = loaded["reason"].as_str().unwrap();
    assert!(reason.contains("within 1.0 s. "), "{reason}");
    assert_eq!(quiet["window"], json!({"nominal_ms": 1000, "scale": 1.0}));
    assert_eq!(loaded["window"], json!({"nominal_ms": 1000, "scale": 3.0}));
    let text = doctor("3", false).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        text.contains("within 3.0 s (the 1.0 s window, stretched ×3 by the machine's load). Every request"),
        "{text}"
    );
}
