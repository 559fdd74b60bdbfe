//! The screen sweep (issue 37): every exercise's stub screen, drawn from
//! the check report the shipped stub gave (`tests/reports/NN.json`,
//! recorded with `mcplings check NN --json`: no process runs here), its
//! first failing case's detail, a lesson page with a wide frame and a quiz
//! question, at 80×24 and 70×20 on ratatui's TestBackend, and the CLI's
//! report of each recorded check at 80 columns. Three rules hold for all:
//!
//! - no case name is cut in the case list at 80 columns (at 70, a name
//!   cut there heads the pane whole when chosen);
//! - a line continued behind `┆` breaks at a boundary (after `,` `:` `/`
//!   or a space) whenever one lay within the last 12 columns
//!   ([`mcplings::text::breaks`]);
//! - a pane whose text goes on below its last row says so, naming the key
//!   that scrolls it (and one that does not, does not).
//!
//! Each rule's check is proved to fire on a planted fault: a name cut, a
//! raw transcript (broken at characters), a marker wiped.

use mcplings::app::{App, Effect, Msg};
use mcplings::check::CheckReport;
use mcplings::content::Course;
use mcplings::progress::Progress;
use mcplings::text::breaks;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use unicode_width::UnicodeWidthStr;

use crate::views_common::{course, press};

const SIZES: [(u16, u16); 2] = [(80, 24), (70, 20)];

/// The screen as rows of cells (one symbol each, a wide character's second
/// cell empty).
fn cells(app: &App) -> Vec<Vec<String>> {
    let (w, h) = app.size();
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| mcplings::ui::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buffer[(x, y)].symbol().to_string()).collect())
        .collect()
}

