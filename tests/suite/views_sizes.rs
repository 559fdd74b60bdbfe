//! Every screen at the documented minimum (70×20) and at 80×24, drawn on
//! ratatui's TestBackend from states reached through `App::update`: what a
//! learner sees on a small terminal must not lose its footer, legend or
//! last lines.

use mcplings::app::{App, Msg};
use mcplings::check::{BuildReport, CaseReport, CheckReport, Direction, EntryKind, Status, TranscriptEntry};
use mcplings::content::Course;
use mcplings::progress::Progress;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::views_common::{press, screen};

const SIZES: [(u16, u16); 2] = [(70, 20), (80, 24)];

fn app(size: (u16, u16)) -> App {
    let course = Course::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &mcplings::check::checkers::names(),
    )
    .expect("the course loads");
    App::new(course, Progress::default(), size)
}

/// Snapshots `state` (keys from a fresh workbook, then `then`) at both sizes.
fn at_both_sizes(name: &str, keys: &str, then: impl Fn(&mut App)) {
    for size in SIZES {
        let mut app = app(size);
        press(&mut app, keys);
        then(&mut app);
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen(&app));
    }
}

/// A finished check of 01 in which the case `failing` fails with a reason
/// and a short transcript, and every other case passes.
fn report_of_01(app: &App, failing: usize) -> CheckReport {
    let ex = app.course().exercise("01-encode-frames").unwrap();
    let checker = mcplings::check::checkers::of(ex).unwrap();
    let cases = checker
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut report = CaseReport::not_run(c.name, "", "");
            report.reason = None;
            report.status = Status::Passed;
            if i == failing {
                report.status = Status::Failed;
                report.reason = Some("a notification has no id member: drop the id, do not send null".into());
                report.transcript = vec![TranscriptEntry {
                    dir: Direction::FromLearner,
                    line: r#"{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}"#.into(),
                    id: None,
                    time_ms: 1,
                    kind: EntryKind::Frame,
                }];
            }
            report
        })
        .collect();
    CheckReport {
        format_version: 1,
        exercise: ex.id.clone(),
        source: "exercise".into(),
        crate_dir: String::new(),
        passed: false,
        build: BuildReport {
            ok: true,
            output: String::new(),
            duration_ms: 200,
        },
        cases,
        duration_ms: 400,
        error: None,
    }
}

fn finish(app: &mut App, report: CheckReport) {
    app.update(Msg::CheckDone {
        run: 1,
        report: Box::new(report),
    });
}

#[test]
fn map() {
    at_both_sizes("map", "", |_| {});
    at_both_sizes("map_help", "?", |_| {});
}

#[test]
fn lesson() {
    at_both_sizes("lesson", "\nn", |_| {});
    at_both_sizes("lesson_help", "\n?", |_| {});
}

#[test]
fn exercise() {
    at_both_sizes("exercise_task", "e", |_| {});
    at_both_sizes("exercise_help", "e?", |_| {});
    // The longest case name of 01, selected: it shows in full.
    at_both_sizes("exercise_long_case_selected", "e", |app| {
        let ex = app.course().exercise("01-encode-frames").unwrap();
        let cases = &mcplings::check::checkers::of(ex).unwrap().cases;
        let longest = (0..cases.len()).max_by_key(|&i| cases[i].name.len()).unwrap();
        let report = report_of_01(app, longest);
        finish(app, report);
    });
    at_both_sizes("exercise_hints", "eHH", |_| {});
    // At 120 columns the list is wide enough for every name of 01.
    let mut wide = app((120, 40));
    press(&mut wide, "e");
    let report = report_of_01(&wide, 8);
    finish(&mut wide, report);
    insta::assert_snapshot!("exercise_long_case_selected_120x40", screen(&wide));
}

