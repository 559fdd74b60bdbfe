//! The progress file under real processes: two writers at once lose no
//! update and never leave a torn file; a writer killed at a random moment
//! loses at most the update it was writing.
//!
//! A progress file written before issue 33 is brought to the course: an
//! answer is never scored against options it was not given.
//!
//! The writers are this test binary run again with `PROGRESS_CHILD` set
//! (each `*_child` test does nothing without it).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use mcplings::progress::{self, Progress};

const CHILD: &str = "PROGRESS_CHILD";
const FILE: &str = "PROGRESS_FILE";
const NAME: &str = "PROGRESS_WRITER";

/// Runs the test `name` of this module (in this binary) as a child process.
fn child(name: &str, file: &Path, writer: &str) -> Child {
    // Test names are paths without the crate's name: `progress::NAME`.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    Command::new(std::env::current_exe().unwrap())
        .args([
            &format!("{module}::{name}"),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env(FILE, file)
        .env(NAME, writer)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

fn child_args() -> Option<(PathBuf, String)> {
    std::env::var_os(CHILD)?;
    Some((std::env::var_os(FILE).unwrap().into(), std::env::var(NAME).unwrap()))
}

const WRITES: usize = 60;

/// Child: saves WRITES updates the way the workbook does (a held copy, its
/// changes merged into the file), each marking one exercise of its own.
#[test]
fn merging_writer_child() {
    let Some((file, name)) = child_args() else { return };
    let mut known = progress::load(&file).progress;
    for i in 0..WRITES {
        let mut ours = known.clone();
        ours.exercise_mut(&format!("{name}-{i:03}")).done = true;
        ours.position.exercise = Some(format!("{name}-{i:03}"));
        known = progress::save(&file, &known, &ours).unwrap().progress;
    }
}

/// Child: saves WRITES updates the way a command line run does (a locked
/// read-modify-write), each raising a shared counter by one.
#[test]
fn counting_writer_child() {
    let Some((file, _)) = child_args() else { return };
    for _ in 0..WRITES {
        progress::update(&file, |p| p.exercise_mut("shared").hints_shown += 1).unwrap();
    }
}

#[test]
fn two_writers_at_once_lose_nothing_and_never_tear_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = progress::path(dir.path());
    let mut writers = vec![
        child("merging_writer_child", &file, "a"),
        child("merging_writer_child", &file, "b"),
        child("counting_writer_child", &file, "c"),
        child("counting_writer_child", &file, "d"),
    ];
    // Meanwhile, every read of the file sees a whole, valid file.
    let mut reads = 0;
    while writers.iter_mut().any(|w| w.try_wait().unwrap().is_none()) {
        if file.exists() {
            assert!(
                progress::read(&file).is_some(),
                "a reader saw a torn file: {:?}",
                std::fs::read_to_string(&file)
            );
            reads += 1;
        }
    }
    for w in &mut writers {
        assert!(w.wait().unwrap().success());
    }
    let loaded = progress::load(&file);
    assert_eq!(loaded.warning, None);
    let p = loaded.progress;
    for name in ["a", "b"] {
        let missing: Vec<usize> = (0..WRITES).filter(|i| !p.is_done(&format!("{name}-{i:03}"))).collect();
        assert!(missing.is_empty(), "writer {name}'s updates {missing:?} were lost");
    }
    assert_eq!(p.hints_shown("shared"), 2 * WRITES, "increments were lost");
    assert!(reads > 0);
}

/// Child: counts up in the file without end, printing each count once
/// its save has returned.
#[test]
fn endless_writer_child() {
    let Some((file, _)) = child_args() else { return };
    loop {
        let saved = progress::update(&file, |p| {
            let entry = p.exercise_mut("count");
            entry.hints_shown += 1;
            // Some bulk, so that a write takes a while.
            let n = entry.hints_shown;
            p.lesson_mut((n % 200) as u8).place = Some(progress::LessonPlace {
                section: String::new(),
                block: n,
                line: 0,
            });
        })
        .unwrap();
        println!("saved {}", saved.progress.hints_shown("count"));
    }
}

#[test]
fn a_writer_killed_mid_write_loses_at_most_that_update() {
    let dir = tempfile::tempdir().unwrap();
    let file = progress::path(dir.path());
    let mut last = 0;
    for round in 0..12u64 {
        let mut writer = child("endless_writer_child", &file, "e");
        let (tx, rx) = std::sync::mpsc::channel();
        let stdout = writer.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(n) = line.strip_prefix("saved ") {
                    let _ = tx.send(n.parse::<usize>().unwrap());
                }
            }
        });
        // Let it get going, then kill it at a moment that varies by round.
        let first = rx.recv_timeout(Duration::from_secs(20)).expect("the writer saves");
        assert!(
            first > last,
            "round {round}: the writer started from {first}, not above {last}"
        );
        let until = Instant::now() + Duration::from_millis(3 + round * 7);
        while Instant::now() < until {
            std::hint::spin_loop();
        }
        writer.kill().unwrap();
        writer.wait().unwrap();
        reader.join().unwrap();
        let confirmed = rx.try_iter().last().unwrap_or(first);
        let loaded = progress::load(&file);
        assert_eq!(loaded.warning, None, "round {round}: the file was damaged");
        let on_disk = loaded.progress.hints_shown("count");
        assert!(
            on_disk == confirmed || on_disk == confirmed + 1,
            "round {round}: {confirmed} saves were confirmed, the file holds {on_disk}"
        );
        last = on_disk;
    }
    assert_eq!(
        progress::read(&file).map(|p: Progress| p.hints_shown("count")),
        Some(last)
    );
}

