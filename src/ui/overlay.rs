//! Overlays: the help sheet and confirmation dialogs.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::theme::Theme;
use crate::app::{Confirm, Screen};

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width.saturating_sub(2));
    let h = height.min(area.height.saturating_sub(2));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

const GLOBAL: &[(&str, &str)] = &[
    ("?", "this help (any key closes it)"),
    ("esc q", "back where you came from (q on the map quits)"),
    ("ctrl-c", "quit from anywhere"),
];

fn keys(screen: Screen) -> &'static [(&'static str, &'static str)] {
    match screen {
        Screen::Map => &[
            ("↑↓ j k", "choose a part"),
            ("enter l", "read the part's lesson"),
            ("e", "the part's next unfinished exercise"),
            ("z", "the part's quiz"),
            ("t", "the glossary of terms"),
            ("n", "whatever comes next"),
            ("R", "reset all progress (asks first)"),
        ],
        Screen::Lesson => &[
            ("↑↓ j k", "scroll a line"),
            ("space b", "page down, page up"),
            ("n p  ] [", "next, previous section"),
            ("g G", "top, bottom"),
            ("e z", "the part's exercises, its quiz"),
            ("t", "the glossary of terms"),
        ],
        Screen::Exercise => &[
            ("save", "the check reruns when the file changes"),
            ("c x", "check now, cancel a check"),
            ("↑↓ j k", "choose a case; its reason and frames show"),
            ("space K", "scroll the right pane down, up"),
            ("t b", "the task, the compiler output"),
            ("h", "the hints revealed so far (↑↓ scroll them)"),
            ("H", "reveal the next hint"),
            ("o", "open the file in $VISUAL or $EDITOR"),
            ("s", "the reference solution (once passed)"),
            ("r", "restore the shipped stub (asks first)"),
            ("n p", "next, previous exercise (skip)"),
            ("l z", "the lesson, the quiz"),
        ],
        Screen::Quiz => &[
            ("a–f", "answer"),
            ("enter n →", "next question, once answered"),
            ("p ←", "previous question"),
            ("r", "take the quiz again (on its summary)"),
        ],
        Screen::Glossary => &[
            ("↑↓ j k", "choose a term"),
            ("g G", "first, last term"),
            ("enter", "read the lesson section that teaches it"),
            ("esc t", "back where you came from"),
        ],
    }
}

/// Draws the help sheet for `screen`.
pub fn help(frame: &mut Frame, area: Rect, screen: Screen, theme: &Theme) {
    let own = keys(screen);
    let mut lines = Vec::new();
    for (key, what) in own.iter().chain(GLOBAL) {
        lines.push(Line::from(vec![
            Span::styled(format!(" {key:<11}"), theme.title),
            Span::raw(*what),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        " ▶ a line sent to your program · ◀ a line it sent",
        theme.dim,
    )));
    lines.push(Line::from(Span::styled(
        " ▷ ◁ the same for harness lines (calls to your functions)",
        theme.dim,
    )));
    let rect = centered(area, 64, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).block(Block::new().borders(Borders::ALL).title(" Keys ")),
        rect,
    );
}

/// Draws a confirmation dialog.
pub fn confirm(frame: &mut Frame, area: Rect, confirm: &Confirm, theme: &Theme) {
    let text = match confirm {
        Confirm::ResetExercise(id) => {
            format!("Restore exercises/{id} to the shipped stub? Your edits to it will be lost.")
        }
        Confirm::ResetProgress => {
            "Reset all progress: exercises done, hints, quiz answers, lessons read? Your exercise files are kept."
                .to_string()
        }
        Confirm::RetakeQuiz(part) => {
            format!("Take the quiz of Part {part} again? Your answers and score so far are cleared.")
        }
    };
    let lines = vec![
        Line::from(text),
        Line::default(),
        Line::from(Span::styled("y yes · any other key no", theme.dim)),
    ];
    let rect = centered(area, 56, 7);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(
            Block::new()
                .borders(Borders::ALL)
                .title(" Confirm ")
                .border_style(theme.warn),
        ),
        rect,
    );
}