#[test]
fn quiz() {
    at_both_sizes("quiz_question", "z", |app| {
        let question = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions[0].clone();
        let wrong = (question.correct() + 1) % question.options.len();
        let letter = app.quiz_letter(wrong).unwrap().to_string();
        press(app, &letter);
    });
    at_both_sizes("quiz_help", "z?", |_| {});
    // A transcript question (two frames, ▶ and ◀) after a wrong pick: the
    // frames as code under the prompt, the explanation, the misconception.
    at_both_sizes("quiz_transcript_question", "z", |app| {
        let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        let q = questions
            .iter()
            .position(|q| q.frames.as_ref().is_some_and(|f| f.lines.len() == 2))
            .expect("Part 1 has a question with a two-line transcript");
        for q in &questions[..q] {
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(app, &letter);
            press(app, "\n");
        }
        let q = &questions[q];
        let wrong = (q.correct() + 1) % q.options.len();
        let letter = app.quiz_letter(wrong).unwrap().to_string();
        press(app, &letter);
        press(app, &"k".repeat(30));
    });
    // Every question answered, the second and fifth after a wrong pick:
    // the summary lists them with the keyed answer, its explanation and
    // the section o opens.
    let answer_all = |app: &mut App| {
        let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        for (i, q) in questions.iter().enumerate() {
            if i == 1 || i == 4 {
                let wrong = (q.correct() + 1) % q.options.len();
                let letter = app.quiz_letter(wrong).unwrap().to_string();
                press(app, &letter);
            }
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(app, &letter);
            press(app, "\n");
        }
    };
    at_both_sizes("quiz_summary", "z", answer_all);
    // j shows the first missed question whole, the next j chooses the second.
    at_both_sizes("quiz_summary_first_missed", "z", |app| {
        answer_all(app);
        press(app, "j");
    });
    at_both_sizes("quiz_summary_second_missed", "z", |app| {
        answer_all(app);
        press(app, "jj");
    });
}

#[test]
fn quiz_summary_opens_the_section_of_a_missed_question() {
    let mut app = app((80, 24));
    press(&mut app, "z");
    let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    for (i, q) in questions.iter().enumerate() {
        if i == 4 {
            let wrong = (q.correct() + 1) % q.options.len();
            let letter = app.quiz_letter(wrong).unwrap().to_string();
            press(&mut app, &letter);
        }
        let letter = app.quiz_letter(q.correct()).unwrap().to_string();
        press(&mut app, &letter);
        press(&mut app, "\n");
    }
    press(&mut app, "o");
    let shown = screen(&app);
    let section = questions[4]
        .section
        .as_ref()
        .expect("Part 1's questions name their section");
    let title = &app.course().part(1).unwrap().lesson.as_ref().unwrap().sections[section.section].title;
    assert!(
        shown.lines().take(4).any(|l| l.contains(title.as_str())),
        "the lesson opens at `{title}`:\n{shown}"
    );
    press(&mut app, "\x1b");
    assert!(screen(&app).contains("Quiz complete"), "esc comes back to the summary");
}

#[test]
fn glossary() {
    at_both_sizes("glossary", "t", |_| {});
    at_both_sizes("glossary_help", "t?", |_| {});
}

#[test]
fn wide_frames() {
    // Part 2's handshake: compact frames wider than the screen, pretty-printed.
    at_both_sizes("lesson_wide_frame", "j\nn", |_| {});
    // A transcript with a long frame and a long line that is not JSON:
    // laid out, then raw (v).
    let long = |app: &mut App| {
        let mut report = report_of_01(app, 0);
        let frame = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"gate","version":"0.1.0"}}}"#;
        let junk = "not json: a line of the program's own, with a\u{1b}[31m colour escape in it and more words";
        for (dir, line, kind) in [
            (Direction::ToLearner, frame, EntryKind::Frame),
            (Direction::FromLearner, junk, EntryKind::Junk),
        ] {
            report.cases[0].transcript.push(TranscriptEntry {
                dir,
                line: line.into(),
                id: None,
                time_ms: 3,
                kind,
            });
        }
        finish(app, report);
        press(app, " ");
    };
    at_both_sizes("transcript_long_lines", "e", long);
    at_both_sizes("transcript_long_lines_raw", "e", |app| {
        long(app);
        press(app, "v");
    });
}

#[test]
fn quiz_long_explanation_scrolls() {
    // Part 1's question 10 holds frames; a wrong pick's explanation is
    // scrolled into view, and k scrolls back up a line.
    at_both_sizes("quiz_long_explanation", "z", |app| {
        let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        for q in &questions[..9] {
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(app, &letter);
            press(app, "\n");
        }
        let q = &questions[9];
        let wrong = (0..q.options.len())
            .filter(|&i| i != q.correct())
            .max_by_key(|&i| q.options[i].explanation.len())
            .unwrap();
        let letter = app.quiz_letter(wrong).unwrap().to_string();
        press(app, &letter);
        press(app, "k");
    });
}

