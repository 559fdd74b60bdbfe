//! Asides in the workbook (folded, focus, `a`/`A`), the place kept by
//! block, sections seen by title, and what exercises need (the task's
//! "Read first", the lesson's "ready" lines), on a fixture lesson
//! (`asides.md`) put in Part 1's place: the real lessons are rewritten
//! apart from this code.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{code, key};
use crate::app::{App, Msg, Screen};
use crate::content::{Course, lesson, needs};
use crate::progress::{LessonPlace, Progress};

/// The fixture lesson: three sections; the first holds a wild aside
/// (block 1), a story (block 3) and `### Ids` (block 5), the second a
/// deeper aside (block 1).
pub(crate) const FIXTURE: &str = include_str!("asides.md");

const FIRST: &str = "Three shapes, one id";
const SECOND: &str = "One frame, one line";
const WILD: &str = "▸ In the wild · How five SDKs answer a second initialize";

/// The course with the fixture as Part 1's lesson; 01 needs `1 › Ids` and
/// `1 › One frame, one line`, 02 needs `1 › Three shapes, one id`.
fn course() -> Course {
    let mut course = super::app().course;
    let lesson = lesson::parse(std::path::Path::new("asides.md"), FIXTURE).expect("the fixture parses");
    let need = |name: &str| {
        let (part, heading) = needs::split(name).unwrap();
        needs::resolve(part, heading, &lesson).unwrap()
    };
    assert_eq!(course.exercises[0].part, 1);
    assert_eq!(course.exercises[1].part, 1);
    course.exercises[0].needs = vec![need("1 › Ids"), need("1 › One frame, one line")];
    course.exercises[1].needs = vec![need("1 › Three shapes, one id")];
    course.parts[0].lesson = Some(lesson);
    course
}

fn with(progress: Progress, size: (u16, u16)) -> App {
    App::new(course(), progress, size)
}

/// The fixture's lesson open at 80×24.
fn open() -> App {
    let mut app = with(Progress::default(), (80, 24));
    app.update(code(KeyCode::Enter));
    assert_eq!(app.screen, Screen::Lesson);
    app
}

fn texts(app: &App) -> Vec<String> {
    app.lesson
        .laid
        .as_ref()
        .unwrap()
        .lines
        .iter()
        .map(crate::text::plain)
        .collect()
}

fn top(app: &App) -> String {
    texts(app)[app.lesson.scroll].clone()
}

fn ctrl_c() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))
}

#[test]
fn an_aside_opens_folded_to_one_line_that_says_what_it_holds() {
    let app = open();
    let t = texts(&app);
    assert!(t.iter().any(|l| l == WILD), "{t:#?}");
    assert!(t.iter().any(|l| l == "▸ Story · modelcontextprotocol/python-sdk#2057"));
    assert!(!t.iter().any(|l| l.contains("Two others close")), "its body is folded");
    let focus = app.lesson.focused().expect("an aside head on screen");
    assert_eq!((focus.section, focus.block), (0, 1), "the first shown is in focus");
}

#[test]
fn a_opens_and_folds_the_aside_in_focus() {
    let mut app = open();
    app.update(key('a'));
    let t = texts(&app);
    assert!(
        t.iter()
            .any(|l| l == "▾ In the wild · How five SDKs answer a second initialize")
    );
    assert!(
        t.iter()
            .any(|l| l == "│ Two others close the connection, and the fifth ignores the request.")
    );
    assert!(
        t.iter().any(|l| l == "▸ Story · modelcontextprotocol/python-sdk#2057"),
        "the story stays folded"
    );
    app.update(key('a'));
    assert!(texts(&app).iter().any(|l| l == WILD));
    assert!(app.lesson.open.is_empty());
}

#[test]
fn toggling_keeps_the_top_line_where_it_is() {
    let mut app = open();
    app.update(key('a'));
    // Down until the open wild aside's head is above the screen and the
    // story's head is the first shown.
    while app.lesson.focused().map(|a| a.block) != Some(3) {
        app.update(key('j'));
    }
    let (scroll, line) = (app.lesson.scroll, top(&app));
    assert!(line.starts_with('│'), "the top line is inside the open aside: {line}");
    app.update(key('a'));
    assert!(texts(&app).iter().any(|l| l.starts_with("▾ Story")));
    assert_eq!((app.lesson.scroll, top(&app)), (scroll, line.clone()), "opening below");
    app.update(key('a'));
    assert_eq!((app.lesson.scroll, top(&app)), (scroll, line), "folding below");
    // The head on the top line, folded: it stays the top line.
    let wild = app.lesson.laid.as_ref().unwrap().asides[0].head.start;
    app.lesson.scroll = wild;
    app.update(key('a'));
    assert_eq!(top(&app), WILD);
}

