//! What a first learner tripped on: a quiz's letters across quit and
//! reopen, the way back from a glossary jump, the hint about a failing
//! case, the end of a lesson, and notices that never hide the keys.

use super::{app, code, key, report};
use crate::app::{App, Msg, Screen};
use crate::check::{CaseReport, Status};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The letters the options of every question of part 1's quiz show with.
fn letters(app: &mut App) -> Vec<Vec<char>> {
    let questions = app.course.part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    let at = app.quiz.question;
    let out = questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            app.quiz.question = i;
            (0..q.options.len()).map(|o| app.quiz_letter(o).unwrap()).collect()
        })
        .collect();
    app.quiz.question = at;
    out
}

#[test]
fn a_quiz_left_unfinished_keeps_its_letters_when_reopened() {
    let mut app = app().with_quiz_seed(7);
    app.update(key('z'));
    let first = letters(&mut app);
    let seed = app
        .progress
        .quiz(1)
        .and_then(|q| q.seed)
        .expect("the run's seed is kept");
    // Quit on the first question, then start the workbook again: the
    // runtime gives each start a new seed.
    app.update(Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
    assert!(app.quitting());
    let mut again = App::new(app.course.clone(), app.progress.clone(), (80, 24)).with_quiz_seed(1234);
    again.update(Msg::Resume);
    assert_eq!(again.screen, Screen::Quiz);
    assert_eq!(again.quiz.seed, seed);
    assert_eq!(letters(&mut again), first, "same letters after reopening");
    // A retake is a new run: a new order (seeds 7+1 and 1234+1 differ).
    again.quiz.finished = true;
    again.update(key('r'));
    again.update(key('y'));
    assert_ne!(again.progress.quiz(1).and_then(|q| q.seed), Some(seed));
    assert_ne!(letters(&mut again), first, "a retake shuffles anew");
}

#[test]
fn a_progress_file_without_a_seed_gets_one_on_opening_the_quiz() {
    // The shape written before seeds were kept: answers only.
    let old = r#"{"format_version":1,"quizzes":{"1":{"answers":{}}}}"#;
    let progress: crate::progress::Progress = serde_json::from_str(old).unwrap();
    assert_eq!(progress.quiz(1).unwrap().seed, None);
    let mut app = App::new(app().course.clone(), progress, (80, 24)).with_quiz_seed(5);
    app.update(key('z'));
    let seed = app.progress.quiz(1).and_then(|q| q.seed);
    assert_eq!(seed, Some(app.quiz.seed));
    let text = serde_json::to_string(&app.progress).unwrap();
    assert!(text.contains(r#""seed":"#), "{text}");
}

#[test]
fn esc_after_a_glossary_jump_goes_back_to_the_glossary_then_the_section() {
    let mut app = app();
    app.update(code(KeyCode::Enter));
    for _ in 0..7 {
        app.update(key('n'));
    }
    assert_eq!(app.lesson.section(), 7, "§8");
    let place = app.lesson.place();
    app.update(key('t'));
    let host = app
        .course
        .glossary
        .as_ref()
        .unwrap()
        .terms
        .iter()
        .position(|t| t.term == "host")
        .unwrap();
    app.glossary.selected = host;
    app.update(code(KeyCode::Enter));
    assert_eq!(
        (app.screen, app.lesson.section()),
        (Screen::Lesson, 0),
        "host is taught in §1"
    );
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Glossary);
    assert_eq!(app.glossary.selected, host);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Lesson);
    assert_eq!(app.lesson.place(), place, "back at §8 where the reader was");
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map);
}

#[test]
fn the_lesson_ends_with_what_comes_next() {
    let mut app = app();
    app.update(code(KeyCode::Enter));
    app.update(key('G'));
    let laid = app.lesson.laid.as_ref().unwrap();
    let at = laid.lines.len() - 3;
    let last: String = laid.lines[at..]
        .iter()
        .flat_map(|l| l.iter().map(|p| p.text.as_str()).chain([" "]))
        .collect();
    assert!(
        last.contains("exercise 01 encode-frames") && last.contains("press e"),
        "{last}"
    );
}

/// Exercise 01 checked, with only `failing` failing.
fn checked_01(failing: &str) -> App {
    let mut app = app();
    app.update(key('e'));
    let ex = app.course.exercise("01-encode-frames").unwrap();
    let mut r = report(&ex.id, false);
    r.cases = crate::check::checkers::of(ex)
        .unwrap()
        .cases
        .iter()
        .map(|c| {
            let mut case = CaseReport::not_run(c.name, "", "");
            case.status = if c.name == failing {
                Status::Failed
            } else {
                Status::Passed
            };
            case
        })
        .collect();
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(r),
    });
    app
}

#[test]
fn shift_h_reveals_up_to_the_hint_about_the_failing_case() {
    // The toml says hint 3 is about classify's invalid lines.
    let mut app = checked_01("invalid lines are named");
    let ex = app.course.exercise("01-encode-frames").unwrap().clone();
    assert_eq!(ex.hint_for.get("invalid lines are named"), Some(&3));
    let pane: Vec<String> = app.exercise.lines.iter().map(|l| l.text()).collect();
    assert!(pane.iter().any(|l| l.contains("Hint 3 is about this case")), "{pane:?}");
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown(&ex.id), 3);
    // The pane is scrolled to show hint 3's title.
    let rows = app.pane_size().1;
    let shown: Vec<String> = app
        .exercise
        .lines
        .iter()
        .skip(app.exercise.scroll)
        .take(rows)
        .map(|l| l.text())
        .collect();
    assert!(shown.iter().any(|l| l.starts_with("Hint 3")), "{shown:?}");
    // Past it, H goes on one at a time.
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown(&ex.id), 4);
}

#[test]
fn shift_h_goes_one_at_a_time_when_the_failing_case_has_its_hint_shown() {
    let mut app = checked_01("request frame");
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 1);
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 2);
}

#[test]
fn a_key_moves_the_notice_to_the_help_sheet_once() {
    let mut app = app();
    app.update(Msg::Notice("something long".into()));
    app.update(key('?'));
    assert!(app.help);
    assert_eq!(app.notice, None);
    assert_eq!(app.last_notice.as_deref(), Some("something long"));
    app.update(key('x'));
    assert_eq!(app.last_notice, None);
}
