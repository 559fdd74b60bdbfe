//! Resume and "Next" by progress: the lesson's end and its `e`, the map's
//! cursor, whatever a shell ran meanwhile.

use super::{app, code, key, report};
use crate::app::map::{NextStep, next_step, part_in_progress};
use crate::app::{App, Msg, Screen};
use crate::check::{CaseReport, Status};
use crate::progress::Progress;
use ratatui::crossterm::event::KeyCode;

/// The laid-out lesson as plain text.
fn lesson_text(app: &App) -> String {
    let laid = app.lesson.laid.as_ref().expect("the lesson is laid out");
    laid.lines.iter().map(crate::text::plain).collect::<Vec<_>>().join("\n")
}

/// Part 1's lesson read and `ids` passed, as a shell's checks leave them.
fn passed(ids: &[&str]) -> Progress {
    let mut p = Progress::default();
    p.lesson_mut(1).read = true;
    for id in ids {
        let e = p.exercise_mut(id);
        e.done = true;
        e.last_check = Some((5, 5));
    }
    p
}

#[test]
fn the_lessons_end_names_the_first_exercise_not_done_then_the_quiz() {
    let course = app().course.clone();
    let end = |progress: Progress| {
        let mut app = App::new(course.clone(), progress, (80, 24));
        app.update(key('l')); // the map's part 1 (in progress): its lesson
        assert_eq!(app.screen, Screen::Lesson);
        let text = lesson_text(&app);
        let end = text
            .lines()
            .rev()
            .find(|l| l.contains("End of the lesson"))
            .map(str::to_string);
        (end.unwrap_or_else(|| panic!("no end line:\n{text}")), app)
    };
    let (said, _) = end(Progress::default());
    assert!(said.contains("Next: exercise 01 encode-frames"), "{said}");
    let (said, mut app) = end(passed(&["01-encode-frames"]));
    assert!(said.contains("Next: exercise 02 id-router"), "{said}");
    // Its `e` opens what it names.
    app.update(key('e'));
    assert_eq!(app.course.exercises[app.exercise.index].id, "02-id-router");
    let (said, _) = end(passed(&["01-encode-frames", "02-id-router"]));
    assert!(said.contains("Next: the part's quiz: press z"), "{said}");
    assert!(!said.contains("exercise 01"), "{said}");
}

#[test]
fn next_follows_progress_and_the_map_cursor_the_part_in_progress() {
    let course = app().course.clone();
    let mut p = passed(&["01-encode-frames", "02-id-router"]);
    assert_eq!(next_step(&course, &p), NextStep::Quiz(1));
    // Part 1's quiz solved: Part 2 is in progress, and the map opens on it.
    let quiz = course.part(1).unwrap().quiz.as_ref().unwrap();
    for q in &quiz.questions {
        p.record_pick(1, &q.id, q.correct(), true);
    }
    assert_eq!(next_step(&course, &p), NextStep::Lesson(2));
    assert_eq!(part_in_progress(&course, &p), 2);
    let mut app = App::new(course.clone(), p.clone(), (80, 24));
    assert_eq!(app.map.selected, 1, "the cursor on Part 2");
    // A part the learner picks stays picked while progress stays put...
    app.update(code(KeyCode::Up));
    assert_eq!(app.map.selected, 0);
    app.update(key('\n'));
    app.update(code(KeyCode::Esc));
    assert_eq!(app.map.selected, 0);
    // ...and the cursor follows when progress moves to another part.
    p.lesson_mut(2).read = true;
    for id in ["03-handshake-gate", "04-era-probe"] {
        p.exercise_mut(id).done = true;
    }
    let quiz = course.part(2).unwrap().quiz.as_ref().unwrap();
    for q in &quiz.questions {
        p.record_pick(2, &q.id, q.correct(), true);
    }
    app.update(Msg::ProgressChanged(Box::new(p)));
    assert_eq!(app.map.selected, 2, "on to Part 3");
}

/// A report of `id` with one case, of `status` (passed: the check passed).
fn one_case(id: &str, status: Status) -> crate::check::CheckReport {
    let mut r = report(id, status == Status::Passed);
    r.cases = vec![CaseReport {
        status,
        ..CaseReport::not_run("a", "", "")
    }];
    r
}

#[test]
fn a_case_that_fails_now_marks_a_done_exercise_failing_now() {
    let mut app = app();
    app.update(key('e')); // 01-encode-frames, check run 1
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(one_case("01-encode-frames", Status::Passed)),
    });
    assert!(app.progress.is_done("01-encode-frames"));
    assert!(!app.progress.failing_now("01-encode-frames"));
    // A later save breaks it: done still, and failing now.
    app.update(Msg::FileChanged("01-encode-frames".into()));
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(one_case("01-encode-frames", Status::Failed)),
    });
    assert!(app.progress.is_done("01-encode-frames"));
    assert!(app.progress.failing_now("01-encode-frames"));
}

#[test]
fn a_save_away_from_the_exercise_marks_it_changed_until_its_next_check() {
    let mut app = app();
    app.update(key('e')); // 01-encode-frames, check run 1
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(report("01-encode-frames", true)),
    });
    app.update(code(KeyCode::Esc));
    app.update(Msg::FileChanged("01-encode-frames".into()));
    assert!(app.edited.contains("01-encode-frames"), "{:?}", app.screen);
    // Opened again: checked, and its result is the map's again.
    // From the map, `e` opens the next exercise not done (02), `p` 01.
    app.update(key('e'));
    let effects = app.update(key('p'));
    let run = effects.iter().find_map(|e| match e {
        crate::app::Effect::StartCheck { exercise, run, .. } if exercise == "01-encode-frames" => Some(*run),
        _ => None,
    });
    let run = run.unwrap_or_else(|| panic!("no check of 01 on opening it: {effects:?} on {:?}", app.screen));
    app.update(Msg::CheckDone {
        run,
        report: Box::new(report("01-encode-frames", false)),
    });
    assert!(!app.edited.contains("01-encode-frames"));
}
