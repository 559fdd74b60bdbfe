//! Property tests (proptest) for panics: whatever a learner's program
//! prints, whatever an author writes and however small the terminal, the
//! classifier, the SSE parser, the loaders and the views return a result,
//! never a panic. Inputs are both arbitrary text and real frames and
//! content with random edits, which reach the deeper branches sooner.
//!
//! Longer runs: `PROPTEST_CASES=100000 cargo test --release --test fuzz`;
//! libFuzzer targets for the same parsers are in `fuzz/`.

use std::path::Path;
use std::sync::OnceLock;

use mcplings::app::{App, Msg};
use mcplings::check::http::parse_events;
use mcplings::content::error::parse_toml;
use mcplings::content::manifest::{CourseFile, ExercisesFile};
use mcplings::content::{Course, lesson, quiz};
use mcplings::jsonrpc::{Id, Kind, classify, classify_line, frame_id};
use mcplings::progress::Progress;
use mcplings::text::{highlight_json, lay_out_lesson, lesson_plain};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Map, Value};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| Course::load(root(), &mcplings::check::checkers::names()).expect("the course loads"))
}

fn shipped(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

/// The shipped lesson of the `index`th written part (0-based).
fn lesson_source(index: usize) -> String {
    let parts: Vec<_> = course().parts.iter().filter(|p| p.is_written()).collect();
    let part = parts[index % parts.len()];
    let dir = std::fs::read_dir(root().join("lessons"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("{:02}-", part.number))
        })
        .unwrap();
    std::fs::read_to_string(dir.join("lesson.md")).unwrap()
}

