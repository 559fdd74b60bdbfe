//! End-to-end tests of the `mcplings` binary.
//!
//! Every test that writes files or progress runs on its own copy of the
//! course in a tempdir (`--root`), building into one shared folder under
//! the target dir (`common::course_target_dir`), never the learner's own.
//! Tests that build share one copy at a stable place
//! (`common::built_course()`, reset to the shipped course for each test,
//! with the build lock held): cargo keys its records by package name, so
//! two live copies would be taken one for the other, and a stable copy
//! lets a warm run find its crates built.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::cmd::{at, bin, mcplings, run};
use serde_json::Value;

const PART1: &str = "lessons/01-json-rpc-messages";
const ENCODE: &str = "01-encode-frames";

/// Text with every run of whitespace turned into one space (undoes wrapping).
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn read_toml(path: &Path) -> toml::Table {
    toml::from_str(&fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each question of Part 1's quiz: (index of the correct option, the
/// options' explanations), read from quiz.toml itself.
fn quiz_answers(root: &Path) -> Vec<(usize, Vec<String>)> {
    let quiz = read_toml(&root.join(PART1).join("quiz.toml"));
    quiz["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let options = q["options"].as_array().unwrap();
            let correct = options
                .iter()
                .position(|o| o["correct"].as_bool() == Some(true))
                .expect("a correct option");
            (
                correct,
                options
                    .iter()
                    .map(|o| o["explanation"].as_str().unwrap_or("").to_string())
                    .collect(),
            )
        })
        .collect()
}

fn hints(root: &Path) -> Vec<String> {
    let exercises = read_toml(&root.join(PART1).join("exercises.toml"));
    let first = &exercises["exercises"].as_array().unwrap()[0];
    assert_eq!(first["id"].as_str(), Some(ENCODE));
    first["hints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect()
}

fn progress_file(root: &Path) -> PathBuf {
    root.join(".mcplings").join("progress.json")
}

fn exercise_entry(list: &Value, id: &str) -> Value {
    list["parts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["exercises"].as_array().unwrap().iter())
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no exercise {id} in {list:#}"))
        .clone()
}

// ---------------------------------------------------------------------------
// list and lesson
// ---------------------------------------------------------------------------

#[test]
fn list_prints_parts_and_exercises() {
    let course = common::course_copy();
    let r = at(course.path(), &["list"]);
    assert_eq!(r.code, 0, "{r:?}");
    for text in [
        "Model Context Protocol from the ground up",
        "Part 1 · JSON-RPC messages",
        "01-encode-frames",
        "02-id-router",
        "Part 2 · Lifecycle in two eras",
        "03-handshake-gate",
        "04-era-probe",
        "Part 3 · Transports",
        "05-stdio-codec",
        "06-http-front-door",
        "12-auth-gate",
        "Part 4 · What a server offers",
        "08-pagination-walker",
        "Part 5 · Long calls and asking back",
        "10-input-required",
        "11-capstone-server",
        "0 of 12 exercises done.",
    ] {
        assert!(r.stdout.contains(text), "missing {text:?}: {r:?}");
    }
}

/// `list` shows where the learner stands as the workbook's map does, from
/// the one definition (progress::Standing): an exercise whose change was
/// checked is tried (✗), one never checked is not started (·) even with a
/// hint shown; a lesson with a section shown is being read; a quiz with one
/// answer is tried.
#[test]
fn list_shows_the_standing_the_map_shows() {
    let course = common::course_copy();
    let file = mcplings::progress::path(course.path());
    mcplings::progress::update(&file, |p| {
        p.exercise_mut(ENCODE).last_check = Some((2, 8));
        p.exercise_mut("02-id-router").hints_shown = 1;
        p.lesson_mut(1).place = Some(mcplings::progress::LessonPlace {
            section: "Requests".into(),
            block: 2,
            line: 0,
        });
    })
    .unwrap();
    let list = at(course.path(), &["list", "--json"]).json();
    assert_eq!(exercise_entry(&list, ENCODE)["standing"], "tried");
    assert_eq!(exercise_entry(&list, ENCODE)["done"], false);
    assert_eq!(exercise_entry(&list, "02-id-router")["standing"], "not-started");
    assert_eq!(list["parts"][0]["lesson"], "tried");
    assert_eq!(list["parts"][0]["lesson_read"], false);
    assert_eq!(list["parts"][0]["quiz"]["standing"], "not-started");
    let r = at(course.path(), &["list"]);
    assert!(r.stdout.contains("✗ 01-encode-frames"), "{r:?}");
    assert!(r.stdout.contains("· 02-id-router"), "{r:?}");
    assert!(r.stdout.contains("lesson: reading"), "{r:?}");
    assert!(r.stdout.contains("  quiz: not started ("), "{r:?}");
}

#[test]
fn list_json_has_a_stable_shape() {
    let course = common::course_copy();
    let r = at(course.path(), &["list", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let list = r.json();
    assert_eq!(list["format_version"], 1);
    assert!(list["title"].is_string());
    let parts = list["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 5);
    for (i, part) in parts.iter().enumerate() {
        assert_eq!(part["number"], i + 1, "{part:#}");
        assert!(
            part["title"].is_string() && part["written"].is_boolean() && part["lesson_read"].is_boolean(),
            "{part:#}"
        );
        assert!(part["exercises"].is_array(), "{part:#}");
    }
    assert_eq!(parts[0]["written"], true);
    assert!(parts.iter().all(|p| p["written"] == true), "{parts:#?}");
    let questions = quiz_answers(course.path()).len();
    assert_eq!(
        parts[0]["quiz"],
        serde_json::json!({"standing": "not-started", "questions": questions, "answered": 0, "first_try": 0})
    );
    let ids: Vec<&str> = parts[0]["exercises"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [ENCODE, "02-id-router"]);
    for e in parts[0]["exercises"].as_array().unwrap() {
        assert!(e["title"].is_string(), "{e:#}");
        assert_eq!(e["done"], false, "{e:#}");
        assert_eq!(e["edited"], false, "{e:#}");
        assert!(e["last_check"].is_null(), "{e:#}");
    }
}

#[test]
fn lesson_1_prints_its_title_and_sections() {
    // A copy: a lesson printed to its end is recorded as read.
    let course = common::course_copy();
    let r = at(course.path(), &["lesson", "1"]);
    assert_eq!(r.code, 0, "{r:?}");
    let source = fs::read_to_string(common::root().join(PART1).join("lesson.md")).unwrap();
    let title = source
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .expect("lesson.md has a # title");
    assert_eq!(
        r.stdout.lines().next(),
        Some(title),
        "the first line is the lesson's title"
    );
    assert!(title.starts_with("Part 1"), "{title}");
    let headings: Vec<&str> = source.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    assert!(headings.len() >= 3, "{headings:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    for heading in headings {
        let heading = heading.replace('`', "");
        assert!(
            lines.contains(&format!("## {heading}").as_str()),
            "section heading {heading:?} missing from:\n{}",
            r.stdout
        );
    }
}

#[test]
fn lesson_1_draws_a_story_as_a_box_with_full() {
    // A copy: a lesson printed to its end is recorded as read.
    let course = common::course_copy();
    let r = at(course.path(), &["lesson", "1", "--full"]);
    assert_eq!(r.code, 0, "{r:?}");
    let source = fs::read_to_string(common::root().join(PART1).join("lesson.md")).unwrap();
    let reference = source
        .lines()
        .find_map(|l| l.strip_prefix("> [!story] "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("Part 1 tells a story");
    // The head names the kind, then the label and the reference.
    let top = "▾ Story · ";
    let lines: Vec<&str> = r.stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(top) && l.contains(&format!("({reference})")))
        .unwrap_or_else(|| panic!("no {top:?} in:\n{}", r.stdout));
    let body = lines[at + 1..]
        .iter()
        .position(|l| l.starts_with("│ "))
        .expect("the box's bar");
    assert!(
        lines[at + 1..=at + 1 + body]
            .iter()
            .all(|l| l.starts_with(' ') || l.starts_with('│')),
        "{:?}",
        &lines[at..]
    );
    assert!(lines[at..].contains(&"╰─"), "the box closes");
    assert!(!r.stdout.contains("[!story]"), "the marker is not printed");
    assert!(!r.stdout.contains("Asides are folded"), "{r:?}");
}

/// Words as one run: wrapping, indents and an open aside's bars taken out.
fn run_of_words(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn lesson_1_folds_each_aside_to_its_label_and_full_opens_them() {
    // A copy: a lesson printed to its end is recorded as read.
    let course = common::course_copy();
    let short = at(course.path(), &["lesson", "1"]);
    let full = at(course.path(), &["lesson", "1", "--full"]);
    assert_eq!((short.code, full.code), (0, 0), "{short:?}\n{full:?}");
    assert!(
        short.stdout.lines().count() < full.stdout.lines().count(),
        "{} lines folded, {} open",
        short.stdout.lines().count(),
        full.stdout.lines().count()
    );
    assert!(
        short
            .stdout
            .contains("Asides are folded (▸ …): `mcplings lesson 1 --full` prints them open.")
    );
    let lesson = common::course().part(1).unwrap().lesson.as_ref().unwrap();
    let asides: Vec<_> = lesson.sections.iter().flat_map(|s| s.asides()).collect();
    assert!(!asides.is_empty(), "Part 1 has asides");
    let (short, full) = (run_of_words(&short.stdout), run_of_words(&full.stdout));
    for aside in asides {
        let title = mcplings::text::aside_title(aside);
        assert!(
            short.contains(&run_of_words(&format!("▸ {title}"))),
            "{title} folded:\n{short}"
        );
        assert!(full.contains(&run_of_words(&format!("▾ {title}"))), "{title} open");
        // The first words of its first paragraph: in the open form only.
        let body = aside
            .blocks
            .iter()
            .find_map(|b| match b {
                mcplings::content::lesson::Block::Paragraph(inlines) => {
                    Some(inlines.iter().map(|i| i.text.as_str()).collect::<String>())
                }
                _ => None,
            })
            .expect("an aside with a paragraph");
        let start = run_of_words(&body).split(' ').take(8).collect::<Vec<_>>().join(" ");
        assert!(full.contains(&start), "{start:?} in the open form");
        assert!(!short.contains(&start), "{start:?} not in the folded form");
    }
}

#[test]
fn verify_stats_prints_core_and_aside_words_and_each_exercises_reading() {
    let r = run(bin().args(["--root"]).arg(common::root()).args(["verify", "--stats"]));
    let out = &r.stdout;
    let row = |what: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(what))
            .unwrap_or_else(|| panic!("no row `{what}`: {r:?}"))
    };
    // Each part's row: core, asides, prose (their sum), the limit and what it counts.
    let figures = |line: &str| -> Vec<usize> { line.split_whitespace().filter_map(|w| w.parse().ok()).collect() };
    for (what, limit) in [
        ("Part 1 · opening (", "700 core"),
        ("Part 1 · JSON-RPC messages", "1800 core"),
        ("Part 2 · ", "2200 core"),
        ("Part 3 · Transports", "3000 core"),
        ("Part 4 · ", "2200 core"),
        ("Part 5 · ", "2200 core"),
    ] {
        let line = row(what);
        assert!(line.contains(limit), "{line}");
        let n = figures(line.split_once(" · ").unwrap().1);
        let [core, asides, prose, ..] = n[..] else {
            panic!("{line}")
        };
        assert_eq!(core + asides, prose, "{line}");
    }
    // Every exercise in course order; Part 1's held to 1,500 new words.
    let ids: Vec<&str> = common::course().exercises.iter().map(|e| e.id.as_str()).collect();
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| ids.contains(w))
        .collect();
    assert_eq!(listed, ids, "{r:?}");
    assert!(row("01-encode-frames").contains(" 1500  "), "{r:?}");
    assert!(row("03-handshake-gate").contains(" 1500  "), "{r:?}");
    assert!(row("12-auth-gate").contains(" 1500  "), "{r:?}");
    assert!(row("07-tool-server").contains(" 1500  "), "{r:?}");
    assert!(!out.contains("not enforced yet"), "every part is in layers: {r:?}");
    assert_eq!(r.code, 0, "every part and exercise within its limit: {r:?}");
    assert!(out.contains("every part and exercise within its limit"), "{r:?}");
    // --stats counts words; it runs no exercise proofs.
    assert!(!out.contains("verify:"), "{r:?}");
}

#[test]
fn lesson_9_does_not_exist() {
    let r = run(bin().args(["--root"]).arg(common::root()).args(["lesson", "9"]));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no part 9"), "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
}

// ---------------------------------------------------------------------------
// check
// ---------------------------------------------------------------------------

#[test]
fn check_of_the_stub_fails_with_a_json_report() {
    let course = common::built_course();
    let r = at(course.path(), &["check", "01", "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let report = r.json();
    assert_eq!(report["format_version"], 1);
    assert_eq!(report["exercise"], ENCODE);
    assert_eq!(report["source"], "exercise");
    assert_eq!(report["passed"], false);
    assert_eq!(report["build"]["ok"], true, "{report:#}");
    assert!(report.get("error").is_none(), "{report:#}");
    let stub = fs::read_to_string(course.path().join(PART1).join("stubs").join(ENCODE).join("src/lib.rs")).unwrap();
    let stub_lines: Vec<&str> = stub.lines().collect();
    let cases = report["cases"].as_array().unwrap();
    assert!(cases.len() >= 11, "{report:#}");
    let mut failed = 0;
    let mut transcript_lines = 0;
    for case in cases {
        let status = case["status"]
            .as_str()
            .unwrap_or_else(|| panic!("a case without status: {case:#}"));
        assert!(["passed", "failed", "not_run"].contains(&status), "{case:#}");
        assert!(case["name"].is_string() && case["about"].is_string(), "{case:#}");
        for entry in case["transcript"].as_array().unwrap() {
            assert!(
                ["to_learner", "from_learner"].contains(&entry["dir"].as_str().unwrap_or("")),
                "{entry:#}"
            );
            assert!(entry["line"].is_string(), "{entry:#}");
            assert!(entry["time_ms"].is_u64(), "{entry:#}");
            transcript_lines += 1;
        }
        if status != "failed" {
            continue;
        }
        failed += 1;
        // "`encode_request` panicked at 01-encode-frames/src/lib.rs:59:5:
        // not yet implemented: encode a request (a TODO still to write)"
        let reason = case["reason"]
            .as_str()
            .unwrap_or_else(|| panic!("a failed case without reason: {case:#}"));
        let function = reason
            .strip_prefix('`')
            .and_then(|r| r.split_once('`'))
            .map(|(f, _)| f)
            .unwrap_or_else(|| panic!("no function named: {reason}"));
        assert!(
            stub.contains(&format!("pub fn {function}(")),
            "`{function}` is not a function of src/lib.rs: {reason}"
        );
        // The path opens as printed from where mcplings started (this
        // test's directory): rustc wrote it relative to the crates'
        // workspace root (exercises/Cargo.toml).
        let location = reason
            .split_once(" panicked at ")
            .unwrap_or_else(|| panic!("no location: {reason}"))
            .1;
        let (path, location) = location.split_once(':').unwrap();
        assert!(
            path.ends_with("exercises/01-encode-frames/src/lib.rs") && Path::new(path).is_file(),
            "not a location in src/lib.rs, as it opens from here: {reason}"
        );
        let line: usize = location
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("no line number: {reason}"));
        let source_line = stub_lines.get(line - 1).copied().unwrap_or("");
        assert!(
            source_line.contains("todo!") || source_line.contains("panic!") || source_line.contains("expect("),
            "{reason} points at `{source_line}`"
        );
        assert!(reason.contains("not yet implemented"), "{reason}");
    }
    assert!(failed > 0, "{report:#}");
    assert!(transcript_lines > 0, "no case has a transcript: {report:#}");

    // The check of the learner's crate is recorded: not done, and the count.
    let list = at(course.path(), &["list", "--json"]).json();
    let entry = exercise_entry(&list, ENCODE);
    assert_eq!(entry["done"], false);
    assert_eq!(
        entry["last_check"],
        serde_json::json!({"passed": cases.len() - failed, "total": cases.len()})
    );

    // The same check as text says what to do next.
    let r = at(course.path(), &["check", "01"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("✗ request frame"), "{r:?}");
    assert!(
        words(&r.stdout).contains("Edit exercises/01-encode-frames/src/lib.rs and run `mcplings check 01` again."),
        "{r:?}"
    );
    common::cmd::assert_fits_80(&r, "check 01 (failing)");
    assert_eq!(
        r.stdout.lines().last(),
        Some("The task again: `mcplings task 01`."),
        "a failing check ends pointing at the task: {r:?}"
    );
}

#[test]
fn check_of_the_solution_passes() {
    let course = common::built_course();
    let r = at(course.path(), &["check", "01", "--solution", "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let report = r.json();
    assert_eq!(report["passed"], true);
    assert_eq!(report["source"], "solution");
    let cases = report["cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    assert!(
        cases
            .iter()
            .all(|c| c["status"] == "passed" && c.get("reason").is_none()),
        "{report:#}"
    );
    // A check of the solution is not progress.
    assert!(
        !progress_file(course.path()).exists(),
        "checking the solution wrote progress"
    );
}

#[test]
fn check_accepts_the_slug_and_the_full_id() {
    let course = common::built_course();
    for name in ["encode-frames", "01-encode-frames"] {
        let r = at(course.path(), &["check", name, "--solution", "--json"]);
        assert_eq!(r.code, 0, "check {name}: {r:?}");
        assert_eq!(r.json()["exercise"], ENCODE);
    }
}

#[test]
fn check_of_an_unknown_exercise_lists_the_exercises() {
    let course = common::course_copy();
    let r = at(course.path(), &["check", "nope"]);
    assert_eq!(r.code, 2, "{r:?}");
    for text in ["nope", ENCODE, "02-id-router"] {
        assert!(r.stderr.contains(text), "missing {text:?}: {r:?}");
    }
}

#[test]
fn check_with_solution_and_path_is_a_usage_error() {
    let course = common::course_copy();
    let r = at(course.path(), &["check", "01", "--solution", "--path", "x"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("cannot be used with"), "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
}

/// A learner's copy of exercise 01 elsewhere has the exercise's own package
/// name. Checking it with --path must not make cargo take the copy's binary
/// for the exercise's, or the other way round.
#[test]
fn a_path_copy_with_the_same_package_name_does_not_shadow_the_exercise() {
    let course = common::built_course();
    // A fixed place outside any workspace, so its dependencies compile once,
    // not on every run; files rewritten only when changed, so a warm run
    // finds it built.
    let copy = std::env::temp_dir().join("mcplings-test-path-copy-of-01");
    for (path, bytes) in common::tree_files(&course.path().join("exercises").join(ENCODE)) {
        common::write_if_changed(&copy.join(path), &bytes);
    }
    let source_lock = fs::read(course.path().join("exercises/Cargo.lock")).unwrap();
    for (path, bytes) in common::lockfile(&copy, &source_lock) {
        common::write_if_changed(&copy.join(path), &bytes);
    }
    let solution = fs::read(course.path().join("solutions").join(ENCODE).join("src/lib.rs")).unwrap();
    common::write_if_changed(&copy.join("src/lib.rs"), &solution);
    assert_eq!(at(course.path(), &["check", "01"]).code, 1, "the stub fails first");
    let r = at(course.path(), &["check", "01", "--path", copy.to_str().unwrap()]);
    assert_eq!(r.code, 0, "the copy holds the solution: {r:?}");
    let r = at(course.path(), &["check", "01", "--json"]);
    assert_eq!(r.code, 1, "the stub must still fail after its copy passed: {r:?}");
    assert!(r.stdout.contains("not yet implemented"), "{r:?}");
}

#[test]
fn check_of_a_path_records_no_progress() {
    let course = common::built_course();
    let find = "pub fn encode_notification(method: &str, params: Option<Value>) -> String {\n    let mut frame = Map::new();\n";
    let replace = format!("{find}    frame.insert(\"id\".into(), Value::Null);\n");
    let crate_dir = common::mutant(ENCODE, "cli-mutant-01-null-id", &[("src/lib.rs", find, &replace)]);
    let r = at(
        course.path(),
        &["check", "01", "--path", crate_dir.path().to_str().unwrap(), "--json"],
    );
    assert_eq!(r.code, 1, "{r:?}");
    let report = r.json();
    assert_eq!(report["source"], "path");
    assert_eq!(report["build"]["ok"], true, "{report:#}");
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "notification has no id")
        .unwrap();
    assert_eq!(case["status"], "failed", "{case:#}");
    assert!(!progress_file(course.path()).exists(), "checking --path wrote progress");
    let entry = exercise_entry(&at(course.path(), &["list", "--json"]).json(), ENCODE);
    assert!(entry["last_check"].is_null() && entry["done"] == false, "{entry:#}");
}

#[test]
fn a_passing_check_marks_the_exercise_done() {
    let course = common::built_course();
    let root = course.path();
    fs::copy(
        root.join("solutions").join(ENCODE).join("src/lib.rs"),
        root.join("exercises").join(ENCODE).join("src/lib.rs"),
    )
    .unwrap();
    let r = at(root, &["check", "01"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("cases pass."), "{r:?}");
    assert!(words(&r.stdout).contains("Exercise 01-encode-frames is done."), "{r:?}");
    common::cmd::assert_fits_80(&r, "check 01 (passing)");
    let list = at(root, &["list", "--json"]).json();
    let entry = exercise_entry(&list, ENCODE);
    assert_eq!(entry["done"], true, "{entry:#}");
    assert_eq!(entry["edited"], true, "{entry:#}");
    let total = entry["last_check"]["total"].as_u64().unwrap();
    assert!(total >= 11 && entry["last_check"]["passed"] == total, "{entry:#}");
    assert_eq!(exercise_entry(&list, "02-id-router")["done"], false);
    assert!(at(root, &["list"]).stdout.contains("✓ 01-encode-frames"));
}

// ---------------------------------------------------------------------------
// hint and reset
// ---------------------------------------------------------------------------

#[test]
fn hint_reveals_one_more_hint_each_time() {
    let course = common::course_copy();
    let hints = hints(course.path());
    let n = hints.len();
    assert!(n >= 3, "{hints:?}");
    let first = at(course.path(), &["hint", "01"]);
    assert_eq!(first.code, 0, "{first:?}");
    assert!(first.stdout.contains(&format!("Hint 1 of {n}:")), "{first:?}");
    assert!(words(&first.stdout).contains(&words(&hints[0])), "{first:?}");
    assert!(!first.stdout.contains("Hint 2 of"), "{first:?}");
    let second = at(course.path(), &["hint", "01"]);
    assert_eq!(second.code, 0, "{second:?}");
    assert!(
        second.stdout.contains(&format!("Hint 1 of {n}:")) && second.stdout.contains(&format!("Hint 2 of {n}:")),
        "{second:?}"
    );
    assert!(words(&second.stdout).contains(&words(&hints[1])), "{second:?}");
    assert!(!second.stdout.contains("Hint 3 of"), "{second:?}");
}

#[test]
fn hint_all_rereads_the_revealed_hints_and_reveals_nothing() {
    let course = common::course_copy();
    let n = hints(course.path()).len();
    let none = at(course.path(), &["hint", "01", "--all"]);
    assert_eq!(none.code, 0, "{none:?}");
    assert!(!none.stdout.contains("Hint 1 of"), "{none:?}");
    assert!(none.stdout.contains("No hint revealed yet"), "{none:?}");
    at(course.path(), &["hint", "01"]);
    for _ in 0..2 {
        let again = at(course.path(), &["hint", "01", "--all"]);
        assert_eq!(again.code, 0, "{again:?}");
        assert!(again.stdout.contains(&format!("Hint 1 of {n}:")), "{again:?}");
        assert!(!again.stdout.contains("Hint 2 of"), "{again:?}");
    }
}

#[test]
fn reset_with_yes_restores_the_stub_byte_for_byte() {
    let course = common::course_copy();
    let lib = course.path().join("exercises").join(ENCODE).join("src/lib.rs");
    fs::write(&lib, "// my half-finished work\n").unwrap();
    let r = at(course.path(), &["reset", "01", "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    let stub = fs::read(course.path().join(PART1).join("stubs").join(ENCODE).join("src/lib.rs")).unwrap();
    assert_eq!(fs::read(&lib).unwrap(), stub, "lib.rs is not the shipped stub");
    assert_eq!(
        exercise_entry(&at(course.path(), &["list", "--json"]).json(), ENCODE)["edited"],
        false
    );
}

#[test]
fn reset_without_yes_and_without_a_terminal_changes_nothing() {
    let course = common::course_copy();
    let lib = course.path().join("exercises").join(ENCODE).join("src/lib.rs");
    fs::write(&lib, "// my half-finished work\n").unwrap();
    let r = at(course.path(), &["reset", "01"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--yes"), "{r:?}");
    assert_eq!(fs::read_to_string(&lib).unwrap(), "// my half-finished work\n");
}

// ---------------------------------------------------------------------------
// quiz
// ---------------------------------------------------------------------------

#[test]
fn quiz_explains_a_wrong_answer_and_scores_first_tries_only() {
    let course = common::course_copy();
    let answers = quiz_answers(course.path());
    let quiz = read_toml(&course.path().join(PART1).join("quiz.toml"));
    let ids: Vec<&str> = quiz["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["id"].as_str().unwrap())
        .collect();
    // The options are shuffled: with a fixed seed, the letter of the option
    // at file index `i` of question `n` is known.
    const SEED: u64 = 7;
    let letter = |n: usize, i: usize| {
        let order = mcplings::content::quiz::shuffled_order(SEED, ids[n], answers[n].1.len());
        mcplings::content::quiz::LETTERS[order.iter().position(|&o| o == i).unwrap()]
    };
    let (right, explanations) = &answers[0];
    let wrong = (0..explanations.len()).find(|i| i != right).unwrap();
    let mut input = format!("{}\n{}\n", letter(0, wrong), letter(0, *right));
    for (n, (right, _)) in answers.iter().enumerate().skip(1) {
        input.push_str(&format!("{}\n", letter(n, *right)));
    }
    let r = run(mcplings(course.path())
        .env(mcplings::content::quiz::SEED_VAR, SEED.to_string())
        .arg("quiz")
        .arg("1")
        .write_stdin(input));
    assert_eq!(r.code, 0, "{r:?}");
    // In order: the mark for the wrong pick, its explanation, the mark for
    // the right pick, its explanation. (An explanation may itself start
    // with the mark's word, which the front end may or may not repeat.)
    let out = words(&r.stdout);
    // Line mode shows a code span bare, as the workbook does: no backticks.
    assert!(!r.stdout.contains('`'), "backticks in line mode: {r:?}");
    let bare = |e: &str| {
        words(
            e.replace('`', "")
                .trim_start_matches("Right.")
                .trim_start_matches("Not quite."),
        )
    };
    let find_after = |from: usize, text: &str| {
        out[from..]
            .find(text)
            .map(|i| from + i)
            .unwrap_or_else(|| panic!("no {text:?} after byte {from} of:\n{out}"))
    };
    let not_quite = find_after(0, "✗ Not quite.");
    let why_not = find_after(not_quite, &bare(&explanations[wrong]));
    let right_mark = find_after(why_not, "✓ Right.");
    find_after(right_mark, &bare(&explanations[*right]));
    assert!(
        out[..not_quite].find("✓ Right.").is_none(),
        "the wrong pick was marked right: {r:?}"
    );
    let total = answers.len();
    assert!(
        r.stdout
            .contains(&format!("Done: {} of {total} right at the first try.", total - 1)),
        "{r:?}"
    );
    let list = at(course.path(), &["list", "--json"]).json();
    assert_eq!(
        list["parts"][0]["quiz"],
        serde_json::json!({"standing": "done", "questions": total, "answered": total, "first_try": total - 1})
    );
}

// ---------------------------------------------------------------------------
// verify
// ---------------------------------------------------------------------------

#[test]
fn verify_passes_on_the_shipped_course() {
    let course = common::built_course();
    let r = at(course.path(), &["verify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("passed, 0 failed"), "{r:?}");
    for id in [
        ENCODE,
        "02-id-router",
        "03-handshake-gate",
        "04-era-probe",
        "05-stdio-codec",
        "06-http-front-door",
        "07-tool-server",
        "08-pagination-walker",
        "09-progress-cancel",
        "10-input-required",
        "11-capstone-server",
        "12-auth-gate",
    ] {
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(id))
            .unwrap_or_else(|| panic!("no line for {id}: {r:?}"));
        assert!(
            line.contains("stub fails") && line.contains("solution passes"),
            "{line}"
        );
    }
}

// ---------------------------------------------------------------------------
// progress file and bare invocation
// ---------------------------------------------------------------------------

#[test]
fn a_corrupt_progress_file_is_kept_and_list_still_works() {
    let course = common::course_copy();
    let file = progress_file(course.path());
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, "{\"format_version\": 1, \"exerc").unwrap();
    let r = at(course.path(), &["list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("Part 1 · JSON-RPC messages"), "{r:?}");
    assert!(
        r.stderr.contains(".corrupt-"),
        "the warning should say where the file was kept: {r:?}"
    );
    let backups: Vec<PathBuf> = fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert_eq!(
        fs::read_to_string(&backups[0]).unwrap(),
        "{\"format_version\": 1, \"exerc"
    );
}

#[test]
fn bare_mcplings_without_a_terminal_points_to_list() {
    let course = common::course_copy();
    let r = run(bin().current_dir(course.path()));
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("mcplings list"), "{r:?}");
}

/// A server whose initialize result breaks the official schema (serverInfo
/// without `version`) is told where, in the plain report and in --json.
#[test]
fn a_frame_that_breaks_the_schema_is_named_by_its_path() {
    let course = common::built_course();
    let gate = course.path().join("exercises/03-handshake-gate");
    for file in ["src/lib.rs", "src/main.rs"] {
        fs::copy(
            course.path().join("solutions/03-handshake-gate").join(file),
            gate.join(file),
        )
        .unwrap();
    }
    let lib = fs::read_to_string(gate.join("src/lib.rs")).unwrap();
    let broken = lib.replace(
        r#""serverInfo": {"name": "handshake-gate", "version": "0.1.0"},"#,
        r#""serverInfo": {"name": "handshake-gate"},"#,
    );
    assert_ne!(lib, broken, "the solution's serverInfo line moved");
    fs::write(gate.join("src/lib.rs"), broken).unwrap();
    let said = "breaks the official MCP schema at result.serverInfo: missing `version` (InitializeResult, 2025-11-25)";
    let r = at(course.path(), &["check", "03", "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let report = r.json();
    let reasons: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["reason"].as_str())
        .collect();
    assert!(reasons.iter().any(|r| r.contains(said)), "{reasons:#?}");
    let r = at(course.path(), &["check", "03"]);
    assert!(words(&r.stdout).contains(said), "{r:?}");
}

/// `clean` removes what checks built (the exercises' builds, `--path`
/// builds, verify's scratch stubs) and keeps the app's own build.
#[test]
fn clean_removes_check_builds_and_keeps_the_app() {
    let target = tempfile::tempdir().unwrap();
    let files = [
        "exercises/debug/deps/libserde_json.rlib",
        "mcplings-path/copy-0123456789abcdef/debug/copy",
        "mcplings-verify/debug/stub-01-encode-frames",
        "release/mcplings",
    ];
    for file in files {
        let path = target.path().join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, vec![b'x'; 2_000_000]).unwrap();
    }
    let mut cmd = mcplings(&common::root());
    cmd.env("CARGO_TARGET_DIR", target.path()).arg("clean");
    let r = run(&mut cmd);
    assert_eq!(r.code, 0, "{r:?}");
    for dir in ["exercises", "mcplings-path", "mcplings-verify"] {
        assert!(!target.path().join(dir).exists(), "{dir} is left: {r:?}");
        assert!(r.stdout.contains(&format!("{dir} (2.0 MB)")), "{r:?}");
    }
    assert!(r.stdout.contains("freed 6.0 MB"), "{r:?}");
    assert!(target.path().join("release/mcplings").is_file());
    let r = run(&mut cmd);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("nothing to clean in "), "{r:?}");
}

// ---------------------------------------------------------------------------
// glossary
// ---------------------------------------------------------------------------

#[test]
fn glossary_prints_a_term_and_names_the_closest_to_an_unknown_one() {
    let r = at(&common::root(), &["glossary", "Progress Tokens"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("progress token\n"), "{r:?}");
    assert!(r.stdout.contains("Taught in") && r.stdout.contains("Spec"), "{r:?}");
    let all = at(&common::root(), &["glossary"]);
    assert_eq!(all.code, 0, "{all:?}");
    assert!(all.stdout.lines().all(|l| l.chars().count() <= 80), "{all:?}");
    let r = at(&common::root(), &["glossary", "tol"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no term `tol`. Closest: tool"), "{r:?}");
}

/// A panic's location and a compiler message's open as printed from where
/// mcplings was started: the checkout's root, or the exercise's folder.
#[test]
fn locations_open_from_where_mcplings_started() {
    let course = common::built_course();
    let root = course.path().to_path_buf();
    let crate_dir = root.join("exercises/01-encode-frames");
    let starts = [
        (root.clone(), "exercises/01-encode-frames/src/lib.rs:"),
        (crate_dir.clone(), "src/lib.rs:"),
    ];
    let check = |dir: &Path| {
        let r = run(bin().current_dir(dir).args(["check", "01", "--json"]));
        assert_eq!(r.code, 1, "{r:?}");
        r.json()
    };
    // The stub panics (todo!): the reason and stderr name the place.
    for (dir, shown) in &starts {
        let report = check(dir);
        let case = &report["cases"][0];
        let reason = case["reason"].as_str().unwrap_or("");
        assert!(reason.contains(&format!(" panicked at {shown}")), "{reason}");
        let location = reason.split(" panicked at ").nth(1).unwrap().split(':').next().unwrap();
        assert!(
            dir.join(location).is_file(),
            "{location} does not open from {}",
            dir.display()
        );
    }
    // A compile error: the compiler's `-->` line.
    let lib = crate_dir.join("src/lib.rs");
    let mut text = fs::read_to_string(&lib).unwrap();
    text.push_str("\nfn broken() -> u8 {\n    \"not a number\"\n}\n");
    fs::write(&lib, text).unwrap();
    for (dir, shown) in &starts {
        let report = check(dir);
        let output = report["build"]["output"].as_str().unwrap_or("");
        assert!(output.contains(&format!("--> {shown}")), "{output}");
    }
}

/// A check in a shell records its result and leaves the workbook's place
/// alone: the workbook reopens where the learner quit (05, its second
/// case), not on the exercise the shell checked; `list` names what is next
/// by progress.
#[test]
fn a_check_in_a_shell_leaves_the_workbook_where_it_was() {
    use mcplings::app::{App, Effect, Msg, Screen};
    use mcplings::progress::{Place, Progress};
    let course = common::built_course();
    let root = course.path();
    let file = progress_file(root);
    let mut quit = Progress::default();
    quit.position.part = Some(3);
    quit.position.exercise = Some("05-stdio-codec".into());
    quit.position.screen = Some(Place::Exercise);
    let _ = fs::remove_file(&file);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, serde_json::to_string(&quit).unwrap()).unwrap();
    let r = at(root, &["check", "01"]);
    assert_eq!(r.code, 1, "{r:?}");
    let after = mcplings::progress::read(&file).expect("the progress file reads");
    assert_eq!(after.position, quit.position, "the shell's check moved the workbook");
    assert!(
        after.exercises["01-encode-frames"].last_check.is_some(),
        "the check is recorded"
    );
    let loaded = mcplings::content::Course::load(root, &mcplings::check::checkers::names()).unwrap();
    let mut app = App::new(loaded, after, (80, 24));
    let effects = app.update(Msg::Resume);
    assert_eq!(app.screen(), Screen::Exercise);
    let checked: Vec<&str> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::StartCheck { exercise, .. } => Some(exercise.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(checked, ["05-stdio-codec"], "{effects:?}");
    // Nothing read or passed: Part 1's lesson comes first.
    let r = at(root, &["list"]);
    assert!(
        r.stdout.contains("Next: the lesson of Part 1 (`mcplings lesson 1`)."),
        "{r:?}"
    );
    let _ = fs::remove_file(&file);
}

/// "Next" and the other advice name the command as the learner runs it:
/// in a checkout, whose own build is under `target/`, `cargo run --` (no
/// `mcplings` on PATH there); elsewhere `mcplings`.
#[test]
fn advice_names_the_command_as_it_runs_here() {
    let checkout = common::root();
    let exe = assert_cmd::cargo::cargo_bin("mcplings");
    let expected = match exe
        .canonicalize()
        .unwrap()
        .strip_prefix(checkout.canonicalize().unwrap().join("target"))
    {
        Ok(rest) if rest.starts_with("release") => "`cargo run --release -- ",
        Ok(_) => "`cargo run -- ",
        // Built into another target dir (CARGO_TARGET_DIR): as installed.
        Err(_) => "`mcplings ",
    };
    let r = at(&checkout, &["list"]);
    let next = r.stdout.lines().find(|l| l.starts_with("Next: ")).unwrap_or_default();
    assert!(next.contains(expected) || next.ends_with("done."), "{r:?}");
    // A course elsewhere (a workspace of `mcplings init`): the installed name.
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    at(&checkout, &["init", ws.to_str().unwrap()]);
    let r = at(&ws, &["lesson", "1"]);
    assert!(
        r.stdout.contains("`mcplings lesson 1 --full` prints them open"),
        "{r:?}"
    );
}
