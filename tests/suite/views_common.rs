//! What the view tests share (`views`, `views_sizes`, `views_colour`,
//! `views_sweep`): the course as shipped, keys pressed on a workbook, and
//! a workbook drawn on ratatui's `TestBackend` as text.

use mcplings::app::{App, Effect, Msg};
use mcplings::content::Course;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The course as shipped.
pub fn course() -> Course {
    Course::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &mcplings::check::checkers::names(),
    )
    .expect("the course loads")
}

/// Presses `keys` one by one (`\n` enter, `\x1b` esc, `↓` down, any other
/// character itself); the effects of the last.
pub fn press(app: &mut App, keys: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '\x1b' => KeyCode::Esc,
            '↓' => KeyCode::Down,
            c => KeyCode::Char(c),
        };
        effects = app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
    effects
}

/// The workbook drawn at its size, each row's text with its trailing
/// spaces cut.
pub fn screen(app: &App) -> String {
    let (w, h) = app.size();
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| mcplings::ui::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let line: String = (0..w).map(|x| buffer[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
