//! Snapshots of every screen at 80×24, drawn on ratatui's TestBackend from
//! states reached through `App::update`, as a learner's keys would.

use mcplings::app::{App, Msg};
use mcplings::check::diff::diff;
use mcplings::check::{BuildReport, CaseReport, CheckReport, Direction, EntryKind, Status, TranscriptEntry};
use mcplings::progress::Progress;
use serde_json::json;

use crate::views_common::{course, press, screen};

fn app() -> App {
    App::new(course(), Progress::default(), (80, 24))
}

fn entry(dir: Direction, line: &str, kind: EntryKind, time_ms: u64) -> TranscriptEntry {
    let id = serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("id").cloned());
    TranscriptEntry {
        dir,
        line: line.into(),
        id,
        time_ms,
        kind,
    }
}

fn case(name: &str, status: Status) -> CaseReport {
    CaseReport {
        status,
        reason: None,
        ..CaseReport::not_run(name, "", "")
    }
}

/// A report as the id-router checker would give for a router that matches
/// responses by arrival order.
fn failing_router_report() -> CheckReport {
    let expected = json!({"harness":"reply","tag":"c2","id":2,"result":{"content":[{"type":"text","text":"30"}]}});
    let actual = json!({"harness":"reply","tag":"c1","id":2,"result":{"content":[{"type":"text","text":"30"}]}});
    let mut failing = case("out-of-order responses", Status::Failed);
    failing.about =
        "responses arriving in reverse order, with a notification between them, each reach their own call".into();
    failing.reason = Some(
        "the response with id 2 reached call c1, not c2: look the call up by the response's id, not by arrival order"
            .into(),
    );
    failing.differences = diff(&expected, &actual);
    failing.expected = Some(expected);
    failing.actual = Some(actual);
    failing.transcript = vec![
        entry(
            Direction::ToLearner,
            r#"{"harness":"call","tag":"c1","method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
            EntryKind::Harness,
            1,
        ),
        entry(
            Direction::FromLearner,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
            EntryKind::Frame,
            2,
        ),
        entry(
            Direction::ToLearner,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"30"}]}}"#,
            EntryKind::Frame,
            3,
        ),
        entry(
            Direction::FromLearner,
            r#"{"harness":"reply","tag":"c1","id":2,"result":{"content":[{"type":"text","text":"30"}]}}"#,
            EntryKind::Harness,
            3,
        ),
    ];
    failing.stderr = "routing id 2\n".into();
    let mut cases = vec![case("two calls, two ids", Status::Passed), failing];
    for name in [
        "notification not answered",
        "error reaches its call",
        "orphan logged and dropped",
        "ids never reused",
        "server ping is not a reply",
        "malformed responses invalid",
        "invalid lines dropped",
    ] {
        cases.push(case(name, Status::Passed));
    }
    CheckReport {
        format_version: 1,
        exercise: "02-id-router".into(),
        source: "exercise".into(),
        crate_dir: "exercises/02-id-router".into(),
        passed: false,
        build: BuildReport {
            ok: true,
            output: String::new(),
            duration_ms: 210,
        },
        cases,
        duration_ms: 400,
        error: None,
    }
}

#[test]
fn course_map() {
    insta::assert_snapshot!(screen(&app()));
}

