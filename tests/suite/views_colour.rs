//! Colours: every screen's styles, with colour and under `NO_COLOR`, as
//! snapshots of the buffer's styles (a text render cannot show them), and
//! the rules the theme keeps on every screen: without colour no cell has a
//! colour; with colour none uses a foreground that vanishes on common dark
//! or light backgrounds (blue, dark grey, yellow), and no cell sets a
//! background.

use mcplings::app::{App, Msg};
use mcplings::content::Course;
use mcplings::progress::Progress;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use crate::views_common::press;

fn app(mono: bool) -> App {
    let course = Course::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &mcplings::check::checkers::names(),
    )
    .expect("the course loads");
    let mut app = App::new(course, Progress::default(), (80, 24));
    if mono {
        app.update(Msg::NoColor);
    }
    app
}

fn buffer(app: &App) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| mcplings::ui::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

/// Each line as runs of one style: `‹fg,modifiers›text`, the plain runs
/// bare, trailing blanks dropped.
fn styles(buffer: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        let mut last = String::new();
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            let mut tag = Vec::new();
            if cell.fg != Color::Reset {
                tag.push(format!("{:?}", cell.fg));
            }
            if !cell.modifier.is_empty() {
                tag.push(format!("{:?}", cell.modifier).replace("Modifier(", "").replace(')', ""));
            }
            let tag = if tag.is_empty() {
                String::new()
            } else {
                format!("‹{}›", tag.join(","))
            };
            if tag != last {
                line.push_str(&tag);
                if tag.is_empty() {
                    line.push('‹');
                    line.push('›');
                }
                last = tag;
            }
            line.push_str(cell.symbol());
        }
        out.push_str(line.trim_end().trim_end_matches("‹›").trim_end());
        out.push('\n');
    }
    out
}

/// The screens: (name, keys from the map).
const SCREENS: &[(&str, &str)] = &[
    ("map", ""),
    ("lesson", "\nn"),
    ("exercise_hints", "eHH"),
    ("quiz", "z"),
    ("glossary", "t"),
];

#[test]
fn without_colour_no_cell_has_a_colour() {
    for (name, keys) in SCREENS {
        let mut app = app(true);
        press(&mut app, keys);
        let b = buffer(&app);
        for cell in b.content() {
            assert!(cell.fg == Color::Reset && cell.bg == Color::Reset, "{name}: {cell:?}");
        }
        insta::assert_snapshot!(format!("{name}_no_color"), styles(&b));
    }
}

#[test]
fn with_colour_no_foreground_vanishes_on_dark_or_light_backgrounds() {
    for (name, keys) in SCREENS {
        let mut app = app(false);
        press(&mut app, keys);
        let b = buffer(&app);
        for cell in b.content() {
            assert!(
                !matches!(
                    cell.fg,
                    Color::Blue | Color::DarkGray | Color::Yellow | Color::Gray | Color::White | Color::Black
                ),
                "{name}: {cell:?}"
            );
            assert_eq!(cell.bg, Color::Reset, "{name}: {cell:?}");
        }
        insta::assert_snapshot!(format!("{name}_colour"), styles(&b));
    }
}

/// A lesson's spec citations as OSC 8 hyperlinks, when the terminal takes
/// them: the escape sequences ride in the first and last cell of each
/// citation, forced to one column, so the text around them stays in
/// place; with links off (the default, and `TERM=dumb`) no cell holds one.
#[test]
fn citations_are_hyperlinks_only_where_the_terminal_takes_them() {
    use mcplings::text::cite::terminal_links;
    let env = |term: Option<&'static str>, switch: Option<&'static str>| {
        move |name: &str| match name {
            "TERM" => term.map(String::from),
            "MCPLINGS_LINKS" => switch.map(String::from),
            _ => None,
        }
    };
    assert!(terminal_links(env(Some("xterm-256color"), None)));
    assert!(!terminal_links(env(Some("dumb"), None)));
    assert!(!terminal_links(env(None, None)));
    assert!(!terminal_links(env(Some("xterm-256color"), Some("0"))));
    assert!(terminal_links(env(Some("linux"), Some("1"))));

    // Part 2's handshake section cites 2025-11-25 basic/lifecycle.
    let text = |b: &Buffer| b.content().iter().map(|c| strip_links(c.symbol())).collect::<String>();
    // Scrolled until the citation shows on one line.
    let open = |links: bool| {
        let mut app = app(false);
        if links {
            app.update(Msg::Links);
        }
        press(&mut app, "j\nn");
        for _ in 0..200 {
            if text(&buffer(&app)).contains("(2025-11-25 basic/lifecycle ›") {
                break;
            }
            press(&mut app, "j");
        }
        buffer(&app)
    };
    let plain = open(false);
    let linked = open(true);
    let url = "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle";
    let (mut opened, mut closed, mut lifecycle) = (0, 0, 0);
    for (a, b) in plain.content().iter().zip(linked.content()) {
        let symbol = b.symbol();
        if symbol.contains("\x1b]8;;https") {
            assert!(
                symbol.contains("https://modelcontextprotocol.io/specification/"),
                "{symbol:?}"
            );
            opened += 1;
            lifecycle += usize::from(symbol.contains(&format!("{url}\x1b\\")));
        }
        if symbol.contains("\x1b]8;;\x1b\\") {
            closed += 1;
        }
        // Without its escape sequences, every cell shows what it showed.
        assert_eq!(strip_links(symbol), a.symbol());
    }
    assert!(
        lifecycle >= 1 && opened == closed,
        "{opened} links opened ({lifecycle} to {url}), {closed} closed"
    );
    assert!(!plain.content().iter().any(|c| c.symbol().contains('\x1b')));
}