#[test]
fn notice() {
    // The notice a learner saw at 70×20 wrap over the key bar: it takes
    // the rule's row, cut to it, and the key bar stays.
    let editor = "No $EDITOR set: edit exercises/01-encode-frames/src/lib.rs in your editor.";
    at_both_sizes("notice_no_editor", "e", |app| {
        app.update(Msg::Notice(editor.into()));
    });
    // The help sheet opened next shows it whole.
    at_both_sizes("notice_then_help", "e", |app| {
        app.update(Msg::Notice(editor.into()));
        press(app, "?");
    });
    for size in SIZES {
        let mut app = app(size);
        press(&mut app, "e");
        app.update(Msg::Notice(editor.into()));
        let shown = screen(&app);
        let rows: Vec<&str> = shown.lines().collect();
        assert!(rows[rows.len() - 1].contains("c check"), "the key bar stays: {shown}");
        assert!(rows[rows.len() - 2].contains("No $EDITOR set"), "{shown}");
    }
}

#[test]
fn lesson_end_says_what_comes_next() {
    at_both_sizes("lesson_end", "\nG", |_| {});
}

/// The course with a fixture lesson in Part 1's place (asides, `###`, the
/// tests' own: the real lesson is rewritten apart from this code); 01
/// needs `1 › Ids` and `1 › One frame, one line`, 02 the first section.
fn fixture(size: (u16, u16)) -> App {
    use mcplings::content::{lesson, needs};
    let mut course = app(size).course().clone();
    let source = include_str!("../../src/app/tests/asides.md");
    let lesson = lesson::parse(std::path::Path::new("asides.md"), source).expect("the fixture parses");
    let need = |name: &str| {
        let (part, heading) = needs::split(name).unwrap();
        needs::resolve(part, heading, &lesson).unwrap()
    };
    course.exercises[0].needs = vec![need("1 › Ids"), need("1 › One frame, one line")];
    course.exercises[1].needs = vec![need("1 › Three shapes, one id")];
    course.parts[0].lesson = Some(lesson);
    App::new(course, Progress::default(), size)
}

/// Snapshots the fixture course after `keys`, at both sizes.
fn fixture_at_both_sizes(name: &str, keys: &str) {
    for size in SIZES {
        let mut app = fixture(size);
        press(&mut app, keys);
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen(&app));
    }
}

#[test]
fn asides_and_needs() {
    // The wild aside folded and in focus, the story folded below it.
    fixture_at_both_sizes("aside_folded", "\n");
    // The wild aside open (a), the story still folded.
    fixture_at_both_sizes("aside_open", "\na");
    // A page down: the end of the first section says 02 is ready.
    fixture_at_both_sizes("lesson_ready_line", "\n ");
    // 01's task pane: what to read first, none read yet.
    fixture_at_both_sizes("exercise_read_first", "e");
}

/// The footer row of `app` as drawn.
fn footer_row(app: &App) -> String {
    screen(app).lines().last().unwrap_or("").to_string()
}

/// Every binding of `screen`'s key table the screen needs in state `when`
/// shows in `footer`, in its full or its tight form.
fn needed_keys_shown(footer: &str, screen: mcplings::app::Screen, when: mcplings::app::keys::When, at: &str) {
    use mcplings::app::keys::{When, table};
    for binding in table(screen) {
        if !binding.need || binding.footer.is_empty() || !(binding.when == When::Always || binding.when == when) {
            continue;
        }
        // `{hints}` stands for "shown/total": its words before it suffice.
        let shown = |form: &str| footer.contains(form.split("{hints}").next().unwrap_or(form).trim_end());
        assert!(
            shown(binding.footer) || shown(binding.tight),
            "{at}: the footer drops `{}`, which the screen needs:\n{footer}",
            binding.footer
        );
    }
}

