//! The back stack, quitting, and reopening where the learner left.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{app, code, key, report};
use crate::app::{App, Effect, Msg, Screen};
use crate::check::{CaseReport, Status};
use crate::progress::Place;

fn ctrl_c() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))
}

/// A new workbook on `app`'s progress, `size` big, resumed as on start.
fn reopen(app: &App, size: (u16, u16)) -> (App, Vec<Effect>) {
    let mut again = App::new(app.course.clone(), app.progress.clone(), size);
    let effects = again.update(Msg::Resume);
    (again, effects)
}

#[test]
fn esc_goes_back_to_the_exercise_from_its_lesson_quiz_and_glossary() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('n'));
    assert_eq!(app.exercise.index, 1);
    for (open, screen) in [('l', Screen::Lesson), ('z', Screen::Quiz)] {
        app.update(key(open));
        assert_eq!(app.screen, screen);
        app.update(code(KeyCode::Esc));
        assert_eq!(app.screen, Screen::Exercise, "esc from {screen:?}");
        assert_eq!(app.exercise.index, 1);
    }
    // Two deep: exercise → lesson → glossary → back, back.
    app.update(key('l'));
    app.update(key('t'));
    assert_eq!(app.screen, Screen::Glossary);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Lesson);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Exercise);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map, "the map is the bottom");
    assert!(!app.quitting());
}

#[test]
fn opening_a_screen_already_on_the_stack_goes_back_to_it_without_a_cycle() {
    let mut app = app();
    app.update(key('e')); // map → exercise
    app.update(key('l')); // → lesson
    app.update(key('e')); // → the part's first exercise, already below
    assert_eq!(app.screen, Screen::Exercise);
    assert_eq!(app.back, vec![Screen::Map]);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map);
}

#[test]
fn a_save_while_away_checks_on_coming_back() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('l'));
    assert!(app.update(Msg::FileChanged("01-encode-frames".into())).is_empty());
    let effects = app.update(code(KeyCode::Esc));
    assert!(
        effects.iter().any(|e| matches!(e, Effect::StartCheck { .. })),
        "{effects:?}"
    );
}

#[test]
fn q_quits_on_the_map_only_and_ctrl_c_anywhere_saving_the_place() {
    let mut app = app();
    app.update(key('z'));
    app.update(key('q'));
    assert_eq!(app.screen, Screen::Map);
    assert!(!app.quitting());
    app.update(key('t'));
    let effects = app.update(ctrl_c());
    assert!(app.quitting());
    assert!(effects.contains(&Effect::SaveProgress), "{effects:?}");
    assert_eq!(app.progress.position.screen, Some(Place::Glossary));
}

#[test]
fn the_workbook_reopens_on_the_exercise_and_case_left() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('n'));
    app.update(key('j'));
    app.update(key('j'));
    assert_eq!(app.exercise.selected, 2);
    app.update(ctrl_c());
    let (mut again, effects) = reopen(&app, (80, 24));
    assert_eq!(again.screen, Screen::Exercise);
    assert_eq!(again.exercise.index, 1);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::StartCheck { run: 1, .. })),
        "{effects:?}"
    );
    // The first check shows the case the learner had chosen, though an
    // earlier one fails.
    let mut failing = report("02-id-router", false);
    failing.cases = (0..4)
        .map(|i| CaseReport {
            status: if i == 0 { Status::Failed } else { Status::Passed },
            ..CaseReport::not_run(&format!("case {i}"), "", "")
        })
        .collect();
    again.update(Msg::CheckDone {
        run: 1,
        report: Box::new(failing),
    });
    assert_eq!(again.exercise.selected, 2);
    again.update(code(KeyCode::Esc));
    assert_eq!(again.screen, Screen::Map, "the stack is not kept: esc goes to the map");
}

#[test]
fn the_workbook_reopens_on_the_quiz_question_left() {
    let mut app = app();
    app.update(key('z'));
    let question = app.course.part(1).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    app.update(key(app.quiz_letter(question.correct()).unwrap()));
    app.update(code(KeyCode::Enter));
    assert_eq!(app.quiz.question, 1);
    app.update(key('p'));
    assert_eq!(app.quiz.question, 0);
    app.update(ctrl_c());
    let (again, _) = reopen(&app, (80, 24));
    assert_eq!(again.screen, Screen::Quiz);
    assert_eq!(again.quiz.question, 0, "the question shown, not the first unsolved");
}

#[test]
fn the_lesson_reopens_at_its_place_at_another_width() {
    let mut app = app();
    app.update(code(KeyCode::Enter));
    app.update(key('n'));
    app.update(key('n'));
    for _ in 0..7 {
        app.update(key('j'));
    }
    let place = app.lesson.place();
    let title = app.course.part(1).unwrap().lesson.as_ref().unwrap().sections[2]
        .title
        .clone();
    assert_eq!(place.section, title);
    assert!(place.block > 0 || place.line > 0, "{place:?}");
    let top = app.lesson.laid.as_ref().unwrap().lines[app.lesson.scroll].clone();
    app.update(ctrl_c());
    assert_eq!(app.progress.lesson(1).place.as_ref(), Some(&place));
    // The same width: the same top line.
    let (again, _) = reopen(&app, (80, 24));
    assert_eq!(again.screen, Screen::Lesson);
    assert_eq!(again.lesson.laid.as_ref().unwrap().lines[again.lesson.scroll], top);
    // Wider: the same section and block.
    let (wide, _) = reopen(&app, (120, 40));
    let p = wide.lesson.place();
    assert_eq!((p.section, p.block), (place.section, place.block));
}

/// esc in the solution, the compiler output or the hints closes that view
/// (back to the cases); the next esc leaves the exercise.
#[test]
fn esc_in_a_reading_pane_goes_back_to_the_cases_first() {
    let mut app = app();
    app.update(key('e'));
    app.progress.exercise_mut("01-encode-frames").done = true;
    for open in ['s', 'b', 'h'] {
        app.update(key(open));
        assert!(app.exercise.pane.scrolls(), "{open} opens a reading pane");
        app.update(code(KeyCode::Esc));
        assert_eq!(app.screen, Screen::Exercise, "esc after {open}");
        assert_eq!(app.exercise.pane, crate::app::exercise::Pane::Case, "esc after {open}");
    }
    app.update(code(KeyCode::Esc));
    assert_ne!(app.screen, Screen::Exercise);
}