/// A progress file from before issue 33 (format 1, no `to` on answers):
/// what each answer was given to is unknown and every quiz was rewritten
/// since, some ids kept (Part 2's first), so on load every such answer is
/// dropped, with a note for each removed question and one for the rest of
/// a part; never scored against options it may not have been given. Then
/// an answer that records its options is kept while they stay, and dropped
/// once the question's options change under the same id.
#[test]
fn an_old_progress_file_keeps_only_answers_to_the_options_they_were_given() {
    let course_dir = common::course_copy();
    let root = course_dir.path();
    let course = mcplings::content::Course::load(root, &mcplings::check::checkers::names()).unwrap();
    let old = r#"{"format_version":1,"course_version":"00000000000000aa",
        "quizzes":{
          "1":{"answers":{"null-id-request":{"picks":[1],"solved":true,"first_try":true},
                          "structured-content-mirror":{"picks":[0,2],"solved":true,"first_try":false}}},
          "2":{"answers":{"ping-before-initialize":{"picks":[0],"solved":true,"first_try":true}}},
          "5":{"answers":{"never-cancelled":{"picks":[2],"solved":true,"first_try":true}}}}}"#;
    let file = progress::path(root);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, old).unwrap();
    let mut notes = mcplings::actions::migrate_file(&course).unwrap();
    notes.sort();
    assert_eq!(
        notes,
        [
            "Part 1's quiz no longer asks `null-id-request`; your answer to it was dropped.",
            "Part 1's quiz no longer asks `structured-content-mirror`; your answer to it was dropped.",
            "Part 2's quiz was rewritten since your 1 answer to it; it was dropped: take it again.",
            "Part 5's quiz no longer asks `never-cancelled`; your answer to it was dropped.",
        ]
    );
    let p: Progress = progress::read(&file).unwrap();
    assert!(
        p.quiz(1).is_none() && p.quiz(2).is_none() && p.quiz(5).is_none(),
        "{p:?}"
    );
    // An answer recorded with the options it was given to stays while
    // they do ...
    let ping = &course.part(2).unwrap().quiz.as_ref().unwrap().questions[0];
    assert_eq!(ping.id, "ping-before-initialize");
    let mut answered = p.clone();
    answered.record_pick_to(2, &ping.id, Some(&ping.fingerprint()), 0, ping.options[0].correct);
    std::fs::write(&file, serde_json::to_string(&answered).unwrap()).unwrap();
    assert_eq!(mcplings::actions::migrate_file(&course).unwrap(), Vec::<String>::new());
    let read: Progress = progress::read(&file).unwrap();
    let kept = &read.quiz(2).unwrap().answers[&ping.id];
    assert_eq!(kept.to.as_deref(), Some(ping.fingerprint().as_str()));
    // ... and goes once the question's options change under the same id
    // (here: its record says it was given other options).
    let mut changed = answered.clone();
    changed
        .quizzes
        .get_mut("2")
        .unwrap()
        .answers
        .get_mut("ping-before-initialize")
        .unwrap()
        .to = Some("0123456789abcdef".into());
    changed.course_version = Some("00000000000000bb".into());
    std::fs::write(&file, serde_json::to_string(&changed).unwrap()).unwrap();
    let notes = mcplings::actions::migrate_file(&course).unwrap();
    assert_eq!(
        notes,
        ["Part 2's quiz changed the options of `ping-before-initialize`; your answer to it was dropped."]
    );
    let read: Progress = progress::read(&file).unwrap();
    assert!(read.quiz(2).is_none());
}