/// One random edit of a text: delete, insert or replace a short run at a
/// char boundary.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop_oneof![
        Just("\n".to_string()),
        Just("\"".to_string()),
        Just("[[".to_string()),
        Just("]]".to_string()),
        Just("= ".to_string()),
        Just("```".to_string()),
        Just("```json 2025-11-25\n".to_string()),
        Just("# ".to_string()),
        Just("## ".to_string()),
        Just("- ".to_string()),
        Just("1. ".to_string()),
        Just("> ".to_string()),
        Just("`".to_string()),
        Just("**".to_string()),
        Just("<b>".to_string()),
        Just("correct = true\n".to_string()),
        Just("id = \"01-encode-frames\"\n".to_string()),
        Just("é😀\u{200b}\t\r".to_string()),
        ".{0,12}",
    ];
    prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), piece).prop_map(|(at, s)| Edit::Insert(at, s)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut out = text.to_string();
    for e in edits {
        let boundary = |at: usize, s: &str| {
            let mut at = if s.is_empty() { 0 } else { at % (s.len() + 1) };
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        match e {
            Edit::Delete(at, n) => {
                let start = boundary(*at, &out);
                let mut end = (start + n).min(out.len());
                while !out.is_char_boundary(end) {
                    end -= 1;
                }
                out.replace_range(start..end, "");
            }
            Edit::Insert(at, s) => {
                let at = boundary(*at, &out);
                out.insert_str(at, s);
            }
        }
    }
    out
}

/// JSON values shaped like JSON-RPC frames: objects whose keys are mostly
/// the members the classifier looks at.
fn frame_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        Just(Value::from(u64::MAX)),
        Just(Value::from("2.0")),
        ".{0,8}".prop_map(Value::from),
    ];
    let key = prop_oneof![
        Just("jsonrpc"),
        Just("id"),
        Just("method"),
        Just("params"),
        Just("result"),
        Just("error"),
        Just("code"),
        Just("message"),
        Just("data"),
        Just("x"),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..7).prop_map(|members| Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

/// Errors must point inside the file (or at it as a whole, line 0).
fn assert_lines_inside(errors: &[mcplings::content::ContentError], source: &str) {
    let lines = source.split('\n').count();
    for e in errors {
        assert!(e.line <= lines, "{e} points past the end ({lines} lines)");
    }
}

proptest! {
    #[test]
    fn classify_line_never_panics_and_agrees_with_classify(line in ".*") {
        let kind = classify_line(&line);
        match serde_json::from_str::<Value>(&line) {
            Ok(value) => prop_assert_eq!(classify(&value), kind),
            Err(_) => prop_assert_eq!(kind.name(), "invalid"),
        }
    }

    #[test]
    fn classify_never_panics_on_frame_like_values(value in frame_like()) {
        let kind = classify(&value);
        // A request or response's id is the frame's id, exactly.
        let id = match &kind {
            Kind::Request { id, .. } | Kind::Success { id } | Kind::Error { id: Some(id), .. } => Some(id.clone()),
            _ => None,
        };
        if let Some(id) = id {
            prop_assert_eq!(frame_id(&value).as_ref().and_then(Id::from_value), Some(id));
        }
    }

    #[test]
    fn integer_ids_round_trip(n in any::<i64>(), s in ".*") {
        prop_assert_eq!(Id::from_value(&Id::Int(n).to_value()), Some(Id::Int(n)));
        prop_assert_eq!(Id::from_value(&Id::Str(s.clone()).to_value()), Some(Id::Str(s)));
    }

    #[test]
    fn sse_parser_never_panics(stream in "((event|data|id|retry|:)?(: ?)?[^\n]{0,10}(\r?\n)?){0,20}") {
        for event in parse_events(&stream) {
            prop_assert!(!event.event.is_empty());
        }
    }

    #[test]
    fn highlighting_any_text_as_json_never_panics(text in ".*") {
        let _ = highlight_json(&text);
    }

    #[test]
    fn lesson_loader_never_panics_on_any_text(source in ".*") {
        if let Err(errors) = lesson::parse(Path::new("lesson.md"), &source) {
            prop_assert!(!errors.is_empty());
            assert_lines_inside(&errors, &source);
        }
    }

    #[test]
    fn quiz_loader_never_panics_on_any_text(source in ".*") {
        prop_assert!(quiz::parse(Path::new("quiz.toml"), &source).is_err());
    }

    #[test]
    fn quiz_loader_never_panics_on_edited_quizzes(edits in prop::collection::vec(edit(), 1..8)) {
        let source = apply(&shipped("lessons/01-json-rpc-messages/quiz.toml"), &edits);
        match quiz::parse(Path::new("quiz.toml"), &source) {
            Ok(q) => {
                for question in &q.questions {
                    prop_assert!(question.options[question.correct()].correct);
                }
            }
            Err(errors) => assert_lines_inside(&errors, &source),
        }
    }

    #[test]
    fn manifest_shapes_never_panic_on_edited_manifests(edits in prop::collection::vec(edit(), 1..8)) {
        for rel in ["lessons/course.toml", "lessons/01-json-rpc-messages/exercises.toml"] {
            let source = apply(&shipped(rel), &edits);
            if let Err(e) = parse_toml::<CourseFile>(Path::new(rel), &source) {
                assert_lines_inside(&[e], &source);
            }
            if let Err(e) = parse_toml::<ExercisesFile>(Path::new(rel), &source) {
                assert_lines_inside(&[e], &source);
            }
        }
    }
}

proptest! {
    // Each case parses a whole lesson and lays it out (about 70 ms in a
    // debug build); 64 cases keep this near 4 s (set PROPTEST_CASES for
    // more, as CONTRIBUTING's longer run does).
    #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(64)))]

    #[test]
    fn lesson_loader_and_layout_never_panic_on_edited_lessons(edits in prop::collection::vec(edit(), 1..8), part in 0usize..5, width in 0usize..120) {
        let source = apply(&lesson_source(part), &edits);
        match lesson::parse(Path::new("lesson.md"), &source) {
            Ok(l) => {
                let _ = lay_out_lesson(&l, width);
                let _ = lesson_plain(&l, width);
            }
            Err(errors) => assert_lines_inside(&errors, &source),
        }
    }
}

proptest! {
    // Each case drives the whole app; 32 cases keep this under a few
    // seconds in a debug build (set PROPTEST_CASES for more).
    #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(32)))]

    #[test]
    fn every_screen_draws_at_every_size(
        keys in prop::collection::vec(prop::sample::select(&['\n', '\x1b', '↓', '↑', '→', '←', '\t', 'j', 'k', 'l', 'h', 'n', 'p', 'e', 'q', '?', 'g', 'G', ' ', 'a', 'b', 'c', 'x', 'r', 'y', '1', '3', '5'][..]), 0..20),
        sizes in prop::collection::vec((0u16..130, 0u16..45), 1..4),
    ) {
        let mut app = App::new(course().clone(), Progress::default(), (80, 24));
        for (i, c) in keys.iter().enumerate() {
            let code = match c {
                '\n' => KeyCode::Enter,
                '\x1b' => KeyCode::Esc,
                '↓' => KeyCode::Down,
                '↑' => KeyCode::Up,
                '→' => KeyCode::Right,
                '←' => KeyCode::Left,
                '\t' => KeyCode::Tab,
                c => KeyCode::Char(*c),
            };
            let _ = app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
            let (w, h) = sizes[i % sizes.len()];
            let _ = app.update(Msg::Resize(w, h));
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            terminal.draw(|f| mcplings::ui::draw(f, &app)).unwrap();
        }
    }
}
