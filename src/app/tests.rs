//! Transitions of [`App::update`], with no terminal.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::check::{BuildReport, CheckReport, Event as CheckEvent};

fn app() -> App {
    let course = Course::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &crate::check::checkers::names(),
    )
    .expect("the course loads");
    App::new(course, Progress::default(), (80, 24))
}

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn code(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn report(exercise: &str, passed: bool) -> CheckReport {
    CheckReport {
        format_version: 1,
        exercise: exercise.into(),
        source: "exercise".into(),
        crate_dir: String::new(),
        passed,
        build: BuildReport {
            ok: true,
            output: String::new(),
            duration_ms: 1,
        },
        cases: Vec::new(),
        duration_ms: 1,
        error: None,
    }
}

#[test]
fn enter_opens_the_lesson_and_esc_goes_back() {
    let mut app = app();
    let effects = app.update(code(KeyCode::Enter));
    assert_eq!(app.screen, Screen::Lesson);
    assert_eq!(effects, vec![Effect::SaveProgress]);
    assert!(app.lesson.len() > 100);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map);
}

#[test]
fn section_jumps_and_reading_to_the_end_marks_the_lesson_read() {
    let mut app = app();
    app.update(code(KeyCode::Enter));
    app.update(key('n'));
    assert_eq!(app.lesson.section(), 1);
    let second = app.lesson.laid.as_ref().unwrap().sections[1].key.clone();
    assert_eq!(app.progress.lesson(1).place.map(|p| p.section), Some(second));
    // Jumping to the end is not reading: the sections between were not shown.
    app.update(key('G'));
    assert!(!app.progress.lesson(1).read);
    app.update(key('g'));
    for _ in 0..app.lesson.len() {
        app.update(key(' '));
    }
    assert!(app.progress.lesson(1).read, "every section shown");
}

#[test]
fn the_check_on_opening_is_no_attempt_a_saved_change_is() {
    use crate::progress::Standing;
    let mut app = app();
    app.update(key('e'));
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(report("01-encode-frames", false)),
    });
    assert_eq!(app.progress.exercise_standing("01-encode-frames"), Standing::NotStarted);
    app.update(Msg::FileChanged("01-encode-frames".into()));
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(report("01-encode-frames", false)),
    });
    assert_eq!(app.progress.exercise_standing("01-encode-frames"), Standing::Tried);
}

#[test]
fn opening_an_exercise_starts_a_check_and_stale_runs_are_ignored() {
    let mut app = app();
    let effects = app.update(key('e'));
    assert_eq!(app.screen, Screen::Exercise);
    assert!(
        effects.contains(&Effect::StartCheck {
            exercise: "01-encode-frames".into(),
            run: 1
        }),
        "{effects:?}"
    );
    // A save while checking cancels the running check and starts run 2.
    let effects = app.update(Msg::FileChanged("01-encode-frames".into()));
    assert_eq!(
        effects,
        vec![
            Effect::CancelCheck,
            Effect::StartCheck {
                exercise: "01-encode-frames".into(),
                run: 2
            }
        ]
    );
    assert!(
        app.update(Msg::CheckDone {
            run: 1,
            report: Box::new(report("01-encode-frames", true))
        })
        .is_empty()
    );
    assert!(!app.progress.is_done("01-encode-frames"));
    app.update(Msg::CheckDone {
        run: 2,
        report: Box::new(report("01-encode-frames", true)),
    });
    assert!(app.progress.is_done("01-encode-frames"));
}

#[test]
fn a_change_to_another_exercise_does_not_check() {
    let mut app = app();
    app.update(key('e'));
    assert!(app.update(Msg::FileChanged("02-id-router".into())).is_empty());
}

#[test]
fn hints_one_at_a_time_and_solution_locked_until_done() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 1);
    app.update(key('H'));
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 2);
    app.update(key('s'));
    assert_ne!(app.exercise.pane, Pane::Solution);
    assert!(app.notice.as_deref().unwrap_or("").contains("unlocks"));
}