#[test]
fn shift_a_opens_every_aside_of_the_top_section_then_folds_them() {
    let mut app = open();
    app.update(key('a'));
    app.update(key('A'));
    assert_eq!(
        app.lesson.open.iter().copied().collect::<Vec<_>>(),
        [(0, 1), (0, 3)],
        "one was folded: all open"
    );
    app.update(key('A'));
    assert!(app.lesson.open.is_empty(), "all were open: all folded");
    // The second section's deeper aside is not the first section's.
    app.update(key('n'));
    app.update(key('A'));
    assert_eq!(app.lesson.open.iter().copied().collect::<Vec<_>>(), [(1, 1)]);
    app.update(key('n'));
    app.update(key('A'));
    assert_eq!(app.notice(), Some("Errors has no asides."));
}

#[test]
fn asides_start_folded_each_time_the_lesson_opens() {
    let mut app = open();
    app.update(key('A'));
    assert!(!app.lesson.open.is_empty());
    app.update(code(KeyCode::Esc));
    app.update(code(KeyCode::Enter));
    assert!(app.lesson.open.is_empty());
    assert!(app.lesson.laid.as_ref().unwrap().asides.iter().all(|a| !a.open));
    let stored = serde_json::to_string(&app.progress).unwrap();
    assert!(!stored.contains("open"), "not stored: {stored}");
}

#[test]
fn resume_with_an_aside_open_above_the_top_line_lands_on_the_same_block() {
    let mut app = open();
    app.update(key('a'));
    // The second line of the paragraph after the open wild aside.
    while app.lesson.place().block < 2 {
        app.update(key('j'));
    }
    app.update(key('j'));
    let place = app.lesson.place();
    assert_eq!(
        place,
        LessonPlace {
            section: FIRST.into(),
            block: 2,
            line: 1
        }
    );
    let wild = app.lesson.laid.as_ref().unwrap().asides[0].clone();
    assert!(
        wild.open && wild.head.end < app.lesson.scroll,
        "open, above the top line"
    );
    let (scroll, line) = (app.lesson.scroll, top(&app));
    app.update(ctrl_c());
    assert_eq!(app.progress.lesson(1).place.as_ref(), Some(&place));
    let mut again = App::new(app.course.clone(), app.progress.clone(), (80, 24));
    again.update(Msg::Resume);
    assert_eq!(again.screen, Screen::Lesson);
    assert!(again.lesson.open.is_empty(), "folded again");
    assert_eq!(again.lesson.place(), place);
    assert_eq!(top(&again), line, "the same line on top");
    assert!(again.lesson.scroll < scroll, "higher up: the aside above is folded");
}

#[test]
fn another_width_keeps_the_block() {
    let mut app = open();
    app.update(key('n'));
    app.update(key('j'));
    app.update(key('j'));
    app.update(key('j'));
    let place = app.lesson.place();
    assert_eq!((place.section.as_str(), place.block), (SECOND, 0));
    app.update(Msg::Resize(70, 20));
    let narrow = app.lesson.place();
    assert_eq!(
        (narrow.section, narrow.block, narrow.line),
        (place.section, place.block, place.line)
    );
}

#[test]
fn sections_read_are_kept_by_title() {
    let mut app = open();
    for _ in 0..10 {
        app.update(key(' '));
    }
    let record = app.progress.lesson(1);
    assert_eq!(record.seen, [FIRST, SECOND, "Errors"]);
    assert!(record.read);
    let stored = serde_json::to_string(&app.progress).unwrap();
    assert!(
        stored.contains(r#""seen":["Three shapes, one id","One frame, one line","Errors"]"#),
        "{stored}"
    );
}

#[test]
fn a_record_by_index_opens_where_it_was() {
    // A file written before titles: section 1, half way; section 0 seen.
    let old = r#"{"format_version":1,"lessons":{"1":{"read":false,"seen":[0],"section":1,"offset":500}},
        "position":{"part":1,"screen":"lesson"}}"#;
    let mut app = with(serde_json::from_str(old).unwrap(), (80, 24));
    app.update(Msg::Resume);
    let record = app.progress.lesson(1);
    assert!(!record.is_legacy());
    assert_eq!(record.seen[0], FIRST);
    // Section 1 has three blocks: 500 thousandths is block 1, the deeper aside.
    assert_eq!(
        app.lesson.place(),
        LessonPlace {
            section: SECOND.into(),
            block: 1,
            line: 0
        }
    );
    assert_eq!(top(&app), "▸ Deeper · What 2024-11-05 said about batches");
}

/// The task pane's text, lines joined by spaces.
fn pane(app: &App) -> String {
    let lines: Vec<String> = app.exercise.lines.iter().map(|l| l.text()).collect();
    lines.join(" ")
}