fn text(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| r.concat().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Columns `x0..x1` of a row, as text.
fn span(row: &[String], x0: usize, x1: usize) -> String {
    row[x0.min(row.len())..x1.min(row.len())].concat()
}

/// Where a screen's text lies: the body rows and the columns its lines are
/// laid out in (`edge`: one past the last column a line may fill).
#[derive(Debug, Clone, Copy)]
struct Region {
    x0: usize,
    edge: usize,
    rows: (usize, usize),
}

/// The body's rows: between the header and its rule, and the footer's rule
/// and bar.
fn body(app: &App) -> (usize, usize) {
    (2, usize::from(app.size().1) - 2)
}

/// The exercise pane: right of the case list when it shows, its lines
/// [`App::pane_text_width`] wide behind a margin.
fn pane_region(app: &App) -> Region {
    let x0 = if app.shows_case_list() {
        usize::from(app.list_width()) + 1
    } else {
        1
    };
    Region {
        x0,
        edge: x0 + app.pane_text_width(),
        rows: body(app),
    }
}

/// Rule 1: every name in `names` shows whole in the case list (columns
/// before the list's width) of `rows`.
fn names_whole(rows: &[Vec<String>], names: &[&str], list_width: usize) -> Result<(), String> {
    let list: Vec<String> = rows.iter().map(|r| span(r, 0, list_width)).collect();
    for name in names {
        if !list.iter().any(|l| l.contains(&format!(" {name}"))) {
            return Err(format!("case name `{name}` is cut in the list:\n{}", list.join("\n")));
        }
    }
    Ok(())
}

/// Rule 2: every continuation (`┆`) in `region` of `rows` keeps the
/// boundary rule ([`breaks::break_is_kept`]) with the line above it.
/// Returns how many continuations it held to it.
fn breaks_kept(rows: &[Vec<String>], region: Region) -> Result<usize, String> {
    let room = region.edge - region.x0;
    let mut held = 0;
    for y in region.rows.0..region.rows.1.saturating_sub(1) {
        let next = span(&rows[y + 1], region.x0, region.edge);
        let Some((_, after)) = next.split_once('┆') else {
            continue;
        };
        let before = span(&rows[y], region.x0, region.edge);
        let before = before.trim_end();
        if !breaks::break_is_kept(before, after.trim_start(), room) {
            return Err(format!(
                "row {y} breaks inside a token with a boundary in its last {} columns:\n{before}\n{next}",
                breaks::WINDOW
            ));
        }
        held += 1;
    }
    Ok(held)
}

/// Rule 3: a pane whose rows change when `key` scrolls it was cut; it must
/// have shown a marker (`▼ … more …`) naming `key`, and a pane that does
/// not scroll must show none.
fn marker_kept(before: &[Vec<String>], after: &[Vec<String>], region: Region, key: &str) -> Result<(), String> {
    let lines = |rows: &[Vec<String>]| -> Vec<String> {
        rows[region.rows.0..region.rows.1]
            .iter()
            .map(|r| span(r, region.x0.saturating_sub(1), r.len()))
            .collect()
    };
    let (shown, scrolled) = (lines(before), lines(after));
    let marker = shown.iter().find(|l| l.contains('▼') && l.contains(" more line"));
    let cut = shown
        .iter()
        .filter(|l| !l.contains('▼'))
        .ne(scrolled.iter().filter(|l| !l.contains('▼')));
    match (cut, marker) {
        (true, Some(m)) if m.contains(&format!("· {key}")) => Ok(()),
        (true, Some(m)) => Err(format!("the marker does not name `{key}`: {m}")),
        (true, None) => Err(format!("cut without a marker:\n{}", shown.join("\n"))),
        (false, Some(m)) => Err(format!("a marker on a pane that does not scroll: {m}")),
        (false, None) => Ok(()),
    }
}

/// The recorded check report of the stub of exercise `number` (`NN`).
fn recorded(number: &str) -> CheckReport {
    let path = format!("{}/tests/reports/{number}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A workbook of `size` on exercise `index` (course order) with its stub's
/// recorded report delivered: the first failing case shown.
fn stub_screen(course: &Course, index: usize, size: (u16, u16)) -> App {
    let mut app = App::new(course.clone(), Progress::default(), size);
    let mut effects = press(&mut app, "e");
    for _ in 0..index {
        effects = press(&mut app, "n");
    }
    let run = effects
        .iter()
        .find_map(|e| match e {
            Effect::StartCheck { run, .. } => Some(*run),
            _ => None,
        })
        .expect("opening an exercise starts its check");
    let ex = &course.exercises[index];
    let report = recorded(ex.number());
    assert_eq!(
        report.exercise,
        ex.id,
        "tests/reports/{}.json is {}'s",
        ex.number(),
        ex.id
    );
    let recorded: Vec<&str> = report.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        recorded,
        case_names(course, index),
        "the checker's cases changed: record the stub's report again, \
         `mcplings check {} --json > tests/reports/{}.json`",
        ex.number(),
        ex.number()
    );
    app.update(Msg::CheckDone {
        run,
        report: Box::new(report),
    });
    app
}

/// The names of the cases of the exercise at `index`.
fn case_names(course: &Course, index: usize) -> Vec<&'static str> {
    let checker = mcplings::check::checkers::of(&course.exercises[index]).expect("every exercise has a checker");
    checker.cases.iter().map(|c| c.name).collect()
}

/// Draws `app`, presses `key`, draws again: rule 3 on the region.
fn scrolls_with_marker(app: &App, region: Region, key_char: &str, key: &str) -> Result<(), String> {
    let before = cells(app);
    let mut scrolled = app.clone();
    press(&mut scrolled, key_char);
    marker_kept(&before, &cells(&scrolled), region, key)
}

#[test]
fn every_stub_screen_keeps_the_three_rules() {
    let course = course();
    // Continuations held to the rule, and cut panes that showed a marker:
    // the sweep must meet both, or it proves nothing.
    let (mut held, mut markers) = (0, 0);
    let mut count = |rows: &[Vec<String>], region: Region| {
        markers += usize::from(rows.iter().any(|r| span(r, region.x0, r.len()).contains('▼')));
    };
    for index in 0..course.exercises.len() {
        for size in SIZES {
            let mut app = stub_screen(&course, index, size);
            let id = &course.exercises[index].id;
            let at = format!("{id} at {}×{}", size.0, size.1);
            // Each case chosen in turn (the list scrolls to it): its name
            // whole at 80 columns, its detail's first page by the rules.
            let names = case_names(&course, index);
            let first_failing = app.clone();
            press(&mut app, &"k".repeat(names.len()));
            for (i, name) in names.iter().enumerate() {
                if i > 0 {
                    press(&mut app, "j");
                }
                let rows = cells(&app);
                if size.0 == 80 {
                    names_whole(&rows, &[name], usize::from(app.list_width())).unwrap_or_else(|e| panic!("{at}: {e}"));
                }
                let region = pane_region(&app);
                held += breaks_kept(&rows, region).unwrap_or_else(|e| panic!("{at}, `{name}`: {e}"));
                count(&rows, region);
                scrolls_with_marker(&app, region, " ", "space").unwrap_or_else(|e| panic!("{at}, `{name}`: {e}"));
            }
            // The first failing case's detail, page by page.
            let mut app = first_failing;
            for page in 0..40 {
                let region = pane_region(&app);
                let rows = cells(&app);
                held += breaks_kept(&rows, region).unwrap_or_else(|e| panic!("{at}, page {page}: {e}"));
                scrolls_with_marker(&app, region, " ", "space").unwrap_or_else(|e| panic!("{at}, page {page}: {e}"));
                let before = text(&rows);
                press(&mut app, " ");
                if text(&cells(&app)) == before {
                    break;
                }
            }
            // Full-width (w): the same rules over the whole width.
            press(&mut app, "w");
            let region = pane_region(&app);
            assert_eq!(region.x0, 1, "{at}: w hides the case list");
            held += breaks_kept(&cells(&app), region).unwrap_or_else(|e| panic!("{at}, full-width: {e}"));
            scrolls_with_marker(&app, region, " ", "space").unwrap_or_else(|e| panic!("{at}, full-width: {e}"));
        }
    }
    eprintln!("stub screens: {held} continuations held, {markers} cut panes marked");
    assert!(
        held > 50 && markers > 50,
        "{held} continuations held, {markers} cut panes marked"
    );
}

/// The lesson page with Part 2's wide handshake frames, and Part 1's
/// quiz question with frames after a wrong pick, page by page.
#[test]
fn a_lesson_page_with_a_wide_frame_and_a_quiz_question_keep_the_rules() {
    let course = course();
    let mut held = 0;
    for size in SIZES {
        let at = format!("{}×{}", size.0, size.1);
        let mut app = App::new(course.clone(), Progress::default(), size);
        press(&mut app, "j\nn");
        let width = (usize::from(size.0) - 2).min(100);
        let region = Region {
            x0: 1,
            edge: 1 + width,
            rows: body(&app),
        };
        assert!(
            text(&cells(&app)).contains("\"protocolVersion\""),
            "{at}: the wide frame shows"
        );
        for page in 0..6 {
            held += breaks_kept(&cells(&app), region).unwrap_or_else(|e| panic!("lesson {at}, page {page}: {e}"));
            scrolls_with_marker(&app, region, " ", "space").unwrap_or_else(|e| panic!("lesson {at}: {e}"));
            press(&mut app, " ");
        }
        let mut app = App::new(course.clone(), Progress::default(), size);
        press(&mut app, "z");
        let questions = course.part(1).unwrap().quiz.as_ref().unwrap().questions.clone();
        let q = questions
            .iter()
            .position(|q| q.frames.is_some())
            .expect("Part 1 has a question with frames");
        for q in &questions[..q] {
            let letter = app.quiz_letter(q.correct()).unwrap().to_string();
            press(&mut app, &letter);
            press(&mut app, "\n");
        }
        let wrong = (questions[q].correct() + 1) % questions[q].options.len();
        let letter = app.quiz_letter(wrong).unwrap().to_string();
        press(&mut app, &letter);
        press(&mut app, &"k".repeat(40));
        let region = Region {
            x0: 0,
            edge: usize::from(size.0) - 2,
            rows: body(&app),
        };
        for line in 0..30 {
            held += breaks_kept(&cells(&app), region).unwrap_or_else(|e| panic!("quiz {at}, line {line}: {e}"));
            scrolls_with_marker(&app, region, "j", "↓").unwrap_or_else(|e| panic!("quiz {at}, line {line}: {e}"));
            press(&mut app, "j");
        }
    }
    assert!(held > 0, "the lesson and quiz pages continue some line");
}

/// Every recorded report as `mcplings check` prints it, 80 columns wide:
/// each continued line keeps the boundary rule (03 and 06 among them).
#[test]
fn the_cli_report_of_every_stub_keeps_the_boundary_rule() {
    let course = course();
    for ex in &course.exercises {
        let report = recorded(ex.number());
        let text = mcplings::cli::report::render(&report, ex, &format!("mcplings check {}", ex.number()));
        // A stub that panics on its first line: where the talk stopped.
        let first = report
            .cases
            .iter()
            .find(|c| c.status == mcplings::check::Status::Failed);
        let unanswered = first.is_some_and(|c| c.ends_unanswered());
        assert_eq!(
            text.contains(mcplings::check::report::NOTHING_BACK),
            unanswered,
            "{}:\n{text}",
            ex.id
        );
        if ex.number() == "03" {
            assert!(unanswered, "03's stub answers nothing:\n{text}");
        }
        let lines: Vec<&str> = text.lines().collect();
        let mut continued = 0;
        for pair in lines.windows(2) {
            let Some((lead, after)) = pair[1].split_once('┆') else {
                continue;
            };
            if !lead.trim().is_empty() {
                continue;
            }
            continued += 1;
            assert!(
                pair[0].width() <= mcplings::cli::report::WIDTH,
                "{}: wider than 80:\n{}",
                ex.id,
                pair[0]
            );
            assert!(
                breaks::break_is_kept(pair[0].trim_end(), after.trim_start(), mcplings::cli::report::WIDTH),
                "{}: a break inside a token with a boundary within 12 columns:\n{}\n{}",
                ex.id,
                pair[0],
                pair[1]
            );
        }
        if ex.number() == "06" {
            assert!(continued > 0, "06's report continues some line:\n{text}");
        }
    }
}

/// Item 1 of issue 37: every checker's case names against the width the
/// list gives them ([`App::case_name_room`], the view's own layout): all
/// fit at 80 columns; at 70, each one cut there heads the pane whole when
/// chosen.
#[test]
fn case_names_fit_the_list_at_80_and_head_the_pane_at_70() {
    let course = course();
    for (index, ex) in course.exercises.iter().enumerate() {
        let names = case_names(&course, index);
        let app = stub_screen(&course, index, (80, 24));
        let room = app.case_name_room();
        assert!(room >= 20, "the list gives names {room} columns at 80");
        for name in &names {
            assert!(
                name.width() <= room,
                "{}: `{name}` is wider than the {room} columns of the list at 80",
                ex.id
            );
        }
        let mut app = stub_screen(&course, index, (70, 20));
        let room = app.case_name_room();
        press(&mut app, &"k".repeat(names.len()));
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                press(&mut app, "j");
            }
            if name.width() <= room {
                continue;
            }
            let rows = cells(&app);
            let region = pane_region(&app);
            let head = span(&rows[2], region.x0, rows[2].len());
            assert!(
                head.trim_end().ends_with(name),
                "{}: the chosen `{name}` (cut in the list) heads the pane whole:\n{}",
                ex.id,
                text(&rows)
            );
        }
    }
}