#[test]
fn h_rereads_the_hints_and_only_shift_h_reveals_one() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('h'));
    assert_eq!(app.exercise.pane, Pane::Hints);
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 0, "h reveals nothing");
    assert!(
        app.exercise
            .lines
            .iter()
            .any(|l| l.text().contains("No hint revealed yet"))
    );
    for _ in 0..3 {
        app.update(key('H'));
    }
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 3);
    // H scrolls to the hint it revealed (as far as the pane scrolls); ↑
    // scrolls back through the others.
    let at = app.exercise.scroll;
    let rows = app.pane_size().1;
    assert!(
        app.exercise.lines[at..(at + rows).min(app.exercise.lines.len())]
            .iter()
            .any(|l| l.text() == "Hint 3 of 4")
    );
    assert!(at > 0);
    app.update(code(KeyCode::Up));
    assert_eq!(app.exercise.scroll, at - 1);
    assert_eq!(app.exercise.pane, Pane::Hints, "↑ scrolls the hints, it picks no case");
    app.update(key('h'));
    assert_eq!(app.exercise.scroll, 0);
    assert_eq!(app.exercise.lines[0].text(), "Hint 1 of 4");
    assert_eq!(app.progress.hints_shown("01-encode-frames"), 3);
}

#[test]
fn a_finished_check_leaves_the_hints_the_learner_reads() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('H'));
    app.update(key('H'));
    app.update(code(KeyCode::Down));
    let scroll = app.exercise.scroll;
    let mut failing = report("01-encode-frames", false);
    failing.cases = vec![
        crate::check::CaseReport::not_run("first", "", "ok"),
        crate::check::CaseReport::not_run("second", "", "wrong"),
    ];
    failing.cases[0].status = crate::check::Status::Passed;
    failing.cases[1].status = crate::check::Status::Failed;
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(failing),
    });
    assert_eq!(app.exercise.pane, Pane::Hints);
    assert_eq!(app.exercise.scroll, scroll);
    assert_eq!(app.exercise.selected, 1, "the first failing case is selected for enter");
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("1/2 pass") && notice.contains("second"), "{notice}");
    app.update(code(KeyCode::Enter));
    assert_eq!(app.exercise.pane, Pane::Case);
}

#[test]
fn reset_asks_first() {
    let mut app = app();
    app.update(key('e'));
    assert!(app.update(key('r')).is_empty());
    assert_eq!(app.confirm, Some(Confirm::ResetExercise("01-encode-frames".into())));
    assert!(app.update(key('n')).is_empty());
    assert_eq!(app.confirm, None);
    app.update(key('r'));
    let effects = app.update(key('y'));
    assert_eq!(
        effects,
        vec![Effect::ResetExercise("01-encode-frames".into()), Effect::SaveProgress]
    );
}

#[test]
fn quiz_wrong_then_right_scores_only_first_tries() {
    let mut app = app();
    app.update(key('z'));
    assert_eq!(app.screen, Screen::Quiz);
    let question = app.course.part(1).unwrap().quiz.as_ref().unwrap().questions[0].clone();
    let right = question.correct();
    let wrong = (right + 1) % question.options.len();
    app.update(key(app.quiz_letter(wrong).unwrap()));
    assert!(app.update(code(KeyCode::Enter)).is_empty());
    assert_eq!(app.quiz.question, 0, "can't move on before answering right");
    app.update(key(app.quiz_letter(right).unwrap()));
    app.update(code(KeyCode::Enter));
    assert_eq!(app.quiz.question, 1);
    assert_eq!(app.progress.quiz_score(1), (0, 1));
}

