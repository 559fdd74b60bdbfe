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

/// The footer of `screen` in state `when` beside a status, fitted to a
/// row `width` columns wide: the keys (the short forms of its bindings,
/// `{hints}` replaced by `hints`, then `esc back` off the map, then `?`)
/// and the status shown on the right. `statuses` are the status's forms,
/// longest first (none: no status). What gives way, in order, until it
/// fits: the status's longer forms; the keys' words ([`Binding::tight`]);
/// `esc back` and the keys the screen does not need ([`Binding::need`]),
/// the last first; then the ` · ` between the keys left (two spaces). A
/// needed key is never dropped.
pub fn footer(screen: Screen, when: When, hints: &str, statuses: &[String], width: usize) -> (String, String) {
    use unicode_width::UnicodeWidthStr;
    // (full form, tight form, needed)
    let mut items: Vec<(String, String, bool)> = table(screen)
        .iter()
        .filter(|b| !b.footer.is_empty() && (b.when == W::Always || b.when == when))
        .map(|b| {
            (
                b.footer.replace("{hints}", hints),
                b.tight.replace("{hints}", hints),
                b.need,
            )
        })
        .collect();
    if screen != Screen::Map {
        items.push(("esc back".into(), "esc back".into(), false));
    }
    let statuses: Vec<&str> = match statuses {
        [] => vec![""],
        forms => forms.iter().map(String::as_str).collect(),
    };
    let text = |items: &[(String, String, bool)], tight: bool, sep: &str| {
        items
            .iter()
            .map(|(full, short, _)| if tight { short.as_str() } else { full.as_str() })
            .chain(["?"])
            .collect::<Vec<_>>()
            .join(sep)
    };
    // The room the keys have beside `status` (its margins and a space).
    let room = |status: &str| width.saturating_sub(status.width() + 4);
    for status in &statuses {
        for tight in [false, true] {
            let keys = text(&items, tight, " · ");
            if keys.width() <= room(status) {
                return (keys, status.to_string());
            }
        }
    }
    let status = statuses.last().copied().unwrap_or("");
    loop {
        let keys = text(&items, true, " · ");
        if keys.width() <= room(status) {
            return (keys, status.to_string());
        }
        // esc goes first (the help and the header say it), then the last
        // (the least important) of the keys not needed.
        let drop = items
            .iter()
            .position(|(full, _, _)| full == "esc back")
            .or_else(|| items.iter().rposition(|(_, _, need)| !need));
        match drop {
            Some(at) => {
                items.remove(at);
            }
            // Only needed keys left: closer together.
            None => return (text(&items, true, "  "), status.to_string()),
        }
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