/// Item 3 of issue 37: at 70×20 every screen's footer keeps the keys its
/// screen needs (marked in the key table), whatever its status says.
#[test]
fn every_footer_at_70_columns_keeps_the_keys_its_screen_needs() {
    use mcplings::app::Screen;
    use mcplings::app::keys::When;
    let size = (70, 20);
    let quiz_done = |app: &mut App| {
        let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        for (i, q) in questions.iter().enumerate() {
            if i == 1 {
                let wrong = (q.correct() + 1) % q.options.len();
                let letter = app.quiz_letter(wrong).unwrap().to_string();
                press(app, &letter);
            }
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(app, &letter);
            press(app, "\n");
        }
    };
    type Setup = Box<dyn Fn(&mut App)>;
    let states: Vec<(&str, &str, Setup, Screen, When)> = vec![
        ("map", "", Box::new(|_| {}), Screen::Map, When::Always),
        (
            "map while preparing",
            "",
            Box::new(|app| {
                app.update(Msg::Prebuilding);
            }),
            Screen::Map,
            When::Always,
        ),
        ("lesson", "\n", Box::new(|_| {}), Screen::Lesson, When::Always),
        (
            "exercise, checking",
            "e",
            Box::new(|_| {}),
            Screen::Exercise,
            When::Cases,
        ),
        (
            "exercise, a case failing",
            "e",
            Box::new(|app| {
                let report = report_of_01(app, 8);
                finish(app, report);
            }),
            Screen::Exercise,
            When::Cases,
        ),
        (
            "exercise, hints",
            "eHH",
            Box::new(|_| {}),
            Screen::Exercise,
            When::Reading,
        ),
        ("quiz question", "z", Box::new(|_| {}), Screen::Quiz, When::Question),
        ("quiz summary", "z", Box::new(quiz_done), Screen::Quiz, When::Summary),
        ("glossary", "t", Box::new(|_| {}), Screen::Glossary, When::Always),
    ];
    for (name, keys, setup, screen, when) in states {
        let mut app = app(size);
        press(&mut app, keys);
        setup(&mut app);
        needed_keys_shown(&footer_row(&app), screen, when, name);
    }
    // A lesson page with an aside in focus needs a/A too.
    let mut app = fixture(size);
    press(&mut app, "\n");
    let footer = footer_row(&app);
    assert!(footer.contains("a/A aside"), "{footer}");
    needed_keys_shown(&footer, Screen::Lesson, When::Aside, "lesson, an aside in focus");
}

/// The status line: the notice after a check while the pane stays on what
/// the learner reads names the first failing case and fits 70 columns
/// whole, for every case of every exercise.
#[test]
fn the_checked_notice_fits_70_columns_for_every_case() {
    let size = (70, 20);
    let course = app(size).course().clone();
    for (index, ex) in course.exercises.iter().enumerate() {
        let checker = mcplings::check::checkers::of(ex).unwrap();
        for failing in 0..checker.cases.len() {
            let mut app = App::new(course.clone(), Progress::default(), size);
            let key = |c: char| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
            let mut effects = app.update(key('e'));
            for _ in 0..index {
                effects = app.update(key('n'));
            }
            let run = effects
                .iter()
                .find_map(|e| match e {
                    mcplings::app::Effect::StartCheck { run, .. } => Some(*run),
                    _ => None,
                })
                .expect("opening an exercise starts its check");
            // The task pinned: a finished check leaves it, and says what it found.
            press(&mut app, "t");
            let mut report = report_of_01(&app, usize::MAX);
            report.exercise = ex.id.clone();
            report.cases = checker
                .cases
                .iter()
                .enumerate()
                .map(|(i, c)| CaseReport {
                    status: if i == failing { Status::Failed } else { Status::Passed },
                    reason: None,
                    ..CaseReport::not_run(c.name, "", "")
                })
                .collect();
            app.update(Msg::CheckDone {
                run,
                report: Box::new(report),
            });
            let notice = app.notice().expect("the check's notice").to_string();
            let name = checker.cases[failing].name;
            assert!(notice.contains(name), "{notice}");
            assert_eq!(
                mcplings::ui::notice_line(&notice, 70),
                format!(" {notice}"),
                "cut at 70 columns"
            );
        }
    }
}