#[test]
fn q_quits_only_from_the_map_and_ctrl_c_from_anywhere() {
    let mut app = app();
    app.update(key('e'));
    app.update(key('q'));
    assert!(!app.quitting());
    app.update(key('q'));
    assert!(app.quitting());
    let mut app = super::tests::app();
    app.update(key('z'));
    app.update(Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
    assert!(app.quitting());
}

#[test]
fn a_finished_quiz_can_be_taken_again_after_confirming() {
    let mut app = app();
    app.update(key('z'));
    let questions = app.course.part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    for q in &questions {
        app.update(key(app.quiz_letter(q.correct()).unwrap()));
        app.update(code(KeyCode::Enter));
    }
    assert!(app.quiz.finished);
    assert_eq!(app.progress.quiz_score(1), (questions.len(), questions.len()));
    app.update(key('r'));
    assert_eq!(app.confirm, Some(Confirm::RetakeQuiz(1)));
    app.update(key('y'));
    assert!(!app.quiz.finished);
    assert_eq!(app.quiz.question, 0);
    assert_eq!(app.progress.quiz_score(1), (0, 0));
}

#[test]
fn quiz_options_are_shown_shuffled_and_recorded_in_file_order() {
    let mut app = app();
    app.update(key('z'));
    let questions = app.course.part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    // Over the questions, the keyed option is not always at the letter its
    // file position gives.
    let moved = questions
        .iter()
        .enumerate()
        .filter(|(i, q)| {
            app.quiz.question = *i;
            app.quiz_letter(q.correct()) != Some(crate::content::quiz::LETTERS[q.correct()])
        })
        .count();
    assert!(moved > 0, "no option moved");
    app.quiz.question = 0;
    let right = questions[0].correct();
    app.update(key(app.quiz_letter(right).unwrap()));
    let answer = &app.progress.quiz(1).unwrap().answers[&questions[0].id];
    assert_eq!(answer.picks, vec![right], "progress keeps the file-order index");
    assert!(answer.first_try);
}

#[test]
fn keys_do_nothing_unseen_when_the_terminal_is_too_small() {
    let mut app = app();
    app.update(Msg::Resize(40, 12));
    app.update(key('z'));
    app.update(key('a'));
    assert_eq!(app.screen, Screen::Map);
    assert_eq!(app.progress, Progress::default());
    app.update(key('q'));
    assert!(app.quitting());
}

#[test]
fn the_map_says_exercises_are_being_prepared_until_the_prebuild_ends() {
    let mut app = app();
    app.update(Msg::Prebuilding);
    assert_eq!(crate::ui::map_footer(&app).1, "preparing exercises…");
    assert!(app.update(Msg::Prebuilt).is_empty());
    assert!(!app.prebuilding);
    // After it: the course gauge (lessons, exercises and quizzes done).
    assert!(
        crate::ui::map_footer(&app).1.ends_with(" 0/22"),
        "{:?}",
        crate::ui::map_footer(&app)
    );
}

/// A hanging check does not hold the workbook: while it runs, keys still
/// move, switch panes and open help; its live events land; `x` cancels it
/// (the runtime then sets the check's cancel flag, which kills the
/// program's process group: see `tests/hostile.rs`), and the cancelled
/// run's late report is ignored.
#[test]
fn keys_work_during_a_check_and_x_cancels_it() {
    let mut app = app();
    app.update(key('e'));
    assert!(matches!(app.exercise.check, CheckState::Running { run: 1, .. }));
    app.update(Msg::Check {
        run: 1,
        event: CheckEvent::CaseStarted(0),
    });
    assert!(matches!(
        app.exercise.check,
        CheckState::Running { current: Some(0), .. }
    ));
    app.update(key('j'));
    assert_eq!((app.exercise.selected, app.exercise.pane), (1, Pane::Case));
    app.update(key('b'));
    assert_eq!(app.exercise.pane, Pane::Build);
    app.update(key('t'));
    assert_eq!(app.exercise.pane, Pane::Task);
    app.update(key('?'));
    assert!(app.help);
    app.update(key('?'));
    assert!(!app.help);
    app.update(Msg::Tick);
    assert!(
        matches!(app.exercise.check, CheckState::Running { run: 1, .. }),
        "the check still runs"
    );

    assert_eq!(app.update(key('x')), vec![Effect::CancelCheck]);
    assert!(matches!(app.exercise.check, CheckState::Idle));
    assert_eq!(app.notice.as_deref(), Some("Check cancelled. c checks again."));
    // The engine's report of the cancelled run arrives late: ignored.
    assert!(
        app.update(Msg::CheckDone {
            run: 1,
            report: Box::new(report("01-encode-frames", false))
        })
        .is_empty()
    );
    assert!(matches!(app.exercise.check, CheckState::Idle));
    assert_eq!(
        app.progress
            .exercises
            .get("01-encode-frames")
            .and_then(|e| e.last_check),
        None
    );
    // x with nothing running does nothing; c checks again.
    assert!(app.update(key('x')).is_empty());
    assert_eq!(
        app.update(key('c')),
        vec![Effect::StartCheck {
            exercise: "01-encode-frames".into(),
            run: 2
        }]
    );
}

/// `update` reads no files: showing the reference solution asks the
/// runtime to read it ([`Effect::LoadSolution`]), and the pane shows it
/// only once the answer ([`Msg::SolutionLoaded`]) arrives. The course's
/// root is moved somewhere that does not exist first, so a read from disk
/// would show up as an error in the pane.
#[test]
fn the_solution_comes_from_an_effect_not_from_disk() {
    let mut app = app();
    app.course.root = std::path::PathBuf::from("/nonexistent/mcplings");
    app.update(key('e'));
    app.progress.exercise_mut("01-encode-frames").done = true;
    let effects = app.update(key('s'));
    assert_eq!(app.exercise.pane, Pane::Solution);
    assert_eq!(effects, vec![Effect::LoadSolution("01-encode-frames".into())]);
    let text = |app: &App| {
        app.exercise
            .lines
            .iter()
            .map(PaneLine::text)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(text(&app), "Reading the reference solution…");
    // An answer for another exercise is not this one's solution.
    let answer = |exercise: &str| {
        Msg::SolutionLoaded(Box::new(Solution {
            exercise: exercise.into(),
            files: vec![("src/lib.rs".into(), Ok("pub fn encode() {}\n".into()))],
        }))
    };
    assert!(app.update(answer("02-id-router")).is_empty());
    assert_eq!(text(&app), "Reading the reference solution…");
    assert!(app.update(answer("01-encode-frames")).is_empty());
    assert_eq!(
        text(&app),
        "Reference solution: solutions/01-encode-frames/src/lib.rs\n\npub fn encode() {}\n"
    );
}

/// The exercise's right pane is laid out by `update`, for the width the
/// terminal has: the view only slices it.
#[test]
fn the_exercise_pane_is_laid_out_for_the_width() {
    let mut app = app();
    app.update(key('e'));
    let narrow = app.exercise.lines.len();
    assert!(narrow > 5);
    assert!(app.exercise.lines.iter().all(|l| l.text().chars().count() <= 80 - 32));
    app.update(Msg::Resize(130, 40));
    assert!(app.exercise.lines.len() < narrow, "wider, so fewer lines");
}

#[test]
fn the_glossary_opens_from_map_and_lesson_and_goes_back_or_to_a_section() {
    let mut app = app();
    app.update(key('t'));
    assert_eq!(app.screen, Screen::Glossary);
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Map);
    app.update(code(KeyCode::Enter));
    assert_eq!(app.screen, Screen::Lesson);
    app.update(key('t'));
    assert_eq!(app.screen, Screen::Glossary);
    app.update(key('t'));
    assert_eq!(app.screen, Screen::Lesson, "t closes the glossary too");
    // Enter on a term taught in Part 4 opens that lesson at its section.
    app.update(key('t'));
    let glossary = app.course.glossary.clone().expect("the course has a glossary");
    let index = glossary.terms.iter().position(|t| t.part == 4).expect("a Part 4 term");
    for _ in 0..index {
        app.update(key('j'));
    }
    app.update(code(KeyCode::Enter));
    assert_eq!(app.screen, Screen::Lesson);
    assert_eq!(app.lesson.part, 4);
    let lesson = app.course.part(4).unwrap().lesson.as_ref().unwrap();
    assert_eq!(
        lesson.sections[app.lesson.section()].title,
        glossary.terms[index].section
    );
}

mod asides;
mod keys;
mod navigate;
mod polish;
mod resume;

#[test]
fn space_pages_a_quiz_question_taller_than_the_screen() {
    // At 70×20 no question of Part 1 fits: space pages, as in the lesson.
    let course = app().course;
    let mut app = App::new(course, Progress::default(), (70, 20));
    app.update(key('z'));
    assert!(app.question_max_scroll() > 1, "question 1 fits at 70×20");
    app.update(key(' '));
    let paged = app.quiz.scroll;
    assert!(paged > 1 && paged <= app.question_max_scroll(), "{paged}");
    app.update(code(KeyCode::PageUp));
    assert_eq!(app.quiz.scroll, 0);
}
