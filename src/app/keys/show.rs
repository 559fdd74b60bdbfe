//! The key tables shown: key names, the footer fitted to a width, the
//! table of docs/keys.md.

use ratatui::crossterm::event::KeyCode;

use super::{Binding, EXERCISE, GLOBAL, GLOSSARY, LESSON, MAP, QUIZ, Screen, When, table};

use KeyCode as K;
use When as W;

/// A key's name as the help and docs/keys.md show it.
pub fn key_name(key: KeyCode) -> String {
    match key {
        K::Char(' ') => "space".into(),
        K::Char(c) => c.to_string(),
        K::Up => "↑".into(),
        K::Down => "↓".into(),
        K::Left => "←".into(),
        K::Right => "→".into(),
        K::Enter => "enter".into(),
        K::Esc => "esc".into(),
        K::Tab => "tab".into(),
        K::BackTab => "shift-tab".into(),
        K::Backspace => "backspace".into(),
        K::Home => "home".into(),
        K::End => "end".into(),
        K::PageUp => "pgup".into(),
        K::PageDown => "pgdn".into(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// The names of a binding's keys, in order (`ctrl-c` for the keyless
/// global quit).
pub fn names(binding: &Binding) -> Vec<String> {
    match binding.keys {
        [] => vec!["ctrl-c".into()],
        keys => keys.iter().map(|(k, _)| key_name(*k)).collect(),
    }
}

/// The footer of `screen` in state `when`: the short forms of its
/// bindings, `{hints}` replaced by `hints`, then `esc back` off the map and
/// `?`; the least important (the last) are dropped until it fits `width`
/// columns.
pub fn footer(screen: Screen, when: When, hints: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut items: Vec<String> = table(screen)
        .iter()
        .filter(|b| !b.footer.is_empty() && (b.when == W::Always || b.when == when))
        .map(|b| b.footer.replace("{hints}", hints))
        .collect();
    if screen != Screen::Map {
        items.push("esc back".into());
    }
    loop {
        let text = items
            .iter()
            .map(String::as_str)
            .chain(["?"])
            .collect::<Vec<_>>()
            .join(" · ");
        if text.width() <= width || items.is_empty() {
            return text;
        }
        // esc goes first (the help and the header say it), then the
        // last (the least important) of the screen's own.
        let at = items.iter().position(|i| i == "esc back").unwrap_or(items.len() - 1);
        items.remove(at);
    }
}

/// Every table as docs/keys.md shows it (a Markdown table,
/// the keys that work everywhere first), between its markers.
pub fn docs_table() -> String {
    let mut out = String::from("| Where | Key | What it does |\n|---|---|---|\n");
    let screens = [
        ("everywhere", GLOBAL),
        ("map", MAP),
        ("lesson", LESSON),
        ("exercise", EXERCISE),
        ("quiz", QUIZ),
        ("glossary", GLOSSARY),
    ];
    for (name, table) in screens {
        for (i, binding) in table.iter().enumerate() {
            let keys: Vec<String> = names(binding).iter().map(|k| format!("`{k}`")).collect();
            let place = if i == 0 { format!(" {name} ") } else { " ".into() };
            out.push_str(&format!("|{place}| {} | {} |\n", keys.join(" "), binding.what));
        }
    }
    out
}