/// The three checks fire: a name cut (01's longest at 70 columns, where
/// the list is narrower), a planted name that is not there, a raw
/// transcript (broken at characters), a marker wiped from a cut pane.
#[test]
fn each_check_fires_on_a_planted_fault() {
    let course = course();
    // A name cut: at 70 columns the list of 01 cuts its longest name.
    let app = stub_screen(&course, 0, (70, 20));
    let names = case_names(&course, 0);
    let longest = names.iter().copied().max_by_key(|n| n.width()).unwrap();
    assert!(longest.width() > app.case_name_room(), "01's longest name is cut at 70");
    let rows = cells(&app);
    assert!(names_whole(&rows, &[longest], usize::from(app.list_width())).is_err());
    assert!(names_whole(&rows, &["a planted name far too long for this list"], 31).is_err());
    // A break inside a token: the raw view (v) of 06's transcript breaks
    // at characters; held to the boundary rule, some page of it fails.
    let mut app = stub_screen(&course, 5, (70, 20));
    press(&mut app, "v");
    let mut caught = false;
    for _ in 0..40 {
        caught |= breaks_kept(&cells(&app), pane_region(&app)).is_err();
        press(&mut app, " ");
    }
    assert!(
        caught,
        "the raw view breaks inside a token somewhere, and the check says so"
    );
    // A marker wiped: 06's failing case is taller than its pane.
    let app = stub_screen(&course, 5, (70, 20));
    let region = pane_region(&app);
    let mut rows = cells(&app);
    let mut scrolled = app.clone();
    press(&mut scrolled, " ");
    let after = cells(&scrolled);
    assert!(marker_kept(&rows, &after, region, "space").is_ok());
    assert!(
        marker_kept(&rows, &after, region, "J").is_err(),
        "a marker naming another key"
    );
    let marker = rows
        .iter()
        .position(|r| span(r, region.x0, r.len()).contains('▼'))
        .expect("06's pane shows a marker");
    for cell in rows[marker].iter_mut().skip(region.x0) {
        *cell = " ".into();
    }
    assert!(
        marker_kept(&rows, &after, region, "space").is_err(),
        "a cut pane without its marker"
    );
}
