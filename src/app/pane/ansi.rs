//! The compiler's coloured output as lines of styled runs: the SGR escape
//! sequences (`ESC [ … m`) cargo and rustc write turned into ratatui
//! styles, every other escape sequence dropped. A few dozen lines in place
//! of a parser crate (and the parser-combinator crate under it) that cost
//! the release build more to compile than the app needed of them.

use ratatui::style::{Color, Modifier, Style};

/// `output`'s lines (as [`str::lines`] splits them), each as `(text,
/// style)` runs; a style carries on across lines until a sequence changes
/// it, as on a terminal. Empty runs are left out; a line with no text is an
/// empty list.
pub fn styled_lines(output: &str) -> Vec<Vec<(String, Style)>> {
    let mut style = Style::default();
    output
        .lines()
        .map(|line| {
            let mut runs: Vec<(String, Style)> = Vec::new();
            let mut text = String::new();
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                if c != '\x1b' {
                    text.push(c);
                    continue;
                }
                if chars.peek() != Some(&'[') {
                    // An escape that is not a control sequence: dropped.
                    continue;
                }
                chars.next();
                // Parameters and intermediates, up to the final byte.
                let mut params = String::new();
                let mut last = None;
                for c in chars.by_ref() {
                    if ('\x40'..='\x7e').contains(&c) {
                        last = Some(c);
                        break;
                    }
                    params.push(c);
                }
                if last == Some('m') {
                    let next = apply(style, &params);
                    if next != style && !text.is_empty() {
                        runs.push((std::mem::take(&mut text), style));
                    }
                    style = next;
                }
            }
            if !text.is_empty() {
                runs.push((text, style));
            }
            runs
        })
        .collect()
}

/// `style` after the SGR parameters `params` (`1;31`, empty for a reset).
fn apply(mut style: Style, params: &str) -> Style {
    let codes: Vec<u16> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
    let mut codes = codes.into_iter();
    while let Some(code) = codes.next() {
        style = match code {
            0 => Style::reset(),
            1 => style.add_modifier(Modifier::BOLD),
            2 => style.add_modifier(Modifier::DIM),
            3 => style.add_modifier(Modifier::ITALIC),
            4 => style.add_modifier(Modifier::UNDERLINED),
            5 => style.add_modifier(Modifier::SLOW_BLINK),
            6 => style.add_modifier(Modifier::RAPID_BLINK),
            7 => style.add_modifier(Modifier::REVERSED),
            8 => style.add_modifier(Modifier::HIDDEN),
            9 => style.add_modifier(Modifier::CROSSED_OUT),
            21 | 22 => style.remove_modifier(Modifier::BOLD | Modifier::DIM),
            23 => style.remove_modifier(Modifier::ITALIC),
            24 => style.remove_modifier(Modifier::UNDERLINED),
            25 => style.remove_modifier(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK),
            27 => style.remove_modifier(Modifier::REVERSED),
            28 => style.remove_modifier(Modifier::HIDDEN),
            29 => style.remove_modifier(Modifier::CROSSED_OUT),
            30..=37 => style.fg(BASIC[usize::from(code - 30)]),
            90..=97 => style.fg(BRIGHT[usize::from(code - 90)]),
            40..=47 => style.bg(BASIC[usize::from(code - 40)]),
            100..=107 => style.bg(BRIGHT[usize::from(code - 100)]),
            39 => style.fg(Color::Reset),
            49 => style.bg(Color::Reset),
            38 | 48 => match extended(&mut codes) {
                Some(color) if code == 38 => style.fg(color),
                Some(color) => style.bg(color),
                None => style,
            },
            _ => style,
        };
    }
    style
}

/// The colour after `38;` or `48;`: `5;N` (the 256-colour palette) or
/// `2;R;G;B`.
fn extended(codes: &mut impl Iterator<Item = u16>) -> Option<Color> {
    let mut byte = || codes.next().and_then(|c| u8::try_from(c).ok());
    match byte()? {
        5 => Some(Color::Indexed(byte()?)),
        2 => Some(Color::Rgb(byte()?, byte()?, byte()?)),
        _ => None,
    }
}

/// Colours 30–37 (and 40–47 as backgrounds).
const BASIC: [Color; 8] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
];

/// Colours 90–97 (and 100–107 as backgrounds).
const BRIGHT: [Color; 8] = [
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn bold() -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }

    #[test]
    fn cargo_error_line_becomes_styled_runs() {
        // What cargo writes for `error[E0425]: …` with colours on.
        let out = "\x1b[0m\x1b[1m\x1b[38;5;9merror[E0425]\x1b[0m\x1b[0m\x1b[1m: cannot find value `x`\x1b[0m";
        let lines = styled_lines(out);
        let red = Style::reset().add_modifier(Modifier::BOLD).fg(Color::Indexed(9));
        let plain_bold = Style::reset().add_modifier(Modifier::BOLD);
        assert_eq!(
            lines,
            vec![vec![
                ("error[E0425]".to_string(), red),
                (": cannot find value `x`".to_string(), plain_bold),
            ]]
        );
    }

    #[test]
    fn a_style_carries_over_a_newline_until_reset() {
        let lines = styled_lines("\x1b[1;32mok\nstill\x1b[0m plain\r\n");
        let green = bold().fg(Color::Green);
        assert_eq!(lines[0], vec![("ok".to_string(), green)]);
        assert_eq!(
            lines[1],
            vec![("still".to_string(), green), (" plain".to_string(), Style::reset())]
        );
        assert_eq!(lines.len(), 2, "no empty line after the last newline: {lines:?}");
        assert_eq!(styled_lines("a\n\nb").len(), 3, "an empty line between two is kept");
    }

    #[test]
    fn colours_of_every_kind_and_their_resets() {
        let s = apply(Style::default(), "91;44");
        assert_eq!(s, Style::default().fg(Color::LightRed).bg(Color::Blue));
        assert_eq!(apply(s, "39;49"), Style::default().fg(Color::Reset).bg(Color::Reset));
        assert_eq!(
            apply(Style::default(), "38;2;1;2;3"),
            Style::default().fg(Color::Rgb(1, 2, 3))
        );
        assert_eq!(
            apply(Style::default(), "48;5;200"),
            Style::default().bg(Color::Indexed(200))
        );
        assert_eq!(apply(Style::default(), "107"), Style::default().bg(Color::White));
        // A colour cut short leaves the style as it was.
        assert_eq!(apply(Style::default(), "38;5"), Style::default());
        let normal = apply(bold().add_modifier(Modifier::DIM), "22");
        assert_eq!(
            (normal.add_modifier, normal.sub_modifier),
            (Modifier::empty(), Modifier::BOLD | Modifier::DIM)
        );
        assert_eq!(apply(bold(), ""), Style::reset(), "an empty parameter list resets");
    }

    #[test]
    fn other_sequences_are_dropped_and_their_text_kept() {
        // A cursor move, an erase, a lone escape, the text around them.
        let lines = styled_lines("a\x1b[2Kb\x1b[10;4Hc\x1bd");
        assert_eq!(lines, vec![vec![("abcd".to_string(), Style::default())]]);
    }
}