#[test]
fn lesson_first_section() {
    let mut app = app();
    press(&mut app, "\nn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn lesson_results_section() {
    let mut app = app();
    press(&mut app, "\nnnn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn lesson_story_box() {
    // Part 1's null-id story: paged to until its folded line is on screen,
    // then opened with `a` (it is the first aside on screen, so in focus).
    let mut app = app();
    press(&mut app, "\nn");
    for _ in 0..20 {
        if screen(&app).contains("▸ Story · Null id as a notification (modelcontextprotocol/python-sdk#2057)") {
            break;
        }
        press(&mut app, " ");
    }
    press(&mut app, "a");
    let shown = screen(&app);
    assert!(
        shown.contains("▾ Story · Null id as a notification (modelcontextprotocol/python-sdk#2057)"),
        "{shown}"
    );
    insta::assert_snapshot!(shown);
}

#[test]
fn exercise_task_before_a_check() {
    let mut app = app();
    press(&mut app, "e");
    // The check is running: the spinner shows; the task pane is up.
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn exercise_with_a_failing_case() {
    let mut app = app();
    press(&mut app, "e");
    press(&mut app, "n"); // on to 02-id-router: check run 2
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(failing_router_report()),
    });
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn exercise_with_a_build_failure() {
    let mut app = app();
    press(&mut app, "e");
    let mut report = failing_router_report();
    report.exercise = "01-encode-frames".into();
    report.build = BuildReport {
        ok: false,
        output: "error[E0308]: mismatched types\n  --> exercises/01-encode-frames/src/lib.rs:24:9\n   |\n24 |         id\n   |         ^^ expected `Value`, found `Id`\n".into(),
        duration_ms: 190,
    };
    for c in &mut report.cases {
        *c = CaseReport::not_run(&c.name, "", "not run: the build failed; fix the compiler errors first");
    }
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(report),
    });
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn exercise_hints() {
    let mut app = app();
    press(&mut app, "eHH");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn exercise_hints_stay_after_a_check() {
    let mut app = app();
    // On 02-id-router (check run 2), two hints revealed, reading the first.
    press(&mut app, "enHHh");
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(failing_router_report()),
    });
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn quiz_after_a_wrong_answer() {
    let mut app = app();
    press(&mut app, "z");
    let question = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let wrong = (question.correct() + 1) % question.options.len();
    let letter = app.quiz_letter(wrong).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn quiz_after_the_right_answer() {
    let mut app = app();
    press(&mut app, "z");
    let question = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let letter = app.quiz_letter(question.correct()).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn help_overlay_on_the_exercise_screen() {
    let mut app = app();
    press(&mut app, "e?");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn reset_confirmation() {
    let mut app = app();
    press(&mut app, "er");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn glossary_from_the_map() {
    let mut app = app();
    press(&mut app, "t↓↓");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn glossary_from_a_lesson_at_70x20() {
    let mut app = app();
    app.update(Msg::Resize(70, 20));
    press(&mut app, "\nt");
    // Far enough down that the list scrolls.
    press(&mut app, &"j".repeat(20));
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn help_overlay_on_the_glossary() {
    let mut app = app();
    press(&mut app, "t?");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn too_small_terminal() {
    let mut app = app();
    app.update(Msg::Resize(40, 12));
    insta::assert_snapshot!(screen(&app));
    app.update(Msg::Resize(20, 10));
    insta::assert_snapshot!("too_small_terminal_20x10", screen(&app));
}

// ---------------------------------------------------------------------------
// Part 2: a legacy server exercise with two files, a client exercise, the quiz.
// ---------------------------------------------------------------------------

/// A report as the era-probe checker gives for a client that keys its
/// fallback on -32601 alone and gives up on -32602.
fn failing_probe_report() -> CheckReport {
    let mut failing = case("-32602: fall back", Status::Failed);
    failing.about = "an Invalid params answer also means legacy: the fallback is not keyed to one error code".into();
    failing.reason = Some("the client gave up (`protocol error: server/discover refused: {\"code\":-32602,\"message\":\"Invalid request parameters\"}`) where the fallback to initialize was due: after -32602 the server is legacy (only a modern error, -32020 to -32099, or a DiscoverResult would mean modern)".into());
    failing.transcript = vec![
        entry(
            Direction::FromLearner,
            r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"era-probe","version":"0.1.0"}}}}"#,
            EntryKind::Frame,
            4,
        ),
        entry(
            Direction::ToLearner,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid request parameters"}}"#,
            EntryKind::Frame,
            5,
        ),
        entry(
            Direction::FromLearner,
            r#"{"harness":"failed","error":"protocol error: server/discover refused: {\"code\":-32602,\"message\":\"Invalid request parameters\"}","incompatible":false,"offered":null}"#,
            EntryKind::Harness,
            6,
        ),
    ];
    let mut cases = Vec::new();
    for name in [
        "probe first",
        "modern server: stay modern",
        "-32022: retry at shared",
        "-32022: nothing shared",
        "-32021: modern, no fallback",
        "-32022: legacy version",
        "-32601: fall back",
    ] {
        cases.push(case(name, Status::Passed));
    }
    cases.push(failing);
    for name in [
        "any other error: fall back",
        "malformed reply: not modern",
        "malformed reply: not legacy",
        "log before the result",
        "counter-offer accepted",
        "counter-offer refused",
        "silence: fall back in time",
        "slow modern server",
    ] {
        cases.push(case(name, Status::Passed));
    }
    CheckReport {
        format_version: 1,
        exercise: "04-era-probe".into(),
        source: "exercise".into(),
        crate_dir: "exercises/04-era-probe".into(),
        passed: false,
        build: BuildReport {
            ok: true,
            output: String::new(),
            duration_ms: 180,
        },
        cases,
        duration_ms: 900,
        error: None,
    }
}

#[test]
fn part2_lesson_first_section() {
    let mut app = app();
    press(&mut app, "↓\nn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part2_server_exercise_with_two_files() {
    let mut app = app();
    press(&mut app, "↓e");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part2_client_exercise_with_a_failing_case() {
    let mut app = app();
    press(&mut app, "↓en"); // 03, then on to 04: check run 2
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(failing_probe_report()),
    });
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part2_quiz_after_a_wrong_answer() {
    let mut app = app();
    press(&mut app, "↓z");
    let question = app.course().part(2).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let wrong = (question.correct() + 1) % question.options.len();
    let letter = app.quiz_letter(wrong).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

// ---------------------------------------------------------------------------
// Part 3: the stdio codec, an HTTP server exercise, the quiz.
// ---------------------------------------------------------------------------

/// A report as the http-front-door checker gives for a server that answers
/// a notification with 200 and a body.
fn failing_http_report() -> CheckReport {
    let mut failing = case("notification: 202", Status::Failed);
    failing.about = "a POSTed notification gets 202 Accepted and an empty body".into();
    failing.reason = Some("a notification was answered with 200. Nobody waits for an answer to a notification: the server MUST return 202 Accepted with no body (2026-07-28 basic/transports/streamable-http › Sending Messages)".into());
    failing.expected = Some(json!({"status": 202, "body": "", "…": "…"}));
    failing.actual =
        Some(json!({"status": 200, "content-type": "application/json", "body": {"jsonrpc": "2.0", "result": {}}}));
    failing.differences = diff(failing.expected.as_ref().unwrap(), failing.actual.as_ref().unwrap());
    failing.transcript = vec![
        entry(
            Direction::ToLearner,
            "POST /mcp · Host: 127.0.0.1:40123 · Content-Type: application/json · Accept: application/json, text/event-stream · MCP-Protocol-Version: 2026-07-28 · Mcp-Method: notifications/cancelled · Content-Length: 84",
            EntryKind::Http,
            12,
        ),
        entry(
            Direction::ToLearner,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            EntryKind::Frame,
            12,
        ),
        entry(
            Direction::FromLearner,
            "200 · content-type: application/json",
            EntryKind::Http,
            13,
        ),
        entry(
            Direction::FromLearner,
            r#"{"jsonrpc":"2.0","result":{}}"#,
            EntryKind::Frame,
            13,
        ),
    ];
    failing.stderr = "MCP endpoint: http://127.0.0.1:40123/mcp\n".into();
    let mut cases = vec![case("POST answered with JSON", Status::Passed), failing];
    for name in [
        "only POST /mcp",
        "Mcp-Method must match",
        "Mcp-Name must match",
        "_meta fields required",
        "version header must match",
        "unsupported version",
        "unknown method: 404",
        "foreign Origin: 403",
        "base64 Mcp-Name decoded",
        "progress as an SSE stream",
    ] {
        cases.push(case(name, Status::NotRun));
    }
    CheckReport {
        format_version: 1,
        exercise: "06-http-front-door".into(),
        source: "exercise".into(),
        crate_dir: "exercises/06-http-front-door".into(),
        passed: false,
        build: BuildReport {
            ok: true,
            output: String::new(),
            duration_ms: 350,
        },
        cases,
        duration_ms: 700,
        error: None,
    }
}

#[test]
fn part3_lesson_first_section() {
    let mut app = app();
    press(&mut app, "↓↓\nn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part3_http_exercise_with_a_failing_case() {
    let mut app = app();
    press(&mut app, "↓↓en"); // 05, then on to 06: check run 2
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(failing_http_report()),
    });
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part3_quiz_after_the_right_answer() {
    let mut app = app();
    press(&mut app, "↓↓z");
    let question = app.course().part(3).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let letter = app.quiz_letter(question.correct()).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

// ---------------------------------------------------------------------------
// Part 4: the lesson, a server exercise before its first check, the quiz.
// ---------------------------------------------------------------------------

#[test]
fn part4_lesson_first_section() {
    let mut app = app();
    press(&mut app, "↓↓↓\nn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part4_tool_server_task() {
    let mut app = app();
    press(&mut app, "↓↓↓e");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part4_quiz_after_a_wrong_answer() {
    let mut app = app();
    press(&mut app, "↓↓↓z");
    let question = app.course().part(4).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let wrong = (question.correct() + 1) % question.options.len();
    let letter = app.quiz_letter(wrong).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

// ---------------------------------------------------------------------------
// Part 5, and the end of the course.
// ---------------------------------------------------------------------------

#[test]
fn part5_lesson_first_section() {
    let mut app = app();
    press(&mut app, "↓↓↓↓\nn");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn part5_quiz_after_the_right_answer() {
    let mut app = app();
    press(&mut app, "↓↓↓↓z");
    let question = app.course().part(5).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let letter = app.quiz_letter(question.correct()).unwrap().to_string();
    press(&mut app, &letter);
    insta::assert_snapshot!(screen(&app));
}

/// Every lesson read, every exercise done, every quiz question solved (all
/// but three at the first try): the map shows the learner's results.
#[test]
fn course_complete() {
    let course = course();
    let mut progress = Progress::default();
    let mut misses = 3;
    for part in &course.parts {
        progress.lesson_mut(part.number).read = true;
        for id in &part.exercises {
            progress.exercise_mut(id).done = true;
        }
        hints_for(&mut progress, part.number);
        for question in &part.quiz.as_ref().expect("every part has a quiz").questions {
            if misses > 0 {
                progress.record_pick(
                    part.number,
                    &question.id,
                    (question.correct() + 1) % question.options.len(),
                    false,
                );
                misses -= 1;
            }
            progress.record_pick(part.number, &question.id, question.correct(), true);
        }
    }
    let mut app = App::new(course, progress, (80, 24));
    assert!(app.course_complete());
    insta::assert_snapshot!(screen(&app));
    press(&mut app, "n");
    assert_eq!(app.notice(), Some("Course complete: your results are on the map."));
}

/// Two hints used in Part 2's first exercise, to show they are counted.
fn hints_for(progress: &mut Progress, part: u8) {
    if part == 2 {
        progress.exercise_mut("03-handshake-gate").hints_shown = 2;
    }
}

/// A notice too long for the footer (a damaged progress file) grows over
/// the body instead of being cut at the edge.
#[test]
fn long_notice_wraps_above_the_footer() {
    let mut app = app();
    app.update(Msg::Notice("Your progress file .mcplings/progress.json is cut off (EOF while parsing an object at line 1 column 212): a copy is kept as .mcplings/progress.json.corrupt-1796018573-855083119, and what could be read is recovered.".into()));
    insta::assert_snapshot!(screen(&app));
}

/// The map at 70 columns with an exercise that passed before and fails now
/// (02): its own mark, apart from a pass (01) and a failure never passed
/// (03), and a line saying what the mark means; the cursor on the part in
/// progress (Part 1, whose quiz is next: 02 counts as done).
#[test]
fn map_with_an_exercise_failing_now() {
    let course = course();
    let mut progress = Progress::default();
    progress.lesson_mut(1).read = true;
    for (id, done, last) in [
        ("01-encode-frames", true, (9, 9)),
        ("02-id-router", true, (4, 6)),
        ("03-handshake-gate", false, (2, 11)),
    ] {
        let entry = progress.exercise_mut(id);
        entry.done = done;
        entry.last_check = Some(last);
    }
    let app = App::new(course, progress, (70, 20));
    let shown = screen(&app);
    for line in shown.lines() {
        assert!(unicode_width::UnicodeWidthStr::width(line) <= 70, "{line}");
    }
    assert!(shown.contains("!02"), "{shown}");
    assert!(shown.contains("passed before, failing now: 02"), "{shown}");
    insta::assert_snapshot!(shown);
}

/// An exercise saved while the map is in front: what its last check said
/// may no longer hold, and the map says so until it is checked again.
#[test]
fn map_with_an_exercise_changed_since_its_last_check() {
    let course = course();
    let mut progress = Progress::default();
    progress.lesson_mut(1).read = true;
    for id in ["01-encode-frames", "02-id-router"] {
        let entry = progress.exercise_mut(id);
        entry.done = true;
        entry.last_check = Some((9, 9));
    }
    let mut app = App::new(course, progress, (70, 20));
    app.update(Msg::FileChanged("01-encode-frames".into()));
    // A file of an exercise never checked: nothing recorded to doubt.
    app.update(Msg::FileChanged("05-stdio-codec".into()));
    let shown = screen(&app);
    for line in shown.lines() {
        assert!(unicode_width::UnicodeWidthStr::width(line) <= 70, "{line}");
    }
    assert!(shown.contains("~01") && shown.contains("✓02"), "{shown}");
    assert!(shown.contains("changed since its last check: 01 (open it"), "{shown}");
    assert!(!shown.contains("~05"), "{shown}");
    insta::assert_snapshot!(shown);
}
