//! The learner's loop on the command line (issue 18): every command fits
//! 80 columns, exit codes say stop / failure / usage, `task` prints an
//! exercise's task, progress survives a course update, and `init` writes a
//! learner workspace.

use crate::common;

use std::fs;

use common::cmd::{assert_fits_80, at, mcplings, run};

// ---------------------------------------------------------------------------
// 80 columns
// ---------------------------------------------------------------------------

#[test]
fn every_command_fits_80_columns() {
    let course = common::course_copy();
    let root = course.path();
    // Answers that try every letter, so wrong and right explanations show.
    let letters: String = "a\nb\nc\nd\ne\nf\n".repeat(25);
    for part in ["1", "2", "3", "4", "5"] {
        let r = run(mcplings(root).args(["quiz", part]).write_stdin(letters.clone()));
        assert_eq!(r.code, 0, "{r:?}");
        assert_fits_80(&r, &format!("quiz {part}"));
        let r = at(root, &["lesson", part]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_fits_80(&r, &format!("lesson {part} (piped)"));
    }
    for _ in 0..6 {
        let r = at(root, &["hint", "08"]);
        assert_fits_80(&r, "hint 08");
    }
    let r = at(root, &["glossary"]);
    assert_fits_80(&r, "glossary");
    let r = at(root, &["glossary", "progress token"]);
    assert_fits_80(&r, "glossary TERM");
    // A last check recorded for every exercise widens list's lines.
    let mut exercises = serde_json::Map::new();
    for id in ["01-encode-frames", "08-pagination-walker", "11-capstone-server"] {
        exercises.insert(
            id.into(),
            serde_json::json!({"done": false, "hints_shown": 0, "last_check": [11, 22]}),
        );
    }
    let progress = serde_json::json!({"format_version": 1, "exercises": exercises});
    fs::create_dir_all(root.join(".mcplings")).unwrap();
    fs::write(root.join(".mcplings/progress.json"), progress.to_string()).unwrap();
    let r = at(root, &["list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_fits_80(&r, "list");
    assert!(r.stdout.contains("last check 11/22"), "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("  · ")).collect();
    let column = |l: &str| l.find(char::is_uppercase);
    assert!(
        lines.windows(2).all(|w| column(w[0]) == column(w[1])),
        "titles start in one column:\n{}",
        r.stdout
    );
}

/// Runs `shell` in a pseudo-terminal (util-linux `script`) with `input`
/// typed into it; `None` when `script` is not installed.
fn in_a_terminal(shell: &str, input: &str) -> Option<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return None;
    }
    let mut child = Command::new("timeout")
        .args(["60", "script", "-qec", shell, "/dev/null"])
        .env_remove("MCPLINGS_ROOT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
}

#[test]
fn lesson_wraps_to_the_terminal_and_to_80_when_piped() {
    let bin = env!("CARGO_BIN_EXE_mcplings");
    // A copy: a lesson printed to its end is recorded as read.
    let course = common::course_copy();
    let root = course.path();
    let shell = format!("stty cols 120 rows 40; '{bin}' --root '{}' lesson 2", root.display());
    let Some(shown) = in_a_terminal(&shell, "") else { return };
    use unicode_width::UnicodeWidthStr;
    let widest = shown.lines().map(|l| l.width()).max().unwrap_or(0);
    assert!(widest > 80 && widest <= 120, "widest line {widest}:\n{shown}");
    let piped = at(root, &["lesson", "2"]);
    assert_fits_80(&piped, "lesson 2");
}

// ---------------------------------------------------------------------------
// Exit codes
// ---------------------------------------------------------------------------

#[test]
fn usage_errors_exit_2_with_one_wording() {
    let course = common::course_copy();
    let root = course.path();
    for (args, wording) in [
        (&["quiz", "9"][..], "there is no part 9; parts are 1 to 5"),
        (&["quiz", "x"], "there is no part x; parts are 1 to 5"),
        (&["lesson", "9"], "there is no part 9; parts are 1 to 5"),
        (&["lesson", "x"], "there is no part x; parts are 1 to 5"),
        (&["check", "99"], "there is no exercise 99; exercises are 01 to 12"),
        (&["hint", "x"], "there is no exercise x; exercises are 01 to 12"),
        (
            &["reset", "nope", "--yes"],
            "there is no exercise nope; exercises are 01 to 12",
        ),
    ] {
        let r = at(root, args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.replace('\n', " ").contains(wording), "{args:?}: {r:?}");
        assert!(!r.stderr.contains("invalid digit"), "{args:?}: {r:?}");
        assert_fits_80(&r, &args.join(" "));
    }
    // reset off a terminal without --yes is a usage error too.
    let r = at(root, &["reset", "01"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn quitting_the_quiz_with_q_exits_0_and_running_out_of_input_exits_1() {
    let course = common::course_copy();
    let r = run(mcplings(course.path()).args(["quiz", "1"]).write_stdin("q\n"));
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("Stopped at question 1"), "{r:?}");
    let r = run(mcplings(course.path()).args(["quiz", "1"]).write_stdin(""));
    assert_eq!(r.code, 1, "{r:?}");
}

/// A run stopped before any answer keeps its letters: the next run shows
/// the first question's options in the same order (the learner read them
/// and comes back with a letter). A fresh learner met the opposite.
#[test]
fn a_quiz_stopped_before_any_answer_keeps_its_order() {
    let course = common::course_copy();
    let options = |out: &str| -> Vec<String> {
        out.lines()
            .skip_while(|l| !l.starts_with("Question 1 of"))
            .filter(|l| l.trim_start().starts_with(['a', 'b', 'c', 'd']) && l.trim_start().get(1..3) == Some(") "))
            .take(4)
            .map(str::to_string)
            .collect()
    };
    let first = run(mcplings(course.path())
        .args(["quiz", "1"])
        .env_remove("MCPLINGS_QUIZ_SEED")
        .write_stdin(""));
    let shown = options(&first.stdout);
    assert_eq!(shown.len(), 4, "{first:?}");
    for _ in 0..3 {
        let again = run(mcplings(course.path())
            .args(["quiz", "1"])
            .env_remove("MCPLINGS_QUIZ_SEED")
            .write_stdin("q\n"));
        assert_eq!(options(&again.stdout), shown, "{again:?}");
    }
}

#[test]
fn declining_reset_in_a_terminal_exits_0_and_changes_nothing() {
    let course = common::course_copy();
    let lib = course.path().join("exercises/01-encode-frames/src/lib.rs");
    fs::write(&lib, "// mine\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_mcplings");
    let shell = format!("'{bin}' --root '{}' reset 01; echo EXIT=$?", course.path().display());
    let Some(shown) = in_a_terminal(&shell, "n\n") else {
        return;
    };
    assert!(shown.contains("Nothing changed."), "{shown}");
    assert!(shown.contains("EXIT=0"), "{shown}");
    assert_eq!(fs::read_to_string(&lib).unwrap(), "// mine\n");
}

// ---------------------------------------------------------------------------
// task, and a lesson read on the command line
// ---------------------------------------------------------------------------

#[test]
fn task_prints_the_task_the_files_and_the_commands() {
    let course = common::course_copy();
    let exercises: toml::Table =
        toml::from_str(&fs::read_to_string(course.path().join("lessons/01-json-rpc-messages/exercises.toml")).unwrap())
            .unwrap();
    let task = exercises["exercises"][0]["task"].as_str().unwrap();
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for query in ["01", "encode-frames", "01-encode-frames"] {
        let r = at(course.path(), &["task", query]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.starts_with("Exercise 01-encode-frames · "), "{r:?}");
        assert!(words(&r.stdout).contains(&words(task)), "{r:?}");
        assert!(
            words(&r.stdout).contains("Edit exercises/01-encode-frames/src/lib.rs"),
            "{r:?}"
        );
        assert!(r.stdout.contains("mcplings check 01"), "{r:?}");
        assert_fits_80(&r, "task 01");
    }
    for n in 1..=12 {
        let r = at(course.path(), &["task", &format!("{n:02}")]);
        assert_eq!(r.code, 0, "{r:?}");
        assert_fits_80(&r, "task");
    }
    assert_eq!(at(course.path(), &["task", "13"]).code, 2);
}

#[test]
fn a_lesson_printed_to_its_end_is_read() {
    let course = common::course_copy();
    let read = |part: usize| at(course.path(), &["list", "--json"]).json()["parts"][part - 1]["lesson_read"].clone();
    assert_eq!(read(2), false);
    let r = at(course.path(), &["lesson", "2"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(read(2), true);
    assert_eq!(read(1), false, "only the lesson printed");
    assert!(
        at(course.path(), &["list"])
            .stdout
            .contains("Part 2 · Lifecycle in two eras   lesson: read")
    );
    // Every section counts as seen, so no exercise asks to read it first.
    let progress: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(course.path().join(".mcplings/progress.json")).unwrap()).unwrap();
    let seen = progress["lessons"]["2"]["seen"]
        .as_array()
        .expect("sections seen")
        .clone();
    let lesson = common::course().part(2).unwrap().lesson.clone().unwrap();
    for section in &lesson.sections {
        assert!(
            seen.contains(&serde_json::json!(section.title)),
            "{} not seen: {seen:?}",
            section.title
        );
    }
}

// ---------------------------------------------------------------------------
// A harness started by hand
// ---------------------------------------------------------------------------

/// Every harness the learner does not edit (its `src/main.rs` is not among
/// the exercise's files) says, on a terminal, what it is and which command
/// runs it: the harness crate (`harness/src/lib.rs`) where the exercise
/// has one, else `src/main.rs`; `src/main.rs` is the same file in the
/// exercise and its solution (`verify`).
#[test]
fn a_harness_on_a_terminal_says_what_it_is() {
    let root = common::root();
    let mut harnesses = 0;
    for entry in fs::read_dir(root.join("exercises")).unwrap().flatten() {
        let id = entry.file_name().to_string_lossy().into_owned();
        let main = entry.path().join("src/main.rs");
        let learner_edits = root
            .join("lessons")
            .read_dir()
            .unwrap()
            .flatten()
            .any(|part| part.path().join("stubs").join(&id).join("src/main.rs").is_file());
        if learner_edits || !main.is_file() {
            continue;
        }
        harnesses += 1;
        let glue = fs::read_to_string(&main).unwrap();
        // The harness crate, when the exercise has one; else main.rs is it.
        let harness = entry.path().join("harness/src/lib.rs");
        let text = fs::read_to_string(&harness).unwrap_or_else(|_| glue.clone());
        let number = &id[..2];
        let line =
            format!("This is exercise {number}'s harness: its checker drives it. Run `mcplings check {number}`.");
        assert!(text.contains("is_terminal(&std::io::stdin())"), "{id}");
        assert!(text.contains(&line), "{id}: no {line:?}");
        assert!(line.chars().count() <= 80, "{line}");
        let solution = root.join("solutions").join(&id).join("src/main.rs");
        assert_eq!(
            glue,
            fs::read_to_string(solution).unwrap(),
            "{id}: src/main.rs differs from the solution's"
        );
    }
    assert_eq!(harnesses, 11, "03's main.rs is the learner's own server");
}

// ---------------------------------------------------------------------------
// Progress across course updates
// ---------------------------------------------------------------------------

/// A progress file as `main` wrote it before course versions: Part 1's
/// quiz still held `batches-removed` (since dropped) and
/// `before-initialized` (since moved to Part 2) and `notification-vs-request`
/// (since Part 1's quiz was rewritten), Part 2's an answer to a question
/// that stayed, exercise 01 was solved against 9 cases, and an exercise
/// since removed had progress.
const OLD_PROGRESS: &str = r#"{
  "format_version": 1,
  "exercises": {
    "01-encode-frames": {"done": true, "hints_shown": 2, "last_check": [9, 9]},
    "02-id-router": {"done": false, "hints_shown": 1, "last_check": [3, 10]},
    "99-retired": {"done": true, "hints_shown": 0, "last_check": [4, 4]}
  },
  "lessons": {"1": {"read": true, "section": 6}},
  "quizzes": {
    "1": {"answers": {
      "notification-vs-request": {"picks": [1], "solved": true, "first_try": true},
      "batches-removed": {"picks": [0, 2], "solved": true, "first_try": false},
      "before-initialized": {"picks": [3], "solved": true, "first_try": true}
    }},
    "2": {"answers": {
      "client-counter-offer": {"picks": [1], "solved": true, "first_try": true}
    }}
  },
  "position": {"part": 1, "exercise": "01-encode-frames"}
}"#;

#[test]
fn an_old_progress_file_is_brought_to_the_course_version() {
    let course = common::course_copy();
    let root = course.path();
    let file = root.join(".mcplings/progress.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, OLD_PROGRESS).unwrap();

    let r = at(root, &["list"]);
    assert_eq!(r.code, 0, "{r:?}");
    let notes = r.stderr.replace('\n', " ");
    // Part 1's quiz was rewritten (quiz format 2): every old id is gone.
    for text in [
        "Part 1's quiz no longer asks `notification-vs-request`",
        "Part 1's quiz no longer asks `batches-removed`",
        "Part 1's quiz no longer asks `before-initialized`",
        "exercise 99-retired is no longer in the course",
        "exercise 01-encode-frames has new cases since you solved it",
    ] {
        assert!(notes.contains(text), "missing {text:?}: {r:?}");
    }
    assert!(r.stdout.contains("new cases since you solved it"), "{r:?}");
    assert_fits_80(&r, "list after a migration");

    // Said once: the file now records the course's version.
    let saved: serde_json::Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        saved["course_version"].as_str().is_some_and(|v| v.len() == 16),
        "{saved:#}"
    );
    let r = at(root, &["list", "--json"]);
    assert!(r.stderr.is_empty(), "{r:?}");
    let list = r.json();
    let part1 = &list["parts"][0];
    assert_eq!(part1["quiz"]["answered"], 0, "{part1:#}");
    // An answer without a record of its options is dropped, with a note,
    // whether its question is gone or kept its id: every quiz was
    // rewritten since.
    assert_eq!(list["parts"][1]["quiz"]["answered"], 0, "{:#}", list["parts"][1]);
    assert!(notes.contains("Part 2's quiz "), "{notes}");
    assert_eq!(part1["lesson_read"], true, "{part1:#}");
    let first = &part1["exercises"][0];
    assert_eq!(
        (first["done"].clone(), first["new_cases"].clone()),
        (true.into(), true.into()),
        "{first:#}"
    );
    assert_eq!(part1["exercises"][1]["new_cases"], false);
    // Everything else is kept as it was.
    assert_eq!(saved["exercises"]["02-id-router"]["hints_shown"], 1);
    assert_eq!(saved["position"]["exercise"], "01-encode-frames");
    assert!(saved["exercises"].get("99-retired").is_none());
}

// ---------------------------------------------------------------------------
// init: a learner workspace
// ---------------------------------------------------------------------------

#[test]
fn init_writes_a_workspace_where_check_hint_task_and_reset_work() {
    let _lock = common::build_lock();
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("learn");
    // With no git identity configured (no global or system config).
    let r = run(common::cmd::bin()
        .current_dir(tmp.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["init", "learn"]));
    assert_eq!(r.code, 0, "{r:?}");
    assert_fits_80(&r, "init");
    for file in [
        "exercises/Cargo.toml",
        "exercises/Cargo.lock",
        "rust-analyzer.toml",
        ".gitignore",
        ".mcplings-workspace",
        "lessons/course.toml",
        "exercises/01-encode-frames/src/main.rs",
        "solutions/01-encode-frames/src/lib.rs",
        // 02's given classifier, beside the learner's lib.rs.
        "exercises/02-id-router/src/frame.rs",
    ] {
        assert!(ws.join(file).is_file(), "{file} missing");
    }
    // The crates' workspace is the checkout's own, and there is no other.
    for file in ["exercises/Cargo.toml", "exercises/Cargo.lock"] {
        assert_eq!(
            fs::read(ws.join(file)).unwrap(),
            fs::read(common::root().join(file)).unwrap()
        );
    }
    assert!(!ws.join("Cargo.toml").exists());
    let stub = fs::read(common::root().join("lessons/01-json-rpc-messages/stubs/01-encode-frames/src/lib.rs")).unwrap();
    assert_eq!(
        fs::read(ws.join("exercises/01-encode-frames/src/lib.rs")).unwrap(),
        stub
    );
    if std::process::Command::new("git").arg("--version").output().is_ok() {
        assert!(ws.join(".git").is_dir(), "git init ran");
        // A first commit holds the files as written, whatever the machine's
        // git identity: git diff then shows a learner's change.
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(&ws)
                .output()
                .unwrap()
        };
        let log = git(&["log", "--format=%an", "--", "exercises/01-encode-frames/src/lib.rs"]);
        assert_eq!(String::from_utf8_lossy(&log.stdout).trim(), "mcplings", "{log:?}");
        assert!(
            git(&["status", "--porcelain"]).stdout.is_empty(),
            "everything is committed"
        );
        assert!(r.stdout.contains("git diff"), "{r:?}");
    }
    // A second init into it is refused.
    let again = run(common::cmd::bin().current_dir(tmp.path()).args(["init", "learn"]));
    assert_eq!(again.code, 2, "{again:?}");
    assert!(again.stderr.contains("not empty"), "{again:?}");

    // Inside the workspace, commands find it by itself. It builds into a
    // target dir kept for this test's workspaces alone (one at a time, under
    // the build lock), so the crates' dependencies compile once, not every
    // run: cargo keys build records by package name, so the target dir the
    // other tests share would mix the workspace up with other copies.
    let inside = |args: &[&str]| {
        run(common::cmd::bin()
            .current_dir(&ws)
            .env(
                "CARGO_TARGET_DIR",
                common::seeded_course_target(common::target_dir().join("test-init")),
            )
            .args(args))
    };
    let r = inside(&["check", "01"]);
    assert_eq!(r.code, 1, "the stub fails: {r:?}");
    assert!(
        r.stdout
            .contains("build 01-encode-frames (exercises/01-encode-frames) ... ok"),
        "{r:?}"
    );
    assert_eq!(inside(&["hint", "01"]).code, 0);
    assert_eq!(inside(&["task", "01"]).code, 0);
    fs::copy(
        ws.join("solutions/01-encode-frames/src/lib.rs"),
        ws.join("exercises/01-encode-frames/src/lib.rs"),
    )
    .unwrap();
    let r = inside(&["check", "01"]);
    assert_eq!(r.code, 0, "the solution's file passes: {r:?}");
    assert!(ws.join(".mcplings/progress.json").is_file());

    // --update keeps the learner's file and brings back what the course owns.
    fs::write(ws.join("exercises/02-id-router/src/lib.rs"), "// mine\n").unwrap();
    fs::remove_file(ws.join("exercises/02-id-router/src/main.rs")).unwrap();
    fs::write(ws.join("exercises/02-id-router/src/frame.rs"), "// edited\n").unwrap();
    // The harness crate is the course's: replaced whole, a stray file gone.
    let harness = ws.join("exercises/02-id-router/harness");
    fs::write(harness.join("src/lib.rs"), "// edited\n").unwrap();
    fs::write(harness.join("src/stray.rs"), "// left over\n").unwrap();
    fs::remove_dir_all(ws.join("lessons/05-long-calls")).unwrap();
    // An earlier init wrote the crates' workspace at the root: update
    // removes it (rust-analyzer would load it, and cargo refuse it).
    fs::write(
        ws.join("Cargo.toml"),
        "# A mcplings workspace (mcplings init): every exercise and its reference\n[workspace]\n",
    )
    .unwrap();
    fs::write(ws.join("Cargo.lock"), "# old\n").unwrap();
    let r = inside(&["init", "--update"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!ws.join("Cargo.toml").exists() && !ws.join("Cargo.lock").exists());
    assert_eq!(
        fs::read_to_string(ws.join("exercises/02-id-router/src/lib.rs")).unwrap(),
        "// mine\n"
    );
    assert!(ws.join("exercises/02-id-router/src/main.rs").is_file());
    // A given file is the course's: brought back as shipped.
    let frame = fs::read(common::root().join("exercises/02-id-router/src/frame.rs")).unwrap();
    assert_eq!(fs::read(ws.join("exercises/02-id-router/src/frame.rs")).unwrap(), frame);
    assert_eq!(
        fs::read(harness.join("src/lib.rs")).unwrap(),
        fs::read(common::root().join("exercises/02-id-router/harness/src/lib.rs")).unwrap()
    );
    assert!(!harness.join("src/stray.rs").exists());
    assert!(ws.join("lessons/05-long-calls/lesson.md").is_file());
    assert_eq!(
        inside(&["list", "--json"]).json()["parts"][0]["exercises"][0]["done"],
        true
    );

    // reset restores the stub in the workspace.
    let r = inside(&["reset", "02", "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    let stub = fs::read(common::root().join("lessons/01-json-rpc-messages/stubs/02-id-router/src/lib.rs")).unwrap();
    assert_eq!(fs::read(ws.join("exercises/02-id-router/src/lib.rs")).unwrap(), stub);
    // The given classifier is still there as shipped: reset rewrites only the
    // learner's file.
    assert_eq!(fs::read(ws.join("exercises/02-id-router/src/frame.rs")).unwrap(), frame);
}

/// The binary embeds `course/`, and cargo rebuilds it when an embedded
/// file changes: so the files a learner edits are embedded from the shipped
/// stubs (`lessons/<part>/stubs/<id>/src/`), never from the working copies
/// in `exercises/`. Linked to those, every save in the checkout made the
/// next `cargo run --release` compile mcplings again (1 min 40 s measured).
/// The harness files a learner does not edit come from `exercises/`.
#[test]
fn the_embedded_exercise_files_are_the_shipped_stubs_not_the_working_copies() {
    let root = common::root();
    let resolved =
        |path: &std::path::Path| fs::canonicalize(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut stubs = std::collections::BTreeMap::new();
    for part in fs::read_dir(root.join("lessons")).unwrap().flatten() {
        for stub in fs::read_dir(part.path().join("stubs")).into_iter().flatten().flatten() {
            stubs.insert(stub.file_name(), stub.path().join("src"));
        }
    }
    let mut checked = 0;
    for entry in fs::read_dir(root.join("exercises")).unwrap().flatten() {
        if !entry.path().join("Cargo.toml").is_file() {
            continue;
        }
        let id = entry.file_name();
        let stub = stubs.get(&id).unwrap_or_else(|| panic!("no shipped stub for {id:?}"));
        for file in fs::read_dir(entry.path().join("src")).unwrap().flatten() {
            let embedded = root
                .join("course/exercises")
                .join(&id)
                .join("src")
                .join(file.file_name());
            let shipped = stub.join(file.file_name());
            let expected = if shipped.is_file() { shipped } else { file.path() };
            assert_eq!(
                resolved(&embedded),
                resolved(&expected),
                "{} should link {} (course/README.md)",
                embedded.display(),
                expected.display()
            );
            checked += 1;
        }
        // The harness crate, when the exercise has one, is embedded whole.
        let harness = entry.path().join("harness");
        if harness.is_dir() {
            let course = root.join("course/exercises").join(&id).join("harness");
            let mut pairs = vec![(course.join("Cargo.toml.in"), harness.join("Cargo.toml"))];
            for file in fs::read_dir(harness.join("src")).unwrap().flatten() {
                pairs.push((course.join("src").join(file.file_name()), file.path()));
            }
            for (embedded, expected) in pairs {
                assert_eq!(
                    resolved(&embedded),
                    resolved(&expected),
                    "{} should link {} (course/README.md)",
                    embedded.display(),
                    expected.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 24, "{checked} files checked");
}

/// A file of an exercise's `src/` that the learner does not edit (the glue,
/// `main.rs`; a given module, such as 02's `frame.rs`, the classifier the
/// learner reads and routes with) is the same file in the reference
/// solution: the solution passes with the code the learner is given, not
/// with a copy of its own that could drift from it.
#[test]
fn the_given_files_are_the_same_in_an_exercise_and_its_solution() {
    let course = common::course();
    let root = common::root();
    let mut given = Vec::new();
    for ex in &course.exercises {
        let mut pending = vec![std::path::PathBuf::from("src")];
        while let Some(dir) = pending.pop() {
            for entry in fs::read_dir(ex.dir(&root).join(&dir)).unwrap().flatten() {
                let rel = dir.join(entry.file_name());
                if entry.path().is_dir() {
                    pending.push(rel);
                } else if !ex.files.iter().any(|f| std::path::Path::new(f) == rel) {
                    let solution = ex.solution_dir(&root).join(&rel);
                    assert!(
                        fs::read(&solution).ok() == Some(fs::read(entry.path()).unwrap()),
                        "{}/{} is given to the learner: {} must be the same file",
                        ex.id,
                        rel.display(),
                        solution.display()
                    );
                    given.push(format!("{}/{}", ex.id, rel.display()));
                }
            }
        }
    }
    assert!(
        given.iter().any(|g| g == "02-id-router/src/frame.rs"),
        "02's classifier is given: {given:?}"
    );
}

/// Runs cargo in `dir` with `args` for the packaged-crate tests, its
/// target dir `target/packaged/` (never the one the other tests run from)
/// and its build dir this test run's (`CARGO_BUILD_BUILD_DIR`), so a build
/// of the package compiles only mcplings itself. Panics when cargo fails;
/// returns its standard output.
fn packaging_cargo(dir: &std::path::Path, args: &[&str]) -> String {
    let target = common::target_dir();
    let own = target.join("packaged");
    let mut command = common::cargo();
    // Without the variables cargo sets for a test run: the build dir is
    // shared with `cargo test`'s own build, and a build script that
    // reads one of them (ring's reads CARGO_MANIFEST_DIR) would see it
    // change, and rebuild ring, rustls and mcplings, in both builds, on
    // every run.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_BIN_EXE_")
            || [
                "CARGO_MANIFEST_DIR",
                "CARGO_MANIFEST_PATH",
                "CARGO_CRATE_NAME",
                "CARGO_PRIMARY_PACKAGE",
                "CARGO_TARGET_TMPDIR",
                "CARGO_BIN_NAME",
                "RUST_TEST_THREADS",
                // Set to time the tests (`-Z unstable-options
                // --report-time`): cargo would rebuild everything.
                "RUSTC_BOOTSTRAP",
            ]
            .contains(&name.as_ref())
        {
            command.env_remove(name.as_ref());
        }
    }
    let out = command
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &own)
        .env("CARGO_BUILD_BUILD_DIR", &target)
        // The package is built once per change and never edited:
        // incremental compilation's cache would only cost time.
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The published crate carries every exercise and solution crate (under
/// `course/`, where cargo does not take them for packages of their own):
/// every file of theirs is in `cargo package --list`. (That the package
/// builds a binary carrying them is the next test's, which `.ci/run` runs.)
#[test]
fn the_package_lists_every_course_crate() {
    let root = common::root();
    let files = packaging_cargo(
        &root,
        &["package", "-p", "mcplings", "--list", "--allow-dirty", "--offline"],
    );
    let crates = fs::read_dir(root.join("exercises")).unwrap().flatten();
    for entry in crates.filter(|e| e.path().join("Cargo.toml").is_file()) {
        let id = entry.file_name().to_string_lossy().into_owned();
        let mut paths: Vec<String> = ["exercises", "solutions"]
            .iter()
            .flat_map(|side| ["Cargo.toml.in", "src/lib.rs"].map(|file| format!("course/{side}/{id}/{file}")))
            .collect();
        // Every other file of the exercise's src/ too (the glue, a given
        // module such as 02's frame.rs), on both sides.
        for file in fs::read_dir(entry.path().join("src")).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            paths.extend(["exercises", "solutions"].map(|side| format!("course/{side}/{id}/src/{name}")));
        }
        if entry.path().join("harness").is_dir() {
            paths.extend(["harness/Cargo.toml.in", "harness/src/lib.rs"].map(|f| format!("course/exercises/{id}/{f}")));
        }
        for path in paths {
            assert!(
                files.lines().any(|l| l == path),
                "{path} is not packaged (course/README.md)"
            );
        }
    }
    for path in ["course/exercises/Cargo.toml.in", "course/exercises/Cargo.lock.in"] {
        assert!(
            files.lines().any(|l| l == path),
            "{path} is not packaged (course/README.md)"
        );
    }
}

/// Built from the packaged `.crate` alone, whose source is then deleted,
/// the binary writes a workspace (`init`) where 01's stub fails and the
/// solution's file passes, with the solution taken from the binary.
///
/// Ignored by `cargo test`: on a fresh clone it compiles mcplings a third
/// time (about 45 s of CPU, a sixth of the first run's). `.ci/run` runs it
/// (`cargo test --test suite -- --ignored packaged`).
#[test]
#[ignore = "compiles mcplings from its package (about 45 s of CPU); .ci/run runs it"]
fn the_packaged_crate_builds_a_binary_that_carries_the_course() {
    let root = common::root();
    let target = common::target_dir();
    let own = target.join("packaged");
    let started = std::time::Instant::now();
    // The workspace's packages, as they would be published: mcplings and
    // the check of frames against the official types (crates/types), which
    // the packaged manifest names as a registry dependency.
    packaging_cargo(
        &root,
        &["package", "--workspace", "--allow-dirty", "--offline", "--no-verify"],
    );
    let krate = own.join("package/mcplings-0.1.0.crate");
    let types_krate = own.join("package/mcplings-types-0.1.0.crate");
    // Unpacked at the same place each run (and deleted after the build):
    // cargo keys a path package's build by its folder, so an unchanged
    // package is not compiled again. Outside the checkout, whose workspace
    // would claim it; one folder per target dir. Every file in a .crate has
    // the same old mtime, so a package unlike the last one built is
    // unpacked with fresh mtimes (tar -m), else cargo would take the old
    // build for it.
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        target.hash(&mut h);
        h.finish()
    };
    let unpack_in = std::env::temp_dir().join(format!("mcplings-packaged-{key:016x}"));
    let unpacked = unpack_in.join("mcplings-0.1.0");
    let types_unpacked = unpack_in.join("mcplings-types-0.1.0");
    if unpack_in.exists() {
        fs::remove_dir_all(&unpack_in).unwrap();
    }
    fs::create_dir_all(&unpack_in).unwrap();
    // Both packages' bytes as last built, to tell whether either changed.
    let last = own.join("last-built.crates");
    let packages = [fs::read(&krate).unwrap(), fs::read(&types_krate).unwrap()].concat();
    let changed = fs::read(&last).ok() != Some(packages.clone());
    for file in [&krate, &types_krate] {
        let tar = std::process::Command::new("tar")
            .arg(if changed { "xzmf" } else { "xzf" })
            .arg(file)
            .current_dir(&unpack_in)
            .status()
            .expect("tar runs");
        assert!(tar.success());
    }
    assert!(
        !unpacked.join("exercises").exists() && unpacked.join("course").is_dir(),
        "cargo leaves the crates' own folders out; course/ carries them"
    );
    // mcplings-types from its package, as the registry would serve it (a
    // patch, so the packaged lockfile's entry for it is rewritten: no
    // `--locked`).
    let patch = format!(
        "patch.crates-io.mcplings-types.path={:?}",
        types_unpacked.display().to_string()
    );
    packaging_cargo(
        &unpacked,
        &["build", "--offline", "--bin", "mcplings", "--config", &patch],
    );
    fs::write(&last, packages).unwrap();
    let built = started.elapsed();
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("mcplings");
    fs::copy(own.join("debug/mcplings"), &bin).unwrap();
    fs::remove_dir_all(&unpack_in).unwrap();

    let mcplings_at = |dir: &std::path::Path, args: &[&str]| {
        run(assert_cmd::Command::new(&bin)
            .current_dir(dir)
            .env_remove("MCPLINGS_ROOT")
            // A target dir for this test's workspaces alone (one at a
            // time): the crates' dependencies compile once.
            .env("CARGO_TARGET_DIR", own.join("workspace-target"))
            .args(args))
    };
    // Outside any workspace, it says what to run.
    let r = mcplings_at(tmp.path(), &["list"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("mcplings init"), "{r:?}");
    let r = mcplings_at(tmp.path(), &["init", "ws"]);
    assert_eq!(r.code, 0, "{r:?}");
    let ws = tmp.path().join("ws");
    let _lock = common::build_lock();
    let r = mcplings_at(&ws, &["check", "01"]);
    assert_eq!(r.code, 1, "the stub builds and fails: {r:?}");
    assert!(r.stdout.contains("... ok"), "the stub builds: {r:?}");
    // reset and the solution view take the binary's stub and solution, not
    // the workspace's copies.
    let stub_rel = "lessons/01-json-rpc-messages/stubs/01-encode-frames/src/lib.rs";
    fs::write(ws.join(stub_rel), "// not the stub\n").unwrap();
    fs::write(ws.join("exercises/01-encode-frames/src/lib.rs"), "// mine\n").unwrap();
    let r = mcplings_at(&ws, &["reset", "01", "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        fs::read(ws.join("exercises/01-encode-frames/src/lib.rs")).unwrap(),
        fs::read(root.join(stub_rel)).unwrap()
    );
    fs::write(ws.join("solutions/01-encode-frames/src/lib.rs"), "// gone\n").unwrap();
    let solution = fs::read_to_string(root.join("solutions/01-encode-frames/src/lib.rs")).unwrap();
    let course = mcplings::content::Course::load(&ws, &mcplings::check::checkers::names()).unwrap();
    let shown = mcplings::actions::read_solution(&course, course.exercise("01").unwrap());
    assert_eq!(shown[0].1.as_deref(), Ok(solution.as_str()));
    fs::write(ws.join("exercises/01-encode-frames/src/lib.rs"), &solution).unwrap();
    let r = mcplings_at(&ws, &["check", "01"]);
    assert_eq!(r.code, 0, "the solution's file passes: {r:?}");
    eprintln!(
        "packaged, built in {:.1} s; init and two checks in {:.1} s",
        built.as_secs_f64(),
        (started.elapsed() - built).as_secs_f64()
    );
}