#[test]
fn the_task_says_what_to_read_first_and_l_opens_the_first_unread() {
    // Nothing read: L opens the lesson at `### Ids`.
    let mut app = with(Progress::default(), (80, 24));
    app.update(key('e'));
    // Too wide for the pane at 80 columns: one per line.
    let lines: Vec<String> = app.exercise.lines.iter().map(|l| l.text()).collect();
    let at = lines
        .iter()
        .position(|l| l == "Read first:")
        .expect("the Read first line");
    assert_eq!(
        lines[at + 1..at + 4],
        ["○ 1 › Ids", "○ 1 › One frame, one line", "L opens the first."]
    );
    // Wide enough: on one line.
    app.update(Msg::Resize(130, 40));
    assert!(
        pane(&app).contains("Read first: ○ 1 › Ids · ○ 1 › One frame, one line L opens the first."),
        "{}",
        pane(&app)
    );
    app.update(key('L'));
    assert_eq!(app.screen, Screen::Lesson);
    assert_eq!(
        (app.lesson.place().section.as_str(), app.lesson.place().block),
        (FIRST, 5)
    );
    assert_eq!(top(&app), "Ids");
    app.update(code(KeyCode::Esc));
    assert_eq!(app.screen, Screen::Exercise, "esc goes back to the exercise");

    // Its section read (a `###` counts as read with its `##`): L opens the next.
    let mut progress = Progress::default();
    progress.lesson_mut(1).see(FIRST);
    let mut app = with(progress, (80, 24));
    app.update(key('e'));
    assert!(
        pane(&app).contains("Read first: ○ 1 › One frame, one line L opens the first. (1 read already.)"),
        "{}",
        pane(&app)
    );
    app.update(key('L'));
    assert_eq!(
        app.lesson.place(),
        LessonPlace {
            section: SECOND.into(),
            block: 0,
            line: 0
        }
    );
    assert_eq!(top(&app), SECOND);

    // All read: the first again.
    let mut progress = Progress::default();
    progress.lesson_mut(1).see(FIRST);
    progress.lesson_mut(1).see(SECOND);
    let mut app = with(progress, (80, 24));
    app.update(key('e'));
    assert!(
        pane(&app).contains("Read first: done, you have read every section it needs. L opens the first again."),
        "{}",
        pane(&app)
    );
    app.update(key('L'));
    assert_eq!(top(&app), "Ids");
}

#[test]
fn an_exercise_without_needs_says_nothing_of_them() {
    let mut course = super::app().course;
    course.exercises[0].needs.clear();
    let mut app = App::new(course, Progress::default(), (80, 24));
    app.update(key('e'));
    assert!(!pane(&app).contains("Read first"));
    app.update(key('L'));
    assert_eq!(app.screen, Screen::Exercise);
    assert!(app.notice().is_some_and(|n| n.contains("names nothing to read")));
}

#[test]
fn the_lesson_says_when_an_exercise_is_ready_and_x_opens_it() {
    let mut app = open();
    let t = texts(&app);
    let line = |text: &str| {
        t.iter()
            .position(|l| l.ends_with(text))
            .unwrap_or_else(|| panic!("{text}: {t:#?}"))
    };
    // 02 needs the first section: after its last block (the Ids paragraph).
    let ids = line("An id is a string or a number. Two calls in flight never share one.");
    assert_eq!(line("Exercise 02 is ready · x opens it"), ids + 2);
    // 01 needs `### Ids` and the second section: after the second's last block.
    let last = line("whatever threads write them.");
    assert_eq!(line("Exercise 01 is ready · x opens it"), last + 2);
    assert!(line("Exercise 01 is ready · x opens it") < t.iter().position(|l| l == "Errors").unwrap());
    // Neither on screen nor above: x says so.
    app.update(key('x'));
    assert_eq!(app.screen, Screen::Lesson);
    assert!(app.notice().is_some_and(|n| n.contains("No exercise is ready")));
    // On the second section: 01's line is on screen, 02's above; the one shown wins.
    app.update(key('n'));
    app.update(key('x'));
    assert_eq!(app.screen, Screen::Exercise);
    assert_eq!(app.exercise.index, 0);
    // Only 02's passed (the deeper aside open pushes 01's below the screen): x opens 02.
    app.update(code(KeyCode::Esc));
    app.update(key('A'));
    let t = texts(&app);
    let at = |text: &str| t.iter().position(|l| l == text).unwrap();
    app.lesson.scroll = at("Exercise 02 is ready · x opens it") + 1;
    assert!(at("Exercise 01 is ready · x opens it") >= app.lesson.scroll + app.lesson.rows);
    app.update(key('x'));
    assert_eq!((app.screen, app.exercise.index), (Screen::Exercise, 1));
}