/// After a pick at 70×20 the explanation scrolls into view, and the
/// chosen answer stays on screen with it; what is cut below says so.
#[test]
fn the_chosen_answer_stays_in_view_at_70x20() {
    let mut app = app((70, 20));
    press(&mut app, "z");
    let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    for q in &questions[..9] {
        let letter = app.quiz_letter(q.correct()).unwrap().to_string();
        press(&mut app, &letter);
        press(&mut app, "\n");
    }
    let q = &questions[9];
    let wrong = (0..q.options.len())
        .filter(|&i| i != q.correct())
        .max_by_key(|&i| q.options[i].explanation.len())
        .unwrap();
    let letter = app.quiz_letter(wrong).unwrap();
    press(&mut app, &letter.to_string());
    let shown = screen(&app);
    assert!(
        shown.contains(&format!(" ✗ {letter}) ")),
        "the chosen answer shows:\n{shown}"
    );
    assert!(
        shown.contains("✗ Not quite."),
        "its explanation starts below it:\n{shown}"
    );
}

/// The summary's one-line rows run to the last column but one, as the
/// left margin is one column; a cut row ends with `…` there.
#[test]
fn quiz_summary_rows_reach_the_last_column_but_one() {
    for size in SIZES {
        let mut app = app(size);
        press(&mut app, "z");
        let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        for q in &questions {
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(&mut app, &letter);
            press(&mut app, "\n");
        }
        let shown = screen(&app);
        let cut: Vec<&str> = shown
            .lines()
            .filter(|l| l.starts_with(" ✓ ") && l.ends_with('…'))
            .collect();
        assert!(!cut.is_empty(), "{shown}");
        for row in cut {
            assert_eq!(row.chars().count(), usize::from(size.0) - 1, "{row}");
        }
    }
}

/// Esc from the quiz summary, after `o` read a missed question's section,
/// comes back to the summary, then to the lesson where the learner was
/// before the quiz, not to the section read last.
#[test]
fn esc_from_the_quiz_summary_returns_to_the_lesson_place_it_came_from() {
    let mut app = app((80, 24));
    press(&mut app, "\n   ");
    let before = screen(&app);
    press(&mut app, "z");
    let questions = app.course().part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
    for (i, q) in questions.iter().enumerate() {
        if i == questions.len() - 1 {
            let wrong = (q.correct() + 1) % q.options.len();
            let letter = app.quiz_letter(wrong).unwrap().to_string();
            press(&mut app, &letter);
        }
        let letter = app.quiz_letter(q.correct()).unwrap().to_string();
        press(&mut app, &letter);
        press(&mut app, "\n");
    }
    press(&mut app, "o");
    let section = screen(&app);
    assert_ne!(
        section, before,
        "o opens the missed question's section, elsewhere in the lesson"
    );
    press(&mut app, "\x1b");
    assert!(screen(&app).contains("Quiz complete"), "esc comes back to the summary");
    press(&mut app, "\x1b");
    assert_eq!(screen(&app), before, "the lesson where the learner was");
}

/// `w` shows the selected case full-width, the case list hidden; `w`
/// again brings the list back.
#[test]
fn w_shows_the_case_full_width() {
    at_both_sizes("exercise_full_width", "e", |app| {
        let report = report_of_01(app, 8);
        finish(app, report);
        press(app, "w");
    });
    let mut app = app((70, 20));
    press(&mut app, "e");
    let report = report_of_01(&app, 8);
    finish(&mut app, report);
    press(&mut app, "ww");
    assert!(screen(&app).contains(" Cases "), "w again shows the list");
}

/// A list taller than the screen scrolls to the chosen case, with a
/// marker where cases lie beyond its rows (11 has 21 cases).
#[test]
fn a_long_case_list_scrolls_to_the_chosen_case() {
    for size in SIZES {
        let mut app = app(size);
        let index = app.course().exercise_index("11-capstone-server").unwrap();
        press(&mut app, "e");
        press(&mut app, &"n".repeat(index));
        let ex = app.course().exercises[index].clone();
        let cases = mcplings::check::checkers::of(&ex).unwrap().cases;
        let last = cases.last().unwrap().name;
        press(&mut app, &"j".repeat(cases.len()));
        let shown = screen(&app);
        assert!(shown.contains(&format!(" {last}")), "{shown}");
        assert!(shown.contains("▲ ") && shown.contains(" more"), "{shown}");
        insta::assert_snapshot!(format!("case_list_scrolled_{}x{}", size.0, size.1), shown);
    }
}