/// `symbol` without its OSC 8 sequences (`ESC ] 8 ; ; URL ESC \`).
fn strip_links(symbol: &str) -> String {
    let mut out = symbol.to_string();
    while let Some(start) = out.find("\x1b]8;;") {
        let Some(len) = out[start..].find("\x1b\\") else { break };
        out.replace_range(start..start + len + 2, "");
    }
    out
}

/// The aside in focus reads without colour: its head in reverse video,
/// under `NO_COLOR` as with colour (a fixture lesson in Part 1's place).
#[test]
fn the_aside_in_focus_is_in_reverse_video() {
    use mcplings::content::lesson;
    use ratatui::style::Modifier;
    for mono in [true, false] {
        let mut app = app(mono);
        let mut course = app.course().clone();
        let source = include_str!("../../src/app/tests/asides.md");
        course.parts[0].lesson = Some(lesson::parse(std::path::Path::new("asides.md"), source).unwrap());
        app = App::new(course, Progress::default(), (80, 24));
        if mono {
            app.update(Msg::NoColor);
        }
        press(&mut app, "\n");
        let b = buffer(&app);
        let row = |text: &str| {
            (0..b.area.height)
                .find(|&y| {
                    let line: String = (0..b.area.width).map(|x| b[(x, y)].symbol()).collect();
                    line.trim() == text
                })
                .unwrap_or_else(|| panic!("no row {text}"))
        };
        let focused = row("▸ In the wild · How five SDKs answer a second initialize");
        let other = row("▸ Story · modelcontextprotocol/python-sdk#2057");
        assert!(b[(1, focused)].modifier.contains(Modifier::REVERSED), "mono {mono}");
        assert!(!b[(1, other)].modifier.contains(Modifier::REVERSED), "mono {mono}");
        let name = if mono {
            "aside_focus_no_color"
        } else {
            "aside_focus_colour"
        };
        insta::assert_snapshot!(name, styles(&b));
    }
}

/// A compiler message's location in the exercise pane is an OSC 8 link to
/// its file where links are on (the path opens from where mcplings
/// started: here, the checkout's root), and plain text where they are off.
#[test]
fn source_locations_are_file_links_where_the_terminal_takes_them() {
    use mcplings::check::{BuildReport, CaseReport, CheckReport};
    let shown = |links: bool| {
        let mut app = app(false);
        if links {
            app.update(Msg::Links);
        }
        press(&mut app, "e");
        let report = CheckReport {
            format_version: 1,
            exercise: "01-encode-frames".into(),
            source: "exercise".into(),
            crate_dir: "exercises/01-encode-frames".into(),
            passed: false,
            build: BuildReport {
                ok: false,
                output: "error[E0308]: mismatched types\n  --> exercises/01-encode-frames/src/lib.rs:24:9\n".into(),
                duration_ms: 190,
            },
            cases: vec![CaseReport::not_run("request frame", "", "not run: the build failed")],
            duration_ms: 200,
            error: None,
        };
        app.update(Msg::CheckDone {
            run: 1,
            report: Box::new(report),
        });
        buffer(&app)
    };
    let (plain, linked) = (shown(false), shown(true));
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("exercises/01-encode-frames/src/lib.rs");
    let open = format!("\x1b]8;;file://{}\x1b\\", file.display());
    let opened = linked.content().iter().filter(|c| c.symbol().contains(&open)).count();
    let closed = linked
        .content()
        .iter()
        .filter(|c| c.symbol().contains("\x1b]8;;\x1b\\"))
        .count();
    assert_eq!((opened, closed), (1, 1), "{open:?}");
    for (a, b) in plain.content().iter().zip(linked.content()) {
        assert_eq!(strip_links(b.symbol()), a.symbol());
    }
    assert!(!plain.content().iter().any(|c| c.symbol().contains('\x1b')));
}
