//! A full-screen, scrollable transcript for `mcplings wire --view FILE` on
//! a terminal: the exercise pane's transcript lines (`app::entry_lines`,
//! drawn by `ui::pane_line` in the workbook's theme), each entry followed
//! by a dim line of its time, method, id and schema verdict.
//!
//! Keys: ↑ ↓ (or j k) scroll a line, PgUp PgDn (or space) a screen, Home
//! End (or g G) to the ends, v shows the raw lines (or wide frames laid
//! out again), q or Esc quits.

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::{Look, PaneLine, entry_lines, transcript_title};
use crate::check::TranscriptEntry;
use crate::ui::theme::Theme;

/// One logged line: the entry and the note drawn under it.
#[derive(Debug, Clone)]
pub struct LogLine {
    /// The line as a transcript entry (direction, text, kind).
    pub entry: TranscriptEntry,
    /// Its time, method, id and verdict, in one line.
    pub note: String,
}

/// The key help in the footer.
const KEYS: &str = "↑↓ j k line · PgUp PgDn page · Home End · v raw · q quits";

/// Lays out `lines` for a pane `width` columns wide: wide frames
/// pretty-printed, or with `raw` each line as it was sent.
pub fn lay_out(lines: &[LogLine], raw: bool, width: usize) -> Vec<PaneLine> {
    let mut out = transcript_title("▶ to the server · ◀ from it", false, raw, width);
    for line in lines {
        out.extend(entry_lines(&line.entry, raw, width));
        out.push(PaneLine::one(format!("  {}", line.note), Look::Dim));
    }
    out
}

/// Draws the view: `title`, the laid-out lines from `top`, the key help.
pub fn draw(frame: &mut Frame, title: &str, laid: &[PaneLine], top: usize, theme: &Theme) {
    let [head, body, foot] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(frame.area());
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(title.to_string(), theme.bar))),
        head,
    );
    let shown: Vec<Line> = laid
        .iter()
        .skip(top)
        .take(body.height as usize)
        .map(|l| crate::ui::pane_line(l, theme))
        .collect();
    frame.render_widget(Paragraph::new(shown), body);
    let place = format!("{}/{} ", (top + body.height as usize).min(laid.len()), laid.len());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(place, theme.dim),
            Span::styled(KEYS, theme.dim),
        ])),
        foot,
    );
}

/// Opens the view on the terminal until q or Esc.
///
/// Errors: the terminal could not be set up, read or drawn to.
pub fn run(title: &str, lines: &[LogLine]) -> Result<(), String> {
    let theme = Theme::new(std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()));
    let mut terminal = super::take_terminal()?;
    let mut top = 0usize;
    let mut raw = false;
    let result = loop {
        let size = match terminal.size() {
            Ok(size) => size,
            Err(e) => break Err(e.to_string()),
        };
        let laid = lay_out(lines, raw, size.width as usize);
        let page = (size.height as usize).saturating_sub(2).max(1);
        top = top.min(laid.len().saturating_sub(page));
        if let Err(e) = terminal.draw(|f| draw(f, title, &laid, top, &theme)) {
            break Err(e.to_string());
        }
        match event::read() {
            Ok(Event::Key(key)) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char('q') | KeyCode::Esc => break Ok(()),
                KeyCode::Down | KeyCode::Char('j') => top += 1,
                KeyCode::Up | KeyCode::Char('k') => top = top.saturating_sub(1),
                KeyCode::PageDown | KeyCode::Char(' ') => top += page,
                KeyCode::PageUp => top = top.saturating_sub(page),
                KeyCode::Home | KeyCode::Char('g') => top = 0,
                KeyCode::End | KeyCode::Char('G') => top = usize::MAX,
                KeyCode::Char('v') => raw = !raw,
                _ => {}
            },
            Ok(_) => {}
            Err(e) => break Err(e.to_string()),
        }
    };
    super::give_back_terminal();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Direction, EntryKind};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn the_view_shows_entries_notes_and_keys() {
        let entry = |dir, line: &str| TranscriptEntry {
            dir,
            line: line.into(),
            id: None,
            time_ms: 0,
            kind: EntryKind::Frame,
        };
        let lines = vec![
            LogLine {
                entry: entry(Direction::ToLearner, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
                note: "0.004 s · ping · id 1 · valid".into(),
            },
            LogLine {
                entry: entry(Direction::FromLearner, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
                note: "0.005 s · id 1 · valid".into(),
            },
        ];
        let mut terminal = Terminal::new(TestBackend::new(70, 8)).unwrap();
        let laid = lay_out(&lines, false, 70);
        terminal
            .draw(|f| draw(f, "server.log", &laid, 0, &Theme::new(true)))
            .unwrap();
        let text: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
        for wanted in [
            "server.log",
            "Transcript",
            "▶ {\"jsonrpc\"",
            "◀ {\"jsonrpc\"",
            "ping · id 1 · valid",
            "q quits",
        ] {
            assert!(text.contains(wanted), "{wanted} in {text}");
        }
    }

    #[test]
    fn a_wide_frame_is_pretty_printed_and_v_shows_it_raw() {
        let frame =
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"gate"}}}"#;
        let lines = vec![LogLine {
            entry: TranscriptEntry {
                dir: Direction::FromLearner,
                line: frame.into(),
                id: None,
                time_ms: 0,
                kind: EntryKind::Frame,
            },
            note: "0.001 s · id 1 · valid".into(),
        }];
        let texts = |raw| lay_out(&lines, raw, 40).iter().map(PaneLine::text).collect::<Vec<_>>();
        let laid = texts(false);
        // Pretty-printed under the glyph: no line of it is a continuation.
        assert!(laid.contains(&r#"    "jsonrpc": "2.0","#.to_string()), "{laid:#?}");
        assert!(!laid.iter().any(|l| l.contains('┆')), "{laid:#?}");
        assert!(laid.iter().all(|l| l.chars().count() <= 40), "{laid:#?}");
        // Raw: the exact line, broken at characters behind the bar.
        let raw = texts(true);
        let joined: String = raw
            .iter()
            .filter(|l| l.starts_with("◀ ") || l.starts_with("┆ "))
            .map(|l| &l[l.char_indices().nth(2).unwrap().0..])
            .collect();
        assert_eq!(joined, frame);
    }
}
